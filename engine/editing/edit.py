"""Pure edits of the immutable model: every change the editor makes is one of these.

Each function takes a Board or a Scenario and returns a new one (or the same
object when nothing changes, so that callers can skip empty edits with `is`).
Board lists are kept in the canonical order of the saved file (by square,
then side), so that an edited scenario equals the same scenario read back
from disk.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from rallyforge.engine.editing import transform
from rallyforge.engine.editing.transform import MIRRORED_SIDES, other_side
from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES, opposite
from rallyforge.engine.model.scenario import (Board, Dock, Flag, Laser, Level, MAX_LEVEL, Pusher,
                                   RobotSpec, Rules, Scenario, Tile, Wall, board_order, edge_key)

Square = tuple[int, int]
Rect = tuple[int, int, int, int]  # x0, y0, x1, y1, inclusive
_Marker = TypeVar("_Marker", Flag, Dock)

MARKER_KINDS = ("flags", "docks")


def canonical(s: Scenario) -> Scenario:
    """The scenario with its board lists in the saved file's order."""
    board = s.board.canonical()
    return s if board is s.board else replace(s, board=board)


def with_board(s: Scenario, board: Board) -> Scenario:
    return s if board is s.board else replace(s, board=board)


# ---------------------------------------------------------------- tiles

def set_tiles(board: Board, changes: Mapping[Square, Tile | None]) -> Board:
    """Put a tile (None: plain floor) on each square of `changes`."""
    tiles = dict(board.tile_map)
    changed = False
    for (x, y), tile in changes.items():
        if not board.in_bounds(x, y):
            continue
        if tile is not None and (tile.x, tile.y) != (x, y):
            tile = replace(tile, x=x, y=y)
        if tiles.get((x, y)) == tile:
            continue
        changed = True
        if tile is None:
            del tiles[(x, y)]
        else:
            tiles[(x, y)] = tile
    if not changed:
        return board
    return replace(board, tiles=tuple(sorted(tiles.values(), key=board_order)))


def same_tile(a: Tile | None, b: Tile | None) -> bool:
    """Whether two squares hold the same element (position and note aside)."""
    def kind(t: Tile | None) -> tuple[object, ...] | None:
        return None if t is None or (t.type == "floor") else (t.type, t.dir, t.express, t.rotation,
                                                              t.phases)
    return kind(a) == kind(b)


def flood_region(board: Board, x: int, y: int) -> set[Square]:
    """The 4-connected squares around (x, y) that hold the same element."""
    if not board.in_bounds(x, y):
        return set()
    target = board.tile_at(x, y)
    return _flood(board, x, y, lambda nx, ny: same_tile(board.tile_at(nx, ny), target))


def level_region(board: Board, x: int, y: int) -> set[Square]:
    """The 4-connected squares around (x, y) at the same level."""
    if not board.in_bounds(x, y):
        return set()
    level = board.level_at(x, y)
    return _flood(board, x, y, lambda nx, ny: board.level_at(nx, ny) == level)


def _flood(board: Board, x: int, y: int, same: Callable[[int, int], bool]) -> set[Square]:
    region = {(x, y)}
    todo = [(x, y)]
    while todo:
        cx, cy = todo.pop()
        for d in range(4):
            nx, ny = cx + DX[d], cy + DY[d]
            if (nx, ny) not in region and board.in_bounds(nx, ny) and same(nx, ny):
                region.add((nx, ny))
                todo.append((nx, ny))
    return region


# ---------------------------------------------------------------- levels


def set_levels(board: Board, changes: Mapping[Square, int]) -> Board:
    """Put each square of `changes` at its level (0 to MAX_LEVEL; level 0 is
    not listed, as the canonical file has it)."""
    levels = dict(board.level_map)
    notes = {(v.x, v.y): v.note for v in board.levels}
    changed = False
    for (x, y), level in changes.items():
        if not board.in_bounds(x, y):
            continue
        level = max(0, min(MAX_LEVEL, level))
        if levels.get((x, y), 0) == level:
            continue
        changed = True
        if level == 0:
            levels.pop((x, y), None)
        else:
            levels[(x, y)] = level
    if not changed:
        return board
    return replace(board, levels=tuple(Level(x, y, v, notes.get((x, y)))
                                       for (x, y), v in sorted(levels.items(),
                                                               key=lambda i: (i[0][1], i[0][0]))))


