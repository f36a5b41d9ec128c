"""Rectangle fill (P): drag a rectangle and fill it with the brush's element
(right button: clear it to plain floor)."""
from __future__ import annotations

from PySide6.QtCore import Qt

from rallyforge.editor.board_view import rect_path
from rallyforge.engine.editing import edit
from .base import Tool


def rect_between(a, b):
    return min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])


class RectFillTool(Tool):
    name = "Rectangle Fill"
    key = "P"
    tip = "Drag a rectangle to fill it with the selected element (right button: clear)"

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.start = None
        self.erase = False

    def press(self, pos, event) -> None:
        self.start = self.view.square_at(pos)
        self.erase = event.button() == Qt.MouseButton.RightButton
        if self.start:
            self.view.show_preview(rect_path(rect_between(self.start, self.start)))

    def move(self, pos, event) -> None:
        if self.start is None:
            self.hover_square(pos)
            return
        square = self.view.square_at(pos, clamp=True)
        self.view.show_preview(rect_path(rect_between(self.start, square)))

    def release(self, pos, event) -> None:
        if self.start is None:
            return
        rect = rect_between(self.start, self.view.square_at(pos, clamp=True))
        self.start = None
        self.view.clear_preview()
        brush = self.state.brush
        x0, y0, x1, y1 = rect
        changes = {(x, y): None if self.erase else brush.tile(x, y)
                   for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)}
        board = edit.set_tiles(self.scenario.board, changes)
        self.push(edit.with_board(self.scenario, board), "Clear rectangle" if self.erase
                  else f"Fill rectangle with {brush.kind}", rect)

    def cancel(self) -> None:
        super().cancel()
        self.start = None
