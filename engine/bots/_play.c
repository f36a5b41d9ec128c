/* The search bot's inner loop in C (engine/bots/search.py): a hand's programs
 * played register by register on the layered tables, one program at a time,
 * instead of one numpy gather per register over all programs. The numbers
 * are the same integers numpy computes; search.py falls back to numpy when
 * this module is not built.
 *
 * A program is its kind sequence's number: the kinds of its m registers as
 * the digits of a base-7 number, the first register's the most significant.
 * Arrays arrive through the buffer protocol (no numpy headers): the tables
 * `end` and `dmg` are C-contiguous (5, kinds * X) int32, programs 1-D int64;
 * outputs are C-contiguous and written in place. Every index is checked: a
 * bad one raises IndexError, never reads memory outside an array.
 *
 * The calls share their first seven arguments: end, dmg, the programs (an
 * int64 array of numbers; for score_hand the hand's 7 kind counts; for
 * best_of_hands a list of such counts), m,
 * slots (per register: the row of the program, 0 to m - 1, that fills it,
 * or ~kind for a fixed card), X, and x0 (the extended state they start from).
 *
 * decide and best_of_hands take one more argument, last and optional: the
 * same tables packed per state (search.py Layered.steps_all, C-contiguous
 * (5, X * (kinds + 1) * 2) int32: per register and state, the end and the
 * damage of each kind side by side), read instead of end and dmg. A walk
 * reads the moves of every kind from the states it reaches: packed, they
 * share a cache line, where end and dmg hold them 2 * 8 lines apart (on a
 * big board the loop waited on memory more than it computed). */
#include "_play.h"

int signed_ints(const Py_buffer *b, Py_ssize_t size)
{
    const char *f = b->format ? b->format : "B";
    if (*f == '@' || *f == '=' || (*f == (PY_LITTLE_ENDIAN ? '<' : '>')))
        f++;
    return b->itemsize == size && f[0] != '\0' && f[1] == '\0' && strchr("bhilq", f[0]) != NULL;
}

/* Whether a buffer holds signed integers of `size` bytes in `ndim` dimensions. */
static int check(Py_buffer *b, Py_ssize_t size, int ndim, const char *name)
{
    if (b->ndim != ndim || !signed_ints(b, size)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a %d-D array of %zd-byte integers",
                     name, ndim, size);
        return -1;
    }
    return 0;
}

