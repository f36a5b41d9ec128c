"""Eyedropper (I): click a square to take its element and direction into the
brush, then go back to the brush."""
from __future__ import annotations

from .base import Tool


class EyedropperTool(Tool):
    name = "Eyedropper"
    key = "I"
    tip = "Click a square to pick up its element and direction"

    def press(self, pos, event) -> None:
        square = self.view.square_at(pos)
        if square is None:
            return
        state = self.state
        state.set_brush(state.brush.of_tile(self.scenario.board.tile_at(*square), state.brush))
        state.inspect(square)
        state.toolRequested.emit("brush")

    def move(self, pos, event) -> None:
        self.hover_square(pos)
