"""Pictures of a course: PNG and SVG of the board, and a PDF that prints it at
real size, split over pages when it is larger than the paper.

Every export is built in memory and written atomically (a temporary file
beside the target, then renamed), so a failed export never leaves a
half-written file. A QGuiApplication must exist (or is created, headless
when there is no display: ensure_app). Only Qt's painting is used (QImage,
QSvgGenerator, QPdfWriter), so that `rallyforge export` draws with no
display and without the editor.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import (
    QBuffer, QByteArray, QCoreApplication, QIODevice, QMarginsF, QPointF, QRect, QRectF, QSize, Qt,
)
from PySide6.QtGui import (
    QColor, QFont, QGuiApplication, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen,
)
from PySide6.QtSvg import QSvgGenerator

from rallyforge.drawing.board import paint_board
from rallyforge.drawing.board_info import board_info
from rallyforge.drawing.lasers import paint_lasers
from rallyforge.drawing.painters.dock import draw_dock
from rallyforge.drawing.painters.flag import draw_flag
from rallyforge.drawing.painters.pusher import draw_pusher
from rallyforge.drawing.walls import edge_margin, paint_walls
from rallyforge.engine.format.loader import write_bytes_atomic
from rallyforge.engine.format.tiled_write import Atlas
from rallyforge.engine.model.scenario import Board, Laser, Pusher, Scenario, Tile, Wall

EXTENSIONS = (".png", ".svg", ".pdf")
A4 = QPageSize.PageSizeId.A4
PAPERS = {"A4": A4, "Letter": QPageSize.PageSizeId.Letter, "A3": QPageSize.PageSizeId.A3}

PDF_DPI = 1200            # device units of the PDF painter per inch
PAGE_MARGIN_MM = 10.0     # white border all round, where printers cannot print
LABEL_MM = 10.0           # strip under the board for marks and the page label
OVERLAP_MM = 10.0         # what neighbouring pages have in common
MAX_IMAGE_SIDE = 32000    # pixels, QImage's limit with some room
PNG_QUALITY = 80          # Qt's PNG "quality" is lighter compression: 2x faster, files ~15 % larger

_app = None


def ensure_app() -> QCoreApplication:
    """The running QGuiApplication, or a new one (offscreen when there is no
    display and no platform was chosen)."""
    global _app
    app = QGuiApplication.instance()
    if app is None:
        if not (os.environ.get("QT_QPA_PLATFORM") or os.environ.get("DISPLAY")
                or os.environ.get("WAYLAND_DISPLAY")):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = _app = QGuiApplication(["rallyforge"])
    return app


def _title(scenario: Scenario) -> str:
    return scenario.name or "Untitled course"


def _description(scenario: Scenario) -> str:
    b = scenario.board
    parts = [f"Rally Forge course, {b.width} x {b.height} squares"]
    if scenario.author:
        parts.append(f"by {scenario.author}")
    if scenario.description:
        parts.append(scenario.description)
    return "; ".join(parts)


def _buffer() -> tuple[QByteArray, QBuffer]:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    return data, buffer


# ---------------------------------------------------------------- PNG and SVG

def picture_size(scenario: Scenario, square: float) -> tuple[int, int, int]:
    """(width, height, margin) of a picture of the board: the margin all round
    holds what outer walls draw beyond the board's edge."""
    b = scenario.board
    margin = math.ceil(edge_margin(square))
    return round(b.width * square) + 2 * margin, round(b.height * square) + 2 * margin, margin


@dataclass(frozen=True)
class Look:
    """What a picture shows besides the course: the grid, the robots where they start."""
    grid: bool = True
    robots: bool = False


def _paint_picture(painter: QPainter, scenario: Scenario, square_px: int, margin: int,
                   look: Look) -> None:
    painter.translate(margin, margin)
    paint_board(painter, scenario, square=square_px, grid=look.grid, robots=look.robots)


def render_image(scenario: Scenario, square_px: int = 64, look: Look = Look()) -> QImage:
    """The board as an image, square_px pixels per square, with a margin
    (picture_size) so that outer walls show whole."""
    b = scenario.board
    if square_px < 1:
        raise ValueError(f"squares must be at least 1 pixel, not {square_px}")
    if max(b.width, b.height) * square_px > MAX_IMAGE_SIDE:
        raise ValueError(f"a {b.width}x{b.height} board at {square_px} px per square is too "
                         f"large for an image; use fewer pixels per square")
    ensure_app()
    w, h, margin = picture_size(scenario, square_px)
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    try:
        _paint_picture(painter, scenario, square_px, margin, look)
    finally:
        painter.end()
    return image


