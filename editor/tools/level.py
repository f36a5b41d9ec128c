"""Level (H): paints the palette's level (0-3) on the squares the mouse drags
over; Shift+drag fills a rectangle, Ctrl+click floods the connected squares
of the clicked one's level. The right button paints the ground (level 0).
Page Up / Page Down raise and lower the selection (editor/main_window.py)."""
from __future__ import annotations

from PySide6.QtCore import Qt

from rallyforge.editor.board_view import rect_path
from rallyforge.engine.editing import edit
from .base import DragTool, area_of
from .rect_fill import rect_between


class LevelTool(DragTool):
    name = "Level"
    key = "H"
    tip = ("Paint the level chosen in the palette; Shift+drag: a rectangle, Ctrl+click: the "
           "connected squares of one level (right button: the ground)")

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.level = 0          # the level of the stroke in progress
        self.corner = None      # the first corner of a rectangle being dragged

    def press(self, pos, event) -> None:
        square = self.view.square_at(pos)
        self.level = 0 if event.button() == Qt.MouseButton.RightButton else self.state.brush.level
        if square is None:
            return
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            region = edit.level_region(self.scenario.board, *square)
            self.paint(region, f"Flood level {self.level}")
        elif event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.corner = square
            self.view.show_preview(rect_path(rect_between(square, square)))
        else:
            self.start_stroke(square)

    def move(self, pos, event) -> None:
        if self.corner is not None:
            square = self.view.square_at(pos, clamp=True)
            self.view.show_preview(rect_path(rect_between(self.corner, square)))
            return
        self.drag_to(self.hover_square(pos))

    def release(self, pos, event) -> None:
        if self.corner is not None:
            x0, y0, x1, y1 = rect_between(self.corner, self.view.square_at(pos, clamp=True))
            self.corner = None
            self.view.clear_preview()
            self.paint([(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)],
                       f"Fill rectangle with level {self.level}")
        super().release(pos, event)

    def cancel(self) -> None:
        super().cancel()
        self.corner = None

    def apply(self, squares) -> None:
        self.paint(squares, f"Paint level {self.level}")

    def paint(self, squares, text: str) -> None:
        squares = list(squares)
        board = edit.set_levels(self.scenario.board, {sq: self.level for sq in squares})
        self.push(edit.with_board(self.scenario, board), text, area_of(squares))