static int get(PyObject *o, Py_buffer *b, int flags, Py_ssize_t size, int ndim, const char *name)
{
    if (PyObject_GetBuffer(o, b, flags | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (check(b, size, ndim, name) < 0) {
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* The 7 non-negative ints of a sequence into `out`. */
static int kind_counts(PyObject *o, long out[KINDS])
{
    PyObject *seq = PySequence_Fast(o, "counts: expected a sequence");
    if (seq == NULL)
        return -1;
    int bad = PySequence_Fast_GET_SIZE(seq) != KINDS;
    for (int k = 0; k < KINDS && !bad; k++) {
        out[k] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        bad = out[k] < 0;
    }
    Py_DECREF(seq);
    if (PyErr_Occurred())
        return -1;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "counts: expected 7 counts of cards, one per kind");
        return -1;
    }
    return 0;
}

static void release(Plan *p)
{
    PyBuffer_Release(&p->end);
    PyBuffer_Release(&p->dmg);
    if (p->seqs.obj != NULL)
        PyBuffer_Release(&p->seqs);
    if (p->steps.obj != NULL)
        PyBuffer_Release(&p->steps);
}

/* The seven shared arguments of a call `name` that takes `wanted` in all;
 * `hand`: args[2] is the hand's counts (1), not numbers (0), or read by the
 * caller (2). */
static int plan(Plan *p, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t wanted,
                const char *name, int hand)
{
    if (nargs != wanted) {
        PyErr_Format(PyExc_TypeError, "%s: expected %zd arguments", name, wanted);
        return -1;
    }
    p->seqs.obj = NULL;
    p->steps.obj = NULL;
    p->packed = NULL;
    if (get(args[0], &p->end, 0, 4, 2, "end") < 0)
        return -1;
    if (get(args[1], &p->dmg, 0, 4, 2, "dmg") < 0) {
        PyBuffer_Release(&p->end);
        return -1;
    }
    if (hand == 1 ? kind_counts(args[2], p->counts) < 0
        : hand == 0 && get(args[2], &p->seqs, 0, 8, 1, "seqs") < 0)
        goto fail;
    if (p->end.shape[0] != 5 || p->dmg.shape[0] != 5 || p->end.shape[1] != p->dmg.shape[1]) {
        PyErr_SetString(PyExc_ValueError, "end and dmg: expected two (5, kinds * X) tables");
        goto fail;
    }
    p->width = p->end.shape[1];
    p->m = PyLong_AsLong(args[3]);
    if (PyErr_Occurred())
        goto fail;
    if (p->m < 1 || p->m > 5) {
        PyErr_SetString(PyExc_ValueError, "m: expected 1 to 5 registers");
        goto fail;
    }
    PyObject *slots = PySequence_Fast(args[4], "slots: expected a sequence");
    if (slots == NULL)
        goto fail;
    if (PySequence_Fast_GET_SIZE(slots) != 5) {
        Py_DECREF(slots);
        PyErr_SetString(PyExc_ValueError, "slots: expected 5 registers");
        goto fail;
    }
    for (int r = 0; r < 5; r++)
        p->slots[r] = PyLong_AsLong(PySequence_Fast_GET_ITEM(slots, r));
    Py_DECREF(slots);
    p->X = PyNumber_AsSsize_t(args[5], PyExc_OverflowError);
    p->x0 = PyNumber_AsSsize_t(args[6], PyExc_OverflowError);
    if (PyErr_Occurred())
        goto fail;
    if (p->X < 1 || p->width / (KINDS + 1) < p->X) {
        PyErr_SetString(PyExc_ValueError, "X: expected 1 to the tables' width / 8");
        goto fail;
    }
    for (int r = 0; r < 5; r++) {
        if (p->slots[r] >= p->m) {
            PyErr_SetString(PyExc_IndexError, "slots: a row beyond the programs' m");
            goto fail;
        }
    }
    return 0;
fail:
    release(p);
    return -1;
}

/* Register r played with `kind` from state *x: its damage added to *taken.
 * 0, or -1 when the index is out of range. */
static inline int step(const Plan *p, int r, long kind, Py_ssize_t *x, long *taken)
{
    Py_ssize_t idx = kind * p->X + *x;
    if (idx < 0 || idx >= p->width)
        return -1;
    if (p->packed != NULL) {
        if (*x < 0 || *x >= p->X || kind < 0 || kind > KINDS)
            return -1;
        const int32_t *move = p->packed + ((r * p->X + *x) * (KINDS + 1) + kind) * 2;
        *taken += move[1];
        *x = move[0];
        return 0;
    }
    *taken += ((const int32_t *)p->dmg.buf)[r * p->width + idx];
    *x = ((const int32_t *)p->end.buf)[r * p->width + idx];
    return 0;
}

/* Program i (of `seqs`): its end state and damage; 0, or -1 out of range. */
static inline int play_one(const Plan *p, Py_ssize_t i, Py_ssize_t *x, long *taken)
{
    long digit[5];
    kinds_of((long)((const int64_t *)p->seqs.buf)[i], p->m, digit);
    *x = p->x0;
    *taken = 0;
    for (int r = 0; r < 5; r++) {
        long s = p->slots[r];
        if (step(p, r, s >= 0 ? digit[s] : ~s, x, taken) < 0)
            return -1;
    }
    return 0;
}

static PyObject *out_of_range(void)
{
    PyErr_SetString(PyExc_IndexError, "a table index out of range");
    return NULL;
}

static void release_scoring(Scoring *s)
{
    if (s->out.obj != NULL)
        PyBuffer_Release(&s->out);
    PyBuffer_Release(&s->dead);
    PyBuffer_Release(&s->value);
}

/* args[7..12]: value, dead, room, S, FIN, damage_weight; then `out`, n
 * scores to write (NULL: none, only the best is kept). */
static int scoring(Scoring *s, PyObject *const *args, PyObject *out, Py_ssize_t n)
{
    s->out.obj = NULL;
    if (get(args[7], &s->value, 0, 8, 1, "value") < 0)
        return -1;
    if (get(args[8], &s->dead, 0, 8, 1, "dead") < 0) {
        PyBuffer_Release(&s->value);
        return -1;
    }
    if (out != NULL && get(out, &s->out, PyBUF_WRITABLE, 8, 1, "score_out") < 0) {
        PyBuffer_Release(&s->dead);
        PyBuffer_Release(&s->value);
        return -1;
    }
    s->room = PyNumber_AsSsize_t(args[9], PyExc_OverflowError);
    s->S = PyNumber_AsSsize_t(args[10], PyExc_OverflowError);
    s->fin = PyNumber_AsSsize_t(args[11], PyExc_OverflowError);
    s->weight = PyNumber_AsSsize_t(args[12], PyExc_OverflowError);
    if (!PyErr_Occurred() && ((out != NULL && s->out.shape[0] != n) || s->S <= 0))
        PyErr_SetString(PyExc_ValueError, "score_out: expected one score per program; S > 0");
    if (PyErr_Occurred()) {
        release_scoring(s);
        return -1;
    }
    return 0;
}

/* The score of ending at x with `taken` damage: value[x] - weight * taken,
 * or dead[x // S] when the damage reaches `room` before a finish (x < FIN).
 * 0, or -1 out of range. */
static inline int score_one(const Scoring *s, Py_ssize_t x, long taken, int64_t *out)
{
    if (x < 0 || x >= s->value.shape[0])
        return -1;
    if (taken >= s->room && x < s->fin) {
        if (x / s->S >= s->dead.shape[0])
            return -1;
        *out = ((const int64_t *)s->dead.buf)[x / s->S];
    } else {
        *out = ((const int64_t *)s->value.buf)[x] - (int64_t)s->weight * taken;
    }
    return 0;
}

/* play(end, dmg, seqs, m, slots, X, x0, x_out, taken_out): each program's end
 * state and board-laser damage, into two int32 arrays of n. */
static PyObject *play(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Plan p;
    if (plan(&p, args, nargs, 9, "play", 0) < 0)
        return NULL;
    Py_buffer xs, ts;
    Py_ssize_t n = p.seqs.shape[0];
    if (get(args[7], &xs, PyBUF_WRITABLE, 4, 1, "x_out") < 0) {
        release(&p);
        return NULL;
    }
    if (get(args[8], &ts, PyBUF_WRITABLE, 4, 1, "taken_out") < 0) {
        PyBuffer_Release(&xs);
        release(&p);
        return NULL;
    }
    int bad = xs.shape[0] != n || ts.shape[0] != n;
    int32_t *xo = xs.buf, *to = ts.buf;
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        Py_ssize_t x;
        long taken;
        bad = play_one(&p, i, &x, &taken) < 0;
        xo[i] = (int32_t)x;
        to[i] = (int32_t)taken;
    }
    PyBuffer_Release(&xs);
    PyBuffer_Release(&ts);
    release(&p);
    return bad ? out_of_range() : Py_NewRef(Py_None);
}

/* score(end, dmg, seqs, m, slots, X, x0, value, dead, room, S, FIN,
 * damage_weight, score_out): each program's score (score_one) into n int64. */
static PyObject *score(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Plan p;
    if (plan(&p, args, nargs, 14, "score", 0) < 0)
        return NULL;
    Scoring s;
    Py_ssize_t n = p.seqs.shape[0];
    if (scoring(&s, args, args[13], n) < 0) {
        release(&p);
        return NULL;
    }
    int bad = 0;
    int64_t *out = s.out.buf;
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        Py_ssize_t x;
        long taken;
        bad = play_one(&p, i, &x, &taken) < 0 || score_one(&s, x, taken, out + i) < 0;
    }
    release_scoring(&s);
    release(&p);
    return bad ? out_of_range() : Py_NewRef(Py_None);
}

