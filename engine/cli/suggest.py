"""rallyforge suggest FILE: small edits that bring a course closer to its goals.

Races the course and candidate edits on the same seeds (engine/suggest) and
prints them best first: the edit in words, its expected effect with a 95%
interval, and the races it was judged on. Goals come from --goal (any
number of: fair, length=short|medium|long, rounds=N, deaths<=X), else from
the course's ``goals``, else fair docks. --apply N --out FILE writes the
course with suggestion N applied.

Exit codes as for balance: 0 done; 1 unreadable or invalid course, an output
that cannot be written, or no suggestion N to apply; 2 bad usage; 130
stopped by Ctrl+C (the ranking so far is printed, --apply writes nothing).
Only clear fixes are numbered for --apply (their effect's interval excludes
no change); the edits the races could not confirm are listed apart. A course
whose seats show no clear unfairness gets no fix for fair seats: the output
says so and --apply writes nothing (exit 1).
"""
from __future__ import annotations

import argparse

from rallyforge.engine.analysis.course_card.timemodel import CLASSES as LENGTH_CLASSES
from rallyforge.engine.analysis.suggest.effect_words import points, suggestion_lines
from rallyforge.engine.analysis.course_card.build import seating_words
from rallyforge.engine.analysis.suggest.types import SuggestResult
from rallyforge.engine.cli.balance import (UsageError, error, load, second_ctrl_c_quits, settings, unwritable,
                                write_json)
from rallyforge.engine.cli.common import (OPTIONS_HELP, STDOUT, add_seating_arguments,
                                          add_worker_arguments, bot_help, output_clash, positive,
                                          whole_number, write_line, write_output)
from rallyforge.engine.format.schema import goal_problem
from rallyforge.engine.model.scenario import Goals, Scenario


