"""Read a Tiled map, TMX (XML) or Tiled JSON, into plain data: its size, its
tilesets and one global tile id (with its flip bits) per cell of each tile
layer, plus the tile objects of its object layers, and what a map written by
`rallyforge export` carries beside its tiles (docs/tiled-import.md, export): the
course's text in the map's custom property COURSE_PROPERTY, and each element
the tileset cannot draw in an object's custom property ELEMENT_PROPERTY (or
all of them in the map's ELEMENTS_PROPERTY, for a client that reads every
layer as tiles).

Layer data may be CSV, base64, base64 with zlib or gzip compression, or
(TMX) one <tile> element per cell. Only finite orthogonal maps are
accepted; anything else raises MapError with a message for the user.
Whatever a file holds, reading it is bounded (docs/format.md "Tiled maps":
file sizes, regular files only, inflated layers, counts, numbers, names).
"""
from __future__ import annotations

import base64
import binascii
import json
import math
import os
import re
import stat
import struct
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rallyforge.engine.model.json_types import JsonObject

FLIP_H = 0x80000000
FLIP_V = 0x40000000
FLIP_D = 0x20000000
GID_MASK = 0x0FFFFFFF        # bit 28 is the hexagonal 120° flag, never set on orthogonal maps


class MapError(Exception):
    """The file is not a map this reader accepts; the message says why."""


@dataclass(frozen=True)
class Tileset:
    firstgid: int
    name: str               # the tileset's own name, or "" when its file is not at hand
    source: str             # the external tileset file's name, "" for an embedded one
    tilecount: int | None


@dataclass(frozen=True)
class Layer:
    name: str
    cells: tuple[int, ...]  # row by row from the top-left; 0 is an empty cell


@dataclass(frozen=True)
class TileObject:
    layer: str
    gid: int                # with its flip bits
    x: int                  # the square the object's centre stands on
    y: int


@dataclass(frozen=True)
class Record:
    """An object of an object layer carrying an element in ELEMENT_PROPERTY."""
    layer: str
    text: str               # the element, as JSON


@dataclass(frozen=True)
class TiledMap:
    width: int
    height: int
    tilesets: tuple[Tileset, ...]
    layers: tuple[Layer, ...]
    objects: tuple[TileObject, ...] = field(default=())
    course: str | None = None           # the map's COURSE_PROPERTY
    records: tuple[Record, ...] = field(default=())


COURSE_PROPERTY = "rallyforge-course"
ELEMENT_PROPERTY = "rallyforge-element"
ELEMENTS_PROPERTY = "rallyforge-elements"   # the same, all in a map property (no object layer)
UNLISTED_WALL = "unlisted wall"     # an element's kind: a wall the tiles draw that the course lacks


# A TMX file's first element (after the XML declaration, comments and a doctype) is <map>.
_TMX_START = re.compile(rb"\s*(<\?xml.*?\?>\s*)?(<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*<map[\s>/]",
                        re.DOTALL)


def is_tmx(raw: bytes) -> bool:
    """Whether the bytes of a file are a TMX map (what a course reader takes for broken JSON)."""
    return _TMX_START.match(raw.removeprefix(b"\xef\xbb\xbf")[:4096]) is not None


def is_tiled_json(data: object) -> bool:
    """Whether a parsed JSON document is a Tiled map: the keys Tiled writes
    into every map, none of which a course has."""
    return (isinstance(data, dict) and data.get("type") == "map" and "layers" in data
            and ("tiledversion" in data or "orientation" in data))


def read_map(path: str | Path) -> TiledMap:
    path = Path(path)
    raw = read_bounded(path, MAX_MAP_BYTES, "the map file")
    text = raw.lstrip(b"\xef\xbb\xbf \t\r\n")
    try:
        if text.startswith(b"<"):
            return _read_tmx(raw, path.parent)
        if text.startswith(b"{"):
            return _read_json(raw, path.parent)
    except RecursionError:
        raise MapError("not a Tiled map: it is nested too deeply") from None
    raise MapError("not a Tiled map: the file is neither TMX (XML) nor Tiled JSON")


# ---------------------------------------------------------------- bounds (docs/format.md "Tiled maps")

