"""Planted courses: a fair example course made unfair by one edit, to see
whether ``suggest`` finds the edit that undoes it.

- dock-forward: the last dock the races seat (dock 4 of 4 robots: docks 1..k
  race, as the game seats players) moved to about 3 squares before flag 1;
- flag-by-dock: flag 1 moved to 2 squares in front of dock 1;
- wall-blocks-dock: a wall added on a side of a seated dock's square, the one
  that delays that dock most (in the lone-robot model's steps to flag 1).

``plant(scenario, how)`` makes one; ``python -m bench.planted COURSE HOW OUT``
writes it.

``python -m bench.planted measure [COURSE ...] [--budget RACES] [--workers W]``
measures suggest on every plant of the example courses named, or of course
files given by their paths (default: every example course):
it plants the course, runs ``suggest`` on it (seed 0, timed on the wall
clock), applies the top suggestion, and balances the original, planted and
fixed courses on fresh seeds (800 races of 4 robots, seed 9001), printing a
table row per plant: the gap between the best and worst docks' win rates
(original -> planted -> after), the cut of the planted gap and of its excess
over the original's, the search's seconds with the load average over the last
minute as it ends (above 2, other work shared the 2 cores), its races, the
candidates screened and raced, and the top suggestion. A plant counts only
when it makes a clear unfairness: its gap above the original's by more than
CLEAR standard errors of the difference between two docks' win rates on those
races; the others are listed as such. The goal: every counted plant's gap cut
at least in half, each search under 2 minutes on 2 workers.
"""
from __future__ import annotations

import argparse
import math
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path

PLANTS = ("dock-forward", "flag-by-dock", "wall-blocks-dock")
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FRESH_SEED = 9001           # the measuring balance's seed; the search uses seed 0
FRESH_RACES = 800
ROBOTS = 4
CLEAR = 2.0                 # standard errors of a difference that make a plant count


def plant(s, how: str):
    """The course `s` with the edit `how` (one of PLANTS), and that edit."""
    from rallyforge.engine.analysis.suggest.candidates import FLAG_SQUARES, is_acceptable
    from rallyforge.engine.analysis.suggest.edits import Edit, apply_all
    from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES
    dock = s.docks[0]
    if how == "wall-blocks-dock":
        tries = sorted((Edit("add_wall", ((d.x, d.y), side)) for d in s.docks[:ROBOTS]
                        for side in NAMES
                        if not s.board.has_wall(d.x, d.y, side)),
                       key=lambda e: -_delay(s, e))
    elif how == "flag-by-dock":
        d = INDEX[dock.facing]
        here = (s.flags[0].x, s.flags[0].y)
        ahead = [(dock.x + DX[d] * 2 + DX[(d + 1) & 3] * side, dock.y + DY[d] * 2 + DY[(d + 1) & 3] * side)
                 for side in (0, 1, -1)]
        tries = [Edit("move_flag", (1, here, q)) for q in ahead
                 if s.board.in_bounds(*q) and s.board.type_at(*q) in FLAG_SQUARES]
    elif how == "dock-forward":
        number = min(ROBOTS, len(s.docks))     # the last seat the measuring races use
        last = s.docks[number - 1]
        flag = s.flags[0]
        mx = sum(d.x for d in s.docks) / len(s.docks)
        my = sum(d.y for d in s.docks) / len(s.docks)
        squares = [(x, y) for x in range(s.board.width) for y in range(s.board.height)
                   if s.board.type_at(x, y) == "floor"]
        squares.sort(key=lambda q: (abs(abs(q[0] - flag.x) + abs(q[1] - flag.y) - 3),
                                    abs(q[0] - mx) + abs(q[1] - my)))
        tries = [Edit("move_dock", (number, (last.x, last.y), q)) for q in squares]
    else:
        raise ValueError(how)
    for edit in tries:
        if is_acceptable(s, (edit,)):
            planted = apply_all(s, (edit,))
            return replace(planted, name=f"{s.name} (planted: {edit.words})"), edit
    raise ValueError(f"no acceptable {how} edit on {s.name}")


def _delay(s, wall) -> float:
    """How many steps more the wall's dock needs to flag 1 than before,
    less the most it delays any other dock (engine/analysis/suggest/screen.py)."""
    from rallyforge.engine.analysis.suggest.edits import apply_all
    from rallyforge.engine.analysis.suggest.screen import sight
    before, after = sight(s).leads, sight(apply_all(s, (wall,))).leads
    changes = [b - a for a, b in zip(before, after)]
    mine = next(i for i, d in enumerate(s.docks) if (d.x, d.y) == wall.args[0])
    return changes[mine] - max((c for i, c in enumerate(changes) if i != mine), default=0)