static void walk(Walk *w, long depth, Py_ssize_t x, long taken, long seq);

/* A program played to its last row, ending at x with `taken`: the fixed
 * registers after the rows, then its score. 0, or -1 out of range. */
static inline int program_score(const Plan *p, const Scoring *s, Py_ssize_t x, long taken,
                                int64_t *score)
{
    for (long r = p->m; r < 5; r++)
        if (step(p, (int)r, ~p->slots[r], &x, &taken) < 0)
            return -1;
    return score_one(s, x, taken, score);
}

/* Program `seq`, played to its last row, ending at x with `taken`. */
static void leaf(Walk *w, Py_ssize_t x, long taken, long seq)
{
    int64_t score;
    if ((w->bad = program_score(w->p, w->s, x, taken, &score) < 0))
        return;
    if (w->mode == SCORES) {
        if (w->n >= w->s->out.shape[0]) {
            w->bad = 1;
            return;
        }
        ((int64_t *)w->s->out.buf)[w->n] = score;
    } else {
        if (w->n == 0 || score > w->best) {
            w->best = score;
            w->nties = 0;
        }
        if (score == w->best) {
            if (w->nties >= MOST_PROGRAMS) {
                w->bad = 1;
                return;
            }
            w->ties[w->nties++] = seq;
        }
    }
    w->n++;
}

