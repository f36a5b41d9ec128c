/* A whole race in C, for balance runs: the rules of engine/rules (race.py,
 * movement.py, conveyors.py, board_elements.py, lasers.py, checkpoints.py,
 * cleanup.py, programming.py, and with played option cards option_holding.py,
 * option_play.py, option_weapons.py, option_arm.py: _options.h) step for step,
 * on a course without levels, its robots programmed by a compiled bot
 * (_race_bot.h; the search bot's is engine/bots/_search_race.c). The
 * same seed gives the same race as the Python engine, number for number:
 * tests/test_compiled_race.py and tests/test_compiled_differential.py play
 * both. engine/rules/compiled/race.py says what it plays and makes its
 * course; engine/analysis/balance/compiled.py reads what it returns.
 *
 * race_course(spec) turns a dict of flat tables (race.py CourseSpec: the
 * compiled course and the rules) into a capsule, checking every index once;
 * race(course, bot, rng, robots, turned) plays a race with the race's
 * random.Random (its getrandbits, as the Python code draws from it) and
 * returns what a balance run keeps of it. Boards that turn when a flag is
 * touched (docs/rules.md 12.10) are turned in Python: `turned`, called where
 * checkpoints.py calls floor.on_flag, flips the coin with the same
 * generator and gives the turned board's course and bot, which the race
 * plays on at once (board_turns below). Flags that ride the belts (12.1)
 * move here (carry_flags below); as the bots next decide, `moved`, given
 * where the flags now stand, gives the course and bot with the flags there
 * (show_flags). On an elimination course (13.6, no flags) each bot heads for
 * the nearest robot of another team: aim(square) gives the bot made for the
 * course with its one flag there (deciding). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_limits.h"
#include "_options.h"
#include "_race_bot.h"
#define SPEC_OF "race_course"
#include "_spec.h"

#define RANDOM_SPAN (1ULL << 60)    /* programming.py _RANDOM_SPAN */
#define COURSE_CAPSULE "rallyforge.engine.rules.compiled.race_course"

enum { OFF_BOARD = -1, WALL = -2 };
/* Course.hot bits (engine/rules/course.py) */
enum { EXPRESS_BIT = 1, CONVEYOR_BIT = 2, CURRENT_BIT = 4, PUSHER_BIT = 8, GEAR_BIT = 16,
       CRUSHER_BIT = 32, RANDOMIZER_BIT = 64 };
/* what a square does to a card played on it (spec "square") */
enum { TELEPORTER = 1, SLOW = 2, RANDOMIZER = 4 };
/* (card kinds: _race_bot.h) */
/* causes of destruction; a deadly square's own cause is its spec "death" code (3 on) */
enum { OFF_THE_BOARD, CRUSHED, DAMAGED };
/* the races C plays of docs/rules.md 13 (rule `victory`: race.py VICTORIES) */
enum { ROBOT_VICTORY, PLAYER, TEAM_PROGRESS, TEAM_ANY, ELIMINATION };
/* what sent a robot to its destruction (state.py Blame); NOBODY: None */
enum { NOBODY, BY_CARD, BY_PUSH, BY_PUSHER, BY_EXPRESS, BY_CONVEYOR, BY_CURRENT, BY_TELEPORT,
       BY_LASER, BY_ROBOT_LASER, BY_CRUSHER, BY_RAMMING_GEAR, BY_RECOMPILE, BY_MINI_HOWITZER,
       BY_PRESSOR_BEAM, BY_TRACTOR_BEAM };

static const int DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};

typedef struct {
    Py_ssize_t w, h, n, F, lasers;      /* (Py_ssize_t: 64 bits where sizes multiply) */
    int has_randomizer;
    int *target, *death, *square, *belt, *gear, *hot, *archive_point, *flags;
    int *upgrade;                           /* per square: an upgrade square (7.1) */
    int *pushers, pusher_start[7];          /* (square, dir) pairs, by register 1-5 */
    int *laser_square, *laser_beams, *laser_dir;   /* laser_dir: where its beam goes */
    int *beam_start, *beam_k, *beam_place;  /* beams crossing square s: beam_start[s] .. [s+1] */
    int *dist;                              /* F * n: path distance to flag t+1, -1 none */
    int *card_kind, *card_priority;
    long lives, hand_size, destroy_at, lock_from, respawn, robot_lasers, flags_repair,
        any_flag, teleport_back, max_rounds, finish_first, laser_damage, power_down, superbot,
        victory;
    /* option cards (docs/rules.md 10, 12.5, 12.6): played, dealt at the start (with a
     * draft of `draft`), a card per flag touched, repair sites that give cards */
    long played, start_options, draft, flag_gives_option, options_sites;
} Course;

typedef struct {
    int sq, facing, damage, lives, flags, archive;
    int destroyed, out, fin_round, fin_reg, powered_down, announced, decided, pending;
    int superbot;               /* holds the SuperBot title (12.9) */
    int team, blocker;          /* its team (-1 none) and whether it is a blocker (13) */
    int reg[5];                 /* card numbers (DECK order), -1 empty */
    long death_seq;
    Options o;                  /* its option cards, when they are played */
    int held_any;               /* it gained a card in this race */
} Robot;

typedef struct Race {
    const Course *c;
    Robot r[MOST_ROBOTS];
    int count, *occ;            /* occ: the robot on each square, -1 none */
    long moment;
    int round, over, outs, finishers;
    int deck[DECK_SIZE], deck_size, top;
    PyObject *getrandbits, *deaths;
    int *flag_rounds;           /* count * F */
    long *occupancy;
    const RaceBot *bot;
    void *scratch;              /* the bot's, for this race (and this board: board_turns) */
    int *order, *near_place, *near_robot;  /* per board laser, for fire() */
    Py_ssize_t laser_room;      /* (the lasers they have room for) */
    PyObject *turned;           /* turned(square) -> (course, bot) or None; NULL: no board turns */
    PyObject *moved;            /* moved(flag squares) -> (course, bot); NULL: flags stay (12.1) */
    int flags[MOST_FLAGS];      /* where the flags stand now; R->c's are where the bots saw them */
    int *flag_at;               /* per square: the number of the flag on it now, 0 none */
    int home[MOST_FLAGS];       /* the flags' squares in the file (where a moving flag goes back) */
    int unseen;                 /* the flags moved since the bots saw them */
    PyObject *held;             /* the (course, bot) pairs played on: in use until the race ends */
    int settled;                /* the program deck's order is fixed (cards put under it) */
    int odeck[OPTION_COUNT], odeck_size;    /* the option deck, its top first (10.1) */
    int gifts[MOST_ROBOTS * MOST_FLAGS], gift_count;    /* robots owed a card for a flag (10.2) */
    long option_uses[OPTION_COUNT];         /* per card, the times it changed an outcome */
    PyObject *upgrades;         /* the squares upgrade squares gave cards on */
    int failed;                 /* a Python error is set: unwind */
    /* elimination (docs/rules.md 13.6): the bots aimed at each goal square, made by
     * aim(square) on first use (deciding below; their capsules, the bots, their
     * scratch; how many, and room for how many), and whether a team won, which */
    PyObject *aim, **aimed_capsule;
    const RaceBot **aimed;
    void **aimed_scratch;
    Py_ssize_t aimed_count, aimed_room;
    int *paths;                 /* room for distances_to (paths_to), NULL until used */
    int won, winner;            /* (winner: -1 for a robot of no team) */
    struct Race *lone;          /* the bots' lone-robot floor (alone), NULL until used */
} Race;

/* ------------------------------------------------------------ the course */

static void free_course(Course *c)
{
    int **arrays[] = {&c->target, &c->death, &c->square, &c->belt, &c->gear, &c->hot,
                      &c->archive_point, &c->upgrade, &c->flags, &c->pushers, &c->laser_square,
                      &c->laser_beams, &c->laser_dir, &c->beam_start, &c->beam_k,
                      &c->beam_place, &c->dist, &c->card_kind, &c->card_priority};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        PyMem_Free(*arrays[i]);
    PyMem_Free(c);
}

static void capsule_gone(PyObject *capsule)
{
    free_course(PyCapsule_GetPointer(capsule, COURSE_CAPSULE));
}

/* race_course(spec): the capsule race() plays on (race.py CourseSpec for
 * the keys). */
static PyObject *race_course(PyObject *self, PyObject *spec)
{
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "race_course: expected a dict");
        return NULL;
    }
    Course *c = PyMem_Calloc(1, sizeof(Course));
    if (c == NULL)
        return PyErr_NoMemory();
    int bad = 0;
    c->w = number(spec, "width", 1, MOST_SIDE, &bad);
    c->h = number(spec, "height", 1, MOST_SIDE, &bad);
    c->F = number(spec, "flag_count", 0, MOST_FLAGS, &bad);
    Py_ssize_t n = c->n = bad ? 0 : c->w * c->h, F = c->F;
    Py_ssize_t got = 0;
    c->target = ints(spec, "target", 4 * n, WALL, n - 1, NULL, &bad);
    c->death = ints(spec, "death", n, 0, 255, NULL, &bad);
    c->square = ints(spec, "square", n, 0, 7, NULL, &bad);
    for (long s = 0; s < n && !bad; s++)
        c->has_randomizer |= c->square[s] & RANDOMIZER;
    c->belt = ints(spec, "belt", n, -1, 3, NULL, &bad);
    c->gear = ints(spec, "gear", n, 0, 3, NULL, &bad);
    c->hot = ints(spec, "hot", 6 * n, 0, 127, NULL, &bad);
    c->archive_point = ints(spec, "archive_point", n, 0, 1, NULL, &bad);
    c->upgrade = ints(spec, "upgrade", n, 0, 1, NULL, &bad);
    c->flags = ints(spec, "flags", F, 0, n - 1, NULL, &bad);
    /* (square, direction) pairs: each number 0..n-1 or 0..3, checked apart below */
    c->pushers = ints(spec, "pushers", -1, 0, n - 1 > 3 ? n - 1 : 3, &got, &bad);
    int *starts = ints(spec, "pusher_start", 7, 0, got, NULL, &bad);
    if (starts != NULL) {
        memcpy(c->pusher_start, starts, sizeof c->pusher_start);
        PyMem_Free(starts);
        bad = c->pusher_start[0] != 0 || c->pusher_start[6] != got;
        for (int r = 0; r < 6 && !bad; r++)
            bad = c->pusher_start[r] > c->pusher_start[r + 1] || c->pusher_start[r + 1] % 2;
        for (int i = 0; i + 1 < got && !bad; i += 2)
            bad = c->pushers[i] >= n || c->pushers[i + 1] > 3;
        if (bad)
            PyErr_SetString(PyExc_ValueError, "race_course: bad pushers");
    }
    c->laser_square = ints(spec, "laser_square", -1, 0, n - 1, &got, &bad);
    c->lasers = got;
    c->laser_beams = ints(spec, "laser_beams", c->lasers, 0, 1000, NULL, &bad);
    c->laser_dir = ints(spec, "laser_dir", c->lasers, 0, 3, NULL, &bad);
    c->beam_start = ints(spec, "beam_start", n + 1, 0, INT_MAX, NULL, &bad);
    Py_ssize_t beams = 0;
    c->beam_k = ints(spec, "beam_k", -1, 0, c->lasers - 1, &beams, &bad);
    c->beam_place = ints(spec, "beam_place", beams, 0, n, NULL, &bad);
    for (long s = 0; s < n && !bad; s++)
        bad = c->beam_start[s] > c->beam_start[s + 1] || c->beam_start[n] != beams;
    if (bad && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "race_course: bad beam_start");
    c->dist = ints(spec, "dist", F * n, -1, INT_MAX, NULL, &bad);
    c->card_kind = ints(spec, "card_kind", DECK_SIZE, 0, NO_CARD - 1, NULL, &bad);
    c->card_priority = ints(spec, "card_priority", DECK_SIZE, 0, INT_MAX, NULL, &bad);
    /* every scalar, in the range the code below is safe in */
    const struct { const char *name; long *to; long lo, hi; } scalars[] = {
        {"lives", &c->lives, 1, MOST_RULE}, {"hand_size", &c->hand_size, 0, DECK_SIZE},
        {"destroy_at", &c->destroy_at, 1, MOST_RULE}, {"lock_from", &c->lock_from, 0, MOST_RULE},
        {"respawn", &c->respawn, 0, MOST_RULE}, {"robot_lasers", &c->robot_lasers, 0, 1},
        {"flags_repair", &c->flags_repair, 0, 1}, {"any_flag", &c->any_flag, 0, 1},
        {"teleport_back", &c->teleport_back, 0, MOST_SIDE},
        {"max_rounds", &c->max_rounds, 1, MOST_RULE}, {"finish_first", &c->finish_first, 0, 1},
        {"robot_laser_damage", &c->laser_damage, 1, MOST_RULE},
        {"power_down", &c->power_down, 0, 1}, {"superbot", &c->superbot, 0, 1},
        {"victory", &c->victory, ROBOT_VICTORY, ELIMINATION},
        {"played_options", &c->played, 0, 1}, {"start_options", &c->start_options, 0, OPTION_COUNT},
        {"draft", &c->draft, 0, OPTION_COUNT}, {"flag_gives_option", &c->flag_gives_option, 0, 1},
        {"options_sites", &c->options_sites, 0, 1},
    };
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        *scalars[i].to = (long)number(spec, scalars[i].name, scalars[i].lo, scalars[i].hi, &bad);
    if (!bad && (F == 0) != (c->victory == ELIMINATION)) {     /* (13.6: no flags, and only there) */
        PyErr_SetString(PyExc_ValueError, "race_course: flags on an elimination course, or "
                        "none on another");
        bad = 1;
    }
    if (bad) {
        free_course(c);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(c, COURSE_CAPSULE, capsule_gone);
    if (capsule == NULL)
        free_course(c);
    return capsule;
}

/* ------------------------------------------------------------ dying and moving */

static int lock_count(const Course *c, int damage)                    /* cleanup.py */
{
    long k = damage - c->lock_from + 1;
    return k < 0 ? 0 : k > 5 ? 5 : (int)k;
}

