"""Palette icons."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen

from rallyforge.drawing.board_info import BoardInfo
from rallyforge.drawing.lasers import beam_segment, paint_emitter
from rallyforge.drawing.painters.crusher import crusher_label
from rallyforge.drawing.painters.dock import draw_dock
from rallyforge.drawing.painters.eraser import draw_eraser
from rallyforge.drawing.painters.flag import draw_flag
from rallyforge.drawing.painters.floor import draw_floor
from rallyforge.drawing.painters import TILE_PAINTERS
from rallyforge.drawing.painters.pusher import draw_pusher
from rallyforge.drawing.style import BEAM_GLOW, COLORS, INK
from rallyforge.drawing.walls import wall_rect
from rallyforge.engine.model.directions import INDEX
from rallyforge.engine.model.element_kinds import new_tile
from rallyforge.engine.model.scenario import Board, Laser


ICON_KINDS = (*TILE_PAINTERS, "wall", "laser", "pusher", "flag", "dock", "eraser")


def paint_element_icon(painter: QPainter, rect: QRectF, element_kind: str, direction: str = "N",
                       **values) -> None:
    """A palette icon: one square showing `element_kind` (a tile type,
    "wall", "laser", "pusher", "flag", "dock" or "eraser"), centred in rect.
    `values`: the tile's key values besides dir (express, rotation...); the
    others are a new tile's, and registers 2 and 4."""
    if element_kind not in ICON_KINDS:
        raise ValueError(f"no icon for {element_kind!r}; known: {', '.join(ICON_KINDS)}")
    rect = QRectF(rect)
    s = min(rect.width(), rect.height())
    if s <= 0:
        return
    direction = direction if direction in INDEX else "N"
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.translate(rect.center().x() - s / 2, rect.center().y() - s / 2)
        painter.setClipRect(QRectF(0, 0, s, s), Qt.ClipOperation.IntersectClip)
        _icon(painter, s, element_kind, direction, values)
    finally:
        painter.restore()


def _icon(p: QPainter, s: float, kind: str, direction: str, values: dict) -> None:
    if kind == "eraser":
        draw_eraser(p, s)
        return
    if kind in TILE_PAINTERS:
        # the tile alone on a board of one square
        tile = new_tile(0, 0, kind, **{"phases": (2, 4), **values, "dir": direction})
        key = BoardInfo(Board(1, 1, (tile,))).key(0, 0)
        TILE_PAINTERS[kind](p, s, *key[1:])
        if kind == "crusher":
            crusher_label(p, s, tile.phases)
        return
    draw_floor(p, s)
    if kind == "wall":
        board = Board(1, 1)
        p.save()
        p.setClipRect(QRectF(0, 0, s, s), Qt.ClipOperation.IntersectClip)
        r = wall_rect(board, *_edge_of(direction), s)
        o = max(0.02 * s, 0.6)
        p.fillRect(r.adjusted(-o, -o, o, o), INK)
        p.fillRect(r, COLORS["wall"])
        p.restore()
    elif kind == "laser":
        board = Board(1, 1)
        laser = Laser(0, 0, direction, 1)
        a, b = beam_segment(board, s, laser, 0, 0, False)
        p.setPen(QPen(BEAM_GLOW, 0.13 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        p.drawLine(a, b)
        p.setPen(QPen(COLORS["laser"], 0.06 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        p.drawLine(a, b)
        paint_emitter(p, s, laser)
    elif kind == "pusher":
        draw_pusher(p, s, direction, (2, 4))
    elif kind == "flag":
        draw_flag(p, s, 1)
    elif kind == "dock":
        draw_dock(p, s, 1, direction)


def _edge_of(side: str) -> tuple[int, int, str]:
    """The edge_key of side `side` of square (0, 0)."""
    return {"N": (0, 0, "N"), "W": (0, 0, "W"), "S": (0, 1, "N"), "E": (1, 0, "W")}[side]