/* Walk the hand of `counts` from the plan's start. */
void walk_hand(Walk *w, const long counts[KINDS])
{
    memcpy(w->counts, counts, sizeof w->counts);
    w->n = 0;
    walk(w, 0, w->p->x0, 0, 0);
}

/* The arguments of a call that walks hands (score_hand, best_of_hands,
 * decide; plan's `hand` as there): the plan, its rows filling the first m
 * registers and fixed cards the rest (else a ValueError), and the scoring,
 * into `out` (NULL: none). 0, or -1 with nothing held. */
static int hand_call(Plan *p, Scoring *s, PyObject *const *args, Py_ssize_t nargs,
                     Py_ssize_t wanted, const char *name, int hand, PyObject *out)
{
    /* decide and best_of_hands (no `out`) take the packed tables as one
     * more, optional argument */
    int packed = out == NULL && nargs == wanted + 1;
    if (plan(p, args, nargs, packed ? nargs : wanted, name, hand) < 0)
        return -1;
    if (packed && args[wanted] != Py_None) {
        if (get(args[wanted], &p->steps, 0, 4, 2, "steps") < 0) {
            release(p);
            return -1;
        }
        if (p->steps.shape[0] != 5 || p->width != (KINDS + 1) * p->X
                || p->steps.shape[1] != 2 * p->width) {
            PyErr_SetString(PyExc_ValueError,
                            "steps: expected a (5, X * 8 * 2) table beside (5, X * 8) ones");
            release(p);
            return -1;
        }
        p->packed = p->steps.buf;
    }
    for (long r = 0; r < 5; r++) {
        if (r < p->m ? p->slots[r] != r : p->slots[r] >= 0) {
            PyErr_SetString(PyExc_ValueError, "slots: the rows must fill the first m registers");
            release(p);
            return -1;
        }
    }
    Py_ssize_t n = out == NULL ? 0 : PyObject_Length(out);
    if (n < 0 || scoring(s, args, out, n) < 0) {
        release(p);
        return -1;
    }
    return 0;
}

static void walk(Walk *w, long depth, Py_ssize_t x, long taken, long seq)
{
    const Plan *p = w->p;
    for (long k = 0; k < KINDS && !w->bad; k++) {
        if (w->counts[k] > 0) {
            Py_ssize_t x2 = x;
            long taken2 = taken;
            if ((w->bad = step(p, (int)depth, k, &x2, &taken2) < 0))
                return;
            if (depth + 1 == p->m) {
                leaf(w, x2, taken2, seq * KINDS + k);
            } else {
                w->counts[k]--;
                walk(w, depth + 1, x2, taken2, seq * KINDS + k);
                w->counts[k]++;
            }
        }
    }
}

/* score_hand(end, dmg, counts, m, slots, X, x0, value, dead, room, S, FIN,
 * damage_weight, score_out): the score of every distinct program of the hand
 * (`counts` cards per kind), in the order of ``programs``; the rows fill
 * the first m registers (slots[r] == r). score_out holds exactly their number. */
static PyObject *score_hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Plan p;
    Scoring s;
    if (hand_call(&p, &s, args, nargs, 14, "score_hand", 1, args[13]) < 0)
        return NULL;
    Py_ssize_t n = s.out.shape[0];
    Walk w = {&p, &s, SCORES, {0}, 0, 0, NULL, 0, 0};
    walk_hand(&w, p.counts);
    int short_out = !w.bad && w.n != n;
    release_scoring(&s);
    release(&p);
    if (short_out) {
        PyErr_SetString(PyExc_ValueError, "score_out: not one score per program of the hand");
        return NULL;
    }
    return w.bad ? out_of_range() : Py_NewRef(Py_None);
}

/* Several hands walked together (best_of_hands): each sequence of kinds
 * once, for the hands that hold its cards, so that the hands' programs in
 * common (most of them: hands of 9 cards over 7 kinds) play once. A hand
 * holds a prefix's next kind k when it has more cards of k than the prefix
 * uses: `holding[k][used]` are the hands (a bit each) with more than `used`
 * cards of kind k. Any number of hands, TOGETHER at a time. */
