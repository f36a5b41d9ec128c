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
    int *dist, *laser_damage;       /* per flag target and state (tables.py dist); per square */
    long flag_value, death_penalty, last_life_penalty, damage_weight, far, unreachable;
    PyObject *hunt;     /* hunt(square, facing, flags, archive, last_life) -> (value, dead, dmg) */
} SearchBot;

typedef struct {                            /* one race's scratch */
    int64_t *value, *ties;
} Scratch;

static void free_bot(SearchBot *s)
{
    int **arrays[] = {&s->flags, &s->card_kind, &s->card_priority, &s->from_square,
                      &s->repair_dist, &s->dist, &s->laser_damage};
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

/* search.py dead_values (_values(...)[0]): per flags touched t (0 .. F),
 * the score of robot b destroyed having touched t flags. */
static void dead_values(const SearchBot *c, const BotRobot *b, int64_t dead[MOST_FLAGS + 1])
{
    int64_t penalty = b->lives <= 1 ? c->last_life_penalty : c->death_penalty;
    for (Py_ssize_t t = 0; t <= c->F; t++) {
        int back = t > b->flags ? c->flags[t - 1] : b->archive;
        int64_t left = t < c->F ? c->from_square[t * c->n + back] : 0;
        dead[t] = (int64_t)c->flag_value * t - left - penalty;
    }
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
    dead_values(c, b, dead);
    for (Py_ssize_t t = 0; t < c->F; t++)
        own->value[t * c->S + c->S - 1] = dead[t];
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

/* ---- movement options (option_moves.py, search.py _with_options) */

/* option_moves.py OptionMoves.score: into *score, the score of robot b
 * playing `registers` with uses and pairs (and the Gyroscopic Stabilizer if
 * steady), tried by the race alone on the board: 1000 per flag touched, minus
 * the registers left to the next flag and the board-laser damage taken;
 * destroyed (or the damage reaching its room), `dead` of the flags touched.
 * 0, or -1 with an error. */
static int option_score(const SearchBot *c, const BotRobot *b, const int64_t *dead,
                        const BotTrial *trial, const int *registers, const int *use,
                        const int *pair, const int *pair_with, int steady, int64_t *score)
{
    int out[5];
    if (trial->alone(trial->race, b->sq, b->facing, b->options, b->option_count, registers, use,
                     pair, pair_with, steady, out) < 0)
        return -1;
    Py_ssize_t flags = b->flags;
    int64_t damage = 0;
    for (int r = 0; r < 5; r++) {
        if (out[r] < 0 || out[r] >= 4 * c->n) {
            *score = dead[flags];
            return 0;
        }
        damage += c->laser_damage[out[r] >> 2];
        if (flags < c->F && out[r] >> 2 == c->flags[flags] && ++flags == c->F) {
            *score = 1000 * c->F + (4 - r) - damage;
            return 0;
        }
    }
    if (damage >= b->room || flags >= c->F) {   /* (flags >= F: not so when planned) */
        *score = dead[flags];
        return 0;
    }
    int64_t left = c->dist[flags * 4 * c->n + out[4]];
    *score = 1000 * flags - (left < c->unreachable ? left : 2 * c->n) - damage;
    return 0;
}

/* RaceBot.plan_options: search.py planned / _with_options, option_moves.py
 * OptionMoves.plan: register by register in `free`, the use of the card
 * (Fourth Gear, Reverse Gears, Brakes), then its pairs with a spare hand card
 * (Crab Legs, then Dual Processor: per rotate kind the first spare card of
 * it, in hand order), each kept when the program then scores strictly
 * better; last the Gyroscopic Stabilizer when the plan scores better with
 * it. The race asks for a robot that has a flag to touch and holds one of
 * those cards (search.py planned). */
static int plan_options(const RaceBot *bot, void *scratch, const BotRobot *b,
                        const int *registers, const int *free, int nfree, const int *hand,
                        int size, const BotTrial *trial, int use[5], int pair[5],
                        int pair_with[5], int *steady)
{
    const SearchBot *c = (const SearchBot *)bot;
    int held[OPTION_COUNT] = {0};
    for (int i = 0; i < b->option_count; i++)
        if (b->options[i] >= 0 && b->options[i] < OPTION_COUNT)
            held[b->options[i]] = 1;
    *steady = 0;
    for (int r = 0; r < 5; r++)
        use[r] = pair[r] = pair_with[r] = -1;
    int64_t dead[MOST_FLAGS + 1];
    dead_values(c, b, dead);
    int spare[DECK_SIZE], nspare = 0;           /* the hand's cards not in a register */
    for (int i = 0; i < size; i++) {
        int taken = 0;
        for (int r = 0; r < 5 && !taken; r++)
            taken = registers[r] == hand[i];
        if (!taken && nspare < DECK_SIZE)
            spare[nspare++] = hand[i];
    }
    int64_t best = 0, score;
    int scored = 0;                 /* best: the plan's score so far, once scored */
    for (int j = 0; j < nfree; j++) {
        int r = free[j];
        if (r < 0 || r > 4 || registers[r] < 0)
            continue;
        int kind = c->card_kind[registers[r]];
        int tries = 0, t_use[8], t_pair[8], t_with[8];      /* (at most 1 + 2 + 3) */
        int own = kind == MOVE3 ? FOURTH_GEAR : kind == BACK ? REVERSE_GEARS
                  : kind == MOVE1 ? BRAKES : -1;
        if (own >= 0 && held[own]) {
            t_use[0] = own;
            t_pair[0] = t_with[0] = -1;
            tries = 1;
        }
        static const int PAIRS[2] = {CRAB_LEGS, DUAL_PROCESSOR};
        for (int p = 0; p < 2; p++) {
            int which = PAIRS[p], dual = which == DUAL_PROCESSOR;
            /* (option_cards.py USE_KINDS: Crab Legs pairs a Move 1 with a Left
             * or Right, Dual Processor a move or Back up with any rotate) */
            if (!held[which] || !(kind == MOVE1 || (dual && kind <= BACK)))
                continue;
            int seen[KINDS] = {0};
            for (int i = 0; i < nspare; i++) {
                int k = c->card_kind[spare[i]];
                if ((k == LEFT || k == RIGHT || (dual && k == UTURN)) && !seen[k]) {
                    seen[k] = 1;
                    t_use[tries] = -1;
                    t_pair[tries] = spare[i];
                    t_with[tries] = which;
                    tries++;
                }
            }
        }
        if (tries == 0)
            continue;
        if (!scored) {
            if (option_score(c, b, dead, trial, registers, use, pair, pair_with, 0, &best) < 0)
                return -1;
            scored = 1;
        }
        int choice = -1;
        for (int t = 0; t < tries; t++) {
            use[r] = t_use[t];
            pair[r] = t_pair[t];
            pair_with[r] = t_with[t];
            if (option_score(c, b, dead, trial, registers, use, pair, pair_with, 0, &score) < 0)
                return -1;
            if (score > best) {
                best = score;
                choice = t;
            }
        }
        use[r] = choice < 0 ? -1 : t_use[choice];
        pair[r] = choice < 0 ? -1 : t_pair[choice];
        pair_with[r] = choice < 0 ? -1 : t_with[choice];
        for (int i = 0; pair[r] >= 0 && i < nspare; i++) {      /* the pair's card is taken */
            if (spare[i] == pair[r]) {
                memmove(spare + i, spare + i + 1, (--nspare - i) * sizeof(int));
                break;
            }
        }
    }
    if (held[GYROSCOPIC_STABILIZER]) {              /* OptionMoves.steady */
        if (!scored && option_score(c, b, dead, trial, registers, use, pair, pair_with, 0,
                                    &best) < 0)
            return -1;
        if (option_score(c, b, dead, trial, registers, use, pair, pair_with, 1, &score) < 0)
            return -1;
        *steady = score > best;
    }
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
    c->bot.plan_options = plan_options;
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
    c->dist = ints(spec, "dist", F * 4 * n, 0, INT_MAX, NULL, &bad);
    c->laser_damage = ints(spec, "laser_damage", n, 0, INT_MAX, NULL, &bad);
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
