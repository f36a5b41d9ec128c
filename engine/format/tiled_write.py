"""Write a course as a Tiled map (TMX or Tiled JSON) for a client's open
tileset, so that `rallyforge import` of the map gives the same course
(docs/tiled-import.md, "Exporting a course as a Tiled map").

What the tileset draws goes into tile layers: the mapping of the tileset
(engine/format/tiled/tilesets/), read backwards, gives for each element the
tile and flip bits that the importer reads as exactly that element. What it
cannot draw (levels, ramps, a pusher's registers it has no tile for, a flag
past its numbers...) goes into the object layer OBJECT_LAYER, one object per
element carrying the element in its custom property ELEMENT_PROPERTY, and is
listed as a warning with its square. An element drawn by a tile but with a
note is there too, whole: on import it stands for the one its tile draws. Everything
else of the course (name, rules, goals, robots, checks, teams, boards,
published...) travels in the map's custom property COURSE_PROPERTY: the
course's document without its board's elements, flags and docks.

Flags and docks are numbered by their place in the course's lists; the tiles
draw flags 1 to k and docks 1 to m, those after the first one the tileset
cannot draw travel as objects with their numbers.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TypeVar
from xml.sax.saxutils import escape, quoteattr

from rallyforge.engine.format.loader import to_dict
from rallyforge.engine.format.tiled.convert import Notice, Yielded, cell_yield, convert
from rallyforge.engine.format.tiled.mapfile import (COURSE_PROPERTY, ELEMENT_PROPERTY, ELEMENTS_PROPERTY,
                                                    FLIP_D, FLIP_H, FLIP_V, UNLISTED_WALL, Layer,
                                                    TiledMap, Tileset)
from rallyforge.engine.format.tiled.tilesets import Export, Mapping
from rallyforge.engine.model.directions import INDEX, NAMES, opposite
from rallyforge.engine.model.json_types import JsonObject
from rallyforge.engine.model.scenario import (Dock, Element, Flag, Laser, Level, Pusher, Scenario,
                                              Tile, Wall, edge_key)

OBJECT_LAYER = "Rally Forge"
FORMATS = (".tmx", ".json")
TILED_VERSION = "1.10.2"        # the Tiled whose file format is written
# A plain tile first, then Tiled's turns (90, 180, 270 degrees clockwise), the
# mirror images last: the clients read turned tiles (roboprojekt reads turns only).
_FLIPS = (0, FLIP_D | FLIP_H, FLIP_H | FLIP_V, FLIP_D | FLIP_V, FLIP_H, FLIP_V, FLIP_D,
          FLIP_D | FLIP_H | FLIP_V)
_BOARD_LISTS = ("tiles", "walls", "lasers", "pushers", "levels")

_Drawn = TypeVar("_Drawn", Tile, Wall, Laser, Pusher)     # an element a tile can draw
_Marker = TypeVar("_Marker", Flag, Dock)
# An element for the object layer: (kind, element, number of a flag or a dock).
_Placed = tuple[str, Element, int | None]
# An object of the object layer: (label, x, y, the element as JSON).
_Record = tuple[str, int, int, str]


@dataclass(frozen=True)
class Atlas:
    """The picture of a stand-in tileset: `columns` x `rows` tiles of
    `size` pixels, `tiles` what each tile id draws (as cell_yield gives it);
    drawn in Rally Forge's style by rallyforge.drawing (engine/cli/export.py)."""
    image: str                  # its file name, beside the tileset's
    columns: int
    rows: int
    size: int
    tiles: dict[int, frozenset[Yielded]]


@dataclass(frozen=True)
class Written:
    map_text: str
    tileset_name: str           # the tileset's file, beside the map
    tileset_text: str           # a stand-in, for where the client's own is not at hand
    atlas: Atlas                # the stand-in's picture
    warnings: tuple[Notice, ...]