static void at_destruction(Race *R, Robot *b);

/* Floor.destroy, with the balance run's death record. */
static void destroy(Race *R, Robot *b, int cause, int square, int agent, int origin)
{
    if (b->sq >= 0 && R->occ[b->sq] == b - R->r)
        R->occ[b->sq] = -1;
    b->sq = -1;
    b->destroyed = 1;
    b->death_seq = R->moment;
    b->lives--;
    if (R->c->played)
        at_destruction(R, b);
    if (b->lives <= 0) {
        b->out = 1;
        b->powered_down = b->announced = 0;
        R->outs++;
        if (R->c->victory == PLAYER && !b->blocker) {   /* teams.py went_out: its player is out */
            for (int i = 0; i < R->count; i++) {
                Robot *other = &R->r[i];
                if (other == b || other->team != b->team || other->out)
                    continue;
                if (other->sq >= 0)
                    R->occ[other->sq] = -1;
                other->sq = -1;
                other->out = 1;
                other->destroyed = other->powered_down = other->announced = 0;
                R->outs++;
            }
        }
    }
    if (R->failed || R->deaths == NULL)     /* (the lone floor keeps no record) */
        return;
    PyObject *death = Py_BuildValue("(iiiiiiii)", (int)(b - R->r), R->round, square, cause,
                                    b->flags + 1, agent, origin, b->out ? -1 : b->archive);
    if (death == NULL || PyList_Append(R->deaths, death) < 0)
        R->failed = 1;
    Py_XDECREF(death);
}

/* ------------------------------------------------------------ option cards (option_holding.py) */

/* used(): a card changed an outcome (play.py counts it). */
static void option_used(Race *R, Robot *b, int card)
{
    (void)b;
    R->option_uses[card]++;
}

/* OptionDeck.deal: the top card of the option deck, -1 when it is empty. */
static int deal_option(Race *R)
{
    if (R->odeck_size == 0)
        return -1;
    int card = R->odeck[0];
    memmove(R->odeck, R->odeck + 1, --R->odeck_size * sizeof(int));
    return card;
}

/* gain(): `card`, or the top of the option deck (none when it is empty: not owed, 10.1). */
static void gain(Race *R, Robot *b, int card, int why)
{
    if (card < 0 && (card = deal_option(R)) < 0)
        return;
    b->o.held[b->o.count++] = card;
    b->held_any = 1;
    if (why == GAINED_ON_UPGRADE && !R->failed) {
        PyObject *square = PyLong_FromLong(b->sq);
        if (square == NULL || PyList_Append(R->upgrades, square) < 0)
            R->failed = 1;
        Py_XDECREF(square);
    }
}

/* lose(): the card goes under the option deck, fresh (10.3). */
static void lose(Race *R, Robot *b, int card)
{
    Options *o = &b->o;
    int i = 0;
    while (i < o->count && o->held[i] != card)
        i++;
    if (i == o->count)
        return;
    memmove(o->held + i, o->held + i + 1, (--o->count - i) * sizeof(int));
    if (card == ABLATIVE_COAT)
        o->coat = 0;
    else if (card == MINI_HOWITZER)
        o->shells = 0;
    else if (card == FLYWHEEL)
        o->flywheel = -1;
    R->odeck[R->odeck_size++] = card;
}

/* OptionPolicy.give_up: the least valued card (the most recent of equals). */
static int give_up(const Robot *b)
{
    int best = -1;
    for (int i = b->o.count - 1; i >= 0; i--)
        if (best < 0 || BOT_VALUE[b->o.held[i]] < BOT_VALUE[best])
            best = b->o.held[i];
    return best;
}

/* OptionPolicy.keep: of a draft, the most valued card (the first of equals). */
static int keep(const int *cards, int count)
{
    int best = cards[0];
    for (int i = 1; i < count; i++)
        if (BOT_VALUE[cards[i]] > BOT_VALUE[best])
            best = cards[i];
    return best;
}

/* at_destruction(): the cheapest card goes; Superior Archive Copy re-enters with
 * 0 damage, also when it is that card. Fire Control locks lift, the Flywheel's card and
 * pairs go. */
static void at_destruction(Race *R, Robot *b)
{
    Options *o = &b->o;
    o->fc_count = 0;
    o->flywheel = -1;
    drop_pairs(o);
    if (o->count == 0)
        return;
    o->fresh = has(o, SUPERIOR_ARCHIVE_COPY);
    lose(R, b, give_up(b));
}

/* hurt(): damage point by point through Power-Down Shield (from `side`, once per side
 * and register), Ablative Coat, then a traded card (a bot trades when the point
 * would destroy or lock); the damage taken. Destroys nobody. */
static int hurt(Race *R, Robot *b, int points, int side)
{
    const Course *c = R->c;
    Options *o = &b->o;
    int taken = 0;
    long cap = c->destroy_at, trade_at = c->lock_from < cap ? c->lock_from : cap;
    for (int p = 0; p < points; p++) {
        if (c->played && o->count > 0) {
            if (side >= 0 && b->powered_down && has(o, POWER_DOWN_SHIELD)
                && !(o->shield_sides >> side & 1)) {
                o->shield_sides |= 1 << side;
                continue;
            }
            if (has(o, ABLATIVE_COAT)) {
                if (++o->coat >= COAT_POINTS)
                    lose(R, b, ABLATIVE_COAT);
                continue;
            }
            if (b->damage + taken + 1 >= trade_at) {              /* (a bot's trade) */
                lose(R, b, give_up(b));
                continue;
            }
        }
        taken++;
    }
    if (taken) {
        long damage = b->damage + taken;
        b->damage = (int)(damage < cap ? damage : cap);
    }
    return taken;
}

/* hurt_now(): damage outside the laser step, destroying at destroy_at at once (10.4). */
static void hurt_now(Race *R, Robot *b, int points, int side, int agent)
{
    hurt(R, b, points, side);
    if (b->sq >= 0 && b->damage >= R->c->destroy_at)
        destroy(R, b, DAMAGED, b->sq, agent, -1);
}

/* option_arm.py arm_reach: the squares of the 8 around `sq` with no wall between (both
 * ways round a corner free); into `out`, how many. */
static int arm_reach(const Course *c, int sq, int *out)
{
    int near[4], k = 0;
    for (int d = 0; d < 4; d++)
        if ((near[d] = c->target[sq * 4 + d]) >= 0)
            out[k++] = near[d];
    for (int d = 0; d < 4; d++) {
        int e = (d + 1) & 3, a = near[d], b = near[e];
        if (a >= 0 && b >= 0) {
            int via_a = c->target[a * 4 + e], via_b = c->target[b * 4 + d];
            if (via_a >= 0 && via_a == via_b)
                out[k++] = via_a;
        }
    }
    return k;
}

/* Floor.put: onto `square` from `came_from` (off the board when < 0). */
static void put(Race *R, Robot *b, int square, int came_from, int by)
{
    if (square < 0) {
        b->sq = -1;
        destroy(R, b, OFF_THE_BOARD, came_from, by, came_from);
        return;
    }
    b->sq = square;
    int cause = R->c->death[square];
    if (cause == 0)
        R->occ[square] = (int)(b - R->r);
    else
        destroy(R, b, cause, square, by, came_from);
}

/* movement.py step: one square towards d, onto a square known to be free. */
static void step(Race *R, Robot *b, int d, int by)
{
    int src = b->sq, dst = R->c->target[src * 4 + d];
    R->occ[src] = -1;
    put(R, b, dst, src, by);
}

/* movement.py push: whether the robot moved and is still on the board. */
static int push(Race *R, Robot *b, int d, int by)
{
    const int *target = R->c->target;
    int ahead = target[b->sq * 4 + d];
    if (ahead == WALL)
        return 0;
    if (ahead >= 0 && R->occ[ahead] >= 0) {
        int line[MOST_ROBOTS], count = 0, square = ahead;
        while (R->occ[square] >= 0) {           /* _line */
            line[count++] = R->occ[square];
            int beyond = target[square * 4 + d];
            if (beyond == WALL)
                return 0;
            if (beyond < 0)
                break;
            square = beyond;
        }
        while (count > 0) {             /* (one that left with its player meanwhile stays off, 13.2) */
            Robot *pushed = &R->r[line[--count]];
            if (pushed->sq >= 0)
                step(R, pushed, d, BY_PUSH);
        }
        if (b->sq < 0)
            return 0;
    }
    step(R, b, d, by);
    return b->sq >= 0;
}

static void turn(Robot *b, int quarter_turns)
{
    b->facing = (b->facing + quarter_turns) & 3;
}

/* movement.py jump: a movement card started on a teleporter (3.7). */
static void jump(Race *R, Robot *b, int d, int distance)
{
    const Course *c = R->c;
    int start = b->sq, x = start % c->w, y = start / c->w;
    R->occ[start] = -1;
    int tx = x + DX[d] * distance, ty = y + DY[d] * distance;
    if (tx < 0 || tx >= c->w || ty < 0 || ty >= c->h) {
        put(R, b, OFF_BOARD, start, BY_TELEPORT);
        return;
    }
    int square = ty * (int)c->w + tx;
    while (R->occ[square] >= 0) {
        int beyond = c->target[square * 4 + d];
        if (beyond == WALL) {                   /* _search_back */
            int found = start;
            for (int k = distance - 1; k > 0; k--) {
                int s = (y + DY[d] * k) * (int)c->w + x + DX[d] * k;
                if (R->occ[s] < 0) {
                    found = s;
                    break;
                }
            }
            square = found;
            break;
        }
        if (beyond == OFF_BOARD) {
            put(R, b, OFF_BOARD, square, BY_TELEPORT);
            return;
        }
        square = beyond;
    }
    put(R, b, square, start, BY_TELEPORT);
}

/* Quarter turns clockwise of a rotate card (LEFT, RIGHT, UTURN). */
static const int ROTATE_TURNS[3] = {3, 1, 2};

/* movement.py play_card; `extra`: squares a movement option adds to a move
 * (not to a jump from a teleporter). */
static void play_card(Race *R, Robot *b, int kind, int extra)
{
    static const int jumps[3] = {3, 4, 5};
    if (kind >= LEFT) {
        turn(b, ROTATE_TURNS[kind - LEFT]);
        return;
    }
    int d = kind == BACK ? (b->facing + 2) & 3 : b->facing;
    int steps = kind == BACK ? 1 : kind + 1;
    int square = R->c->square[b->sq];
    if (square & TELEPORTER) {
        jump(R, b, d, kind == BACK ? (int)R->c->teleport_back : jumps[kind]);
        return;
    }
    if (square & SLOW)
        steps--;
    steps += extra;
    for (int i = 0; i < steps; i++)
        if (!push(R, b, d, BY_CARD))
            return;
}

/* ---- moving with option cards (option_play.py) */

/* option_play.py steps: n single steps towards d with pushing; with Ramming
 * Gear the first robot of the first pushed line takes 1 damage at once,
 * also when the push is blocked, from the side the robot pushes from. */
static void option_steps(Race *R, Robot *b, int d, int n, int ram)
{
    for (; n > 0; n--) {
        if (ram) {
            int ahead = R->c->target[b->sq * 4 + d];
            if (ahead >= 0 && R->occ[ahead] >= 0) {
                ram = 0;
                option_used(R, b, RAMMING_GEAR);
                hurt_now(R, &R->r[R->occ[ahead]], 1, (d + 2) & 3, BY_RAMMING_GEAR);
            }
        }
        if (!push(R, b, d, BY_CARD))    /* (movement.py card_step: no ramps in C) */
            return;
    }
}

/* option_play.py play_with_options for a bot (no radio copies): robot b's
 * card of `kind` in register slot+1 with its planned use or pair
 * (docs/rules.md 10.5-10.6), or without a plan the bots' policy's; a use or
 * pair of a card not held is ignored. */
static void play_with_options(Race *R, Robot *b, int slot, int kind)
{
    const Options *o = &b->o;
    int tile = R->c->square[b->sq], wet = (tile & SLOW) != 0;
    int use = o->use[slot], ram = has(o, RAMMING_GEAR);
    if (use == NO_PLAN)     /* option_policy.py move_use: Fourth Gear on every Move 3 */
        use = kind == MOVE3 && has(o, FOURTH_GEAR) ? FOURTH_GEAR : -1;
    if (o->pair[slot] >= 0) {
        int which = o->pair_with[slot], rotate = R->c->card_kind[o->pair[slot]];
        if (has(o, which) && !(tile & TELEPORTER)) {
            option_used(R, b, which);
            if (which == CRAB_LEGS) {
                option_steps(R, b, (b->facing + ROTATE_TURNS[rotate - LEFT]) & 3, !wet, ram);
            } else {
                /* Dual Processor: the turn takes 1 square of the move (2 for a
                 * U-turn), a Back up counting as a move of 1 */
                int n = (kind == BACK ? 1 : kind + 1) - (rotate == UTURN ? 2 : 1) - wet;
                option_steps(R, b, b->facing, n, ram);
                if (b->sq >= 0)
                    turn(b, ROTATE_TURNS[rotate - LEFT]);
            }
            return;
        }
        use = -1;           /* Brakes and Fourth Gear do not apply to a pair's move card */
    }
    int extra = 0;
    if (use >= 0 && has(o, use)
        && kind == (use == BRAKES ? MOVE1 : use == FOURTH_GEAR ? MOVE3
                    : use == REVERSE_GEARS ? BACK : -1)) {
        option_used(R, b, use);
        if (use == BRAKES)
            return;         /* moves 0 squares (on a teleporter too, 10.5) */
        extra = 1;
    }
    /* only Ramming Gear's first push makes a move differ from a plain card's */
    if (!ram || kind >= LEFT || tile & TELEPORTER) {
        play_card(R, b, kind, extra);
        return;
    }
    int d = kind == BACK ? (b->facing + 2) & 3 : b->facing;
    option_steps(R, b, d, (kind == BACK ? 1 : kind + 1) - wet + extra, 1);
}

