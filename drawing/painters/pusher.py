"""Pushers (an overlay: drawn over the tile, inside its square)."""
from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.shapes import turn
from rallyforge.drawing.style import COLORS, INK
from rallyforge.drawing.text import fit_text, phases_text


def draw_pusher(p: QPainter, s: float, direction: str, phases: tuple[int, ...]) -> None:
    """A pusher pointing `direction`, mounted on the opposite side, inside the
    square (0, 0)-(s, s). Its register numbers stay upright."""
    p.save()
    turn(p, s, direction)
    p.setPen(QPen(INK, max(1.0, 0.025 * s)))
    p.setBrush(QColor("#4a4f57"))
    p.drawRect(QRectF(0.3 * s, 0.9 * s, 0.4 * s, 0.1 * s))
    p.setBrush(COLORS["pusher"])
    p.drawRoundedRect(QRectF(0.1 * s, 0.6 * s, 0.8 * s, 0.3 * s), 0.04 * s, 0.04 * s)
    p.setBrush(INK)
    p.drawRect(QRectF(0.1 * s, 0.6 * s, 0.8 * s, 0.05 * s))
    p.restore()
    if s < 16:
        return
    if direction in ("E", "W"):
        x = 0.225 * s if direction == "E" else 0.775 * s
        rect = QRectF(x - 0.11 * s, 0.12 * s, 0.22 * s, 0.76 * s)
        size = min(0.18 * s, 0.76 * s / max(1, len(phases)) / 1.25)
    else:
        y = 0.775 * s if direction == "N" else 0.225 * s
        rect = QRectF(0.2 * s, y - 0.13 * s, 0.6 * s, 0.26 * s)
        size = 0.18 * s
    fit_text(p, rect, phases_text(phases, direction in ("E", "W")), size, INK)
