"""Toolbar icons: board elements come from drawing/; the tools that
are not an element (select, brush, belt, fills, eyedropper) are drawn here."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from rallyforge.drawing import style
from rallyforge.editor.palette import element_icon

SIZE = 32
INK = QColor("#2b2f36")
ACCENT = QColor("#2c6fd6")
BELT = style.COLORS["conveyor"]


def _icon(draw) -> QIcon:
    pixmap = QPixmap(SIZE, SIZE)
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    draw(p, float(SIZE))
    p.end()
    return QIcon(pixmap)


def _select(p: QPainter, s: float) -> None:
    pen = QPen(INK, 2, Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.setBrush(QColor(60, 160, 255, 60))
    p.drawRect(QRectF(0.15 * s, 0.15 * s, 0.7 * s, 0.7 * s))


def _brush(p: QPainter, s: float) -> None:
    p.setPen(QPen(INK, 1.5))
    p.setBrush(QColor("#b07a3a"))
    handle = QPolygonF([QPointF(0.85 * s, 0.1 * s), QPointF(0.95 * s, 0.2 * s),
                        QPointF(0.55 * s, 0.6 * s), QPointF(0.45 * s, 0.5 * s)])
    p.drawPolygon(handle)
    p.setBrush(BELT)
    tip = QPainterPath(QPointF(0.45 * s, 0.5 * s))
    tip.lineTo(0.55 * s, 0.6 * s)
    tip.cubicTo(0.5 * s, 0.85 * s, 0.25 * s, 0.95 * s, 0.08 * s, 0.92 * s)
    tip.cubicTo(0.2 * s, 0.8 * s, 0.2 * s, 0.55 * s, 0.45 * s, 0.5 * s)
    p.drawPath(tip)


def _belt(p: QPainter, s: float) -> None:
    path = QPainterPath(QPointF(0.2 * s, 0.9 * s))
    path.lineTo(0.2 * s, 0.3 * s)
    path.lineTo(0.8 * s, 0.3 * s)
    p.setPen(QPen(INK, 0.3 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap,
                  Qt.PenJoinStyle.MiterJoin))
    p.drawPath(path)
    p.setPen(QPen(BELT, 0.2 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap,
                  Qt.PenJoinStyle.MiterJoin))
    p.drawPath(path)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(INK)
    p.drawPolygon(QPolygonF([QPointF(0.72 * s, 0.1 * s), QPointF(0.98 * s, 0.3 * s),
                             QPointF(0.72 * s, 0.5 * s)]))


def _rect_fill(p: QPainter, s: float) -> None:
    p.setPen(QPen(INK, 2))
    p.setBrush(style.COLORS["water"])
    p.drawRect(QRectF(0.15 * s, 0.25 * s, 0.7 * s, 0.5 * s))


def _flood_fill(p: QPainter, s: float) -> None:
    p.setPen(QPen(INK, 1.5))
    p.setBrush(QColor("#dfe3e8"))
    bucket = QPolygonF([QPointF(0.15 * s, 0.35 * s), QPointF(0.65 * s, 0.35 * s),
                        QPointF(0.58 * s, 0.9 * s), QPointF(0.22 * s, 0.9 * s)])
    p.drawPolygon(bucket)
    p.setBrush(style.COLORS["water"])
    drop = QPainterPath(QPointF(0.82 * s, 0.3 * s))
    drop.cubicTo(0.95 * s, 0.55 * s, 0.95 * s, 0.7 * s, 0.82 * s, 0.72 * s)
    drop.cubicTo(0.69 * s, 0.7 * s, 0.69 * s, 0.55 * s, 0.82 * s, 0.3 * s)
    p.drawPath(drop)


def _eyedropper(p: QPainter, s: float) -> None:
    p.setPen(QPen(INK, 0.14 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(QPointF(0.25 * s, 0.75 * s), QPointF(0.68 * s, 0.32 * s))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(INK)
    p.drawEllipse(QPointF(0.75 * s, 0.25 * s), 0.14 * s, 0.14 * s)
    p.setBrush(ACCENT)
    p.drawEllipse(QPointF(0.18 * s, 0.82 * s), 0.08 * s, 0.08 * s)


def _level(p: QPainter, s: float) -> None:
    """Three steps rising to the right, lighter as they go up, shadowed below."""
    p.setPen(QPen(INK, 1.2))
    for k in range(3):
        p.setBrush(style.COLORS["floor"].lighter(100 + 18 * k))
        top = (0.7 - 0.25 * k) * s
        p.drawRect(QRectF((0.08 + 0.28 * k) * s, top, 0.28 * s, 0.9 * s - top))


_DRAWN = {"select": _select, "level": _level, "brush": _brush, "belt": _belt, "rect_fill": _rect_fill,
          "flood_fill": _flood_fill, "eyedropper": _eyedropper}


def tool_icon(tool_id: str) -> QIcon:
    if tool_id in _DRAWN:
        return _icon(_DRAWN[tool_id])
    # The other tools (eraser, wall, laser, pusher, flag, dock) show their element.
    return element_icon(tool_id, "E" if tool_id == "laser" else "N", size=SIZE)