@dataclass(frozen=True)
class Row:
    """One plant measured (gaps as shares, 0.06 for 6 points)."""
    course: str
    plant: str
    edit: str               # the planting edit, in words
    original: float
    planted: float
    after: float
    seconds: float          # the search's wall time
    load: float             # the load average over the last minute as it ended
    races: int
    screened: int
    raced: int
    top: str                # the top suggestion's words, "" when none

    @property
    def clear(self) -> bool:
        """Whether the plant made a clear unfairness (see the module notes)."""
        n = FRESH_RACES             # races of each seat (docks 1..ROBOTS race in every race)
        p = 1 / ROBOTS
        return self.planted - self.original > CLEAR * math.sqrt(2 * p * (1 - p) / n)

    @property
    def cut(self) -> float:
        return 1 - self.after / self.planted if self.planted else 0.0

    @property
    def excess_cut(self) -> float:
        excess = self.planted - self.original
        return (self.planted - self.after) / excess if excess > 0 else 0.0


def gap(scenario, workers: int) -> float:
    """The gap between the best and worst docks' win rates on a fresh balance run."""
    from rallyforge.engine.analysis.balance import balance
    result = balance(scenario, FRESH_RACES, robots=ROBOTS, seed=FRESH_SEED, workers=workers,
                     trials=1)
    rates = [d["win_rate"] for d in result["docks"] if d["races"]]
    return max(rates) - min(rates)


def course_path(course: str) -> Path:
    """An example course by name ("tutorial"), or any course file by its path."""
    return Path(course) if course.endswith(".json") else SCENARIOS / f"{course}.json"


def measure(course: str, how: str, budget: int, workers: int,
            original: float | None = None) -> Row:
    """Plant `how` on the example course `course`, search, apply the top
    suggestion and balance the three versions (`original`: the original's
    gap, when already measured)."""
    from rallyforge.engine.analysis.suggest import applied, suggest
    from rallyforge.engine.format.loader import load_file
    scenario = load_file(course_path(course))
    planted, edit = plant(scenario, how)
    wall = time.perf_counter()
    result = suggest(planted, budget=budget, workers=workers)
    wall = time.perf_counter() - wall
    load = os.getloadavg()[0]
    top = result["suggestions"][0] if result["suggestions"] else None
    before = gap(planted, workers)
    return Row(Path(course).stem, how, edit.words,
               gap(scenario, workers) if original is None else original, before,
               gap(applied(planted, top), workers) if top else before, wall, load,
               result["races"], result["screened"], result["candidates"],
               "; ".join(e["words"] for e in top["edits"]) if top else "")


HEADER = ("| course | plant | gap: original → planted → after (points) | cut | of the excess "
          "| search s (load) | races | screened / raced | top suggestion |\n"
          "|---|---|---|---|---|---|---|---|---|")


def line(row: Row) -> str:
    points = f"{100 * row.original:.1f} → {100 * row.planted:.1f} → " + (
        f"{100 * row.after:.1f}" if row.top else "no suggestion")
    cut, excess = (f"{100 * row.cut:.0f}%", f"{100 * row.excess_cut:.0f}%") if row.clear else \
        ("no clear unfairness", "")
    return (f"| {row.course} | {row.plant} ({row.edit}) | {points} | {cut} | {excess} | "
            f"{row.seconds:.0f} ({row.load:.1f}) | {row.races} | {row.screened} / {row.raced} | "
            f"{row.top or 'none'} |")


def summary(rows: list[Row]) -> str:
    counted = [r for r in rows if r.clear]
    halved = [r for r in counted if r.cut >= 0.5]
    slowest = max(rows, key=lambda r: r.seconds)
    return (f"{len(halved)} of the {len(counted)} plants that made a clear unfairness had their gap "
            f"cut at least in half ({len(rows) - len(counted)} made none); the slowest search took "
            f"{slowest.seconds:.0f} s ({slowest.course}, {slowest.plant}; goal: under 120 s)")


def measure_all(pairs: list[tuple[str, str]], budget: int, workers: int) -> list[Row]:
    """Measure each (course, plant) pair, printing the table as it goes."""
    print(HEADER, flush=True)
    originals: dict[str, float] = {}
    rows = []
    for course, how in pairs:
        row = measure(course, how, budget, workers, originals.get(course))
        originals[course] = row.original
        rows.append(row)
        print(line(row), flush=True)
    print(summary(rows), flush=True)
    return rows


def arguments(prog: str, pairs_help: str) -> argparse.ArgumentParser:
    from rallyforge.engine.analysis.suggest import DEFAULT_BUDGET
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("names", nargs="*", help=pairs_help)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--workers", type=int, default=2)
    return parser


def main(argv: list[str]) -> None:
    if argv[:1] == ["measure"]:
        parser = arguments("python -m bench.planted measure",
                           "example courses by name, or course files (default: all of "
                           "scenarios/)")
        args = parser.parse_args(argv[1:])
        known = sorted(p.stem for p in SCENARIOS.glob("*.json"))
        unknown = [c for c in args.names if c not in known and not course_path(c).is_file()]
        if unknown:
            parser.error(f"no example course {', '.join(unknown)} (known: {', '.join(known)})")
        courses = args.names or known
        measure_all([(c, how) for c in courses for how in PLANTS], args.budget, args.workers)
        return
    from rallyforge.engine.format.loader import load_file, save_file
    course, how, out = argv
    planted, edit = plant(load_file(course), how)
    save_file(planted, out)
    print(f"{out}: {edit.words}")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
