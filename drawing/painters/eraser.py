"""The eraser (a palette icon only)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QTransform

from rallyforge.drawing.shapes import scaled
from rallyforge.drawing.style import INK


def draw_eraser(p: QPainter, s: float) -> None:
    p.setPen(QPen(INK, max(1.0, 0.035 * s)))
    p.setBrush(QColor("#f28bb0"))
    p.drawPath(scaled(s, "eraser"))
    p.setBrush(QColor("#f5f5f5"))
    t = QTransform()
    t.translate(0.5 * s, 0.5 * s)
    t.rotate(-35)
    band = QPainterPath()
    band.addRect(QRectF(-0.32 * s, -0.15 * s, 0.2 * s, 0.3 * s))
    p.drawPath(t.map(band))
    p.setPen(QPen(INK, max(1.0, 0.03 * s), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(QPointF(0.15 * s, 0.86 * s), QPointF(0.85 * s, 0.86 * s))
