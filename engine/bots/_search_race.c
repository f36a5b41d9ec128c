/* The search bot of the compiled race (engine/rules/compiled/_race.c): its
 * program and power-down choice (engine/bots/search.py, common.py) as the
 * race's RaceBot (_race_bot.h), its programs walked by the search bot's
 * loop (_play.c walk_hand) on its tables (tables.py Layered).
 *
 * race_bot(spec) turns a dict of the bot's tables and weights (race_bot.py
 * BotSpec) for one course into the capsule race() is given, checking every
 * index once. Under `superbot` (docs/rules.md 12.9) a robot hunting the
 * SuperBot scores its programs on a hunter's tables, which spec["hunt"]
 * gives (engine/bots/hunt.py hunt_scale). */
#include "_play.h"
#include "../rules/compiled/_race_bot.h"
#define SPEC_OF "race_bot"
#include "../rules/compiled/_spec.h"

#define CAPSULE_NAME RACE_BOT_CAPSULE

typedef struct {
    RaceBot bot;                            /* (first: the capsule's pointer is both) */
    Py_ssize_t n, F;
    int *flags, *card_kind, *card_priority;
    Py_buffer end, dmg;
    Py_ssize_t X, S, FIN, width;
    int64_t *value;
    int *from_square, *repair_dist;
    long flag_value, death_penalty, last_life_penalty, damage_weight, far, unreachable;
    PyObject *hunt;     /* hunt(square, facing, flags, archive, last_life) -> (value, dead, dmg) */
} SearchBot;

typedef struct {                            /* one race's scratch */
    int64_t *value, *ties;
} Scratch;

static void free_bot(SearchBot *s)
{
    int **arrays[] = {&s->flags, &s->card_kind, &s->card_priority, &s->from_square,
                      &s->repair_dist};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        PyMem_Free(*arrays[i]);
    PyMem_Free(s->value);
    Py_XDECREF(s->hunt);
    if (s->end.obj != NULL)
        PyBuffer_Release(&s->end);
    if (s->dmg.obj != NULL)
        PyBuffer_Release(&s->dmg);
    PyMem_Free(s);
}

static void capsule_gone(PyObject *capsule)
{
    free_bot(PyCapsule_GetPointer(capsule, CAPSULE_NAME));
}

