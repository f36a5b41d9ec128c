"""The result of a balance run, from the race summaries in plan order.

Everything is summed as integers (or exact fractions of wins) in plan order,
and floats are made only at the end, so the result is the same to the last
digit for any worker count and backend. Its keys and their types: types.py.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from rallyforge.engine.analysis import stats
from rallyforge.engine.analysis.balance.course_card import card
from rallyforge.engine.analysis.balance.teams import team_verdict
from rallyforge.engine.analysis.balance.summary import COUNT, RaceSummary, TrialSummary
from rallyforge.engine.analysis.balance.plan import GAME, ROTATE
from rallyforge.engine.analysis.balance.types import (Apart, BalanceResult, Completion, Dock,
                                                      DockFairness, Grid, Heatmaps, Holders, Leg,
                                                      Measured, Options, PlayerCount, RaceLength,
                                                      TimeTrial)
from rallyforge.engine.analysis.balance.why import chains, reentry_loops
from rallyforge.engine.analysis.balance.summary import Raced
from rallyforge.engine.model.element_kinds import DEATH_CAUSES
from rallyforge.engine.model.scenario import Scenario

FAIR_MARGIN = 0.05
ALPHA = 0.05
# Won races the fairness verdict waits for, per dock: the chi-square test
# asks about 5 expected wins in each cell.
WINS_PER_DOCK = 5


def _r(value: float | None, digits: int = 6) -> float | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return round(float(value), digits)


def _ratio(value: float) -> float:
    """A finite figure (a ratio of counts), rounded as ``_r`` rounds."""
    return round(float(value), 6)


def _ci(interval: tuple[float | None, float | None]) -> list[float | None]:
    return [_r(interval[0]), _r(interval[1])]


def _wilson(successes: int, n: int) -> list[float]:
    """The Wilson 95% interval (its ends always exist)."""
    return [_ratio(end) for end in stats.wilson(successes, n)]


def aggregate(scenario: Scenario, races: list[RaceSummary], trials: list[TrialSummary], *,
              robots: int | tuple[int, ...], bot: str, seed: int, engine: str,
              seating: str = GAME, planned: int | None = None, elapsed_s: float = 0.0,
              cancelled: bool = False) -> BalanceResult:
    """The balance result as a JSON-ready dict (types.BalanceResult): the
    length's median_between is read between whole rounds
    (stats.km_quantile_interpolated), so that it and its interval show the
    spread; heatmaps' chains say why robots die on each square
    (``why.chains``); reentry_loops are archive points where re-entering
    robots soon die again (``why.reentry_loops``); card is the course card
    (engine/analysis/balance/course_card.py). `robots` is the robots a race, or the
    counts a run took in turn: then ``by_players`` judges the seats of each
    count apart, and ``docks`` and ``fairness`` pool them (the plan gives
    every count the same races, so each weighs alike). The docks shown are
    the seats 1..k of the game's seating (`seating` "game"), or every dock
    of a rotation (plan.py)."""
    board = scenario.board
    width, height = board.width, board.height
    dock_count = len(scenario.docks)
    n = len(races)

    decided = sum(1 for r in races if r.decided)
    completion: Completion = {"rate": _ratio(decided / n if n else 0.0),
                              "ci": _wilson(decided, n),
                  "decided": decided}

    rounds, decided_races = [r.rounds for r in races], [r.decided for r in races]
    q1, med, q3 = stats.km_quantiles(rounds, decided_races)
    histogram = Counter(r.rounds for r in races if r.decided)
    curve = stats.kaplan_meier(rounds, decided_races)
    between = stats.km_quantile_interpolated(curve, 0.5)
    length: RaceLength = {"median": med, "median_ci": list(stats.km_median_interval(rounds, decided_races)),
              "q1": q1, "q3": q3,
              "histogram": [[rnd, histogram[rnd]] for rnd in sorted(histogram)],
              "undecided": n - decided,
              "median_between": _r(between, 3),
              "median_between_ci": _ci(stats.km_median_interval(
                  rounds, decided_races, quantile=stats.km_quantile_interpolated))}

    players = (robots,) if isinstance(robots, int) else tuple(robots)
    shown = range(1, (dock_count if seating == ROTATE else max(players)) + 1)
    docks, fair = seat_judgement(races, shown)
    by_players: list[PlayerCount] = []
    if len(players) > 1:
        for count in players:
            some = [r for r in races if len(r.docks) == count]
            seat_docks, seat_fair = seat_judgement(some, shown if seating == ROTATE
                                                   else range(1, count + 1))
            by_players.append({"robots": count, "races": len(some), "docks": seat_docks,
                               "fairness": seat_fair})

    result: Measured = {
        "scenario": scenario.name,
        "races": n,
        "planned": planned if planned is not None else n,
        "robots": max(players),
        "players": list(players),
        "seating": seating,
        "bot": bot,
        "engine": engine,
        "seed": seed,
        "cancelled": cancelled,
        "completion": completion,
        "length": length,
        "docks": docks,
        "fairness": fair,
        "by_players": by_players,
        "time_trial": time_trial(trials, dock_count),
        "legs": legs(races, len(scenario.flags)),
        "heatmaps": heatmaps(races, width, height),
        "reentry_loops": reentry_loops(races),
        "options": options(scenario, races),
        "elapsed_s": round(elapsed_s, 3),
    }
    by_team = team_verdict(scenario, races)
    if by_team is not None:
        result["teams"] = by_team
    return {**result, "card": card(scenario, result)}


def options(scenario: Scenario, races: list[RaceSummary]) -> Options:
    """Option cards in the run: mode ("played" or "counted"); per upgrade
    square the cards it gave (gains, per race); robots that held at least one
    card against those that held none: robot-races, wins, win rate, Wilson
    95% interval; uses per card, most used first. With counted options only
    the mode is known (the cards are not played)."""
    mode = scenario.rules.options
    out: Options = {"mode": mode}
    if mode != "played":
        return out
    n = len(races)
    gains = Counter(sq for r in races for sq in r.upgrades)
    squares = sorted((t.x, t.y) for t in scenario.board.tiles if t.type == "upgrade")
    out["upgrades"] = [{"x": x, "y": y, "gains": gains[(x, y)],
                        "per_race": _ratio(gains[(x, y)] / n if n else 0.0)} for x, y in squares]
    groups = {True: [0, 0], False: [0, 0]}         # held: [robot-races, wins]
    for r in races:
        for i, held in enumerate(r.held_option or (False,) * len(r.docks)):
            groups[held][0] += 1
            groups[held][1] += i in r.winners
    out["holders"], out["non_holders"] = (_holders(*groups[held]) for held in (True, False))
    used: Counter[str] = Counter()
    for r in races:
        used.update(dict(r.options_used))
    out["used"] = [[card, count] for card, count in sorted(used.items(),
                                                          key=lambda kv: (-kv[1], kv[0]))]
    return out


def _holders(total: int, won: int) -> Holders:
    return {"robots": total, "wins": won, "win_rate": _ratio(won / total if total else 0.0),
            "ci": _wilson(won, total)}


def _exact_sums(parts: Counter[tuple[int, int]], dock_count: int) -> list[Fraction]:
    """Per dock 0..dock_count, the sum of count/share over its (share, count) parts."""
    sums = [Fraction(0)] * (dock_count + 1)
    for (d, share), count in parts.items():
        sums[d] += Fraction(count, share)
    return sums


def seat_judgement(races: Sequence[Raced], shown: range) -> tuple[list[Dock], DockFairness]:
    """The docks `shown` (1-based numbers) with their wins over `races` (the
    balance run's summaries, or the records of ``suggest``), and
    the fairness verdict on them. A dock's fair share is its expected wins
    (1/robots of each decided race it raced) over its decided races: 1/k
    when every race has k robots, a mean of them when the counts differ."""
    top = max([*shown, *(d for r in races for d in r.docks)], default=0)
    used = [0] * (top + 1)
    used_decided = [0] * (top + 1)
    wins = [0] * (top + 1)
    # A dock's expected wins and its wins with ties split, summed exactly:
    # counted by (dock, robots or winners), each count made a Fraction once.
    expected_parts: Counter[tuple[int, int]] = Counter()
    share_parts: Counter[tuple[int, int]] = Counter()
    decided = 0
    for r in races:
        decided += r.decided
        for d in r.docks:
            used[d] += 1
            if r.decided:
                used_decided[d] += 1
                expected_parts[d, len(r.docks)] += 1
        for d in r.winner_docks:
            wins[d] += 1
            share_parts[d, len(r.winner_docks)] += 1
    expected = _exact_sums(expected_parts, top)
    share_wins = _exact_sums(share_parts, top)
    counts = {len(r.docks) for r in races}
    typical = 1.0 / max(counts) if counts else 0.0
    docks: list[Dock] = []
    for d in shown:
        docks.append({
            "dock": d, "races": used[d], "wins": wins[d],
            "win_rate": _ratio(wins[d] / used[d] if used[d] else 0.0),
            "ci": _wilson(wins[d], used[d]),
            "decided": used_decided[d],
            "share": _ratio(wins[d] / used_decided[d] if used_decided[d] else 0.0),
            "share_ci": _wilson(wins[d], used_decided[d]),
            "fair_share": _ratio(float(expected[d] / used_decided[d])) if used_decided[d]
            else typical,
        })
    n = len(races)
    return docks, fairness(docks, [float(share_wins[d]) for d in shown],
                           [float(expected[d]) for d in shown], n, decided / n if n else 0.0)


def fairness(docks: list[Dock], observed: list[float], expected: list[float],
             races: int, completion: float) -> DockFairness:
    """Chi-square of (tie-split) wins against equal chances among the robots
    of each decided race; balance = 1 - the largest gap between two docks'
    win rates. Verdict: "inconclusive" until WINS_PER_DOCK won races per
    dock (``wins_needed``), then "unfair" when p < 0.05; "fair" when every
    dock's interval (share of decided races) lies inside its fair share +- 5
    points; else "inconclusive". ``more_races_needed`` estimates the races
    that would settle an inconclusive verdict (None when no number of races
    would, or none is won to tell). ``apart`` is the dock furthest from its
    fair share (above or below); ``named`` is that dock when the course is
    unfair and its interval leaves out the fair share, None otherwise (an
    unfair course whose docks differ with none alone)."""
    stat, df, p = stats.chi_square_gof(observed, expected)
    rates = [d["win_rate"] for d in docks if d["races"]]
    balance = 1.0 - (max(rates) - min(rates)) if rates else 1.0
    active = [d for d in docks if d["decided"]]
    wins_needed = WINS_PER_DOCK * len(docks)
    won = round(completion * races)
    more: int | None
    if won < wins_needed:
        verdict = "inconclusive"
        more = max(1, math.ceil(wins_needed / completion - races)) if completion > 0 else None
    elif df >= 1 and p < ALPHA:
        verdict, more = "unfair", 0
    elif active and len(active) == len(docks) and all(
            d["fair_share"] - FAIR_MARGIN <= d["share_ci"][0]
            and d["share_ci"][1] <= d["fair_share"] + FAIR_MARGIN for d in active):
        verdict, more = "fair", 0
    else:
        verdict = "inconclusive"
        more = None
        shares = [d["share"] for d in active]
        per_dock = (stats.dock_races_needed(shares, 1, FAIR_MARGIN, ALPHA,
                                            fairs=[d["fair_share"] for d in active])
                    if len(shares) >= 2 else None)
        fewest = min((d["decided"] for d in active), default=0)
        if per_dock is not None and fewest:
            more = max(1, math.ceil(per_dock * races / fewest - races))
    apart = furthest(active)
    named = apart["dock"] if apart and verdict == "unfair" and outside(apart) else None
    return {"verdict": verdict, "chi2": _r(stat), "df": df, "chi2_p": _r(p, 8),
            "balance": _ratio(balance), "more_races_needed": more, "wins_needed": wins_needed,
            "won": won, "apart": apart, "named": named}


def furthest(docks: list[Dock]) -> Apart | None:
    """The dock whose share of decided races is furthest from its fair
    share (the lowest number of equals), None without one."""
    if not docks:
        return None
    d = max(docks, key=lambda d: (abs(d["share"] - d["fair_share"]), -d["dock"]))
    return {"dock": d["dock"], "share": d["share"], "share_ci": d["share_ci"],
            "fair_share": d["fair_share"]}


def outside(seat: Apart | Dock) -> bool:
    """Whether a dock's interval (share of decided races) leaves out its fair share."""
    lo, hi = seat["share_ci"]
    return lo > seat["fair_share"] or hi < seat["fair_share"]


def time_trial(trials: list[TrialSummary], dock_count: int) -> list[TimeTrial]:
    by_dock: dict[int, list[TrialSummary]] = {d: [] for d in range(1, dock_count + 1)}
    for t in trials:
        by_dock.setdefault(t.dock, []).append(t)
    out: list[TimeTrial] = []
    for d in sorted(by_dock):
        ts = by_dock[d]
        (median,) = stats.km_quantiles([t.finish_round if t.finish_round is not None else t.rounds
                                        for t in ts],
                                       [t.finish_round is not None for t in ts], (0.5,))
        out.append({"dock": d, "trials": len(ts),
                    "finished": sum(1 for t in ts if t.finish_round is not None),
                    "median_rounds": median})
    return out


def legs(races: list[RaceSummary], flag_count: int) -> list[Leg]:
    """Per flag j: rounds from touching flag j-1 (the start for flag 1) to
    touching flag j, Kaplan-Meier median with robots still on the leg at the
    race's end censored; deaths per robot that set out on the leg."""
    out: list[Leg] = []
    for j in range(1, flag_count + 1):
        times, events = [], []
        deaths = 0
        for r in races:
            for robot, reached in enumerate(r.flag_rounds):
                if j > 1 and len(reached) < j - 1:
                    continue
                start = reached[j - 2] if j > 1 else 0
                if len(reached) >= j:
                    times.append(reached[j - 1] - start)
                    events.append(True)
                else:
                    times.append(r.rounds - start)
                    events.append(False)
            deaths += sum(1 for death in r.deaths if death.leg == j)
        (median,) = stats.km_quantiles(times, events, (0.5,))
        out.append({"to_flag": j, "robots": len(times), "median_rounds": median,
                    "deaths": deaths,
                    "death_rate": _ratio(deaths / len(times) if times else 0.0)})
    return out


def heatmaps(races: list[RaceSummary], width: int, height: int) -> Heatmaps:
    size = width * height
    deaths = [0] * size
    by_cause = {cause: [0] * size for cause in DEATH_CAUSES}
    for r in races:
        for death in r.deaths:
            if 0 <= death.x < width and 0 <= death.y < height:
                i = death.y * width + death.x
                deaths[i] += 1
                by_cause.setdefault(death.cause, [0] * size)[i] += 1
    packed = [r.occupancy for r in races if r.occupancy]
    occupancy = (np.frombuffer(b"".join(packed), COUNT).reshape(len(packed), size).sum(axis=0)
                 .tolist() if packed else [0] * size)
    n = len(races)

    def grid(counts: list[int]) -> Grid:
        scale = 100.0 / n if n else 0.0
        return [[round(counts[y * width + x] * scale, 3) for x in range(width)] for y in range(height)]

    return {"width": width, "height": height, "per_races": 100,
            "deaths": grid(deaths),
            "deaths_by_cause": {cause: grid(c) for cause, c in by_cause.items()},
            "occupancy": grid(occupancy),
            "chains": chains(races, width, height)}
