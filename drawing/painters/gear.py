"""Gears."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPen

from rallyforge.drawing.painters.floor import draw_floor
from rallyforge.drawing.shapes import scaled
from rallyforge.drawing.style import COLORS, INK


def draw_gear(p: QPainter, s: float, rotation: str) -> None:
    draw_floor(p, s)
    p.setPen(QPen(INK, max(1.0, 0.03 * s)))
    p.setBrush(COLORS["gear"])
    p.drawPath(scaled(s, "gear_body"))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(COLORS["gear_ccw" if rotation == "ccw" else "gear_cw"])
    p.drawPath(scaled(s, "gear_arrow", rotation if rotation == "ccw" else "cw"))
