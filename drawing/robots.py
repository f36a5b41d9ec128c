"""The course's robots where they start (its `robots`, each on its dock or
its own square): a token in the robot's colour, pointing where it faces,
with its number. The exports draw them; the editor's preview draws its own."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
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
    """A round token with a nose towards `facing`, inside the square (0, 0)-(s, s)."""
    p.save()
    turn(p, s, facing)
    p.setPen(QPen(INK, max(1.0, 0.03 * s)))
    p.setBrush(colour)
    p.drawPath(poly([(0.5 * s, 0.08 * s), (0.7 * s, 0.3 * s), (0.3 * s, 0.3 * s)]))
    p.drawEllipse(QPointF(0.5 * s, 0.55 * s), 0.3 * s, 0.3 * s)
    p.restore()
    if s >= 10:
        p.setPen(Qt.PenStyle.NoPen)
        fit_text(p, QRectF(0.3 * s, 0.35 * s, 0.4 * s, 0.4 * s), str(number), 0.3 * s,
                 QColor("#ffffff"))
