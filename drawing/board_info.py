"""What the painter derives from a board, cached per board (the board view
repaints often, the board seldom changes)."""
from __future__ import annotations

import weakref
from collections import OrderedDict

from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES, left, opposite, right
from rallyforge.engine.model.element_kinds import tile_values
from rallyforge.engine.model.scenario import Board
from rallyforge.engine.rules.beams import board_beams
from rallyforge.engine.rules.course import Course
from rallyforge.engine.rules.moving_flags import belt_steps


class BoardInfo:
    """What the painter derives from a board: the stamp key of each square
    (computed on demand), the traced laser beams, the ledges between levels
    and the rides of moving flags."""

    def __init__(self, board: Board):
        self.board = board
        self.tiles = board.tile_map
        self._keys: dict[tuple[int, int], tuple] = {}
        self._beams: list | None = None
        self._ledges: list[tuple[int, int, int]] | None = None
        self._course: Course | None = None
        self._rides: dict[tuple[int, int, int], list[tuple[int, int]]] = {}

    def key(self, x: int, y: int) -> tuple:
        k = self._keys.get((x, y))
        if k is None:
            k = self._keys[(x, y)] = self._make_key(x, y)
        return k

    def _make_key(self, x: int, y: int) -> tuple:
        """(type, the values of its keys, then what its painter needs of the
        neighbours): the painter's arguments."""
        tile = self.tiles.get((x, y))
        if tile is None:
            return ("floor",)
        key = (tile.type, *tile_values(tile).values())
        around = _NEIGHBOURS.get(tile.type)
        return key + (around(self, tile),) if around else key

    def _feeders(self, tile) -> int:
        """Bits 1 (left), 2 (right), 4 (behind): neighbouring belts pointing
        into this one with no wall between."""
        x, y, d = tile.x, tile.y, INDEX.get(tile.dir, 0)
        mask = 0
        for side, bit in ((left(d), 1), (right(d), 2), (opposite(d), 4)):
            n = self.tiles.get((x + DX[side], y + DY[side]))
            if (n is not None and n.type == "conveyor" and n.dir is not None
                    and INDEX.get(n.dir) == opposite(side)
                    and not self.board.has_wall(x, y, NAMES[side])):
                mask |= bit
        return mask

    def _pit_neighbours(self, tile) -> int:
        x, y = tile.x, tile.y
        mask = 0
        for d in range(4):
            n = self.tiles.get((x + DX[d], y + DY[d]))
            if n is not None and n.type == "pit":
                mask |= 1 << d
        return mask

    @property
    def ledges(self) -> list[tuple[int, int, int]]:
        """(x, y, d) of every ledge: (x, y) its low square, d the side towards
        the high one (a ramp's low side excluded)."""
        if self._ledges is None:
            b = self.board
            level = b.level_map
            out = []
            for (x, y), high in level.items():
                for d in range(4):
                    nx, ny = x - DX[d], y - DY[d]       # the neighbour d is the way back up from
                    if b.in_bounds(nx, ny) and level.get((nx, ny), 0) < high \
                            and not self._ramp_joint(x, y, d, high - level.get((nx, ny), 0)):
                        out.append((nx, ny, d))
            self._ledges = out
        return self._ledges

    def _ramp_joint(self, x: int, y: int, d: int, rise: int) -> bool:
        """Whether the step up towards d onto (x, y), `rise` levels, climbs the ramp there."""
        tile = self.tiles.get((x, y))
        return rise == 1 and tile is not None and tile.type == "ramp" and tile.dir == NAMES[d]

    def flag_ride(self, x: int, y: int, steps: int) -> list[tuple[int, int]]:
        """The squares a moving flag standing on (x, y) rides to, belt step
        after belt step (docs/rules.md 12.1), at most `steps` of them: up to
        where it stops, goes back to its square (off the board, into a pit)
        or comes round to a square it rode over."""
        key = (x, y, steps)
        if key not in self._rides:
            if self._course is None:
                self._course = Course(self.board)
            self._rides[key] = _ride(self._course, x, y, steps)
        return self._rides[key]

    @property
    def beams(self) -> list:
        """(laser, last x, last y, stopped by a wall) for every laser, as the
        engine traces its beam (engine/rules/beams.py)."""
        if self._beams is None:
            w = self.board.width
            self._beams = [(beam.laser, beam.squares[-1] % w, beam.squares[-1] // w, beam.walled)
                           for beam in board_beams(self.board)]
        return self._beams


def _ride(course: Course, x: int, y: int, steps: int) -> list[tuple[int, int]]:
    w = course.width
    home = square = y * w + x
    ride: list[tuple[int, int]] = []
    while len(ride) < steps:
        moved = belt_steps(course, square, home)
        if not moved:
            return ride
        for square in moved:
            last = ride[-1] if ride else (x, y)
            to = (square % w, square // w)
            if abs(to[0] - last[0]) + abs(to[1] - last[1]) != 1 or to in ride or len(ride) == steps:
                return ride
            ride.append(to)
    return ride


# What a painter needs of a square's neighbours, by tile type: belts feeding
# a conveyor, and pits around a pit (so that a large pit reads as one hole).
_NEIGHBOURS = {"conveyor": BoardInfo._feeders, "pit": BoardInfo._pit_neighbours}


_INFOS: OrderedDict[int, tuple[weakref.ref, BoardInfo]] = OrderedDict()


def board_info(board: Board) -> BoardInfo:
    entry = _INFOS.get(id(board))
    if entry is not None and entry[0]() is board:
        _INFOS.move_to_end(id(board))
        return entry[1]
    info = BoardInfo(board)
    _INFOS[id(board)] = (weakref.ref(board), info)
    while len(_INFOS) > 6:
        _INFOS.popitem(last=False)
    return info
