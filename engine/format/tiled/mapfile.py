"""Read a Tiled map, TMX (XML) or Tiled JSON, into plain data: its size, its
tilesets and one global tile id (with its flip bits) per cell of each tile
layer, plus the tile objects of its object layers.

Layer data may be CSV, base64, base64 with zlib or gzip compression, or
(TMX) one <tile> element per cell. Only finite orthogonal maps are
accepted; anything else raises MapError with a message for the user.
"""
from __future__ import annotations

import base64
import gzip
import json
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field
from pathlib import Path

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
class TiledMap:
    width: int
    height: int
    tilesets: tuple[Tileset, ...]
    layers: tuple[Layer, ...]
    objects: tuple[TileObject, ...] = field(default=())


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
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise MapError(f"cannot read the file ({exc.strerror or exc})") from None
    text = raw.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<"):
        return _read_tmx(raw, path.parent)
    if text.startswith(b"{"):
        return _read_json(raw, path.parent)
    raise MapError("not a Tiled map: the file is neither TMX (XML) nor Tiled JSON")


# ---------------------------------------------------------------- common checks

def _check_map(orientation: str, infinite: bool, width: int, height: int,
               tile_w: int, tile_h: int) -> None:
    if orientation != "orthogonal":
        raise MapError(f"the map is {orientation or 'of no stated orientation'}, not orthogonal: "
                       "only orthogonal maps are squares of a board")
    if infinite:
        raise MapError("the map is infinite: save it as a fixed-size map in Tiled first")
    if not (1 <= width <= 100 and 1 <= height <= 100):
        raise MapError(f"the map is {width} x {height} squares; a course is 1 to 100 each way")
    if tile_w <= 0 or tile_h <= 0:
        raise MapError("the map's tile size is not positive")