static void *start(const RaceBot *bot)
{
    const SearchBot *s = (const SearchBot *)bot;
    Scratch *scratch = PyMem_Calloc(1, sizeof(Scratch));
    if (scratch != NULL) {
        scratch->value = PyMem_Malloc(s->X * sizeof(int64_t));
        scratch->ties = PyMem_Malloc(MOST_PROGRAMS * sizeof(int64_t));
    }
    if (scratch == NULL || scratch->value == NULL || scratch->ties == NULL) {
        if (scratch != NULL) {
            PyMem_Free(scratch->value);
            PyMem_Free(scratch->ties);
            PyMem_Free(scratch);
        }
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(scratch->value, s->value, s->X * sizeof(int64_t));
    return scratch;
}

static void stop(void *scratch)
{
    Scratch *done = scratch;
    PyMem_Free(done->value);
    PyMem_Free(done->ties);
    PyMem_Free(done);
}

/* search.py _hunting: a hunter's value, dead and damage tables (hunt.py
 * Hunt) for robot b, which hunts the SuperBot; 0, or -1 with an error. */
static int hunter(const SearchBot *c, const BotRobot *b, Py_buffer table[3])
{
    PyObject *got = PyObject_CallFunction(c->hunt, "iiiii", b->quarry[0], b->quarry[1],
                                          b->quarry[2], b->quarry[3], b->lives <= 1);
    if (got == NULL)
        return -1;
    int taken = 0;
    if (PyTuple_Check(got) && PyTuple_GET_SIZE(got) == 3)
        while (taken < 3 && PyObject_GetBuffer(PyTuple_GET_ITEM(got, taken), &table[taken],
                                               PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0)
            taken++;
    Py_DECREF(got);                 /* (the buffers keep the arrays) */
    int ok = taken == 3
        && table[0].ndim == 1 && signed_ints(&table[0], 8) && table[0].shape[0] == c->X
        && table[1].ndim == 1 && signed_ints(&table[1], 8) && table[1].shape[0] == c->F + 1
        && table[2].ndim == 2 && signed_ints(&table[2], 4) && table[2].shape[0] == 5
        && table[2].shape[1] == c->dmg.shape[1];
    if (ok)
        return 0;
    for (int i = 0; i < taken; i++)
        PyBuffer_Release(&table[i]);
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError,
                        "race_bot: hunt() must give (value, dead, dmg) tables of the bot's shapes");
    return -1;
}

/* SearchBot.program via the compiled decision (search.py _decided): the
 * first `free` registers from `hand`. -1 with an error. */
static int program(const RaceBot *bot, void *scratch, const BotRobot *b, const int *hand,
                   int size, int free, const BotDice *dice)
{
    const SearchBot *c = (const SearchBot *)bot;
    Scratch *own = scratch;
    int m = free < size ? free : size;
    Plan p;
    p.end = c->end;
    p.dmg = c->dmg;
    p.seqs.obj = NULL;
    p.steps.obj = NULL;
    p.packed = NULL;
    p.m = m;
    p.X = c->X;
    p.width = c->width;
    p.x0 = b->flags * c->S + b->sq * 4 + b->facing;
    for (int r = 0; r < 5; r++)             /* register_slots: rows first */
        p.slots[r] = r < m ? r : r < free || b->reg[r] < 0 ? ~KINDS      /* (~KINDS: no card) */
                                                           : ~c->card_kind[b->reg[r]];
    /* search.py _values: the destroyed states' values for this robot */
    int64_t dead[MOST_FLAGS + 1];
    int64_t penalty = b->lives <= 1 ? c->last_life_penalty : c->death_penalty;
    for (Py_ssize_t t = 0; t <= c->F; t++) {
        int back = t > b->flags ? c->flags[t - 1] : b->archive;
        int64_t left = t < c->F ? c->from_square[t * c->n + back] : 0;
        dead[t] = (int64_t)c->flag_value * t - left - penalty;
        if (t < c->F)
            own->value[t * c->S + c->S - 1] = dead[t];
    }
    Py_ssize_t X = c->X, F1 = c->F + 1;     /* (the shapes of value and dead) */
    Scoring s;
    memset(&s, 0, sizeof s);
    s.value.buf = own->value;
    s.value.shape = &X;
    s.dead.buf = dead;
    s.dead.shape = &F1;
    Py_buffer hunt[3];              /* a hunter's value, dead and dmg, in place of the racer's */
    int hunting = b->hunts && c->hunt != NULL;
    if (hunting) {
        if (hunter(c, b, hunt) < 0)
            return -1;
        s.value.buf = hunt[0].buf;
        s.dead.buf = hunt[1].buf;
        p.dmg = hunt[2];
    }
    s.room = b->room;
    s.S = c->S;
    s.fin = c->FIN;
    s.weight = c->damage_weight;
    /* the hand per kind, highest priority first (common.py by_kind) */
    int group[KINDS][DECK_SIZE];
    long counts[KINDS] = {0};
    for (int i = 0; i < size; i++) {
        int card = hand[i], k = c->card_kind[card], at = (int)counts[k]++;
        while (at > 0 && c->card_priority[group[k][at - 1]] < c->card_priority[card]) {
            group[k][at] = group[k][at - 1];
            at--;
        }
        group[k][at] = card;
    }
    Walk w = {&p, &s, TIES, {0}, 0, 0, own->ties, 0, 0};
    walk_hand(&w, counts);
    for (int i = 0; hunting && i < 3; i++)
        PyBuffer_Release(&hunt[i]);
    if (w.bad || w.n == 0) {
        PyErr_SetString(PyExc_IndexError, "race_bot: a table index out of range");
        return -1;
    }
    Py_ssize_t pick = w.nties > 1 ? dice->below(dice->race, w.nties) : 0;
    if (pick < 0)
        return -1;
    long digit[5];
    int taken[KINDS] = {0};
    kinds_of((long)own->ties[pick], m, digit);
    for (int j = 0; j < m; j++)
        b->reg[j] = group[digit[j]][taken[digit[j]]++];
    return 0;
}

/* common.py should_power_down */
static int powers_down(const RaceBot *bot, const BotRobot *b)
{
    const SearchBot *c = (const SearchBot *)bot;
    if (b->sq < 0)
        return 0;
    if (b->locked >= 4)
        return 1;
    if (b->locked >= 2) {
        long far = c->repair_dist[b->sq * 4 + b->facing];
        return far > c->far || far >= c->unreachable;
    }
    return 0;
}

static int table(PyObject *spec, const char *key, Py_buffer *b, int *bad)
{
    PyObject *o = *bad ? NULL : item(spec, key);
    if (o == NULL || PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        *bad = 1;
        return -1;
    }
    if (b->ndim != 2 || !signed_ints(b, 4) || b->shape[0] != 5) {
        PyErr_Format(PyExc_ValueError, "race_bot: %s: expected a (5, kinds * X) int32 table",
                     key);
        PyBuffer_Release(b);
        b->obj = NULL;
        *bad = 1;
        return -1;
    }
    return 0;
}

/* race_bot(spec): the capsule of the search bot that race() is given (race_bot.py
 * BotSpec for the keys). */
PyObject *race_bot(PyObject *self, PyObject *spec)
{
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "race_bot: expected a dict");
        return NULL;
    }
    SearchBot *c = PyMem_Calloc(1, sizeof(SearchBot));
    if (c == NULL)
        return PyErr_NoMemory();
    int bad = 0;
    c->bot.start = start;
    c->bot.stop = stop;
    c->bot.program = program;
    c->bot.powers_down = powers_down;
    Py_ssize_t n = c->n = c->bot.squares = number(spec, "squares", 1, (Py_ssize_t)MOST_SIDE * MOST_SIDE, &bad);
    Py_ssize_t F = c->F = c->bot.flags = number(spec, "flag_count", 1, MOST_FLAGS, &bad);
    c->flags = ints(spec, "flags", F, 0, n - 1, NULL, &bad);
    c->card_kind = ints(spec, "card_kind", DECK_SIZE, 0, KINDS - 1, NULL, &bad);
    c->card_priority = ints(spec, "card_priority", DECK_SIZE, 0, INT_MAX, NULL, &bad);
    /* the weights, in the range a score is safe in: at most flag_value * flags + last_life_penalty */
    const struct { const char *name; long *to; long lo, hi; } scalars[] = {
        {"flag_value", &c->flag_value, 0, MOST_RULE},
        {"death_penalty", &c->death_penalty, 0, MOST_RULE},
        {"last_life_penalty", &c->last_life_penalty, 0, MOST_RULE},
        {"damage_weight", &c->damage_weight, 0, MOST_RULE}, {"far", &c->far, 0, INT_MAX},
        {"unreachable", &c->unreachable, 0, INT_MAX},
    };
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        *scalars[i].to = (long)number(spec, scalars[i].name, scalars[i].lo, scalars[i].hi, &bad);
    /* the table sizes: their states are int32 (tables.py) */
    c->S = number(spec, "S", 4 * n + 1, 4 * n + 1, &bad);
    c->FIN = number(spec, "FIN", F * c->S, F * c->S, &bad);
    c->X = number(spec, "X", c->FIN + 5, c->FIN + 5, &bad);
    if (!bad && c->X > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "race_bot: a course too big for int32 tables");
        bad = 1;
    }
    c->from_square = ints(spec, "from_square", F * n, INT_MIN, INT_MAX, NULL, &bad);
    PyObject *hunt = bad ? NULL : item(spec, "hunt");
    if (hunt != NULL && hunt != Py_None && !PyCallable_Check(hunt)) {
        PyErr_SetString(PyExc_TypeError, "race_bot: hunt must be callable or None");
        bad = 1;
    } else if (hunt != NULL && hunt != Py_None) {
        c->hunt = Py_NewRef(hunt);
    }
    bad |= hunt == NULL;
    c->repair_dist = ints(spec, "repair_dist", 4 * n + 2, INT_MIN, INT_MAX, NULL, &bad);
    Py_buffer value = {0};
    PyObject *o = bad ? NULL : item(spec, "value");
    if (o != NULL && PyObject_GetBuffer(o, &value, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
        if (value.ndim == 1 && signed_ints(&value, 8) && value.shape[0] == c->X
            && (c->value = PyMem_Malloc(c->X * sizeof(int64_t))) != NULL)
            memcpy(c->value, value.buf, c->X * sizeof(int64_t));
        else if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "race_bot: value: expected X int64");
        PyBuffer_Release(&value);
    }
    bad |= c->value == NULL;
    if (!bad && table(spec, "end", &c->end, &bad) == 0 && table(spec, "dmg", &c->dmg, &bad) == 0) {
        c->width = c->end.shape[1];
        if (c->dmg.shape[1] != c->width || c->width != (KINDS + 1) * c->X) {
            PyErr_SetString(PyExc_ValueError, "race_bot: end and dmg: expected (5, 8 * X)");
            bad = 1;
        }
    }
    if (bad) {
        free_bot(c);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(c, CAPSULE_NAME, capsule_gone);
    if (capsule == NULL)
        free_bot(c);
    return capsule;
}
