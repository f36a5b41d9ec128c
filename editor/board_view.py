"""The board on screen: a QGraphicsView with one item painting the course and
a few overlay items above it.

Scene coordinates are pixels at zoom 1: square (x, y) covers
[x * SQUARE, (x + 1) * SQUARE) x [y * SQUARE, (y + 1) * SQUARE).

Z order of the scene, for anyone adding overlays (a race preview, heatmaps):

    Z_BOARD      0   the course (BoardItem)
    Z_ISSUES    10   red and orange outlines of squares with problems
    Z_EXTRA     15   free for other layers: robots, paths, heatmaps
    Z_SELECTION 20   the selected rectangle
    Z_PREVIEW   30   what the current tool would do (hovered square or edge, the
                     brush's element drawn faintly)

The current tool gets every mouse event with the left or right button, in
scene coordinates; the view itself handles zoom (wheel, zoom_in/zoom_out/fit)
and panning (middle button, or Space held with the left button).
"""
from __future__ import annotations

import math
from dataclasses import replace

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush, QColor, QGuiApplication, QPainter, QPainterPath, QPen, QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem, QGraphicsPathItem, QGraphicsPixmapItem, QGraphicsScene, QGraphicsView,
    QStyleOptionGraphicsItem, QToolTip,
)

from rallyforge.drawing import style
from rallyforge.drawing.board import paint_board
from rallyforge.drawing.walls import edge_margin
from rallyforge.engine.analysis.course_card.flags import flag_scores
from rallyforge.engine.editing import edit
from rallyforge.engine.model.directions import DX, DY, INDEX, NAMES
from rallyforge.engine.model.scenario import Board

SQUARE = style.SQUARE
Z_BOARD, Z_ISSUES, Z_EXTRA, Z_SELECTION, Z_PREVIEW = 0, 10, 15, 20, 30
MIN_ZOOM, MAX_ZOOM = 0.1, 8.0
WHEEL_STEP = 60          # viewport pixels scrolled per wheel notch
ERROR_COLOR = QColor(230, 40, 40)
WARNING_COLOR = QColor(255, 150, 0)
SELECTION_COLOR = QColor(60, 160, 255)
PREVIEW_COLOR = QColor(255, 255, 255)


def square_rect(x0: int, y0: int, x1: int | None = None, y1: int | None = None) -> QRectF:
    """Scene rectangle of a square, or of the squares x0..x1, y0..y1 inclusive."""
    x1 = x0 if x1 is None else x1
    y1 = y0 if y1 is None else y1
    return QRectF(x0 * SQUARE, y0 * SQUARE, (x1 - x0 + 1) * SQUARE, (y1 - y0 + 1) * SQUARE)


def edge_line(x: int, y: int, side: str) -> tuple[QPointF, QPointF]:
    """The two ends of side `side` of square (x, y), in scene coordinates."""
    left, top = x * SQUARE, y * SQUARE
    right, bottom = left + SQUARE, top + SQUARE
    return {
        "N": (QPointF(left, top), QPointF(right, top)),
        "S": (QPointF(left, bottom), QPointF(right, bottom)),
        "W": (QPointF(left, top), QPointF(left, bottom)),
        "E": (QPointF(right, top), QPointF(right, bottom)),
    }[side]