#define TOGETHER ((Py_ssize_t)(8 * sizeof(uint64_t)))

typedef struct {
    const Plan *p;
    const Scoring *s;
    uint64_t holding[KINDS][5];
    long used[KINDS];
    int64_t best[TOGETHER];
    uint64_t scored;    /* the hands with a program scored */
    int bad;
} Together;

static void together_walk(Together *w, long depth, Py_ssize_t x, long taken, uint64_t hands)
{
    const Plan *p = w->p;
    for (long k = 0; k < KINDS && !w->bad; k++) {
        uint64_t held = hands & w->holding[k][w->used[k]];
        if (held == 0)
            continue;
        Py_ssize_t x2 = x;
        long taken2 = taken;
        if ((w->bad = step(p, (int)depth, k, &x2, &taken2) < 0))
            return;
        if (depth + 1 < p->m) {
            w->used[k]++;
            together_walk(w, depth + 1, x2, taken2, held);
            w->used[k]--;
            continue;
        }
        int64_t score;
        if ((w->bad = program_score(p, w->s, x2, taken2, &score) < 0))
            return;
        uint64_t each = held;
        for (int h = 0; each != 0; h++, each >>= 1) {
            if ((each & 1) && (!(w->scored >> h & 1) || score > w->best[h]))
                w->best[h] = score;
        }
        w->scored |= held;
    }
}

/* best_of_hands(end, dmg, hands, m, slots, X, x0, value, dead, room, S, FIN,
 * damage_weight[, steps]): per hand (`hands`: a list of kind counts), the
 * best score of its programs (as score_hand), a list of ints; the hands
 * walked together. */
static PyObject *best_of_hands(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Plan p;
    Scoring s;
    if (hand_call(&p, &s, args, nargs, 13, "best_of_hands", 2, NULL) < 0)
        return NULL;
    PyObject *hands = PySequence_Fast(args[2], "hands: expected a sequence of counts");
    Py_ssize_t n = hands == NULL ? 0 : PySequence_Fast_GET_SIZE(hands);
    PyObject *bests = hands == NULL ? NULL : PyList_New(n);
    for (Py_ssize_t first = 0; bests != NULL && first < n; first += TOGETHER) {
        Py_ssize_t size = n - first < TOGETHER ? n - first : TOGETHER;
        Together w;
        memset(&w, 0, sizeof w);
        w.p = &p;
        w.s = &s;
        int ok = 1;
        for (Py_ssize_t h = 0; h < size && ok; h++) {
            long counts[KINDS];
            ok = kind_counts(PySequence_Fast_GET_ITEM(hands, first + h), counts) == 0;
            for (int k = 0; ok && k < KINDS; k++)
                for (long used = 0; used < 5 && used < counts[k]; used++)
                    w.holding[k][used] |= (uint64_t)1 << h;
        }
        if (ok) {
            together_walk(&w, 0, p.x0, 0, size == TOGETHER ? ~(uint64_t)0
                                                            : ((uint64_t)1 << size) - 1);
            if (w.bad) {
                out_of_range();
                ok = 0;
            }
        }
        for (Py_ssize_t h = 0; h < size && ok; h++) {
            PyObject *best = NULL;
            if (!(w.scored >> h & 1))
                PyErr_SetString(PyExc_ValueError, "hands: a hand with no program of m cards");
            else
                best = PyLong_FromLongLong(w.best[h]);
            ok = best != NULL;
            if (ok)
                PyList_SET_ITEM(bests, first + h, best);
        }
        if (!ok)
            Py_CLEAR(bests);
    }
    Py_XDECREF(hands);
    release_scoring(&s);
    release(&p);
    return bests;
}

/* The cards of a hand per kind, each kind's highest priority first (a card
 * with no priority counts as 0; equal ones keep the hand's order, as a
 * stable sort). Borrowed references: the hand holds them. */

typedef struct {
    PyObject *card[KINDS][MOST_CARDS];
    long priority[KINDS][MOST_CARDS];
    long counts[KINDS];
} Groups;

/* The names of a card's attributes, made once (at import): a decision reads
 * them of every card in the hand. */
static PyObject *kind_name, *priority_name;

