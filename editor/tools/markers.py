"""Flags (G) and docks (K): click a square to add the next one, Shift+click to
insert it before the one chosen in the Flags and Docks panel (taking its
number); drag one to move it; right click removes it (the later ones renumber
down). Clicking a dock turns it to face the brush's direction. Renumber by
dragging in the Flags and Docks panel."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt

from rallyforge.engine.editing import edit
from rallyforge.engine.model.scenario import Dock, Flag
from .base import Tool


class MarkerTool(Tool):
    kind = ""       # "flags" or "docks"
    label = ""

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.dragging = None    # index of the marker being moved

    def make(self, x: int, y: int):
        raise NotImplementedError

    def press(self, pos, event) -> None:
        square = self.view.square_at(pos)
        if square is None:
            return
        s = self.scenario
        index = edit.marker_at(s, self.kind, *square)
        self.state.inspect(square)
        if event.button() == Qt.MouseButton.RightButton:
            if index is not None:
                self.push(edit.remove_marker(s, self.kind, index),
                          f"Remove {self.label} {index + 1}")
        elif index is not None:
            self.dragging = index
        else:
            at = len(edit.markers(s, self.kind))
            row = self.state.marker_rows[self.kind]
            shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            if shift and row is not None and row < at:
                at = row
            self.push(edit.insert_marker(s, self.kind, at, self.make(*square)),
                      f"Add {self.label} {at + 1}")

    def move(self, pos, event) -> None:
        self.hover_square(pos)

    def release(self, pos, event) -> None:
        if self.dragging is None:
            return
        index, self.dragging = self.dragging, None
        square = self.view.square_at(pos)
        s = self.scenario
        old = edit.markers(s, self.kind)[index]
        if square is None:
            return
        if square == (old.x, old.y):
            self.clicked(index)
        elif edit.marker_at(s, self.kind, *square) is None:
            moved = replace(old, x=square[0], y=square[1])
            self.push(edit.replace_marker(s, self.kind, index, moved),
                      f"Move {self.label} {index + 1}")
            self.state.inspect(square)

    def clicked(self, index: int) -> None:
        pass

    def cancel(self) -> None:
        super().cancel()
        self.dragging = None


class FlagTool(MarkerTool):
    name = "Flags"
    key = "G"
    kind = "flags"
    label = "flag"
    tip = ("Click to add the next flag (Shift: insert before the one chosen in the list); "
           "drag a flag to move it; right click removes it")

    def make(self, x, y):
        return Flag(x, y)


class DockTool(MarkerTool):
    name = "Docks"
    key = "K"
    kind = "docks"
    label = "dock"
    tip = "Click to add the next dock facing the brush direction; drag to move; right click removes"

    def make(self, x, y):
        return Dock(x, y, self.state.brush.dir)

    def clicked(self, index: int) -> None:
        s = self.scenario
        dock = s.docks[index]
        if dock.facing != self.state.brush.dir:
            self.push(edit.replace_marker(s, "docks", index,
                                          Dock(dock.x, dock.y, self.state.brush.dir, dock.note)),
                      f"Turn dock {index + 1}")