class BoardItem(QGraphicsItem):
    """The course, painted by drawing/; repaints only the squares a
    change touched (and their neighbours, whose belt curves depend on them)."""

    def __init__(self, doc):
        super().__init__()
        self.doc = doc
        self.grid = True
        self.level_marks = False    # level numbers and contours (paint_board)
        self._size = (doc.scenario.board.width, doc.scenario.board.height)
        self._shown = doc.scenario
        self._race_board: Board | None = None      # the race preview's turned board (12.10)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.setZValue(Z_BOARD)
        doc.changed.connect(self.on_changed)

    def boundingRect(self) -> QRectF:
        w, h = self._size
        m = edge_margin(SQUARE)
        return QRectF(-m, -m, w * SQUARE + 2 * m, h * SQUARE + 2 * m)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        scenario = self.doc.scenario
        if self._race_board is not None:
            scenario = replace(scenario, board=self._race_board)
        b = scenario.board
        r = option.exposedRect
        # render's area is x1, y1 exclusive.
        area = (max(0, math.floor(r.left() / SQUARE)), max(0, math.floor(r.top() / SQUARE)),
                min(b.width, math.ceil(r.right() / SQUARE)),
                min(b.height, math.ceil(r.bottom() / SQUARE)))
        whole = area == (0, 0, b.width, b.height)
        paint_board(painter, scenario, square=SQUARE, area=None if whole else area,
                           grid=self.grid, level_marks=self.level_marks)

    def set_grid(self, on: bool) -> None:
        self.grid = on
        self.update()

    def show_race_board(self, board: Board | None) -> None:
        """Draw `board` instead of the course's (a race preview where a factory
        board has turned, docs/rules.md 12.10); None: the course's own."""
        if board is not None and (board.width, board.height) != self._size:
            board = None
        if board is not self._race_board:
            self._race_board = board
            self.update()

    def set_level_marks(self, on: bool) -> None:
        if on != self.level_marks:
            self.level_marks = on
            self.update()

    def on_changed(self, area) -> None:
        new, old = self.doc.scenario, self._shown
        self._shown = new
        size = (new.board.width, new.board.height)
        if size != self._size:
            self.prepareGeometryChange()
            self._size = size
            self.update()
            return
        if area is None:
            if (new.board is old.board and new.flags is old.flags and new.docks is old.docks
                    and new.boards is old.boards):
                return   # a change of names, rules or robots: nothing to repaint
            self.update()
            return
        x0, y0, x1, y1 = area
        self.update(square_rect(x0 - 1, y0 - 1, x1 + 1, y1 + 1))


class IssueOverlay(QGraphicsItem):
    """Outlines around squares with problems: red for errors, orange for warnings."""

    def __init__(self):
        super().__init__()
        self.setZValue(Z_ISSUES)
        self._squares: dict[tuple[int, int], bool] = {}   # square -> has an error
        self._bounds = QRectF()

    def set_problems(self, problems) -> None:
        squares: dict[tuple[int, int], bool] = {}
        for p in problems:
            if p.x is not None and p.y is not None:
                squares[(p.x, p.y)] = squares.get((p.x, p.y), False) or p.is_error
        self.prepareGeometryChange()
        self._squares = squares
        bounds = QRectF()
        for x, y in squares:
            bounds = bounds.united(square_rect(x, y))
        self._bounds = bounds.adjusted(-4, -4, 4, 4)
        self.update()

    @property
    def squares(self) -> dict[tuple[int, int], bool]:
        """The outlined squares, each with whether it has an error."""
        return dict(self._squares)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        for error in (False, True):   # errors on top
            pen = QPen(ERROR_COLOR if error else WARNING_COLOR, 4)
            pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for (x, y), is_error in self._squares.items():
                if is_error == error:
                    painter.drawRect(square_rect(x, y).adjusted(2, 2, -2, -2))


def _outline_item(color: QColor, z: int, fill_alpha: int,
                  dashed: bool = False) -> QGraphicsPathItem:
    item = QGraphicsPathItem()
    pen = QPen(color, 3)
    pen.setCosmetic(True)
    if dashed:
        pen.setStyle(Qt.PenStyle.DashLine)
    item.setPen(pen)
    fill = QColor(color)
    fill.setAlpha(fill_alpha)
    item.setBrush(QBrush(fill))
    item.setZValue(z)
    return item


