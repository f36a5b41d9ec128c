"""The squares a painting covers: an area (x0, y0, x1, y1), x1 and y1 exclusive."""
from __future__ import annotations

from rallyforge.engine.model.scenario import Board


def clamp_area(board: Board, area) -> tuple[int, int, int, int]:
    """The area cut to the board; the whole board when area is None."""
    if area is None:
        return 0, 0, board.width, board.height
    x0, y0, x1, y1 = area
    return max(0, x0), max(0, y0), min(board.width, x1), min(board.height, y1)


def in_area(x: int, y: int, x0, y0, x1, y1, margin: int = 1) -> bool:
    """Whether square (x, y) lies in the area grown by `margin` squares all round."""
    return x0 - margin <= x < x1 + margin and y0 - margin <= y < y1 + margin
