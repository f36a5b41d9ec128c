"""Floor, and void (no floor: the table shows)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

from rallyforge.drawing.style import COLORS


_FLOOR_LIGHT = QColor("#a2a9b1")
_FLOOR_DARK = QColor("#7b828a")
_RIVET = QColor("#737a82")

def draw_floor(p: QPainter, s: float) -> None:
    p.fillRect(QRectF(0, 0, s, s), COLORS["floor"])
    w = max(1.0, s * 0.025)
    a, b = s * 0.04, s * 0.96
    p.setPen(QPen(_FLOOR_LIGHT, w))
    p.drawPolyline(QPolygonF([QPointF(a, b), QPointF(a, a), QPointF(b, a)]))
    p.setPen(QPen(_FLOOR_DARK, w))
    p.drawPolyline(QPolygonF([QPointF(b, a), QPointF(b, b), QPointF(a, b)]))
    if s >= 20:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(_RIVET)
        r = s * 0.025
        for cx in (0.12, 0.88):
            for cy in (0.12, 0.88):
                p.drawEllipse(QPointF(cx * s, cy * s), r, r)


def draw_void(p: QPainter, s: float) -> None:
    """No floor: the table shows, as beyond the board's edge."""
    p.fillRect(QRectF(0, 0, s, s), COLORS["void"])
