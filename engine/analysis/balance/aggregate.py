"""The result of a balance run, from the race summaries in plan order.

A ``Tally`` counts the summaries as they come in, chunk by chunk (the
runner's ``fold``), and keeps counts only: a run's memory does not grow with
its races. Everything is summed as integers (or exact fractions of wins) in
plan order, and floats are made only at the end, so the result is the same
to the last digit for any worker count and backend. Its keys and their
types: types.py.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

import numpy as np

from rallyforge.engine.analysis import stats
from rallyforge.engine.analysis.balance.course_card import card
from rallyforge.engine.analysis.balance.teams import TeamTally
from rallyforge.engine.analysis.balance.summary import COUNT, RaceSummary, TrialSummary
from rallyforge.engine.analysis.balance.plan import GAME, ROTATE, Job
from rallyforge.engine.analysis.balance.play import split_results
from rallyforge.engine.analysis.balance.runner import JobResult
from rallyforge.engine.analysis.balance.types import (Apart, BalanceResult, Completion, Dock,
                                                      DockFairness, Grid, Heatmaps, Holders, Leg,
                                                      Measured, Options, PlayerCount, RaceLength,
                                                      TimeTrial)
from rallyforge.engine.analysis.balance.why import Chains, Reentries
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


class Tally:
    """A balance run's race and trial summaries counted as they come in
    (``add``, chunk by chunk in plan order), and the result made from the
    counts (``result``). `robots` is the robots a race, or the counts a run
    took in turn: then ``by_players`` judges the seats of each count apart,
    and ``docks`` and ``fairness`` pool them (the plan gives every count the
    same races, so each weighs alike). The docks shown are the seats 1..k
    of the game's seating (`seating` "game"), or every dock of a rotation
    (plan.py)."""

    def __init__(self, scenario: Scenario, robots: int | tuple[int, ...], seating: str = GAME):
        board = scenario.board
        self.scenario, self.seating = scenario, seating
        self.players = (robots,) if isinstance(robots, int) else tuple(robots)
        self.lengths: Counter[tuple[float, bool]] = Counter()    # (rounds, decided): races
        self.seats = Seats()
        self.by_count = {count: Seats() for count in self.players} if len(self.players) > 1 else {}
        self.trials: dict[int, Counter[tuple[float, bool]]] = {
            d: Counter() for d in range(1, len(scenario.docks) + 1)}
        self.legs = Legs(len(scenario.flags))
        self.heat = Heat(board.width, board.height)
        self.reentries = Reentries()
        self.options = OptionUse(scenario)
        self.teams = TeamTally(scenario)

    def add(self, results: list[tuple[Job, JobResult]]) -> None:
        """A chunk of the runner's (job, summary) pairs, in plan order."""
        races, trials = split_results(results)
        self.add_summaries(races, trials)

    def add_summaries(self, races: list[RaceSummary], trials: Iterable[TrialSummary] = ()) -> None:
        """Race and trial summaries, in plan order."""
        for t in trials:
            self.trials.setdefault(t.dock, Counter())[
                t.finish_round if t.finish_round is not None else t.rounds,
                t.finish_round is not None] += 1
        for r in races:
            self.lengths[r.rounds, r.decided] += 1
            seats = self.by_count.get(len(r.docks))
            if seats is not None:
                seats.add((r,))
        for part in (self.seats, self.legs, self.heat, self.reentries, self.options, self.teams):
            part.add(races)

    def result(self, *, bot: str, seed: int, engine: str, planned: int | None = None,
               elapsed_s: float = 0.0, cancelled: bool = False) -> BalanceResult:
        """The balance result as a JSON-ready dict (types.BalanceResult): the
        length's median_between is read between whole rounds
        (stats.km_quantile_interpolated), so that it and its interval show
        the spread; heatmaps' chains say why robots die on each square
        (why.py ``Chains``); reentry_loops are archive points where
        re-entering robots soon die again (why.py ``Reentries``); card is the
        course card (engine/analysis/balance/course_card.py)."""
        scenario, players, lengths = self.scenario, self.players, self.lengths
        n = sum(lengths.values())
        decided = sum(count for (_, won), count in lengths.items() if won)
        completion: Completion = {"rate": _ratio(decided / n if n else 0.0),
                                  "ci": _wilson(decided, n), "decided": decided}
        q1, med, q3 = stats.km_quantiles(lengths)
        curve = stats.kaplan_meier(lengths)
        histogram = sorted((rounds, count) for (rounds, won), count in lengths.items() if won)
        length: RaceLength = {
            "median": med, "median_ci": list(stats.km_median_interval(lengths)),
            "q1": q1, "q3": q3,
            "histogram": [[int(rounds), count] for rounds, count in histogram],
            "undecided": n - decided,
            "median_between": _r(stats.km_quantile_interpolated(curve, 0.5), 3),
            "median_between_ci": _ci(stats.km_median_interval(
                lengths, quantile=stats.km_quantile_interpolated))}

        shown = range(1, (len(scenario.docks) if self.seating == ROTATE else max(players)) + 1)
        docks, fair = self.seats.judge(shown)
        by_players: list[PlayerCount] = []
        for count, seats in self.by_count.items():
            seat_docks, seat_fair = seats.judge(shown if self.seating == ROTATE
                                                else range(1, count + 1))
            by_players.append({"robots": count, "races": seats.races, "docks": seat_docks,
                               "fairness": seat_fair})

        result: Measured = {
            "scenario": scenario.name,
            "races": n,
            "planned": planned if planned is not None else n,
            "robots": max(players),
            "players": list(players),
            "seating": self.seating,
            "bot": bot,
            "engine": engine,
            "seed": seed,
            "cancelled": cancelled,
            "completion": completion,
            "length": length,
            "docks": docks,
            "fairness": fair,
            "by_players": by_players,
            "time_trial": self.time_trial(),
            "legs": self.legs.result(),
            "heatmaps": self.heat.result(),
            "reentry_loops": self.reentries.result(),
            "options": self.options.result(),
            "elapsed_s": round(elapsed_s, 3),
        }
        by_team = self.teams.result()
        if by_team is not None:
            result["teams"] = by_team
        return {**result, "card": card(scenario, result)}

    def time_trial(self) -> list[TimeTrial]:
        out: list[TimeTrial] = []
        for d in sorted(self.trials):
            timed = self.trials[d]
            (median,) = stats.km_quantiles(timed, (0.5,))
            out.append({"dock": d, "trials": sum(timed.values()),
                        "finished": sum(count for (_, done), count in timed.items() if done),
                        "median_rounds": median})
        return out


