"""rallyforge balance FILE [--races N]: race a course many times and judge its docks.

Prints a short verdict on stdout, a progress bar on stderr, and with --json
and --report writes the full result and a report with charts.

Exit codes: 0 done; 1 the file cannot be read or the course has errors
(listed as ``validate`` lists them, before any race), or an output cannot be
written; 2 bad usage (unknown bot, more robots than
docks, a bad number, an output that is the course file); 130 stopped by Ctrl+C: the races played so far are
still reported and written, marked "cancelled" (a second Ctrl+C quits at
once, writing nothing more). Unwritable outputs are found before any race.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, NoReturn, TypedDict

from rallyforge.engine.cli.common import (OPTIONS_HELP, RACES, ROBOTS_HELP, STDOUT, add_seating_arguments,
                                          add_worker_arguments, bot_help, output_clash, positive,
                                          race_count, trial_count, valid_course, write_line,
                                          write_output)

if TYPE_CHECKING:       # (the analysis is imported when a command runs: it takes a moment)
    from rallyforge.engine.analysis.balance.plan import Plan
    from rallyforge.engine.analysis.balance.runner import Fold, RunOutcome
    from rallyforge.engine.model.scenario import Scenario


class RunSettings(TypedDict):
    """A run's checked settings (settings)."""
    robots: int                     # the most robots a race has
    players: tuple[int, ...]        # the robot counts raced in turn
    seating: str
    bot: str
    workers: int


def add_race_arguments(parser: argparse.ArgumentParser, robots_help: str = ROBOTS_HELP) -> None:
    """The options balance and compare share."""
    parser.add_argument("--races", type=race_count, default=RACES, metavar="N",
                        help=f"races to play (default: {RACES}, as for the course card)")
    parser.add_argument("--robots", type=positive, metavar="K", help=robots_help)
    add_seating_arguments(parser)
    parser.add_argument("--bot", default=None, metavar="NAME", help=bot_help())
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="master seed; race i gets its own seed derived from it (default 0)")
    add_worker_arguments(parser)
    parser.add_argument("--max-rounds", type=positive, metavar="R",
                        help="end undecided races after R rounds (default: the course's rule)")
    parser.add_argument("--json", dest="json_out", metavar="OUT",
                        help="write the full result as JSON to OUT ('-' for stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--options", choices=("played", "counted"),
                        help=OPTIONS_HELP + "; a what-if run, the report says which was used")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the scenario file")
    add_race_arguments(parser)
    parser.add_argument("--trials", type=trial_count, metavar="T",
                        help="time trials (one robot alone) per dock (default: races/8, "
                             "1 to 50)")
    parser.add_argument("--report", metavar="DIR",
                        help="write report.md and PNG charts into DIR")


class UsageError(Exception):
    """Bad usage found after parsing: exit 2."""


def error(message: str, code: int) -> int:
    print(f"rallyforge: error: {message}", file=sys.stderr)
    return code


def load(path: str) -> Scenario | None:
    """The scenario of a file, or None after listing its errors as
    ``validate`` lists them: a course with errors is never raced."""
    return valid_course(path, "nothing raced")


def settings(args: argparse.Namespace, scenario: Scenario,
             robots: int | None = None) -> RunSettings:
    """Checked run settings from the arguments; UsageError when they are bad.
    The robots per race: `robots` if given (another course's), else
    ``--robots``, else the course goals' (engine/model/scenario.py ``robots_for``);
    ``players``: the counts raced in turn (``--players``, else that one);
    ``seating``: ``--docks`` (game unless asked)."""
    from rallyforge.engine.analysis.balance.runner import default_workers
    from rallyforge.engine.model.scenario import BOT_NAMES, DEFAULT_BOT, robots_for
    docks = len(scenario.docks)
    if docks < 1:
        raise UsageError(f"{scenario.name!r} has no docks to race from")
    players = getattr(args, "players", None)
    if players and args.robots is not None:
        raise UsageError("--players and --robots: give one of them")
    said = "--robots" if args.robots is not None else "robots"
    if players:
        robots_fit(max(players), scenario, f"--players {min(players)}-")
    else:
        robots = robots or args.robots or robots_for(scenario.goals, docks)
        robots_fit(robots, scenario, said)
        players = (robots,)
    bot = args.bot or DEFAULT_BOT
    if bot not in BOT_NAMES:
        raise UsageError(f"--bot {bot}: no such bot (there are: {', '.join(sorted(BOT_NAMES))})")
    workers = args.workers or default_workers()
    return {"robots": max(players), "players": tuple(players),
            "seating": getattr(args, "docks", "game"), "bot": bot, "workers": workers}


def robots_fit(robots: int, scenario: Scenario, said: str = "--robots") -> None:
    """UsageError unless the course has a dock for each of `robots` robots."""
    docks = len(scenario.docks)
    if robots > docks:
        raise UsageError(f"{said} {robots}: {scenario.name!r} has only {docks} docks")


