"""`rallyforge import MAP.tmx|MAP.json [-o COURSE.json]`: read a Tiled map
as a course.

The meaning of each tile comes from the tileset mappings shipped in
engine/format/tiled/tilesets/; a map written by `rallyforge export` gives
back the whole course (engine/format/tiled_read.py). Every tile the mappings do not know is reported as
a warning naming its square and tile id, and its square is left empty.
Without ``-o`` (or with ``-o -``) the course is printed; with it, written
(atomically; never onto the map itself). Then a summary line on standard
error, and the validator's problems with the course if it has any.

Exit codes: 0 imported, and the course validates; 1 the file is not a map
this reads (not orthogonal, not a map, unreadable), the course cannot be
written, or it was written but has errors (a flag nobody can reach as the
map draws it, ...); 2 bad usage (the output is the map).
"""
from __future__ import annotations

import argparse
import json
import sys

from rallyforge.engine.cli.common import STDOUT, count, output_clash, write_course
from rallyforge.engine.format.loader import dumps
from rallyforge.engine.format.tiled.mapfile import MapError
from rallyforge.engine.format.tiled_read import import_course
from rallyforge.engine.model.problems import problem_line
from rallyforge.engine.validation.validator import validate_data


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("map", metavar="MAP", help="a Tiled map: .tmx or Tiled .json")
    parser.add_argument("-o", "--output", metavar="COURSE",
                        help="write the course here (default, or '-': print it)")


def run(args: argparse.Namespace) -> int:
    clash = output_clash({"-o": args.output}, [args.map])
    if clash:
        print(f"rallyforge: error: {clash}", file=sys.stderr)
        return 2
    try:
        imported = import_course(args.map)
    except MapError as exc:
        print(f"{args.map}: error: {exc}", file=sys.stderr)
        return 1
    text = dumps(imported.scenario)
    if not write_course(args.output or STDOUT, text):
        return 1
    for notice in imported.warnings:
        print(notice.line(args.map), file=sys.stderr)
    problems = validate_data(json.loads(text))
    for p in problems:
        if not p.accepted:      # accepted: as the published map draws it
            print(problem_line(args.output if args.output not in (None, STDOUT) else "(course)", p),
                  file=sys.stderr)
    b = imported.scenario.board
    notes = sum(n.choice for n in imported.warnings)
    things = ((len(b.tiles), "element"), (len(b.walls), "wall"), (len(b.lasers), "laser"),
              (len(b.pushers), "pusher"), (len(imported.scenario.flags), "flag"),
              (len(imported.scenario.docks), "dock"))
    print(f"{args.map}: {b.width} x {b.height} squares, "
          + ", ".join(count(n, word) for n, word in things)
          + f"; {count(notes, 'note')}, {count(len(imported.warnings) - notes, 'warning')}",
          file=sys.stderr)
    return 1 if any(p.is_error for p in problems) else 0
