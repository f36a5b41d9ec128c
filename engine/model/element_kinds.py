"""One description per board element: every tile type and edge element, with
its keys, what the rules say about it in general terms and its display name.

Everything outside the rules code that needs a per-type fact reads it here:
the loader and the canonical save, the validator, the editor's brush,
inspector, palette and renderer dispatch, the statistics' death causes and
the preview's labels. A new tile type is a row of TILES, its rules (the
rules modules and ``course.Course``), its painter (``drawing/painters/``) and
its entry in ``schema/scenario.schema.json``; tests/test_elements_table.py
fails when any consumer lacks a type listed here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rallyforge.engine.model.scenario import Board, Laser, Pusher, Tile, Wall

# Kinds of key value; the loader reads and writes each kind in one way, the
# editor offers one control per kind.
DIRECTION = "direction"     # "N", "E", "S" or "W"
FLAG = "flag"               # true or false
ROTATION = "rotation"       # "cw" or "ccw"
REGISTERS = "registers"     # distinct registers 1-5, increasing
COUNT = "count"             # an integer
VALUE_KINDS = (DIRECTION, FLAG, ROTATION, REGISTERS, COUNT)


@dataclass(frozen=True)
class Key:
    """A key an element takes besides x, y (and type) and note; the model's
    field of the same name holds its value."""
    name: str
    kind: str                   # one of VALUE_KINDS
    new: object                 # the value of a new element painted in the editor
    optional: bool = False      # the file may leave it out: it then means `default`
    default: object = None
    omit_default: bool = False  # the canonical save leaves it out when it is `default`
    label: str = ""             # the editor's name for it
    undo: str = ""              # the editor's undo text for changing it ({type}: the element's)


@dataclass(frozen=True)
class Cause:
    """A cause of destruction, as events and statistics name it."""
    name: str
    label: str                  # plural, as in "deaths by pits"
    fall: bool                  # the robot falls (shrinks away) rather than being wrecked
    color: str                  # its colour in the heatmaps ("#rrggbb")


@dataclass(frozen=True)
class TileType:
    name: str
    label: str                                  # display name
    keys: tuple[Key, ...] = ()                  # in the file's order
    belt: bool = False                          # moves robots in a belt step (dir: where to)
    deadly: bool = False                        # destroys a robot that enters it (cause: death)
    death: str | None = None                    # the cause of the destructions it deals
    archive_point: bool = False                 # repairs at clean-up, moves the archive (7.1, 7.3)
    flag_warning: str | None = None             # W406: why a flag should not stand on it
    dock_warning: str | None = None             # W407: why a dock should not stand on it
    palette: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] = ()
    # the palette's entries for it when it has several: (label, key values)

    def key(self, name: str) -> Key | None:
        return next((k for k in self.keys if k.name == name), None)

    @property
    def key_names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys)

    @property
    def entries(self) -> tuple[tuple[str, tuple[tuple[str, object], ...]], ...]:
        """The palette's entries: (label, key values)."""
        return self.palette or ((self.label, ()),)


@dataclass(frozen=True)
class EdgeType:
    """An element hanging on a square's edge, listed in board[list]."""
    name: str
    label: str
    list: str                                   # the board's list of them
    model: type[Any]                            # the model's class
    keys: tuple[Key, ...]                       # besides x, y and note; the first is its side
    mounted: bool = False                       # hangs on a wall that exists whether listed or not
    one_per_square: bool = False                # E205
    # the warning when it faces a wall on its own square, and what that wall
    # does to it ({dir}: the way it faces)
    facing_wall: tuple[str, str] | None = None


_DIR = Key("dir", DIRECTION, new="E", label="Direction", undo="Turn tile")
_PHASES = Key("phases", REGISTERS, new=(1, 3, 5), label="Registers", undo="Change {type} registers")

