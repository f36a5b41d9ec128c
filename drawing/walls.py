"""Walls."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter

from rallyforge.drawing.area import in_area
from rallyforge.drawing.style import COLORS, INK, SQUARE
from rallyforge.engine.model.scenario import Board


def edge_margin(square: float = SQUARE) -> float:
    """How far outer walls (their outline) reach beyond the board's edge: a
    picture of the board leaves this much room all round."""
    return 0.06 * square


def wall_thickness(square: float = SQUARE) -> float:
    """How thick walls are drawn, in the units of `square`."""
    return 0.12 * square


def wall_rect(board: Board, ex: int, ey: int, side: str, s: float) -> QRectF:
    """The band of the edge named by edge_key (side N or W); centred on the
    edge inside the board, flush with the board's outer edge."""
    t = wall_thickness(s)
    if side == "N":
        return QRectF(ex * s - t / 2, _band_start(ey, board.height, s, t), s + t, t)
    return QRectF(_band_start(ex, board.width, s, t), ey * s - t / 2, t, s + t)


def _band_start(e: int, size: int, s: float, t: float) -> float:
    """Where a wall band across line e starts: flush inside the board's outer
    edges (0 and size), centred on the line elsewhere."""
    if e <= 0:
        return 0.0
    if e >= size:
        return size * s - t
    return e * s - t / 2


def paint_walls(p: QPainter, board: Board, s: float, x0, y0, x1, y1) -> None:
    rects = [wall_rect(board, ex, ey, side, s) for ex, ey, side in board.wall_edges
             if in_area(ex, ey, x0, y0, x1, y1)]
    if not rects:
        return
    m = edge_margin(s)
    board_rect = QRectF(-m, -m, board.width * s + 2 * m, board.height * s + 2 * m)
    o = max(0.02 * s, 0.6)
    p.save()
    p.setClipRect(board_rect, Qt.ClipOperation.IntersectClip)
    for r in rects:
        p.fillRect(r.adjusted(-o, -o, o, o), INK)
    for r in rects:
        p.fillRect(r, COLORS["wall"])
    p.restore()
