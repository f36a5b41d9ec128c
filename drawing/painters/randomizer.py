"""Randomizers."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.shapes import scaled
from rallyforge.drawing.style import COLORS, INK
from rallyforge.drawing.text import fit_text


def draw_randomizer(p: QPainter, s: float) -> None:
    p.fillRect(QRectF(0, 0, s, s), COLORS["randomizer"])
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(COLORS["randomizer"].darker(125))
    for cx, cy in ((0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9)):
        p.drawEllipse(QPointF(cx * s, cy * s), 0.05 * s, 0.05 * s)
    p.setPen(QPen(INK, max(1.0, 0.03 * s)))
    p.setBrush(QColor("#f7f4fb"))
    p.drawPath(scaled(s, "die"))
    if s >= 10:
        fit_text(p, QRectF(0.22 * s, 0.22 * s, 0.56 * s, 0.56 * s), "?", 0.44 * s,
              COLORS["randomizer"].darker(150))