class OptionUse:
    """Option cards in the run: mode ("played" or "counted"); per upgrade
    square the cards it gave (gains, per race); robots that held at least one
    card against those that held none: robot-races, wins, win rate, Wilson
    95% interval; uses per card, most used first. With counted options only
    the mode is known (the cards are not played)."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.races = 0
        self.gains: Counter[tuple[int, int]] = Counter()
        self.groups = {True: [0, 0], False: [0, 0]}        # held: [robot-races, wins]
        self.used: Counter[str] = Counter()

    def add(self, races: Iterable[RaceSummary]) -> None:
        for r in races:
            self.races += 1
            self.gains.update(r.upgrades)
            for i, held in enumerate(r.held_option or (False,) * len(r.docks)):
                self.groups[held][0] += 1
                self.groups[held][1] += i in r.winners
            self.used.update(dict(r.options_used))

    def result(self) -> Options:
        mode = self.scenario.rules.options
        out: Options = {"mode": mode}
        if mode != "played":
            return out
        n, gains = self.races, self.gains
        squares = sorted((t.x, t.y) for t in self.scenario.board.tiles if t.type == "upgrade")
        out["upgrades"] = [{"x": x, "y": y, "gains": gains[(x, y)],
                            "per_race": _ratio(gains[(x, y)] / n if n else 0.0)}
                           for x, y in squares]
        out["holders"], out["non_holders"] = (_holders(*self.groups[held]) for held in (True, False))
        out["used"] = [[card, count] for card, count in sorted(self.used.items(),
                                                              key=lambda kv: (-kv[1], kv[0]))]
        return out


def _holders(total: int, won: int) -> Holders:
    return {"robots": total, "wins": won, "win_rate": _ratio(won / total if total else 0.0),
            "ci": _wilson(won, total)}


def _exact_sum(parts: Counter[tuple[int, int]], dock: int) -> Fraction:
    """The sum of count/share over a dock's (dock, share): count parts."""
    return sum((Fraction(count, share) for (d, share), count in parts.items() if d == dock),
               Fraction(0))