MAX_MAP_BYTES = 4 * 1024 * 1024         # a map file
MAX_TILESET_BYTES = 1024 * 1024         # each external tileset file
MAX_LAYERS = 32                         # tile layers
MAX_OBJECTS = 10_000                    # tile objects, over all object layers
MAX_TILESETS = 64
MAX_NESTING = 16                        # group layers in group layers
MAX_NAME = 60                           # characters of a name shown in a message or label
MAX_TILE_SIZE = 100_000                 # pixels of a tile's side
MAX_COORDINATE = 1e9                    # pixels of an object's place or size


def read_bounded(path: Path, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; MapError
    otherwise (`what` names it in the message). A FIFO, a device or a
    folder is refused by its kind, found before it is opened (opening a FIFO
    waits for a writer; a device reads for ever), and opened without waiting
    in case it changed in between."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise MapError(f"cannot read {what} ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise MapError(f"{what} is {_kind(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise MapError(f"{what} is {info.st_size:,} bytes; at most {limit:,} are read")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise MapError(f"{what} is not a regular file")
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise MapError(f"cannot read {what} ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise MapError(f"{what} is more than {limit:,} bytes; at most {limit:,} are read")
    return raw


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def short(text: str) -> str:
    """`text` as a message shows it: at most MAX_NAME characters (a map's
    names are the map maker's; one of 100,000 characters, repeated in the
    label of every cell, made a small file take gigabytes)."""
    return text if len(text) <= MAX_NAME else text[:MAX_NAME - 1] + "…"


def whole(value: object, what: str, low: int, high: int) -> int:
    """`value` (a number, or a text of one, as TMX and JSON give them) as a
    whole number from `low` to `high`; MapError for anything else: not a
    number, a fraction, infinite, not a number at all (NaN), out of range."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise MapError(f"{what} is {short(repr(value))}, not a whole number")
    number = finite(value, what)
    if number != int(number):
        raise MapError(f"{what} is {short(repr(value))}, not a whole number")
    if not low <= number <= high:
        raise MapError(f"{what} is {int(number):,}; it must be {low:,} to {high:,}")
    return int(number)


def finite(value: object, what: str, bound: float = 2.0 ** 53) -> float:
    """`value` as a finite number of magnitude at most `bound`; MapError otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = float(value) if abs(value) <= bound else math.inf
    elif isinstance(value, float):
        number = value
    elif isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        number = float(value)
    else:
        raise MapError(f"{what} is {short(repr(value))}, not a number")
    if not math.isfinite(number) or abs(number) > bound:
        raise MapError(f"{what} is {short(repr(value))}: not finite, or too large")
    return number


_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d{1,3})?", re.ASCII)


# ---------------------------------------------------------------- common checks

MAX_SIDE = 100              # squares a course has each way
MAX_GID = 0xFFFFFFFF        # a cell: a global tile id with its flip bits, 32 bits


def _check_map(orientation: str, infinite: bool, width: int, height: int) -> None:
    if orientation != "orthogonal":
        raise MapError(f"the map is {short(orientation) or 'of no stated orientation'}, not "
                       "orthogonal: only orthogonal maps are squares of a board")
    if infinite:
        raise MapError("the map is infinite: save it as a fixed-size map in Tiled first")
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise MapError(f"the map is {width} x {height} squares; a course is 1 to 100 each way")


def _size(value: object, what: str) -> int:
    """A map's width or height: a whole number (the range is _check_map's)."""
    return whole(value, what, -2 ** 31, 2 ** 31)


def _decode(data: str, encoding: object, compression: object, count: int,
            where: str) -> tuple[int, ...]:
    """The `count` cells of a layer's data. Compressed data is inflated only
    as far as the layer's declared size (4 bytes a cell) and one byte more:
    a small file inflating to gigabytes is refused, not read."""
    if encoding == "csv":
        words = [v.strip() for v in data.split(",")]
        if words and not words[-1]:
            words.pop()                     # (a trailing comma)
        if len(words) != count:
            raise MapError(f"{where}: the layer has {len(words)} cells, the map {count}")
        return tuple(whole(v, f"{where}: a cell", 0, MAX_GID) for v in words)
    if encoding != "base64":
        raise MapError(f"{where}: unknown layer data encoding {short(repr(encoding))}")
    size = 4 * count
    try:
        blob = base64.b64decode(data.strip(), validate=False)
        if compression in ("zlib", "gzip"):
            inflater = zlib.decompressobj(zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
            blob = inflater.decompress(blob, size + 1)
            if inflater.unused_data:
                raise MapError(f"{where}: the layer data goes on after its compressed stream")
        elif compression:
            raise MapError(f"{where}: the layer is compressed with {short(repr(compression))}, "
                           "which this reader does not know (save it with zlib, gzip or none)")
    except (ValueError, binascii.Error, zlib.error) as exc:
        raise MapError(f"{where}: the layer data cannot be decoded ({exc})") from None
    if len(blob) > size:
        raise MapError(f"{where}: the layer's data holds more than the map's {count} cells "
                       f"({size:,} bytes): reading stopped there")
    if len(blob) != size:
        raise MapError(f"{where}: the layer has {len(blob) // 4} cells, the map {count}")
    return struct.unpack(f"<{count}I", blob)


def _object_square(x: float, y: float, w: float, h: float, tile_w: int, tile_h: int,
                   has_gid: bool) -> tuple[int, int]:
    # A tile object's (x, y) is its bottom-left corner; a shape's is its top-left.
    top = y - h if has_gid else y
    return int((x + w / 2) // tile_w), int((top + h / 2) // tile_h)


def _tile_object(layer: str, gid: int, place: JsonObject, tile_w: int, tile_h: int,
                 where: str) -> TileObject:
    x, y, w, h = (finite(place[k], f"{where}: its {k}", MAX_COORDINATE)
                  for k in ("x", "y", "width", "height"))
    return TileObject(layer, gid, *_object_square(x, y, w, h, tile_w, tile_h, True))


class _Counts:
    """How many layers, objects and tilesets were read so far, against their bounds."""

    def __init__(self) -> None:
        self.layers = self.objects = 0

    def layer(self) -> None:
        self.layers += 1
        if self.layers > MAX_LAYERS:
            raise MapError(f"the map has more than {MAX_LAYERS} tile layers")

    def object(self) -> None:
        self.objects += 1
        if self.objects > MAX_OBJECTS:
            raise MapError(f"the map has more than {MAX_OBJECTS:,} tile objects")


def _tilesets_at_most(count: int) -> None:
    if count > MAX_TILESETS:
        raise MapError(f"the map has {count} tilesets; at most {MAX_TILESETS} are read")


def _tilecount(value: object) -> int | None:
    """A tileset's tile count when it is a plain whole number, else unknown."""
    text = str(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else ""
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text) else None


# ---------------------------------------------------------------- TMX

def _attr(element: ET.Element, key: str, low: int, high: int, default: int | None = None) -> int:
    value = element.get(key)
    if value is None and default is not None:
        return default
    return whole(value, f"<{element.tag}> {key}", low, high)


def _read_tmx(raw: bytes, folder: Path) -> TiledMap:
    try:
        root = ET.fromstring(raw)
    except (ET.ParseError, LookupError, ValueError) as exc:
        raise MapError(f"not a Tiled map: the XML cannot be read ({short(str(exc))})") from None
    if root.tag != "map":
        raise MapError(f"not a Tiled map: the XML document is a <{short(str(root.tag))}>, not a <map>")
    width, height = _size(root.get("width"), "<map> width"), _size(root.get("height"), "<map> height")
    _check_map(root.get("orientation", ""), root.get("infinite") == "1", width, height)
    tile_w = _attr(root, "tilewidth", 1, MAX_TILE_SIZE)
    tile_h = _attr(root, "tileheight", 1, MAX_TILE_SIZE)
    found = root.findall(".//tileset")
    _tilesets_at_most(len(found))
    tilesets = tuple(_tmx_tileset(t, folder) for t in found)
    layers = []
    objects = []
    records = []
    counts = _Counts()
    for index, element in enumerate(root.iter()):
        if element.tag == "layer":
            counts.layer()
            name = short(element.get("name", f"layer {index}"))
            data = element.find("data")
            if data is None:
                raise MapError(f"layer {name!r} has no <data>")
            if data.get("encoding") is None:
                tiles = data.findall("tile")
                if len(tiles) != width * height:
                    raise MapError(f"layer {name!r}: {len(tiles)} cells, the map has "
                                   f"{width * height}")
                cells = tuple(_attr(t, "gid", 0, MAX_GID, 0) for t in tiles)
            else:
                cells = _decode(data.text or "", data.get("encoding"), data.get("compression"),
                                width * height, f"layer {name!r}")
            layers.append(Layer(name, cells))
        elif element.tag == "objectgroup":
            name = short(element.get("name", ""))
            for obj in element.iter("object"):
                gid = _attr(obj, "gid", 0, MAX_GID, 0)
                if gid:
                    counts.object()
                    place = {"x": obj.get("x", 0), "y": obj.get("y", 0),
                             "width": obj.get("width", tile_w), "height": obj.get("height", tile_h)}
                    objects.append(_tile_object(name, gid, place, tile_w, tile_h,
                                                f"object layer {name!r}: an <object>"))
                text = _tmx_property(obj, ELEMENT_PROPERTY)
                if text is not None:
                    counts.object()
                    records.append(Record(name, text))
    records += _listed(_tmx_property(root, ELEMENTS_PROPERTY))
    return TiledMap(width, height, tilesets, tuple(layers), tuple(objects),
                    _tmx_property(root, COURSE_PROPERTY), tuple(records))


def _tmx_property(element: ET.Element, name: str) -> str | None:
    """The custom property `name` of an element (its own <properties> only):
    a value attribute, or text for a multi-line one."""
    found = element.find("properties")
    for prop in (found.findall("property") if found is not None else ()):
        if prop.get("name") == name:
            return prop.get("value", prop.text or "")
    return None


def _tmx_tileset(element: ET.Element, folder: Path) -> Tileset:
    source = element.get("source", "")
    name, count = element.get("name", ""), element.get("tilecount")
    firstgid = _attr(element, "firstgid", 1, GID_MASK, 1)
    if source:     # the external file, when at hand, gives the tileset's own name
        external = _external(folder, source)
        if external is not None:
            try:
                root = ET.fromstring(external)
                name, count = root.get("name", ""), root.get("tilecount")
            except (ET.ParseError, LookupError, ValueError):
                pass
    return Tileset(firstgid, short(name), short(Path(source).name), _tilecount(count))


def _external(folder: Path, source: str) -> bytes | None:
    """An external tileset file's bytes; None when there is no such file (the
    map is read without its tileset's own name). Not a regular file, or too
    big: MapError."""
    path = folder / source
    try:
        os.stat(path)
    except (OSError, ValueError):
        return None
    return read_bounded(path, MAX_TILESET_BYTES, f"the tileset file {short(source)!r}")


# ---------------------------------------------------------------- Tiled JSON

def _no_constant(name: str) -> object:
    raise MapError(f"not a Tiled map: the JSON holds {name}, which is no number a map may hold")


def _read_json(raw: bytes, folder: Path) -> TiledMap:
    try:
        data = json.loads(raw.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        raise MapError(f"not a Tiled map: the JSON cannot be read ({short(str(exc))})") from None
    if not isinstance(data, dict) or data.get("type", "map") != "map" or "layers" not in data:
        raise MapError("not a Tiled map: the JSON has no map (\"type\": \"map\" with \"layers\")")
    for key in ("width", "height", "tilewidth", "tileheight"):
        if key not in data:
            raise MapError(f"not a Tiled map: the JSON has no {key!r}")
    width, height = _size(data["width"], "the map's width"), _size(data["height"], "the map's height")
    _check_map(_text(data.get("orientation", "")), bool(data.get("infinite")), width, height)
    tile_w = whole(data["tilewidth"], "the map's tilewidth", 1, MAX_TILE_SIZE)
    tile_h = whole(data["tileheight"], "the map's tileheight", 1, MAX_TILE_SIZE)
    entries = _list(data.get("tilesets", []), "the map's tilesets")
    _tilesets_at_most(len(entries))
    tilesets = tuple(_json_tileset(_object(t, "a tileset"), folder) for t in entries)
    layers: list[Layer] = []
    objects: list[TileObject] = []
    records: list[Record] = []
    _json_layers(data["layers"], width, height, tile_w, tile_h, layers, objects, records,
                 _Counts(), 0)
    records += _listed(_json_property(data, ELEMENTS_PROPERTY))
    return TiledMap(width, height, tilesets, tuple(layers), tuple(objects),
                    _json_property(data, COURSE_PROPERTY), tuple(records))


def _listed(text: str | None) -> list[Record]:
    """The elements of a map's ELEMENTS_PROPERTY: a JSON list of elements."""
    if text is None:
        return []
    try:
        items = json.loads(text)
        if not isinstance(items, list):
            raise ValueError("not a list")
    except (ValueError, RecursionError) as exc:
        raise MapError(f"the map's {ELEMENTS_PROPERTY} property is not a list of elements "
                       f"({short(str(exc))})") from None
    if len(items) > MAX_OBJECTS:
        raise MapError(f"the map's {ELEMENTS_PROPERTY} property lists more than "
                       f"{MAX_OBJECTS:,} elements")
    return [Record(f"the map's {ELEMENTS_PROPERTY} property", json.dumps(item)) for item in items]


def _json_property(owner: JsonObject, name: str) -> str | None:
    """The custom property `name` of a map or an object, when it is a text."""
    for prop in owner.get("properties", ()) if isinstance(owner.get("properties"), list) else ():
        if isinstance(prop, dict) and prop.get("name") == name and isinstance(prop.get("value"), str):
            return prop["value"]
    return None


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise MapError(f"{what}: a list was expected, not {type(value).__name__}")
    return value


def _object(value: object, what: str) -> JsonObject:
    if not isinstance(value, dict):
        raise MapError(f"{what}: an object was expected, not {type(value).__name__}")
    return value


def _text(value: object) -> str:
    return value if isinstance(value, str) else str(value)[:MAX_NAME]


def _json_layers(items: object, width: int, height: int, tile_w: int, tile_h: int,
                 layers: list[Layer], objects: list[TileObject], records: list[Record],
                 counts: _Counts, depth: int) -> None:
    if depth > MAX_NESTING:
        raise MapError(f"the map's group layers are nested more than {MAX_NESTING} deep")
    for index, item in enumerate(_list(items, "the map's layers")):
        layer = _object(item, "a layer")
        name = short(_text(layer.get("name", f"layer {index}")))
        kind = layer.get("type")
        if kind == "group":
            _json_layers(layer.get("layers", []), width, height, tile_w, tile_h, layers, objects,
                         records, counts, depth + 1)
        elif kind == "tilelayer":
            counts.layer()
            if "data" not in layer:
                raise MapError(f"layer {name!r} has no data")
            data = layer["data"]
            if isinstance(data, list):
                if len(data) != width * height:
                    raise MapError(f"layer {name!r}: {len(data)} cells, the map has "
                                   f"{width * height}")
                cells = tuple(whole(v, f"layer {name!r}: a cell", 0, MAX_GID) for v in data)
            elif isinstance(data, str):
                cells = _decode(data, layer.get("encoding", "base64"),
                                layer.get("compression") or None, width * height,
                                f"layer {name!r}")
            else:
                raise MapError(f"layer {name!r}: its data is neither a list nor a text")
            layers.append(Layer(name, cells))
        elif kind == "objectgroup":
            for entry in _list(layer.get("objects", []), f"object layer {name!r}: its objects"):
                obj = _object(entry, f"object layer {name!r}: an object")
                gid = whole(obj.get("gid", 0), f"object layer {name!r}: a gid", 0, MAX_GID)
                if gid:
                    counts.object()
                    place = {"x": obj.get("x", 0), "y": obj.get("y", 0),
                             "width": obj.get("width") or tile_w,
                             "height": obj.get("height") or tile_h}
                    objects.append(_tile_object(name, gid, place, tile_w, tile_h,
                                                f"object layer {name!r}: an object"))
                text = _json_property(obj, ELEMENT_PROPERTY)
                if text is not None:
                    counts.object()
                    records.append(Record(name, text))


def _json_tileset(entry: JsonObject, folder: Path) -> Tileset:
    source = _text(entry.get("source", ""))
    name, count = _text(entry.get("name", "")), entry.get("tilecount")
    firstgid = whole(entry.get("firstgid", 1), "a tileset's firstgid", 1, GID_MASK)
    external = _external(folder, source) if source else None
    if external is not None:
        try:
            found = json.loads(external.decode("utf-8-sig"), parse_constant=_no_constant)
            if not isinstance(found, dict):
                raise ValueError("not an object")
            name, count = _text(found.get("name", "")), found.get("tilecount")
        except (ValueError, RecursionError):
            try:        # a TMX-era .tsx referenced from a JSON map
                root = ET.fromstring(external)
                name, count = root.get("name", ""), root.get("tilecount")
            except (ET.ParseError, LookupError, ValueError):
                pass
    return Tileset(firstgid, short(name), short(Path(source).name), _tilecount(count))