/* option_play.py MOVE_CARDS: whether the robot holds a card that changes a move. */
static int holds_move_card(const Options *o)
{
    static const int cards[] = {BRAKES, FOURTH_GEAR, REVERSE_GEARS, CRAB_LEGS, DUAL_PROCESSOR,
                                RAMMING_GEAR};
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
        if (has(o, cards[i]))
            return 1;
    return 0;
}

/* Step B for robot b, its card of register slot+1: with played options
 * (option_play.py play_register_cards, in race.py's order: highest priority
 * first, robot order on ties) by its movement options when it holds a card
 * that changes a move, else the plain card. */
static void play_register_card(Race *R, Robot *b, int slot)
{
    int kind = R->c->card_kind[b->reg[slot]];
    if (R->c->played && holds_move_card(&b->o))
        play_with_options(R, b, slot, kind);
    else
        play_card(R, b, kind, 0);
}

static void board_elements(Race *R, int reg);

/* BotTrial.alone (_race_bot.h): a program played as option_moves.py
 * OptionMoves.score plays it on its LoneRobot floor, the robot alone on the
 * race's course (a floor of its own, R->lone, made on first use: no other
 * robot, no death recorded, no flag carried), by the rules code: each
 * register's card (a plain one by play_card, as the bot's tables have it),
 * then the board elements. */
static int alone(void *race, int sq, int facing, const int *options, int count,
                 const int *registers, const int *use, const int *pair, const int *pair_with,
                 int steady, int out[5])
{
    Race *R = race, *L = R->lone;
    if (L == NULL) {
        L = R->lone = PyMem_Calloc(1, sizeof(Race));
        if (L == NULL || (L->occ = PyMem_Malloc(R->c->n * sizeof(int))) == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t s = 0; s < R->c->n; s++)
            L->occ[s] = -1;
        L->count = 1;
    }
    if (count < 0 || count > OPTION_COUNT || sq < 0 || sq >= R->c->n) {
        PyErr_SetString(PyExc_ValueError, "race: a lone robot's trial out of range");
        return -1;
    }
    L->c = R->c;            /* (the course the race and its bot play on now) */
    L->odeck_size = 0;      /* (where a card lost at its destruction goes: no one's) */
    Robot *me = &L->r[0];
    memset(me, 0, sizeof *me);
    me->lives = INT_MAX;    /* (it never runs out of lives) */
    me->team = -1;
    clear_options(&me->o);
    memcpy(me->o.held, options, count * sizeof(int));
    me->o.count = count;
    memcpy(me->o.use, use, sizeof me->o.use);
    memcpy(me->o.pair, pair, sizeof me->o.pair);
    memcpy(me->o.pair_with, pair_with, sizeof me->o.pair_with);
    me->o.stabilized = steady;
    me->sq = sq;
    me->facing = facing;
    L->occ[sq] = 0;
    for (int r = 0; r < 5; r++) {
        if (me->sq >= 0 && registers[r] >= 0) {
            int kind = L->c->card_kind[registers[r]];
            if (use[r] < 0 && pair[r] < 0)
                play_card(L, me, kind, 0);
            else
                play_with_options(L, me, r, kind);
        }
        if (me->sq >= 0)
            board_elements(L, r + 1);
        out[r] = me->sq >= 0 ? me->sq * 4 + me->facing : -1;
    }
    if (me->sq >= 0)
        L->occ[me->sq] = -1;
    return 0;
}

/* Let the race's lone-robot floor go. */
static void drop_lone(Race *R)
{
    if (R->lone != NULL)
        PyMem_Free(R->lone->occ);
    PyMem_Free(R->lone);
    R->lone = NULL;
}

/* plan_options(course, bot, trial), module function: for tests, the plan `bot`'s
 * RaceBot.plan_options makes by the race's lone trial on `course`, of a
 * trial dict: "robot" (square, facing, damage, lives, flags, archive),
 * "options" (card ids, oldest first), "registers" (5 card numbers, -1 none),
 * "free" (0-based registers the bot filled, ascending), "hand" (card
 * numbers). Returns (use, pair, pair_with, steady), -1 for none. */
static PyObject *planned_alone(PyObject *self, PyObject *args)
{
    PyObject *course, *capsule, *trial;
    if (!PyArg_ParseTuple(args, "OOO!", &course, &capsule, &PyDict_Type, &trial))
        return NULL;
    const Course *c = PyCapsule_GetPointer(course, COURSE_CAPSULE);
    const RaceBot *bot = c == NULL ? NULL : PyCapsule_GetPointer(capsule, RACE_BOT_CAPSULE);
    if (bot == NULL)
        return NULL;
    if (bot->squares != c->n || bot->flags != c->F) {
        PyErr_SetString(PyExc_ValueError, "plan_options: the bot was made for another course");
        return NULL;
    }
    int bad = 0;
    Py_ssize_t count = 0, nfree = 0, size = 0;
    int *robot = ints(trial, "robot", 6, 0, INT_MAX, NULL, &bad);
    int *options = ints(trial, "options", -1, 0, OPTION_COUNT - 1, &count, &bad);
    int *registers = ints(trial, "registers", 5, -1, DECK_SIZE - 1, NULL, &bad);
    int *free = ints(trial, "free", -1, 0, 4, &nfree, &bad);
    int *hand = ints(trial, "hand", -1, 0, DECK_SIZE - 1, &size, &bad);
    Race *R = bad ? NULL : PyMem_Calloc(1, sizeof(Race));
    void *scratch = R == NULL ? NULL : bot->start(bot);
    PyObject *result = NULL;
    if (!bad && (robot[0] >= c->n || robot[1] > 3 || robot[4] >= c->F || robot[5] >= c->n
                 || count > OPTION_COUNT || nfree > 5 || size > DECK_SIZE))
        PyErr_SetString(PyExc_ValueError, "plan_options: a trial out of range");
    else if (!bad && R == NULL)
        PyErr_NoMemory();
    else if (scratch != NULL) {
        R->c = c;
        BotRobot view = {robot[0], robot[1], robot[2], robot[3], robot[4], robot[5],
                         lock_count(c, robot[2]), (int)(c->destroy_at - robot[2]), registers,
                         0, {0, 0, 0, 0}, options, (int)count};
        BotTrial lone = {alone, R};
        int use[5], pair[5], pair_with[5], steady;
        if (bot->plan_options(bot, scratch, &view, registers, free, (int)nfree, hand, (int)size,
                              &lone, use, pair, pair_with, &steady) == 0)
            result = Py_BuildValue("([iiiii][iiiii][iiiii]i)", use[0], use[1], use[2], use[3],
                                   use[4], pair[0], pair[1], pair[2], pair[3], pair[4],
                                   pair_with[0], pair_with[1], pair_with[2], pair_with[3],
                                   pair_with[4], steady);
    }
    if (scratch != NULL)
        bot->stop(scratch);
    if (R != NULL)
        drop_lone(R);
    PyMem_Free(R);
    int *arrays[] = {robot, options, registers, free, hand};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        PyMem_Free(arrays[i]);
    return result;
}

/* ------------------------------------------------------------ board elements */

/* conveyors.py _carry: already lifted off its square. */
static void carry(Race *R, Robot *b, int to, int by)
{
    const int *belt = R->c->belt;
    int src = b->sq, d = belt[src];
    put(R, b, to, src, by);
    if (b->sq >= 0 && belt[to] >= 0 && belt[to] != d && !b->o.stabilized)
        turn(b, (belt[to] - d) & 3);            /* (unless Gyroscopic Stabilizer holds it) */
}

/* conveyors.py convey: movers in robot order; whether anyone moved. */
static int convey(Race *R, const int *movers, int count, int by)
{
    const int *target = R->c->target, *belt = R->c->belt;
    if (count == 1) {
        Robot *b = &R->r[movers[0]];
        int to = target[b->sq * 4 + belt[b->sq]];
        if (to == WALL || (to >= 0 && R->occ[to] >= 0))
            return 0;
        R->occ[b->sq] = -1;
        carry(R, b, to, by);
        return 1;
    }
    int who[MOST_ROBOTS], to[MOST_ROBOTS], n = 0;
    for (int i = 0; i < count; i++) {
        Robot *b = &R->r[movers[i]];
        int t = target[b->sq * 4 + belt[b->sq]];
        if (t != WALL) {
            who[n] = movers[i];
            to[n] = t >= 0 ? t : -3 - b->sq;    /* off the board: a key of its own */
            n++;
        }
    }
    while (n > 0) {
        int drop[MOST_ROBOTS], dropped = 0;
        for (int i = 0; i < n; i++) {
            int same = 0;
            for (int j = 0; j < n; j++)
                same += to[j] == to[i];
            int out = same > 1;
            if (!out && to[i] >= 0) {
                int there = R->occ[to[i]];
                if (there >= 0) {
                    int k = 0;
                    while (k < n && who[k] != there)
                        k++;
                    /* standing still, or a swap */
                    out = k == n || to[k] == R->r[who[i]].sq;
                }
            }
            drop[i] = out;
            dropped += out;
        }
        if (!dropped)
            break;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (!drop[i]) {
                who[kept] = who[i];
                to[kept++] = to[i];
            }
        }
        n = kept;
    }
    if (n == 0)
        return 0;
    for (int i = 0; i < n; i++)
        R->occ[R->r[who[i]].sq] = -1;
    for (int i = 0; i < n; i++)
        if (R->r[who[i]].sq >= 0)       /* (else it left with its player meanwhile: 13.2) */
            carry(R, &R->r[who[i]], to[i] < 0 ? -1 : to[i], by);
    return 1;
}

static int hot_mask(const Race *R, const int *hot)
{
    int mask = 0;
    for (int i = 0; i < R->count; i++)
        if (R->r[i].sq >= 0)
            mask |= hot[R->r[i].sq];
    return mask;
}

/* moving_flags.py flag_bits: the belt steps that would carry some flag
 * where it stands now (none when flags stay). */
static int flag_mask(const Race *R, const int *hot)
{
    if (R->moved == NULL)
        return 0;
    int mask = 0;
    for (Py_ssize_t t = 0; t < R->c->F; t++)
        mask |= hot[R->flags[t]];
    return mask & (EXPRESS_BIT | CONVEYOR_BIT);
}

static void carry_flags(Race *R, const int *hot, int bit);

/* board_elements.py board_elements: steps C1-C6. */
static void board_elements(Race *R, int reg)
{
    static const int bits[3] = {EXPRESS_BIT, CONVEYOR_BIT, CURRENT_BIT};
    static const int causes[3] = {BY_EXPRESS, BY_CONVEYOR, BY_CURRENT};
    const Course *c = R->c;
    const int *hot = c->hot + reg * c->n;
    int mask = hot_mask(R, hot), flags = flag_mask(R, hot);
    if (!((mask | flags) & ~RANDOMIZER_BIT))
        return;
    for (int k = 0; k < 3; k++) {
        if (mask & bits[k]) {
            R->moment++;
            int movers[MOST_ROBOTS], count = 0;
            for (int i = 0; i < R->count; i++)
                if (R->r[i].sq >= 0 && hot[R->r[i].sq] & bits[k])
                    movers[count++] = i;
            if (convey(R, movers, count, causes[k]))
                mask = hot_mask(R, hot);
        }
        if (flags & bits[k]) {              /* flags ride after the robots (12.1) */
            carry_flags(R, hot, bits[k]);
            flags = flag_mask(R, hot);
        }
    }
    if (mask & PUSHER_BIT) {
        R->moment++;
        int standing[MOST_ROBOTS * 2], count = 0;
        for (int i = c->pusher_start[reg]; i < c->pusher_start[reg + 1]; i += 2) {
            int who = R->occ[c->pushers[i]];
            if (who >= 0 && count + 2 <= MOST_ROBOTS * 2) {     /* (one square per robot) */
                standing[count++] = i;
                standing[count++] = who;
            }
        }
        for (int j = 0; j < count; j += 2) {
            int i = standing[j], sq = c->pushers[i];
            if (R->occ[sq] == standing[j + 1]) {
                R->moment++;
                push(R, &R->r[standing[j + 1]], c->pushers[i + 1], BY_PUSHER);
            }
        }
        mask = hot_mask(R, hot);
    }
    if (mask & GEAR_BIT) {
        R->moment++;
        for (int i = 0; i < R->count; i++)
            if (R->r[i].sq >= 0 && c->gear[R->r[i].sq] && !R->r[i].o.stabilized)
                turn(&R->r[i], c->gear[R->r[i].sq]);
    }
    if (mask & CRUSHER_BIT) {
        R->moment++;
        for (int i = 0; i < R->count; i++) {
            Robot *b = &R->r[i];
            if (b->sq >= 0 && hot[b->sq] & CRUSHER_BIT)
                destroy(R, b, CRUSHED, b->sq, BY_CRUSHER, b->sq);
        }
    }
}

/* ------------------------------------------------------------ lasers, flags */

/* The robot holding the SuperBot title (12.9), -1 for none. */
static int holder(const Race *R)
{
    for (int i = 0; i < R->count; i++)
        if (R->r[i].superbot)
            return i;
    return -1;
}

/* The priority of robot b's card in register slot+1, -1 without one (state.py priority). */
static int priority(const Race *R, const Robot *b, int slot)
{
    return b->reg[slot] >= 0 ? R->c->card_priority[b->reg[slot]] : -1;
}

/* lasers.py board_laser_targets of the robots `on` the board: per laser the
 * nearest robot on its beam (R->near_robot, -1 none), R->order the lasers that
 * strike one in the order they were first found (the dict's order); how many. */
static int board_laser_targets(Race *R, const int *on, int count)
{
    const Course *c = R->c;
    int *order = R->order, *near_place = R->near_place, *near_robot = R->near_robot, found = 0;
    for (long k = 0; k < c->lasers; k++)
        near_robot[k] = -1;
    for (int i = 0; i < count; i++) {
        int sq = R->r[on[i]].sq;
        for (int e = c->beam_start[sq]; e < c->beam_start[sq + 1]; e++) {
            int k = c->beam_k[e], place = c->beam_place[e];
            if (near_robot[k] < 0) {
                order[found++] = k;
                near_robot[k] = on[i];
                near_place[k] = place;
            } else if (place < near_place[k]) {
                near_robot[k] = on[i];
                near_place[k] = place;
            }
        }
    }
    return found;
}

