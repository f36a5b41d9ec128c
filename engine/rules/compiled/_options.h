/* Option cards in the compiled race (docs/rules.md 10), as
 * engine/rules/option_holding.py holds them: the option deck, gaining and
 * losing cards, and damage point by point through what prevents it. Only
 * _race.c includes it (after its Race, Robot and destroy). A compiled race
 * is a balance run's: every robot is a bot's, nothing is logged, and the
 * cards no bot uses (Abort Switch, Conditional Program, Radio Control,
 * Scrambler) are only held. */
#ifndef RALLYFORGE_OPTIONS_H
#define RALLYFORGE_OPTIONS_H

#define COAT_POINTS 3               /* option_holding.py */
#define HOWITZER_SHOTS 5

#include "_race_bot.h"        /* the card ids (OPTION_IDS): the bots see them too */

/* engine/bots/option_policy.py BOT_VALUE: per card, how long a bot keeps it
 * (higher: longer). A bot's ranking, not a rule (docs/rules.md 10.12). */
static const int BOT_VALUE[OPTION_COUNT] = {
    [ABLATIVE_COAT] = 0, [FLYWHEEL] = 1, [CONDITIONAL_PROGRAM] = 2, [BRAKES] = 3,
    [REVERSE_GEARS] = 4, [RECOMPILE] = 5, [SUPERIOR_ARCHIVE_COPY] = 6, [ABORT_SWITCH] = 7,
    [CIRCUIT_BREAKER] = 8, [GYROSCOPIC_STABILIZER] = 9, [POWER_DOWN_SHIELD] = 10,
    [SCRAMBLER] = 11, [RADIO_CONTROL] = 12, [TRACTOR_BEAM] = 13, [REAR_FIRING_LASER] = 14,
    [RAMMING_GEAR] = 15, [MECHANICAL_ARM] = 16, [FOURTH_GEAR] = 17, [CRAB_LEGS] = 18,
    [DUAL_PROCESSOR] = 19, [EXTRA_MEMORY] = 20, [FIRE_CONTROL] = 21, [PRESSOR_BEAM] = 22,
    [MINI_HOWITZER] = 23, [HIGH_POWER_LASER] = 24, [DOUBLE_BARRELED_LASER] = 25,
};

/* Options.use of a robot whose bot made no plan this round: a movement option is the
 * bots' policy's (option_policy.py move_use: Fourth Gear on every Move 3). */
#define NO_PLAN (-2)

/* Why a card was gained (the balance run keeps where upgrade squares gave one). */
enum { GAINED_AT_START, GAINED_ON_UPGRADE, GAINED_OTHERWISE };

/* What a robot's cards remember (state.py RobotOptions and RobotState.cards). */
typedef struct {
    int held[OPTION_COUNT], count;  /* the cards held, oldest first */
    int coat, shells;               /* Ablative Coat points taken, Mini Howitzer shots fired */
    int fc_locks[5], fc_count;      /* registers (0-4) Fire Control locked, in lock order */
    int pair[5], pair_with[5];      /* per register: a pair's rotate card (-1 none), its option */
    int use[5];                     /* per register: the movement option planned (-1 none,
                                       NO_PLAN: no plan) */
    int flywheel;                   /* the program card kept on the Flywheel, -1 none */
    int stabilized;                 /* Gyroscopic Stabilizer this round */
    int shield_sides;               /* Power-Down Shield: the sides used in this register */
    int fresh;                      /* Superior Archive Copy: re-enters with 0 damage */
    int locks;                      /* registers locked by damage, judged at the deal */
} Options;

static int has(const Options *o, int card)
{
    for (int i = 0; i < o->count; i++)
        if (o->held[i] == card)
            return 1;
    return 0;
}

static int fc_locked(const Options *o, int i)
{
    for (int k = 0; k < o->fc_count; k++)
        if (o->fc_locks[k] == i)
            return 1;
    return 0;
}

/* option_play.py locked: register i (0-4) locked this round, by damage or Fire Control. */
static int register_locked(const Options *o, int i)
{
    return i >= 5 - o->locks || fc_locked(o, i);
}

/* Its pairs go (at destruction, at a power down: state.py RobotOptions.pairs). */
static void drop_pairs(Options *o)
{
    for (int r = 0; r < 5; r++)
        o->pair[r] = o->pair_with[r] = -1;
}

static void clear_options(Options *o)
{
    memset(o, 0, sizeof *o);
    o->flywheel = -1;
    drop_pairs(o);
    for (int r = 0; r < 5; r++)
        o->use[r] = -1;
}

#endif