def export_png(scenario: Scenario, path: str | os.PathLike, square_px: int = 64,
               look: Look = Look()) -> None:
    image = render_image(scenario, square_px, look)
    image.setText("Title", _title(scenario))
    image.setText("Description", _description(scenario))
    image.setText("Software", "Rally Forge")
    data, buffer = _buffer()
    # the stubs ask for bytes, but PySide6 takes the format only as str
    if not image.save(buffer, "PNG", PNG_QUALITY):  # type: ignore[call-overload]
        raise OSError("could not encode the PNG image")
    buffer.close()
    write_bytes_atomic(path, bytes(data.data()))


def export_svg(scenario: Scenario, path: str | os.PathLike, square_px: int = 64,
               look: Look = Look()) -> None:
    ensure_app()
    w, h, margin = picture_size(scenario, square_px)
    data, buffer = _buffer()
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(w, h))
    generator.setViewBox(QRect(0, 0, w, h))
    generator.setResolution(96)
    generator.setTitle(_title(scenario))
    generator.setDescription(_description(scenario))
    painter = QPainter(generator)
    try:
        _paint_picture(painter, scenario, square_px, margin, look)
    finally:
        painter.end()
    buffer.close()
    write_bytes_atomic(path, bytes(data.data()))


# ---------------------------------------------------------------- PDF

@dataclass(frozen=True)
class PdfLayout:
    """How a board is split over pages: `columns` x `rows` pages in the given
    orientation, each showing a window of `window_mm` of the board; window
    (c, r) starts at (c * step_mm[0], r * step_mm[1]) on the board."""
    orientation: QPageLayout.Orientation
    window_mm: tuple[float, float]
    step_mm: tuple[float, float]
    columns: int
    rows: int

    @property
    def pages(self) -> int:
        return self.columns * self.rows

    @property
    def overlap_mm(self) -> tuple[float, float]:
        """What neighbouring pages have in common, across and down."""
        return (self.window_mm[0] - self.step_mm[0], self.window_mm[1] - self.step_mm[1])


def _page_size(page_size) -> QPageSize:
    """A QPageSize from a QPageSize or a QPageSize.PageSizeId."""
    return page_size if isinstance(page_size, QPageSize) else QPageSize(page_size)


def _count(extent: float, window: float) -> int:
    if extent <= window + 1e-6:
        return 1
    return math.ceil((extent - window) / (window - OVERLAP_MM) - 1e-9) + 1


def _step(extent: float, window: float, count: int) -> float:
    """Where each page starts after the one before: the board shared out
    evenly, so that no page is left with a sliver (pages overlap by at
    least OVERLAP_MM)."""
    return (extent - window) / (count - 1) if count > 1 else window - OVERLAP_MM


def pdf_layout(board_mm: tuple[float, float], page_size=A4) -> PdfLayout:
    """The page split for a board of board_mm (width, height) in millimetres:
    the orientation that needs fewer pages; on a tie, the one whose pages are
    fullest (the least overlap), then portrait."""
    paper = _page_size(page_size).size(QPageSize.Unit.Millimeter)
    pw, ph = paper.width(), paper.height()
    best, best_key = None, None
    for orientation, (w, h) in ((QPageLayout.Orientation.Portrait, (pw, ph)),
                                (QPageLayout.Orientation.Landscape, (ph, pw))):
        window = (w - 2 * PAGE_MARGIN_MM, h - 2 * PAGE_MARGIN_MM - LABEL_MM)
        if min(window) <= OVERLAP_MM:
            raise ValueError("the paper is too small for the page margins")
        columns, rows = _count(board_mm[0], window[0]), _count(board_mm[1], window[1])
        layout = PdfLayout(orientation, window,
                           (_step(board_mm[0], window[0], columns),
                            _step(board_mm[1], window[1], rows)), columns, rows)
        waste = round(columns * window[0] * rows * window[1] - board_mm[0] * board_mm[1], 3)
        key = (layout.pages, waste if layout.pages > 1 else 0.0)
        if best_key is None or key < best_key:
            best, best_key = layout, key
    assert best is not None         # both orientations were measured
    return best