/* lasers.py shot_by: what to blame for robot i's destruction in the lasers
 * step: the first of the `found` board lasers (board_laser_targets) that
 * struck it, else robot lasers and weapons if any hit it (`shot`), else
 * NOBODY; *origin the board laser's square, else -1. */
static int shot_by(const Race *R, int found, int i, int shot, int *origin)
{
    *origin = -1;
    for (int j = 0; j < found; j++) {
        if (R->near_robot[R->order[j]] == i) {
            *origin = R->c->laser_square[R->order[j]];
            return BY_LASER;
        }
    }
    return shot ? BY_ROBOT_LASER : NOBODY;
}

/* superbot.py pass_title: the SuperBot `title`, destroyed in the lasers step
 * of register slot+1, passes the title to the one of the `hits` robots whose
 * lasers or weapons hit it (`hitters`) with the higher priority card in this
 * register (the lower robot number on a tie). */
static void pass_title(Race *R, int title, const int *hitters, int hits, int slot)
{
    if (hits == 0 || R->r[title].sq >= 0 || !R->r[title].destroyed)
        return;
    int heir = hitters[0];
    for (int j = 1; j < hits; j++) {
        int p = priority(R, &R->r[hitters[j]], slot), best = priority(R, &R->r[heir], slot);
        if (p > best || (p == best && hitters[j] < heir))
            heir = hitters[j];
    }
    if (heir != title) {
        R->r[title].superbot = 0;
        R->r[heir].superbot = 1;
    }
}

/* lasers.py fire: the robots on the board, in robot order, in register slot+1. */
static void fire(Race *R, const int *on, int count, int slot)
{
    const Course *c = R->c;
    if (count == 0)
        return;
    int *order = R->order, *near_robot = R->near_robot;
    int found = board_laser_targets(R, on, count);
    for (int j = 0; j < found; j++)
        R->r[near_robot[order[j]]].pending += c->laser_beams[order[j]];
    int hit = found > 0;
    int title = c->superbot ? holder(R) : -1, hitters[MOST_ROBOTS], hits = 0;
    if (c->robot_lasers) {
        for (int i = 0; i < count; i++) {
            Robot *shooter = &R->r[on[i]];
            if (shooter->powered_down)
                continue;
            int d = shooter->facing, s = c->target[shooter->sq * 4 + d];
            while (s >= 0 && R->occ[s] < 0)
                s = c->target[s * 4 + d];
            if (s >= 0) {                   /* (12.2; the SuperBot's laser deals double, 12.9) */
                R->r[R->occ[s]].pending += (int)c->laser_damage * (shooter->superbot ? 2 : 1);
                if (R->occ[s] == title)
                    hitters[hits++] = on[i];
                hit = 1;
            }
        }
    }
    int doomed[MOST_ROBOTS], shot_too[MOST_ROBOTS], dying = 0;
    for (int i = 0; i < count; i++) {
        Robot *b = &R->r[on[i]];
        int shot = hit && b->pending > 0;
        if (shot) {
            long damage = b->damage + b->pending;
            b->damage = (int)(damage < c->destroy_at ? damage : c->destroy_at);
            b->pending = 0;
        }
        if (b->damage >= c->destroy_at) {
            doomed[dying] = on[i];
            shot_too[dying++] = shot;
        }
    }
    for (int i = 0; i < dying; i++) {
        Robot *b = &R->r[doomed[i]];
        if (b->sq < 0)                  /* it left with its player meanwhile (13.2) */
            continue;
        int origin, agent = shot_by(R, found, doomed[i], shot_too[i], &origin);
        destroy(R, b, DAMAGED, b->sq, agent, origin);
    }
    pass_title(R, title, hitters, hits, slot);
}

/* ---- laser step with option cards (option_weapons.py) */

/* A bot's Fire Control choice (option_policy.py _fire_control's mode): lock
 * register `mode` (0-4), or, from FC_OPTION on, destroy the target's option
 * card mode - FC_OPTION. */
#define FC_OPTION 5

/* A hit of a robot's laser or weapon, waiting for the damage of step (2). */
typedef struct {
    int victim, points, side, shooter;
} WeaponHit;

/* option_weapons.py _Shot: a weapon's effect waiting for step (3) or (5). */
typedef struct {
    int weapon, shooter, target, d, mode;
} WeaponShot;

/* superbot.py laser_points: what a hit of robot b's laser worth `points` deals. */
static int laser_points(const Robot *b, long points)
{
    return (int)(b->superbot ? 2 * points : points);
}

/* option_weapons.py trace, without its path: the robots (into `hit`, at most
 * passes + 1) a robot laser from square `sq` towards d hits; it passes
 * `passes` walls or robots (High-Power Laser). */
static int beam_hits(const Race *R, int sq, int d, int passes, int *hit)
{
    const Course *c = R->c;
    int count = 0, here = sq;
    for (;;) {
        int next = c->target[here * 4 + d];
        if (next == WALL) {
            if (!passes)
                break;
            passes--;
            int x = here % (int)c->w + DX[d], y = here / (int)c->w + DY[d];
            if (x < 0 || x >= c->w || y < 0 || y >= c->h)
                break;
            next = y * (int)c->w + x;
        } else if (next == OFF_BOARD) {
            break;
        }
        if (R->occ[next] >= 0) {
            hit[count++] = R->occ[next];
            if (!passes)
                break;
            passes--;
        }
        here = next;
    }
    return count;
}

/* paths.py distances_to: per square the path distance to square `goal`
 * (-1: none) into `dist`; `queue` has room for every square. */
static void distances_to(const Course *c, int goal, int *dist, int *queue)
{
    for (Py_ssize_t s = 0; s < c->n; s++)
        dist[s] = -1;
    dist[goal] = 0;
    int head = 0, tail = 0;
    queue[tail++] = goal;
    while (head < tail) {
        int square = queue[head++];
        if (c->death[square])           /* a path may not enter it, so none leads on from it */
            continue;
        for (int d = 0; d < 4; d++) {
            int neighbour = c->target[square * 4 + d];
            if (neighbour >= 0 && dist[neighbour] < 0) {
                dist[neighbour] = dist[square] + 1;
                queue[tail++] = neighbour;
            }
        }
    }
}

/* distances_to into the race's room for it (R->paths, made on first use): the path
 * distances to square `goal`; NULL with an error. */
static const int *paths_to(Race *R, int goal)
{
    if (R->paths == NULL && (R->paths = PyMem_Malloc(2 * R->c->n * sizeof(int))) == NULL) {
        PyErr_NoMemory();
        R->failed = 1;
        return NULL;
    }
    distances_to(R->c, goal, R->paths, R->paths + R->c->n);
    return R->paths;
}

/* option_policy.py _moves_it_on for program card `card` of robot b: how much
 * it would bring b toward its next flag, played from where it stands on a
 * bare board (`dist`: the path distances to that flag, NULL when none): the
 * path distance gained into *gained, and whether it is a move card. */
static void moves_it_on(const Course *c, const Robot *b, const int *dist, int card,
                        int *gained, int *move)
{
    int kind = c->card_kind[card];
    *move = kind < LEFT;
    *gained = 0;
    if (kind >= LEFT || dist == NULL || dist[b->sq] < 0)
        return;
    int d = kind == BACK ? (b->facing + 2) & 3 : b->facing, n = kind == BACK ? 1 : kind + 1;
    int sq = b->sq;
    for (int k = 0; k < n; k++) {
        int next = c->target[sq * 4 + d];
        if (next == WALL)
            break;
        if (next == OFF_BOARD || c->death[next]) {
            *gained = -(int)c->n;                       /* the card destroys it */
            return;
        }
        sq = next;
    }
    *gained = dist[b->sq] - (dist[sq] >= 0 ? dist[sq] : (int)c->n);
}

/* option_policy.py _fire_control: a bot's Fire Control mode against robot t
 * in register slot+1 (FC_OPTION above), -1 for none: destroy t's option it
 * ranks highest when that ranks in the upper half of BOT_VALUE; else lock,
 * among the registers revealed so far, the one whose card t needs most
 * (moves_it_on, toward the flag where it stands now: Floor.flag_squares);
 * else destroy its best option if it holds one. */
static int bot_fire_control(Race *R, const Robot *t, int slot)
{
    const Course *c = R->c;
    const Options *o = &t->o;
    int best = -1;
    for (int k = 0; k < o->count; k++)
        if (best < 0 || BOT_VALUE[o->held[k]] > BOT_VALUE[best])
            best = o->held[k];
    if (best >= 0 && BOT_VALUE[best] >= OPTION_COUNT / 2)
        return FC_OPTION + best;
    int lock = -1, most = 0, most_move = 0;
    const int *dist = NULL;
    for (int i = 0; i <= slot; i++) {
        if (register_locked(o, i) || t->reg[i] < 0)
            continue;
        if (lock < 0 && t->flags < c->F) {          /* (the distances, once) */
            int goal = R->flags[t->flags];
            if (goal == c->flags[t->flags])
                dist = c->dist + t->flags * c->n;
            else if ((dist = paths_to(R, goal)) == NULL)    /* a flag moved since the bots saw it */
                return -1;
        }
        int gained, move;
        moves_it_on(c, t, dist, t->reg[i], &gained, &move);
        if (lock < 0 || gained > most || (gained == most && move > most_move)) {
            lock = i;
            most = gained;
            most_move = move;
        }
    }
    if (lock >= 0)
        return lock;
    return best >= 0 ? FC_OPTION + best : -1;
}

/* option_weapons.py _fire_control for a bot's `mode`: whether Fire Control
 * can lock or destroy what it names on robot t. */
static int fire_control_takes(const Robot *t, int mode)
{
    return mode < FC_OPTION ? !register_locked(&t->o, mode) : has(&t->o, mode - FC_OPTION);
}

/* option_policy.py _weapon: the weapon robot `shooter`, its laser hitting
 * robot t first, fires instead, -1 for its laser; *mode its Fire Control's.
 * A push or pull that puts t in a pit or off the board beats damage; then
 * Fire Control, unless the damage (`points`) would destroy t. None of
 * option_weapons.py _allowed's reasons to ignore it applies to a bot's
 * choice: it names a card it holds, with a target; a target a pull sends
 * into a pit or off the board is never adjacent (that square would be the
 * shooter's); Fire Control's choice, made on t, can be made on t (10.8). */
static int bot_weapon(Race *R, const Robot *shooter, const Robot *t, int slot, int points,
                      int *mode)
{
    static const int movers[3] = {MINI_HOWITZER, PRESSOR_BEAM, TRACTOR_BEAM};
    const Course *c = R->c;
    int d = shooter->facing;
    for (int k = 0; k < 3; k++) {
        if (!has(&shooter->o, movers[k]))
            continue;
        int to = c->target[t->sq * 4 + (movers[k] == TRACTOR_BEAM ? (d + 2) & 3 : d)];
        if (to == OFF_BOARD || (to >= 0 && c->death[to]))
            return movers[k];
    }
    if (has(&shooter->o, FIRE_CONTROL) && t->damage + points < c->destroy_at) {
        *mode = bot_fire_control(R, t, slot);
        if (*mode >= 0)
            return FIRE_CONTROL;
    }
    return -1;
}

/* option_weapons.py _main_shot: robot i's main laser, hitting `targets`,
 * with its weapon cards: its hits into `hits`, the effects of Fire Control
 * and of a weapon that replaces it into `shots` (10.7-10.8). */
static void main_shot(Race *R, int i, int slot, const int *targets, int count,
                      WeaponHit *hits, int *nhits, WeaponShot *shots, int *nshots)
{
    Robot *shooter = &R->r[i];
    int d = shooter->facing, side = (d + 2) & 3;
    int doubled = has(&shooter->o, DOUBLE_BARRELED_LASER);
    int points = laser_points(shooter, (doubled ? 2 : 1) * R->c->laser_damage);  /* 12.2, 12.9 */
    int mode = -1, weapon = bot_weapon(R, shooter, &R->r[targets[0]], slot, points, &mode);
    if (R->failed)
        return;
    if (weapon == MINI_HOWITZER || weapon == PRESSOR_BEAM || weapon == TRACTOR_BEAM) {
        /* (its use is counted with the push or pull, in step 5) */
        if (weapon == MINI_HOWITZER) {
            hits[(*nhits)++] = (WeaponHit){targets[0], 1, side, i};     /* the shell */
            if (++shooter->o.shells >= HOWITZER_SHOTS)
                lose(R, shooter, MINI_HOWITZER);                         /* used up */
        }
        shots[(*nshots)++] = (WeaponShot){weapon, i, targets[0], d, -1};
        return;
    }
    for (int j = 0; j < count; j++) {
        if (weapon == FIRE_CONTROL) {
            option_used(R, shooter, FIRE_CONTROL);
            shots[(*nshots)++] = (WeaponShot){FIRE_CONTROL, i, targets[j], d, mode};
        } else {
            hits[(*nhits)++] = (WeaponHit){targets[j], points, side, i};
            if (doubled)
                option_used(R, shooter, DOUBLE_BARRELED_LASER);
        }
    }
    if (count > 1)
        option_used(R, shooter, HIGH_POWER_LASER);
}

/* option_weapons.py fires_plain: whether the laser step is lasers.py's (no
 * robot on the board holds a card). */
static int fires_plain(const Race *R, const int *on, int count)
{
    for (int i = 0; i < count; i++)
        if (R->r[on[i]].o.count > 0)
            return 0;
    return 1;
}

/* option_weapons.py fire_with_options for bots: step D of register slot+1
 * for the robots `on` the board (robot order). (1) every beam and shot is
 * traced from the same positions, then (2) damage through what prevents it,
 * (3) Fire Control, (4) destruction at destroy_at, the SuperBot's title,
 * (5) pushes and pulls by the shooters' card priority (robot order on ties;
 * one with no card after those with one). */
