"""`rallyforge card FILE [--robots K] [--json]`: the course card.

Plays a balance run (default 1,000 races) and prints the card: length class
and table time, difficulty class, fairness verdict, the deadliest leg and
square and the flag scores, each with its uncertainty (engine/analysis/balance/course_card.py),
then, for a course with ``goals``, whether it meets each of them. The robots
per race are the goals' unless ``--robots`` says otherwise, seated as the
game seats players (docks 1..k); ``--players A-B`` judges each count and
pools them, ``--docks rotate`` makes a what-if card of the rotation.
``--json`` prints the card as JSON (the goals' verdicts in its ``goals``);
``--store`` also keeps it in the file (key ``"card"``, with the hash of what
affects play); ``--stored`` prints the card the file keeps instead of racing,
saying when it is stale, judged against the goals the file has now.

Exit codes: 0 done; 1 the file cannot be read, is not a valid course, keeps
no card or an incomplete one (--stored) or cannot be written (--store); 2 bad
usage; 130 stopped by Ctrl+C (it says after how many races; no card is
printed or stored: a second Ctrl+C quits at once).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from rallyforge.engine.cli.balance import UsageError, error, load, second_ctrl_c_quits, settings
from rallyforge.engine.cli.common import (OPTIONS_HELP, RACES, ROBOTS_HELP, add_seating_arguments,
                               bot_help, positive, race_count, write_line)

if TYPE_CHECKING:
    from rallyforge.engine.analysis.course_card.types import CourseCard


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the scenario file")
    parser.add_argument("--robots", type=positive, metavar="K", help=ROBOTS_HELP)
    add_seating_arguments(parser)
    parser.add_argument("--races", type=race_count, default=RACES, metavar="N",
                        help=f"races to play (default: {RACES})")
    parser.add_argument("--bot", default=None, metavar="NAME", help=bot_help())
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="master seed (default 0)")
    parser.add_argument("--workers", type=positive, metavar="W",
                        help="worker processes (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the card as JSON")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--options", choices=("played", "counted"),
                      help=OPTIONS_HELP + "; a what-if card, it cannot be stored")
    what.add_argument("--store", action="store_true",
                      help="also keep the card in the file (rewrites it in canonical form)")
    what.add_argument("--stored", action="store_true",
                      help="print the card the file keeps, without racing")


def run(args: argparse.Namespace) -> int:
    from rallyforge.engine.analysis.balance.course_card import card
    from rallyforge.engine.analysis.course_card.build import damage, judged, readable
    from rallyforge.engine.format.stored_course_card import stale
    scenario = load(args.file)
    if scenario is None:
        return 1
    if args.stored:
        if scenario.card is None:
            return error(f"{args.file}: the file keeps no card (make one with --store)", 1)
        kept = scenario.card.data
        if not readable(kept):
            return error(f"{args.file}: the card the file keeps is incomplete or damaged "
                         f"({damage(kept)}; make it again with --store)", 1)
        if stale(scenario):
            print(f"rallyforge: {args.file}: warning: the stored card was measured on another "
                  "version of the course (W416)", file=sys.stderr)
        _print(judged(kept, scenario.goals, scenario.published), args.json)
        return 0
    try:
        run_settings = settings(args, scenario)
    except UsageError as exc:
        return error(str(exc), 2)
    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.analysis.balance.play import with_options
    scenario = with_options(scenario, args.options)
    second_ctrl_c_quits()
    # the card reads no time trial (one robot alone): none is played
    result = balance(scenario, args.races, run_settings["players"], run_settings["bot"],
                     args.seed, seating=run_settings["seating"], workers=run_settings["workers"],
                     trials=0)
    if result["cancelled"]:     # a card of part of the races is no card: none shown or kept
        print(f"stopped: {result['races']} of {result['planned']} races played; no card"
              + (" stored" if args.store else ""), file=sys.stderr)
        return 130
    the_card = card(scenario, result)
    if args.store:
        from rallyforge.engine.format.loader import save_file
        from rallyforge.engine.format.stored_course_card import with_card
        try:
            save_file(with_card(scenario, the_card), args.file)
        except OSError as exc:
            return error(f"{args.file}: cannot write the card: {exc.strerror or exc}", 1)
    _print(the_card, args.json)
    if args.options and not args.json:
        write_line(f"(a what-if card: option cards {args.options})")
    return 0


def _print(the_card: CourseCard, as_json: bool) -> None:
    from rallyforge.engine.analysis.course_card.build import lines
    if as_json:
        write_line(json.dumps(the_card, indent=2, ensure_ascii=False, allow_nan=False))
        return
    for line in lines(the_card):
        write_line(line)