@lru_cache(maxsize=None)
def _backwards(mapping: Mapping) -> dict[frozenset[Yielded], int]:
    """Each set of elements one cell can put on square (0, 0): the gid (with
    its flip bits, firstgid 1) that puts exactly it; a plain tile and a low
    tile id first."""
    table: dict[frozenset[Yielded], int] = {}
    for bits in _FLIPS:
        for local in sorted(mapping.tiles):
            meaning = mapping.tiles[local]
            if "none" not in meaning:
                table.setdefault(cell_yield(meaning, bits), (local + 1) | bits)
    return table


def _at_origin(element: _Drawn) -> _Drawn:
    """The element as a cell puts it: on square (0, 0), without a note (a
    note travels with the element in an object too)."""
    return replace(element, x=0, y=0, note=None)


class _Layers:
    """The tile layers being filled, and the elements left to the objects.
    Each kind of element goes to its layer as the client names it
    (Export.layers); a cell already taken spills into "NAME 2", "NAME 3"...
    (the importer reads every layer). The squares no tile covers get the
    tileset's floor on the tiles' layer, as the clients' own maps have it."""

    def __init__(self, scenario: Scenario, mapping: Mapping, export: Export,
                 kept_out: set[int]):
        self.scenario = scenario
        self.board = scenario.board
        self.names = export.layers
        self.table = _backwards(mapping)
        self.kept_out = kept_out            # elements the importer did not give back as drawn
        self.layers: dict[str, list[int]] = {}
        self.drawn: set[int] = set()        # the elements drawn (their ids)
        self.unlisted: list[Wall] = []      # walls a laser's tile draws, the course not listing them

    def put(self, kind: str, x: int, y: int, things: frozenset[Yielded],
            elements: tuple[Element, ...]) -> bool:
        """Draw `elements` (the course's, at (x, y)) with the tile putting `things`."""
        gid = self.table.get(things)
        if gid is None or any(id(e) in self.kept_out for e in elements):
            return False
        self._cell(self.names[kind], y * self.board.width + x, gid)
        self.drawn.update(id(e) for e in elements)
        return True

    def _cell(self, base: str, index: int, gid: int) -> None:
        spill = 1
        while True:
            name = base if spill == 1 else f"{base} {spill}"
            cells = self.layers.setdefault(name, [0] * (self.board.width * self.board.height))
            if not cells[index]:
                cells[index] = gid
                return
            spill += 1

    def fill(self) -> None:
        b = self.board
        for t in b.tiles:
            self.put("tile", t.x, t.y, frozenset({_at_origin(t)}), (t,))
        self._walls()
        edges = {edge_key(w.x, w.y, w.side) for w in b.walls}     # listed (a laser's is implied)
        for laser in b.lasers:
            alone = frozenset({_at_origin(laser)})
            if not self.put("laser", laser.x, laser.y, alone, (laser,)):
                self._laser_on_wall(laser, alone, edges)
        for pusher in b.pushers:
            self.put("pusher", pusher.x, pusher.y, frozenset({_at_origin(pusher)}), (pusher,))
        self._numbered("flag", self.scenario.flags, lambda n, f: ("flag", n))
        self._numbered("dock", self.scenario.docks, lambda n, d: ("dock", n, d.facing))
        floor = self.table.get(frozenset({Tile(0, 0, "floor")}))
        board = self.layers.setdefault(self.names["tile"], [0] * (b.width * b.height))
        if floor is not None:
            board[:] = [cell or floor for cell in board]

    def _laser_on_wall(self, laser: Laser, alone: frozenset[Yielded],
                       edges: set[tuple[int, int, str]]) -> None:
        """A tile drawing the emitter with the wall it hangs on (a laser's wall
        is there whether the course lists it or not, docs/format.md): a wall
        the course does not list is named in the objects, so that the import
        leaves it out again."""
        mount = NAMES[opposite(INDEX[laser.dir])]
        for things in self.table:
            walls = [w for w in things if isinstance(w, Wall)]
            if alone <= things and len(things) == 2 and len(walls) == 1 and walls[0].side == mount:
                if self.put("laser", laser.x, laser.y, things, (laser,)):
                    if edge_key(laser.x, laser.y, mount) not in edges:
                        self.unlisted.append(Wall(laser.x, laser.y, mount))
                    return

    def _walls(self) -> None:
        """A square's walls in one tile when the tileset has it, else a tile a wall."""
        by_square: dict[tuple[int, int], list[Wall]] = {}
        for w in self.board.walls:
            by_square.setdefault((w.x, w.y), []).append(w)
        for (x, y), walls in by_square.items():
            if not self.put("wall", x, y, frozenset(_at_origin(w) for w in walls), tuple(walls)):
                for w in walls:
                    self.put("wall", x, y, frozenset({_at_origin(w)}), (w,))

    def _numbered(self, kind: str, markers: tuple[_Marker, ...],
                  thing: Callable[[int, _Marker], Yielded]) -> None:
        for n, marker in enumerate(markers, 1):
            if not self.put(kind, marker.x, marker.y, frozenset({thing(n, marker)}), (marker,)):
                return          # the rest keep their numbers as objects

    def objects(self) -> tuple[list[_Placed], list[_Placed]]:
        """The course's elements for the object layer, as (kind, element,
        number): those no tile draws, and those drawn with a note (the tile
        cannot carry it), with the walls the tiles draw that the course does
        not list."""
        b = self.board
        lists = (("tile", b.tiles), ("wall", b.walls), ("laser", b.lasers),
                 ("pusher", b.pushers), ("level", b.levels))
        every: list[_Placed] = [(kind, e, None) for kind, items in lists for e in items]
        every += [("flag", f, n) for n, f in enumerate(self.scenario.flags, 1)]
        every += [("dock", d, n) for n, d in enumerate(self.scenario.docks, 1)]
        undrawn = [o for o in every if id(o[1]) not in self.drawn]
        noted = [o for o in every if id(o[1]) in self.drawn and o[1].note is not None]
        return undrawn, noted + [(UNLISTED_WALL, w, None) for w in self.unlisted]


