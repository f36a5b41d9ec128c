/* Reading a spec: the dict of flat tables and numbers from which a compiled
 * part builds its capsule (the course: _race.c race_course; a bot:
 * engine/bots/_search_race.c race_bot), every value range-checked once.
 * Each function takes `bad` and does nothing once it is set, so that a
 * reader checks it once at the end. Define SPEC_OF (the name errors begin
 * with) before including it. */
#ifndef RALLYFORGE_SPEC_H
#define RALLYFORGE_SPEC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *item(PyObject *spec, const char *key)
{
    PyObject *o = PyDict_GetItemString(spec, key);
    if (o == NULL)
        PyErr_Format(PyExc_KeyError, SPEC_OF ": no %s", key);
    return o;
}

/* spec[key]: an int lo..hi; -1 with an error otherwise. */
static Py_ssize_t number(PyObject *spec, const char *key, Py_ssize_t lo, Py_ssize_t hi, int *bad)
{
    PyObject *o = *bad ? NULL : item(spec, key);
    Py_ssize_t v = o == NULL ? -1 : PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (o != NULL && !PyErr_Occurred() && (v < lo || v > hi))
        PyErr_Format(PyExc_ValueError, SPEC_OF ": %s = %zd is out of range (%zd to %zd)",
                     key, v, lo, hi);
    *bad |= PyErr_Occurred() != NULL;
    return *bad ? -1 : v;
}

/* spec[key]: a sequence of `size` ints (any size when size < 0, given in
 * *got), each lo..hi, copied; NULL with an error otherwise. */
static int *ints(PyObject *spec, const char *key, Py_ssize_t size, long lo, long hi,
                 Py_ssize_t *got, int *bad)
{
    PyObject *o = *bad ? NULL : item(spec, key);
    PyObject *seq = o == NULL ? NULL : PySequence_Fast(o, SPEC_OF ": expected a sequence");
    int *out = NULL;
    if (seq != NULL) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        if (size >= 0 && n != size)
            PyErr_Format(PyExc_ValueError, SPEC_OF ": %s: expected %zd numbers", key, size);
        else if ((out = PyMem_Malloc((n ? n : 1) * sizeof(int))) == NULL)
            PyErr_NoMemory();
        for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (PyErr_Occurred() || v < lo || v > hi) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_ValueError, SPEC_OF ": %s[%zd] = %ld is out of range",
                                 key, i, v);
                PyMem_Free(out);
                out = NULL;
            } else {
                out[i] = (int)v;
            }
        }
        if (got != NULL)
            *got = n;
        Py_DECREF(seq);
    }
    *bad |= out == NULL;
    return out;
}

#endif