static int group(Groups *g, PyObject *hand, PyObject *kind_code)
{
    memset(g->counts, 0, sizeof g->counts);
    Py_ssize_t size = PySequence_Fast_GET_SIZE(hand);
    if (size > MOST_CARDS) {
        PyErr_SetString(PyExc_ValueError, "hand: too many cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *card = PySequence_Fast_GET_ITEM(hand, i);
        PyObject *kind = PyObject_GetAttr(card, kind_name);
        PyObject *code = kind == NULL ? NULL : PyDict_GetItemWithError(kind_code, kind);
        Py_XDECREF(kind);
        long k = code == NULL ? -1 : PyLong_AsLong(code);
        PyObject *value = code == NULL ? NULL : PyObject_GetAttr(card, priority_name);
        long priority = value == NULL || value == Py_None ? 0 : PyLong_AsLong(value);
        Py_XDECREF(value);
        if (PyErr_Occurred())
            return -1;
        if (code == NULL || k < 0 || k >= KINDS) {
            PyErr_SetString(PyExc_ValueError, "hand: a card of no program kind");
            return -1;
        }
        long at = g->counts[k]++;
        while (at > 0 && g->priority[k][at - 1] < priority) {     /* after those as high */
            g->card[k][at] = g->card[k][at - 1];
            g->priority[k][at] = g->priority[k][at - 1];
            at--;
        }
        g->card[k][at] = card;
        g->priority[k][at] = priority;
    }
    return 0;
}

/* rng.randrange(count) as an index, or -1 with an error. */
Py_ssize_t randrange(PyObject *rng, Py_ssize_t count)
{
    PyObject *got = PyObject_CallMethod(rng, "randrange", "n", count);
    Py_ssize_t r = got == NULL ? -1 : PyLong_AsSsize_t(got);
    Py_XDECREF(got);
    if (r < 0 || r >= count) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "rng.randrange: out of range");
        return -1;
    }
    return r;
}

/* decide(end, dmg, hand, m, slots, X, x0, value, dead, room, S, FIN,
 * damage_weight, kind_code, rng): the search bot's program of m cards from
 * `hand` (a list of cards; kind_code maps a card's kind to its code): the
 * best score of its distinct programs (as score_hand), among equals the one
 * rng.randrange(count) picks (called only when there are several), each
 * kind's cards highest priority first. */
static PyObject *decide(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Plan p;
    Scoring s;
    if (hand_call(&p, &s, args, nargs, 15, "decide", 2, NULL) < 0)
        return NULL;
    PyObject *result = NULL, *hand = PySequence_Fast(args[2], "hand: expected a sequence");
    Groups g;
    /* its own, not static: the rng is Python code, which may let another thread decide */
    int64_t *ties = PyMem_Malloc(MOST_PROGRAMS * sizeof(int64_t));
    if (ties == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (hand == NULL || !PyDict_Check(args[13])) {
        if (hand != NULL)
            PyErr_SetString(PyExc_TypeError, "kind_code: expected a dict");
        goto done;
    }
    if (group(&g, hand, args[13]) < 0)
        goto done;
    Walk w = {&p, &s, TIES, {0}, 0, 0, ties, 0, 0};
    walk_hand(&w, g.counts);
    if (w.bad) {
        out_of_range();
        goto done;
    }
    if (w.n == 0) {
        PyErr_SetString(PyExc_ValueError, "hand: fewer cards than m");
        goto done;
    }
    Py_ssize_t pick = w.nties > 1 ? randrange(args[14], w.nties) : 0;
    if (pick < 0)
        goto done;
    long digit[5], taken[KINDS] = {0};
    kinds_of((long)ties[pick], p.m, digit);
    result = PyList_New(p.m);
    for (long j = 0; result != NULL && j < p.m; j++) {
        PyObject *card = g.card[digit[j]][taken[digit[j]]++];
        PyList_SET_ITEM(result, j, Py_NewRef(card));
    }
done:
    PyMem_Free(ties);
    Py_XDECREF(hand);
    release_scoring(&s);
    release(&p);
    return result;
}

/* Every sequence of `left` more kinds after `prefix` that the counts allow,
 * ascending: appended to `out` when it is not NULL, counted in *n. */
static void enumerate(long counts[KINDS], long prefix, long left, int64_t *out, Py_ssize_t *n)
{
    if (left == 0) {
        if (out != NULL)
            out[*n] = prefix;
        (*n)++;
        return;
    }
    for (int k = 0; k < KINDS; k++) {
        if (counts[k] > 0) {
            counts[k]--;
            enumerate(counts, prefix * KINDS + k, left - 1, out, n);
            counts[k]++;
        }
    }
}

/* programs(counts, m): the numbers of the distinct kind sequences of length m
 * that a hand with `counts` cards of each kind can play, ascending, as the
 * bytes of native int64s. */
static PyObject *programs(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "programs: expected 2 arguments");
        return NULL;
    }
    long counts[KINDS];
    if (kind_counts(args[0], counts) < 0)
        return NULL;
    long m = PyLong_AsLong(args[1]);
    if (PyErr_Occurred())
        return NULL;
    if (m < 1 || m > 5) {
        PyErr_SetString(PyExc_ValueError, "m: expected 1 to 5 registers");
        return NULL;
    }
    Py_ssize_t n = 0;
    enumerate(counts, 0, m, NULL, &n);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    if (out == NULL)
        return NULL;
    n = 0;
    enumerate(counts, 0, m, (int64_t *)PyBytes_AS_STRING(out), &n);
    return out;
}