static void fire_with_options(Race *R, const int *on, int count, int slot)
{
    const Course *c = R->c;
    int found = board_laser_targets(R, on, count);
    WeaponHit hits[3 * MOST_ROBOTS];        /* per shooter: its laser's two, or a shell; rear */
    WeaponShot shots[2 * MOST_ROBOTS];
    int nhits = 0, nshots = 0;
    for (int i = 0; i < count && c->robot_lasers; i++) {                 /* (1) */
        Robot *shooter = &R->r[on[i]];
        if (shooter->powered_down)
            continue;
        int d = shooter->facing, targets[2];
        int n = beam_hits(R, shooter->sq, d, has(&shooter->o, HIGH_POWER_LASER), targets);
        if (n > 0)
            main_shot(R, on[i], slot, targets, n, hits, &nhits, shots, &nshots);
        if (R->failed)
            return;
        if (has(&shooter->o, REAR_FIRING_LASER)
            && beam_hits(R, shooter->sq, (d + 2) & 3, 0, targets)) {
            option_used(R, shooter, REAR_FIRING_LASER);
            int points = laser_points(shooter, c->laser_damage);
            hits[nhits++] = (WeaponHit){targets[0], points, d, on[i]};
        }
    }
    for (int i = 0; i < count; i++) {                                   /* (2) */
        Robot *b = &R->r[on[i]];
        b->pending = 0;
        for (long k = 0; k < c->lasers && found; k++)   /* board lasers first, in their order */
            if (R->near_robot[k] == on[i])
                hurt(R, b, c->laser_beams[k], (c->laser_dir[k] + 2) & 3);
        for (int j = 0; j < nhits; j++)
            if (hits[j].victim == on[i])
                hurt(R, b, hits[j].points, hits[j].side);
    }
    for (int j = 0; j < nshots; j++) {                                  /* (3) */
        Robot *t = &R->r[shots[j].target];
        int mode = shots[j].mode;
        if (shots[j].weapon != FIRE_CONTROL || !fire_control_takes(t, mode))
            continue;
        if (mode >= FC_OPTION)                  /* not damage: nothing prevents it (10) */
            lose(R, t, mode - FC_OPTION);
        else
            t->o.fc_locks[t->o.fc_count++] = mode;
    }
    for (int i = 0; i < count; i++) {                                   /* (4) */
        Robot *b = &R->r[on[i]];
        if (b->sq < 0 || b->damage < c->destroy_at)
            continue;
        int shot = 0;
        for (int j = 0; j < nhits && !shot; j++)
            shot = hits[j].victim == on[i];
        int origin, agent = shot_by(R, found, on[i], shot, &origin);
        destroy(R, b, DAMAGED, b->sq, agent, origin);
    }
    if (c->superbot) {
        int title = holder(R), hitters[3 * MOST_ROBOTS], n = 0;
        for (int j = 0; j < nhits; j++)
            if (hits[j].victim == title)
                hitters[n++] = hits[j].shooter;
        pass_title(R, title, hitters, n, slot);
    }
    int moves[2 * MOST_ROBOTS], m = 0;
    for (int j = 0; j < nshots; j++) {
        if (shots[j].weapon == FIRE_CONTROL)
            continue;
        int at = m++, p = priority(R, &R->r[shots[j].shooter], slot);
        while (at > 0 && priority(R, &R->r[shots[moves[at - 1]].shooter], slot) < p) {
            moves[at] = moves[at - 1];
            at--;
        }
        moves[at] = j;
    }
    for (int j = 0; j < m; j++) {                                       /* (5) */
        const WeaponShot *s = &shots[moves[j]];
        Robot *victim = &R->r[s->target];
        if (victim->sq >= 0) {
            if (s->weapon == TRACTOR_BEAM) {        /* a robot where it would go blocks (10.8) */
                int back = (s->d + 2) & 3, to = c->target[victim->sq * 4 + back];
                if (to != WALL && (to < 0 || R->occ[to] < 0))
                    step(R, victim, back, BY_TRACTOR_BEAM);
            } else {
                push(R, victim, s->d, s->weapon == MINI_HOWITZER ? BY_MINI_HOWITZER
                                                                 : BY_PRESSOR_BEAM);
            }
        }
        option_used(R, &R->r[s->shooter], s->weapon);
    }
}

static void board_turns(Race *R, int square);
static void play_on(Race *R, PyObject *got, const int *flags);
static void show_flags(Race *R);

/* checkpoints.py _touch_flag: robot i touches its next flag, on `square`. */
static void touch_flag(Race *R, int i, int square, int reg, int *finished, int *done)
{
    const Course *c = R->c;
    Robot *b = &R->r[i];
    R->flag_rounds[i * c->F + b->flags] = R->round;
    b->flags++;
    if (c->victory == TEAM_PROGRESS)            /* teams.py touched: for every teammate */
        for (int j = 0; j < R->count; j++) {
            Robot *mate = &R->r[j];
            if (mate == b || mate->team != b->team)
                continue;
            for (int t = mate->flags; t < b->flags; t++)
                R->flag_rounds[j * c->F + t] = R->round;
            mate->flags = b->flags;
        }
    if (b->flags == c->F) {
        b->fin_round = R->round;
        b->fin_reg = reg;
        finished[(*done)++] = i;
    }
    if (c->played && c->flag_gives_option)     /* a card at clean-up (10.2) */
        R->gifts[R->gift_count++] = i;
    if (R->turned != NULL)                      /* floor.on_flag */
        board_turns(R, square);
}

/* checkpoints.py touch: the robots that finished, into `finished`. */
static int touch(Race *R, const int *on, int count, int reg, int *finished)
{
    int done = 0;
    for (int i = 0; i < count && !R->failed; i++) {
        const Course *c = R->c;     /* (a flag touched before may have turned a board) */
        Robot *b = &R->r[on[i]];
        int sq = b->sq;
        int arm = c->played && has(&b->o, MECHANICAL_ARM);
        int marked = sq >= 0 && (c->archive_point[sq] || R->flag_at[sq]);
        if (sq < 0 || !(marked || arm))
            continue;
        /* (a blocker touches no flag: it moves its archive marker as off its way, 13.2;
         * only the SuperBot touches flags, 12.9) */
        int racing = !b->blocker, scores = !c->superbot || b->superbot, armed = 0;
        if (racing && arm && b->flags < c->F && sq != R->flags[b->flags] && scores) {
            int reach[8], k = arm_reach(c, sq, reach);
            for (int j = 0; j < k && !armed; j++) {
                if (reach[j] == R->flags[b->flags]) {   /* one flag, no archive move (10.11) */
                    option_used(R, b, MECHANICAL_ARM);
                    touch_flag(R, on[i], reach[j], reg, finished, &done);
                    armed = 1;
                }
            }
        }
        if (!marked || R->failed)
            continue;
        c = R->c;
        int moves_archive;
        if (racing && !armed && b->flags < c->F && sq == R->flags[b->flags]) {
            if (scores)
                touch_flag(R, on[i], sq, reg, finished, &done);
            moves_archive = 1;
        } else {
            moves_archive = c->archive_point[sq] || (c->any_flag && R->flag_at[sq] > 0);
        }
        if (moves_archive)
            b->archive = sq;
    }
    return done;
}

/* ------------------------------------------------------------ the deck */

/* rng.getrandbits(bits), or sets R->failed. */
static unsigned long long random_bits(Race *R, int bits)
{
    PyObject *got = PyObject_CallFunction(R->getrandbits, "i", bits);
    unsigned long long r = got == NULL ? 0 : PyLong_AsUnsignedLongLong(got);
    Py_XDECREF(got);
    if (PyErr_Occurred())
        R->failed = 1;
    return r;
}

static int bit_length(unsigned long long n)
{
    int bits = 0;
    while (bits < 64 && (n >> bits) != 0)
        bits++;
    return bits;
}

/* rng.randrange(n) for n >= 1 as random.Random computes it
 * (_randbelow_with_getrandbits: n.bit_length() bits until below n);
 * tests/test_compiled_race.py holds the two to the same races. */
static Py_ssize_t random_below(Race *R, Py_ssize_t n)
{
    int bits = bit_length((unsigned long long)n);
    unsigned long long r;
    do
        r = random_bits(R, bits);
    while (!R->failed && r >= (unsigned long long)n);
    return R->failed ? -1 : (Py_ssize_t)r;
}

/* Deck.deal: up to n cards into `out`, Fisher-Yates steps done as they are
 * taken, several per random number (programming.py _plan); how many, or -1. */
static int deal(Race *R, int n, int *out)
{
    int size = R->deck_size, top = R->top, end = top + n < size ? top + n : size;
    int i = R->settled ? end : top;
    while (i < end) {
        int first = i;
        unsigned long long span = 1;
        while (i < end && (i == first || span <= (RANDOM_SPAN - 1) / (unsigned)(size - i))) {
            span *= (unsigned)(size - i);
            i++;
        }
        int bits = bit_length(span);
        unsigned long long r;
        do
            r = random_bits(R, bits);
        while (!R->failed && r >= span);
        if (R->failed)
            return -1;
        for (int j = first; j < i; j++) {
            unsigned choices = (unsigned)(size - j);
            int pick = (int)(r % choices) + j;
            r /= choices;
            int card = R->deck[j];
            R->deck[j] = R->deck[pick];
            R->deck[pick] = card;
        }
    }
    memcpy(out, R->deck + top, (end - top) * sizeof(int));
    R->top = end;
    return end - top;
}

/* Deck.put_under (Recompile): the rest is shuffled now, then `cards` go under it in
 * this order; the dealt cards are dropped from the front (nothing reads them again). */
static int put_under(Race *R, const int *cards, int n)
{
    int top = R->top, out[DECK_SIZE];
    if (deal(R, R->deck_size - top, out) < 0)
        return -1;
    R->deck_size -= top;
    memmove(R->deck, R->deck + top, R->deck_size * sizeof(int));
    memcpy(R->deck + R->deck_size, cards, n * sizeof(int));
    R->deck_size += n;
    R->top = 0;
    R->settled = 1;
    return 0;
}

static int draw(Race *R)
{
    int card;
    return deal(R, 1, &card) == 1 ? card : -1;
}

/* ------------------------------------------------------------ the bot */

/* The bot's dice: rng.randrange(n) of the race. */
static Py_ssize_t dice_below(void *race, Py_ssize_t n)
{
    return random_below(race, n);
}

/* What the bot sees of robot b; under `superbot`, of the SuperBot it
 * hunts when it does not hold the title (hunt.py quarry). */
static BotRobot seen(const Race *R, Robot *b)
{
    BotRobot view = {b->sq, b->facing, b->damage, b->lives, b->flags, b->archive,
                     lock_count(R->c, b->damage), (int)(R->c->destroy_at - b->damage), b->reg,
                     0, {0, 0, 0, 0}, b->o.held, b->o.count};
    int title = R->c->superbot && !b->superbot ? holder(R) : -1;
    if (title >= 0 && !R->r[title].out) {
        const Robot *q = &R->r[title];
        view.hunts = 1;
        view.quarry[0] = q->sq;
        view.quarry[1] = q->facing;
        view.quarry[2] = q->flags;
        view.quarry[3] = q->archive;
    }
    return view;
}

/* team_goals.py goal under elimination: the square of the robot of another
 * team on the board nearest to robot b (on the board) by path distance
 * (team_goals.py distance: the course's size for none), the lower square
 * of equals; -1 when there is none, -2 with an error. */
static int nearest_foe(Race *R, const Robot *b)
{
    int best = -1;
    Py_ssize_t least = 0;
    for (int i = 0; i < R->count; i++) {
        const Robot *foe = &R->r[i];
        if (foe->team == b->team || foe->sq < 0)
            continue;
        const int *dist = paths_to(R, foe->sq);
        if (dist == NULL)
            return -2;
        Py_ssize_t d = dist[b->sq] >= 0 ? dist[b->sq] : R->c->n;
        if (best < 0 || d < least || (d == least && foe->sq < best)) {
            best = foe->sq;
            least = d;
        }
    }
    return best;
}

/* The bots aimed at robots that the race keeps, let go (to keep at most
 * R->aimed_room: a course's tables are large, AIMED_SQUARES). */
static void drop_aimed(Race *R)
{
    for (Py_ssize_t s = 0; R->aimed_capsule != NULL && s < R->c->n; s++) {
        if (R->aimed_capsule[s] == NULL)
            continue;
        R->aimed[s]->stop(R->aimed_scratch[s]);
        Py_CLEAR(R->aimed_capsule[s]);
        R->aimed[s] = NULL;
        R->aimed_scratch[s] = NULL;
    }
    R->aimed_count = 0;
}

/* The bot that decides for robot b and its scratch (search.py with_a_flag):
 * the race's, or under elimination (docs/rules.md 13.6) the bot whose one
 * flag is b's goal, the nearest robot of another team (team_goals.py
 * aimed), else b's own square; made by aim(square) on first use and kept
 * for the race (drop_aimed). *plans: the bot plans b's movement options, seeing a flag
 * ahead and b's option cards (a view aimed at another robot holds a copy
 * of b without them: team_goals.py aimed). *bot is NULL for a robot off
 * the board under elimination (it has no goal and its view no flag).
 * -1 with an error. */
static int deciding(Race *R, const Robot *b, const RaceBot **bot, void **scratch, int *plans)
{
    if (R->c->victory != ELIMINATION) {
        *bot = R->bot;
        *scratch = R->scratch;
        *plans = b->flags < R->c->F;
        return 0;
    }
    *bot = NULL;
    *scratch = NULL;
    *plans = 0;
    if (b->sq < 0)
        return 0;
    int goal = nearest_foe(R, b);
    if (goal == -2)
        return -1;
    *plans = goal < 0;
    if (goal < 0)
        goal = b->sq;
    if (R->aimed[goal] == NULL) {
        if (R->aimed_count == R->aimed_room)
            drop_aimed(R);
        PyObject *got = PyObject_CallFunction(R->aim, "i", goal);
        const RaceBot *made = got == NULL ? NULL : PyCapsule_GetPointer(got, RACE_BOT_CAPSULE);
        if (made != NULL && (made->squares != R->c->n || made->flags != 1)) {
            PyErr_SetString(PyExc_ValueError, "race: aim() gave a bot of another course");
            made = NULL;
        }
        void *own = made == NULL ? NULL : made->start(made);
        if (own == NULL) {
            Py_XDECREF(got);
            R->failed = 1;
            return -1;
        }
        R->aimed_capsule[goal] = got;
        R->aimed[goal] = made;
        R->aimed_scratch[goal] = own;
        R->aimed_count++;
    }
    *bot = R->aimed[goal];
    *scratch = R->aimed_scratch[goal];
    return 0;
}

