"""The rides of moving flags (rule `flags_move`, docs/rules.md 12.1): from
each flag, a thin dotted line along the belts it will ride, a small arrow at
each belt step, for the first few steps."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

from rallyforge.drawing.board_info import BoardInfo
from rallyforge.drawing.style import COLORS
from rallyforge.engine.model.scenario import Scenario

STEPS = 6               # belt steps shown: a few registers of a normal belt
_HALO = QColor(255, 255, 255, 200)


def paint_flag_paths(p: QPainter, info: BoardInfo, scenario: Scenario, s: float) -> None:
    if not scenario.rules.flags_move:
        return
    p.save()
    for flag in scenario.flags:
        ride = info.flag_ride(flag.x, flag.y, STEPS)
        if not ride:
            continue
        points = [QPointF((x + 0.5) * s, (y + 0.5) * s) for x, y in [(flag.x, flag.y), *ride]]
        for colour, width in ((_HALO, 0.07 * s), (COLORS["flag"], 0.035 * s)):
            pen = QPen(colour, width, Qt.PenStyle.DotLine, Qt.PenCapStyle.RoundCap)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPolyline(QPolygonF(points))
        p.setPen(QPen(_HALO, 0.015 * s))
        p.setBrush(COLORS["flag"])
        for a, b in zip(points, points[1:]):
            _arrow_head(p, a, b, s)
    p.restore()


def _arrow_head(p: QPainter, a: QPointF, b: QPointF, s: float) -> None:
    """A small arrow head at b, pointing from a to b."""
    angle = math.atan2(b.y() - a.y(), b.x() - a.x())
    size = 0.14 * s
    back = [QPointF(b.x() - size * math.cos(angle + k), b.y() - size * math.sin(angle + k))
            for k in (0.5, -0.5)]
    p.drawPolygon(QPolygonF([b, *back]))
