"""rallyforge compare OLD.json NEW.json --races N: did an edit change the balance?

Both versions race the same plan: race i has the same seed, the same docks
and the same bots on both courses, so what luck the deal brings is shared
and cancels out of the differences (a paired design). Seats are given by
number (the player who takes dock i, as the game seats them) and by square
(the robot that starts there, whatever its number), so a renumbered dock
reads as the same square under another number, not as one seat worse and
another better. Each dock's change in
win rate is the mean, over the races that used that dock, of the per-race
difference in its win indicator (new minus old), with a t interval on
those differences (engine/analysis/stats.py ``paired_interval``); the race length
change is the mean per-race difference in the round the race ended
(undecided races count with the round they were stopped at, which is a
restricted mean). When the pairs show no spread the outcomes' own spread
stands in (engine/analysis/stats.py), so a small run never claims a zero-width
interval from outcomes that vary. Identical courses give exactly zero
changes with zero-width intervals.

Exit codes as for balance: 0, 1 (unreadable or invalid file, unwritable
output), 2 (bad usage), 130 (Ctrl+C: what was played is compared; stopped
while the old course was raced, the result holds that course's races alone,
with "races" 0 and "new" null).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, NotRequired, TypedDict

from rallyforge.engine.analysis.course_card.build import seating_words
from rallyforge.engine.analysis.figures import ends_and_change
from rallyforge.engine.cli.balance import (UsageError, add_race_arguments, error, load, play_run,
                                second_ctrl_c_quits, settings, unwritable, write_json)
from rallyforge.engine.cli.common import STDOUT, output_clash, write_line

if TYPE_CHECKING:
    from rallyforge.engine.analysis.balance.plan import Job
    from rallyforge.engine.analysis.balance.summary import RaceSummary
    from rallyforge.engine.analysis.balance.types import (BalanceResult, Completion, Dock, DockFairness,
                                               Options)


class BriefLength(TypedDict):
    median: float | None
    q1: float | None
    q3: float | None


class Brief(TypedDict):
    """What a comparison keeps of one course's balance result."""
    scenario: str
    completion: Completion
    length: BriefLength
    fairness: DockFairness
    docks: list[Dock]
    options: Options | None


class DockChange(TypedDict):
    dock: int
    races: int                          # races that used the dock on both courses
    old_win_rate: float
    new_win_rate: float
    change: float                       # new - old, paired
    ci: list[float]
    old_square: list[int]               # [x, y] of the dock on each course
    new_square: list[int]


class SquareChange(TypedDict):
    """A square that is a dock on either course, whichever its number: the
    wins of the robot that starts there (paired over the races in which it
    starts there on both courses)."""
    x: int
    y: int
    old_dock: int | None                # its number on each course, None: no dock raced there
    new_dock: int | None
    races: int
    old_win_rate: float | None
    new_win_rate: float | None
    change: float | None
    ci: list[float] | None


class LengthChange(TypedDict):
    old_median: float | None
    new_median: float | None
    mean_change: float
    ci: list[float]


class CompletionChange(TypedDict):
    old: float
    new: float
    change: float
    ci: list[float]


class BalanceChange(TypedDict):
    old: float
    new: float


class TeamChange(TypedDict):
    """On a team course (docs/rules.md 13): a team's, or the first seat's
    side's, change in the share of races it wins."""
    team: str
    old_win_rate: float
    new_win_rate: float
    change: float                       # new - old, paired
    ci: list[float]


class Comparison(TypedDict):
    races: int
    robots: int
    bot: str
    seed: int
    cancelled: bool
    seating: str                        # game (k robots on docks 1..k) or rotate
    players: list[int]                  # the robot counts raced in turn
    docks: list[DockChange]
    squares: list[SquareChange]
    teams: NotRequired[list[TeamChange]]
    length: LengthChange
    completion: CompletionChange
    balance: BalanceChange
    old: Brief
    new: Brief
    elapsed_s: float


class StoppedOnOld(TypedDict):
    """A comparison stopped while the old course was raced."""
    races: int                          # 0: no pairs
    robots: int
    bot: str
    seed: int
    cancelled: bool
    docks: list[DockChange]             # empty
    old_races: int
    planned: int
    old: Brief
    new: None
    elapsed_s: float


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("old", help="the course before the edit")
    parser.add_argument("new", help="the course after the edit")
    add_race_arguments(parser, "robots per race (default: the old course goals' robots, else 4, "
                               "or every dock if fewer)")


