"""Repair and upgrade sites."""
from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.painters.floor import draw_floor
from rallyforge.drawing.shapes import scaled
from rallyforge.drawing.style import COLORS, INK


def _pad(p: QPainter, s: float, color: QColor) -> None:
    draw_floor(p, s)
    p.setPen(QPen(color.darker(150), max(1.0, 0.03 * s)))
    p.setBrush(color)
    p.drawRoundedRect(QRectF(0.06 * s, 0.06 * s, 0.88 * s, 0.88 * s), 0.12 * s, 0.12 * s)


def draw_repair(p: QPainter, s: float) -> None:
    _pad(p, s, COLORS["repair"])
    p.setPen(QPen(INK, max(1.0, 0.025 * s)))
    p.setBrush(QColor("#f4f6f8"))
    p.drawPath(scaled(s, "wrench"))


def draw_upgrade(p: QPainter, s: float) -> None:
    _pad(p, s, COLORS["upgrade"])
    p.setPen(QPen(INK, max(1.0, 0.025 * s)))
    p.setBrush(QColor("#f4f6f8"))
    p.drawPath(scaled(s, "hammer"))
    p.drawPath(scaled(s, "wrench"))
