"""Brush (B): paints the palette's element, in the current direction, on every
square the mouse drags over. The right button picks up the tile under it."""
from __future__ import annotations

from PySide6.QtCore import Qt

from editor.board_view import SQUARE, square_path
from editor.palette import element_pixmap
from engine import edit
from .base import Tool, area_of, squares_between


class BrushTool(Tool):
    name = "Brush"
    key = "B"
    tip = "Paint the selected element; drag to paint many squares (right click: pick up)"

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.last = None
        self._ghost_key = None
        self._ghost = None

    def press(self, pos, event) -> None:
        square = self.view.square_at(pos)
        if event.button() == Qt.RightButton:
            if square:
                self.state.set_brush(self.state.brush.of_tile(self.scenario.board.tile_at(*square),
                                                              self.state.brush))
            return
        self.begin_stroke()
        self.last = square
        if square:
            self.paint([square])

    def ghost(self):
        b = self.state.brush
        key = (b.kind, b.dir, b.express, b.rotation)
        if key != self._ghost_key:
            self._ghost_key = key
            self._ghost = element_pixmap(b.kind, b.dir, b.express, b.rotation, size=SQUARE)
        return self._ghost

    def move(self, pos, event) -> None:
        square = self.view.square_at(pos)
        self.view.show_preview(square_path([square]) if square else None)
        self.view.show_ghost(square, self.ghost())
        if self.stroke is None or square is None or square == self.last:
            return
        squares = squares_between(self.last, square) if self.last else [square]
        self.last = square
        self.paint(squares)

    def release(self, pos, event) -> None:
        super().release(pos, event)
        self.last = None

    def paint(self, squares) -> None:
        brush = self.state.brush
        board = self.scenario.board
        changes = {sq: brush.tile(*sq) for sq in squares if board.in_bounds(*sq)}
        new = edit.with_board(self.scenario, edit.set_tiles(board, changes))
        self.push(new, f"Paint {brush.kind}", area_of(changes))
