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
    long recompile_draws;   /* new hands drawn to judge a Recompile */
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

/* How a robot's programs are scored (search.py _scoring, register_slots):
 * the walk's Plan and Scoring, on a hunter's tables where it hunts. It
 * points into itself: made in place by judge(), its rows set by rows(),
 * released by unjudge(). */
typedef struct {
    Plan p;
    Scoring s;
    int64_t dead[MOST_FLAGS + 1];
    Py_ssize_t X, F1;               /* (the shapes of value and dead) */
    Py_buffer hunt[3];              /* a hunter's value, dead and dmg, in place of the racer's */
    int hunting;
} Judge;

/* Robot b's Judge, with `room` the damage it may take (b->room, or less for
 * damage to come); 0, or -1 with an error. */
static int judge(Judge *j, const SearchBot *c, Scratch *own, const BotRobot *b, Py_ssize_t room)
{
    memset(j, 0, sizeof *j);
    Plan *p = &j->p;
    p->end = c->end;
    p->dmg = c->dmg;
    p->X = c->X;
    p->width = c->width;
    p->x0 = b->flags * c->S + b->sq * 4 + b->facing;
    /* search.py _values: the destroyed states' values for this robot */
    dead_values(c, b, j->dead);
    for (Py_ssize_t t = 0; t < c->F; t++)
        own->value[t * c->S + c->S - 1] = j->dead[t];
    j->X = c->X;
    j->F1 = c->F + 1;
    Scoring *s = &j->s;
    s->value.buf = own->value;
    s->value.shape = &j->X;
    s->dead.buf = j->dead;
    s->dead.shape = &j->F1;
    j->hunting = b->hunts && c->hunt != NULL;
    if (j->hunting) {
        if (hunter(c, b, j->hunt) < 0)
            return -1;
        s->value.buf = j->hunt[0].buf;
        s->dead.buf = j->hunt[1].buf;
        p->dmg = j->hunt[2];
    }
    s->room = room;
    s->S = c->S;
    s->fin = c->FIN;
    s->weight = c->damage_weight;
    return 0;
}

static void unjudge(Judge *j)
{
    for (int i = 0; j->hunting && i < 3; i++)
        PyBuffer_Release(&j->hunt[i]);
}

/* Programs of m cards into the first `free` registers (register_slots: rows
 * first, the locked registers' cards after). */
static void rows(Judge *j, const SearchBot *c, const BotRobot *b, int m, int free)
{
    j->p.m = m;
    for (int r = 0; r < 5; r++)
        j->p.slots[r] = r < m ? r : r < free || b->reg[r] < 0 ? ~KINDS     /* (~KINDS: no card) */
                                                              : ~c->card_kind[b->reg[r]];
}

/* Walk the hand of `counts` (into w->ties its best programs); 0, or -1 with an error. */
static int walked(Walk *w, const long counts[KINDS])
{
    walk_hand(w, counts);
    if (w->bad || w->n == 0) {
        PyErr_SetString(PyExc_IndexError, "race_bot: a table index out of range");
        return -1;
    }
    return 0;
}

/* SearchBot.program via the compiled decision (search.py _decided): the
 * first `free` registers from `hand`. -1 with an error. */
static int program(const RaceBot *bot, void *scratch, const BotRobot *b, const int *hand,
                   int size, int free, const BotDice *dice)
{
    const SearchBot *c = (const SearchBot *)bot;
    Scratch *own = scratch;
    int m = free < size ? free : size;
    Judge j;
    if (judge(&j, c, own, b, b->room) < 0)
        return -1;
    rows(&j, c, b, m, free);
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
    Walk w = {&j.p, &j.s, TIES, {0}, 0, 0, own->ties, 0, 0};
    int ok = walked(&w, counts) == 0;
    unjudge(&j);
    if (!ok)
        return -1;
    Py_ssize_t pick = w.nties > 1 ? dice->below(dice->race, w.nties) : 0;
    if (pick < 0)
        return -1;
    long digit[5];
    int taken[KINDS] = {0};
    kinds_of((long)own->ties[pick], m, digit);
    for (int i = 0; i < m; i++)
        b->reg[i] = group[digit[i]][taken[digit[i]]++];
    return 0;
}

/* ---- option card choices (search.py recompile, take_flywheel) */

/* The best score of the `size` cards of `hand` and `more` (-1: none) in m
 * registers (search.py best_scores, through the walk program() makes); 0,
 * or -1 with an error. */
static int best_score(Judge *j, const SearchBot *c, Scratch *own, const int *hand, int size,
                      int more, int64_t *best)
{
    long counts[KINDS] = {0};
    for (int i = 0; i < size; i++)
        counts[c->card_kind[hand[i]]]++;
    if (more >= 0)
        counts[c->card_kind[more]]++;
    Walk w = {&j->p, &j->s, TIES, {0}, 0, 0, own->ties, 0, 0};
    if (walked(&w, counts) < 0)
        return -1;
    *best = w.best;
    return 0;
}

