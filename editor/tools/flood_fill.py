"""Flood fill (F): fill the connected squares holding the same element as the
clicked one with the brush's element."""
from __future__ import annotations

from rallyforge.engine.editing import edit
from .base import Tool, area_of


class FloodFillTool(Tool):
    name = "Flood Fill"
    key = "F"
    tip = "Click to fill the connected squares of the same kind with the selected element"

    def press(self, pos, event) -> None:
        square = self.view.square_at(pos)
        brush = self.state.brush
        if square is None:
            return
        region = edit.flood_region(self.scenario.board, *square)
        board = edit.set_tiles(self.scenario.board, {sq: brush.tile(*sq) for sq in region})
        self.push(edit.with_board(self.scenario, board), f"Flood fill with {brush.kind}",
                  area_of(region))

    def move(self, pos, event) -> None:
        self.hover_square(pos)