def _element_doc(kind: str, element: Element, number: int | None) -> JsonObject:
    """An element as the course file writes it, with its kind (and number)."""
    doc = {"kind": kind, **({"number": number} if number is not None else {})}
    for key, value in vars(element).items():
        if value is not None:
            doc[key] = list(value) if isinstance(value, tuple) else value
    return doc


def _fill(scenario: Scenario, mapping: Mapping, export: Export) -> _Layers:
    """The layers, checked by the importer itself: an element it does not give
    back as drawn (two lasers facing each other read as one, ...) is kept out
    of the tiles and travels as an object."""
    kept_out: set[int] = set()
    while True:
        layers = _Layers(scenario, mapping, export, kept_out)
        layers.fill()
        missing = _not_read_back(layers, mapping)
        if not missing:
            return layers
        kept_out |= missing


def _not_read_back(layers: _Layers, mapping: Mapping) -> set[int]:
    b = layers.board
    tiled = TiledMap(b.width, b.height, (Tileset(1, mapping.names[0], mapping.sources[0],
                                                 mapping.tilecount),),
                     tuple(Layer(name, tuple(cells)) for name, cells in layers.layers.items()))
    read = convert(tiled, "").scenario
    got = set(read.board.tiles) | set(read.board.lasers) | set(read.board.pushers)
    got_edges = {edge_key(w.x, w.y, w.side) for w in read.board.walls}
    flags = [(f.x, f.y) for f in read.flags]
    docks = [(d.x, d.y, d.facing) for d in read.docks]
    missing = {id(e) for e in (*b.tiles, *b.lasers, *b.pushers)
               if id(e) in layers.drawn and e not in got}
    missing |= {id(w) for w in b.walls
                if id(w) in layers.drawn and edge_key(w.x, w.y, w.side) not in got_edges}
    for n, f in enumerate(layers.scenario.flags):
        if id(f) in layers.drawn and (n >= len(flags) or flags[n] != (f.x, f.y)):
            missing.add(id(f))
    for n, d in enumerate(layers.scenario.docks):
        if id(d) in layers.drawn and (n >= len(docks) or docks[n] != (d.x, d.y, d.facing)):
            missing.add(id(d))
    return missing


