"""Turn a Tiled map into a course: every cell of every tile layer, and every
tile object, is looked up in the mapping of its tileset and placed on its
square, turned as the cell's flip bits say.

Where layers disagree, the later layer wins for a square's tile (a plain
floor never hides an element) and the disagreement is reported; walls,
lasers and pushers add up, an edge walled twice listed once. Anything the
mappings do not know is reported with its square and tile id and left out.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from rallyforge.engine.format.file_names import stem_text
from rallyforge.engine.format.tiled.mapfile import (FLIP_D, FLIP_H, FLIP_V, GID_MASK, TiledMap, Tileset,
                                         read_map)
from rallyforge.engine.format.tiled.tilesets import mapping_for
from rallyforge.engine.model.directions import INDEX, NAMES, opposite, step
from rallyforge.engine.model.element_kinds import BELT_TYPES, off_table
from rallyforge.engine.model.json_types import JsonObject
from rallyforge.engine.model.scenario import (Accept, Board, Dock, Flag, Laser, Pusher, Scenario, Tile, Wall,
                                              edge_key)

_TRANSPOSE = {"N": "W", "W": "N", "S": "E", "E": "S"}
_MIRROR_H = {"E": "W", "W": "E"}
_MIRROR_V = {"N": "S", "S": "N"}
_TILE_KEYS = ("dir", "express", "rotation", "phases")


@dataclass(frozen=True)
class Notice:
    message: str
    x: int | None = None
    y: int | None = None
    choice: bool = False    # not something lost: one of two readings of the map, said

    def line(self, name: str) -> str:
        where = f"{name}:{self.x},{self.y}" if self.x is not None else name
        return f"{where}: {'note' if self.choice else 'warning'}: {self.message}"


@dataclass(frozen=True)
class Imported:
    scenario: Scenario
    warnings: tuple[Notice, ...]


def orient(direction: str, bits: int) -> str:
    """A direction of the tile as drawn, on a cell with these flip bits:
    Tiled flips anti-diagonally first, then horizontally, then vertically."""
    if bits & FLIP_D:
        direction = _TRANSPOSE[direction]
    if bits & FLIP_H:
        direction = _MIRROR_H.get(direction, direction)
    if bits & FLIP_V:
        direction = _MIRROR_V.get(direction, direction)
    return direction


def _mirrored(bits: int) -> bool:
    """An odd number of flips mirrors the tile: a gear turns the other way."""
    return bin(bits & (FLIP_D | FLIP_H | FLIP_V)).count("1") % 2 == 1


_Marker = TypeVar("_Marker", Flag, Dock)    # a numbered marker: a flag or a dock


class _Course:
    """The elements gathered so far, square by square."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.tiles: dict[tuple[int, int], tuple[Tile, str]] = {}
        self.walls: dict[tuple[int, int, str], Wall] = {}
        self.lasers: dict[tuple[int, int, str], Laser] = {}
        self.pushers: dict[tuple[int, int], Pusher] = {}
        self.flags: dict[int, Flag] = {}
        self.docks: dict[int, Dock] = {}
        self.warnings: list[Notice] = []

    def warn(self, message: str, x: int | None = None, y: int | None = None,
             choice: bool = False) -> None:
        self.warnings.append(Notice(message, x, y, choice))

    def place(self, meaning: JsonObject, bits: int, x: int, y: int, what: str) -> None:
        if "tile" in meaning:
            self._tile(meaning, bits, x, y, what)
        for side in meaning.get("walls", ()):
            wall = Wall(x, y, orient(side, bits))
            self.walls.setdefault(edge_key(wall.x, wall.y, wall.side), wall)
        if "laser" in meaning:
            d = orient(meaning["laser"]["dir"], bits)
            beams = max(meaning["laser"].get("beams", 1), self.lasers.get((x, y, d), Laser(x, y, d)).beams)
            self.lasers[(x, y, d)] = Laser(x, y, d, beams)
        if "pusher" in meaning:
            self.pushers[(x, y)] = Pusher(x, y, orient(meaning["pusher"]["dir"], bits),
                                          tuple(meaning["pusher"]["phases"]))
        if "flag" in meaning:
            self._marker(self.flags, meaning["flag"], Flag(x, y), "flag", what)
        if "dock" in meaning:
            self._marker(self.docks, meaning["dock"],
                         Dock(x, y, orient(meaning.get("facing", "N"), bits)), "dock", what)

    def _tile(self, meaning: JsonObject, bits: int, x: int, y: int, what: str) -> None:
        values = {k: meaning[k] for k in _TILE_KEYS if k in meaning}
        if "dir" in values:
            values["dir"] = orient(values["dir"], bits)
        if "rotation" in values and _mirrored(bits):
            values["rotation"] = {"cw": "ccw", "ccw": "cw"}[values["rotation"]]
        if "phases" in values:
            values["phases"] = tuple(values["phases"])
        tile = Tile(x, y, meaning["tile"], **values)
        old = self.tiles.get((x, y))
        if tile.type == "floor" and old is not None:
            return
        if old is not None and old[0].type != "floor" and old[0] != tile:
            self.warn(f"{what} puts a {tile.type} where {old[1]} put a {old[0].type}; "
                      f"the {tile.type} is kept", x, y)
        self.tiles[(x, y)] = (tile, what)

    def _marker(self, table: dict[int, _Marker], number: int, marker: _Marker, kind: str,
                what: str) -> None:
        if number in table:
            first = table[number]
            self.warn(f"{what}: a second {kind} {number} (the first is at ({first.x}, {first.y})); "
                      "this one is left out", marker.x, marker.y)
        else:
            table[number] = marker

    def board(self) -> Board:
        return Board(self.width, self.height,
                     tiles=tuple(t for t, _ in self.tiles.values() if t.type != "floor"),
                     walls=tuple(self.walls.values()), lasers=self._lasers(),
                     pushers=tuple(self.pushers.values()))

    def _lasers(self) -> tuple[Laser, ...]:
        """The lasers, one per beam: some maps draw an emitter at both ends
        of a beam, two lasers firing at each other along it; the one at the
        north or west end is kept (a note says so)."""
        dropped: set[tuple[int, int, str]] = set()
        for (x, y, name), laser in sorted(self.lasers.items()):
            if name not in ("S", "E") or (x, y, name) in dropped:
                continue
            d = INDEX[name]
            back = NAMES[opposite(d)]
            cx, cy = x, y
            while edge_key(cx, cy, name) not in self.walls:
                cx, cy = step(cx, cy, d)
                if not (0 <= cx < self.width and 0 <= cy < self.height):
                    break
                other = self.lasers.get((cx, cy, back))
                if other is not None and other.beams == laser.beams:
                    dropped.add((cx, cy, back))
                    # said at the other end's square
                    self.warn(f"a laser drawn with an emitter at both ends: the one at "
                              f"({x}, {y}) firing {name} is kept", cx, cy, choice=True)
                    break
        return tuple(v for k, v in self.lasers.items() if k not in dropped)


