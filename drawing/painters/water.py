"""Water, currents and drains."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.shapes import scaled, turn
from rallyforge.drawing.style import COLORS


_WAVE = QColor(255, 255, 255, 90)

def _water(p: QPainter, s: float, color: QColor) -> None:
    p.fillRect(QRectF(0, 0, s, s), color)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(_WAVE, max(1.0, 0.045 * s), Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    p.drawPath(scaled(s, "waves"))


def draw_water(p: QPainter, s: float) -> None:
    _water(p, s, COLORS["water"])


def draw_current(p: QPainter, s: float, direction: str) -> None:
    _water(p, s, COLORS["current"])
    p.save()
    turn(p, s, direction)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(255, 255, 255, 215))
    p.drawPath(scaled(s, "chevrons", False))
    p.restore()


def draw_drain(p: QPainter, s: float) -> None:
    _water(p, s, COLORS["water"])
    c = QPointF(0.5 * s, 0.5 * s)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#2b6f96"))
    p.drawEllipse(c, 0.4 * s, 0.4 * s)
    p.setBrush(COLORS["drain"])
    p.drawEllipse(c, 0.31 * s, 0.31 * s)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(QColor("#7fc6ea"), max(1.0, 0.04 * s), Qt.PenStyle.SolidLine,
                  Qt.PenCapStyle.RoundCap))
    p.drawPath(scaled(s, "swirl"))