def shift_levels(board: Board, squares: Iterable[Square], delta: int) -> Board:
    """Raise (delta > 0) or lower the squares by delta levels, within 0 to MAX_LEVEL."""
    return set_levels(board, {(x, y): board.level_at(x, y) + delta for x, y in squares})


# ---------------------------------------------------------------- walls

def listed_walls(board: Board, x: int, y: int, side: str) -> list[Wall]:
    key = edge_key(x, y, side)
    return [w for w in board.walls if edge_key(w.x, w.y, w.side) == key]


def mounted_on(board: Board, x: int, y: int, side: str) -> list[Laser | Pusher]:
    """The lasers and pushers hanging on an edge."""
    key = edge_key(x, y, side)
    return [m for m in board.lasers + board.pushers
            if edge_key(m.x, m.y, NAMES[opposite(INDEX[m.dir])]) == key]


def set_wall(board: Board, x: int, y: int, side: str, present: bool) -> Board:
    """List a wall on an edge, or remove every listed form of it. A new wall is
    named from a square on the board (the outer edges have only one)."""
    key = edge_key(x, y, side)
    others = [w for w in board.walls if edge_key(w.x, w.y, w.side) != key]
    if present:
        if len(others) < len(board.walls):
            return board
        if not board.in_bounds(x, y):
            x, y, side = other_side(x, y, side)
            if not board.in_bounds(x, y):
                return board
        others.append(Wall(x, y, side))
    elif len(others) == len(board.walls):
        return board
    return replace(board, walls=tuple(sorted(others, key=board_order)))


# ---------------------------------------------------------------- lasers and pushers

def set_laser(board: Board, laser: Laser) -> Board:
    """Place a laser, replacing the one on its square that shoots the same way."""
    lasers = [l for l in board.lasers if (l.x, l.y, l.dir) != (laser.x, laser.y, laser.dir)]
    if not board.in_bounds(laser.x, laser.y) or laser in board.lasers:
        return board
    lasers.append(laser)
    return replace(board, lasers=tuple(sorted(lasers, key=board_order)))


def remove_laser(board: Board, x: int, y: int, dir: str) -> Board:
    lasers = tuple(l for l in board.lasers if (l.x, l.y, l.dir) != (x, y, dir))
    return board if len(lasers) == len(board.lasers) else replace(board, lasers=lasers)


def set_pusher(board: Board, pusher: Pusher) -> Board:
    """Place a pusher, replacing the one on its square (a square holds one)."""
    if not board.in_bounds(pusher.x, pusher.y) or pusher in board.pushers:
        return board
    pushers = [p for p in board.pushers if (p.x, p.y) != (pusher.x, pusher.y)]
    pushers.append(pusher)
    return replace(board, pushers=tuple(sorted(pushers, key=board_order)))


def remove_pusher(board: Board, x: int, y: int) -> Board:
    pushers = tuple(p for p in board.pushers if (p.x, p.y) != (x, y))
    return board if len(pushers) == len(board.pushers) else replace(board, pushers=pushers)


def lasers_at(board: Board, x: int, y: int) -> list[Laser]:
    return [l for l in board.lasers if (l.x, l.y) == (x, y)]


def clear_squares(board: Board, squares: Iterable[Square]) -> Board:
    """Remove the tile, lasers and pusher of each square (walls stay)."""
    gone = set(squares)
    board = set_tiles(board, {sq: None for sq in gone if sq in board.tile_map})
    lasers = tuple(l for l in board.lasers if (l.x, l.y) not in gone)
    pushers = tuple(p for p in board.pushers if (p.x, p.y) not in gone)
    if len(lasers) == len(board.lasers) and len(pushers) == len(board.pushers):
        return board
    return replace(board, lasers=lasers, pushers=pushers)


# ---------------------------------------------------------------- flags and docks

def markers(s: Scenario, kind: str) -> tuple[Any, ...]:     # Flag or Dock, by `kind`
    """The flags or the docks of a scenario, by `kind` "flags" or "docks"."""
    assert kind in MARKER_KINDS, kind
    return getattr(s, kind)


def _with_markers(s: Scenario, kind: str, items: Iterable[Any]) -> Scenario:
    """The scenario with new flags or docks, by `kind`."""
    assert kind in MARKER_KINDS, kind
    return replace(s, flags=tuple(items)) if kind == "flags" else replace(s, docks=tuple(items))


def marker_at(s: Scenario, kind: str, x: int, y: int) -> int | None:
    """The index of the flag or dock on (x, y), if any."""
    for i, m in enumerate(markers(s, kind)):
        if (m.x, m.y) == (x, y):
            return i
    return None


