"""Where beams go: the one tracer of board lasers' beams and robots' lines of
sight. The race (engine/rules/course.py, engine/rules/lasers.py), the validator's beam
warning (W408) and the editor's painted beams all follow ``ray``, so they
cannot disagree about where a beam stops.

Squares are integers ``y * width + x`` and directions 0..3 (N, E, S, W), as
in engine/rules/course.py.
"""
from __future__ import annotations

from typing import NamedTuple

from rallyforge.engine.model.directions import DX, DY, INDEX
from rallyforge.engine.model.scenario import Board, Laser


def ray(board: Board, square: int, d: int) -> tuple[int, ...]:
    """The squares after `square` towards d, up to the first wall (listed, or
    the mounting wall of a laser or pusher), level change (a ledge or a
    ramp's low side: a beam stays on its level, docs/rules.md 11.5) or the board's
    edge."""
    w, h, walls, level = board.width, board.height, board.wall_mask, board.level_map
    x, y = square % w, square // w
    own = level.get((x, y), 0) if level else 0
    out = []
    while not walls[y * w + x] >> d & 1:
        x, y = x + DX[d], y + DY[d]
        if not (0 <= x < w and 0 <= y < h) or (level and level.get((x, y), 0) != own):
            break
        out.append(y * w + x)
    return tuple(out)


class Beam(NamedTuple):
    laser: Laser
    dir: int
    squares: tuple[int, ...]    # the laser's own square, then each square up to a wall or the edge
    walled: bool                # whether a wall or a level change stops it (else it leaves the board)


def board_beams(board: Board) -> tuple[Beam, ...]:
    """The beam of each board laser, in the board's order (robots aside: the
    squares it crosses when no robot stops it). Lasers off the board or with
    no known direction, which only models built in memory can have, have none."""
    beams = []
    for laser in board.lasers:
        d = INDEX.get(laser.dir)
        if d is None or not board.in_bounds(laser.x, laser.y):
            continue
        start = board.index(laser.x, laser.y)
        squares = (start, *ray(board, start, d))
        last = squares[-1]
        beyond = (last % board.width + DX[d], last // board.width + DY[d])
        beams.append(Beam(laser, d, squares, bool(board.wall_mask[last] >> d & 1)
                          or board.in_bounds(*beyond)))
    return tuple(beams)
