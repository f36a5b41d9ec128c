"""`rallyforge published [ID -o FILE]`: the 34 courses of the game's 2005 course
manual (engine/editing/published/).

Without an id it lists them in the manual's order: id, name, players, printed
length and difficulty, and special rules. With an id and ``-o FILE`` it writes
that course as a new file. The team courses are listed and written, but not
raced yet (card, balance and run say so).

Exit codes: 0 listed or written; 1 an unknown id, an output file that is one of
the library's own or cannot be written; 2 bad usage (an id without -o, or -o
without an id).
"""
from __future__ import annotations

import argparse
import os
import sys

from rallyforge.engine.cli.common import write_course, write_line
from rallyforge.engine.editing.published_courses import FOLDER, PublishedError, entries, find


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?",
                        help="a course's id, as the list shows it (default: none, list them)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="the course file to write (required with an id; default: none)")


def run(args: argparse.Namespace) -> int:
    if args.id is None:
        if args.output:
            print("rallyforge published: error: -o needs a course id", file=sys.stderr)
            return 2
        listing()
        return 0
    if not args.output:
        print("rallyforge published: error: give -o FILE to write the course", file=sys.stderr)
        return 2
    try:
        entry = find(args.id)
    except PublishedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if _is_library_file(args.output):
        print(f"{args.output}: error: that is a file of the library itself; write the course "
              f"somewhere else", file=sys.stderr)
        return 1
    if not write_course(args.output, entry.path.read_text("utf-8")):
        return 1
    print(f"{args.output}: {entry.name} (course manual page {entry.page})"
          + (": a team course" if entry.team else ""), file=sys.stderr)
    return 0


def listing() -> None:
    rows = [("id", "name", "players", "length", "difficulty", "special rules")]
    rows += [(e.id, e.name, e.players, e.length, e.difficulty or "(team)",
              "; ".join(e.rules) or "-") for e in entries()]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for row in rows:
        write_line("  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  " + row[5])


def _is_library_file(path: str) -> bool:
    try:
        return any(os.path.samefile(path, p) for p in FOLDER.glob("*.json")) if os.path.exists(
            path) else False
    except OSError:
        return False