def _decode(data: str, encoding: str | None, compression: str | None, count: int,
            where: str) -> tuple[int, ...]:
    try:
        if encoding == "csv":
            cells = tuple(int(v) for v in data.replace("\n", "").split(",") if v.strip())
        elif encoding == "base64":
            blob = base64.b64decode(data.strip(), validate=False)
            if compression == "zlib":
                blob = zlib.decompress(blob)
            elif compression == "gzip":
                blob = gzip.decompress(blob)
            elif compression:
                raise MapError(f"{where}: the layer is compressed with {compression}, which this "
                               "reader does not know (save it with zlib, gzip or none)")
            cells = struct.unpack(f"<{len(blob) // 4}I", blob[: len(blob) // 4 * 4])
        else:
            raise MapError(f"{where}: unknown layer data encoding {encoding!r}")
    except (ValueError, zlib.error, OSError, EOFError, struct.error) as exc:
        raise MapError(f"{where}: the layer data cannot be decoded ({exc})") from None
    if len(cells) != count:
        raise MapError(f"{where}: the layer has {len(cells)} cells, the map {count}")
    return cells


def _object_square(x: float, y: float, w: float, h: float, tile_w: int, tile_h: int,
                   has_gid: bool) -> tuple[int, int]:
    # A tile object's (x, y) is its bottom-left corner; a shape's is its top-left.
    top = y - h if has_gid else y
    return int((x + w / 2) // tile_w), int((top + h / 2) // tile_h)


# ---------------------------------------------------------------- TMX

def _int(element: ET.Element, key: str, default: int = 0) -> int:
    try:
        return int(float(element.get(key, default)))
    except ValueError:
        raise MapError(f"<{element.tag}> has {key}={element.get(key)!r}, not a number") from None


def _read_tmx(raw: bytes, folder: Path) -> TiledMap:
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as exc:
        raise MapError(f"not a Tiled map: the XML cannot be read ({exc})") from None
    if root.tag != "map":
        raise MapError(f"not a Tiled map: the XML document is a <{root.tag}>, not a <map>")
    width, height = _int(root, "width"), _int(root, "height")
    tile_w, tile_h = _int(root, "tilewidth"), _int(root, "tileheight")
    _check_map(root.get("orientation", ""), root.get("infinite") == "1", width, height,
               tile_w, tile_h)
    tilesets = tuple(_tmx_tileset(t, folder) for t in root.iter("tileset"))
    layers = []
    objects = []
    for index, element in enumerate(root.iter()):
        if element.tag == "layer":
            name = element.get("name", f"layer {index}")
            data = element.find("data")
            if data is None:
                raise MapError(f"layer {name!r} has no <data>")
            if data.get("encoding") is None:
                cells = tuple(_int(t, "gid") for t in data.iter("tile"))
                if len(cells) != width * height:
                    raise MapError(f"layer {name!r}: {len(cells)} cells, the map has "
                                   f"{width * height}")
            else:
                cells = _decode(data.text or "", data.get("encoding"), data.get("compression"),
                                width * height, f"layer {name!r}")
            layers.append(Layer(name, cells))
        elif element.tag == "objectgroup":
            name = element.get("name", "")
            for obj in element.iter("object"):
                gid = _int(obj, "gid")
                if gid:
                    x, y = _object_square(float(obj.get("x", 0)), float(obj.get("y", 0)),
                                          float(obj.get("width", tile_w)),
                                          float(obj.get("height", tile_h)), tile_w, tile_h, True)
                    objects.append(TileObject(name, gid, x, y))
    return TiledMap(width, height, tilesets, tuple(layers), tuple(objects))


def _tmx_tileset(element: ET.Element, folder: Path) -> Tileset:
    source = element.get("source", "")
    name, count = element.get("name", ""), element.get("tilecount")
    if source:     # the external file, when at hand, gives the tileset's own name
        try:
            external = ET.parse(folder / source).getroot()
            name, count = external.get("name", ""), external.get("tilecount")
        except (OSError, ET.ParseError):
            pass
    return Tileset(_int(element, "firstgid", 1), name, Path(source).name,
                   int(count) if count and count.isdigit() else None)


# ---------------------------------------------------------------- Tiled JSON

def _read_json(raw: bytes, folder: Path) -> TiledMap:
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise MapError(f"not a Tiled map: the JSON cannot be read ({exc})") from None
    if not isinstance(data, dict) or data.get("type", "map") != "map" or "layers" not in data:
        raise MapError("not a Tiled map: the JSON has no map (\"type\": \"map\" with \"layers\")")
    try:
        width, height = int(data["width"]), int(data["height"])
        tile_w, tile_h = int(data["tilewidth"]), int(data["tileheight"])
        _check_map(str(data.get("orientation", "")), bool(data.get("infinite")), width, height,
                   tile_w, tile_h)
        tilesets = tuple(_json_tileset(t, folder) for t in data.get("tilesets", []))
        layers: list[Layer] = []
        objects: list[TileObject] = []
        _json_layers(data["layers"], width, height, tile_w, tile_h, layers, objects)
    except (KeyError, TypeError, ValueError) as exc:
        raise MapError(f"not a Tiled map: a required entry is missing or wrong ({exc!r})") from None
    return TiledMap(width, height, tilesets, tuple(layers), tuple(objects))


def _json_layers(items: list, width: int, height: int, tile_w: int, tile_h: int,
                 layers: list[Layer], objects: list[TileObject]) -> None:
    for index, layer in enumerate(items):
        name = str(layer.get("name", f"layer {index}"))
        kind = layer.get("type")
        if kind == "group":
            _json_layers(layer.get("layers", []), width, height, tile_w, tile_h, layers, objects)
        elif kind == "tilelayer":
            data = layer["data"]
            if isinstance(data, list):
                cells = tuple(int(v) for v in data)
                if len(cells) != width * height:
                    raise MapError(f"layer {name!r}: {len(cells)} cells, the map has "
                                   f"{width * height}")
            else:
                cells = _decode(str(data), layer.get("encoding", "base64"),
                                layer.get("compression") or None, width * height,
                                f"layer {name!r}")
            layers.append(Layer(name, cells))
        elif kind == "objectgroup":
            for obj in layer.get("objects", []):
                gid = int(obj.get("gid", 0))
                if gid:
                    x, y = _object_square(float(obj.get("x", 0)), float(obj.get("y", 0)),
                                          float(obj.get("width") or tile_w),
                                          float(obj.get("height") or tile_h), tile_w, tile_h, True)
                    objects.append(TileObject(name, gid, x, y))


def _json_tileset(entry: dict, folder: Path) -> Tileset:
    source = str(entry.get("source", ""))
    name, count = str(entry.get("name", "")), entry.get("tilecount")
    if source:
        try:
            external = json.loads((folder / source).read_text("utf-8-sig"))
            name, count = str(external.get("name", "")), external.get("tilecount")
        except (OSError, ValueError, AttributeError):
            try:        # a TMX-era .tsx referenced from a JSON map
                root = ET.parse(folder / source).getroot()
                name, count = root.get("name", ""), root.get("tilecount")
            except (OSError, ET.ParseError):
                pass
    return Tileset(int(entry.get("firstgid", 1)), name, Path(source).name,
                   int(count) if count is not None and str(count).isdigit() else None)
