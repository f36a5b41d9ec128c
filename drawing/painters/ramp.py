"""Ramps."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.shapes import poly, turn
from rallyforge.drawing.style import COLORS, INK, SHADOW_STEPS


def draw_ramp(p: QPainter, s: float, direction: str) -> None:
    """A ramp rising towards `direction`: darker at its low side, and a wedge
    pointing up-slope (drawn for N, then turned)."""
    p.fillRect(QRectF(0, 0, s, s), COLORS["ramp"])
    p.save()
    turn(p, s, direction)
    # darker towards the low side, in steps of plain alpha (see paint_levels);
    # the corners keep the colour
    for k, alpha in enumerate(SHADOW_STEPS):
        p.fillRect(QRectF(0.12 * s, (0.86 - 0.12 * k) * s, 0.76 * s, 0.12 * s),
                   QColor(0, 0, 0, alpha * 3 // 4))
    p.setPen(QPen(INK, max(1.0, 0.03 * s)))
    p.setBrush(QColor(255, 255, 255, 110))
    p.drawPath(poly([(0.5 * s, 0.16 * s), (0.82 * s, 0.86 * s), (0.18 * s, 0.86 * s)]))
    p.setPen(QPen(QColor(0, 0, 0, 90), max(1.0, 0.02 * s)))
    for at in (0.44, 0.58, 0.72):         # treads across the slope
        half = 0.32 * (at - 0.16) / 0.7 * s
        p.drawLine(QPointF(0.5 * s - half, at * s), QPointF(0.5 * s + half, at * s))
    p.restore()
