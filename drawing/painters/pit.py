"""Pits: a dark hole that joins its neighbouring pits."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPolygonF

from rallyforge.drawing.shapes import turn
from rallyforge.drawing.style import COLORS
from rallyforge.engine.model.directions import NAMES, left, right


_PIT_RIM = QColor("#b4bac2")
_PIT_WALL_LIT = QColor("#3a3f47")
_PIT_WALL_DARK = QColor("#24282d")

def draw_pit(p: QPainter, s: float, joined: int) -> None:
    """A dark hole; `joined` has bit d set where the neighbour is a pit too,
    so that a large pit reads as one hole."""
    p.fillRect(QRectF(0, 0, s, s), COLORS["pit"])
    depth, rim = 0.16 * s, max(1.0, 0.05 * s)
    p.setPen(Qt.PenStyle.NoPen)
    for d in range(4):
        if joined >> d & 1:
            continue
        p.save()
        turn(p, s, NAMES[d])
        p.setBrush(_PIT_WALL_LIT if d in (0, 3) else _PIT_WALL_DARK)
        # mitred where the next side is a wall of this pit too, square where it opens
        a = 0.0 if joined >> left(d) & 1 else depth
        b = s if joined >> right(d) & 1 else s - depth
        p.drawPolygon(QPolygonF([QPointF(0, 0), QPointF(s, 0), QPointF(b, depth),
                                 QPointF(a, depth)]))
        p.fillRect(QRectF(0, 0, s, rim), _PIT_RIM)
        p.restore()
