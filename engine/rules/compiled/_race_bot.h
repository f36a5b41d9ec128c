/* What the compiled race (_race.c) asks of the bots that play in it: the
 * rules' side of the bargain, as engine/rules/bot_view.py is in Python. A
 * bot is a capsule named RACE_BOT_CAPSULE whose pointer starts with a
 * RaceBot; the bots build theirs (the search bot's: engine/bots/_search_race.c)
 * and a balance run hands it to race() with the course. */
#ifndef RALLYFORGE_RACE_BOT_H
#define RALLYFORGE_RACE_BOT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define RACE_BOT_CAPSULE "rallyforge.engine.rules.compiled.race_bot"

/* card kinds (program_cards.py) */
enum { MOVE1, MOVE2, MOVE3, BACK, LEFT, RIGHT, UTURN, NO_CARD };

/* The option cards, by engine/model/option_cards.py OPTION_IDS, in its order
 * (a played card's rules: _options.h). */
enum {
    ABLATIVE_COAT, ABORT_SWITCH, BRAKES, CIRCUIT_BREAKER, CONDITIONAL_PROGRAM, CRAB_LEGS,
    DOUBLE_BARRELED_LASER, DUAL_PROCESSOR, EXTRA_MEMORY, FIRE_CONTROL, FLYWHEEL, FOURTH_GEAR,
    GYROSCOPIC_STABILIZER, HIGH_POWER_LASER, MECHANICAL_ARM, MINI_HOWITZER, POWER_DOWN_SHIELD,
    PRESSOR_BEAM, RADIO_CONTROL, RAMMING_GEAR, REAR_FIRING_LASER, RECOMPILE, REVERSE_GEARS,
    SCRAMBLER, SUPERIOR_ARCHIVE_COPY, TRACTOR_BEAM, OPTION_COUNT
};

/* What a bot sees of its robot when it programs or chooses to power down. */
typedef struct {
    int sq, facing;         /* square (y * width + x; -1 off the board), N E S W = 0 1 2 3 */
    int damage, lives;
    int flags;              /* flags touched so far */
    int archive;            /* its archive square */
    int locked;             /* registers locked by damage: the last ones (cleanup.py lock_count) */
    int room;               /* damage it takes before it is destroyed */
    int *reg;               /* its 5 registers (card numbers, DECK order; -1 empty): program
                               fills the first `free`, which the race has emptied */
    int hunts;              /* under superbot (12.9): it hunts the SuperBot, which stands at */
    int quarry[4];          /* (square or -1, facing, flags touched, archive square) */
    const int *options;     /* with played option cards: the cards it holds, oldest first
                               (their ids, OPTION_IDS above) */
    int option_count;
} BotRobot;

/* The race's random numbers (its random.Random): rng.randrange(n) for n >= 1,
 * -1 with a Python error set. */
typedef struct {
    Py_ssize_t (*below)(void *race, Py_ssize_t n);
    void *race;
} BotDice;

/* The race's trial of a program with option cards, the robot alone on the board
 * (engine/bots/option_moves.py OptionMoves.score plays on a one-robot floor): plays
 * `registers` (card numbers, -1 none) with per register its movement option `use`, its
 * pair's rotate card `pair` and the pair's option `pair_with` (-1 none) and, if `steady`,
 * the Gyroscopic Stabilizer, from (sq, facing) holding `options` (`count` cards); after
 * each register r (card, then board elements) out[r] is its square * 4 + facing, or -1
 * from the register it is destroyed in on. 0, or -1 with a Python error set. */
typedef struct {
    int (*alone)(void *race, int sq, int facing, const int *options, int count,
                 const int *registers, const int *use, const int *pair, const int *pair_with,
                 int steady, int out[5]);
    void *race;
} BotTrial;

typedef struct RaceBot {
    Py_ssize_t squares, flags;      /* the course it was made for (race() checks) */
    /* its scratch for one race (no state is kept between races), NULL with an error */
    void *(*start)(const struct RaceBot *bot);
    void (*stop)(void *scratch);
    /* the first `free` registers from `size` cards of `hand`; -1 with an error */
    int (*program)(const struct RaceBot *bot, void *scratch, const BotRobot *robot,
                   const int *hand, int size, int free, const BotDice *dice);
    /* whether it announces a power down (2.4, 7.3) */
    int (*powers_down)(const struct RaceBot *bot, const BotRobot *robot);
    /* With played option cards (docs/rules.md 10.12): the movement options, pairs and
     * Gyroscopic Stabilizer of the program in `registers` (5; the bot filled the 0-based
     * registers in `free`, ascending) with `hand` left to pair from; 0, or -1 with an error */
    int (*plan_options)(const struct RaceBot *bot, void *scratch, const BotRobot *robot,
                        const int *registers, const int *free, int nfree, const int *hand,
                        int size, const BotTrial *trial, int use[5], int pair[5],
                        int pair_with[5], int *steady);
    /* whether it recompiles `hand` (registers 1..free are its to fill): 1, 0, -1 with an error */
    int (*recompiles)(const struct RaceBot *bot, void *scratch, const BotRobot *robot,
                      const int *hand, int size, int free, const BotDice *dice);
    /* whether it takes the Flywheel's `card` into `hand`: 1, 0, -1 with an error */
    int (*takes_flywheel)(const struct RaceBot *bot, void *scratch, const BotRobot *robot,
                          const int *hand, int size, int card, int free, const BotDice *dice);
} RaceBot;

#endif