def insert_marker(s: Scenario, kind: str, index: int, marker: Flag | Dock) -> Scenario:
    """Insert a flag or dock at list position `index`; later ones renumber up."""
    items = list(markers(s, kind))
    items.insert(index, marker)
    return _with_markers(s, kind, items)


def remove_marker(s: Scenario, kind: str, index: int) -> Scenario:
    items = list(markers(s, kind))
    del items[index]
    return _with_markers(s, kind, items)


def replace_marker(s: Scenario, kind: str, index: int, marker: Flag | Dock) -> Scenario:
    items = list(markers(s, kind))
    if items[index] == marker:
        return s
    items[index] = marker
    return _with_markers(s, kind, items)


def reorder_markers(s: Scenario, kind: str, order: Sequence[int]) -> Scenario:
    """Renumber: the new list is the old items in `order` (a permutation)."""
    items = markers(s, kind)
    if sorted(order) != list(range(len(items))):
        raise ValueError(f"not a permutation of the {kind}: {list(order)}")
    if list(order) == list(range(len(items))):
        return s
    return _with_markers(s, kind, (items[i] for i in order))


def move_marker(s: Scenario, kind: str, source: int, target: int) -> Scenario:
    """Move item `source` to list position `target` (renumbering the ones between)."""
    order = list(range(len(markers(s, kind))))
    order.insert(target, order.pop(source))
    return reorder_markers(s, kind, order)


# ---------------------------------------------------------------- board size

# ---------------------------------------------------------------- scenario fields

def set_fields(s: Scenario, **values: Any) -> Scenario:
    """Change top-level fields (name, author, description, note)."""
    new = replace(s, **values)
    return s if new == s else new


def set_rules(s: Scenario, rules: Rules) -> Scenario:
    return s if rules == s.rules else replace(s, rules=rules)


def set_robots(s: Scenario, robots: Sequence[RobotSpec]) -> Scenario:
    robots = tuple(robots)
    return s if robots == s.robots else replace(s, robots=robots)


# ---------------------------------------------------------------- regions (the editor's selection)
# Rectangles here are inclusive (x0, y0, x1, y1), as the editor selects them;
# rallyforge.engine.editing.transform takes half-open ones.

@dataclass(frozen=True)
class Clip:
    """A copied rectangle: a board fragment with the flags and docks on it,
    at positions relative to its north-west corner."""
    board: Board
    flags: tuple[Flag, ...] = ()
    docks: tuple[Dock, ...] = ()


def _inside(rect: Rect, x: int, y: int) -> bool:
    return rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]


def _half_open(rect: Rect) -> Rect:
    return rect[0], rect[1], rect[2] + 1, rect[3] + 1


def clip_rect(board: Board, rect: Rect) -> Rect | None:
    """The part of a rectangle on the board (None if none)."""
    x0, y0 = max(rect[0], 0), max(rect[1], 0)
    x1, y1 = min(rect[2], board.width - 1), min(rect[3], board.height - 1)
    return (x0, y0, x1, y1) if x0 <= x1 and y0 <= y1 else None


def copy_region(s: Scenario, rect: Rect) -> Clip:
    """Everything on a rectangle (walls on its outer edges included)."""
    x0, y0 = rect[0], rect[1]

    def picked(items: tuple[_Marker, ...]) -> tuple[_Marker, ...]:
        return tuple(replace(m, x=m.x - x0, y=m.y - y0) for m in items if _inside(rect, m.x, m.y))
    return Clip(transform.extract(s.board, *_half_open(rect)), picked(s.flags), picked(s.docks))


def delete_region(s: Scenario, rect: Rect) -> Scenario:
    """Clear a rectangle: elements, inner walls, flags and docks."""
    def kept(items: tuple[_Marker, ...]) -> tuple[_Marker, ...]:
        return tuple(m for m in items if not _inside(rect, m.x, m.y))
    return canonical(replace(s, board=transform.clear_region(s.board, *_half_open(rect)),
                             flags=kept(s.flags), docks=kept(s.docks)))


# by "flags" and "docks": list position -> the clip's marker that takes its place (_place)
_Kept = dict[str, dict[int, Any]]


