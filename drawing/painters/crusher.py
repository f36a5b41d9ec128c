"""Crushers, and their registers (written above laser beams)."""
from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.shapes import scaled
from rallyforge.drawing.style import COLORS
from rallyforge.drawing.text import fit_text, phases_text


def draw_crusher(p: QPainter, s: float, phases: tuple[int, ...]) -> None:
    """The crusher without its registers: paint_board writes those above
    laser beams (crusher_label)."""
    p.fillRect(QRectF(0, 0, s, s), COLORS["crusher"])
    p.setPen(QPen(QColor("#15161a"), max(1.0, 0.02 * s)))
    p.setBrush(QColor("#c9ced6"))
    p.drawPath(scaled(s, "crusher_teeth"))


def crusher_label(p: QPainter, s: float, phases: tuple[int, ...]) -> None:
    if s >= 12:
        fit_text(p, QRectF(0.16 * s, 0.25 * s, 0.68 * s, 0.5 * s), phases_text(phases),
              0.25 * s, QColor("#ffffff"))
