"""Conveyor belts, normal and express: straight, curves, merges and Ts."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.shapes import scaled, scaled_mirror, turn
from rallyforge.drawing.style import COLORS


_BED = QColor("#363a40")
_BELT = {
    False: (COLORS["conveyor"], QColor("#6b4f07"), QColor("#9c7a12")),   # surface, chevron, rail
    True: (COLORS["express"], QColor("#f4f8ff"), QColor("#173f7c")),
}


def _belt_rails(p: QPainter, s: float, rail: QColor, kind: str) -> None:
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(rail, 0.06 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    if kind == "straight":
        p.drawLine(QPointF(0.14 * s, 0), QPointF(0.14 * s, s))
        p.drawLine(QPointF(0.86 * s, 0), QPointF(0.86 * s, s))
    elif kind == "left":
        p.drawPath(scaled(s, "curve_rails"))
    else:
        p.drawPath(scaled_mirror(s, "curve_rails"))


def draw_conveyor(p: QPainter, s: float, direction: str, express: bool, feeders: int) -> None:
    """A belt towards `direction`; `feeders` has bit 1 for a belt feeding in
    from the left side, 2 from the right side, 4 from behind. One side feeder
    alone makes a curve; two side feeders and nothing behind, a T where both
    curves meet; side feeders with one behind, a straight belt with arrows
    where the sides merge in."""
    surface, chevron, rail = _BELT[express]
    p.fillRect(QRectF(0, 0, s, s), _BED)
    p.save()
    turn(p, s, direction)
    sides = [k for k, bit in (("left", 1), ("right", 2)) if feeders & bit]
    straight = not sides or bool(feeders & 4)
    bands = (["straight"] if straight else []) + sides
    for band in bands:
        _belt_rails(p, s, rail, band)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(surface)
    for band in bands:
        if band == "straight":
            p.drawRect(QRectF(0.14 * s, 0, 0.72 * s, s))
        else:
            p.drawPath(_sided(band)(s, "curve_band"))
    p.setBrush(chevron)
    if straight:
        p.drawPath(scaled(s, "chevrons", express))
        for side in sides:
            p.drawPath(_sided(side)(s, "side_arrow"))
    elif len(sides) == 1:
        p.drawPath(_sided(sides[0])(s, "curve_chevrons", express))
    else:
        p.drawPath(scaled(s, "chevrons", express, "exit"))
        for side in sides:
            p.drawPath(_sided(side)(s, "curve_chevrons", express, "entry"))
    p.restore()


def _sided(side: str):
    """The path getter for a shape drawn for the left side, or its mirror image."""
    return scaled if side == "left" else scaled_mirror
