"""Docks (an overlay)."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.shapes import scaled, turn
from rallyforge.drawing.style import COLORS
from rallyforge.drawing.text import fit_text


def draw_dock(p: QPainter, s: float, number: int, facing: str) -> None:
    p.setPen(QPen(QColor("#e8edf3"), max(1.0, 0.03 * s)))
    p.setBrush(COLORS["dock"])
    p.drawRoundedRect(QRectF(0.08 * s, 0.08 * s, 0.84 * s, 0.84 * s), 0.06 * s, 0.06 * s)
    p.save()
    turn(p, s, facing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#ffd34a"))
    p.drawPath(scaled(s, "dock_arrow"))
    p.restore()
    if s >= 10:
        size = 0.36 * s if number < 10 else 0.28 * s
        fit_text(p, QRectF(0.25 * s, 0.25 * s, 0.5 * s, 0.5 * s), str(number), size, QColor("#ffffff"))