def _course_doc(scenario: Scenario) -> JsonObject:
    """The course's document without what the tiles and objects carry."""
    doc = to_dict(scenario)
    for key in _BOARD_LISTS:
        doc["board"].pop(key, None)
    doc.pop("flags", None)
    doc.pop("docks", None)
    return doc


def _label(kind: str, element: Element, number: int | None) -> str:
    # (each kind has its class: "wall" and UNLISTED_WALL are walls)
    if isinstance(element, Tile):
        return element.type + (f" towards {element.dir}" if element.dir else "")
    if isinstance(element, Level):
        return f"level {element.level}"
    if isinstance(element, Laser):
        return f"laser firing {element.dir} ({element.beams} beam{'s' * (element.beams > 1)})"
    if isinstance(element, Pusher):
        return f"pusher towards {element.dir} (registers {' '.join(map(str, element.phases))})"
    if isinstance(element, Wall):
        return f"{kind} on the {element.side} side"
    return f"{kind} {number}"


def write_map(scenario: Scenario, mapping: Mapping, suffix: str, name: str) -> Written:
    """The map of `scenario` as `suffix` (.tmx or .json) for the tileset of
    `mapping`; `name` is the map's name for the warnings."""
    export = mapping.export
    if export is None:
        raise ValueError(f"the mapping {mapping.file} says nothing of writing maps")
    layers = _fill(scenario, mapping, export)
    undrawn, noted = layers.objects()
    objects = undrawn + noted
    title = mapping.title
    in_layer = export.objects == "layer"
    carrier = f"the object layer {OBJECT_LAYER!r}" if in_layer else \
        f"the map's property {ELEMENTS_PROPERTY}"
    warnings = tuple(Notice(f"the {export.client} tileset cannot draw the {_label(*o)}; "
                            f"it travels in {carrier}", o[1].x, o[1].y) for o in undrawn)
    properties = [(COURSE_PROPERTY, json.dumps(_course_doc(scenario), ensure_ascii=False))]
    if in_layer:
        records: list[_Record] = [(_label(*o), o[1].x, o[1].y,
                                   json.dumps(_element_doc(*o), ensure_ascii=False))
                                  for o in objects]
    else:       # (a client that reads every layer as tiles: no object layer)
        records = []
        properties.append((ELEMENTS_PROPERTY, json.dumps([_element_doc(*o) for o in objects],
                                                         ensure_ascii=False)))
    tileset = export.file
    write = _tmx if suffix == ".tmx" else _json
    text = write(scenario, layers.layers, records, properties, export.tilewidth,
                 export.tileheight, tileset)
    atlas = _atlas(mapping, export)
    tileset_text = (_tsx if tileset.endswith(".tsx") else _tsj)(mapping, export, atlas,
                                                                 f"{title} (stand-in)")
    return Written(text, tileset, tileset_text, atlas, warnings)


def _atlas(mapping: Mapping, export: Export) -> Atlas:
    count = mapping.tilecount or (max(mapping.tiles) + 1)
    return Atlas(Path(export.file).with_suffix(".png").name, export.columns,
                 -(-count // export.columns), export.tilewidth,
                 {local: cell_yield(meaning, 0) for local, meaning in mapping.tiles.items()
                  if "none" not in meaning})


# ---------------------------------------------------------------- TMX

def _tmx(scenario: Scenario, layers: dict[str, list[int]], records: list[_Record],
         properties: list[tuple[str, str]], tw: int, th: int, tileset: str) -> str:
    b = scenario.board
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<map version="1.10" tiledversion="{TILED_VERSION}" orientation="orthogonal" '
           f'renderorder="right-down" width="{b.width}" height="{b.height}" tilewidth="{tw}" '
           f'tileheight="{th}" infinite="0" nextlayerid="{len(layers) + 2}" '
           f'nextobjectid="{len(records) + 1}">',
           ' <properties>',
           *(f'  <property name="{name}">{escape(value)}</property>'
             for name, value in properties),
           ' </properties>',
           f' <tileset firstgid="1" source={quoteattr(tileset)}/>']
    for i, (name, cells) in enumerate(layers.items(), 1):
        rows = [",".join(str(c) for c in cells[y * b.width:(y + 1) * b.width])
                for y in range(b.height)]
        out += [f' <layer id="{i}" name={quoteattr(name)} width="{b.width}" height="{b.height}">',
                '  <data encoding="csv">', ",\n".join(rows), '  </data>', ' </layer>']
    if records:
        out.append(f' <objectgroup id="{len(layers) + 1}" name={quoteattr(OBJECT_LAYER)}>')
        for i, (label, x, y, text) in enumerate(records, 1):
            out += [f'  <object id="{i}" name={quoteattr(label)} x="{x * tw}" y="{y * th}" '
                    f'width="{tw}" height="{th}">',
                    f'   <properties><property name="{ELEMENT_PROPERTY}" '
                    f'value={quoteattr(text)}/></properties>',
                    '  </object>']
        out.append(' </objectgroup>')
    out.append('</map>')
    return "\n".join(out) + "\n"


