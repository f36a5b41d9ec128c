"""Board geometry: rotate, mirror, cut, paste and insert boards.

Pure functions on the immutable model; every one returns a new Board or
Scenario. Used by the editor's selection tools and by "insert board".

Regions are half-open rectangles of squares: (x0, y0, x1, y1) covers
x0 <= x < x1, y0 <= y < y1. The walls of a region are those on any edge of
its squares, its outer edges included:

- ``extract`` takes them all, so a fragment carries the walls around it;
- ``clear_region`` removes the walls on edges inside the region and on the
  board's outer edge, but keeps those on the region's border with squares
  outside it (they belong to those squares too);
- ``stamp`` clears the target region, then adds the fragment; a fragment
  wall on an edge that already has a wall is not listed twice.

So ``stamp(clear_region(b, *r), extract(b, *r), r[0], r[1])`` has the same
tiles, lasers, pushers, levels and walled edges as ``b``.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TypeVar

from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES, opposite
from rallyforge.engine.model.scenario import (Accept, Board, Check, Dock, FactoryBoard, Flag, Laser,
                                              Level, Pusher, Scenario, Tile, Wall, board_order,
                                              edge_key)
from rallyforge.engine.model.turning import (rotate_board, rotate_point, rotate_rectangle,
                                             turn_direction)

__all__ = ["CORNERS", "MIRRORED_SIDES", "clear_region", "extract", "insert_board", "mirror_board",
           "mirror_point", "on_squares", "other_side", "resize", "rotate_accepts", "rotate_board",
           "rotate_markers", "rotate_point", "stamp"]

# an element on a square, moved about by the functions here
_Placed = TypeVar("_Placed", Tile, Wall, Laser, Pusher, Level, Flag, Dock, FactoryBoard)
# the same, or a warning accepted on a square (on_squares)
_Shifted = TypeVar("_Shifted", Tile, Wall, Laser, Pusher, Level, Flag, Dock, FactoryBoard, Accept)
_Marker = TypeVar("_Marker", Flag, Dock)

MIRRORED_SIDES = {"horizontal": {"E": "W", "W": "E"}, "vertical": {"N": "S", "S": "N"}}
_FLIP_ROTATION: dict[str | None, str | None] = {"cw": "ccw", "ccw": "cw"}


# ---------------------------------------------------------------- mirroring

def mirror_point(x: int, y: int, width: int, height: int, axis: str) -> tuple[int, int]:
    if axis == "horizontal":
        return width - 1 - x, y
    if axis == "vertical":
        return x, height - 1 - y
    raise ValueError(f"axis must be 'horizontal' (flip x) or 'vertical' (flip y), not {axis!r}")


def mirror_board(board: Board, axis: str) -> Board:
    """The board mirrored: "horizontal" flips x (E and W swap), "vertical"
    flips y (N and S swap); gears turn the other way."""
    mirror_point(0, 0, 1, 1, axis)          # validates axis
    sides = MIRRORED_SIDES[axis]
    w, h = board.width, board.height

    def flip(direction: str | None) -> str | None:
        return None if direction is None else sides.get(direction, direction)

    def move(item: _Placed, **changes: Any) -> _Placed:
        x, y = mirror_point(item.x, item.y, w, h, axis)
        return replace(item, x=x, y=y, **changes)

    return replace(
        board,
        tiles=tuple(move(t, dir=flip(t.dir), rotation=_FLIP_ROTATION.get(t.rotation, t.rotation))
                    for t in board.tiles),
        walls=tuple(move(wl, side=flip(wl.side)) for wl in board.walls),
        lasers=tuple(move(l, dir=flip(l.dir)) for l in board.lasers),
        pushers=tuple(move(p, dir=flip(p.dir)) for p in board.pushers),
        levels=tuple(move(v) for v in board.levels),
    )


# ---------------------------------------------------------------- regions

def _inside(x: int, y: int, x0: int, y0: int, x1: int, y1: int) -> bool:
    return x0 <= x < x1 and y0 <= y < y1


def _edge_squares(x: int, y: int, side: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two squares on either side of an edge: (x, y) first."""
    d = INDEX[side]
    return (x, y), (x + DX[d], y + DY[d])


def _opposite_side(side: str) -> str:
    return NAMES[(INDEX[side] + 2) & 3]


def _mount_side(item: Laser | Pusher) -> str:
    """The side of its square that a laser or pusher hangs on."""
    return _opposite_side(item.dir)


