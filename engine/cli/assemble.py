"""`rallyforge assemble BOARD[:TURN] ... --bay BAY[:TURN] -o COURSE.json`: a
course from library boards (engine/editing/boards/), as File > New from Boards
makes it.

BOARD is a library board's file name without .json (``chess``,
``docking-bay-1``) or the path of a course file; TURN is how far it is
turned clockwise: 0, 90, 180 or 270 degrees. The boards are laid out as
``--arrangement`` says (side by side, stacked, or two by two for four
boards), the bay below them with its docks. ``--flag X,Y`` (in order, any
number) places the flags; without any the course is written with none, ready
for flags in the editor, and says so.

Every board file is validated as it is read, and the course as it would be
written, with the messages of ``validate``: a board with errors, or a course
with errors other than having no flags (or docks) yet, is not written.

Exit codes: 0 written (a course without flags too); 1 a board that is not in
the library or has errors, boards that do not fit on one course (at most
100 squares each way), a flag off the board, a course with errors, or the
file cannot be written; 2 bad usage (the output is one of the boards, a
name that is not UTF-8 text).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from rallyforge.engine.cli.common import (STDOUT, count, output_clash, utf8_text, valid_course,
                                          write_course)
from rallyforge.engine.editing.library import (ARRANGEMENTS, LibraryError, assemble as build,
                                              course_name, find, is_bay)
from rallyforge.engine.format.file_names import stem_text
from rallyforge.engine.format.loader import dumps
from rallyforge.engine.model.problems import problem_line
from rallyforge.engine.model.scenario import Flag
from rallyforge.engine.validation.validator import validate_data

TURNS = {"0": 0, "90": 1, "180": 2, "270": 3}


def _board(text: str) -> tuple[str, int]:
    name, _, turn = text.partition(":")
    if turn and turn not in TURNS:
        raise argparse.ArgumentTypeError(f"{text!r}: the turn is 0, 90, 180 or 270 degrees")
    return name, TURNS.get(turn, 0)


def _square(text: str) -> tuple[int, int]:
    try:
        x, y = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a square X,Y") from None
    return x, y


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("boards", nargs="+", type=_board, metavar="BOARD[:TURN]",
                        help="a library board (its file name without .json) or a course file, "
                             "turned 0, 90, 180 or 270 degrees clockwise")
    parser.add_argument("--bay", type=_board, metavar="BAY[:TURN]",
                        help="the docking bay, below the boards (its docks are the course's; "
                             "default: none, the course has no docks)")
    parser.add_argument("--arrangement", choices=ARRANGEMENTS, default="side",
                        help="side (west to east, default), stack (north to south) or grid "
                             "(two by two, four boards)")
    parser.add_argument("--flag", type=_square, action="append", default=[], metavar="X,Y",
                        help="a flag, in order (repeat for each; default: none)")
    parser.add_argument("--name", default=None, type=utf8_text,
                        help="the course's name (default: the boards' names, joined by a plus sign)")
    parser.add_argument("-o", "--output", required=True, metavar="COURSE",
                        help="the course file to write ('-' for stdout; never one of the boards)")


# The course as assembled before the designer places its markers: flags (and,
# without a bay, docks) come later, in the editor or with --flag. These
# errors of ``validate`` do not stop it being written.
NOT_YET = {("E106", "/flags"), ("E106", "/docks")}


def run(args: argparse.Namespace) -> int:
    try:
        paths = [(find(name), turn) for name, turn in args.boards]
        bay_path = find(args.bay[0]) if args.bay else None
    except LibraryError as exc:
        print(f"rallyforge: error: {exc}", file=sys.stderr)
        return 1
    clash = output_clash({"-o": args.output},
                         [str(p) for p, _ in paths] + ([str(bay_path)] if bay_path else []))
    if clash:
        print(f"rallyforge: error: {clash}", file=sys.stderr)
        return 2
    read = {str(p): valid_course(str(p), "nothing assembled") for p in {p for p, _ in paths}}
    if bay_path is not None:
        read[str(bay_path)] = valid_course(str(bay_path), "nothing assembled")
    courses = {path: scenario for path, scenario in read.items() if scenario is not None}
    if len(courses) < len(read):
        return 1
    boards = [(courses[str(p)], turn) for p, turn in paths]
    bay = None
    if bay_path is not None:
        if not is_bay(bay_path):
            print(f"warning: {bay_path.stem} is not a docking bay; its docks are used",
                  file=sys.stderr)
        bay = (courses[str(bay_path)], args.bay[1])
    name = args.name or course_name([stem_text(n) for n, _ in args.boards])
    try:
        course = build(boards, bay, args.arrangement, name)
    except LibraryError as exc:
        print(f"rallyforge: error: {exc}", file=sys.stderr)
        return 1
    b = course.board
    off = [(x, y) for x, y in args.flag if not (0 <= x < b.width and 0 <= y < b.height)]
    if off:
        print(f"error: flag at {off[0]} is off the {b.width} x {b.height} board", file=sys.stderr)
        return 1
    course = replace(course, flags=tuple(Flag(x, y) for x, y in args.flag))
    text = dumps(course)
    shown = "(course)" if args.output == STDOUT else args.output
    problems = validate_data(json.loads(text))
    for p in problems:
        if not p.accepted:      # accepted: as printed on the library's boards
            print(problem_line(shown, p), file=sys.stderr)
    if any(p.is_error and (p.code, p.pointer) not in NOT_YET for p in problems):
        print(f"rallyforge: error: the assembled course has errors; {shown} not written",
              file=sys.stderr)
        return 1
    if not write_course(args.output, text):
        return 1
    print(f"{shown}: {b.width} x {b.height} squares, {count(len(course.docks), 'dock')}, "
          f"{count(len(course.flags), 'flag')}", file=sys.stderr)
    if not course.flags:
        print(f"{shown}: no flags yet: place them in the editor (or with --flag X,Y)",
              file=sys.stderr)
    return 0