class BoardView(QGraphicsView):
    squareHovered = Signal(object)      # (x, y) or None
    zoomChanged = Signal(float)

    def __init__(self, doc, state, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.state = state
        self.tool = None
        self.setScene(QGraphicsScene(self))
        self.board_item = BoardItem(doc)
        self.issue_overlay = IssueOverlay()
        self.selection_item = _outline_item(SELECTION_COLOR, Z_SELECTION, 40, dashed=True)
        self.preview_item = _outline_item(PREVIEW_COLOR, Z_PREVIEW, 50)
        self.ghost_item = QGraphicsPixmapItem()     # the brush's element under the cursor
        self.ghost_item.setZValue(Z_PREVIEW)
        self.ghost_item.setOpacity(0.6)
        for item in (self.board_item, self.issue_overlay, self.selection_item, self.preview_item,
                     self.ghost_item):
            self.scene().addItem(item)

        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setMouseTracking(True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setBackgroundBrush(style.COLORS["void"])     # the table the board lies on
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_from = None           # viewport point where a pan started
        self._space = False
        self._hover = None
        # more tooltips for a square, from layers over the board (a heatmap's):
        # each takes (x, y) and gives a text or None
        self.tooltip_sources: list = []
        self.update_scene_rect()
        doc.changed.connect(self.on_doc_changed)
        doc.scenarioReplaced.connect(self.on_replaced)
        state.selectionChanged.connect(self.show_selection)

    # ------------------------------------------------------------ geometry

    def update_scene_rect(self) -> None:
        b = self.doc.scenario.board
        m = SQUARE / 2
        self.setSceneRect(QRectF(-m, -m, b.width * SQUARE + 2 * m, b.height * SQUARE + 2 * m))

    def square_at(self, pos: QPointF, clamp: bool = False):
        """The square under a scene point (None off the board, unless clamped)."""
        b = self.doc.scenario.board
        x, y = int(math.floor(pos.x() / SQUARE)), int(math.floor(pos.y() / SQUARE))
        if clamp:
            return min(max(x, 0), b.width - 1), min(max(y, 0), b.height - 1)
        return (x, y) if b.in_bounds(x, y) else None

    def edge_at(self, pos: QPointF):
        """The edge nearest a scene point, named from the square it lies in:
        (x, y, side), or None off the board."""
        square = self.square_at(pos)
        if square is None:
            return None
        x, y = square
        fx, fy = pos.x() / SQUARE - x, pos.y() / SQUARE - y
        side = min((("N", fy), ("S", 1 - fy), ("W", fx), ("E", 1 - fx)), key=lambda t: t[1])[0]
        return x, y, side

    @property
    def hovered(self):
        """The square under the mouse, or None."""
        return self._hover

    def tooltip_at(self, square) -> str | None:
        """The tooltip of a square: a flag's difficulty score and what makes
        it, then what the ``tooltip_sources`` say of it."""
        if square is None:
            return None
        s = self.doc.scenario
        index = edit.marker_at(s, "flags", *square)
        texts = [] if index is None else [f"Flag {index + 1}, difficulty "
                                          f"{flag_scores(s)[index].explain()}"]
        texts += [t for t in (source(*square) for source in self.tooltip_sources) if t]
        return "\n".join(texts) or None

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(self.square_at(self.mapToScene(event.pos())))
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    # ------------------------------------------------------------ zoom and pan

    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, zoom: float) -> None:
        zoom = min(max(zoom, MIN_ZOOM), MAX_ZOOM)
        factor = zoom / self.zoom()
        if abs(factor - 1) > 1e-9:
            self.scale(factor, factor)
            self.zoomChanged.emit(self.zoom())

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom() * 1.25)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom() / 1.25)

    def fit(self) -> None:
        """Zoom so that the whole board (and its margin) is in view."""
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self.zoomChanged.emit(self.zoom())

    def centre_on_square(self, x: int, y: int) -> None:
        self.centerOn(square_rect(x, y).center())

    def wheelEvent(self, event) -> None:
        """Ctrl+wheel zooms keeping the scene point under the cursor where it
        is; the wheel scrolls (Shift+wheel sideways, trackpads both ways)."""
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            if steps:
                pos = event.position().toPoint()
                anchor = self.mapToScene(pos)
                self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
                self.set_zoom(self.zoom() * 1.25 ** steps)
                self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
                moved = self.mapFromScene(anchor) - pos
                self.scroll_by(moved.x(), moved.y())
        else:
            pixels = event.pixelDelta()
            if pixels.isNull():     # a mouse wheel: notches of 120
                angle = event.angleDelta()
                pixels = QPoint(round(angle.x() / 120 * WHEEL_STEP),
                                round(angle.y() / 120 * WHEEL_STEP))
            dx, dy = pixels.x(), pixels.y()
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier and not dx:
                dx, dy = dy, 0
            self.scroll_by(-dx, -dy)
        event.accept()

    def scroll_by(self, dx: float, dy: float) -> None:
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + round(dx))
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + round(dy))

    def _start_pan(self, event) -> None:
        self._pan_from = event.position()
        self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def _pan(self, event) -> None:
        delta = event.position() - self._pan_from
        self._pan_from = event.position()
        self.scroll_by(-delta.x(), -delta.y())

    def _end_pan(self) -> None:
        self._pan_from = None
        self.viewport().setCursor(Qt.CursorShape.OpenHandCursor if self._space
                                  else self._tool_cursor())

    def _tool_cursor(self):
        return self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor

    # ------------------------------------------------------------ events

    def set_tool(self, tool) -> None:
        if self.tool is tool:
            return
        if self.tool:
            self.tool.deactivate()
        self.tool = tool
        self.clear_preview()
        if tool:
            tool.activate()
        self.viewport().setCursor(self._tool_cursor())

    def mousePressEvent(self, event) -> None:
        button = event.button()
        if button == Qt.MouseButton.MiddleButton or (button == Qt.MouseButton.LeftButton
                                                     and self._space):
            self._start_pan(event)
        elif self.tool and button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton) \
                and self._pan_from is None:
            self.tool.press(self.mapToScene(event.position().toPoint()), event)
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        if self._pan_from is not None:
            self._pan(event)
            return
        pos = self.mapToScene(event.position().toPoint())
        square = self.square_at(pos)
        if square != self._hover:
            self._hover = square
            self.squareHovered.emit(square)
        if self.tool:
            self.tool.move(pos, event)
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        button = event.button()
        if self._pan_from is not None and button in (Qt.MouseButton.MiddleButton,
                                                     Qt.MouseButton.LeftButton):
            self._end_pan()
        elif self.tool and button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self.tool.release(self.mapToScene(event.position().toPoint()), event)
        event.accept()

    def mouseDoubleClickEvent(self, event) -> None:
        self.mousePressEvent(event)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            if self._pan_from is None:
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        if event.key() == Qt.Key.Key_Escape and self.tool:
            # Esc ends a drag in progress (a button is down); with none, it
            # drops the selection, as in map editors.
            if QGuiApplication.mouseButtons() == Qt.MouseButton.NoButton:
                self.state.set_selection(None)
            self.tool.cancel()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            if self._pan_from is None:
                self.viewport().setCursor(self._tool_cursor())
            return
        super().keyReleaseEvent(event)

    def leaveEvent(self, event) -> None:
        self._hover = None
        self.squareHovered.emit(None)
        self.clear_preview()
        super().leaveEvent(event)

    # ------------------------------------------------------------ overlays

    def show_preview(self, path: QPainterPath | None) -> None:
        self.preview_item.setPath(path or QPainterPath())

    def clear_preview(self) -> None:
        self.show_preview(None)
        self.ghost_item.hide()

    def show_ghost(self, square, pixmap) -> None:
        """A faint picture of what a click on `square` would paint."""
        if square is None:
            self.ghost_item.hide()
            return
        self.ghost_item.setPixmap(pixmap)
        self.ghost_item.setScale(SQUARE / pixmap.width())
        self.ghost_item.setPos(square[0] * SQUARE, square[1] * SQUARE)
        self.ghost_item.show()

    def show_selection(self) -> None:
        rect = self.state.selection
        self.selection_item.setPath(rect_path(rect) if rect is not None else QPainterPath())

    def show_moving_selection(self, rect, dx: int, dy: int) -> None:
        self.selection_item.setPath(rect_path(rect).translated(dx * SQUARE, dy * SQUARE))

    def on_doc_changed(self, area) -> None:
        if area is None:
            self.update_scene_rect()
            if self.state.selection is not None:   # the board may have shrunk
                self.state.set_selection(edit.clip_rect(self.doc.scenario.board,
                                                        self.state.selection))

    def on_replaced(self) -> None:
        """Another course (New, Open, Open Recent, Revert): shown whole."""
        self.update_scene_rect()
        self.fit()
        self.state.set_selection(None)
        self.state.inspect(None)
        self.issue_overlay.set_problems([])


def square_path(squares) -> QPainterPath:
    path = QPainterPath()
    for x, y in squares:
        path.addRect(square_rect(x, y))
    return path.simplified()


def rect_path(rect) -> QPainterPath:
    path = QPainterPath()
    path.addRect(square_rect(*rect))
    return path


def edge_path(x: int, y: int, side: str, thickness: float = SQUARE / 8) -> QPainterPath:
    """A thin bar over an edge, for previews of walls, lasers and pushers."""
    a, b = edge_line(x, y, side)
    d = INDEX[side]
    inward = QPointF(-DX[d], -DY[d]) * thickness
    path = QPainterPath()
    path.addPolygon(QPolygonF([a, b, b + inward, a + inward, a]))
    return path


def direction_name(dx: int, dy: int) -> str | None:
    for d in range(4):
        if (DX[d], DY[d]) == (dx, dy):
            return NAMES[d]
    return None