/* best(score, out): the indices of the highest score, ascending, into `out`
 * (int64, at least as long); returns how many. */
static PyObject *best(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "best: expected 2 arguments");
        return NULL;
    }
    Py_buffer score, out;
    if (get(args[0], &score, 0, 8, 1, "score") < 0)
        return NULL;
    if (get(args[1], &out, PyBUF_WRITABLE, 8, 1, "out") < 0) {
        PyBuffer_Release(&score);
        return NULL;
    }
    const int64_t *s = score.buf;
    int64_t *o = out.buf;
    Py_ssize_t n = 0, size = score.shape[0];
    int room = out.shape[0] >= size && size > 0;
    for (Py_ssize_t i = 0; i < size && room; i++) {
        if (n == 0 || s[i] > s[o[0]])
            n = 0;
        if (n == 0 || s[i] == s[o[0]])
            o[n++] = i;
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&score);
    if (!room) {
        PyErr_SetString(PyExc_ValueError, "best: an empty score, or out shorter than it");
        return NULL;
    }
    return PyLong_FromSsize_t(n);
}

static PyMethodDef methods[] = {
    {"best", (PyCFunction)(void (*)(void))best, METH_FASTCALL, "best(score, out) -> n"},
    {"programs", (PyCFunction)(void (*)(void))programs, METH_FASTCALL,
     "programs(counts, m) -> bytes of int64"},
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL,
     "play(end, dmg, seqs, m, slots, X, x0, x_out, taken_out)"},
    {"score", (PyCFunction)(void (*)(void))score, METH_FASTCALL,
     "score(end, dmg, seqs, m, slots, X, x0, value, dead, room, S, FIN, damage_weight, "
     "score_out)"},
    {"decide", (PyCFunction)(void (*)(void))decide, METH_FASTCALL,
     "decide(end, dmg, hand, m, slots, X, x0, value, dead, room, S, FIN, damage_weight, "
     "kind_code, rng) -> list of m cards"},
    {"best_of_hands", (PyCFunction)(void (*)(void))best_of_hands, METH_FASTCALL,
     "best_of_hands(end, dmg, hands, m, slots, X, x0, value, dead, room, S, FIN, "
     "damage_weight) -> list"},
    {"score_hand", (PyCFunction)(void (*)(void))score_hand, METH_FASTCALL,
     "score_hand(end, dmg, counts, m, slots, X, x0, value, dead, room, S, FIN, damage_weight, "
     "score_out)"},
    {"race_bot", (PyCFunction)race_bot, METH_O,
     "race_bot(spec: BotSpec) -> the search bot of the compiled race (_search_race.c)"},
    {"option_choice", (PyCFunction)option_choice, METH_VARARGS,
     "option_choice(bot, robot, hand, free, card, rng) -> bool: the race bot's Recompile "
     "(card -1) or Flywheel choice (_search_race.c), for tests"},
    {"dice_sample", (PyCFunction)dice_sample, METH_VARARGS,
     "dice_sample(population, k, rng) -> list: rng.sample as the race bot draws it "
     "(_search_race.c), for tests"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_play",
    "The search bot's inner loop (engine/bots/search.py) and its bot of the compiled race "
    "(_search_race.c).", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__play(void)
{
    if (kind_name == NULL && (kind_name = PyUnicode_InternFromString("kind")) == NULL)
        return NULL;
    if (priority_name == NULL
        && (priority_name = PyUnicode_InternFromString("priority")) == NULL)
        return NULL;
    return PyModule_Create(&module);
}
