/* What the two halves of rallyforge.engine.bots._play share: the search bot's walk of a
 * hand (_play.c) and the search bot of the compiled race that calls it (_search_race.c). */
#ifndef RALLYFORGE_PLAY_H
#define RALLYFORGE_PLAY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../rules/compiled/_limits.h"

#define KINDS 7

/* Sizes and state numbers are Py_ssize_t (64 bits wherever the tables can be
 * that big; long is 32 bits on Windows). */
typedef struct {
    Py_buffer end, dmg, seqs;   /* seqs: only for play and score */
    /* end and dmg packed per state (search.py Layered.steps_all), read instead
     * of them where given (decide, best_of_hands): NULL, or within `steps` */
    Py_buffer steps;
    const int32_t *packed;
    long counts[KINDS];         /* only for score_hand */
    long m;
    Py_ssize_t X, x0, width;    /* width: kinds * X, a table row */
    long slots[5];
} Plan;

typedef struct {                /* how an end is scored; out: none for best_of_hands */
    Py_buffer value, dead, out;
    Py_ssize_t room, S, fin, weight;
} Scoring;

/* Whether a buffer holds native signed integers of `size` bytes (its struct
 * format: "i", "l", "q" or the like, with no byte order but the native one). */
int signed_ints(const Py_buffer *b, Py_ssize_t size);

/* A hand's walk: its sequences in ascending order, depth first, so that
 * programs with a prefix in common play it once. What it keeps: every score
 * (into the Scoring's out), or the best score and the numbers of the
 * programs that reach it (into `ties`, 7 ** 5 at most). */
enum { SCORES, TIES };

typedef struct {
    const Plan *p;
    const Scoring *s;
    int mode;
    long counts[KINDS];
    Py_ssize_t n;       /* programs scored so far */
    int64_t best;       /* the best score so far (TIES) */
    int64_t *ties;      /* TIES: the best programs' numbers, ascending */
    Py_ssize_t nties;
    int bad;            /* a table index was out of range */
} Walk;

/* Walk the hand of `counts` from the plan's start. */
void walk_hand(Walk *w, const long counts[KINDS]);

/* rng.randrange(count) as an index, or -1 with an error. */
Py_ssize_t randrange(PyObject *rng, Py_ssize_t count);

/* The m kinds of program `seq`, the first register's first. */
static inline void kinds_of(long seq, long m, long digit[5])
{
    for (long j = m - 1; j >= 0; j--) {
        digit[j] = seq % KINDS;
        seq /= KINDS;
    }
}

/* _search_race.c */
PyObject *race_bot(PyObject *self, PyObject *spec);
PyObject *option_choice(PyObject *self, PyObject *args);
PyObject *dice_sample(PyObject *self, PyObject *args);

#endif