/* deciding(), for a robot whose program or option cards the bot decides (on the board:
 * race.py programs no robot its Recompile destroyed): -1 with an error. */
static int decider(Race *R, const Robot *b, const RaceBot **bot, void **scratch, int *plans)
{
    if (deciding(R, b, bot, scratch, plans) < 0)
        return -1;
    if (*bot == NULL) {
        PyErr_SetString(PyExc_ValueError, "race: a robot off the board has no goal to decide for");
        R->failed = 1;
        return -1;
    }
    return 0;
}

/* programming.py: the bot programs the first `free` registers from `hand`. -1 with an error. */
static int program(Race *R, Robot *b, const int *hand, int size, int free)
{
    for (int i = 0; i < free; i++)
        b->reg[i] = -1;
    if (size == 0 || free == 0)
        return 0;
    const RaceBot *bot;
    void *scratch;
    int plans;
    if (decider(R, b, &bot, &scratch, &plans) < 0)
        return -1;
    BotRobot view = seen(R, b);
    BotDice dice = {dice_below, R};
    if (bot->program(bot, scratch, &view, hand, size, free, &dice) < 0) {
        R->failed = 1;
        return -1;
    }
    return 0;
}

/* race.py _choose_power_down: the bot is not asked where no robot may power down (12.4);
 * without a goal (off the board, under elimination) it announces none (common.py
 * should_power_down, as the bot's own rule has it). */
static void choose_power_down(Race *R, Robot *b)
{
    b->announced = 0;
    if (R->c->power_down) {
        const RaceBot *bot;
        void *scratch;
        int plans;
        if (deciding(R, b, &bot, &scratch, &plans) < 0)
            return;
        BotRobot view = seen(R, b);
        b->announced = bot != NULL && bot->powers_down(bot, &view);
    }
    b->decided = 1;
}

/* ------------------------------------------------------------ the round */

static int in_race(const Robot *b)
{
    return !b->out && b->fin_round == 0;
}

/* The race's trial for its bot (BotTrial.alone), the moves engineer's. */
static int alone(void *race, int sq, int facing, const int *options, int count,
                 const int *registers, const int *use, const int *pair, const int *pair_with,
                 int steady, int out[5]);

/* race.py _options_hand: Recompile, then the Flywheel's card, as the bot chooses. */
static int options_hand(Race *R, Robot *b, int *hand, int size)
{
    Options *o = &b->o;
    BotDice dice = {dice_below, R};
    const RaceBot *bot;
    void *scratch;
    int plans;
    o->stabilized = 0;
    if (has(o, RECOMPILE) && size > 0) {
        if (decider(R, b, &bot, &scratch, &plans) < 0)
            return -1;
        BotRobot view = seen(R, b);
        int yes = bot->recompiles(bot, scratch, &view, hand, size,
                                  5 - lock_count(R->c, b->damage), &dice);
        if (yes < 0) {
            R->failed = 1;
            return -1;
        }
        if (yes) {                                          /* option_play.py recompile */
            option_used(R, b, RECOMPILE);
            if (put_under(R, hand, size) < 0 || deal(R, size, hand) < 0)
                return -1;
            hurt_now(R, b, 1, -1, BY_RECOMPILE);
        }
    }
    if (o->flywheel >= 0) {
        if (decider(R, b, &bot, &scratch, &plans) < 0)
            return -1;
        BotRobot view = seen(R, b);
        int yes = bot->takes_flywheel(bot, scratch, &view, hand, size, o->flywheel,
                                      5 - o->locks, &dice);
        if (yes < 0) {
            R->failed = 1;
            return -1;
        }
        if (yes) {                                          /* option_play.py take_flywheel */
            hand[size++] = o->flywheel;
            o->flywheel = -1;
            option_used(R, b, FLYWHEEL);
        }
    }
    return size;
}

/* programming.py fill's options: the bot's plan of movement options and pairs (none
 * without a hand or a free register: search.py program), then option_play.py
 * bot_flywheel: a leftover card of the highest priority kept on the Flywheel. */
static int plan_options(Race *R, Robot *b, const int *hand, int size, int free,
                        const int *chosen, const int *before)
{
    Options *o = &b->o;
    int use[5] = {-1, -1, -1, -1, -1}, pair[5], pair_with[5], steady = 0;
    static const int planned[] = {FOURTH_GEAR, REVERSE_GEARS, BRAKES, CRAB_LEGS, DUAL_PROCESSOR,
                                  GYROSCOPIC_STABILIZER};  /* option_moves.py PLANNED_OPTIONS */
    int plans = 0;
    for (size_t k = 0; k < sizeof planned / sizeof planned[0]; k++)
        plans |= has(o, planned[k]);
    for (int r = 0; r < 5; r++)
        pair[r] = pair_with[r] = -1;
    const RaceBot *bot = NULL;
    void *scratch = NULL;
    int planned_now = plans && size > 0 && free > 0;
    if (planned_now && decider(R, b, &bot, &scratch, &planned_now) < 0)
        return -1;
    if (planned_now) {
        /* (search.py _with_options: the program in the free registers, the locked ones'
         * cards as they were before the deck filled the empty ones) */
        int registers[5], slots[5], m = size < free ? size : free;
        for (int r = 0; r < 5; r++)
            registers[r] = r < free ? -1 : before[r];
        for (int r = 0; r < m; r++) {
            slots[r] = r;
            registers[r] = chosen[r];
        }
        BotRobot view = seen(R, b);
        BotTrial trial = {alone, R};
        if (bot->plan_options(bot, scratch, &view, registers, slots, m, hand, size,
                              &trial, use, pair, pair_with, &steady) < 0) {
            R->failed = 1;
            return -1;
        }
    }
    for (int r = 0; r < 5; r++) {
        o->use[r] = planned_now ? use[r] : NO_PLAN;
        if (r < free && !fc_locked(o, r)) {
            o->pair[r] = pair[r];
            o->pair_with[r] = pair_with[r];
        }
    }
    if (steady && has(o, GYROSCOPIC_STABILIZER)) {          /* option_play.py use_stabilizer */
        o->stabilized = 1;
        option_used(R, b, GYROSCOPIC_STABILIZER);
    }
    if (o->flywheel < 0 && has(o, FLYWHEEL)) {
        int best = -1;
        for (int i = 0; i < size; i++) {
            int card = hand[i], taken = 0;
            for (int r = 0; r < 5; r++)
                taken |= b->reg[r] == card || o->pair[r] == card;
            if (!taken && (best < 0 || R->c->card_priority[card] > R->c->card_priority[best]))
                best = card;
        }
        if (best >= 0) {
            o->flywheel = best;
            option_used(R, b, FLYWHEEL);
        }
    }
    return 0;
}

static void start_round(Race *R)
{
    show_flags(R);
    if (R->failed)
        return;
    const Course *c = R->c;
    R->round++;
    R->moment++;                                            /* power down (2.1) */
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        if (!in_race(b))
            continue;
        b->powered_down = b->announced;
        b->announced = b->decided = 0;
        if (b->powered_down) {
            if (R->round > 1)
                b->damage = 0;
            for (int r = 0; r < 5; r++)
                b->reg[r] = -1;
            b->o.fc_count = 0;                              /* Fire Control locks lift (10.9) */
            drop_pairs(&b->o);
        }
    }
    R->moment++;                                            /* deal (2.2) */
    int held[DECK_SIZE] = {0};
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        if (!in_race(b))
            continue;
        if (b->damage >= c->lock_from)
            for (int r = 5 - lock_count(c, b->damage); r < 5; r++)
                if (b->reg[r] >= 0)
                    held[b->reg[r]] = 1;
        if (c->played) {                                    /* race.py _held_by_options */
            const Options *o = &b->o;
            if (o->flywheel >= 0)
                held[o->flywheel] = 1;
            for (int k = 0; k < o->fc_count; k++)
                if (b->reg[o->fc_locks[k]] >= 0)
                    held[b->reg[o->fc_locks[k]]] = 1;
            for (int r = 0; r < 5; r++)
                if (o->pair[r] >= 0)
                    held[o->pair[r]] = 1;
        }
    }
    R->deck_size = R->top = R->settled = 0;
    for (int card = 0; card < DECK_SIZE; card++)
        if (!held[card])
            R->deck[R->deck_size++] = card;
    int playing[MOST_ROBOTS], sizes[MOST_ROBOTS], count = 0, total = 0;
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        if (in_race(b) && b->sq >= 0 && !b->powered_down) {
            long size = c->hand_size - b->damage;
            sizes[count] = size > 0 ? (int)size : 0;
            if (c->played) {
                b->o.locks = lock_count(c, b->damage);
                if (has(&b->o, EXTRA_MEMORY)) {             /* docs/rules.md 10 */
                    sizes[count]++;
                    option_used(R, b, EXTRA_MEMORY);
                }
            }
            total += sizes[count];
            playing[count++] = i;
        }
    }
    int cards[MOST_ROBOTS * (DECK_SIZE + 1)];
    int dealt = deal(R, total, cards);
    if (dealt < 0)
        return;
    R->moment++;                                            /* program (2.3) */
    int hands[MOST_ROBOTS][DECK_SIZE + 1], lengths[MOST_ROBOTS], top = 0;
    for (int j = 0; j < count; j++) {
        int size = sizes[j] < dealt - top ? sizes[j] : dealt - top;
        memcpy(hands[j], cards + top, size * sizeof(int));
        lengths[j] = size;
        top += size;
    }
    for (int j = 0; j < count && c->played; j++)
        if ((lengths[j] = options_hand(R, &R->r[playing[j]], hands[j], lengths[j])) < 0)
            return;
    for (int j = 0; j < count; j++) {
        Robot *b = &R->r[playing[j]];
        if (b->sq < 0)                      /* destroyed by its Recompile: programs nothing */
            continue;
        int free = 5 - (c->played ? b->o.locks : lock_count(c, b->damage));
        int kept[5];
        for (int r = 0; r < 5; r++)
            kept[r] = b->reg[r];
        if (program(R, b, hands[j], lengths[j], free) < 0)
            return;
        int chosen[5];
        memcpy(chosen, b->reg, sizeof chosen);
        for (int r = free; r < 5; r++)
            if (b->reg[r] < 0 && (b->reg[r] = draw(R)) < 0 && R->failed)
                return;
        if (c->played) {
            for (int k = 0; k < b->o.fc_count; k++)     /* Fire Control's locks keep their cards */
                b->reg[b->o.fc_locks[k]] = kept[b->o.fc_locks[k]];
            if (plan_options(R, b, hands[j], lengths[j], free, chosen, kept) < 0)
                return;
        }
    }
    R->moment++;                                            /* announce (2.4) */
    for (int j = 0; j < count; j++)
        choose_power_down(R, &R->r[playing[j]]);
}

static void end_race(Race *R)
{
    R->over = 1;
}

/* teams.py decide_register (and decide_round) under elimination (docs/rules.md
 * 13.6): the race is decided once no more than one team has a robot left,
 * that team winning (nobody when none has). */
static void decide(Race *R)
{
    if (R->c->victory != ELIMINATION || R->over)
        return;
    int left = 0, team = -1;
    for (int i = 0; i < R->count; i++) {
        const Robot *b = &R->r[i];
        if (b->out)
            continue;
        if (left && b->team != team)
            return;
        left = 1;
        team = b->team;
    }
    R->winner = left ? team : -1;
    R->won = left;
    end_race(R);
}

static void play_register(Race *R, int reg)
{
    const Course *c = R->c;
    int slot = reg - 1;
    int outs = R->outs;
    for (int i = 0; i < R->count && c->played; i++)         /* option_play.py before_reveal */
        if (R->r[i].sq >= 0)
            R->r[i].o.shield_sides = 0;
    if (c->has_randomizer) {                                /* A */
        R->moment++;
        for (int i = 0; i < R->count; i++) {
            Robot *b = &R->r[i];
            if (b->sq >= 0 && c->square[b->sq] & RANDOMIZER && b->reg[slot] >= 0) {
                int card = draw(R);
                if (R->failed)
                    return;
                if (card >= 0) {
                    b->reg[slot] = card;
                    b->o.pair[slot] = b->o.pair_with[slot] = -1;    /* a pair goes whole */
                }
            }
        }
    }
    R->moment++;                                            /* B */
    int actors[MOST_ROBOTS], count = 0;
    for (int i = 0; i < R->count; i++) {
        if (R->r[i].sq >= 0 && R->r[i].reg[slot] >= 0) {
            int at = count++;
            int priority = c->card_priority[R->r[i].reg[slot]];
            while (at > 0 && c->card_priority[R->r[actors[at - 1]].reg[slot]] < priority) {
                actors[at] = actors[at - 1];
                at--;
            }
            actors[at] = i;
        }
    }
    for (int j = 0; j < count; j++) {
        Robot *b = &R->r[actors[j]];
        if (b->sq >= 0) {
            R->moment++;
            play_register_card(R, b, slot);
        }
    }
    board_elements(R, reg);                                 /* C */
    R->moment++;                                            /* D */
    int on[MOST_ROBOTS], onboard = 0;
    for (int i = 0; i < R->count; i++)
        if (R->r[i].sq >= 0)
            on[onboard++] = i;
    if (c->played && !fires_plain(R, on, onboard))
        fire_with_options(R, on, onboard, slot);
    else
        fire(R, on, onboard, slot);
    R->moment++;                                            /* E */
    int finished[MOST_ROBOTS];
    int done = touch(R, on, onboard, reg, finished);
    if (done) {                                             /* race.py _finish */
        R->finishers += done;
        if (R->c->finish_first) {
            end_race(R);
        } else {
            for (int j = 0; j < done; j++) {
                Robot *b = &R->r[finished[j]];
                R->occ[b->sq] = -1;
                b->sq = -1;
                b->powered_down = b->announced = 0;
            }
        }
    }
    for (int i = 0; i < R->count; i++)                      /* on_register_end */
        if (R->r[i].sq >= 0)
            R->occupancy[R->r[i].sq]++;
    decide(R);
    if ((done || R->outs != outs) && !R->over) {
        int left = 0;
        for (int i = 0; i < R->count; i++)
            left |= in_race(&R->r[i]);
        if (!left)
            end_race(R);
    }
}

