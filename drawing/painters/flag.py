"""Flags (an overlay)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter

from rallyforge.drawing.shapes import scaled
from rallyforge.drawing.style import COLORS
from rallyforge.drawing.text import fit_text


def draw_flag(p: QPainter, s: float, number: int) -> None:
    c = QPointF(0.5 * s, 0.5 * s)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 80))
    p.drawEllipse(c + QPointF(0.03 * s, 0.04 * s), 0.33 * s, 0.33 * s)
    p.setBrush(QColor("#ffffff"))
    p.drawEllipse(c, 0.35 * s, 0.35 * s)
    p.setBrush(COLORS["flag"])
    p.drawPath(scaled(s, "pennant"))
    p.drawEllipse(c, 0.3 * s, 0.3 * s)
    if s >= 10:
        size = 0.34 * s if number < 10 else 0.27 * s
        fit_text(p, QRectF(0.2 * s, 0.2 * s, 0.6 * s, 0.6 * s), str(number), size, QColor("#ffffff"))
