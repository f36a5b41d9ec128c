"""Why robots die, in the designer's words: each death's cause chain ("carried
off the board by the belt from (9, 3)"), counted per square, and re-entry
loops (an archive point where re-entering robots soon die again).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from rallyforge.engine.analysis import stats
from rallyforge.engine.analysis.balance.summary import Death, RaceSummary
from rallyforge.engine.analysis.balance.types import SquareChains
from rallyforge.engine.analysis.course_card.types import ReentryLoop

# A re-entry loop: robots re-entering at an archive point die again within
# one round in at least this share of their re-entries (the share's 95%
# interval wholly above it) ...
LOOP_SHARE = 0.25
# ... over at least this many re-entries there.
LOOP_REENTRIES = 10
# Chains kept per square (most frequent first).
CHAINS_PER_SQUARE = 3

# an express belt moves robots in the express step and again with the others
_CARRIERS = {"conveyor": "the belt", "express": "the belt", "current": "the current"}
# a robot moved by another's weapon (option cards): the agent is the weapon
_WEAPONS = {"tractor beam": "pulled", "pressor beam": "pushed", "mini howitzer": "pushed"}
_DAMAGE = {"fall": "fell from the plateau and was wrecked by the fall",
           "ramming gear": "rammed to destruction by another robot",
           "recompile": "wrecked by its own recompile",
           "robot laser": "shot by other robots' lasers or weapons"}


def _at(square: tuple[int, int] | None) -> str:
    return "" if square is None else f" at {square}"


def _from(square: tuple[int, int] | None) -> str:
    return "" if square is None else f" from {square}"


def chain(death: Death) -> str:
    """What happened to the robot, from what sent it to where it died."""
    where = (death.x, death.y)
    agent, origin = death.agent, death.origin
    if death.cause in ("pit", "drain", "off board"):
        into = "off the board" if death.cause == "off board" else f"into the {death.cause} at {where}"
        if agent in _CARRIERS:
            return f"carried {into} by {_CARRIERS[agent]}{_from(origin)}"
        if agent == "push":
            return f"pushed {into} by another robot"
        if agent in _WEAPONS:
            return f"{_WEAPONS[agent]} {into} by another robot's {agent}"
        if agent == "pusher":
            return f"pushed {into} by the pusher{_at(origin)}"
        if agent == "card":
            return f"drove {into} by its own card{_from(origin)}"
        if agent == "teleport":
            return f"teleported {into}{_from(origin)}"
        return f"fell {into}"
    if death.cause == "fall":
        return f"fell from the plateau{_at(origin)} onto robots, with no free square to land on"
    if death.cause == "crusher":
        return f"crushed by the crusher at {where}"
    if agent == "laser":
        return f"shot by the laser{_at(origin)}"
    return _DAMAGE.get(agent or "", "destroyed by damage taken earlier")


class Chains:
    """Per square where robots died, the chains that led there, counted race
    by race (``add``, in plan order); ``result``: {x, y, why: [{chain,
    per_100_races}]} row by row, the commonest chains first (at most
    CHAINS_PER_SQUARE)."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.races = 0
        self.counts: dict[tuple[int, int], Counter[str]] = defaultdict(Counter)

    def add(self, races: Iterable[RaceSummary]) -> None:
        for r in races:
            self.races += 1
            for death in r.deaths:
                if 0 <= death.x < self.width and 0 <= death.y < self.height:
                    self.counts[(death.x, death.y)][chain(death)] += 1

    def result(self) -> list[SquareChains]:
        scale = 100.0 / self.races if self.races else 0.0
        return [{"x": x, "y": y,
                 "why": [{"chain": text, "per_100_races": round(count * scale, 3)}
                         for text, count in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
                         [:CHAINS_PER_SQUARE]]}
                for (x, y), c in sorted(self.counts.items(), key=lambda kv: (kv[0][1], kv[0][0]))]


class Reentries:
    """Archive points where re-entering robots die again within one round (in
    the round after the one they died in), counted race by race (``add``, in
    plan order). ``result``: those where they do in a sizeable share of
    their re-entries: {x, y, reentries, deaths, share, ci (Wilson 95%),
    chain (the commonest way they die again)}, the largest share first. A
    robot destroyed in round r re-enters at the end of round r at its
    archive point (or the nearest free square around it)."""

    def __init__(self) -> None:
        self.reentries: Counter[tuple[int, int]] = Counter()
        self.again: dict[tuple[int, int], Counter[str]] = defaultdict(Counter)

    def add(self, races: Iterable[RaceSummary]) -> None:
        for r in races:
            by_robot: dict[int, list[Death]] = defaultdict(list)
            for death in r.deaths:
                by_robot[death.robot].append(death)
            for deaths in by_robot.values():
                for first, then in zip(deaths, [*deaths[1:], None]):
                    if first.archive is None or first.round >= r.rounds:
                        continue            # out of the race, or the race ended first
                    self.reentries[first.archive] += 1
                    if then is not None and then.round <= first.round + 1:
                        self.again[first.archive][chain(then)] += 1

    def result(self) -> list[ReentryLoop]:
        loops: list[ReentryLoop] = []
        for point, n in self.reentries.items():
            again = self.again.get(point, Counter())
            quick = sum(again.values())
            lo, hi = stats.wilson(quick, n)
            if n >= LOOP_REENTRIES and lo > LOOP_SHARE:
                loops.append({"x": point[0], "y": point[1], "reentries": n, "deaths": quick,
                              "share": round(quick / n, 3), "ci": [round(lo, 3), round(hi, 3)],
                              "chain": again.most_common(1)[0][0]})
        return sorted(loops, key=lambda loop: (-loop["share"], loop["y"], loop["x"]))
