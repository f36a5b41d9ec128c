"""`rallyforge run FILE [--seed N] [--robots K] [--bot NAME] [--rounds N] [--json] [--events [--words]]`

Plays a scenario: its scripted robots, or when it lists none, K bots on
docks 1..K. Text output is a readable summary; ``--json`` prints

    {"scenario", "seed", "rounds", "winners": [names],
     "robots": [{"name", "x", "y", "facing", "damage", "lives", "flags", "alive",
                 "out", "powered_down", "options", "option_cards": [ids], "archive": {"x", "y"},
                 "finished": {"round", "register"} or null, "deaths"}],
     "checks": [{"index", "passed", "expected", "actual"}]}

with "events" (engine/model/events.py) added by ``--events``. As text, ``--events``
prints one ``key=value`` line per event before the summary; with ``--words``
each event reads as in the editor's race log (engine/analysis/narration.py):
its moment (round·register) and a sentence. A robot not on the
board has x, y and facing null. Exit code 0, or 1 when the file is invalid
or one of its checks fails, 2 for bad usage (on stderr: an unknown option, more
robots than docks).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
from typing import NotRequired

from rallyforge.engine.analysis.narration import log_line
from rallyforge.engine.analysis.scenario_checks import CheckDoc, CheckResult, play_checked
from rallyforge.engine.bots import BOTS, DEFAULT_BOT, new_race
from rallyforge.engine.cli.balance import UsageError, error, robots_fit
from rallyforge.engine.cli.common import bot_help, positive, write_line
from rallyforge.engine.model.events import Event
from rallyforge.engine.model.problems import problem_line
from rallyforge.engine.rules.outcome import Outcome, OutcomeDoc
from rallyforge.engine.validation.validator import read_valid_file


class RunDoc(OutcomeDoc):
    """The `rallyforge run --json` document."""
    checks: list[CheckDoc]
    events: NotRequired[list[dict[str, object]]]       # with --events


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a scenario file")
    parser.add_argument("--seed", type=int, default=0, help="the race's seed (default 0)")
    parser.add_argument("--robots", type=positive, metavar="K",
                        help="bots on docks 1..K when the file lists no robots "
                             "(default: every dock, at most 8)")
    parser.add_argument("--bot", choices=sorted(BOTS), default=DEFAULT_BOT, metavar="NAME",
                        help=bot_help("the bot of those robots"))
    parser.add_argument("--rounds", type=positive, metavar="N",
                        help="stop after N rounds (default: the scenario's max_rounds)")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.add_argument("--events", action="store_true", help="include the event log")
    parser.add_argument("--words", action="store_true",
                        help="with --events: each event in words, as the editor's race log "
                             "reads")


def run(args: argparse.Namespace) -> int:
    if args.words and (not args.events or args.json):
        return error("--words goes with --events, without --json", 2)
    scenario, problems = read_valid_file(args.file)
    if scenario is None:                # it has errors
        for p in problems:
            if p.is_error:
                write_line(problem_line(args.file, p))
        return 1
    if args.robots is not None and not scenario.robots:
        try:
            robots_fit(args.robots, scenario)
        except UsageError as exc:
            return error(str(exc), 2)
    if args.rounds is not None:
        scenario = dataclasses.replace(
            scenario, rules=dataclasses.replace(scenario.rules, max_rounds=args.rounds))
    try:
        race = new_race(scenario, seed=args.seed, robot_count=args.robots, bot=args.bot,
                    record_events=args.events)
    except ValueError as exc:
        write_line(f"{args.file}: {exc}")
        return 1
    checks = play_checked(race, scenario.checks, to_end=True)
    outcome = race.outcome()
    events = race.events if race.events is not None else ()     # with --events
    if args.json:
        doc: RunDoc = {**outcome.to_json(), "checks": [c.to_json() for c in checks]}
        if args.events:
            doc["events"] = [e.to_json() for e in events]
        write_line(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        for event in events:
            write_line(log_line(event) if args.words else _event_line(event))
        for line in _summary(outcome, checks):
            write_line(line)
    return 1 if any(not c.passed for c in checks) else 0


def _summary(outcome: Outcome, checks: list[CheckResult]) -> list[str]:
    finishes = [f for name in outcome.winners if (f := outcome.robot(name).finished)]
    if outcome.winners:
        who = " and ".join(outcome.winners)
        if outcome.teams:
            who = f"{' and '.join('Team ' + t for t in outcome.teams)} ({who})"
        when = (f"round {min(finishes)[0]}, register {min(finishes)[1]}" if finishes
                else f"round {outcome.rounds}")
        head = f"{who} won in {when}"
    else:
        head = f"undecided after {outcome.rounds} round{'s' * (outcome.rounds != 1)}"
    lines = [f"{outcome.scenario} (seed {outcome.seed}): {head}"]
    width = max((len(r.name) for r in outcome.robots), default=0)
    for r in outcome.robots:
        where = f"({r.x}, {r.y}) {r.facing}" if r.alive else "off the board"
        state = ("out" if r.out else f"finished round {r.finished[0]} register {r.finished[1]}"
                 if r.finished else "powered down" if r.powered_down else "racing")
        lines.append(f"  {r.name:<{width}}  {where:<12}  flags {r.flags}  damage {r.damage}  "
                     f"lives {r.lives}  deaths {r.deaths}  options {r.options}  {state}")
    if checks:
        passed = sum(c.passed for c in checks)
        lines.append(f"checks: {passed} of {len(checks)} passed")
        lines.extend("  FAIL " + c.describe() for c in checks if not c.passed)
    return lines


def _event_line(event: Event) -> str:
    where = f"round {event.round}" + (f" register {event.register}" if event.register else "")
    rest = " ".join(f"{k}={v}" for k, v in event.to_json().items()
                    if k not in ("round", "register", "step", "kind", "robot"))
    who = f" {event.robot}" if event.robot else ""
    return f"{where} {event.step}: {event.kind}{who} {rest}".rstrip()
