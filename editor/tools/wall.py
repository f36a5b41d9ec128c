"""Walls (W): click near an edge to toggle its wall; drag to set (or clear,
when the first edge had a wall) the edges passed close by that run along the
drag (a sideways drag walls horizontal edges only, so that crossing a grid
corner adds no stub across the line). Right button clears.
The wall behind a laser or pusher stays as long as they hang on it."""
from __future__ import annotations

from PySide6.QtCore import Qt

from rallyforge.editor.board_view import SQUARE, edge_path
from rallyforge.engine.editing import edit
from .base import DragTool

NEAR = 0.3      # a drag picks up edges closer than this (in squares)


class WallTool(DragTool):
    name = "Walls"
    key = "W"
    tip = "Click near an edge to toggle its wall; drag along edges to draw walls"

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.present = True
        self.origin = None      # where the drag started (scene)

    def near_edge(self, pos):
        """The edge near pos that runs along the drag (None if none is near)."""
        square = self.view.square_at(pos)
        if square is None:
            return None
        x, y = square
        fx, fy = pos.x() / SQUARE - x, pos.y() / SQUARE - y
        along = pos - self.origin
        if abs(along.x()) >= abs(along.y()):        # sideways: horizontal edges
            side, distance = ("N", fy) if fy < 0.5 else ("S", 1 - fy)
        else:
            side, distance = ("W", fx) if fx < 0.5 else ("E", 1 - fx)
        return (x, y, side) if distance <= NEAR else None

    def press(self, pos, event) -> None:
        edge = self.view.edge_at(pos)
        if edge is None:
            return
        self.begin_stroke()
        # A wall carrying a laser or pusher counts as there (it goes with them).
        board = self.scenario.board
        walled = edit.listed_walls(board, *edge) or edit.mounted_on(board, *edge)
        self.present = event.button() == Qt.MouseButton.LeftButton and not walled
        self.origin = pos
        self.last = edge
        self.set(edge)

    def move(self, pos, event) -> None:
        edge = self.view.edge_at(pos)
        self.view.show_preview(edge_path(*edge) if edge else None)
        if self.stroke is None:
            return
        edge = self.near_edge(pos)
        if edge is None or edge == self.last:
            return
        self.last = edge
        self.set(edge)

    def set(self, edge) -> None:
        x, y, side = edge
        board = edit.set_wall(self.scenario.board, x, y, side, self.present)
        # A wall changes laser beams across the board: repaint everything.
        self.push(edit.with_board(self.scenario, board),
                  "Add walls" if self.present else "Remove walls", None)
