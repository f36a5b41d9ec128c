"""What the designer has in hand, shared by the palette, the tools and the
inspector: the brush (element, direction, options), the selected rectangle
and the inspected square. None of it is part of the course or its history."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from PySide6.QtCore import QObject, Signal

from rallyforge.engine.editing.transform import MIRRORED_SIDES
from rallyforge.engine.model.directions import INDEX, NAMES
from rallyforge.engine.model.element_kinds import NEW_VALUES, ROTATION, TILES, TILE_KEY_NAMES, new_tile
from rallyforge.engine.model.scenario import Tile

T = TypeVar("T")


def _new_value(key: str, kind: type[T]) -> T:
    """The value a new element takes for `key` (of type `kind`)."""
    value = NEW_VALUES[key]
    assert isinstance(value, kind), (key, value)
    return value


DEFAULT_PHASES: tuple[int, ...] = _new_value("phases", tuple)


@dataclass(frozen=True)
class Brush:
    # The brush holds a value for every key a tile or an edge element takes.
    kind: str = "conveyor"          # a tile type (edge elements and markers have their tools)
    dir: str = _new_value("dir", str)
    express: bool = _new_value("express", bool)
    rotation: str = _new_value("rotation", str)
    phases: tuple[int, ...] = DEFAULT_PHASES
    beams: int = _new_value("beams", int)
    level: int = 1                  # what the Level tool paints (0-3)

    def tile(self, x: int, y: int) -> Tile | None:
        """The tile this brush paints on (x, y); None for plain floor."""
        if self.kind == "floor":
            return None
        return new_tile(x, y, self.kind, **{name: getattr(self, name) for name in TILE_KEY_NAMES})

    @property
    def turns_sense(self) -> bool:
        """Whether turning or mirroring the brush turns its sense of rotation
        (a gear) rather than its direction."""
        return any(k.kind == ROTATION for k in TILES[self.kind].keys)

    @classmethod
    def of_tile(cls, tile: Tile | None, base: "Brush") -> "Brush":
        """The brush that paints `tile` (the eyedropper)."""
        if tile is None:
            return replace(base, kind="floor")
        return replace(base, kind=tile.type, dir=tile.dir or base.dir, express=tile.express,
                       rotation=tile.rotation or base.rotation,
                       phases=tile.phases or base.phases)


class EditState(QObject):
    brushChanged = Signal()
    selectionChanged = Signal()
    inspectedChanged = Signal()
    toolRequested = Signal(str)     # a tool id, or "paint": any tool that paints the brush

    def __init__(self, parent=None):
        super().__init__(parent)
        self._brush = Brush()
        self._selection = None      # (x0, y0, x1, y1) inclusive, or None
        self._inspected = None      # (x, y) or None
        # The row chosen in each list of the Flags and Docks panel: where a
        # Shift+click of the flag or dock tool inserts.
        self.marker_rows = {"flags": None, "docks": None}

    @property
    def brush(self) -> Brush:
        return self._brush

    def set_brush(self, brush: Brush | None = None, **changes) -> None:
        brush = replace(brush or self._brush, **changes)
        if brush != self._brush:
            self._brush = brush
            self.brushChanged.emit()

    def rotate_brush(self, quarter_turns: int) -> None:
        b = self._brush
        if b.turns_sense and quarter_turns % 2:
            self.set_brush(rotation="ccw" if b.rotation == "cw" else "cw")
        else:
            self.set_brush(dir=NAMES[(INDEX[b.dir] + quarter_turns) % 4])

    def mirror_brush(self, axis: str) -> None:
        b = self._brush
        if b.turns_sense:
            self.set_brush(rotation="ccw" if b.rotation == "cw" else "cw")
        else:
            self.set_brush(dir=MIRRORED_SIDES[axis].get(b.dir, b.dir))

    @property
    def selection(self):
        return self._selection

    def set_selection(self, rect) -> None:
        if rect != self._selection:
            self._selection = rect
            self.selectionChanged.emit()

    @property
    def inspected(self):
        return self._inspected

    def inspect(self, square) -> None:
        if square != self._inspected:
            self._inspected = square
            self.inspectedChanged.emit()
