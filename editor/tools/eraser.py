"""Eraser (E): drag over squares to clear them to plain floor, with their
lasers and pusher (walls, flags and docks stay)."""
from __future__ import annotations

from rallyforge.engine.editing import edit
from .base import DragTool, area_of


class EraserTool(DragTool):
    name = "Eraser"
    key = "E"
    tip = "Drag over squares to clear them to plain floor"

    def press(self, pos, event) -> None:
        self.start_stroke(self.view.square_at(pos))

    def move(self, pos, event) -> None:
        self.drag_to(self.hover_square(pos))

    def apply(self, squares) -> None:
        board = self.scenario.board
        new = edit.clear_squares(board, squares)
        emitters = len(new.lasers) != len(board.lasers) or len(new.pushers) != len(board.pushers)
        self.push(edit.with_board(self.scenario, new), "Erase",
                  None if emitters else area_of(squares))