/* cleanup.py ring(k), rank by rank: the offset of square `rank` at distance k. */
static void ring_at(int k, int rank, int *dx, int *dy)
{
    if (rank <= k) {                                        /* north edge, east half */
        *dx = rank;
        *dy = -k;
        return;
    }
    rank -= k + 1;
    if (rank < 2 * k) {                                     /* east edge */
        *dx = k;
        *dy = -k + 1 + rank;
        return;
    }
    rank -= 2 * k;
    if (rank < 2 * k) {                                     /* south edge */
        *dx = k - 1 - rank;
        *dy = k;
        return;
    }
    rank -= 2 * k;
    if (rank < 2 * k) {                                     /* west edge */
        *dx = -k;
        *dy = k - 1 - rank;
        return;
    }
    rank -= 2 * k;                                          /* north edge, west half */
    *dx = -k + 1 + rank;
    *dy = -k;
}

/* cleanup.py _next_flag_distances: per square, the path distance to the
 * robot's next flag (-1 none); NULL when it has touched them all. */
static const int *next_flag_dist(const Course *c, const Robot *b)
{
    return b->flags < c->F ? c->dist + b->flags * c->n : NULL;
}

/* cleanup.py _entry_square: -1 when the board is full. */
static int entry_square(const Race *R, const Robot *b)
{
    const Course *c = R->c;
    if (R->occ[b->archive] < 0)
        return b->archive;
    const int *dist = next_flag_dist(c, b);
    int x = b->archive % (int)c->w, y = b->archive / (int)c->w;
    int most = (int)(c->w > c->h ? c->w : c->h);
    for (int k = 1; k < most; k++) {
        int64_t best_key = 0;
        int best = -1;
        for (int rank = 0; rank < 8 * k; rank++) {
            int dx, dy;
            ring_at(k, rank, &dx, &dy);
            int sx = x + dx, sy = y + dy;
            if (sx < 0 || sx >= c->w || sy < 0 || sy >= c->h)
                continue;
            int square = sy * (int)c->w + sx;
            if (R->occ[square] >= 0 || c->death[square])
                continue;
            int64_t d = dist != NULL && dist[square] >= 0 ? dist[square] : c->n;
            int64_t key = d * 8 * most + rank;
            if (best < 0 || key < best_key) {
                best_key = key;
                best = square;
            }
        }
        if (best >= 0)
            return best;
    }
    return -1;
}

/* cleanup.py _entry_facing */
static int entry_facing(const Race *R, const Robot *b, int square)
{
    const Course *c = R->c;
    const int *dist = next_flag_dist(c, b);
    if (dist != NULL && dist[square] < 0)
        dist = NULL;
    Py_ssize_t key[4];
    int ranked[4];
    for (int d = 0; d < 4; d++) {
        int neighbour = c->target[square * 4 + d];
        if (dist == NULL)
            key[d] = 0;
        else if (neighbour < 0 || c->death[neighbour])
            key[d] = 2 * c->n + 2;
        else if (dist[neighbour] < 0)
            key[d] = 2 * c->n + 1;
        else
            key[d] = dist[neighbour] + 1;
        int at = d;
        while (at > 0 && key[ranked[at - 1]] > key[d]) {    /* ties keep N, E, S, W */
            ranked[at] = ranked[at - 1];
            at--;
        }
        ranked[at] = d;
    }
    for (int j = 0; j < 4; j++) {
        int d = ranked[j], s = square, barred = 0;
        for (int k = 0; k < 3 && !barred; k++) {
            s = c->target[s * 4 + d];
            if (s < 0)
                break;
            barred = R->occ[s] >= 0;
        }
        if (!barred)
            return d;
    }
    return ranked[0];
}

static int repairs(const Race *R, int square)
{
    return R->c->archive_point[square] || (R->c->flags_repair && R->flag_at[square]);
}

/* cleanup.py _arm_repair: the square the Mechanical Arm repairs at (an upgrade square
 * in reach first, 10.11), -1 none. */
static int arm_repair(const Race *R, const Robot *b)
{
    int reach[8], k = arm_reach(R->c, b->sq, reach);
    for (int j = 0; j < k; j++)
        if (R->c->upgrade[reach[j]])
            return reach[j];
    for (int j = 0; j < k; j++)
        if (repairs(R, reach[j]))
            return reach[j];
    return -1;
}

/* cleanup.py repair with played option cards: whether robot b's damage went down. */
static int repair_with_options(Race *R, Robot *b)
{
    const Course *c = R->c;
    int sq = b->sq, on = repairs(R, sq);
    if (b->o.count > 0 && !c->upgrade[sq] && has(&b->o, MECHANICAL_ARM)) {
        int arm = arm_repair(R, b);
        if (arm >= 0 && (!on || c->upgrade[arm])) {
            int upgrade = c->upgrade[arm] && !b->powered_down;
            if (upgrade || (b->damage && !on) || c->options_sites)     /* it changes something */
                option_used(R, b, MECHANICAL_ARM);
            sq = arm;
            on = 1;
        }
    }
    if (!on)
        return 0;
    if (c->options_sites) {                 /* cards instead of a repair (docs/rules.md 12.5) */
        for (int k = 0; k < (c->upgrade[sq] ? 2 : 1); k++)
            gain(R, b, -1, GAINED_OTHERWISE);
        return 0;
    }
    int repaired = b->damage > 0;
    if (repaired)
        b->damage--;
    if (c->upgrade[sq] && !b->powered_down)
        gain(R, b, -1, GAINED_ON_UPGRADE);
    return repaired;
}

/* option_play.py release_with_options: as 7.2, but a register Fire Control locked keeps
 * its card unless a repair lowered the robot's damage this clean-up (10.9). */
static void release_with_options(Race *R, Robot *b, int repaired)
{
    Options *o = &b->o;
    if (repaired)
        o->fc_count = 0;
    for (int r = 0; r < 5 - lock_count(R->c, b->damage); r++) {
        if (!fc_locked(o, r)) {
            b->reg[r] = -1;
            o->pair[r] = o->pair_with[r] = -1;
        }
    }
    o->stabilized = 0;
}

static void clean_up(Race *R)
{
    const Course *c = R->c;
    int repaired[MOST_ROBOTS] = {0};
    R->moment++;                                            /* repairs (7.1) */
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        if (b->sq < 0)
            continue;
        if (c->played)
            repaired[i] = repair_with_options(R, b);
        else if (b->damage && repairs(R, b->sq) && !c->options_sites)   /* (counted cards) */
            b->damage--;
    }
    for (int k = 0; k < R->gift_count; k++)     /* even if destroyed or powered down since */
        gain(R, &R->r[R->gifts[k]], -1, GAINED_OTHERWISE);
    R->gift_count = 0;
    for (int i = 0; i < R->count && c->superbot; i++) {     /* superbot.py discard_damage */
        Robot *b = &R->r[i];
        if (b->superbot && b->sq >= 0 && b->damage) {
            b->damage = 0;
            repaired[i] = 1;                        /* (a repair: Fire Control locks lift) */
        }
    }
    R->moment++;                                            /* registers (7.2) */
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        if (b->out)
            continue;
        if (c->played)
            release_with_options(R, b, repaired[i]);
        else
            for (int r = 0; r < 5 - lock_count(c, b->damage); r++)
                b->reg[r] = -1;
    }
    R->moment++;                                            /* power down choice (7.3) */
    show_flags(R);
    if (R->failed)
        return;
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        if (in_race(b) && !b->decided)
            choose_power_down(R, b);
        if (b->sq >= 0 && b->damage >= 3 && !b->out && c->power_down && c->played
            && has(&b->o, CIRCUIT_BREAKER) && !b->announced) {
            b->announced = 1;                               /* Circuit Breaker */
            option_used(R, b, CIRCUIT_BREAKER);
        }
    }
    R->moment++;                                            /* re-entry (7.4) */
    int waiting[MOST_ROBOTS], count = 0;
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        if (!(b->destroyed && !b->out))
            continue;
        int at = count++;
        while (at > 0 && R->r[waiting[at - 1]].death_seq > b->death_seq) {
            waiting[at] = waiting[at - 1];
            at--;
        }
        waiting[at] = i;
    }
    for (int j = 0; j < count; j++) {
        Robot *b = &R->r[waiting[j]];
        int square = entry_square(R, b);
        if (square < 0)
            continue;
        b->sq = square;
        b->facing = entry_facing(R, b, square);
        b->damage = (int)(c->respawn < c->destroy_at ? c->respawn : c->destroy_at);
        if (b->o.fresh) {                                   /* Superior Archive Copy */
            b->o.fresh = 0;
            if (b->damage)
                option_used(R, b, SUPERIOR_ARCHIVE_COPY);
            b->damage = 0;
        }
        b->destroyed = 0;
        R->occ[square] = waiting[j];
    }
    decide(R);
    if (R->round >= c->max_rounds)
        end_race(R);
}

/* ------------------------------------------------------------ a race */

/* Room in R->order (and near_place, near_robot) for the lasers of course c;
 * 0, or -1 with an error. */
static int laser_room(Race *R, const Course *c)
{
    if (R->order != NULL && c->lasers <= R->laser_room)
        return 0;
    int *order = PyMem_Realloc(R->order, (3 * c->lasers + 1) * sizeof(int));
    if (order == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    R->order = order;
    R->near_place = order + c->lasers;
    R->near_robot = R->near_place + c->lasers;
    R->laser_room = c->lasers;
    return 0;
}

/* The course and bot of `got`, a (course, bot) pair from turned() or
 * moved(), checked against the race's course: the same size and number of
 * flags, the flags on `flags`; -1 with an error. */
static int played_on(const Race *R, PyObject *got, const int *flags, const Course **c,
                     const RaceBot **bot)
{
    if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 2) {
        PyErr_SetString(PyExc_TypeError, "race: turned() and moved() give (course, bot)");
        return -1;
    }
    *c = PyCapsule_GetPointer(PyTuple_GET_ITEM(got, 0), COURSE_CAPSULE);
    *bot = *c == NULL ? NULL : PyCapsule_GetPointer(PyTuple_GET_ITEM(got, 1), RACE_BOT_CAPSULE);
    if (*bot == NULL)
        return -1;
    const Course *now = R->c;
    if ((*c)->w != now->w || (*c)->h != now->h || (*c)->F != now->F
        || memcmp((*c)->flags, flags, now->F * sizeof(int)) != 0) {
        PyErr_SetString(PyExc_ValueError, "race: a turned board or moved flags of another course");
        return -1;
    }
    if ((*bot)->squares != now->n || (*bot)->flags != now->F) {
        PyErr_SetString(PyExc_ValueError, "race: the bot was made for another course");
        return -1;
    }
    return 0;
}

/* board_turns.py BoardTurns.flag_touched: a robot touched the flag on
 * `square`. turned(square) flips the coin (drawing from the race's
 * generator between the race's own draws, as Python's race does) and gives
 * None, or the (course, bot) capsules of the board turned. The race plays
 * on on them at once: the robots after this one in the checkpoint step, the
 * clean-up and the bots' next programs see the turned board. */
static void board_turns(Race *R, int square)
{
    PyObject *got = PyObject_CallFunction(R->turned, "i", square);
    if (got == NULL || got == Py_None) {
        R->failed = got == NULL;
        Py_XDECREF(got);
        return;
    }
    play_on(R, got, R->c->flags);
}

/* The race plays on on `got` (a new reference: turned()'s or moved()'s
 * (course, bot), its flags on `flags`) from now on; R->failed on an error. */
static void play_on(Race *R, PyObject *got, const int *flags)
{
    const Course *c;
    const RaceBot *bot;
    void *scratch = NULL;
    if (played_on(R, got, flags, &c, &bot) == 0 && laser_room(R, c) == 0
        && PyList_Append(R->held, got) == 0)
        scratch = bot->start(bot);
    Py_DECREF(got);                 /* (R->held keeps the capsules) */
    if (scratch == NULL) {
        R->failed = 1;
        return;
    }
    R->bot->stop(R->scratch);       /* (the bot's scratch is its tables' own) */
    R->scratch = scratch;
    R->bot = bot;
    R->c = c;
}

/* state.py place_flags: the flags on `squares`, R->flag_at in step (a
 * square's flag number is the highest of the flags on it). */
static void place_flags(Race *R, const int *squares)
{
    for (Py_ssize_t t = 0; t < R->c->F; t++)
        R->flag_at[R->flags[t]] = 0;
    for (Py_ssize_t t = 0; t < R->c->F; t++) {
        R->flags[t] = squares[t];
        R->flag_at[squares[t]] = (int)t + 1;
    }
}

/* moving_flags.py carry_flags: every flag on a square of `hot` with `bit`
 * rides one square along its belt (a wall ahead stops it; carried off the
 * board or onto a deadly square it goes back to its square in the file),
 * and an archive marker on a square a flag left goes with the first flag
 * that left it. */
