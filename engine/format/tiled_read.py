"""Read a Tiled map as a course: its tiles through the tileset mappings
(engine/format/tiled/convert.py), and, on a map written by `rallyforge
export` (engine/format/tiled_write.py), the rest of the course from the map's
custom property and the elements of its object layer, so that the course
comes back whole (docs/tiled-import.md, "Exporting a course as a Tiled map").
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from rallyforge.engine.format.loader import read_dict
from rallyforge.engine.format.tiled.convert import Imported, convert, course_name
from rallyforge.engine.format.tiled.mapfile import (COURSE_PROPERTY, ELEMENT_PROPERTY, UNLISTED_WALL,
                                                    MapError, TiledMap, read_map)
from rallyforge.engine.model.scenario import (Dock, Flag, Laser, Level, Pusher, Scenario, Tile, Wall,
                                              edge_key)

_KINDS = {"tile": Tile, "wall": Wall, "laser": Laser, "pusher": Pusher, "level": Level,
          "flag": Flag, "dock": Dock, UNLISTED_WALL: Wall}


def import_course(path: str | Path) -> Imported:
    """Read and convert a map file; MapError when it is not a map this reads."""
    tiled = read_map(path)
    imported = convert(tiled, course_name(path))
    if tiled.course is None:
        return imported
    return Imported(_whole(tiled, imported.scenario), imported.warnings)


def _element(text: str, layer: str) -> tuple[str, int | None, object]:
    """(kind, number, element) of an object's ELEMENT_PROPERTY."""
    where = f"object layer {layer!r}: the {ELEMENT_PROPERTY} property"
    try:
        doc = json.loads(text)
        kind = doc.pop("kind")
        number = doc.pop("number", None)
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in doc.items()}
        return kind, number, _KINDS[kind](**values)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise MapError(f"{where} is not an element of a course ({exc})") from None


def _whole(tiled: TiledMap, drawn: Scenario) -> Scenario:
    """The course of the map's COURSE_PROPERTY, with the elements its tiles
    draw and those of its objects."""
    found: dict[str, list] = {kind: [] for kind in _KINDS}
    numbered: dict[str, dict[int, object]] = {"flag": {}, "dock": {}}
    for record in tiled.records:
        kind, number, element = _element(record.text, record.layer)
        if kind in numbered:
            numbered[kind][number or 0] = element
        else:
            found[kind].append(element)
    flags = _numbered(drawn.flags, numbered["flag"])
    docks = _numbered(drawn.docks, numbered["dock"])
    try:
        doc = json.loads(tiled.course or "")
        # the markers as the file lists them (robots and teams name docks by number)
        doc["flags"] = [_marker_doc(f) for f in flags]
        doc["docks"] = [{**_marker_doc(d), "facing": d.facing} for d in docks]
    except (ValueError, TypeError) as exc:
        raise MapError(f"the map's {COURSE_PROPERTY} property is not a course ({exc})") from None
    course, problems = read_dict(doc)
    errors = [p for p in problems if p.is_error]
    if course is None or errors:
        raise MapError(f"the map's {COURSE_PROPERTY} property is not a course "
                       f"({errors[0].message if errors else 'unreadable'})")
    b = drawn.board
    unlisted = {edge_key(w.x, w.y, w.side) for w in found[UNLISTED_WALL]}
    walls = tuple(w for w in b.walls if edge_key(w.x, w.y, w.side) not in unlisted)
    board = replace(course.board, tiles=_merged(b.tiles, found["tile"], _square),
                    walls=_merged(walls, found["wall"], lambda w: edge_key(w.x, w.y, w.side)),
                    lasers=_merged(b.lasers, found["laser"], lambda e: (e.x, e.y, e.dir)),
                    pushers=_merged(b.pushers, found["pusher"], _square),
                    levels=tuple(found["level"]))
    return replace(course, board=board.canonical(), flags=flags, docks=docks)


def _marker_doc(marker) -> dict:
    return {"x": marker.x, "y": marker.y, **({"note": marker.note} if marker.note else {})}


def _square(element) -> tuple[int, int]:
    return element.x, element.y


def _merged(drawn: tuple, objects: list, key) -> tuple:
    """The elements the tiles draw and those of the objects; an object's
    stands for a drawn one in the same place (it carries the note a tile cannot)."""
    taken = {key(e) for e in objects}
    return tuple(e for e in drawn if key(e) not in taken) + tuple(objects)


def _numbered(drawn: tuple, objects: dict[int, object]) -> tuple:
    """Markers 1.. as the tiles draw them, each replaced or followed by the
    object of its number."""
    markers = {n: m for n, m in enumerate(drawn, 1)} | objects
    return tuple(markers[n] for n in sorted(markers))
