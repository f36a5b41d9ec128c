"""A compiled, read-only view of a Board for the rules code.

Squares are integers ``y * width + x`` and directions are 0..3 (N, E, S, W),
so the hot loops index flat lists instead of building tuples and looking up
tiles. A course is built once per board and shared (``compile_course``).
"""
from __future__ import annotations

from functools import lru_cache

from rallyforge.engine.model.directions import DX, DY, INDEX
from rallyforge.engine.model.element_kinds import TILE_LIST
from rallyforge.engine.model.scenario import Board
from rallyforge.engine.rules.beams import board_beams, ray

# Tile codes, in elements_table.TILE_LIST order; the rules code names those it treats.
TILE_CODE = {t.name: i for i, t in enumerate(TILE_LIST)}
FLOOR, CONVEYOR, GEAR, UPGRADE, CRUSHER, WATER, CURRENT, TELEPORTER, RANDOMIZER, RAMP = (
    TILE_CODE[name] for name in ("floor", "conveyor", "gear", "upgrade", "crusher", "water",
                                 "current", "teleporter", "randomizer", "ramp"))
_DEATH = tuple(t.death if t.deadly else None for t in TILE_LIST)       # by code
_ARCHIVE_POINT = tuple(t.archive_point for t in TILE_LIST)

# What lies across a square's edge (Course.target): a square index, or these.
OFF_BOARD = -1
WALL = -2

# Bits of Course.hot[register][square]: the board element steps that act on a
# robot standing on the square in that register.
EXPRESS_BIT = 1
CONVEYOR_BIT = 2
CURRENT_BIT = 4
PUSHER_BIT = 8
GEAR_BIT = 16
CRUSHER_BIT = 32
RANDOMIZER_BIT = 64


class BoardLaser:
    __slots__ = ("square", "dir", "beams", "beam", "missed")

    def __init__(self, square: int, dir: int, beams: int, beam: tuple[int, ...]):
        self.square, self.dir, self.beams = square, dir, beams
        self.beam = beam        # its own square, then every square up to the first wall or edge
        # its shot in the event log when it strikes nobody (engine/model/events.py Beam)
        self.missed = (square, dir, beam, -1, None, beams, "board")


