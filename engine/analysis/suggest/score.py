"""How far a course is from its goals, measured on a set of races, and the
paired difference between two versions raced on the same seeds.

Each goal gives a shortfall, 0 when met, and the search minimises their sum:

- fair: the spread (root mean square) of the docks' win rates around their
  mean, as a share of the fair rate 1/k (the gap between the best and worst
  dock is reported next to it: the spread is steadier on few races); with
  several player counts, each count's races apart and the mean over them;
- length or rounds: how far the median race length is outside the wanted
  range, as a share of its nearest end (a length class's range comes from
  the course card's time model, engine/analysis/course_card/timemodel.py; a
  number of rounds is met within half a round);
- deaths: how far the deadliest leg's deaths per robot are above the bound,
  as a share of the bound.

Side effects (``side_effects``): a version that makes the course deadlier
or longer when no goal asks about deaths or length pays for it in the
ranking.

Intervals are 95% paired bootstrap intervals: the same resampled races on
both versions, from a generator seeded by the run's seed, so they are the
same on every run.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rallyforge.engine.analysis.balance.plan import GAME, ROTATE
from rallyforge.engine.analysis.course_card import timemodel
from rallyforge.engine.analysis.course_card.flags import flag_path
from rallyforge.engine.analysis.suggest.types import Effect, Measures
from rallyforge.engine.model.scenario import Goals, Scenario

BOOTSTRAP = 200
SIDE_WEIGHT = 0.1           # of a side effect, against the goals' shortfall
SIDE_TOLERANCE = 0.1        # a side effect counts beyond this share of the old measure
SIDE_MOST = 1.0             # and up to this share: it orders similar fixes, it never
                            # hides a fix of the goals much better than the others


@dataclass(frozen=True)
class Record:
    """What the search keeps of one race."""
    docks: tuple[int, ...]
    winner_docks: tuple[int, ...]
    rounds: int
    on_leg: tuple[int, ...]             # per leg: robots that set out on it
    deaths: tuple[tuple[int, int, int], ...]    # (x, y, leg) of each death

    @property
    def decided(self) -> bool:
        return bool(self.winner_docks)


@dataclass(frozen=True)
class Target:
    """The goals made numbers, for races of `robots` robots (or of each count
    of `players` in turn; `robots` is the most) on a course of `docks` docks,
    seated by `seating` (engine/analysis/balance/plan.py)."""
    goals: Goals
    robots: int
    docks: int
    players: tuple[int, ...] = ()
    seating: str = GAME
    # the flag path of the course judged (engine/analysis/course_card/flags.py): a
    # length goal's rounds depend on it, so a version that moves a flag or a
    # dock is judged with its own (``on``)
    path: float = 0.0

    def on(self, scenario: Scenario) -> Target:
        """The target for races on `scenario` (a version of the course): its flag path."""
        return replace(self, path=flag_path(scenario, self.robots))

    @property
    def counts(self) -> tuple[int, ...]:
        return self.players or (self.robots,)

    @property
    def seats(self) -> int:
        """The docks the races use: 1..robots as the game seats them, or all."""
        return self.docks if self.seating == ROTATE else self.robots

    def rounds_range(self) -> tuple[float, float] | None:
        return timemodel.wanted_rounds(self.goals, self.robots, self.path)


def measures(records: Sequence[Record], target: Target) -> Measures:
    """The goal measures of a set of races: gap and spread of the docks' win
    rates (each player count's races apart, then the mean over the counts,
    so every count weighs alike; ``unevenness`` is the spread as a share of
    the fair rate 1/k), median rounds, worst leg's deaths per robot; and the
    total shortfall."""
    legs = max((len(r.on_leg) for r in records), default=0)
    on_leg = [0] * legs
    leg_deaths = [0] * legs
    by_count: dict[int, list[Record]] = {}
    for r in records:
        by_count.setdefault(len(r.docks), []).append(r)
        for j, n in enumerate(r.on_leg):
            on_leg[j] += n
        for _, _, leg in r.deaths:
            if 1 <= leg <= legs:
                leg_deaths[leg - 1] += 1
    gaps, spreads, uneven = [], [], []
    for count, races in sorted(by_count.items()):
        gap, spread = _gap_and_spread(races, target.docks)
        gaps.append(gap)
        spreads.append(spread)
        uneven.append(spread * count)
    rounds = sorted(r.rounds for r in records)
    median = _median(rounds)
    worst = max((leg_deaths[j] / on_leg[j] for j in range(legs) if on_leg[j]), default=0.0)
    m = {"gap": _mean(gaps), "spread": _mean(spreads), "unevenness": _mean(uneven),
         "median_rounds": median, "worst_leg_deaths": worst}
    m["shortfall"] = shortfall(m, target)
    return m


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _gap_and_spread(records: Sequence[Record], docks: int) -> tuple[float, float]:
    """The gap between the best and worst dock's win rates over `records`,
    and their spread (root mean square around the mean)."""
    used = [0] * (docks + 1)
    wins = [0] * (docks + 1)
    for r in records:
        for d in r.docks:
            used[d] += 1
        for d in r.winner_docks:
            wins[d] += 1
    rates = [wins[d] / used[d] for d in range(1, docks + 1) if used[d]]
    if not rates:
        return 0.0, 0.0
    mean = sum(rates) / len(rates)
    return max(rates) - min(rates), math.sqrt(sum((x - mean) ** 2 for x in rates) / len(rates))


def _median(values: list[int]) -> float:
    if not values:
        return 0.0
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def shortfall(m: dict[str, float], target: Target) -> float:
    goals = target.goals
    total = 0.0
    if goals.fair:
        total += m["unevenness"]
    band = target.rounds_range()
    if band is not None:
        total += rounds_shortfall(m["median_rounds"], band)
    if goals.deaths_per_leg is not None:
        bound = goals.deaths_per_leg
        total += max(0.0, m["worst_leg_deaths"] - bound) / max(bound, 0.05)
    return total


def rounds_shortfall(rounds: float, band: tuple[float, float]) -> float:
    """How far `rounds` lie outside the goal's `band`, as a share of its
    nearer end (at least one round: a short class may end at 0 rounds on a
    course of a long flag path)."""
    low, high = band
    return max(0.0, low - rounds) / max(low, 1.0) + max(0.0, rounds - high) / max(high, 1.0)


def side_effects(old: dict[str, float], new: dict[str, float], target: Target) -> float:
    """What a version costs in the measures no goal asks to change: the
    deadliest leg's deaths and the median race length, each as the share by
    which it grew beyond SIDE_TOLERANCE (at most SIDE_MOST), so that of two
    similar fixes the one that makes the course clearly deadlier or longer
    ranks below."""
    grew = []
    if target.goals.deaths_per_leg is None:
        grew.append((old["worst_leg_deaths"], new["worst_leg_deaths"], 0.05))
    if target.rounds_range() is None:
        grew.append((old["median_rounds"], new["median_rounds"], 1.0))
    return SIDE_WEIGHT * sum(min(SIDE_MOST, max(0.0, (b - a) / max(a, floor) - SIDE_TOLERANCE))
                             for a, b, floor in grew)


def paired_change(old: Sequence[Record], new: Sequence[Record], target: Target,
                  seed: int, new_target: Target | None = None) -> Effect:
    """Each measure's change from `old` to `new` (races matched by place):
    {measure: {old, new, change, ci}} with a 95% paired bootstrap interval.
    `new_target`: the target of the version `new` raced (default `target`)."""
    n = min(len(old), len(new))
    old, new = list(old[:n]), list(new[:n])
    new_target = new_target or target
    m_old, m_new = measures(old, target), measures(new, new_target)
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {k: [] for k in m_old}
    for _ in range(BOOTSTRAP if n else 0):
        pick = [rng.randrange(n) for _ in range(n)]
        a = measures([old[i] for i in pick], target)
        b = measures([new[i] for i in pick], new_target)
        for k in draws:
            draws[k].append(b[k] - a[k])
    out: Effect = {}
    for k in m_old:
        ds = sorted(draws[k])
        ci = [ds[int(0.025 * len(ds))], ds[min(len(ds) - 1, int(0.975 * len(ds)))]] if ds \
            else [0.0, 0.0]
        out[k] = {"old": round(m_old[k], 6), "new": round(m_new[k], 6),
                  "change": round(m_new[k] - m_old[k], 6), "ci": [round(c, 6) for c in ci]}
    return out