def _wall_touching(wall: Wall, x0: int, y0: int, x1: int, y1: int) -> Wall | None:
    """The wall expressed on a square inside the region, or None when its edge
    does not touch the region."""
    (ax, ay), (bx, by) = _edge_squares(wall.x, wall.y, wall.side)
    if _inside(ax, ay, x0, y0, x1, y1):
        return wall
    if _inside(bx, by, x0, y0, x1, y1):
        return replace(wall, x=bx, y=by, side=_opposite_side(wall.side))
    return None


def _shift(item: _Shifted, dx: int, dy: int) -> _Shifted:
    assert item.x is not None and item.y is not None    # (an Accept: one on a square)
    return replace(item, x=item.x + dx, y=item.y + dy)


def extract(board: Board, x0: int, y0: int, x1: int, y1: int) -> Board:
    """The (x1 - x0) x (y1 - y0) fragment of the board, moved to (0, 0): tiles,
    lasers and pushers on its squares, and the walls on all its squares'
    edges, its outer edges included (also the walls that lasers and pushers
    outside the region hang on)."""
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"empty region ({x0}, {y0})-({x1}, {y1})")

    def keep(items: tuple[_Placed, ...]) -> tuple[_Placed, ...]:
        return tuple(_shift(i, -x0, -y0) for i in items if _inside(i.x, i.y, x0, y0, x1, y1))

    walls = [w for w in (_wall_touching(w, x0, y0, x1, y1) for w in board.walls) if w is not None]
    listed = {edge_key(w.x, w.y, w.side) for w in walls}
    for mounted in board.lasers + board.pushers:
        if _inside(mounted.x, mounted.y, x0, y0, x1, y1):
            continue
        implied = _wall_touching(Wall(mounted.x, mounted.y, _mount_side(mounted)), x0, y0, x1, y1)
        if implied is not None and edge_key(implied.x, implied.y, implied.side) not in listed:
            walls.append(implied)
            listed.add(edge_key(implied.x, implied.y, implied.side))
    return Board(x1 - x0, y1 - y0, keep(board.tiles), tuple(_shift(w, -x0, -y0) for w in walls),
                 keep(board.lasers), keep(board.pushers), levels=keep(board.levels))


def _interior_edge(board: Board, wall: Wall, x0: int, y0: int, x1: int, y1: int) -> bool:
    """Whether every board square beside the wall lies in the region."""
    return all(_inside(x, y, x0, y0, x1, y1) or not board.in_bounds(x, y)
               for x, y in _edge_squares(wall.x, wall.y, wall.side))


def clear_region(board: Board, x0: int, y0: int, x1: int, y1: int) -> Board:
    """The board with the region emptied: no tiles, lasers or pushers on its
    squares and no walls on edges that only it touches (walls on its border
    with squares outside stay)."""
    def outside(items: tuple[_Placed, ...]) -> tuple[_Placed, ...]:
        return tuple(i for i in items if not _inside(i.x, i.y, x0, y0, x1, y1))

    return replace(
        board,
        tiles=outside(board.tiles),
        walls=tuple(w for w in board.walls if not _interior_edge(board, w, x0, y0, x1, y1)),
        lasers=outside(board.lasers),
        pushers=outside(board.pushers),
        levels=outside(board.levels),
    )


def _on_board_wall(board: Board, wall: Wall) -> Wall | None:
    """The wall on a square of the board (its own or the neighbour across the
    edge), or None when neither is on the board."""
    return _wall_touching(wall, 0, 0, board.width, board.height)


def stamp(board: Board, fragment: Board, x: int, y: int) -> Board:
    """The board with `fragment` pasted with its (0, 0) at (x, y), replacing
    what was there (see the module docstring for walls); the parts of the
    fragment that fall outside the board are dropped."""
    cleared = clear_region(board, x, y, x + fragment.width, y + fragment.height)

    def moved(items: tuple[_Placed, ...]) -> tuple[_Placed, ...]:
        return tuple(m for m in (_shift(i, x, y) for i in items) if board.in_bounds(m.x, m.y))

    lasers, pushers = moved(fragment.lasers), moved(fragment.pushers)
    taken = set(replace(cleared, lasers=cleared.lasers + lasers,
                        pushers=cleared.pushers + pushers).wall_edges)
    walls = list(cleared.walls)
    for wall in fragment.walls:
        placed = _on_board_wall(board, _shift(wall, x, y))
        if placed is not None and edge_key(placed.x, placed.y, placed.side) not in taken:
            taken.add(edge_key(placed.x, placed.y, placed.side))
            walls.append(placed)
    return replace(cleared, tiles=cleared.tiles + moved(fragment.tiles), walls=tuple(walls),
                   lasers=cleared.lasers + lasers, pushers=cleared.pushers + pushers,
                   levels=cleared.levels + moved(fragment.levels))


# ---------------------------------------------------------------- growing