def _place(s: Scenario, board: Board, clip: Clip, x: int, y: int,
           keep: _Kept | None = None) -> tuple[Scenario, Rect | None]:
    """Stamp a clip at (x, y). Flags and docks under it give way. `keep` maps
    flag or dock list positions to the clip's markers that take their place
    (and number); without it the clip's markers are appended. Returns the scenario and
    the rectangle covered."""
    target = clip_rect(board, (x, y, x + clip.board.width - 1, y + clip.board.height - 1))
    if target is None:
        return s, None
    covered: Rect = target
    board = transform.stamp(board, clip.board, x, y)

    def landed(items: tuple[_Marker, ...], clip_items: tuple[_Marker, ...],
               keep_items: dict[int, Any]) -> tuple[_Marker, ...]:
        out = []
        for i, m in enumerate(items):
            if i in keep_items:
                c = keep_items[i]
                if board.in_bounds(c.x + x, c.y + y):
                    out.append(replace(c, x=c.x + x, y=c.y + y))
            elif not _inside(covered, m.x, m.y):
                out.append(m)
        if not keep_items:
            out.extend(replace(c, x=c.x + x, y=c.y + y) for c in clip_items
                       if board.in_bounds(c.x + x, c.y + y))
        return tuple(out)
    keep = keep or {"flags": {}, "docks": {}}
    new = replace(s, board=board, flags=landed(s.flags, clip.flags, keep["flags"]),
                  docks=landed(s.docks, clip.docks, keep["docks"]))
    return canonical(new), target


def paste(s: Scenario, clip: Clip, x: int, y: int) -> tuple[Scenario, Rect | None]:
    """Stamp a clip with its north-west corner on (x, y), replacing what is
    there; its flags and docks are appended to the lists. Returns the
    scenario and the pasted rectangle."""
    return _place(s, s.board, clip, x, y)


def _lift(s: Scenario, rect: Rect, clip: Clip, x: int, y: int) -> tuple[Scenario, Rect | None]:
    """Take a rectangle off the board and put `clip` (made from it) down at
    (x, y); its flags and docks keep their numbers. The walls on the
    rectangle's border go with it (the clip carries them), so that they turn
    and move with the rest."""
    board = transform.clear_region(s.board, *_half_open(rect))
    board = replace(board, walls=tuple(w for w in board.walls if not (
        _inside(rect, w.x, w.y) or _inside(rect, *other_side(w.x, w.y, w.side)[:2]))))
    keep: _Kept = {}
    for kind, clip_items in (("flags", clip.flags), ("docks", clip.docks)):
        inside = [i for i, m in enumerate(markers(s, kind)) if _inside(rect, m.x, m.y)]
        keep[kind] = dict(zip(inside, clip_items))
    return _place(s, board, clip, x, y, keep)


def move_region(s: Scenario, rect: Rect, dx: int, dy: int) -> tuple[Scenario, Rect | None]:
    """Move everything on a rectangle by (dx, dy), replacing what is there;
    what falls off the board is lost."""
    return _lift(s, rect, copy_region(s, rect), rect[0] + dx, rect[1] + dy)


def _turn_marker(m: _Marker, width: int, height: int, quarter_turns: int,
                 mirror: str | None) -> _Marker:
    x, y = m.x, m.y
    if mirror:
        x, y = transform.mirror_point(x, y, width, height, mirror)
    x, y = transform.rotate_point(x, y, width, height, quarter_turns)
    return replace(m, x=x, y=y)


def _turn_dock(d: Dock, width: int, height: int, quarter_turns: int, mirror: str | None) -> Dock:
    facing = MIRRORED_SIDES[mirror].get(d.facing, d.facing) if mirror else d.facing
    return replace(_turn_marker(d, width, height, quarter_turns, mirror),
                   facing=NAMES[(INDEX[facing] + quarter_turns) % 4])


def turned_rect(rect: Rect, quarter_turns: int) -> Rect:
    """Where a rectangle lies once turned about its centre. An odd-sized
    difference cannot stay centred: a clockwise turn rounds towards the
    north-west and an anticlockwise one back, so that Z then Shift+Z
    returns a rectangle to where it was."""
    q = quarter_turns % 4
    if q % 2 == 0:
        return rect
    x0, y0, x1, y1 = rect
    w, h = x1 - x0 + 1, y1 - y0 + 1
    shift = math.floor if q == 1 else math.ceil
    nx0 = shift(x0 + (w - h) / 2)
    ny0 = shift(y0 + (h - w) / 2)
    return nx0, ny0, nx0 + h - 1, ny0 + w - 1