class Course:
    """Flat per-square tables of one board. Treat as read-only."""

    __slots__ = ("board", "width", "height", "size", "xy", "target", "tile", "death",
                 "belt_dir", "gear_turn", "hot", "pushers", "lasers", "beams_on", "beam_bits",
                 "laser_damage", "archive_point", "upgrade", "has_randomizer", "bit", "sight",
                 "_rays", "_lows", "_columns", "level", "levelled", "drop", "climb",
                 "beam_target", "arm_reach")

    def __init__(self, board: Board):
        self.board = board
        w, h = self.width, self.height = board.width, board.height
        n = self.size = w * h
        self.xy = tuple((i % w, i // w) for i in range(n))
        masks = board.wall_mask
        target = [OFF_BOARD] * (n * 4)
        for i, (x, y) in enumerate(self.xy):
            for d in range(4):
                if masks[i] >> d & 1:
                    target[i * 4 + d] = WALL
                else:
                    nx, ny = x + DX[d], y + DY[d]
                    if 0 <= nx < w and 0 <= ny < h:
                        target[i * 4 + d] = ny * w + nx
        self.target = target

        tile = [FLOOR] * n
        belt_dir = [-1] * n
        gear_turn = [0] * n
        crusher_phases: dict[int, tuple[int, ...]] = {}
        express = set()
        for t in board.tiles:
            i = t.y * w + t.x
            tile[i] = TILE_CODE[t.type]
            if TILE_LIST[tile[i]].belt:
                assert t.dir is not None, "a belt has a direction"
                belt_dir[i] = INDEX[t.dir]
                if t.express:
                    express.add(i)
            elif t.type == "gear":
                gear_turn[i] = 1 if t.rotation == "cw" else 3
            elif t.type == "crusher":
                crusher_phases[i] = t.phases
        self.tile = tile
        self.belt_dir = belt_dir
        self.gear_turn = gear_turn
        self.death = [_DEATH[k] for k in tile]
        self.archive_point = [_ARCHIVE_POINT[k] for k in tile]
        self.upgrade = [k == UPGRADE for k in tile]
        self.has_randomizer = RANDOMIZER in tile
        self._levels(board, tile)

        pushers: list[list[tuple[int, int]]] = [[] for _ in range(6)]
        for p in sorted(board.pushers, key=lambda p: (p.y, p.x)):
            for r in p.phases:
                pushers[r].append((p.y * w + p.x, INDEX[p.dir]))
        self.pushers = tuple(tuple(p) for p in pushers)    # by register (index 0 unused)

        # the same in every register but for crushers and pushers
        every = [0] * n
        for i in range(n):
            k = tile[i]
            if k == CONVEYOR:
                every[i] = CONVEYOR_BIT | (EXPRESS_BIT if i in express else 0)
            elif k == CURRENT:
                every[i] = CURRENT_BIT
            elif k == GEAR:
                every[i] = GEAR_BIT
            elif k == RANDOMIZER:
                every[i] = RANDOMIZER_BIT
        hot = []
        for r in range(6):
            bits = list(every)
            for i, phases in crusher_phases.items():
                if tile[i] == CRUSHER and r in phases:
                    bits[i] = CRUSHER_BIT
            for i, _ in pushers[r]:
                bits[i] |= PUSHER_BIT
            hot.append(bits)
        self.hot = tuple(hot)

        self._rays: dict[int, tuple[int, ...]] = {}
        # the squares a Mechanical Arm reaches from a square, remembered by
        # engine/rules/option_arm.py
        self.arm_reach: dict[int, list[int]] = {}
        # Lines of sight as bitboards: with `occupied` the sum of bit[square]
        # over the robots, the first robot on a Line (shift, mask, forward)
        # stands on square shift + the lowest (forward) or highest set bit of
        # (occupied >> shift) & mask. Lasers test a line in a few integer
        # operations instead of square by square.
        self.bit = tuple(1 << i for i in range(n))
        self._lows = [(1 << k) - 1 for k in range(max(w, h) + 2)]
        column = [0]
        for k in range(h + 1):
            column.append(column[-1] | 1 << (k * w))
        self._columns = column
        beam_target = self.beam_target
        reach = [0] * (n * 4)           # squares a robot sees towards d before a wall or the edge
        for d in range(4):
            # fill in the order in which the square ahead is done first
            order = range(n - 1, -1, -1) if d in (1, 2) else range(n)
            for i in order:
                ahead = beam_target[i * 4 + d]
                reach[i * 4 + d] = reach[ahead * 4 + d] + 1 if ahead >= 0 else 0
        self.sight = tuple(self._line(beam_target[k], k & 3, reach[k]) for k in range(n * 4))

        # Board lasers, and the beams crossing each square: (laser number,
        # place along its beam) pairs, so that a lasers step looks only at
        # the squares robots stand on, whatever the size of the board.
        lasers = []
        beams_on: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        damage = [0] * n
        for k, beam in enumerate(board_beams(board)):
            lasers.append(BoardLaser(beam.squares[0], beam.dir, beam.laser.beams, beam.squares))
            for place, s in enumerate(beam.squares):
                beams_on[s].append((k, place))
                damage[s] += beam.laser.beams
        self.lasers = tuple(lasers)
        self.beams_on = tuple(tuple(on) for on in beams_on)
        # the squares some beam crosses, as bits (self.bit): a lasers step
        # with no robot on them has no board-laser hit to look for
        self.beam_bits = sum(self.bit[s] for s in range(n) if beams_on[s])
        self.laser_damage = damage      # what board lasers do to a robot alone on the square

    def _levels(self, board: Board, tile: list[int]) -> None:
        """The level tables (docs/rules.md 11). Every edge between squares of
        different levels is a ledge unless a ramp joins them (the square behind
        a ramp one level below it, crossing towards the ramp's dir). ``target``
        gets WALL wherever nothing may cross upwards (a ledge up, a ramp's low
        side from below): pushes, belts, currents, pushers and a teleporter's
        search stop there as at a wall (rules 11.1, 11.3, 11.6, 11.7). A card
        crosses a low side through ``climb`` only (rule 11.3). ``drop`` marks
        ledges down (a fall, rule 11.2); ``beam_target`` is ``target`` with every
        level change walled (rule 11.5). A board without levels or ramps keeps ``drop`` None
        and ``climb`` empty, and the rules code skips all of this."""
        self.level = level = [0] * self.size
        for v in board.levels:
            level[v.y * self.width + v.x] = v.level
        self.drop: list[bool] | None = None
        self.climb: dict[int, int] = {}         # (L * 4 + d) -> R: a card may go up the ramp R
        self.beam_target = self.target     # target with every level change walled (beams, arm)
        self.levelled = any(level) or RAMP in tile
        if not self.levelled:
            return
        ramp_dir = {t.y * self.width + t.x: INDEX[t.dir] for t in board.tiles
                    if t.type == "ramp" and t.dir is not None}
        target = self.target
        beam_target = list(target)
        drop = [False] * (self.size * 4)
        for k, j in enumerate(target):
            if j < 0:
                continue
            i, d = k >> 2, k & 3
            if level[i] == level[j]:
                continue
            beam_target[k] = WALL
            if ramp_dir.get(j) == d and level[j] == level[i] + 1:
                self.climb[k] = j               # up the ramp's low side: a card only
                target[k] = WALL
            elif ramp_dir.get(i) == (d + 2) & 3 and level[i] == level[j] + 1:
                pass                            # down a ramp: an ordinary step (rule 11.4)
            elif level[j] > level[i]:
                target[k] = WALL                # a ledge up (rule 11.1)
            else:
                drop[k] = True                  # a ledge down (rule 11.2)
        self.drop = drop
        self.beam_target = beam_target

    def _line(self, first: int, d: int, count: int) -> tuple[int, int, bool]:
        """The Line of `count` squares from square `first` on towards d."""
        if count == 0:
            return 0, 0, True
        w = self.width
        if d == 1:                                  # E
            return first, self._lows[count], True
        if d == 3:                                  # W
            return first - count + 1, self._lows[count], False
        if d == 2:                                  # S
            return first, self._columns[count], True
        return first - (count - 1) * w, self._columns[count], False   # N

    def ray(self, square: int, d: int) -> tuple[int, ...]:
        """The squares after `square` towards d, up to the first wall, level
        change or the edge (engine/rules/beams.py), remembered."""
        key = square * 4 + d
        squares = self._rays.get(key)
        if squares is None:
            squares = self._rays[key] = ray(self.board, square, d)
        return squares

    def square(self, x: int, y: int) -> int:
        return y * self.width + x


# A race compiles its board every time (a board remembers its hash, so the
# look-up is quick); a balance run of Frenetic Factory, whose boards turn
# (docs/rules.md 12.10), meets some 50 arrangements, each its own board.
@lru_cache(maxsize=64)
def compile_course(board: Board) -> Course:
    return Course(board)
