"""Which edits to try: the ones a designer would make where a first run of
the course shows the trouble, not a blind grid.

- fair docks: move (1 or 2 squares), turn and swap the docks that win most
  and least;
- a length: move the flags 1 or 2 squares, add or remove walls beside them;
- deaths: the deadliest leg's flag, and around the squares where most robots
  die: walls, the conveyor lines that end there, the pushers, the lasers
  whose beams cross them.

Every candidate is then kept only if the edited course is valid, has no
warning the course did not have, and passes the course's own checks.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.analysis.scenario_checks import run_checks
from engine.analysis.suggest.edits import Edit, apply_all
from engine.model.directions import DX, DY, INDEX, NAMES
from engine.model.scenario import Goals, Scenario
from engine.rules.beams import board_beams
from engine.validation.validator import course_problems

Square = tuple[int, int]

STEPS = tuple((DX[d] * n, DY[d] * n) for n in (1, 2) for d in range(4))
FLAG_SQUARES = frozenset({"floor", "repair", "upgrade"})
MAX_CANDIDATES = 40
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
    """The candidate edits, most promising source first, each valid, at most
    MAX_CANDIDATES."""
    proposed: list[Edit] = []
    if goals.fair:
        proposed += dock_edits(s, diagnosis.win_rates)
    if goals.length is not None or goals.rounds is not None:
        for number in range(1, len(s.flags) + 1):
            proposed += flag_edits(s, number)
    if goals.deaths_per_leg is not None and diagnosis.leg_deaths:
        worst = max(range(len(diagnosis.leg_deaths)), key=lambda j: diagnosis.leg_deaths[j])
        proposed += flag_edits(s, worst + 1)
    hot = [sq for sq, _ in diagnosis.deaths[:2]]
    proposed += hot_spot_edits(s, hot)
    seen: set[Edit] = set()
    kept: list[Edit] = []
    before = _warnings(s)
    checks_failing = _failing_checks(s)
    for e in proposed:
        if e in seen:
            continue
        seen.add(e)
        if is_acceptable(s, (e,), before, checks_failing):
            kept.append(e)
            if len(kept) == MAX_CANDIDATES:
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


def dock_edits(s: Scenario, win_rates: tuple[float, ...]) -> list[Edit]:
    """For the dock that wins most and the one that wins least: moves by 1
    or 2 squares, turns, and the two swapped."""
    if len(win_rates) < 2:
        return []
    order = sorted(range(len(win_rates)), key=lambda i: (-win_rates[i], i))
    best, worst = order[0], order[-1]
    out = [Edit("swap_docks", tuple(sorted((best + 1, worst + 1))))]
    for i in (best, worst):
        dock = s.docks[i]
        here = (dock.x, dock.y)
        for dx, dy in STEPS:
            to = (dock.x + dx, dock.y + dy)
            if _free(s, to, frozenset({"floor"})):
                out.append(Edit("move_dock", (i + 1, here, to)))
        for facing in NAMES:
            if facing != dock.facing:
                out.append(Edit("turn_dock", (i + 1, dock.facing, facing)))
    return out


def flag_edits(s: Scenario, number: int) -> list[Edit]:
    """Flag `number` moved 1 or 2 squares; walls added or removed beside it."""
    flag = s.flags[number - 1]
    here = (flag.x, flag.y)
    out = [Edit("move_flag", (number, here, (flag.x + dx, flag.y + dy))) for dx, dy in STEPS
           if _free(s, (flag.x + dx, flag.y + dy), FLAG_SQUARES)]
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


def hot_spot_edits(s: Scenario, hot: list[Square]) -> list[Edit]:
    """Around the squares where most robots die: walls on the square, the
    ends of conveyor lines near it turned, the pushers near it on the other
    registers, the lasers whose beams cross it shortened to stop before it."""
    b = s.board
    out: list[Edit] = []
    for spot in hot:
        out += wall_edits(s, spot)
        for tile in b.tiles:
            if tile.type == "conveyor" and tile.dir and _near((tile.x, tile.y), spot) \
                    and _line_end(s, (tile.x, tile.y)):
                d = INDEX[tile.dir]
                for new in (NAMES[(d + 1) & 3], NAMES[(d + 3) & 3]):
                    out.append(Edit("turn_belt", ((tile.x, tile.y), tile.dir, new)))
        for p in b.pushers:
            if _near((p.x, p.y), spot):
                other = (2, 4) if p.phases == (1, 3, 5) else (1, 3, 5)
                out.append(Edit("pusher_registers", ((p.x, p.y), p.phases, other)))
        for beam in board_beams(b):
            squares = [(q % b.width, q // b.width) for q in beam.squares]
            if spot in squares and squares.index(spot) > 0:
                length = squares.index(spot)        # the laser's square and those before spot
                out.append(Edit("shorten_laser", ((beam.laser.x, beam.laser.y), beam.laser.dir,
                                                  squares[length - 1], beam.laser.dir, length)))
    return out


def _line_end(s: Scenario, square: Square) -> bool:
    """Whether the conveyor on `square` is the last of its line: the square it
    carries robots to is not a conveyor."""
    tile = s.board.tile_at(*square)
    assert tile is not None and tile.dir is not None
    d = INDEX[tile.dir]
    return s.board.type_at(square[0] + DX[d], square[1] + DY[d]) != "conveyor"
