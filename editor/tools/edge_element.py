"""Lasers (L) and pushers (U): click near an edge of a square to hang one on
that wall, facing into the square; click it again (or right click) to remove.
Beams and registers come from the brush and can be changed in the inspector."""
from __future__ import annotations

from PySide6.QtCore import Qt

from rallyforge.editor.board_view import edge_path
from rallyforge.engine.editing import edit
from rallyforge.engine.model.directions import INDEX, NAMES, opposite
from rallyforge.engine.model.scenario import Board, Laser, Pusher
from .base import Tool


class EdgeElementTool(Tool):
    kind = ""

    def press(self, pos, event) -> None:
        edge = self.view.edge_at(pos)
        if edge is None:
            return
        x, y, side = edge
        d = NAMES[opposite(INDEX[side])]
        board = self.scenario.board
        existing = self.existing(board, x, y, d)
        if event.button() == Qt.MouseButton.RightButton or existing:
            board = self.remove(board, x, y, d)
            text = f"Remove {self.kind}"
        else:
            board = self.place(board, x, y, d)
            text = f"Place {self.kind}"
        # Emitters light whole lines: repaint everything.
        self.push(edit.with_board(self.scenario, board), text, None)
        self.state.inspect((x, y))

    def move(self, pos, event) -> None:
        edge = self.view.edge_at(pos)
        self.view.show_preview(edge_path(*edge) if edge else None)

    # What each kind of edge element says about its own board entries.
    def existing(self, board: Board, x: int, y: int, d: str) -> bool:
        raise NotImplementedError

    def place(self, board: Board, x: int, y: int, d: str) -> Board:
        raise NotImplementedError

    def remove(self, board: Board, x: int, y: int, d: str) -> Board:
        raise NotImplementedError


class LaserTool(EdgeElementTool):
    name = "Lasers"
    key = "L"
    kind = "laser"
    tip = "Click near a wall of a square to hang a laser there, firing into the square"

    def existing(self, board, x, y, d):
        return any(l.dir == d for l in edit.lasers_at(board, x, y))

    def place(self, board, x, y, d):
        return edit.set_laser(board, Laser(x, y, d, self.state.brush.beams))

    def remove(self, board, x, y, d):
        return edit.remove_laser(board, x, y, d)


class PusherTool(EdgeElementTool):
    name = "Pushers"
    key = "U"
    kind = "pusher"
    tip = "Click near a wall of a square to hang a pusher there, pushing across the square"

    def existing(self, board, x, y, d):
        p = board.pusher_map.get((x, y))
        return p is not None and p.dir == d

    def place(self, board, x, y, d):
        return edit.set_pusher(board, Pusher(x, y, d, self.state.brush.phases))

    def remove(self, board, x, y, d):
        return edit.remove_pusher(board, x, y)