def compare(old_result: BalanceResult, new_result: BalanceResult, old_races: list[RaceSummary],
            new_races: list[RaceSummary],
            max_rounds: int, old_squares: list[tuple[int, int]],
            new_squares: list[tuple[int, int]]) -> Comparison:
    """The paired comparison of two runs of one plan (races matched by index);
    no race of either run lasts more than `max_rounds` rounds. The docks'
    changes are given by number (a seat of the game) and by square (where a
    robot starts, whatever its number): `old_squares` and `new_squares` are
    each course's docks in order, so a renumbered dock shows as the same
    square with another number rather than as one dock worse and another
    better."""
    from rallyforge.engine.analysis.stats import paired_interval
    pairs = list(zip(old_races, new_races))
    # Races that all came out the same on both courses (as identical courses
    # do, the engine being deterministic) differ by exactly zero: no interval.
    same = all((o.winner_docks, o.rounds, o.decided) == (n.winner_docks, n.rounds, n.decided)
               for o, n in pairs)

    def change(old: list[int], new: list[int],
               limits: tuple[int, int]) -> tuple[float, tuple[float, float]]:
        return (0.0, (0.0, 0.0)) if same else paired_interval(old, new, limits)

    docks: list[DockChange] = []
    numbers = sorted({d["dock"] for d in old_result["docks"]} & {d["dock"] for d in new_result["docks"]})
    old_by = {d["dock"]: d for d in old_result["docks"]}
    new_by = {d["dock"]: d for d in new_result["docks"]}
    for number in numbers:
        used = [(o, n) for o, n in pairs if number in o.docks and number in n.docks]
        mean, (lo, hi) = change([int(number in o.winner_docks) for o, _ in used],
                                [int(number in n.winner_docks) for _, n in used], (-1, 1))
        docks.append({"dock": number, "races": len(used),
                      "old_win_rate": old_by[number]["win_rate"],
                      "new_win_rate": new_by[number]["win_rate"],
                      "change": round(mean, 6), "ci": [round(lo, 6), round(hi, 6)],
                      "old_square": [*old_squares[number - 1]],
                      "new_square": [*new_squares[number - 1]]})
    squares: list[SquareChange] = []
    old_at = {old_squares[d["dock"] - 1]: d for d in old_result["docks"] if d["races"]}
    new_at = {new_squares[d["dock"] - 1]: d for d in new_result["docks"] if d["races"]}
    for x, y in sorted(old_at.keys() | new_at.keys(), key=lambda sq: (sq[1], sq[0])):
        o_dock, n_dock = old_at.get((x, y)), new_at.get((x, y))
        entry: SquareChange = {"x": x, "y": y,
                               "old_dock": o_dock["dock"] if o_dock else None,
                               "new_dock": n_dock["dock"] if n_dock else None, "races": 0,
                               "old_win_rate": o_dock["win_rate"] if o_dock else None,
                               "new_win_rate": n_dock["win_rate"] if n_dock else None,
                               "change": None, "ci": None}
        if o_dock and n_dock:
            a, b = o_dock["dock"], n_dock["dock"]
            used = [(o, n) for o, n in pairs if a in o.docks and b in n.docks]
            mean, (lo, hi) = change([int(a in o.winner_docks) for o, _ in used],
                                    [int(b in n.winner_docks) for _, n in used], (-1, 1))
            entry["races"], entry["change"] = len(used), round(mean, 6)
            entry["ci"] = [round(lo, 6), round(hi, 6)]
        squares.append(entry)
    mean, (lo, hi) = change([o.rounds for o, _ in pairs], [n.rounds for _, n in pairs],
                            (1 - max_rounds, max_rounds - 1))
    cmean, (clo, chi) = change([int(o.decided) for o, _ in pairs],
                               [int(n.decided) for _, n in pairs], (-1, 1))

    result: Comparison = {
        "races": len(pairs), "robots": old_result["robots"], "bot": old_result["bot"],
        "seed": old_result["seed"],
        "cancelled": bool(old_result["cancelled"] or new_result["cancelled"]),
        "seating": old_result.get("seating", "game"),
        "players": old_result.get("players") or [old_result["robots"]],
        "docks": docks, "squares": squares,
        "length": {"old_median": old_result["length"]["median"],
                   "new_median": new_result["length"]["median"],
                   "mean_change": round(mean, 6), "ci": [round(lo, 6), round(hi, 6)]},
        "completion": {"old": old_result["completion"]["rate"],
                       "new": new_result["completion"]["rate"],
                       "change": round(cmean, 6), "ci": [round(clo, 6), round(chi, 6)]},
        "balance": {"old": old_result["fairness"]["balance"],
                    "new": new_result["fairness"]["balance"]},
        "old": brief(old_result), "new": brief(new_result),
        "elapsed_s": round(old_result["elapsed_s"] + new_result["elapsed_s"], 3),
    }
    if pairs and all(o.sides and n.sides for o, n in pairs):
        result["teams"] = []
        names = sorted({s for o, n in pairs for s in o.sides + n.sides if s is not None})
        wins: dict[str, Callable[[RaceSummary], bool]] = {
            name: partial(team_won, name) for name in names}
        wins[FIRST_SIDE] = first_side_won
        for name, won in wins.items():
            old, new = [int(won(o)) for o, _ in pairs], [int(won(n)) for _, n in pairs]
            mean, (lo, hi) = change(old, new, (-1, 1))
            result["teams"].append({"team": name, "old_win_rate": round(sum(old) / len(old), 6),
                                    "new_win_rate": round(sum(new) / len(new), 6),
                                    "change": round(mean, 6), "ci": [round(lo, 6), round(hi, 6)]})
    return result