def _on_squares(s: Scenario, squares: set[Square]) -> dict[str, int]:
    """How many elements of each list stand on the squares (walls: on an
    edge of one of them)."""
    b = s.board
    counts = {kind: sum((m.x, m.y) in squares for m in items)
              for kind, items in (("flags", s.flags), ("docks", s.docks), ("tiles", b.tiles),
                                  ("lasers", b.lasers), ("pushers", b.pushers))}
    counts["walls"] = sum((w.x, w.y) in squares or other_side(w.x, w.y, w.side)[:2] in squares
                          for w in b.walls)
    return {k: n for k, n in counts.items() if n}


def turn_blockers(s: Scenario, rect: Rect, quarter_turns: int) -> tuple[str | None, dict[str, int]]:
    """Why a rectangle cannot turn about its centre without losing anything:
    ("off", {}) when the turned rectangle leaves the board, (None, counts)
    with what stands on the squares it would newly cover (nothing: {})."""
    new = turned_rect(rect, quarter_turns)
    if clip_rect(s.board, new) != new:
        return "off", {}
    covered = {(x, y) for x in range(new[0], new[2] + 1) for y in range(new[1], new[3] + 1)
               if not _inside(rect, x, y)}
    inner = {(x, y) for x in range(rect[0], rect[2] + 1) for y in range(rect[1], rect[3] + 1)}
    counts = _on_squares(s, covered)
    # A wall between the rectangle and a newly covered square turns with the rectangle.
    border = sum(((w.x, w.y) in covered and other_side(w.x, w.y, w.side)[:2] in inner) or
                 ((w.x, w.y) in inner and other_side(w.x, w.y, w.side)[:2] in covered)
                 for w in s.board.walls)
    if border:
        counts["walls"] -= border
        if not counts["walls"]:
            del counts["walls"]
    return None, counts


def count_text(counts: Mapping[str, int]) -> str:
    """"2 flags, 4 docks and 17 tiles"."""
    parts = [f"{n} {kind if n != 1 else kind[:-1]}" for kind, n in counts.items() if n]
    if len(parts) < 2:
        return "".join(parts) or "nothing"
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def lost_elements(before: Scenario, after: Scenario) -> dict[str, int]:
    """How many flags, docks, tiles, walls, lasers and pushers an edit drops."""
    def sizes(s: Scenario) -> dict[str, int]:
        b = s.board
        return {"flags": len(s.flags), "docks": len(s.docks), "tiles": len(b.tiles),
                "walls": len(b.walls), "lasers": len(b.lasers), "pushers": len(b.pushers)}
    old, new = sizes(before), sizes(after)
    return {k: old[k] - new[k] for k in old if old[k] > new[k]}


def clipped_by_paste(s: Scenario, clip: Clip, x: int, y: int) -> dict[str, int]:
    """What of a clip pasted at (x, y) would fall off the board."""
    b = s.board
    off = {(cx, cy) for cx in range(clip.board.width) for cy in range(clip.board.height)
           if not b.in_bounds(cx + x, cy + y)}
    counts = _on_squares(replace(s, board=clip.board, flags=clip.flags, docks=clip.docks), off)
    # A wall survives on the board's edge when one of its sides lands on the board.
    walls = sum(not b.in_bounds(w.x + x, w.y + y)
                and not b.in_bounds(*other_side(w.x + x, w.y + y, w.side)[:2])
                for w in clip.board.walls)
    counts.pop("walls", None)
    if walls:
        counts["walls"] = walls
    return counts


def turn_region(s: Scenario, rect: Rect, quarter_turns: int = 0,
                mirror: str | None = None) -> tuple[Scenario, Rect | None]:
    """Mirror a rectangle ("horizontal": east and west swap; "vertical":
    north and south swap), then rotate it clockwise by quarter turns about
    its centre (turned_rect). Everything on it turns: belts, gears, walls,
    lasers, pushers, flags and docks. What the turned rectangle covers
    outside the old one is replaced: check turn_blockers first."""
    clip = copy_region(s, rect)
    w, h = clip.board.width, clip.board.height
    board = transform.mirror_board(clip.board, mirror) if mirror else clip.board
    turned = Clip(transform.rotate_board(board, quarter_turns % 4),
                  tuple(_turn_marker(f, w, h, quarter_turns % 4, mirror) for f in clip.flags),
                  tuple(_turn_dock(d, w, h, quarter_turns % 4, mirror) for d in clip.docks))
    new = turned_rect(rect, quarter_turns)
    return _lift(s, rect, turned, new[0], new[1])