/* rng.sample(population, k) as CPython 3.11's random.Random draws it, each
 * number from the dice (rng.randrange(n) is rng._randbelow(n)): picks from
 * a shrinking pool where a list of n is smaller than a set of k, else
 * indices drawn again until new. 0, or -1 with an error. */
static int sample(const BotDice *dice, const int *population, int n, int k, int *out)
{
    if (k < 0 || k > n || n > DECK_SIZE) {
        PyErr_SetString(PyExc_ValueError, "race_bot: a sample larger than its population");
        return -1;
    }
    /* random.py: 21 (a small set's size less an empty list's), for k > 5 plus
     * 4 ** ceil(log(3k, 4)), the smallest power of 4 at least 3k (3k is none,
     * and far enough from one for the float logarithm to agree, k <= DECK_SIZE) */
    long setsize = 21, four = 1;
    while (k > 5 && four < 3L * k)
        four *= 4;
    if (k > 5)
        setsize += four;
    if (n <= setsize) {
        int pool[DECK_SIZE];
        memcpy(pool, population, n * sizeof(int));
        for (int i = 0; i < k; i++) {
            Py_ssize_t at = dice->below(dice->race, n - i);
            if (at < 0)
                return -1;
            out[i] = pool[at];
            pool[at] = pool[n - i - 1];
        }
        return 0;
    }
    char selected[DECK_SIZE] = {0};
    for (int i = 0; i < k; i++) {
        Py_ssize_t at;
        do
            if ((at = dice->below(dice->race, n)) < 0)
                return -1;
        while (selected[at]);
        selected[at] = 1;
        out[i] = population[at];
    }
    return 0;
}

/* Whether a card of the deck is one of `count` cards: the same kind and
 * priority (search.py compares values, not cards). */
static int among(const SearchBot *c, int card, const int *cards, int count)
{
    for (int i = 0; i < count; i++)
        if (cards[i] >= 0 && c->card_kind[cards[i]] == c->card_kind[card]
            && c->card_priority[cards[i]] == c->card_priority[card])
            return 1;
    return 0;
}

/* SearchBot.recompile: whether new hands drawn from the cards it cannot see
 * (neither in its hand nor in its registers) score better on average, the
 * damage of Recompile taken, than the best program of this hand. */
static int recompiles(const RaceBot *bot, void *scratch, const BotRobot *b, const int *hand,
                      int size, int free, const BotDice *dice)
{
    if (size == 0 || free == 0)
        return 0;
    const SearchBot *c = (const SearchBot *)bot;
    int unseen[DECK_SIZE], n = 0, drawn[DECK_SIZE];
    for (int card = 0; card < DECK_SIZE; card++)
        if (!among(c, card, hand, size) && !among(c, card, b->reg, 5))
            unseen[n++] = card;
    Judge j;
    if (judge(&j, c, scratch, b, b->room) < 0)
        return -1;
    rows(&j, c, b, free < size ? free : size, free);
    int64_t best, total = 0, score = 0;
    int ok = best_score(&j, c, scratch, hand, size, -1, &best) == 0;
    j.s.room = b->room - 1;         /* (the hands drawn are played with its damage + 1) */
    for (long draw = 0; ok && draw < c->recompile_draws; draw++, total += score)
        ok = sample(dice, unseen, n, size, drawn) == 0
            && best_score(&j, c, scratch, drawn, size, -1, &score) == 0;
    unjudge(&j);
    if (!ok)
        return -1;
    /* (Python's float arithmetic: an int total divided, exact for these sizes) */
    return (double)total / (double)c->recompile_draws - (double)c->damage_weight > (double)best;
}

/* SearchBot.take_flywheel: whether the best program of the hand with the
 * Flywheel's card scores better than the best without it; always with an
 * empty hand. */
static int takes_flywheel(const RaceBot *bot, void *scratch, const BotRobot *b, const int *hand,
                          int size, int card, int free, const BotDice *dice)
{
    if (free == 0)
        return 0;
    if (size == 0)
        return 1;
    const SearchBot *c = (const SearchBot *)bot;
    Judge j;
    if (judge(&j, c, scratch, b, b->room) < 0)
        return -1;
    int64_t with_it, without;
    rows(&j, c, b, free < size + 1 ? free : size + 1, free);
    int ok = best_score(&j, c, scratch, hand, size, card, &with_it) == 0;
    rows(&j, c, b, free < size ? free : size, free);
    ok = ok && best_score(&j, c, scratch, hand, size, -1, &without) == 0;
    unjudge(&j);
    return ok ? with_it > without : -1;
}

