"""The flags of a team race in the race preview (docs/rules.md 13.5, 13.7):
a flag a team holds under flag control is ringed in that team's colour; a
flag carried under capture rides as a small pennant on its carrier, in the
colour of the team whose flag it is, and a dropped flag lies as a pennant on
the square it was dropped on. The states come from the event log
(engine/analysis/team_flags.py); the carrier's pose is the robot's on screen,
so the pennant moves with it.

Z order: just above the robots (editor/preview/robots_overlay.py), so that a
pennant is not hidden under its carrier.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from rallyforge.editor.board_view import Z_EXTRA
from rallyforge.drawing.style import SQUARE
from rallyforge.engine.analysis.replay import Pose
from rallyforge.engine.analysis.team_flags import FlagState

Z_TEAM_FLAGS = Z_EXTRA + 0.85       # over the robots (0.8), under a check's ghost (0.9)

S = float(SQUARE)
_INK = QColor(20, 22, 26)
_WHITE = QColor(255, 255, 255)
_NEUTRAL = QColor(240, 240, 240)


class TeamFlags(QGraphicsItem):
    """Held flags' rings and carried or dropped flags' pennants of the frame on screen."""

    def __init__(self, colors: dict[str, QColor], homes: list[tuple[int, int]]):
        super().__init__()
        self.colors = colors            # team name -> colour
        self.homes = homes              # each flag's square in the file
        self.rings: list[tuple[tuple[int, int], QColor]] = []
        self.pennants: list[tuple[QPointF, QColor, int]] = []
        self.setZValue(Z_TEAM_FLAGS)

    def color(self, team: str | None) -> QColor:
        return self.colors.get(team, _NEUTRAL) if team is not None else _NEUTRAL

    def set_state(self, flags: tuple[FlagState, ...], poses: dict[str, Pose | None]) -> None:
        """Show `flags` with the carriers where `poses` put them."""
        rings, pennants = [], []
        for f in flags:
            if f.holder is not None and f.square is not None:
                rings.append((f.square, self.color(f.holder)))
            if f.carrier is not None:
                pose = poses.get(f.carrier)
                if pose is not None and pose.opacity > 0:
                    at = QPointF((pose.x + 0.5) * S + S * 0.3, (pose.y + 0.5) * S)
                    pennants.append((at, self.color(f.team), f.number))
            elif f.square is not None and f.square != self.homes[f.number - 1]:
                at = QPointF((f.square[0] + 0.5) * S, (f.square[1] + 0.5) * S)
                pennants.append((at, self.color(f.team), f.number))
        if (rings, pennants) != (self.rings, self.pennants):
            self.prepareGeometryChange()
            self.rings, self.pennants = rings, pennants
            self.update()

    def boundingRect(self) -> QRectF:
        bounds = QRectF()
        for (x, y), _ in self.rings:
            bounds = bounds.united(QRectF(x * S, y * S, S, S))
        for at, _, _ in self.pennants:
            bounds = bounds.united(QRectF(at.x() - 6, at.y() - 38, 36, 44))
        return bounds.adjusted(-6, -6, 6, 6)

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setBrush(Qt.BrushStyle.NoBrush)
        for (x, y), color in self.rings:
            centre, r = QPointF((x + 0.5) * S, (y + 0.5) * S), S * 0.46
            p.setPen(QPen(_INK, 9))
            p.drawEllipse(centre, r, r)
            p.setPen(QPen(color, 6))
            p.drawEllipse(centre, r, r)
        for at, color, _ in self.pennants:
            _pennant(p, at, color)


def _pennant(p: QPainter, foot: QPointF, color: QColor) -> None:
    """A small flag on a pole standing at `foot`."""
    top = foot - QPointF(0, 34)
    p.setPen(QPen(_INK, 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(foot, top)
    p.setPen(QPen(_WHITE, 1.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(foot, top)
    cloth = QPolygonF([top, top + QPointF(24, 8), top + QPointF(0, 16)])
    p.setPen(QPen(_INK, 2))
    p.setBrush(color)
    p.drawPolygon(cloth)
    p.setBrush(Qt.BrushStyle.NoBrush)