FIRST_SIDE = "the first seat's side"


def pairing(race: RaceSummary) -> RaceSummary:
    """What ``compare`` reads of a race (its docks, winners, rounds and
    sides): a run keeps that of each race for the pairing, not its deaths,
    flags or squares (the rest is counted as it comes: aggregate.py Tally)."""
    return replace(race, finish_round=(), flag_rounds=(), deaths=(), occupancy=b"",
                   upgrades=(), held_option=(), options_used=())


def team_won(team: str, race: RaceSummary) -> bool:
    return team in race.won_teams


def first_side_won(race: RaceSummary) -> bool:
    """Whether the side of a race's first seat (docs/rules.md 13.1) won it."""
    from rallyforge.engine.model.scenario import Scenario
    seat_1 = Scenario.seat_ranks(race.docks).index(0)
    return race.sides[seat_1] in race.won_teams


def brief(result: BalanceResult) -> Brief:
    length = result["length"]
    return {"scenario": result["scenario"], "completion": result["completion"],
            "length": {"median": length["median"], "q1": length["q1"], "q3": length["q3"]},
            "fairness": result["fairness"], "docks": result["docks"],
            "options": result.get("options")}


def stopped_on_old(old_result: BalanceResult) -> StoppedOnOld:
    """The result of a comparison stopped while the old course was raced:
    no pairs; what was played of the old course, and ``new`` null."""
    return {"races": 0, "robots": old_result["robots"], "bot": old_result["bot"],
            "seed": old_result["seed"], "cancelled": True, "docks": [],
            "old_races": old_result["races"], "planned": old_result["planned"],
            "old": brief(old_result), "new": None, "elapsed_s": old_result["elapsed_s"]}


def _how(lo: float, hi: float) -> str:
    return "better" if lo > 0 else "worse" if hi < 0 else "no clear change"