def export_pdf(scenario: Scenario, path: str | os.PathLike, square_mm: float = 25.0,
               page_size=A4, look: Look = Look()) -> int:
    """A PDF printing the board at real size, each square square_mm wide (and
    the margin of outer walls), over as few pages of `page_size` (a
    QPageSize, an id, or a name of PAPERS) as it can; returns the number of pages."""
    if not 1.0 <= square_mm <= 500.0:
        raise ValueError(f"square size must be between 1 and 500 mm, not {square_mm}")
    if isinstance(page_size, str):
        if page_size not in PAPERS:
            raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {page_size!r}")
        page_size = PAPERS[page_size]
    ensure_app()
    b = scenario.board
    edge = edge_margin(square_mm)
    layout = pdf_layout((b.width * square_mm + 2 * edge, b.height * square_mm + 2 * edge),
                        page_size)
    data, buffer = _buffer()
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_DPI)
    writer.setTitle(_title(scenario))
    writer.setCreator("Rally Forge")
    writer.setPageLayout(QPageLayout(_page_size(page_size), layout.orientation,
                                     QMarginsF(0, 0, 0, 0)))
    painter = QPainter(writer)
    try:
        for r in range(layout.rows):
            for c in range(layout.columns):
                if r or c:
                    writer.newPage()
                _pdf_page(painter, scenario, layout, c, r, square_mm, look)
    finally:
        painter.end()
    buffer.close()
    write_bytes_atomic(path, bytes(data.data()))
    return layout.pages


def _mm(value: float) -> float:
    return value * PDF_DPI / 25.4


