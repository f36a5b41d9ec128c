"""Levels: lift, ledge shadows, and the grey-readable marks."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.area import in_area
from rallyforge.drawing.board_info import BoardInfo
from rallyforge.drawing.style import SHADOW_STEPS
from rallyforge.drawing.text import fit_text
from rallyforge.engine.model.directions import DX, DY


_LIFT = QColor(255, 255, 255, 46)         # per level above the ground
_LEDGE_LIP = QColor(255, 255, 255, 150)


def _band(x: int, y: int, d: int, ex: float, ey: float, near: float, far: float,
          s: float) -> QRectF:
    """The strip of square (x, y) between `near` and `far` from its edge
    towards d (at ex, ey); negative distances lie across the edge."""
    if DX[d]:
        a, b = ex - DX[d] * near, ex - DX[d] * far
        return QRectF(min(a, b), y * s, abs(a - b), s)
    a, b = ey - DY[d] * near, ey - DY[d] * far
    return QRectF(x * s, min(a, b), s, abs(a - b))


def paint_levels(p: QPainter, info: BoardInfo, s: float, x0, y0, x1, y1) -> None:
    """Each level lightens its squares; along every ledge a shadow falls on
    the low square and a light lip marks the high one, so which side is high
    shows at a glance. A ramp's low side is no ledge (see Course._levels)."""
    board = info.board
    p.save()
    p.setPen(Qt.PenStyle.NoPen)
    for v in board.levels:
        if v.level > 0 and in_area(v.x, v.y, x0, y0, x1, y1, 0):
            lift = QColor(_LIFT)
            lift.setAlpha(min(255, _LIFT.alpha() * v.level))
            p.fillRect(QRectF(v.x * s, v.y * s, s, s), lift)
    depth = 0.24 * s
    for (x, y, d) in info.ledges:
        if not in_area(x, y, x0, y0, x1, y1):
            continue
        # (x, y) is the low square, d the side the high one is on. The shadow
        # fades in steps of plain alpha: Qt's PDF output drops alpha inside
        # gradients, and the bands look the same everywhere.
        ex, ey = (x + 0.5 + DX[d] * 0.5) * s, (y + 0.5 + DY[d] * 0.5) * s
        for k, alpha in enumerate(SHADOW_STEPS):
            near, far = depth * k / len(SHADOW_STEPS), depth * (k + 1) / len(SHADOW_STEPS)
            p.fillRect(_band(x, y, d, ex, ey, near, far, s), QColor(0, 0, 0, alpha))
        p.fillRect(_band(x, y, d, ex, ey, -0.05 * s, 0, s), _LEDGE_LIP)
    p.restore()


_CONTOUR = QColor("#1b1d21")


def paint_level_marks(p: QPainter, info: BoardInfo, s: float, x0, y0, x1, y1) -> None:
    """Marks that tell levels apart without colour (a grey-scale print, a
    dim screen): a dark contour line along every ledge, on its high side, and
    the level's number in a badge in the top-left corner of every raised square."""
    board = info.board
    p.save()
    p.setPen(Qt.PenStyle.NoPen)
    for (x, y, d) in info.ledges:
        if in_area(x, y, x0, y0, x1, y1):
            ex, ey = (x + 0.5 + DX[d] * 0.5) * s, (y + 0.5 + DY[d] * 0.5) * s
            p.fillRect(_band(x, y, d, ex, ey, -0.045 * s, 0, s), _CONTOUR)
    badge = 0.26 * s
    for v in board.levels:
        if v.level > 0 and in_area(v.x, v.y, x0, y0, x1, y1, 0):
            rect = QRectF(v.x * s + 0.05 * s, v.y * s + 0.05 * s, badge, badge)
            p.setPen(QPen(QColor("#ffffff"), max(0.5, 0.015 * s)))
            p.setBrush(_CONTOUR)
            p.drawRoundedRect(rect, 0.05 * s, 0.05 * s)
            fit_text(p, rect, str(v.level), 0.2 * s, QColor("#ffffff"))
    p.restore()