def text(result: Comparison) -> str:
    def pts(x: float) -> str:
        return f"{100 * x:+.1f}"

    seated = seating_words(result["players"], result["seating"], result["bot"])
    lines = [f"{result['races']} paired races of {seated}, seed {result['seed']}"
             + (" (stopped early)" if result["cancelled"] else "") + "."]
    teams = result.get("teams")
    if teams:                   # a team course: teams and the first seat's side, not seats
        for t in teams:
            name = "The first seat's side" if t["team"] == FIRST_SIDE else f"Team {t['team']}"
            lo, hi = t["ci"]
            old, new, change = ends_and_change(100 * t["old_win_rate"], 100 * t["new_win_rate"], 1)
            lines.append(f"- {name}: {old}% -> {new}% of races, change {change} points "
                         f"(95% interval {pts(lo)} to {pts(hi)}): {_how(lo, hi)}.")
    else:
        lines.append("Seats by number (the player who takes that dock):")
        for d in result["docks"]:
            lo, hi = d["ci"]
            # (both runs race each dock in the same races: the change is new - old)
            old, new, change = ends_and_change(100 * d["old_win_rate"], 100 * d["new_win_rate"], 1)
            moved = d["old_square"] != d["new_square"]
            where = (f"({d['old_square'][0]}, {d['old_square'][1]}) -> "
                     f"({d['new_square'][0]}, {d['new_square'][1]})" if moved else
                     f"({d['old_square'][0]}, {d['old_square'][1]})")
            lines.append(f"- Seat {d['dock']} at {where}: {old}% -> {new}% of races, change {change} "
                         f"points (95% interval {pts(lo)} to {pts(hi)}): {_how(lo, hi)}"
                         f"{' (it starts on another square)' if moved else ''}.")
        if any(d["old_square"] != d["new_square"] for d in result["docks"]):
            lines.append("Seats by square (the robot that starts there, whatever its number):")
            for q in result["squares"]:
                numbers = (f"dock {q['old_dock']}" if q["old_dock"] == q["new_dock"] else
                           f"dock {q['old_dock'] or '-'} -> {q['new_dock'] or '-'}")
                if q["ci"] is None or q["change"] is None:
                    gone = "no robot starts here" + (" now" if q["new_dock"] is None else " before")
                    lines.append(f"- ({q['x']}, {q['y']}), {numbers}: {gone}.")
                    continue
                old, new, change = ends_and_change(100 * (q["old_win_rate"] or 0.0),
                                                   100 * (q["new_win_rate"] or 0.0), 1)
                lines.append(f"- ({q['x']}, {q['y']}), {numbers}: {old}% -> {new}% of races, change "
                             f"{change} points (95% interval {pts(q['ci'][0])} to {pts(q['ci'][1])}): "
                             f"{_how(*q['ci'])}.")
    length = result["length"]
    lines.append(f"Race length: median {length['old_median']} -> {length['new_median']} rounds; "
                 f"mean change {length['mean_change']:+.2f} rounds (95% interval "
                 f"{length['ci'][0]:+.2f} to {length['ci'][1]:+.2f}).")
    if not teams:               # (the docks' balance means nothing on a team course)
        lines.append(f"Balance: {result['balance']['old']:.2f} -> "
                     f"{result['balance']['new']:.2f}; verdict "
                     f"{result['old']['fairness']['verdict']} -> "
                     f"{result['new']['fairness']['verdict']}.")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from rallyforge.engine.analysis.balance.aggregate import Tally
    from rallyforge.engine.analysis.balance.plan import make_plan
    from rallyforge.engine.analysis.balance.play import engine_name, split_results, with_options
    from rallyforge.engine.analysis.balance.runner import BackendError, JobResult

    second_ctrl_c_quits()
    clash = output_clash({"--json": args.json_out}, [args.old, args.new])
    if clash:
        return error(clash, 2)
    old_sc = load(args.old)
    if old_sc is None:
        return 1
    new_sc = load(args.new)
    if new_sc is None:
        return 1
    why = unwritable(args.json_out)
    if why:
        return error(why, 1)
    old_sc, new_sc = with_options(old_sc, args.options), with_options(new_sc, args.options)
    try:
        s = settings(args, old_sc)
        settings(args, new_sc, robots=s["robots"])
        plans = [make_plan(args.races, s["players"], len(sc.docks), args.seed, 0, s["seating"])
                 for sc in (old_sc, new_sc)]
    except (UsageError, ValueError) as exc:
        return error(str(exc), 2)
    results: list[BalanceResult] = []
    race_lists: list[list[RaceSummary]] = []
    for label, scenario, plan in (("old", old_sc, plans[0]), ("new", new_sc, plans[1])):
        tally = Tally(scenario, s["players"], s["seating"])
        paired: list[RaceSummary] = []

        def fold(pairs: list[tuple[Job, JobResult]], tally: Tally = tally,
                 paired: list[RaceSummary] = paired) -> None:
            races, trials = split_results(pairs)
            tally.add_summaries(races, trials)
            paired.extend(map(pairing, races))

        try:
            outcome = play_run(scenario, plan, s["bot"], args, s["workers"], fold, label=label)
        except BackendError as exc:
            return error(str(exc), 2 if exc.usage else 1)
        results.append(tally.result(bot=s["bot"], seed=args.seed,
                                    engine=engine_name(scenario, s["bot"], max(s["players"])),
                                    planned=plan.races, elapsed_s=outcome.elapsed_s,
                                    cancelled=outcome.cancelled))
        race_lists.append(paired)
        if outcome.cancelled:
            break
    result: Comparison | StoppedOnOld
    comparison = None
    if len(results) < 2:        # stopped during the old course: nothing to pair
        result = stopped_on_old(results[0])
        print(f"stopped before the new course was raced ({results[0]['races']} of "
              f"{results[0]['planned']} races of the old one played): nothing to compare",
              file=sys.stderr)
    else:
        max_rounds = max(old_sc.rules.max_rounds, new_sc.rules.max_rounds, args.max_rounds or 0)
        result = comparison = compare(results[0], results[1], race_lists[0], race_lists[1],
                                      max_rounds, [(d.x, d.y) for d in old_sc.docks],
                                      [(d.x, d.y) for d in new_sc.docks])
    try:
        if args.json_out:
            write_json(result, args.json_out)
    except OSError as exc:
        return error(f"cannot write the output: {exc.strerror or exc}", 1)
    if args.json_out != STDOUT and comparison is not None:
        write_line(text(comparison))
    return 130 if result["cancelled"] else 0
