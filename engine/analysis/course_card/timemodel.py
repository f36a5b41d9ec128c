"""Table time: how long a race of the simulated length takes at a real table.

    minutes = SETUP + rounds * (PROGRAMMING + REGISTERS * SECONDS_PER_MOVE / 60 * players)

The constants are Rally Forge's own estimate, not a measurement: a round
starts with dealing, reading the hand and programming (about 2 minutes at a
table of regular players, the 30-second timer running on the last one),
then five registers in which every robot's card is revealed and resolved
with the board elements and lasers that follow (about 9 seconds per robot
per register); setting up and explaining the course takes 5 minutes. At 4
players a round is 5 minutes, at 8 players 8. Simulated bots waste fewer
rounds than people do, so read the time as what a race takes when nobody
blunders: a lower estimate.

The length classes are bands of these minutes that depend on how far the
course sends a robot (its flag path, engine/analysis/course_card/flags.py), fitted
to the lengths the game's publisher printed (engine/analysis/course_card/calibration.py):
people take longer than bots, and a course of long walks between its flags
reads longer to them than its minutes alone say.
"""
from __future__ import annotations

from rallyforge.engine.analysis.course_card.calibration import band, minute_bands
from rallyforge.engine.model.scenario import Goals

SETUP = 5.0                 # minutes: set-up and explaining the course
PROGRAMMING = 2.0           # minutes per round: deal, read, program
SECONDS_PER_MOVE = 9.0      # per robot per register: reveal, move, board, lasers
REGISTERS = 5

CLASSES = ("short", "medium", "long")


def minutes_per_round(players: int) -> float:
    return PROGRAMMING + REGISTERS * SECONDS_PER_MOVE / 60.0 * players


def table_minutes(rounds: float, players: int) -> float:
    return SETUP + rounds * minutes_per_round(players)


def length_class(minutes: float, path: float) -> str:
    """The class of a race of these table minutes on a course of this flag path."""
    return CLASSES[band(minutes, minute_bands(path))]


def class_rounds(name: str, players: int, path: float) -> tuple[float, float]:
    """The median rounds (low, high) a race of `players` robots lasts in
    length class `name` on a course of this flag path: the rounds whose
    table time is in the class."""
    per_round = minutes_per_round(players)
    edges = (0.0, *minute_bands(path), float("inf"))
    low, high = edges[CLASSES.index(name)], edges[CLASSES.index(name) + 1]
    return max(0.0, (low - SETUP) / per_round), max(0.0, (high - SETUP) / per_round)


def rounds_band(rounds: int) -> tuple[float, float]:
    """The median rounds (low, high) that meet a goal of `rounds` rounds: within half a round."""
    return rounds - 0.5, rounds + 0.5


def wanted_rounds(goals: Goals, players: int, path: float) -> tuple[float, float] | None:
    """The median rounds (low, high) `goals` ask of a race of `players`
    robots on a course of this flag path: a number of rounds within half a
    round, or a length class's rounds; None when they ask no length."""
    if goals.rounds is not None:
        return rounds_band(goals.rounds)
    if goals.length is not None:
        return class_rounds(goals.length, players, path)
    return None