def goal(text: str) -> tuple[str, object]:
    """An argparse type: one goal as (key, value)."""
    if text == "fair":
        return "fair", True
    key, sep, value = text.partition("=")
    try:
        if key == "length" and sep and value in LENGTH_CLASSES:
            return "length", value
        if key in ("rounds", "deaths<") and sep:
            name, number = ("rounds", int(value)) if key == "rounds" else \
                ("deaths_per_leg", float(value))
            problem = goal_problem(name, number)     # the bounds of the file's goals
            if problem:
                raise argparse.ArgumentTypeError(f"{text!r}: {problem}")
            return name, number
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(
        f"not a goal: {text!r} (fair, length={'|'.join(LENGTH_CLASSES)}, rounds=N, deaths<=X)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from rallyforge.engine.analysis.suggest import DEFAULT_BUDGET, MIN_BUDGET
    parser.add_argument("file", help="the scenario file")
    parser.add_argument("--goal", type=goal, action="append", metavar="GOAL",
                        help="fair, length=short|medium|long, rounds=N or deaths<=X (deaths per "
                             "robot per leg); repeat for several (default: the course's goals, "
                             "else fair)")
    parser.add_argument("--robots", type=positive, metavar="K",
                        help="robots per race (default: the goals', else 4 or every dock if fewer)")
    add_seating_arguments(parser)
    parser.add_argument("--budget", type=whole_number(MIN_BUDGET), default=DEFAULT_BUDGET,
                        metavar="RACES",
                        help=f"races to spend, about: at least {MIN_BUDGET}; a small budget "
                             f"races fewer candidate edits, the most promising, and a course of "
                             f"many docks may spend about 10 races per dock whatever is asked "
                             f"(default: {DEFAULT_BUDGET})")
    parser.add_argument("--bot", default=None, metavar="NAME", help=bot_help())
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="master seed: the same seed gives the same suggestions (default 0)")
    add_worker_arguments(parser)
    parser.add_argument("--options", choices=("played", "counted"), help=OPTIONS_HELP)
    parser.add_argument("--json", dest="json_out", metavar="OUT",
                        help="write the full result as JSON to OUT ('-' for stdout)")
    parser.add_argument("--apply", type=positive, metavar="N",
                        help="write the course with suggestion N applied to --out")
    parser.add_argument("--out", metavar="FILE", help="where --apply writes the course ('-' for stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def goals_of(args: argparse.Namespace, scenario: Scenario) -> Goals:
    if not args.goal:
        return scenario.goals or Goals()
    given = dict(args.goal)
    return Goals(fair=bool(given.get("fair", False)), length=given.get("length"),
                 rounds=given.get("rounds"), deaths_per_leg=given.get("deaths_per_leg"))


def run(args: argparse.Namespace) -> int:
    from rallyforge.engine.analysis.balance.play import with_options
    from rallyforge.engine.analysis.balance.progress import ProgressBar
    from rallyforge.engine.analysis.balance.runner import BackendError
    from rallyforge.engine.analysis.suggest import applied, suggest
    from rallyforge.engine.format.loader import dumps
    if (args.apply is None) != (args.out is None):
        return error("--apply N and --out FILE go together", 2)
    second_ctrl_c_quits()
    clash = output_clash({"--json": args.json_out, "--out": args.out}, [args.file])
    if clash:
        return error(clash, 2)
    scenario = load(args.file)
    if scenario is None:
        return 1
    scenario = with_options(scenario, args.options)
    why = unwritable(args.json_out)
    if why is None and args.out:
        why = (unwritable(args.out) or "").replace("--json", "--out", 1) or None
    if why:
        return error(why, 1)
    goals = goals_of(args, scenario)
    args.robots = args.robots or goals.robots
    try:
        s = settings(args, scenario)
    except UsageError as exc:
        return error(str(exc), 2)
    bar = None if args.quiet else ProgressBar("races")
    try:
        result = suggest(scenario, goals, s["players"], args.budget, args.seed,
                         seating=s["seating"], bot=s["bot"], workers=s["workers"], scheduler=args.scheduler, progress=bar)
    except BackendError as exc:
        return error(str(exc), 2 if exc.usage else 1)
    finally:
        if bar is not None:
            bar.close()
    missing = None
    try:
        if args.json_out:
            write_json(result, args.json_out)
        if args.apply is not None and not result["cancelled"]:
            if args.apply > len(result["suggestions"]):
                missing = (f"--apply {args.apply}: nothing written: "
                           + (f"there are only {len(result['suggestions'])} fixes"
                              if result["suggestions"] else "no fix was found"))
            else:
                write_output(args.out, dumps(applied(scenario,
                                                     result["suggestions"][args.apply - 1])))
    except OSError as exc:
        return error(f"cannot write the output: {exc.strerror or exc}", 1)
    if STDOUT not in (args.json_out, args.out):
        write_line(text(result))
    if missing:
        return error(missing, 1)
    return 130 if result["cancelled"] else 0


def text(result: SuggestResult) -> str:
    goals = result["goals"]
    wanted = (["fair docks"] if goals["fair"] else []) + \
        ([f"a {goals['length']} race"] if "length" in goals else []) + \
        ([f"a median race of {goals['rounds']} rounds"] if "rounds" in goals else []) + \
        ([f"at most {goals['deaths_per_leg']:g} deaths per robot per leg"]
         if "deaths_per_leg" in goals else [])
    before = result["before"]
    seated = seating_words(result.get("players") or [result["robots"]],
                           result.get("seating", "game"), result["bot"])
    lines = [f"Suggestions for {result['scenario']}: {seated}; "
             f"goals: {', '.join(wanted) or 'none'}; {result['screened']} candidate edits screened "
             f"by the lone-robot model, {result['candidates']} raced, {result['races']} races in "
             f"{result['elapsed_s']:.0f} s, seed {result['seed']}.",
             "Now: nothing measured (stopped before the course's first races were played)."
             if before is None else
             f"Now: best and worst seats {points(before['gap'])} points apart, median race "
             f"{before['median_rounds']:g} rounds, deadliest leg {before['worst_leg_deaths']:.2f} "
             f"deaths per robot."]
    unclear = goals["fair"] and result.get("fairness") not in (None, "unfair")
    if unclear:
        lines.append(f"The seats show no clear unfairness (the first races' verdict: "
                     f"{result['fairness']}): there is nothing to fix for fair seats.")
    if result["cancelled"]:
        lines.append(f"Stopped after {result['races']} races: " + (
            "the ranking so far, on fewer races than the whole search (wider intervals)."
            if result["suggestions"] or result["ideas"] else "no fix yet."))
    elif not result["suggestions"] and result["candidates"]:
        lines.append("No edit tried brings the course clearly closer to its goals: no fix to "
                     "offer.")
    for s in result["suggestions"]:
        lines += _indented(suggestion_lines(result, s, "clearly closer to the goals"))
    if result.get("ideas"):
        lines.append("Untried as fixes (they seemed better, but the races could not tell them "
                     "from no change):")
        for s in result["ideas"]:
            lines += _indented(suggestion_lines(result, s, "perhaps closer to the goals (its "
                                                           "interval includes no change)",
                                                "idea "))
    return "\n".join(lines)


def _indented(lines: list[str]) -> list[str]:
    return lines[:1] + [f"   {line}" for line in lines[1:]]

