"""Read a Tiled map as a course: its tiles through the tileset mappings
(engine/format/tiled/convert.py), and, on a map written by `rallyforge
export` (engine/format/tiled_write.py), the rest of the course from the map's
custom property and the elements of its object layer, so that the course
comes back whole (docs/tiled-import.md, "Exporting a course as a Tiled map").
"""
from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import replace
from pathlib import Path
from typing import NotRequired, TypedDict, TypeVar

from rallyforge.engine.format.loader import read_dict
from rallyforge.engine.format.tiled.convert import Imported, convert, course_name
from rallyforge.engine.format.tiled.mapfile import (COURSE_PROPERTY, ELEMENT_PROPERTY, UNLISTED_WALL,
                                                    MapError, TiledMap, read_map)
from rallyforge.engine.model.json_types import JsonObject
from rallyforge.engine.model.scenario import (Dock, Element, Flag, Laser, Level, Pusher, Scenario,
                                              Tile, Wall, edge_key)

_KINDS: dict[str, type[Element]] = {"tile": Tile, "wall": Wall, "laser": Laser, "pusher": Pusher,
                                    "level": Level, "flag": Flag, "dock": Dock, UNLISTED_WALL: Wall}

_E = TypeVar("_E")
_Marker = TypeVar("_Marker", Flag, Dock)


class _MarkerDoc(TypedDict):
    """A flag or a dock as the course file lists it (a dock adds its facing)."""
    x: int
    y: int
    note: NotRequired[str]


def import_course(path: str | Path) -> Imported:
    """Read and convert a map file; MapError when it is not a map this reads."""
    tiled = read_map(path)
    imported = convert(tiled, course_name(path))
    if tiled.course is None:
        return imported
    return Imported(_whole(tiled, imported.scenario), imported.warnings)


def _element(text: str, layer: str) -> tuple[str, int | None, Element]:
    """(kind, number, element) of an object's ELEMENT_PROPERTY."""
    where = f"object layer {layer!r}: the {ELEMENT_PROPERTY} property"
    try:
        doc = json.loads(text)
        kind = doc.pop("kind")
        number = doc.pop("number", None)
        values: JsonObject = {k: tuple(v) if isinstance(v, list) else v for k, v in doc.items()}
        return kind, number, _KINDS[kind](**values)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise MapError(f"{where} is not an element of a course ({exc})") from None


def _whole(tiled: TiledMap, drawn: Scenario) -> Scenario:
    """The course of the map's COURSE_PROPERTY, with the elements its tiles
    draw and those of its objects."""
    found: dict[str, list[Element]] = {kind: [] for kind in _KINDS}
    numbered_flags: dict[int, Flag] = {}
    numbered_docks: dict[int, Dock] = {}
    for record in tiled.records:
        kind, number, element = _element(record.text, record.layer)
        if isinstance(element, Flag):
            numbered_flags[number or 0] = element
        elif isinstance(element, Dock):
            numbered_docks[number or 0] = element
        else:
            found[kind].append(element)
    flags = _numbered(drawn.flags, numbered_flags)
    docks = _numbered(drawn.docks, numbered_docks)
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
    unlisted = {edge_key(w.x, w.y, w.side) for w in _of(found[UNLISTED_WALL], Wall)}
    walls = tuple(w for w in b.walls if edge_key(w.x, w.y, w.side) not in unlisted)
    board = replace(course.board, tiles=_merged(b.tiles, _of(found["tile"], Tile), _square),
                    walls=_merged(walls, _of(found["wall"], Wall),
                                  lambda w: edge_key(w.x, w.y, w.side)),
                    lasers=_merged(b.lasers, _of(found["laser"], Laser),
                                   lambda e: (e.x, e.y, e.dir)),
                    pushers=_merged(b.pushers, _of(found["pusher"], Pusher), _square),
                    levels=tuple(_of(found["level"], Level)))
    return replace(course, board=board.canonical(), flags=flags, docks=docks)


def _marker_doc(marker: Flag | Dock) -> _MarkerDoc:
    doc: _MarkerDoc = {"x": marker.x, "y": marker.y}
    if marker.note:
        doc["note"] = marker.note
    return doc


def _square(element: Tile | Pusher) -> tuple[int, int]:
    return element.x, element.y


def _of(elements: list[Element], kind: type[_E]) -> list[_E]:
    """The elements of one kind (each made by its class, _KINDS) as that class's."""
    return [e for e in elements if isinstance(e, kind)]


def _merged(drawn: tuple[_E, ...], objects: list[_E],
            key: Callable[[_E], Hashable]) -> tuple[_E, ...]:
    """The elements the tiles draw and those of the objects; an object's
    stands for a drawn one in the same place (it carries the note a tile cannot)."""
    taken = {key(e) for e in objects}
    return tuple(e for e in drawn if key(e) not in taken) + tuple(objects)


def _numbered(drawn: tuple[_Marker, ...], objects: dict[int, _Marker]) -> tuple[_Marker, ...]:
    """Markers 1.. as the tiles draw them, each replaced or followed by the
    object of its number."""
    markers = {n: m for n, m in enumerate(drawn, 1)} | objects
    return tuple(markers[n] for n in sorted(markers))
