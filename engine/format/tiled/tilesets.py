"""What the tiles of a known tileset mean: one data file per tileset in
``engine/format/tiled/tilesets/``, read here.

A mapping file is a JSON object:

    {"title": "...", "source": "where the facts come from", "licence": "...",
     "match": {"sources": ["tiles_tileset.tsx"], "names": ["tiles"], "tilecount": 136},
     "tiles": {"4": {"tile": "floor"}, "30": {"walls": ["N"]}, ...}}

``export`` (optional) says how `rallyforge export --tileset CLIENT` writes a map for
the client whose tileset this is: ``client`` (the option's name), ``file``
(the tileset's file name, written next to the map when none is there),
``tilewidth``, ``tileheight``, ``columns`` (of the tileset's picture) and ``layers``, the tile layer the client reads
each kind of element from (``tile``, ``wall``, ``laser``, ``pusher``, ``flag``,
``dock``; kinds may share a layer), and optionally ``objects``: "property"
puts the elements the tileset cannot draw in a map property rather than an
object layer, for a client that reads every layer as tiles.

A tileset used by a map matches when its file name is one of ``sources``,
or its own name is one of ``names`` (and its tile count, when both are
known, is ``tilecount``). ``tiles`` is keyed by the tile's local id (its
global id minus the tileset's firstgid). Each meaning holds any of:

- ``tile``: a tile type of the course format, with ``dir``, ``express``,
  ``rotation``, ``phases`` as the format has them;
- ``walls``: the sides of the square that have a wall;
- ``laser``: ``{"dir", "beams"}``, an emitter on this square firing towards
  ``dir`` (its wall is the side opposite);
- ``pusher``: ``{"dir", "phases"}``, a pusher on this square pushing towards
  ``dir``;
- ``flag``: the flag's number; ``dock``: the dock's number, with ``facing``;
- ``none``: why the tile carries nothing of the course (a laser beam drawn
  along its path, a robot's picture, a marker used only by tests).

Directions are those of the tile as drawn; a flipped or rotated cell turns
them (``convert``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rallyforge.engine.format.tiled.mapfile import Tileset
from rallyforge.engine.model.json_types import JsonObject

FOLDER = Path(__file__).with_name("tilesets")
MEANING_KEYS = {"tile", "dir", "express", "rotation", "phases", "walls", "laser", "pusher",
                "flag", "dock", "facing", "none"}


@dataclass(frozen=True)
class Export:
    client: str
    file: str
    tilewidth: int
    tileheight: int
    columns: int
    layers: dict[str, str]      # the layer of each kind of element (tile, wall, laser, ...)
    objects: str = "layer"      # where the elements the tileset cannot draw go: "layer" or "property"


@dataclass(frozen=True, eq=False)     # one object per file: compared by identity
class Mapping:
    file: str
    title: str
    source: str
    licence: str
    sources: tuple[str, ...]
    names: tuple[str, ...]
    tilecount: int | None
    tiles: dict[int, JsonObject]           # tile id -> what it means (MEANING_KEYS)
    export: Export | None       # None: read only

    def matches(self, tileset: Tileset) -> bool:
        if tileset.source and tileset.source in self.sources:
            return True
        return (tileset.name in self.names
                and (self.tilecount is None or tileset.tilecount in (None, self.tilecount)))


class MappingError(Exception):
    """A mapping file is broken: a bug in the project's data."""


def _load(path: Path) -> Mapping:
    data = json.loads(path.read_text("utf-8"))
    tiles: dict[int, JsonObject] = {}
    for key, meaning in data["tiles"].items():
        unknown = set(meaning) - MEANING_KEYS
        if unknown:
            raise MappingError(f"{path.name}: tile {key} has unknown keys {sorted(unknown)}")
        tiles[int(key)] = meaning
    match = data["match"]
    return Mapping(path.name, data["title"], data["source"], data["licence"],
                   tuple(match.get("sources", ())), tuple(match.get("names", ())),
                   match.get("tilecount"), tiles,
                   Export(**data["export"]) if "export" in data else None)


@lru_cache(maxsize=1)
def mappings() -> tuple[Mapping, ...]:
    """Every shipped mapping, in file-name order (the first match wins)."""
    return tuple(_load(p) for p in sorted(FOLDER.glob("*.json")))


def mapping_for(tileset: Tileset) -> Mapping | None:
    return next((m for m in mappings() if m.matches(tileset)), None)


def clients() -> dict[str, Mapping]:
    """The mappings by the name of the client whose tileset they read."""
    return {m.export.client: m for m in mappings() if m.export is not None}