TILE_LIST: tuple[TileType, ...] = (
    TileType("floor", "Floor"),
    TileType("pit", "Pit", deadly=True, death="pit"),
    TileType("conveyor", "Conveyor",
             (_DIR, Key("express", FLAG, new=False, optional=True, default=False,
                        omit_default=True, label="express", undo="Change belt speed")),
             belt=True,
             flag_warning="the belt carries robots off it before they touch the flag",
             dock_warning="the belt carries robots off it in their first register",
             palette=(("Conveyor", (("express", False),)),
                      ("Express conveyor", (("express", True),)))),
    TileType("gear", "Gear", (Key("rotation", ROTATION, new="cw", label="Turns",
                                  undo="Change gear turn"),),
             flag_warning="the gear turns every robot that stops there",
             dock_warning="the gear turns robots away from their starting facing",
             palette=(("Gear, clockwise", (("rotation", "cw"),)),
                      ("Gear, counter-clockwise", (("rotation", "ccw"),)))),
    TileType("repair", "Repair", archive_point=True),
    TileType("upgrade", "Upgrade", archive_point=True),
    TileType("crusher", "Crusher", (_PHASES,), death="crusher",
             flag_warning="the crusher destroys robots that stop there",
             dock_warning="the crusher destroys robots where they start"),
    TileType("water", "Water"),
    TileType("current", "Current", (_DIR,), belt=True),
    TileType("drain", "Drain", deadly=True, death="drain"),
    TileType("teleporter", "Teleporter"),
    TileType("randomizer", "Randomizer"),
    # dir: the way up; the square behind it is one level lower (docs/rules.md 11)
    TileType("ramp", "Ramp", (Key("dir", DIRECTION, new="E", label="Up towards",
                                  undo="Turn ramp"),)),
    # not on the table (beside a narrower board of an assembled course): entering
    # it is leaving the board (docs/rules.md 3.4)
    TileType("void", "Void (off the table)", deadly=True, death="off board"),
)
TILES: dict[str, TileType] = {t.name: t for t in TILE_LIST}
TILE_TYPES: tuple[str, ...] = tuple(TILES)
BELT_TYPES = frozenset(t.name for t in TILE_LIST if t.belt)
DEADLY_TYPES = frozenset(t.name for t in TILE_LIST if t.deadly)
TILE_KEY_NAMES: tuple[str, ...] = tuple(dict.fromkeys(k.name for t in TILE_LIST for k in t.keys))

EDGE_LIST: tuple[EdgeType, ...] = (
    EdgeType("wall", "Wall", "walls", Wall, (Key("side", DIRECTION, new="N", label="Side"),)),
    EdgeType("laser", "Laser", "lasers", Laser,
             (_DIR, Key("beams", COUNT, new=1, optional=True, default=1, label="Beams")),
             mounted=True,
             facing_wall=("W402", "fires {dir} into a wall on its own square, so its beam goes "
                                  "no further; turn the laser or remove the wall")),
    EdgeType("pusher", "Pusher", "pushers", Pusher, (_DIR, _PHASES), mounted=True,
             one_per_square=True,
             facing_wall=("W404", "pushes {dir} into a wall, so it never moves a robot; turn it "
                                  "or remove the wall")),
)
EDGES: dict[str, EdgeType] = {e.name: e for e in EDGE_LIST}

# The value of each key in a new element (a key shared by several types
# starts alike in all of them).
NEW_VALUES: dict[str, object] = {}
for _key in (k for element in TILE_LIST + EDGE_LIST for k in element.keys):
    NEW_VALUES.setdefault(_key.name, _key.new)

# In the order the statistics and the heatmaps list them.
CAUSE_LIST: tuple[Cause, ...] = (
    Cause("pit", "pits", fall=True, color="#7b2cbf"),
    Cause("drain", "drains", fall=True, color="#1f6feb"),
    Cause("off board", "off the board", fall=True, color="#f0a202"),
    Cause("damage", "damage", fall=False, color="#e5383b"),    # lasers, falls (docs/rules.md 11.2)
    Cause("crusher", "crushers", fall=False, color="#2a9d8f"),
    # a fall down a ledge onto robots with no free square before a wall (docs/rules.md 11.2)
    Cause("fall", "falls onto robots", fall=False, color="#6b4f2a"),
)
CAUSES: dict[str, Cause] = {c.name: c for c in CAUSE_LIST}
DEATH_CAUSES: tuple[str, ...] = tuple(CAUSES)
FALL_CAUSES = frozenset(c.name for c in CAUSE_LIST if c.fall)
# Causes a robot meets alone on the board (no damage counting): the tiles'
# and the edge's.
BOARD_CAUSES: tuple[str, ...] = tuple(c for c in DEATH_CAUSES if c != "damage")


def off_table(board: Board, x: int, y: int) -> bool:
    """Whether (x, y) is no floor: off the board, or a void square (docs/format.md)."""
    return not board.in_bounds(x, y) or board.type_at(x, y) == "void"


def tile_values(tile: Tile) -> dict[str, object]:
    """The values of the keys its type takes."""
    return {k.name: getattr(tile, k.name) for k in TILES[tile.type].keys}


def new_tile(x: int, y: int, kind: str, note: str | None = None, **values: Any) -> Tile:
    """A tile of type `kind` with the given key values: values for keys its
    type does not take are dropped, missing or empty ones (None, ()) get
    their `new` value."""
    # each key's value has the type its Key says (kind), which the model's fields declare
    given: dict[str, Any] = {k.name: _given(values.get(k.name), k.new) for k in TILES[kind].keys}
    return Tile(x, y, kind, note=note, **given)


def retyped_tile(tile: Tile, kind: str) -> Tile:
    """The tile with another type, keeping the values of the keys both take."""
    return new_tile(tile.x, tile.y, kind, tile.note,
                    **{name: getattr(tile, name) for name in TILE_KEY_NAMES})


def _given(value: object, new: object) -> object:
    return new if value is None or value == () else value