# ---------------------------------------------------------------- growing and shrinking

def other_side(x: int, y: int, side: str) -> tuple[int, int, str]:
    """The same edge named from the neighbouring square."""
    d = INDEX[side]
    return x + DX[d], y + DY[d], NAMES[opposite(d)]


def resize(s: Scenario, left: int = 0, top: int = 0, right: int = 0, bottom: int = 0) -> Scenario:
    """Add (positive) or remove (negative) columns and rows on each side.
    Everything shifts with the old squares; what falls off the board is
    dropped, and a wall on the new outer edge keeps the form that stays on it."""
    b = s.board
    width, height = b.width + left + right, b.height + top + bottom
    if not (1 <= width <= 100 and 1 <= height <= 100):
        raise ValueError(f"a board is 1 to 100 squares each way, not {width}x{height}")
    if (left, top, right, bottom) == (0, 0, 0, 0):
        return s
    size = Board(width, height)

    def moved(items: tuple[_Shifted, ...]) -> tuple[_Shifted, ...]:
        out = []
        for item in items:
            assert item.x is not None and item.y is not None    # (an Accept: one on a square)
            x, y = item.x + left, item.y + top
            if size.in_bounds(x, y):
                out.append(replace(item, x=x, y=y))
        return tuple(out)

    walls = []
    for w in b.walls:
        x, y, side = w.x + left, w.y + top, w.side
        if not size.in_bounds(x, y):
            x, y, side = other_side(x, y, side)
        if size.in_bounds(x, y):
            walls.append(replace(w, x=x, y=y, side=side))
    board = replace(b, width=width, height=height, tiles=moved(b.tiles),
                    walls=tuple(sorted(walls, key=board_order)),
                    lasers=moved(b.lasers), pushers=moved(b.pushers), levels=moved(b.levels))
    robots = tuple(
        replace(r, at=replace(r.at, x=r.at.x + left, y=r.at.y + top)) if r.at else r
        for r in s.robots)
    # a factory board of `boards` moves with its squares, or goes once cut
    parts = tuple(p for p in (_shift(p, left, top) for p in s.boards)
                  if p.x >= 0 and p.y >= 0 and p.x + p.width <= width and p.y + p.height <= height)
    return replace(s, board=board, flags=moved(s.flags), docks=moved(s.docks), robots=robots,
                   checks=tuple(_shift_check(c, left, top) for c in s.checks), boards=parts,
                   accept=tuple(a for a in s.accept if a.x is None) + moved(on_squares(s.accept)))


def _shift_check(c: Check, dx: int, dy: int) -> Check:
    expect = []
    for key, value in c.expect:
        if key == "x" and isinstance(value, int):
            value += dx
        elif key == "y" and isinstance(value, int):
            value += dy
        elif key == "archive" and isinstance(value, tuple):
            value = (value[0] + dx, value[1] + dy)
        expect.append((key, value))
    return replace(c, expect=tuple(expect))


# ---------------------------------------------------------------- inserting a board

CORNERS = ("nw", "ne", "sw", "se", "wn", "ws", "en", "es")


def insert_board(scenario: Scenario, other: Scenario, corner: str, quarter_turns: int) -> Scenario:
    """`other`'s board, turned clockwise by quarter_turns quarters, attached
    to the current board, which grows to make room.

    `corner` is two letters: the first is the side of the current board the
    inserted board goes on, the second which end of that side it is flush
    with. "sw" puts it below (south), flush with the west edge; "se" below,
    flush east; "nw" and "ne" above. "wn", "ws", "en", "es" put it to the
    west or east, flush with the north or south edge. The board grows by the
    inserted board's height (or width); when the inserted board is longer
    than that side it grows along the side too, away from the flush end.
    Example: a 12x4 docking bay inserted at "sw" of a 12x12 board gives a
    12x16 board with the bay on rows 12-15. The squares of the grown board
    that neither board covers are not on the table: void tiles.

    Everything of the current scenario stays (moved when the board grows to
    the north or west). The other file's docks and flags come along, turned
    with its board, appended after the existing ones, except any that would
    land on a square that already holds a flag (for flags) or a dock (for
    docks). The inserted board is recorded in ``boards``: its own factory
    boards, turned and moved with it, or itself as one board by its name."""
    if corner not in CORNERS:
        raise ValueError(f"corner must be one of {', '.join(CORNERS)}, not {corner!r}")
    fragment = rotate_board(other.board, quarter_turns)
    placement = _attach(scenario.board, fragment, corner)
    grow, (fx, fy) = placement
    west, north, east, south = grow
    grown = resize(scenario, west, north, east, south)
    board = stamp(grown.board, fragment, fx, fy)
    old = scenario.board
    # what neither board covers is no floor: the table (void tiles, docs/format.md)
    table = tuple(Tile(x, y, "void") for y in range(board.height) for x in range(board.width)
                  if not (west <= x < west + old.width and north <= y < north + old.height)
                  and not (fx <= x < fx + fragment.width and fy <= y < fy + fragment.height))
    result = replace(grown, board=replace(board, tiles=board.tiles + table),
                     boards=grown.boards + _parts(other, quarter_turns, fx, fy))
    result = _bring_markers(result, other, quarter_turns, fx, fy)
    # the warnings accepted on the other board's squares stay accepted there
    turned = rotate_accepts(on_squares(other.accept), other.board.width, other.board.height,
                            quarter_turns)
    return replace(result, accept=result.accept + tuple(_shift(a, fx, fy) for a in turned))


