"""The course card: how soon the editor's live estimate follows an edit,
and how long `rallyforge card` takes on every published course.

Goal (issue 13): the card refreshed within 3 s of the last edit on the
standard course on 2 cores. Measured through the editor itself (offscreen):
the Course Card panel shown, a pit painted, undone and redone, each time
from the edit to the panel showing the new course's estimate (its quiet time
after the edit, the error check and ESTIMATE_RACES races on its worker
thread, while the window keeps answering).

Goal (issue 33): `rallyforge card FILE --races 1000 --workers 2 --bot search`
within 5 s on every published course (engine/editing/published/): a table of
each course's wall and CPU seconds (the command and its workers) and the
engine that raced it ("compiled": engine/rules/compiled, "python").

    python -m bench.bench_course_card [COURSE] [--published-only | --no-published]
                                      [--only ID]...
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from bench import course_and_runs


def estimate_seconds(scenario) -> list[float]:
    from bench.bench_editor import _close, _wait, _window
    from rallyforge.editor import commands
    from rallyforge.editor.course_card_panel import ESTIMATE
    from rallyforge.engine.format.stored_course_card import play_hash
    from rallyforge.engine.model.scenario import Tile
    window = _window(scenario=scenario)
    panel = window.card_panel
    panel.parentWidget().raise_()

    def estimated() -> bool:
        return panel.state == ESTIMATE and panel.card["play_hash"] == play_hash(window.doc.scenario)

    try:
        _wait(estimated)
        board = scenario.board
        taken = {(t.x, t.y) for t in board.tiles} | {(m.x, m.y) for m in scenario.flags + scenario.docks}
        x, y = next((x, y) for y in range(board.height) for x in range(board.width)
                    if (x, y) not in taken)
        pit = replace(scenario, board=replace(board, tiles=board.tiles + (Tile(x, y, "pit"),)))
        times = []
        for step in (lambda: commands.change(window.doc, pit, "Pit"),
                     window.doc.undo_stack.undo, window.doc.undo_stack.redo):
            step()
            times.append(_wait(estimated))
        return times
    finally:
        _close(window)


PUBLISHED = Path(__file__).resolve().parent.parent / "engine" / "editing" / "published"
CARD_RACES = 1000
CARD_GOAL_S = 5.0


def card_seconds(path: Path) -> tuple[float, float, dict]:
    """Wall and CPU seconds (the command and its workers) of `rallyforge
    card` on `path` (CARD_RACES races, 2 workers, search bots), and its card."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rallyforge.engine.cli", "card", str(path),
                           "--races", str(CARD_RACES), "--workers", "2", "--bot", "search",
                           "--json"], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)


def engine_of(path: Path, robots: int) -> str:
    """The engine that races `robots` search robots on the course of `path`."""
    from rallyforge.engine.analysis.balance.play import engine_name
    from rallyforge.engine.format.loader import load_file
    scenario = replace(load_file(path), robots=(), checks=())
    return engine_name(scenario, "search", robots)


def engine_bytecode() -> None:
    """The engine's modules compiled to bytecode now, as the first run of
    the engine (or its install) leaves them: where Python writes none
    (PYTHONDONTWRITEBYTECODE, or a file changed since), each timed card
    compiled them again, some 0.2 s of its time that no later run of a
    user's pays."""
    import compileall

    import rallyforge.engine
    for folder in rallyforge.engine.__path__:
        compileall.compile_dir(folder, quiet=1)


def published_cards(only: list[str]) -> None:
    """The card time of every published course (of those named in `only`,
    when it names any), a row each."""
    paths = sorted(p for p in PUBLISHED.glob("*.json") if not only or p.stem in only)
    engine_bytecode()
    print(f"card of every published course ({CARD_RACES} races, 2 workers, search bots; "
          f"goal: under {CARD_GOAL_S:.0f} s each)")
    print(f"  {'course':<30} {'wall s':>7} {'CPU s':>7}  engine")
    over = []
    for path in paths:
        wall, cpu, card = card_seconds(path)
        engine = engine_of(path, max(card["players"]) if card.get("players") else card["robots"])
        print(f"  {card['course']:<30} {wall:7.2f} {cpu:7.2f}  {engine}", flush=True)
        if wall > CARD_GOAL_S:
            over.append(card["course"])
    print(f"  {len(paths) - len(over)} of {len(paths)} under {CARD_GOAL_S:.0f} s"
          + (f"; over: {', '.join(over)}" if over else ""))


def _options(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--published-only", action="store_true",
                       help="time the published courses' cards, not the editor's estimate")
    which.add_argument("--no-published", action="store_true",
                       help="time the editor's estimate only")
    parser.add_argument("--only", action="append", default=[], metavar="ID",
                        help="time this published course's card (its file's name without "
                             ".json; repeatable), not every one")


def main(argv: list[str]) -> None:
    args, scenario = course_and_runs("bench_course_card", __doc__.splitlines()[0], 0, argv,
                                     _options)
    unknown = sorted(set(args.only) - {p.stem for p in PUBLISHED.glob("*.json")})
    if unknown:
        print(f"bench_course_card: no published course {', '.join(unknown)}")
        raise SystemExit(2)
    if not args.no_published:
        published_cards(args.only)
    if args.published_only or scenario is None:
        return
    from rallyforge.editor.course_card_panel import ESTIMATE_RACES
    times = estimate_seconds(scenario)
    print(f"live card estimate ({ESTIMATE_RACES} races, 1 worker thread) after the last edit, "
          f"through the editor: median {statistics.median(times):.2f} s, worst {max(times):.2f} s "
          f"of {len(times)} (goal: under 3 s)")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
