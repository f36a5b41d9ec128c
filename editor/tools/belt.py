"""Belt (C): drag a path to lay a conveyor; each square points to the next.
Shift held at the press (or an express brush) lays an express belt; a current
brush lays a current (any belt brush lays its own belt)."""
from __future__ import annotations

from PySide6.QtCore import Qt

from rallyforge.editor.board_view import direction_name
from rallyforge.engine.editing import edit
from rallyforge.engine.model.element_kinds import TILES, new_tile
from rallyforge.engine.model.scenario import Tile
from .base import DragTool, area_of, steps_between


class BeltTool(DragTool):
    name = "Belt"
    key = "C"
    tip = "Drag a path to lay a conveyor belt, each square pointing to the next (Shift: express)"

    def __init__(self, doc, view, state):
        super().__init__(doc, view, state)
        self.express = False

    def belt(self, x: int, y: int, d: str) -> Tile:
        kind = self.state.brush.kind if TILES[self.state.brush.kind].belt else "conveyor"
        return new_tile(x, y, kind, dir=d, express=self.express)

    def press(self, pos, event) -> None:
        square: tuple[int, int] | None = self.view.square_at(pos)
        if event.button() != Qt.MouseButton.LeftButton or square is None:
            return
        self.begin_stroke()
        self.last = square
        self.express = self.state.brush.express or bool(
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        existing = self.scenario.board.tile_at(*square)
        d = existing.dir if existing and existing.dir else self.state.brush.dir
        self.lay({square: self.belt(*square, d)})

    def move(self, pos, event) -> None:
        square, last = self.hover_square(pos), self.last
        if self.stroke is None or square is None or last is None or square == last:
            return
        changes = {}
        for step in steps_between(last, square):
            d = direction_name(step[0] - last[0], step[1] - last[1])
            assert d is not None        # each step is to a neighbour
            changes[last] = self.belt(*last, d)
            changes[step] = self.belt(*step, d)
            last = step
        self.last = last
        self.lay(changes)

    def lay(self, changes) -> None:
        board = edit.set_tiles(self.scenario.board, changes)
        self.push(edit.with_board(self.scenario, board), "Lay belt", area_of(changes))
