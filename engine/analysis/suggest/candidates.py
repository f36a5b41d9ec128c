"""Which edits to try: the ones a designer would make, near the trouble a
first run of the course shows and far from it, thousands on a 12x16 course
(the lone-robot model screens them, engine/analysis/suggest/screen.py):

- fair docks: every dock moved to any free floor square of the docking area
  (the rows and columns the other docks span, and one more each side)
  facing any way, turned, every two docks swapped; never onto a hazard nor
  directly behind a pit; flag 1 moved anywhere within half the board; walls
  added or removed around the docks that win most and least;
- a length: every flag moved anywhere within half the board, or removed
  when there are several; walls added or removed beside them;
- deaths: the deadliest leg's flag moved, and around the squares where most
  robots die: walls, hazards made floor, the lasers whose beams cross them
  removed or shortened;
- for every goal: the last belt of each conveyor line turned, each pusher on
  the other registers.

``shortlist`` keeps, in the screen's order, the candidates whose edited
course is valid, has no warning the course did not have, and passes the
course's own checks.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from rallyforge.engine.analysis.scenario_checks import run_checks
from rallyforge.engine.analysis.suggest.edits import Edit, apply_all
from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES
from rallyforge.engine.model.scenario import Goals, Scenario
from rallyforge.engine.rules.beams import board_beams
from rallyforge.engine.validation.validator import course_problems

Square = tuple[int, int]

FLAG_SQUARES = frozenset({"floor", "repair", "upgrade"})
HAZARDS = frozenset({"pit", "crusher"})
HOT_SPOTS = 3           # the squares with most deaths whose surroundings are edited
NEAR = 2                # squares around a hot spot where its elements are looked for


@dataclass(frozen=True)
class Diagnosis:
    """What a first run says: dock win rates (dock 1 first), deaths per
    square, deaths per robot on each leg, the median race length."""
    win_rates: tuple[float, ...]
    deaths: tuple[tuple[Square, int], ...]          # most first
    leg_deaths: tuple[float, ...]
    median_rounds: float


def candidates(s: Scenario, goals: Goals, diagnosis: Diagnosis) -> list[Edit]:
    """Every candidate edit for `goals`, far ones included (thousands on a
    12x16 course), most promising source first, each once; not yet checked
    for validity (``is_acceptable``): the model screens them first."""
    proposed: list[Edit] = []
    order = sorted(range(len(diagnosis.win_rates)), key=lambda i: (-diagnosis.win_rates[i], i))
    if goals.fair:
        proposed += dock_edits(s, diagnosis.win_rates)
        if s.flags:
            proposed += flag_edits(s, 1)
        for i in order[:1] + order[-1:]:
            proposed += around(s, (s.docks[i].x, s.docks[i].y))
    if goals.length is not None or goals.rounds is not None:
        for number in range(1, len(s.flags) + 1):
            proposed += flag_edits(s, number)
            if len(s.flags) > 1:
                flag = s.flags[number - 1]
                proposed.append(Edit("remove_flag", (number, (flag.x, flag.y))))
    if goals.deaths_per_leg is not None and diagnosis.leg_deaths:
        worst = max(range(len(diagnosis.leg_deaths)), key=lambda j: diagnosis.leg_deaths[j])
        proposed += flag_edits(s, worst + 1)
    hot = [sq for sq, _ in diagnosis.deaths[:HOT_SPOTS]]
    proposed += hot_spot_edits(s, hot) + element_edits(s)
    return list(dict.fromkeys(proposed))


def shortlist(s: Scenario, ranked: Iterable[Edit], count: int,
              per_group: int | None = None, chosen: Sequence[Edit] = ()) -> list[Edit]:
    """The first `count` acceptable edits of `ranked`, at most `per_group` of
    one group (the same kind on the same dock, flag or element), so that one
    idea the model likes does not crowd out every other. `chosen`: edits
    kept already (acceptable, a shortlist's): the result begins with them,
    they count in their groups, and `ranked` is not asked for them again."""
    kept = list(chosen)[:count]
    groups: Counter[tuple[str, Any]] = Counter((e.kind, e.args[0]) for e in kept)
    if len(kept) == count:
        return kept
    before = _warnings(s)
    failing = _failing_checks(s)
    per_group = per_group or count
    for e in ranked:
        group = (e.kind, e.args[0])
        if e in kept or groups[group] >= per_group or \
                not is_acceptable(s, (e,), before, failing):
            continue
        groups[group] += 1
        kept.append(e)
        if len(kept) == count:
            break
    return kept


def _warnings(s: Scenario) -> Counter[str]:
    return Counter(p.code for p in course_problems(s) if p.severity == "warning")


def _failing_checks(s: Scenario) -> frozenset[int]:
    if not s.checks:
        return frozenset()
    return frozenset(r.index for r in run_checks(s) if not r.passed)


def is_acceptable(s: Scenario, edits: tuple[Edit, ...], before: Counter[str] | None = None,
                  failing: frozenset[int] | None = None) -> bool:
    """Whether the course edited by `edits` is valid, warns of nothing new and
    fails none of its checks that passed."""
    before = _warnings(s) if before is None else before
    failing = _failing_checks(s) if failing is None else failing
    edited = apply_all(s, edits)
    if edited == s:
        return False
    problems = course_problems(edited)
    if any(p.severity == "error" for p in problems):
        return False
    after = Counter(p.code for p in problems if p.severity == "warning")
    if any(after[code] > before[code] for code in after):
        return False
    return not edited.checks or _failing_checks(edited) <= failing


def _free(s: Scenario, square: Square, allowed: frozenset[str]) -> bool:
    b = s.board
    return (b.in_bounds(*square) and b.type_at(*square) in allowed
            and all((m.x, m.y) != square for m in s.docks + s.flags))


def _faces_pit(s: Scenario, square: Square, facing: str) -> bool:
    """Whether a dock there would stand directly behind a pit (or the edge)."""
    ahead = (square[0] + DX[INDEX[facing]], square[1] + DY[INDEX[facing]])
    return not s.board.in_bounds(*ahead) or s.board.type_at(*ahead) == "pit"


def docking_area(s: Scenario, number: int) -> list[Square]:
    """The squares where dock `number` could stand among the others: the
    rows and columns the other docks span, and one more on each side; those
    in the docks' lines first (the rows where they stand when they spread
    across, else the columns), so that of places the lone-robot model sees
    alike, one in line with the others comes before one a row ahead."""
    others = [d for i, d in enumerate(s.docks) if i != number - 1]
    if not others:
        return []
    xs, ys = [d.x for d in others], [d.y for d in others]
    across = max(xs) - min(xs) >= max(ys) - min(ys)
    lines = set(ys if across else xs)
    area = [(x, y) for y in range(min(ys) - 1, max(ys) + 2)
            for x in range(min(xs) - 1, max(xs) + 2)]
    return sorted(area, key=lambda q: q[1 if across else 0] not in lines)


def dock_edits(s: Scenario, win_rates: tuple[float, ...]) -> list[Edit]:
    """Every dock, most and least winning first: moved to any free floor
    square of the docking area facing any way, turned any way, and
    every two docks swapped. Never onto a hazard nor behind a pit."""
    order = sorted(range(len(s.docks)), key=lambda i: (
        -abs(win_rates[i] - sum(win_rates) / len(win_rates)) if len(win_rates) == len(s.docks)
        else 0, i))
    out = [Edit("swap_docks", (a + 1, b + 1)) for a, b in combinations(range(len(s.docks)), 2)]
    for i in order:
        dock = s.docks[i]
        here = (dock.x, dock.y)
        for facing in NAMES:
            if facing != dock.facing and not _faces_pit(s, here, facing):
                out.append(Edit("turn_dock", (i + 1, dock.facing, facing)))
        for to in docking_area(s, i + 1):
            if not _free(s, to, frozenset({"floor"})):
                continue
            for facing in NAMES:
                if not _faces_pit(s, to, facing):
                    out.append(Edit("move_dock", (i + 1, here, to) + (
                        () if facing == dock.facing else (facing,))))
    return out


def flag_radius(s: Scenario) -> int:
    """How far a flag may move: half the board's longer side."""
    return max(2, max(s.board.width, s.board.height) // 2)


def flag_edits(s: Scenario, number: int) -> list[Edit]:
    """Flag `number` moved to any free square within ``flag_radius`` (nearest
    first); walls added or removed beside it."""
    flag = s.flags[number - 1]
    here = (flag.x, flag.y)
    r = flag_radius(s)
    squares = sorted(((flag.x + dx, flag.y + dy) for dx in range(-r, r + 1)
                      for dy in range(-r, r + 1) if dx or dy),
                     key=lambda q: (abs(q[0] - flag.x) + abs(q[1] - flag.y), q[1], q[0]))
    out = [Edit("move_flag", (number, here, q)) for q in squares if _free(s, q, FLAG_SQUARES)]
    return out + wall_edits(s, here)


def wall_edits(s: Scenario, square: Square) -> list[Edit]:
    b = s.board
    out = []
    for side in NAMES:
        listed = any((w.x, w.y, w.side) == (*square, side) for w in b.walls)
        if listed:
            out.append(Edit("remove_wall", (square, side)))
        elif not b.has_wall(*square, side):
            out.append(Edit("add_wall", (square, side)))
    return out


def _near(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) <= NEAR and abs(a[1] - b[1]) <= NEAR


def around(s: Scenario, square: Square) -> list[Edit]:
    """Walls added or removed on `square` and the squares next to it."""
    out = wall_edits(s, square)
    for d in range(4):
        near = (square[0] + DX[d], square[1] + DY[d])
        if s.board.in_bounds(*near):
            out += wall_edits(s, near)
    return out


def hot_spot_edits(s: Scenario, hot: list[Square]) -> list[Edit]:
    """Around the squares where most robots die: walls on the square, the
    hazards near it made floor, the lasers whose beams cross it removed or
    shortened to stop before it."""
    b = s.board
    out: list[Edit] = []
    for spot in hot:
        out += wall_edits(s, spot)
        for tile in b.tiles:
            if tile.type in HAZARDS and _near((tile.x, tile.y), spot):
                out.append(Edit("clear_square", ((tile.x, tile.y), tile.type)))
        for beam in board_beams(b):
            squares = [(q % b.width, q // b.width) for q in beam.squares]
            if spot in squares:
                out.append(Edit("remove_laser", ((beam.laser.x, beam.laser.y), beam.laser.dir)))
            if spot in squares and squares.index(spot) > 0:
                length = squares.index(spot)        # the laser's square and those before spot
                out.append(Edit("shorten_laser", ((beam.laser.x, beam.laser.y), beam.laser.dir,
                                                  squares[length - 1], beam.laser.dir, length)))
    return out


def element_edits(s: Scenario) -> list[Edit]:
    """Anywhere on the board: the last belt of each conveyor line turned,
    each pusher on the other registers."""
    b = s.board
    out: list[Edit] = []
    for tile in b.tiles:
        if tile.type == "conveyor" and tile.dir and _line_end(s, (tile.x, tile.y)):
            d = INDEX[tile.dir]
            for new in (NAMES[(d + 1) & 3], NAMES[(d + 3) & 3]):
                out.append(Edit("turn_belt", ((tile.x, tile.y), tile.dir, new)))
    for p in b.pushers:
        other = (2, 4) if p.phases == (1, 3, 5) else (1, 3, 5)
        out.append(Edit("pusher_registers", ((p.x, p.y), p.phases, other)))
    return out


def _line_end(s: Scenario, square: Square) -> bool:
    """Whether the conveyor on `square` is the last of its line: the square it
    carries robots to is not a conveyor."""
    tile = s.board.tile_at(*square)
    assert tile is not None and tile.dir is not None
    d = INDEX[tile.dir]
    return s.board.type_at(square[0] + DX[d], square[1] + DY[d]) != "conveyor"
