"""Eraser (E): drag over squares to clear them to plain floor, with their
lasers and pusher (walls, flags and docks stay)."""
from __future__ import annotations

from editor.board_view import square_path
from engine import edit
from .base import Tool, area_of, squares_between


class EraserTool(Tool):
    name = "Eraser"
    key = "E"
    tip = "Drag over squares to clear them to plain floor"

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.last = None

    def press(self, pos, event) -> None:
        self.begin_stroke()
        self.last = self.view.square_at(pos)
        if self.last:
            self.erase([self.last])

    def move(self, pos, event) -> None:
        square = self.view.square_at(pos)
        self.view.show_preview(square_path([square]) if square else None)
        if self.stroke is None or square is None or square == self.last:
            return
        squares = squares_between(self.last, square) if self.last else [square]
        self.last = square
        self.erase(squares)

    def release(self, pos, event) -> None:
        super().release(pos, event)
        self.last = None

    def erase(self, squares) -> None:
        board = self.scenario.board
        new = edit.clear_squares(board, squares)
        emitters = len(new.lasers) != len(board.lasers) or len(new.pushers) != len(board.pushers)
        self.push(edit.with_board(self.scenario, new), "Erase",
                  None if emitters else area_of(squares))