def _tsx(mapping: Mapping, e: Export, atlas: Atlas, title: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<tileset version="1.10" tiledversion="{TILED_VERSION}" '
            f'name={quoteattr(mapping.names[0])} tilewidth="{e.tilewidth}" '
            f'tileheight="{e.tileheight}" tilecount="{mapping.tilecount}" columns="{e.columns}">\n'
            f' <properties><property name="written-by" value={quoteattr(title)}/></properties>\n'
            f' <image source={quoteattr(atlas.image)} width="{atlas.columns * atlas.size}" '
            f'height="{atlas.rows * atlas.size}"/>\n'
            '</tileset>\n')


# ---------------------------------------------------------------- Tiled JSON

def _json(scenario: Scenario, layers: dict[str, list[int]], records: list[_Record],
          properties: list[tuple[str, str]], tw: int, th: int, tileset: str) -> str:
    b = scenario.board
    tiled_layers: list[JsonObject] = [{"id": i, "name": name, "type": "tilelayer",
                                       "width": b.width, "height": b.height, "x": 0, "y": 0,
                                       "opacity": 1, "visible": True, "data": cells}
                                      for i, (name, cells) in enumerate(layers.items(), 1)]
    if records:
        objects = [{"id": i, "name": label, "type": "", "x": x * tw, "y": y * th, "width": tw,
                    "height": th, "rotation": 0, "visible": True,
                    "properties": [{"name": ELEMENT_PROPERTY, "type": "string", "value": text}]}
                   for i, (label, x, y, text) in enumerate(records, 1)]
        tiled_layers.append({"id": len(layers) + 1, "name": OBJECT_LAYER, "type": "objectgroup",
                             "x": 0, "y": 0, "opacity": 1, "visible": True,
                             "draworder": "topdown", "objects": objects})
    doc = {
        "type": "map", "version": "1.10", "tiledversion": TILED_VERSION,
        "orientation": "orthogonal", "renderorder": "right-down",
        "width": b.width, "height": b.height, "tilewidth": tw, "tileheight": th,
        "infinite": False, "nextlayerid": len(layers) + 2, "nextobjectid": len(records) + 1,
        "properties": [{"name": name, "type": "string", "value": value}
                       for name, value in properties],
        "tilesets": [{"firstgid": 1, "source": tileset}],
        "layers": tiled_layers,
    }
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def _tsj(mapping: Mapping, e: Export, atlas: Atlas, title: str) -> str:
    doc = {"type": "tileset", "version": "1.10", "tiledversion": TILED_VERSION,
           "name": mapping.names[0], "tilewidth": e.tilewidth, "tileheight": e.tileheight,
           "tilecount": mapping.tilecount, "columns": e.columns, "margin": 0, "spacing": 0,
           "image": atlas.image, "imagewidth": atlas.columns * atlas.size,
           "imageheight": atlas.rows * atlas.size,
           "properties": [{"name": "written-by", "type": "string", "value": title}]}
    return json.dumps(doc, indent=1) + "\n"


def tileset_path(map_path: str | Path, written: Written) -> Path:
    return Path(map_path).with_name(written.tileset_name)
