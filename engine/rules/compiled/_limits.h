/* The compiled part's limits, in one place (the compiled race and the
 * search bot's loop, engine/bots/_play.c, include it): race_course and race
 * refuse what goes beyond them, the race's module exports them (MOST_ROBOTS,
 * MOST_FLAGS, MOST_SIDE) and engine/rules/compiled/race.py reads them from
 * there to leave bigger races to the Python engine, which has no such limits. */
#ifndef RALLYFORGE_LIMITS_H
#define RALLYFORGE_LIMITS_H

#define MOST_ROBOTS 64          /* robots in one race */
#define MOST_FLAGS 64           /* flags of a course */
#define MOST_SIDE 4096          /* squares of a board's side */
#define DECK_SIZE 84            /* program cards (engine/model/program_cards.py DECK) */
#define MOST_PROGRAMS 16807     /* a hand's distinct programs: 7 kinds ** 5 registers */
#define MOST_CARDS 64           /* cards in a hand the search bot's decide() is given */
#define MOST_RULE 1000000       /* the largest value of any scalar rule (max_rounds) */
#define AIMED_SQUARES 100000    /* the bots aimed at robots one race keeps (elimination): their
                                   courses' squares in all, 16 bots at least (as bots/tables.py
                                   keeps its tables) */

#endif