# What one cell puts on its square: an element of the board, or a marker by
# its number ("flag", n) or ("dock", n, facing) (cell_yield).
Yielded = Tile | Wall | Laser | Pusher | tuple[str, int] | tuple[str, int, str]


def cell_yield(meaning: JsonObject, bits: int) -> frozenset[Yielded]:
    """What one cell of this meaning, with these flip bits, puts on square
    (0, 0): its tile, walls, lasers and pushers, and ("flag", n) and
    ("dock", n, facing) for its markers. The exporter reads a mapping
    backwards with it (engine/format/tiled_write.py)."""
    course = _Course(1, 1)
    course.place(meaning, bits, 0, 0, "")
    return frozenset([t for t, _ in course.tiles.values()] + list(course.walls.values())
                     + list(course.lasers.values()) + list(course.pushers.values())
                     + [("flag", n) for n in course.flags]
                     + [("dock", n, d.facing) for n, d in course.docks.items()])


def _lookup(tilesets: tuple[Tileset, ...], gid: int) -> tuple[Tileset, int] | None:
    owner = None
    for tileset in tilesets:        # the tileset with the largest firstgid not above gid
        if tileset.firstgid <= gid and (owner is None or tileset.firstgid > owner.firstgid):
            owner = tileset
    return None if owner is None else (owner, gid - owner.firstgid)


def convert(tiled: TiledMap, name: str) -> Imported:
    course = _Course(tiled.width, tiled.height)
    found = {t: mapping_for(t) for t in tiled.tilesets}

    def one(gid: int, x: int, y: int, layer: str) -> None:
        bits, bare = gid & ~GID_MASK, gid & GID_MASK
        hit = _lookup(tiled.tilesets, bare)
        if hit is None:
            course.warn(f"layer {layer!r}: tile {bare} belongs to no tileset; the square is left "
                        "empty", x, y)
            return
        tileset, local = hit
        mapping = found[tileset]
        meaning = mapping.tiles.get(local) if mapping else None
        label = tileset.name or tileset.source
        if meaning is None:
            known = f"is not in the mapping {mapping.file}" if mapping else "has no mapping"
            course.warn(f"layer {layer!r}: tile {local} of tileset {label!r}: the tileset {known}; "
                        "the square is left empty", x, y)
            return
        course.place(meaning, bits, x, y, f"layer {layer!r} (tile {local})")

    for layer in tiled.layers:
        for i, gid in enumerate(layer.cells):
            if gid:
                one(gid, i % tiled.width, i // tiled.width, layer.name)
    for obj in tiled.objects:
        if 0 <= obj.x < tiled.width and 0 <= obj.y < tiled.height:
            one(obj.gid, obj.x, obj.y, obj.layer)
        else:
            course.warn(f"object layer {obj.layer!r}: a tile object outside the map at "
                        f"({obj.x}, {obj.y}) is left out")
    flags = tuple(course.flags[n] for n in sorted(course.flags))
    docks = tuple(course.docks[n] for n in sorted(course.docks))
    if not flags and tiled.course is None:      # (an exported course's may be in its objects)
        course.warn("the map has no flag: add one before the course can be raced")
    if not docks and tiled.course is None:
        course.warn("the map has no dock (start square): add one before the course can be raced")
    used = tuple(m for m in dict.fromkeys(found.values()) if m is not None)
    credits = "; ".join(f"{m.title} ({m.source}, {m.licence})" for m in used)
    board = course.board()
    scenario = Scenario(name=name, board=board, flags=flags, docks=docks, accept=_as_drawn(board),
                        description=f"Imported from the Tiled map {name!r}"
                                    + (f"; tiles read with the mapping of {credits}" if credits else ""))
    return Imported(replace(scenario, board=scenario.board.canonical()), tuple(course.warnings))


def _as_drawn(board: Board) -> tuple[Accept, ...]:
    """W405 accepted for every belt the map draws running off the board: a
    published course prints its exits so (docs/format.md, accept)."""
    return tuple(Accept("W405", t.x, t.y, note="drawn so on the published map")
                 for t in board.tiles if t.type in BELT_TYPES and t.dir is not None
                 and off_table(board, *step(t.x, t.y, INDEX[t.dir])))


def course_name(path: str | Path) -> str:
    """'death_trap.tmx' -> 'Death Trap'."""
    return stem_text(path).replace("_", " ").replace("-", " ").title()


def import_map(path: str | Path) -> Imported:
    """Read and convert a map file; MapError when it is not a map this reads."""
    return convert(read_map(path), course_name(path))