static void carry_flags(Race *R, const int *hot, int bit)
{
    const Course *c = R->c;
    int after[MOST_FLAGS], left[MOST_FLAGS], went = 0;
    for (Py_ssize_t t = 0; t < c->F; t++) {
        int sq = R->flags[t];
        after[t] = sq;
        if (!(hot[sq] & bit) || c->belt[sq] < 0)
            continue;
        int to = c->target[sq * 4 + c->belt[sq]];
        if (to == WALL)
            continue;
        after[t] = to < 0 || c->death[to] ? R->home[t] : to;
        left[went++] = (int)t;
    }
    if (memcmp(after, R->flags, c->F * sizeof(int)) == 0)
        return;
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        for (int j = 0; j < went && !b->out; j++)
            if (b->archive == R->flags[left[j]]) {
                b->archive = after[left[j]];
                break;
            }
    }
    place_flags(R, after);
    R->unseen = 1;
}

/* race.py _show_flags: the bots see the flags where they stand now. The race
 * plays on on moved()'s course (its distances to the flags, for re-entry)
 * and bot for them; R->failed on an error. */
static void show_flags(Race *R)
{
    if (!R->unseen)
        return;
    R->unseen = 0;
    PyObject *squares = PyTuple_New(R->c->F);
    for (Py_ssize_t t = 0; squares != NULL && t < R->c->F; t++)
        PyTuple_SET_ITEM(squares, t, PyLong_FromLong(R->flags[t]));
    PyObject *got = squares == NULL ? NULL : PyObject_CallOneArg(R->moved, squares);
    Py_XDECREF(squares);
    if (got == NULL) {
        R->failed = 1;
        return;
    }
    play_on(R, got, R->flags);
}

/* race(course, bot, rng, robots[, turned[, moved[, deck[, aim]]]]): every robot played by
 * `bot` (a capsule of _race_bot.h made for this course; None under
 * elimination, where aim(square) gives the bot made for the course with its
 * one flag on that square: deciding), robots a sequence
 * of (square, facing, damage, lives, flags, powered_down[, superbot[, team,
 * blocker]]), in robot order (superbot: it holds the SuperBot title, 12.9;
 * team: its team's number, -1 for none, and blocker its role, 13);
 * `turned` (None: no board turns) as board_turns calls it, `moved` (None:
 * flags stay) as show_flags does, `deck` the option deck (read_option_deck).
 * Returns (rounds, finished, flag_rounds, deaths, occupancy, held_option,
 * option_uses, upgrades, won): per robot (round, register) of its
 * finish or None; per robot the round of each flag it touched; each death
 * as (robot, round, square, cause, leg, agent, origin, re-entry square or
 * -1 when out), cause and agent as numbered above; per square the robots
 * that stood there at the end of a register, as little-endian uint32s;
 * the rest as balance/compiled.py CompiledRace has them (won: the team that
 * won an elimination race, [] for none and on other courses). */

/* The option deck as race.py's OptionDeck shuffled it (its own generator, 10.1): the
 * cards' numbers (OPTION_IDS order), its top first; none where options are counted. */
static int read_option_deck(Race *R, PyObject *deck)
{
    if (!R->c->played)
        return 0;
    PyObject *seq = deck == NULL ? NULL : PySequence_Fast(deck, "race: option deck: a sequence");
    if (seq == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "race: played option cards need the option deck");
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int seen = 0, bad = n > OPTION_COUNT;
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        bad = card < 0 || card >= OPTION_COUNT || seen >> card & 1;
        seen |= 1 << card;
        R->odeck[i] = (int)card;
    }
    Py_DECREF(seq);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "race: the option deck holds each card once");
        return -1;
    }
    R->odeck_size = (int)n;
    return 0;
}

/* race.py _deal_options for robots without a spec: `start_options` cards each, robot
 * order, or with a draft (12.6) `draft` cards dealt, the bot's most valued kept and the
 * others put under the deck. */
static void deal_options(Race *R)
{
    const Course *c = R->c;
    for (int i = 0; i < R->count && c->start_options; i++) {
        Robot *b = &R->r[i];
        if (!c->draft) {
            for (int k = 0; k < c->start_options; k++)
                gain(R, b, -1, GAINED_AT_START);
            continue;
        }
        int dealt[OPTION_COUNT], n = 0;
        while (n < c->draft && (dealt[n] = deal_option(R)) >= 0)
            n++;
        if (n == 0)
            continue;
        int kept = keep(dealt, n);
        for (int k = 0; k < n; k++)
            if (dealt[k] != kept)
                R->odeck[R->odeck_size++] = dealt[k];
        gain(R, b, kept, GAINED_AT_START);
    }
}

static PyObject *race(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 4 || nargs > 8) {
        PyErr_SetString(PyExc_TypeError, "race: expected 4 to 8 arguments");
        return NULL;
    }
    PyObject *turned = nargs >= 5 && args[4] != Py_None ? args[4] : NULL;
    PyObject *moved = nargs >= 6 && args[5] != Py_None ? args[5] : NULL;
    PyObject *option_deck = nargs >= 7 && args[6] != Py_None ? args[6] : NULL;
    PyObject *aim = nargs == 8 && args[7] != Py_None ? args[7] : NULL;
    if ((turned != NULL && !PyCallable_Check(turned)) || (moved != NULL && !PyCallable_Check(moved))
        || (aim != NULL && !PyCallable_Check(aim))) {
        PyErr_SetString(PyExc_TypeError, "race: turned, moved and aim must be callable or None");
        return NULL;
    }
    const Course *c = PyCapsule_GetPointer(args[0], COURSE_CAPSULE);
    if (c == NULL)
        return NULL;
    const RaceBot *bot = NULL;
    if (c->victory == ELIMINATION) {        /* (its bots are aimed: deciding) */
        if (args[1] != Py_None || aim == NULL) {
            PyErr_SetString(PyExc_TypeError, "race: an elimination course takes aim(), no bot");
            return NULL;
        }
    } else if ((bot = PyCapsule_GetPointer(args[1], RACE_BOT_CAPSULE)) == NULL) {
        return NULL;
    } else if (bot->squares != c->n || bot->flags != c->F) {
        PyErr_SetString(PyExc_ValueError, "race: the bot was made for another course");
        return NULL;
    }
    PyObject *robots = PySequence_Fast(args[3], "race: robots: expected a sequence");
    if (robots == NULL)
        return NULL;
    Race *R = PyMem_Calloc(1, sizeof(Race));
    PyObject *result = NULL;
    if (R == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    R->c = c;
    R->bot = bot;
    R->count = (int)PySequence_Fast_GET_SIZE(robots);
    if (R->count < 1 || R->count > MOST_ROBOTS) {
        PyErr_Format(PyExc_ValueError, "race: 1 to %d robots", MOST_ROBOTS);
        goto done;
    }
    R->occ = PyMem_Malloc(c->n * sizeof(int));
    R->occupancy = PyMem_Calloc(c->n, sizeof(long));
    R->flag_rounds = PyMem_Calloc(R->count * c->F, sizeof(int));
    R->deaths = PyList_New(0);
    R->held = PyList_New(0);
    R->upgrades = PyList_New(0);
    R->turned = Py_XNewRef(turned);
    R->moved = Py_XNewRef(moved);
    R->aim = Py_XNewRef(aim);
    if (aim != NULL) {
        R->aimed_capsule = PyMem_Calloc(c->n, sizeof(PyObject *));
        R->aimed = PyMem_Calloc(c->n, sizeof(RaceBot *));
        R->aimed_scratch = PyMem_Calloc(c->n, sizeof(void *));
        R->aimed_room = AIMED_SQUARES / c->n > 16 ? AIMED_SQUARES / c->n : 16;
        if (!R->aimed_capsule || !R->aimed || !R->aimed_scratch) {
            PyErr_NoMemory();
            goto done;
        }
    }
    memcpy(R->home, c->flags, c->F * sizeof(int));
    memcpy(R->flags, c->flags, c->F * sizeof(int));
    R->flag_at = PyMem_Calloc(c->n, sizeof(int));
    R->getrandbits = PyObject_GetAttrString(args[2], "getrandbits");
    if (R->getrandbits == NULL || R->deaths == NULL || R->held == NULL || R->upgrades == NULL
        || laser_room(R, c) < 0 || read_option_deck(R, option_deck) < 0
        || (bot != NULL && (R->scratch = bot->start(bot)) == NULL))
        goto done;
    if (!R->occ || !R->occupancy || !R->flag_rounds || !R->flag_at) {
        PyErr_NoMemory();
        goto done;
    }
    place_flags(R, c->flags);
    for (long s = 0; s < c->n; s++)
        R->occ[s] = -1;
    for (int i = 0; i < R->count; i++) {
        Robot *b = &R->r[i];
        int powered_down = 0;
        b->team = -1;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(robots, i), "iiiiip|pip", &b->sq,
                              &b->facing, &b->damage, &b->lives, &b->flags, &powered_down,
                              &b->superbot, &b->team, &b->blocker))
            goto done;
        if (b->sq < 0 || b->sq >= c->n || b->facing < 0 || b->facing > 3 || b->damage < 0
            || b->lives < 1 || b->flags < 0 || (b->flags > 0 && b->flags >= c->F)
            || R->occ[b->sq] >= 0) {
            PyErr_SetString(PyExc_ValueError, "race: a robot's start is out of range or taken");
            goto done;
        }
        if (b->damage > c->destroy_at)
            b->damage = (int)c->destroy_at;
        b->archive = b->sq;
        b->powered_down = b->announced = powered_down;
        for (int r = 0; r < 5; r++)
            b->reg[r] = -1;
        R->occ[b->sq] = i;
        clear_options(&b->o);
    }
    if (c->played)
        deal_options(R);
    while (!R->over && !R->failed) {                        /* Race.run */
        start_round(R);
        for (int reg = 1; reg <= 5 && !R->over && !R->failed; reg++)
            play_register(R, reg);
        if (!R->over && !R->failed)
            clean_up(R);
    }
    if (R->failed)
        goto done;
    PyObject *finished = PyList_New(R->count), *flags = PyList_New(R->count);
    /* one little-endian unsigned 32-bit count per square (summary.py pack_counts) */
    PyObject *occupancy = PyBytes_FromStringAndSize(NULL, c->n * 4);
    for (int i = 0; finished && flags && i < R->count; i++) {
        Robot *b = &R->r[i];
        PyList_SET_ITEM(finished, i, b->fin_round ? Py_BuildValue("(ii)", b->fin_round, b->fin_reg)
                                                  : Py_NewRef(Py_None));
        PyObject *rounds = PyList_New(b->flags);
        for (int t = 0; rounds != NULL && t < b->flags; t++)
            PyList_SET_ITEM(rounds, t, PyLong_FromLong(R->flag_rounds[i * c->F + t]));
        PyList_SET_ITEM(flags, i, rounds);
    }
    for (long s = 0; occupancy != NULL && s < c->n; s++) {
        unsigned char *at = (unsigned char *)PyBytes_AS_STRING(occupancy) + 4 * s;
        unsigned long count = (unsigned long)R->occupancy[s];
        for (int byte = 0; byte < 4; byte++)
            at[byte] = (unsigned char)(count >> (8 * byte));
    }
    /* with played option cards: who gained a card, each card's uses, the upgrade squares'
     * gifts (play.py on_option) */
    PyObject *held_any = PyList_New(R->count), *uses = PyList_New(OPTION_COUNT);
    PyObject *won = R->won ? Py_BuildValue("[i]", R->winner) : PyList_New(0);
    for (int i = 0; held_any && i < R->count; i++)
        PyList_SET_ITEM(held_any, i, PyBool_FromLong(R->r[i].held_any));
    for (int k = 0; uses && k < OPTION_COUNT; k++)
        PyList_SET_ITEM(uses, k, PyLong_FromLong(R->option_uses[k]));
    if (finished && flags && occupancy && held_any && uses && won && !PyErr_Occurred())
        result = Py_BuildValue("(iOOOOOOOO)", R->round, finished, flags, R->deaths, occupancy,
                               held_any, uses, R->upgrades, won);
    Py_XDECREF(finished);
    Py_XDECREF(flags);
    Py_XDECREF(occupancy);
    Py_XDECREF(held_any);
    Py_XDECREF(uses);
    Py_XDECREF(won);
done:
    if (R != NULL) {
        Py_XDECREF(R->getrandbits);
        Py_XDECREF(R->deaths);
        Py_XDECREF(R->upgrades);
        Py_XDECREF(R->turned);
        Py_XDECREF(R->moved);
        PyMem_Free(R->occ);
        PyMem_Free(R->flag_at);
        PyMem_Free(R->occupancy);
        PyMem_Free(R->flag_rounds);
        PyMem_Free(R->order);
        drop_lone(R);
        if (R->scratch != NULL)
            R->bot->stop(R->scratch);
        drop_aimed(R);
        PyMem_Free(R->aimed_capsule);
        PyMem_Free(R->aimed);
        PyMem_Free(R->aimed_scratch);
        PyMem_Free(R->paths);
        Py_XDECREF(R->aim);
        Py_XDECREF(R->held);            /* (the turned boards' capsules, once their bot stopped) */
        PyMem_Free(R);
    }
    Py_DECREF(robots);
    return result;
}

static PyMethodDef methods[] = {
    {"race_course", (PyCFunction)race_course, METH_O,
     "race_course(spec: CourseSpec) -> the capsule race() plays on"},
    {"plan_options", planned_alone, METH_VARARGS,
     "plan_options(course, bot, trial) -> (use, pair, pair_with, steady): for tests"},
    {"race", (PyCFunction)(void (*)(void))race, METH_FASTCALL,
     "race(course, bot, rng, robots, turned=None, moved=None, deck=None, aim=None) -> (rounds, "
     "finished, flag_rounds, deaths, occupancy, held_option, option_uses, upgrades, won)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_race",
    "A compiled copy of the race rules of engine/rules, for balance runs (race.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__race(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && (PyModule_AddIntConstant(m, "MOST_ROBOTS", MOST_ROBOTS) < 0
                      || PyModule_AddIntConstant(m, "MOST_FLAGS", MOST_FLAGS) < 0
                      || PyModule_AddIntConstant(m, "MOST_SIDE", MOST_SIDE) < 0))
        Py_CLEAR(m);
    return m;
}