def on_squares(accepts: tuple[Accept, ...]) -> tuple[Accept, ...]:
    """The accepted warnings that name a square (not those of the whole course)."""
    return tuple(a for a in accepts if a.x is not None and a.y is not None)


def rotate_accepts(accepts: tuple[Accept, ...], width: int, height: int,
                   quarter_turns: int) -> tuple[Accept, ...]:
    """Accepted warnings on squares of a width x height board, after
    rotate_board(board, quarter_turns)."""
    out = []
    for a in on_squares(accepts):
        assert a.x is not None and a.y is not None
        x, y = rotate_point(a.x, a.y, width, height, quarter_turns)
        out.append(replace(a, x=x, y=y))
    return tuple(out)


def _parts(other: Scenario, quarter_turns: int, fx: int, fy: int) -> tuple[FactoryBoard, ...]:
    """The factory boards `other` brings when inserted turned and at (fx, fy)."""
    b = other.board
    parts = other.boards or (FactoryBoard(other.name, 0, 0, b.width, b.height),)
    return tuple(_shift(rotate_rectangle(p, b.width, b.height, quarter_turns), fx, fy)
                 for p in parts)


def _attach(board: Board, fragment: Board,
            corner: str) -> tuple[tuple[int, int, int, int], tuple[int, int]]:
    """How much the board grows on each side (west, north, east, south) and
    where the fragment's (0, 0) lands on the grown board."""
    side, flush = corner[0], corner[1]
    w, h, fw, fh = board.width, board.height, fragment.width, fragment.height
    if side in "ns":
        extra = max(0, fw - w)
        west = extra if flush == "e" else 0
        east = extra if flush == "w" else 0
        north, south = (fh, 0) if side == "n" else (0, fh)
        fx = 0 if flush == "w" else w + extra - fw
        fy = 0 if side == "n" else h
    else:
        extra = max(0, fh - h)
        north = extra if flush == "s" else 0
        south = extra if flush == "n" else 0
        west, east = (fw, 0) if side == "w" else (0, fw)
        fy = 0 if flush == "n" else h + extra - fh
        fx = 0 if side == "w" else w
    return (west, north, east, south), (fx, fy)


def _bring_markers(scenario: Scenario, other: Scenario, quarter_turns: int,
                   fx: int, fy: int) -> Scenario:
    """Append other's flags and docks, turned with its board and moved to
    (fx, fy), skipping any on a square that already holds one of their kind."""
    turned_flags, turned_docks = rotate_markers(other.flags, other.docks, other.board.width,
                                                other.board.height, quarter_turns)
    flags = _append_unique(scenario.flags, (_shift(f, fx, fy) for f in turned_flags))
    docks = _append_unique(scenario.docks, (_shift(d, fx, fy) for d in turned_docks))
    return replace(scenario, flags=flags, docks=docks)


def _append_unique(existing: tuple[_Marker, ...], new: Iterable[_Marker]) -> tuple[_Marker, ...]:
    taken = {(m.x, m.y) for m in existing}
    out = list(existing)
    for marker in new:
        if (marker.x, marker.y) not in taken:
            taken.add((marker.x, marker.y))
            out.append(marker)
    return tuple(out)


def rotate_markers(flags: tuple[Flag, ...], docks: tuple[Dock, ...], width: int, height: int,
                   quarter_turns: int) -> tuple[tuple[Flag, ...], tuple[Dock, ...]]:
    """Flags and docks of a width x height board after rotate_board(board, quarter_turns)."""
    def turn(item: _Placed) -> _Placed:
        x, y = rotate_point(item.x, item.y, width, height, quarter_turns)
        return replace(item, x=x, y=y)

    return (tuple(turn(f) for f in flags),
            tuple(replace(turn(d), facing=turn_direction(d.facing, quarter_turns)) for d in docks))
