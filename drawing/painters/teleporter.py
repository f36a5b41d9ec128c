"""Teleporters."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.style import COLORS


_TELEPORT_BASE = QColor("#1f2630")

def draw_teleporter(p: QPainter, s: float) -> None:
    p.fillRect(QRectF(0, 0, s, s), _TELEPORT_BASE)
    c = QPointF(0.5 * s, 0.5 * s)
    color = COLORS["teleporter"]
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(color.darker(170), 0.05 * s))
    p.drawEllipse(c, 0.42 * s, 0.42 * s)
    p.setPen(QPen(color.darker(125), 0.05 * s))
    p.drawEllipse(c, 0.31 * s, 0.31 * s)
    p.setPen(QPen(QColor("#e9fdff"), max(1.0, 0.025 * s)))
    p.setBrush(color)
    p.drawEllipse(c, 0.19 * s, 0.19 * s)
