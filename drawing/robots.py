"""The course's robots where they start (its `robots`, each on its dock or
its own square): a body in the robot's colour, its nose where it faces,
with its number. The exports draw them; the editor's preview draws its own."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.shapes import poly, turn
from rallyforge.drawing.style import INK, ROBOT_COLORS
from rallyforge.drawing.text import fit_text
from rallyforge.engine.model.scenario import Scenario


def paint_robots(p: QPainter, scenario: Scenario, s: float) -> None:
    for i in range(len(scenario.robots)):
        start = scenario.robot_start(i)
        if start is not None:
            x, y, facing = start
            p.save()
            p.translate(x * s, y * s)
            _draw_robot(p, s, i + 1, facing, QColor(ROBOT_COLORS[i % len(ROBOT_COLORS)]))
            p.restore()


def _draw_robot(p: QPainter, s: float, number: int, facing: str, colour: QColor) -> None:
    """A robot's body, square with round corners (no flag or dock is square
    and coloured so), a white nose towards `facing`, and its number."""
    p.save()
    turn(p, s, facing)
    p.setPen(QPen(INK, max(1.0, 0.04 * s)))
    p.setBrush(colour)
    p.drawRoundedRect(QRectF(0.2 * s, 0.2 * s, 0.6 * s, 0.6 * s), 0.1 * s, 0.1 * s)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#ffffff"))
    p.drawPath(poly([(0.5 * s, 0.1 * s), (0.64 * s, 0.3 * s), (0.36 * s, 0.3 * s)]))
    p.restore()
    if s >= 10:
        fit_text(p, QRectF(0.3 * s, 0.36 * s, 0.4 * s, 0.36 * s), str(number), 0.3 * s,
                 QColor("#ffffff"))