def _pdf_page(painter: QPainter, scenario: Scenario, layout: PdfLayout, c: int, r: int,
              square_mm: float, look: Look) -> None:
    b = scenario.board
    edge = edge_margin(square_mm)     # the sheet is the board and this margin all round
    sheet_w, sheet_h = b.width * square_mm + 2 * edge, b.height * square_mm + 2 * edge
    wx, wy = c * layout.step_mm[0], r * layout.step_mm[1]
    ww = min(layout.window_mm[0], sheet_w - wx)
    wh = min(layout.window_mm[1], sheet_h - wy)
    x0, y0 = max(0, int((wx - edge) // square_mm)), max(0, int((wy - edge) // square_mm))
    x1 = min(b.width, math.ceil((wx + ww - edge) / square_mm - 1e-9))
    y1 = min(b.height, math.ceil((wy + wh - edge) / square_mm - 1e-9))
    window = QRectF(_mm(PAGE_MARGIN_MM), _mm(PAGE_MARGIN_MM), _mm(ww), _mm(wh))

    painter.save()
    painter.setClipRect(window)
    painter.translate(_mm(PAGE_MARGIN_MM + edge - wx), _mm(PAGE_MARGIN_MM + edge - wy))
    paint_board(painter, scenario, square=_mm(square_mm), area=(x0, y0, x1, y1), grid=look.grid,
                robots=look.robots)
    painter.restore()

    _crop_marks(painter, window)
    _overlap_marks(painter, layout, window, c, r)
    overlap = min(layout.overlap_mm)
    label = (f"{_title(scenario)}  -  page {r * layout.columns + c + 1} of {layout.pages}, "
             f"columns {x0}-{x1 - 1}, rows {y0}-{y1 - 1}  -  squares of {square_mm:g} mm, "
             f"pages overlap by {overlap:.0f} mm or more")
    painter.setFont(_label_font())
    painter.setPen(QColor("#333333"))
    painter.drawText(QRectF(window.left() + _mm(3), window.bottom() + _mm(6.2),
                            _mm(layout.window_mm[0] - 3), _mm(LABEL_MM - 6.2)),
                     Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, label)


def _label_font() -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(round(_mm(2.6)))
    return font


def _crop_marks(painter: QPainter, window: QRectF) -> None:
    """Short lines in the margin, in line with the corners of the printed board."""
    painter.setPen(QPen(QColor("#000000"), _mm(0.15)))
    gap, length = _mm(1.5), _mm(6)
    for x, sx in ((window.left(), -1), (window.right(), 1)):
        for y, sy in ((window.top(), -1), (window.bottom(), 1)):
            painter.drawLine(QPointF(x + sx * gap, y), QPointF(x + sx * (gap + length), y))
            painter.drawLine(QPointF(x, y + sy * gap), QPointF(x, y + sy * (gap + length)))


def _overlap_marks(painter: QPainter, layout: PdfLayout, window: QRectF, c: int, r: int) -> None:
    """Dashed lines where a neighbouring page's board begins or ends, with a
    registration target at each end, to line the pages up when gluing."""
    lines = []
    if c > 0:
        lines.append(("v", window.left() + _mm(layout.overlap_mm[0])))
    if c < layout.columns - 1:
        lines.append(("v", window.left() + _mm(layout.step_mm[0])))
    if r > 0:
        lines.append(("h", window.top() + _mm(layout.overlap_mm[1])))
    if r < layout.rows - 1:
        lines.append(("h", window.top() + _mm(layout.step_mm[1])))
    pen = QPen(QColor(0, 0, 0, 150), _mm(0.2), Qt.PenStyle.DashLine)
    for kind, at in lines:
        painter.setPen(pen)
        if kind == "v":
            ends = (QPointF(at, window.top() - _mm(3.5)), QPointF(at, window.bottom() + _mm(3.5)))
            painter.drawLine(QPointF(at, window.top()), QPointF(at, window.bottom()))
        else:
            ends = (QPointF(window.left() - _mm(3.5), at), QPointF(window.right() + _mm(3.5), at))
            painter.drawLine(QPointF(window.left(), at), QPointF(window.right(), at))
        for end in ends:
            _target(painter, end)


def _target(painter: QPainter, centre: QPointF) -> None:
    painter.setPen(QPen(QColor("#000000"), _mm(0.15)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(centre, _mm(1.2), _mm(1.2))
    painter.drawLine(centre - QPointF(_mm(2), 0), centre + QPointF(_mm(2), 0))
    painter.drawLine(centre - QPointF(0, _mm(2)), centre + QPointF(0, _mm(2)))


# ---------------------------------------------------------------- a tileset's picture

def export_tileset_image(atlas: Atlas, path: str | os.PathLike) -> None:
    """The picture of a stand-in Tiled tileset (engine/format/tiled_write.py):
    each tile id drawn in its cell of the grid, as this style draws what the
    tile puts on a square; the ids that put nothing left transparent."""
    ensure_app()
    s = atlas.size
    image = QImage(atlas.columns * s, atlas.rows * s, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    try:
        for local, things in atlas.tiles.items():
            painter.save()
            painter.translate(local % atlas.columns * s, local // atlas.columns * s)
            painter.setClipRect(QRectF(0, 0, s, s))
            _paint_tile(painter, things, s)
            painter.restore()
    finally:
        painter.end()
    data, buffer = _buffer()
    if not image.save(buffer, "PNG", PNG_QUALITY):  # type: ignore[call-overload]
        raise OSError("could not encode the PNG image")
    buffer.close()
    write_bytes_atomic(path, bytes(data.data()))


def _paint_tile(painter: QPainter, things: frozenset, s: int) -> None:
    """What one tile puts on square (0, 0): a tile with all on it on its
    floor; walls, lasers, pushers, a flag or a dock alone on a transparent
    ground, as Tiled lays them over the tiles of the layers below."""
    elements = [e for e in things if not isinstance(e, tuple)]
    board = Board(1, 1, tiles=tuple(e for e in elements if isinstance(e, Tile)),
                  walls=tuple(e for e in elements if isinstance(e, Wall)),
                  lasers=tuple(e for e in elements if isinstance(e, Laser)),
                  pushers=tuple(e for e in elements if isinstance(e, Pusher)))
    if board.tiles:
        paint_board(painter, Scenario(name="", board=board, flags=(), docks=()), square=s,
                    grid=False)
    else:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_walls(painter, board, s, 0, 0, 1, 1)
        paint_lasers(painter, board_info(board), s, 0, 0, 1, 1)
        for pusher in board.pushers:
            draw_pusher(painter, float(s), pusher.dir, pusher.phases)
    for marker in (e for e in things if isinstance(e, tuple)):
        if marker[0] == "flag":
            draw_flag(painter, float(s), marker[1])
        else:
            draw_dock(painter, float(s), marker[1], marker[2])


# ---------------------------------------------------------------- by extension

def export(scenario: Scenario, path: str | os.PathLike, square_mm: float = 25.0,
           square_px: int = 64, paper: str = "A4", look: Look = Look()) -> None:
    """Export by the extension of `path`: .png, .svg (square_px pixels per
    square) or .pdf (square_mm millimetres per square, on `paper`: A4, Letter, A3)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".png":
        export_png(scenario, path, square_px, look)
    elif suffix == ".svg":
        export_svg(scenario, path, square_px, look)
    elif suffix == ".pdf":
        export_pdf(scenario, path, square_mm, paper, look)
    else:
        raise ValueError(f"cannot export to {Path(path).name!r}: the name must end in "
                         f"{', '.join(EXTENSIONS[:-1])} or {EXTENSIONS[-1]}")
