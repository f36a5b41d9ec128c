"""Laser beams and emitters."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from rallyforge.drawing.board_info import BoardInfo
from rallyforge.drawing.shapes import turn
from rallyforge.drawing.style import BEAM_GLOW, COLORS, INK
from rallyforge.drawing.walls import wall_thickness
from rallyforge.engine.model.directions import DX, DY, INDEX
from rallyforge.engine.model.scenario import Board


def beam_segment(board: Board, s: float, laser, lx: int, ly: int, walled: bool):
    """Both ends of a laser's beam, from its emitter to the far wall or the board edge."""
    d = INDEX.get(laser.dir, 0)
    t = wall_thickness(s)
    start_edge = 0.16 * s              # the emitter's front, from its wall
    cx0, cy0 = (laser.x + 0.5) * s, (laser.y + 0.5) * s
    cx1, cy1 = (lx + 0.5) * s, (ly + 0.5) * s
    outer = not board.in_bounds(lx + DX[d], ly + DY[d])
    end_gap = (t if outer else t / 2) if walled else 0.0
    a = QPointF(cx0 - DX[d] * (s / 2 - start_edge), cy0 - DY[d] * (s / 2 - start_edge))
    b = QPointF(cx1 + DX[d] * (s / 2 - end_gap), cy1 + DY[d] * (s / 2 - end_gap))
    return a, b


BEAM_OFFSETS = {1: (0.0,), 2: (-0.12, 0.12), 3: (-0.18, 0.0, 0.18)}


def paint_lasers(p: QPainter, info: BoardInfo, s: float, x0, y0, x1, y1) -> None:
    board = info.board
    area = QRectF((x0 - 1) * s, (y0 - 1) * s, (x1 - x0 + 2) * s, (y1 - y0 + 2) * s)
    segments = []
    for laser, lx, ly, walled in info.beams:
        a, b = beam_segment(board, s, laser, lx, ly, walled)
        if QRectF(a, b).normalized().adjusted(-s, -s, s, s).intersects(area):
            segments.append((laser, a, b))
    if not segments:
        return
    glow = QPen(BEAM_GLOW, 0.13 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap)
    core = QPen(COLORS["laser"], 0.05 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap)
    for pen in (glow, core):
        p.setPen(pen)
        for laser, a, b in segments:
            d = INDEX.get(laser.dir, 0)
            nx, ny = -DY[d], DX[d]       # perpendicular to the beam
            for off in BEAM_OFFSETS.get(laser.beams, (0.0,)):
                shift = QPointF(nx * off * s, ny * off * s)
                p.drawLine(a + shift, b + shift)
    for laser, a, b in segments:
        paint_emitter(p, s, laser)


def paint_emitter(p: QPainter, s: float, laser) -> None:
    """The emitter housing on the wall behind the laser's square, one lens per beam."""
    p.save()
    p.translate(laser.x * s, laser.y * s)
    turn(p, s, laser.dir)
    p.setPen(QPen(INK, max(1.0, 0.02 * s)))
    p.setBrush(QColor("#3b3f46"))
    p.drawRoundedRect(QRectF(0.26 * s, 0.84 * s, 0.48 * s, 0.16 * s), 0.03 * s, 0.03 * s)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(COLORS["laser"])
    for off in BEAM_OFFSETS.get(laser.beams, (0.0,)):
        cx = (0.5 + off) * s         # the turned frame's x is the beam's perpendicular
        p.drawRect(QRectF(cx - 0.045 * s, 0.8 * s, 0.09 * s, 0.06 * s))
    p.restore()
