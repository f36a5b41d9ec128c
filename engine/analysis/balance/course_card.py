"""The course card of a balance result (engine/analysis/balance/aggregate.py
makes the result; the card's shape, words and goals are engine/analysis/course_card/).

The classes (docs/rules.md, "The course card"): length from the table
minutes and the flag path, difficulty from the deaths per robot per leg (all
deaths on the way to each flag over the robots that set out on that leg,
pooled over the legs), the special rules and the flag score, on edges fitted
to the ratings the game's publisher printed (course_card/calibration.py).
"""
from __future__ import annotations

import math

from rallyforge.engine.analysis import stats
from rallyforge.engine.analysis.balance.types import DockFairness, Measured
from rallyforge.engine.analysis.course_card import timemodel
from rallyforge.engine.analysis.course_card.build import judged
from rallyforge.engine.analysis.course_card.calibration import band, death_bands
from rallyforge.engine.analysis.course_card.flags import course_score, flag_path, flag_scores
from rallyforge.engine.analysis.course_card.types import (CourseCard, DeadliestLeg, DeadliestSquare,
                                                          Difficulty, Fairness, Length, SeatVerdict)
from rallyforge.engine.format.stored_course_card import play_hash
from rallyforge.engine.model.scenario import Scenario, course_rules

DIFFICULTY = ("easy", "medium", "hard", "expert")


def _r(x: float | None, digits: int = 3) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, digits)


def card(scenario: Scenario, result: Measured, *, estimate: bool = False) -> CourseCard:
    """The card of `scenario` from its balance `result` (its keys: types.py).
    ``estimate``: a quick run, shown until a full one replaces it; the flag
    scores are exact counts (no interval); ``goals``: how it meets the
    course's goals (``judged``)."""
    k = result["robots"]
    n = result["races"]
    scores = flag_scores(scenario)
    mean_score = course_score(scores)
    made: CourseCard = {
        "course": scenario.name,
        "play_hash": play_hash(scenario),
        "robots": k,
        "races": n,
        "bot": result["bot"],
        "seed": result["seed"],
        "estimate": estimate,
        "players": result.get("players", [k]),
        "seating": result.get("seating", "game"),
        "length": _length(result, k, flag_path(scenario, k)),
        "difficulty": _difficulty(result, mean_score, course_rules(scenario.rules)),
        "fairness": _fairness(result, k),
        "deadliest_leg": _deadliest_leg(result),
        "deadliest_square": _deadliest_square(result),
        "reentry_loops": result["reentry_loops"],
        "flags": [s.as_dict() for s in scores],
        "flag_score": _r(mean_score, 2),
    }
    if scenario.rules.programming_seconds is not None:
        made["programming_seconds"] = scenario.rules.programming_seconds
    by_team = result.get("teams")
    if by_team is not None:
        made["teams"] = {"leader": by_team["leader"], "margin": by_team["margin"],
                         "margin_ci": by_team["margin_ci"],
                         "shares": [{"name": t["name"], "share": t["share"], "ci": t["ci"]}
                                    for t in by_team["teams"]],
                         "first_side": by_team["first_side"]["share"],
                         "first_side_ci": by_team["first_side"]["ci"],
                         "even": by_team["even"], "edge": by_team["edge"]}
    return judged(made, scenario.goals, scenario.published)


def _length(result: Measured, k: int, path: float) -> Length:
    length = result["length"]
    rounds = length["median_between"]
    lo, hi = length["median_between_ci"]
    minutes = timemodel.table_minutes(rounds, k) if rounds is not None else None
    m_lo = timemodel.table_minutes(lo, k) if lo is not None else None
    # no upper end: the race may never be decided in time
    m_hi = timemodel.table_minutes(hi, k) if hi is not None else None
    cls = timemodel.length_class(minutes, path) if minutes is not None else "long"
    ends = {timemodel.length_class(m, path) for m in (m_lo, m_hi) if m is not None}
    if m_hi is None:
        ends.add("long")
    n = result["races"]
    return {"class": cls, "could_be": sorted(ends - {cls}, key=timemodel.CLASSES.index),
            "rounds": _r(rounds, 3), "rounds_ci": [_r(lo, 3), _r(hi, 3)],
            "minutes": _r(minutes, 2), "minutes_ci": [_r(m_lo, 2), _r(m_hi, 2)],
            "minutes_per_round": round(timemodel.minutes_per_round(k), 2),
            "undecided": round(length["undecided"] / n if n else 0.0, 3),
            "flag_path": round(path, 1)}


