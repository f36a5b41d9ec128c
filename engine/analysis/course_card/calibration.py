"""The course card's classes: scores of the card's measures, with edges
fitted to the lengths and difficulties the game's publisher printed for its
29 rated courses (bench/calibrate.py; docs/rules.md, "Calibration").

    length score     = a * ln(minutes at a table) + b * ln(flag path)
    difficulty score = c * ln(deaths per robot per leg) + d * special rules + e * flag score

A class is how many of its edges the score passes. For one course the path,
special rules and flag score are fixed, so each class is a band of minutes
(``minute_bands``) or of deaths (``death_bands``): the card reads its
intervals against those bands.
"""
from __future__ import annotations

import math

# fitted by bench/calibrate.py on bench/calibration-measures.json
LENGTH_WEIGHTS = (0.9352, 7.6687)                   # ln minutes, ln flag path
LENGTH_EDGES = (30.9512, 33.9285)                   # short | medium | long
DIFFICULTY_WEIGHTS = (3.8739, 6.4919, 0.6670)       # ln deaths, special rules, flag score
DIFFICULTY_EDGES = (-3.2296, -1.2867, 0.9993)       # easy | medium | hard | expert

# the logs' floors: a course without flags has no path, one without deaths no rate
PATH_FLOOR = 1.0            # squares
DEATHS_FLOOR = 0.01         # deaths per robot per leg


def minute_bands(path: float) -> tuple[float, float]:
    """The table minutes where a course of this flag path turns medium and long."""
    a, b = LENGTH_WEIGHTS
    rest = b * math.log(max(path, PATH_FLOOR))
    medium, long_ = ((edge - rest) / a for edge in LENGTH_EDGES)
    return _exp(medium), _exp(long_)


def death_bands(special_rules: int, flag_score: float | None) -> tuple[float, float, float]:
    """The deaths per robot per leg where a course with these special rules and
    flag score turns medium, hard and expert (a course without flags scores 0)."""
    c, d, e = DIFFICULTY_WEIGHTS
    rest = d * special_rules + e * (flag_score or 0.0)
    medium, hard, expert = ((edge - rest) / c for edge in DIFFICULTY_EDGES)
    return _exp(medium), _exp(hard), _exp(expert)


def _exp(power: float) -> float:
    """e to the `power`, held within floating point (a kept card's numbers may be anything)."""
    return math.exp(max(-700.0, min(700.0, power)))


def band(value: float, bounds: tuple[float, ...]) -> int:
    """How many of the increasing `bounds` `value` reaches."""
    return next((i for i, b in enumerate(bounds) if value < b), len(bounds))
