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

Exit codes: 0 written (a course without flags too); 1 a board that is not in
the library or cannot be read, a flag off the board, or the file cannot be
written; 2 bad usage.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from rallyforge.engine.cli.common import count, problem_line, write_course
from rallyforge.engine.editing.library import (ARRANGEMENTS, LibraryError, assemble as build, course_name,
                                              find, is_bay, load)
from rallyforge.engine.format.loader import dumps
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
    parser.add_argument("--name", default=None,
                        help="the course's name (default: the boards' names, joined by a plus sign)")
    parser.add_argument("-o", "--output", required=True, metavar="COURSE",
                        help="the course file to write")


def run(args: argparse.Namespace) -> int:
    try:
        boards = [(load(find(name)), turn) for name, turn in args.boards]
        bay = None
        if args.bay:
            bay_path = find(args.bay[0])
            if not is_bay(bay_path):
                print(f"warning: {bay_path.stem} is not a docking bay; its docks are used",
                      file=sys.stderr)
            bay = (load(bay_path), args.bay[1])
        name = args.name or course_name([Path(n).stem for n, _ in args.boards])
        course = build(boards, bay, args.arrangement, name)
    except LibraryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    b = course.board
    off = [(x, y) for x, y in args.flag if not (0 <= x < b.width and 0 <= y < b.height)]
    if off:
        print(f"error: flag at {off[0]} is off the {b.width} x {b.height} board", file=sys.stderr)
        return 1
    course = replace(course, flags=tuple(Flag(x, y) for x, y in args.flag))
    text = dumps(course)
    if not write_course(args.output, text):
        return 1
    print(f"{args.output}: {b.width} x {b.height} squares, {count(len(course.docks), 'dock')}, "
          f"{count(len(course.flags), 'flag')}", file=sys.stderr)
    if not course.flags:
        print(f"{args.output}: no flags yet: place them in the editor (or with --flag X,Y)",
              file=sys.stderr)
    else:
        for p in validate_data(json.loads(text)):
            if not p.accepted:      # accepted: as printed on the library's boards
                print(problem_line(args.output, p), file=sys.stderr)
    return 0