def second_ctrl_c_quits() -> None:
    """The first Ctrl+C stops the races (the runner reports what was played);
    a second one quits at once, whatever is left to do, its workers with it."""
    from rallyforge.engine.format.loader import remove_unfinished

    def quit_now(signum: int, frame: FrameType | None) -> NoReturn:
        for child in multiprocessing.active_children():
            child.terminate()
        remove_unfinished()         # (an output half written)
        with contextlib.suppress(OSError):     # (standard error closed, or on a full disk)
            os.write(2, b"\nquit: Ctrl+C pressed twice\n")
        os._exit(130)

    def first(signum: int, frame: FrameType | None) -> NoReturn:
        signal.signal(signal.SIGINT, quit_now)
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, first)


def unwritable(json_out: str | None, report: str | None = None) -> str | None:
    """Why an output could not be written, found before any race is played
    (None when both can be). A folder is tried by making a file in it: that
    finds read-only disks and folders that are files, whoever runs it."""
    places = []
    if json_out and json_out != STDOUT:
        target = Path(json_out)
        if target.is_dir():
            return f"--json {json_out}: is a folder"
        places.append(("--json", json_out, target.parent))
    if report:
        target = Path(report)
        if target.exists() and not target.is_dir():
            return f"--report {report}: is not a folder"
        existing = target     # the report folder is made when missing: try the first that exists
        while not existing.exists() and existing.parent != existing:
            existing = existing.parent
        places.append(("--report", report, existing))
    for option, given, folder in places:
        try:
            with tempfile.TemporaryFile(dir=folder or "."):
                pass
        except OSError as exc:
            return f"{option} {given}: cannot write in {folder}: {exc.strerror or exc}"
    return None


def write_json(result: Mapping[str, object], out: str) -> None:
    write_output(out, json.dumps(result, indent=2, allow_nan=False))


def play_run(scenario: Scenario, plan: Plan, bot: str, args: argparse.Namespace, workers: int,
             fold: Fold, label: str = "races") -> RunOutcome:
    """Run a plan with the progress bar, its results handed to `fold` chunk
    by chunk (runner.py); returns the RunOutcome. (Its result's statistics
    need scipy.special: imported while the workers start or play.)"""
    from rallyforge.engine.analysis import stats
    from rallyforge.engine.analysis.balance.play import RaceTask
    from rallyforge.engine.analysis.balance.progress import ProgressBar
    from rallyforge.engine.analysis.balance.runner import run
    task = RaceTask(scenario, bot, max_rounds=args.max_rounds)
    bar = None if args.quiet else ProgressBar(label)
    try:
        return run(task, plan.jobs, workers=workers, scheduler=args.scheduler, progress=bar,
                   meanwhile=stats.prepare, fold=fold)
    finally:
        if bar is not None:
            bar.close()


def run(args: argparse.Namespace) -> int:
    from rallyforge.engine.analysis.balance.runner import BackendError, default_workers, start_workers_soon
    second_ctrl_c_quits()
    start_workers_soon(args.workers or default_workers(), args.scheduler)   # (first: see there)
    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.analysis.balance.plan import make_plan
    from rallyforge.engine.analysis.balance.play import with_options
    from rallyforge.engine.analysis.balance.progress import ProgressBar
    from rallyforge.engine.analysis.balance.report import markdown, write_report
    clash = output_clash({"--json": args.json_out, "--report": args.report}, [args.file])
    if clash:
        return error(clash, 2)
    scenario = load(args.file)
    if scenario is None:
        return 1
    scenario = with_options(scenario, args.options)
    why = unwritable(args.json_out, args.report)
    if why:
        return error(why, 1)
    try:
        s = settings(args, scenario)
        make_plan(args.races, s["players"], len(scenario.docks), args.seed, args.trials,
                  s["seating"])
    except (UsageError, ValueError) as exc:
        return error(str(exc), 2)
    bar = None if args.quiet else ProgressBar("races")
    try:
        result = balance(scenario, args.races, s["players"], s["bot"], args.seed,
                         seating=s["seating"], workers=s["workers"], scheduler=args.scheduler, trials=args.trials,
                         max_rounds=args.max_rounds, progress=bar)
    except BackendError as exc:
        return error(str(exc), 2 if exc.usage else 1)
    finally:
        if bar is not None:
            bar.close()
    if result["cancelled"]:
        print(f"stopped: {result['races']} of {result['planned']} races played", file=sys.stderr)
    try:
        if args.json_out:
            write_json(result, args.json_out)
        if args.report:
            write_report(result, args.report, scenario)
    except OSError as exc:
        return error(f"cannot write the output: {exc.strerror or exc}", 1)
    if args.json_out != STDOUT:
        text = markdown(result, charts=False)
        write_line(text.split("## Time trial")[0].split("## Legs")[0].rstrip())
    return 130 if result["cancelled"] else 0
