"""`rallyforge export COURSE -o OUT`: the course as a picture or a Tiled map,
by the extension of OUT.

- ``.png``, ``.svg``: the editor's drawing, ``--scale`` pixels per square (64);
- ``.pdf``: printed at real size, ``--scale`` millimetres per square (25), over
  as many pages of ``--paper`` as it needs, levels readable in grey;
- ``.tmx``, ``.json``: a Tiled map for the open tileset of ``--tileset``
  (engine/format/tiled_write.py); when no tileset file of that name is next
  to it, a stand-in is written there, with its picture drawn in Rally
  Forge's style. `rallyforge import` of the map gives the course back. The
  elements the tileset cannot draw are listed as warnings with their squares.

Pictures, and a stand-in tileset's picture, need Qt's painting
(rallyforge.drawing), imported here only then: no display is needed (Qt
draws offscreen), and the editor is never loaded. Every file is written beside its place and moved
into it, so that a failure leaves no half-written file.

Exit codes: 0 written; 1 the course cannot be read, or a file cannot be
written; 2 bad usage (an unknown extension, an option of the other kind of
output, the output is the course).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from rallyforge.engine.cli.common import count, output_clash
from rallyforge.engine.format.loader import read_file, write_text_atomic
from rallyforge.engine.format.tiled.tilesets import clients
from rallyforge.engine.format.tiled_write import FORMATS, tileset_path, write_map
from rallyforge.engine.model.problems import problem_line
from rallyforge.engine.model.scenario import Scenario

PICTURES = (".png", ".svg", ".pdf")
DEFAULT_CLIENT = "blodige-roboter"
DEFAULT_SCALE = {".png": 64.0, ".svg": 64.0, ".pdf": 25.0}
SCALE_RANGE = {".png": (1.0, 1000.0), ".svg": (1.0, 1000.0), ".pdf": (1.0, 500.0)}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("course", metavar="COURSE", help="a course file")
    parser.add_argument("-o", "--output", metavar="OUT", required=True,
                        help="the file to write: .png, .svg, .pdf, .tmx or .json (Tiled)")
    parser.add_argument("--scale", type=float, metavar="N",
                        help="pictures: pixels per square for .png and .svg (default 64), "
                             "millimetres per square for .pdf (default 25)")
    parser.add_argument("--grid", action=argparse.BooleanOptionalAction, default=None,
                        help="pictures: draw the squares' grid lines (default: drawn)")
    parser.add_argument("--no-robots", action="store_true",
                        help="pictures: leave out the course's robots where they start")
    parser.add_argument("--paper", choices=("A4", "Letter", "A3"),
                        help="pictures: the paper of a .pdf, A4, Letter or A3 (default A4)")
    parser.add_argument("--tileset", choices=sorted(clients()),
                        help="Tiled maps: the client whose open tileset draws the map, "
                             f"{' or '.join(sorted(clients()))} (default {DEFAULT_CLIENT})")


class _Unwritten(Exception):
    """A file of the export (the picture, the map, its tileset or the
    tileset's picture) could not be written."""

    def __init__(self, path: str | Path, reason: str):
        super().__init__(path, reason)
        self.path, self.reason = path, reason


def _writing(path: str | Path, write: Callable[[], object]) -> None:
    """Write a file (write() does), naming it when that fails."""
    try:
        write()
    except OSError as exc:
        raise _Unwritten(path, exc.strerror or str(exc)) from None


def _usage(message: str) -> int:
    print(f"rallyforge export: error: {message}", file=sys.stderr)
    return 2


def _misused(args: argparse.Namespace, suffix: str) -> str | None:
    """Why the options do not go with the output (None when they do)."""
    if suffix not in PICTURES + FORMATS:
        return (f"-o {args.output}: the name must end in .png, .svg, .pdf, .tmx or .json"
                + (f", not {suffix}" if suffix else ""))
    if suffix in FORMATS:
        given = [name for name, value in (("--scale", args.scale), ("--grid", args.grid),
                                          ("--no-robots", args.no_robots or None),
                                          ("--paper", args.paper)) if value is not None]
        if given:
            return f"{', '.join(given)} go with pictures (.png, .svg, .pdf), not a Tiled map"
        return None
    if args.tileset:
        return "--tileset goes with Tiled maps (.tmx, .json), not pictures"
    if args.paper and suffix != ".pdf":
        return "--paper goes with .pdf"
    low, high = SCALE_RANGE[suffix]
    if args.scale is not None and not low <= args.scale <= high:
        return f"--scale {args.scale:g}: a {suffix} takes {low:g} to {high:g}"
    return None


def run(args: argparse.Namespace) -> int:
    suffix = Path(args.output).suffix.lower()
    misuse = _misused(args, suffix) or output_clash({"-o": args.output}, [args.course])
    if misuse:
        return _usage(misuse)
    scenario, problems = read_file(args.course)
    errors = [p for p in problems if p.is_error]
    if scenario is None or errors:          # (the course's own errors, as validate lists them)
        for problem in errors:
            print(problem_line(args.course, problem), file=sys.stderr)
        return 1
    try:
        if suffix in FORMATS:
            _tiled(args, scenario, suffix)
        else:
            _picture(args, scenario, suffix)
    except _Unwritten as exc:
        print(f"{exc.path}: error: cannot write it ({exc.reason})", file=sys.stderr)
        return 1
    except ValueError as exc:        # a picture too large for an image
        print(f"{args.output}: error: {exc}", file=sys.stderr)
        return 1
    return 0


def _picture(args: argparse.Namespace, scenario: Scenario, suffix: str) -> None:
    # The drawing (and Qt) is imported only where a picture is drawn (pyproject.toml,
    # the import contracts' ignore_imports).
    from rallyforge.drawing import pictures
    scale = args.scale if args.scale is not None else DEFAULT_SCALE[suffix]
    look = pictures.Look(grid=args.grid is not False, robots=not args.no_robots)
    _writing(args.output, lambda: pictures.export(scenario, args.output, square_mm=scale,
                                                  square_px=round(scale),
                                                  paper=args.paper or "A4", look=look))
    print(f"{args.course}: exported to {args.output}", file=sys.stderr)


def _tiled(args: argparse.Namespace, scenario: Scenario, suffix: str) -> None:
    mapping = clients()[args.tileset or DEFAULT_CLIENT]
    written = write_map(scenario, mapping, suffix, args.output)
    tileset = tileset_path(args.output, written)
    kept = tileset.exists()       # the client's own, or one written before: left as it is
    if not kept:
        # The stand-in's picture is drawn in Rally Forge's style (the drawing: Qt,
        # as for pictures), so that Tiled shows the map with nothing missing.
        from rallyforge.drawing import pictures
        image = tileset.with_name(written.atlas.image)
        _writing(image, lambda: pictures.export_tileset_image(written.atlas, image))
        _writing(tileset, lambda: write_text_atomic(tileset, written.tileset_text))
    _writing(args.output, lambda: write_text_atomic(args.output, written.map_text))
    for notice in written.warnings:
        print(notice.line(args.output), file=sys.stderr)
    print(f"{args.course}: exported to {args.output} for the "
          f"{args.tileset or DEFAULT_CLIENT} tileset ({tileset.name} "
          f"{'kept' if kept else 'written'} beside it); "
          f"{count(len(written.warnings), 'element')} the tileset cannot draw travel in "
          "its objects",
          file=sys.stderr)
