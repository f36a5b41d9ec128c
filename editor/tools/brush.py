"""Brush (B): paints the palette's element, in the current direction, on every
square the mouse drags over. The right button picks up the tile under it."""
from __future__ import annotations

from PySide6.QtCore import Qt

from rallyforge.editor.board_view import SQUARE
from rallyforge.editor.palette import element_pixmap
from rallyforge.engine.editing import edit
from .base import DragTool, area_of


class BrushTool(DragTool):
    name = "Brush"
    key = "B"
    tip = "Paint the selected element; drag to paint many squares (right click: pick up)"

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self._ghost_key = None
        self._ghost = None

    def press(self, pos, event) -> None:
        square = self.view.square_at(pos)
        if event.button() == Qt.MouseButton.RightButton:
            if square:
                self.state.set_brush(self.state.brush.of_tile(self.scenario.board.tile_at(*square),
                                                              self.state.brush))
            return
        self.start_stroke(square)

    def ghost(self):
        b = self.state.brush
        key = (b.kind, b.dir, b.express, b.rotation)
        if key != self._ghost_key:
            self._ghost_key = key
            self._ghost = element_pixmap(b.kind, b.dir, SQUARE, express=b.express,
                                         rotation=b.rotation)
        return self._ghost

    def move(self, pos, event) -> None:
        square = self.hover_square(pos)
        self.view.show_ghost(square, self.ghost())
        self.drag_to(square)

    def apply(self, squares) -> None:
        brush = self.state.brush
        board = self.scenario.board
        changes = {sq: brush.tile(*sq) for sq in squares if board.in_bounds(*sq)}
        new = edit.with_board(self.scenario, edit.set_tiles(board, changes))
        self.push(new, f"Paint {brush.kind}", area_of(changes))