class Seats:
    """The docks' wins, counted race by race (``add``: the balance run's
    summaries, or the records of ``suggest``); ``judge``: the docks shown
    (1-based numbers) with their wins, and the fairness verdict on them. A
    dock's fair share is its expected wins (1/robots of each decided race it
    raced) over its decided races: 1/k when every race has k robots, a mean
    of them when the counts differ."""

    def __init__(self) -> None:
        self.races = self.decided = 0
        self.used: Counter[int] = Counter()
        self.used_decided: Counter[int] = Counter()
        self.wins: Counter[int] = Counter()
        # A dock's expected wins and its wins with ties split, summed exactly:
        # counted by (dock, robots or winners), each count made a Fraction once.
        self.expected_parts: Counter[tuple[int, int]] = Counter()
        self.share_parts: Counter[tuple[int, int]] = Counter()
        self.robot_counts: set[int] = set()

    def add(self, races: Iterable[Raced]) -> None:
        for r in races:
            self.races += 1
            self.decided += r.decided
            self.robot_counts.add(len(r.docks))
            for d in r.docks:
                self.used[d] += 1
                if r.decided:
                    self.used_decided[d] += 1
                    self.expected_parts[d, len(r.docks)] += 1
            for d in r.winner_docks:
                self.wins[d] += 1
                self.share_parts[d, len(r.winner_docks)] += 1

    def judge(self, shown: range) -> tuple[list[Dock], DockFairness]:
        used, used_decided, wins = self.used, self.used_decided, self.wins
        expected = {d: _exact_sum(self.expected_parts, d) for d in shown}
        typical = 1.0 / max(self.robot_counts) if self.robot_counts else 0.0
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
        n = self.races
        return docks, fairness(docks, [float(_exact_sum(self.share_parts, d)) for d in shown],
                               [float(expected[d]) for d in shown], n,
                               self.decided / n if n else 0.0)


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


class Legs:
    """Per flag j: rounds from touching flag j-1 (the start for flag 1) to
    touching flag j, Kaplan-Meier median with robots still on the leg at the
    race's end censored; deaths per robot that set out on the leg."""

    def __init__(self, flag_count: int):
        self.timed: list[Counter[tuple[float, bool]]] = [Counter() for _ in range(flag_count)]
        self.deaths: Counter[int] = Counter()       # by leg

    def add(self, races: Iterable[RaceSummary]) -> None:
        for r in races:
            for reached in r.flag_rounds:
                start = 0
                for j, timed in enumerate(self.timed):      # leg j+1
                    if j < len(reached):
                        timed[reached[j] - start, True] += 1
                        start = reached[j]
                    else:
                        timed[r.rounds - start, False] += 1
                        break                   # the robot set out on no later leg
            self.deaths.update(death.leg for death in r.deaths)

    def result(self) -> list[Leg]:
        out: list[Leg] = []
        for j, timed in enumerate(self.timed, 1):
            (median,) = stats.km_quantiles(timed, (0.5,))
            robots = sum(timed.values())
            deaths = self.deaths[j]
            out.append({"to_flag": j, "robots": robots, "median_rounds": median,
                        "deaths": deaths, "death_rate": _ratio(deaths / robots if robots else 0.0)})
        return out


class Heat:
    """Deaths (all, and by cause), register ends and death chains per
    square, per 100 races."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        size = width * height
        self.races = 0
        self.deaths = [0] * size
        self.by_cause = {cause: [0] * size for cause in DEATH_CAUSES}
        self.occupancy = np.zeros(size, np.uint64)
        self.chains = Chains(width, height)

    def add(self, races: list[RaceSummary]) -> None:
        width, height, size = self.width, self.height, len(self.deaths)
        self.races += len(races)
        for r in races:
            for death in r.deaths:
                if 0 <= death.x < width and 0 <= death.y < height:
                    i = death.y * width + death.x
                    self.deaths[i] += 1
                    self.by_cause.setdefault(death.cause, [0] * size)[i] += 1
        packed = [r.occupancy for r in races if r.occupancy]
        if packed:
            self.occupancy += np.frombuffer(b"".join(packed), COUNT).reshape(
                len(packed), size).sum(axis=0, dtype=np.uint64)
        self.chains.add(races)

    def result(self) -> Heatmaps:
        width, height, n = self.width, self.height, self.races

        def grid(counts: list[int]) -> Grid:
            scale = 100.0 / n if n else 0.0
            return [[round(counts[y * width + x] * scale, 3) for x in range(width)]
                    for y in range(height)]

        return {"width": width, "height": height, "per_races": 100,
                "deaths": grid(self.deaths),
                "deaths_by_cause": {cause: grid(c) for cause, c in self.by_cause.items()},
                "occupancy": grid(self.occupancy.tolist()),
                "chains": self.chains.result()}
