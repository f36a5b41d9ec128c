"""Painting a whole course, layer after layer (drawing/__init__.py): the
one entry point is paint_board."""
from __future__ import annotations

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen, QPixmap

from rallyforge.drawing.area import clamp_area, in_area
from rallyforge.drawing.board_info import BoardInfo, board_info
from rallyforge.drawing.flag_paths import paint_flag_paths
from rallyforge.drawing.lasers import paint_lasers
from rallyforge.drawing.levels import paint_level_marks, paint_levels
from rallyforge.drawing.outlines import paint_factory_boards
from rallyforge.drawing.painters.crusher import crusher_label
from rallyforge.drawing.robots import paint_robots
from rallyforge.drawing.stamps import Stamper, pixmap
from rallyforge.drawing.style import GRID, SQUARE
from rallyforge.drawing.walls import edge_margin, paint_walls
from rallyforge.engine.model.scenario import Board, Scenario


def _paint_tiles(st: Stamper, info: BoardInfo, grid: bool, x0, y0, x1, y1) -> None:
    """The tiles, and the grid: on raster devices each cached tile carries the
    grid lines of its top and left edges (far faster than lines over the
    whole board), so only the board's right and bottom edges are drawn here."""
    key = info.key
    if st.vector:
        for y in range(y0, y1):
            for x in range(x0, x1):
                st.stamp(key(x, y), x, y)
        if grid:
            _vector_grid(st.p, st.s, x0, y0, x1, y1)
        return
    s, px, draw = st.s, st.px, st.p.drawPixmap
    source = QRectF(0, 0, px, px)
    pixmaps: dict[tuple, QPixmap] = {}
    for y in range(y0, y1):
        top = y * s
        for x in range(x0, x1):
            k = key(x, y)
            pix = pixmaps.get(k)
            if pix is None:
                # the table beside the board has no grid: no squares lie there
                pix = pixmaps[k] = pixmap(k, px, grid and k[0] != "void")
            draw(QRectF(x * s, top, s, s), pix, source)
    if grid:
        w = s / px
        board = info.board
        if x1 == board.width:
            st.p.fillRect(QRectF(x1 * s - w, y0 * s, w, (y1 - y0) * s), GRID)
        if y1 == board.height:
            st.p.fillRect(QRectF(x0 * s, y1 * s - w, (x1 - x0) * s, w), GRID)


def _vector_grid(p: QPainter, s: float, x0, y0, x1, y1) -> None:
    p.save()
    p.setPen(QPen(GRID, 0.012 * s))
    lines = [QLineF(x * s, y0 * s, x * s, y1 * s) for x in range(x0, x1 + 1)]
    lines += [QLineF(x0 * s, y * s, x1 * s, y * s) for y in range(y0, y1 + 1)]
    p.drawLines(lines)
    p.restore()


def _paint_crusher_labels(p: QPainter, board: Board, s: float, x0, y0, x1, y1) -> None:
    """A crusher's registers, above any beam that crosses it (the numbers
    must stay readable)."""
    for tile in board.tiles:
        if tile.type == "crusher" and in_area(tile.x, tile.y, x0, y0, x1, y1, 0):
            p.save()
            p.translate(tile.x * s, tile.y * s)
            crusher_label(p, s, tile.phases)
            p.restore()


def _paint_overlays(st: Stamper, scenario: Scenario, x0, y0, x1, y1) -> None:
    for pusher in scenario.board.pushers:
        if in_area(pusher.x, pusher.y, x0, y0, x1, y1):
            st.stamp(("pusher", pusher.dir, tuple(pusher.phases)), pusher.x, pusher.y)
    for i, flag in enumerate(scenario.flags, 1):
        if in_area(flag.x, flag.y, x0, y0, x1, y1, 0):
            st.stamp(("flag", i), flag.x, flag.y)
    for i, dock in enumerate(scenario.docks, 1):
        if in_area(dock.x, dock.y, x0, y0, x1, y1, 0):
            st.stamp(("dock", i, dock.facing), dock.x, dock.y)


def paint_board(painter: QPainter, scenario: Scenario, *, square: float = SQUARE,
                area: tuple[int, int, int, int] | None = None, grid: bool = True,
                level_marks: bool = True, robots: bool = False) -> None:
    """Paint the course with its top-left corner at (0, 0), `square` units per
    square; outer walls reach edge_margin() beyond the board. `area` = (x0,
    y0, x1, y1), x1 and y1 exclusive, limits the work to those squares:
    everything overlapping them is drawn, clipped to them (and the margin).
    `level_marks`: each raised square's level number and contour lines along
    the ledges, readable in grey (the board view shows them with the Level tool).
    The factory boards the course records (``boards``) are outlined, named;
    under ``flags_move`` each flag shows the belts it will ride. `robots`: the
    course's robots where they start (the exports; the editor's preview draws
    its own)."""
    board = scenario.board
    x0, y0, x1, y1 = clamp_area(board, area)
    if x0 >= x1 or y0 >= y1:
        return
    s = float(square)
    info = board_info(board)
    painter.save()
    try:
        if area is not None:        # the area, and the margin where it meets the board's edge
            m = edge_margin(s)
            left, top = x0 * s - (m if x0 == 0 else 0), y0 * s - (m if y0 == 0 else 0)
            right = x1 * s + (m if x1 == board.width else 0)
            bottom = y1 * s + (m if y1 == board.height else 0)
            painter.setClipRect(QRectF(left, top, right - left, bottom - top),
                                Qt.ClipOperation.IntersectClip)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        st = Stamper(painter, s)
        _paint_tiles(st, info, grid, x0, y0, x1, y1)
        if board.levels:
            paint_levels(painter, info, s, x0, y0, x1, y1)
        paint_walls(painter, board, s, x0, y0, x1, y1)
        paint_lasers(painter, info, s, x0, y0, x1, y1)
        _paint_crusher_labels(painter, board, s, x0, y0, x1, y1)
        paint_flag_paths(painter, info, scenario, s)
        _paint_overlays(st, scenario, x0, y0, x1, y1)
        if robots:
            paint_robots(painter, scenario, s)
        if level_marks and board.levels:
            paint_level_marks(painter, info, s, x0, y0, x1, y1)
        paint_factory_boards(painter, scenario, s)
    finally:
        painter.restore()