def _difficulty(result: Measured, mean_score: float | None, special: list[str]) -> Difficulty:
    deaths = sum(leg["deaths"] for leg in result["legs"])
    robots = sum(leg["robots"] for leg in result["legs"])
    rate = deaths / robots if robots else 0.0
    lo, hi = stats.poisson_rate_interval(deaths, robots)
    bands = death_bands(len(special), mean_score)
    cls = band(rate, bands)
    inside = range(band(lo, bands), band(hi, bands) + 1)
    return {"class": DIFFICULTY[cls], "could_be": [DIFFICULTY[c] for c in inside if c != cls],
            "deaths_per_robot_leg": round(rate, 3), "ci": [_r(lo), _r(hi)],
            "flag_score": _r(mean_score, 2), "special_rules": special}


def seat_verdict(fair: DockFairness, robots: int) -> SeatVerdict:
    """The verdict on the seats of a run of `robots` robots a race (the most,
    for several counts pooled) from its fairness (balance/aggregate.py
    ``fairness``): the seat it names and the one furthest from fair."""
    apart = fair.get("apart")
    return {"robots": robots, "verdict": fair["verdict"], "balance": fair["balance"],
            "favoured_dock": fair.get("named"),
            "dock": apart["dock"] if apart else None,
            "share": apart["share"] if apart else None,
            "share_ci": [*apart["share_ci"]] if apart else [None, None],
            "fair_share": round(apart["fair_share"] if apart else 1.0 / robots if robots else 0.0,
                                3),
            "more_races_needed": fair["more_races_needed"],
            "won": fair.get("won", 0), "wins_needed": fair["wins_needed"]}


def _fairness(result: Measured, k: int) -> Fairness:
    v = seat_verdict(result["fairness"], k)
    out: Fairness = {"verdict": v["verdict"], "balance": v["balance"],
                     "favoured_dock": v["favoured_dock"], "dock": v["dock"], "share": v["share"],
                     "share_ci": v["share_ci"], "fair_share": v["fair_share"],
                     "more_races_needed": v["more_races_needed"], "won": v["won"],
                     "wins_needed": v["wins_needed"]}
    if result.get("by_players"):
        out["by_players"] = [seat_verdict(count["fairness"], count["robots"])
                             for count in result["by_players"]]
    return out


def _deadliest_leg(result: Measured) -> DeadliestLeg | None:
    legs = [leg for leg in result["legs"] if leg["robots"]]
    if not legs or not any(leg["deaths"] for leg in legs):
        return None
    leg = max(legs, key=lambda leg: leg["deaths"] / leg["robots"])
    lo, hi = stats.poisson_rate_interval(leg["deaths"], leg["robots"])
    return {"to_flag": leg["to_flag"], "deaths": leg["deaths"], "robots": leg["robots"],
            "rate": round(leg["deaths"] / leg["robots"], 3), "ci": [_r(lo), _r(hi)]}


def _deadliest_square(result: Measured) -> DeadliestSquare | None:
    heat = result["heatmaps"]
    n = result["races"]
    best: tuple[float, int, int] | None = None
    for y, row in enumerate(heat["deaths"]):
        for x, value in enumerate(row):
            if value and (best is None or value > best[0]):
                best = (value, x, y)
    if best is None or not n:
        return None
    value, x, y = best
    count = round(value * n / heat["per_races"])
    lo, hi = stats.poisson_rate_interval(count, n / heat["per_races"])
    causes = {c: g[y][x] or 0 for c, g in heat["deaths_by_cause"].items()}
    why = next(sq["why"][0]["chain"] for sq in heat["chains"] if (sq["x"], sq["y"]) == (x, y))
    return {"x": x, "y": y, "per_100_races": round(value, 3), "ci": [_r(lo), _r(hi)],
            "cause": max(causes, key=lambda c: causes[c]), "why": why}
