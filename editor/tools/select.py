"""Rectangle select (R): drag to select squares; drag inside the selection to
move its contents (tiles, walls, lasers, pushers, flags and docks). A click
selects one square and shows it in the inspector. Cut, copy, paste, delete,
rotate (Z, Shift+Z) and mirror (X, Y) act on the selection (editor/selection.py)."""
from __future__ import annotations

from rallyforge.engine.editing import edit
from .base import Tool
from .rect_fill import rect_between


def contains(rect, square) -> bool:
    return rect is not None and square is not None and \
        rect[0] <= square[0] <= rect[2] and rect[1] <= square[1] <= rect[3]


class SelectTool(Tool):
    name = "Select"
    key = "R"
    tip = "Drag to select a rectangle; drag the selection to move it"

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.start = None
        self.moving = False

    def press(self, pos, event) -> None:
        square = self.view.square_at(pos)
        if square is None:
            self.state.set_selection(None)
            return
        self.start = square
        self.moving = contains(self.state.selection, square)
        if not self.moving:
            self.state.set_selection((*square, *square))

    def move(self, pos, event) -> None:
        if self.start is None:
            self.hover_square(pos)
            return
        self.view.clear_preview()
        square = self.view.square_at(pos, clamp=True)
        if self.moving:
            self.view.show_moving_selection(self.state.selection, square[0] - self.start[0],
                                            square[1] - self.start[1])
        else:
            self.state.set_selection(rect_between(self.start, square))

    def release(self, pos, event) -> None:
        if self.start is None:
            return
        square = self.view.square_at(pos, clamp=True)
        start, self.start = self.start, None
        rect = self.state.selection
        if not self.moving:
            self.state.set_selection(rect_between(start, square))
            if square == start:
                self.state.inspect(square)
            return
        dx, dy = square[0] - start[0], square[1] - start[1]
        if (dx, dy) == (0, 0):
            self.view.show_selection()
            self.state.inspect(square)
            return
        new, moved = edit.move_region(self.scenario, rect, dx, dy)
        self.push(new, "Move selection", None)
        self.state.set_selection(moved)
        self.view.show_selection()

    def cancel(self) -> None:
        super().cancel()
        self.start = None
        self.moving = False
        self.view.show_selection()
