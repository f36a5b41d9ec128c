"""A balance run's heatmaps on the board: deaths, deaths by cause, and
occupancy (where robots end a register), per 100 races.

`HeatmapOverlay` is a scene item over the course (Z_EXTRA, under the robots)
that paints each square's value as translucent colour, with the number on
squares large enough to read; `HeatmapLegend` is a small panel with the
colour scale and what it shows, in a strip the board view keeps free for it
along its bottom edge (so that it never hides a square). Modes:

    "deaths"            every death
    "deaths:CAUSE"      deaths of one cause (elements_table.DEATH_CAUSES)
    "deaths_by_cause"   each square in the colour of its commonest cause
    "occupancy"         register ends
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QLinearGradient, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QWidget

from rallyforge.editor.board_view import Z_EXTRA
from rallyforge.drawing.style import SQUARE
from rallyforge.engine.analysis.course_card.build import loop_line
from rallyforge.engine.model.element_kinds import CAUSE_LIST, DEATH_CAUSES

if TYPE_CHECKING:
    from rallyforge.engine.analysis.balance.types import Chain, Grid, Heatmaps
    from rallyforge.engine.analysis.course_card.types import ReentryLoop

CAUSE_COLORS = {c.name: QColor(c.color) for c in CAUSE_LIST}
CAUSE_NAMES = {c.name: c.label for c in CAUSE_LIST}
# yellow -> orange -> red -> deep purple, for deaths; pale -> deep blue for occupancy
DEATH_RAMP = ((0.0, QColor(255, 240, 120)), (0.35, QColor(255, 160, 30)),
              (0.7, QColor(225, 30, 40)), (1.0, QColor(90, 0, 90)))
OCCUPANCY_RAMP = ((0.0, QColor(200, 240, 255)), (0.5, QColor(40, 150, 230)),
                  (1.0, QColor(10, 30, 140)))
ALPHA = 0.62
# the legend's text, at either side
_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter

MODES = ("deaths", "deaths_by_cause", "occupancy") + tuple(f"deaths:{c}" for c in DEATH_CAUSES)


def mode_title(mode: str) -> str:
    if mode == "deaths":
        return "Deaths per 100 races"
    if mode == "deaths_by_cause":
        return "Deaths per 100 races, by cause"
    if mode == "occupancy":
        return "Register ends per 100 races"
    cause = mode.partition(":")[2]
    return f"Deaths by {CAUSE_NAMES.get(cause, cause)} per 100 races"


def ramp_color(ramp, k: float) -> QColor:
    k = min(1.0, max(0.0, k))
    for (k0, c0), (k1, c1) in zip(ramp, ramp[1:]):
        if k <= k1:
            f = (k - k0) / (k1 - k0) if k1 > k0 else 0.0
            return QColor(round(c0.red() + (c1.red() - c0.red()) * f),
                          round(c0.green() + (c1.green() - c0.green()) * f),
                          round(c0.blue() + (c1.blue() - c0.blue()) * f))
    return QColor(ramp[-1][1])


def grid_for(heatmaps: Heatmaps, mode: str) -> Grid:
    if mode in ("deaths", "deaths_by_cause"):
        return heatmaps["deaths"]
    if mode == "occupancy":
        return heatmaps["occupancy"]
    cause = mode.partition(":")[2]
    by = heatmaps.get("deaths_by_cause", {})
    if cause in by:
        return by[cause]
    return [[0.0] * heatmaps["width"] for _ in range(heatmaps["height"])]


class HeatmapOverlay(QGraphicsItem):
    def __init__(self, flags_at: Callable[[], set[tuple[int, int]]] = set):
        """`flags_at`: the squares holding a flag marker now (a count there
        goes in the corner, clear of the marker)."""
        super().__init__()
        self.flags_at = flags_at
        self.setZValue(Z_EXTRA)
        self.heatmaps: Heatmaps | None = None
        self.mode: str | None = None
        self.cells: list[tuple[int, int, float, QColor]] = []
        self.peak = 0.0
        self._size = (0, 0)
        self.loops: list[ReentryLoop] = []
        self.setVisible(False)

    def set_heatmaps(self, heatmaps: Heatmaps | None, loops: Sequence[ReentryLoop] = ()) -> None:
        """Show `heatmaps` (a balance result's), and with the deaths the
        result's re-entry `loops` in the tooltips."""
        self.prepareGeometryChange()
        self.heatmaps = heatmaps
        self.loops = list(loops)
        self._size = (heatmaps["width"], heatmaps["height"]) if heatmaps else (0, 0)
        self._rebuild()

    def set_mode(self, mode: str | None) -> None:
        if mode is not None and mode not in MODES:
            raise ValueError(f"unknown heatmap {mode!r}")
        self.mode = mode
        self._rebuild()

    def _rebuild(self) -> None:
        self.cells = []
        self.peak = 0.0
        h = self.heatmaps
        if h is None or self.mode is None:
            self.setVisible(False)
            self.update()
            return
        grid = grid_for(h, self.mode)
        self.peak = max((v for row in grid for v in row), default=0.0)
        by = h.get("deaths_by_cause", {})
        for y, row in enumerate(grid):
            for x, v in enumerate(row):
                if v <= 0:
                    continue
                k = v / self.peak if self.peak else 0.0
                if self.mode == "deaths_by_cause":
                    cause = max(DEATH_CAUSES, key=lambda c: by[c][y][x] if c in by else 0)
                    color = QColor(CAUSE_COLORS[cause])
                    alpha = 0.12 + 0.68 * k ** 0.7
                elif self.mode == "occupancy":
                    color = ramp_color(OCCUPANCY_RAMP, k)
                    alpha = 0.08 + 0.62 * k ** 0.8
                else:
                    color = ramp_color(DEATH_RAMP, k ** 0.8)
                    alpha = 0.08 + 0.72 * k ** 0.7
                color.setAlphaF(alpha)
                self.cells.append((x, y, v, color))
        self.setVisible(True)
        self.update()

    def tooltip_at(self, x: int, y: int) -> str | None:
        """Why robots die on square (x, y), in a deaths mode: its deaths per
        100 races, each cause chain's, and a re-entry loop there."""
        h = self.heatmaps
        if h is None or self.mode is None or not self.mode.startswith("deaths"):
            return None
        if not (0 <= x < h["width"] and 0 <= y < h["height"]):
            return None
        texts = []
        value = h["deaths"][y][x] or 0.0
        if value > 0:
            texts.append(f"{value:.1f} deaths per 100 races here:")
            chains: list[Chain] = next((sq["why"] for sq in h.get("chains", ())
                                       if (sq["x"], sq["y"]) == (x, y)), [])
            texts += [f"  {w['chain']} ({w['per_100_races']:.1f})" for w in chains]
        texts += [loop_line(loop) for loop in self.loops if (loop["x"], loop["y"]) == (x, y)]
        return "\n".join(texts) or None

    def boundingRect(self) -> QRectF:
        w, h = self._size
        return QRectF(0, 0, w * SQUARE, h * SQUARE)

    def paint(self, p: QPainter, option, widget=None) -> None:
        if not self.cells:
            return
        lod = option.levelOfDetailFromTransform(p.worldTransform())
        font = QFont()
        font.setPixelSize(15)
        font.setBold(True)
        p.setFont(font)
        show_numbers = lod * SQUARE >= 30
        # numbers only where they matter: the squares above a tenth of the peak
        floor = 0.1 * self.peak
        flags = self.flags_at()
        for x, y, v, color in self.cells:
            p.fillRect(QRectF(x * SQUARE, y * SQUARE, SQUARE, SQUARE), color)
            if show_numbers and v >= floor:
                text = f"{v:.0f}" if v >= 10 else f"{v:.1f}"
                on_flag = (x, y) in flags
                font.setPixelSize(11 if on_flag else 15)
                p.setFont(font)
                box, align = self.label_box(x, y, on_flag)
                p.setPen(QColor(0, 0, 0, 200))
                p.drawText(box.translated(1, 1), align, text)
                p.setPen(QColor(255, 255, 255))
                p.drawText(box, align, text)

    @staticmethod
    def label_box(x: int, y: int, on_flag: bool) -> tuple[QRectF, Qt.AlignmentFlag]:
        """Where the count of square (x, y) is written: along its bottom, or on a
        flag's square in its top-left corner, outside the flag's disc (drawing/painters/flag.py
        draws it 0.35 of a square across from the centre)."""
        if on_flag:
            return (QRectF(x * SQUARE + 1, y * SQUARE + 1, 0.27 * SQUARE, 0.2 * SQUARE),
                    Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        return QRectF(x * SQUARE, (y + 1) * SQUARE - 20, SQUARE, 18), Qt.AlignmentFlag.AlignCenter


class HeatmapLegend(QWidget):
    """The colour scale, under the board: while it shows, the board view
    keeps a strip of its own height free below the board's viewport (its
    viewport margins), and the legend sits in that strip."""

    MARGIN = 6

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.mode: str | None = None
        self.peak = 0.0
        self.note = ""
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.resize(250, 74)
        view.viewport().installEventFilter(self)     # the strip follows the viewport
        self.hide()

    def set_scale(self, mode: str | None, peak: float, note: str = "") -> None:
        self.mode, self.peak, self.note = mode, peak, note
        if mode is None:
            self.hide()
            self._keep_strip(0)
            return
        self.resize(250, (94 if mode == "deaths_by_cause" else 64) + (16 if note else 0))
        self._keep_strip(self.height() + 2 * self.MARGIN)
        self._place()
        self.show()
        self.raise_()
        self.update()

    def _keep_strip(self, height: int) -> None:
        """The free strip below the board; set only when it changes (setting
        the view's margins lays out its scroll bars again)."""
        if self.view.viewportMargins().bottom() != height:
            self.view.setViewportMargins(0, 0, 0, height)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._place()
        return False

    def _place(self) -> None:
        """In the strip below the viewport (above a horizontal scroll bar), at its left."""
        if self.mode is None:
            return
        board = self.view.viewport().geometry()
        self.move(board.left() + self.MARGIN, board.bottom() + 1 + self.MARGIN)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(QColor(255, 255, 255, 60)))
        p.setBrush(QColor(25, 27, 31, 225))
        p.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 7, 7)
        font = QFont()
        font.setPixelSize(12)
        font.setBold(True)
        p.setFont(font)
        p.setPen(QColor(255, 255, 255))
        p.drawText(QRectF(10, 6, self.width() - 20, 16), _LEFT,
                   mode_title(self.mode or ""))
        font.setBold(False)
        font.setPixelSize(11)
        p.setFont(font)
        if self.mode == "deaths_by_cause":
            for i, cause in enumerate(DEATH_CAUSES):
                col, row = divmod(i, 3)
                x, y = 10 + col * 120, 26 + row * 15
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(CAUSE_COLORS[cause])
                p.drawRoundedRect(QRectF(x, y + 2, 14, 12), 2, 2)
                p.setPen(QColor(230, 230, 230))
                p.drawText(QRectF(x + 20, y, 100, 16), _LEFT,
                           CAUSE_NAMES[cause])
            p.drawText(QRectF(10, 73, self.width() - 20, 16), _LEFT,
                       f"stronger colour: more deaths (up to {self.peak:.1f})")
            note_at = 89
        else:
            note_at = 60
            self._paint_ramp(p)
        if self.note:
            p.setPen(QColor(255, 210, 120))
            p.drawText(QRectF(10, note_at, self.width() - 20, 16), _LEFT,
                       self.note)

    def _paint_ramp(self, p: QPainter) -> None:
        ramp = OCCUPANCY_RAMP if self.mode == "occupancy" else DEATH_RAMP
        bar = QRectF(10, 28, self.width() - 20, 14)
        gradient = QLinearGradient(bar.topLeft(), bar.topRight())
        for k, c in ramp:
            gradient.setColorAt(k, c)
        p.setPen(QPen(QColor(0, 0, 0, 120)))
        p.setBrush(gradient)
        p.drawRect(bar)
        p.setPen(QColor(230, 230, 230))
        p.drawText(QRectF(10, 44, 80, 16), _LEFT, "0")
        p.drawText(QRectF(self.width() - 130, 44, 120, 16), _RIGHT,
                   f"{self.peak:.1f}")