/* The Python rng as the bot's dice (for option_choice). */
static Py_ssize_t rng_below(void *rng, Py_ssize_t n)
{
    return randrange(rng, n);
}

/* option_choice(bot, robot, hand, free, card, rng): the capsule's recompiles
 * (card -1) or takes_flywheel of the Flywheel's `card`, for a robot given as
 * (sq, facing, damage, lives, flags, archive, locked, room, (5 registers),
 * hunts, (quarry's square, facing, flags, archive)), the dice rng.randrange:
 * how tests hold the two to SearchBot's. */
PyObject *option_choice(PyObject *self, PyObject *args)
{
    PyObject *capsule, *given, *rng;
    int reg[5], hand[DECK_SIZE], free, card;
    BotRobot b;
    memset(&b, 0, sizeof b);
    if (!PyArg_ParseTuple(args, "O(iiiiiiii(iiiii)i(iiii))OiiO", &capsule, &b.sq, &b.facing,
                          &b.damage, &b.lives, &b.flags, &b.archive, &b.locked, &b.room,
                          &reg[0], &reg[1], &reg[2], &reg[3], &reg[4], &b.hunts, &b.quarry[0],
                          &b.quarry[1], &b.quarry[2], &b.quarry[3], &given, &free, &card, &rng))
        return NULL;
    const RaceBot *bot = PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    PyObject *cards = bot == NULL ? NULL : PySequence_Fast(given, "hand: expected a sequence");
    if (cards == NULL)
        return NULL;
    const SearchBot *c = (const SearchBot *)bot;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(cards);
    int bad = size > DECK_SIZE || free < 0 || free > 5 || card < -1 || card >= DECK_SIZE
              || b.sq < 0 || b.sq >= c->n || b.facing < 0 || b.facing > 3 || b.flags < 0
              || b.flags >= c->F || b.archive < 0 || b.archive >= c->n;
    for (Py_ssize_t i = 0; i < size && !bad; i++) {
        hand[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(cards, i));
        bad = hand[i] < 0 || hand[i] >= DECK_SIZE;
    }
    for (int r = 0; r < 5 && !bad; r++)
        bad = reg[r] < -1 || reg[r] >= DECK_SIZE;
    Py_DECREF(cards);
    if (bad || PyErr_Occurred()) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "option_choice: a robot or card out of range");
        return NULL;
    }
    b.reg = reg;
    BotDice dice = {rng_below, rng};
    void *scratch = bot->start(bot);
    if (scratch == NULL)
        return NULL;
    int chose = card < 0 ? bot->recompiles(bot, scratch, &b, hand, (int)size, free, &dice)
                         : bot->takes_flywheel(bot, scratch, &b, hand, (int)size, card, free,
                                               &dice);
    bot->stop(scratch);
    return chose < 0 ? NULL : PyBool_FromLong(chose);
}

/* dice_sample(population, k, rng): sample() of up to DECK_SIZE ints on
 * rng.randrange, for tests: rng.sample(population, k) from the same state. */
PyObject *dice_sample(PyObject *self, PyObject *args)
{
    PyObject *given, *rng;
    int k, population[DECK_SIZE], out[DECK_SIZE];
    if (!PyArg_ParseTuple(args, "OiO", &given, &k, &rng))
        return NULL;
    PyObject *items = PySequence_Fast(given, "population: expected a sequence");
    if (items == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    for (Py_ssize_t i = 0; i < n && i < DECK_SIZE; i++)
        population[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(items, i));
    Py_DECREF(items);
    if (PyErr_Occurred())
        return NULL;
    BotDice dice = {rng_below, rng};
    if (sample(&dice, population, (int)(n < DECK_SIZE + 1 ? n : DECK_SIZE + 1), k, out) < 0)
        return NULL;
    PyObject *drawn = PyList_New(k);
    for (int i = 0; drawn != NULL && i < k; i++) {
        PyObject *one = PyLong_FromLong(out[i]);
        if (one == NULL)
            Py_CLEAR(drawn);
        else
            PyList_SET_ITEM(drawn, i, one);
    }
    return drawn;
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
            *score = c->flag_value * c->F + (4 - r) - damage;
            return 0;
        }
    }
    if (damage >= b->room || flags >= c->F) {   /* (flags >= F: not so when planned) */
        *score = dead[flags];
        return 0;
    }
    int64_t left = c->dist[flags * 4 * c->n + out[4]];
    *score = c->flag_value * flags - (left < c->unreachable ? left : 2 * c->n) - damage;
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
    c->bot.recompiles = recompiles;
    c->bot.takes_flywheel = takes_flywheel;
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
        {"recompile_draws", &c->recompile_draws, 1, MOST_RULE},
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
