"""A suggested edit previewed on the board: the squares it changes painted
as they would be after it, translucent, inside a dashed outline, over the
course as it is (a scene item, Z_PREVIEW)."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsItem

from rallyforge.editor.board_view import SQUARE, Z_PREVIEW, square_rect
from rallyforge.drawing.board import paint_board
from rallyforge.engine.model.scenario import Dock, Flag, Scenario

GHOST_OPACITY = 0.75
OUTLINE = QColor(0, 170, 200)


def changed_squares(before: Scenario, after: Scenario) -> list[tuple[int, int]]:
    """The squares whose tile, walls, lasers, pushers, flag or dock differ
    (both squares of a moved flag or dock, the square of a removed one),
    sorted."""
    a, b = before.board, after.board
    squares: set[tuple[int, int]] = set()
    for y in range(min(a.height, b.height)):
        for x in range(min(a.width, b.width)):
            i = y * a.width + x
            if a.tile_at(x, y) != b.tile_at(x, y) or a.wall_mask[i] != b.wall_mask[y * b.width + x]:
                squares.add((x, y))
    for item in set(a.lasers) ^ set(b.lasers) | set(a.pushers) ^ set(b.pushers):
        squares.add((item.x, item.y))
    squares |= _markers_changed(before.docks, after.docks) | _markers_changed(before.flags,
                                                                             after.flags)
    return sorted(squares)


def _markers_changed(old_list: Sequence[Dock | Flag],
                     new_list: Sequence[Dock | Flag]) -> set[tuple[int, int]]:
    """The squares of markers moved, removed or added."""
    squares: set[tuple[int, int]] = set()
    for old, new in zip(old_list, new_list):
        if old != new:
            squares.update({(old.x, old.y), (new.x, new.y)})
    for m in [*old_list[len(new_list):], *new_list[len(old_list):]]:   # removed or added
        squares.add((m.x, m.y))
    return squares


class SuggestionGhost(QGraphicsItem):
    def __init__(self):
        super().__init__()
        self.setZValue(Z_PREVIEW)
        self.after: Scenario | None = None
        self.squares: list[tuple[int, int]] = []
        self._bounds = QRectF()
        self.setVisible(False)

    def show_edit(self, before: Scenario, after: Scenario | None) -> None:
        """Preview `after` where it differs from `before`; None hides it."""
        self.prepareGeometryChange()
        self.after = after
        self.squares = changed_squares(before, after) if after is not None else []
        board = before.board
        self._bounds = QRectF(-SQUARE, -SQUARE, (board.width + 2) * SQUARE,
                              (board.height + 2) * SQUARE)
        self.setVisible(bool(self.squares))
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter, option, widget=None) -> None:
        if self.after is None:
            return
        painter.save()
        painter.setOpacity(GHOST_OPACITY)
        for x, y in self.squares:
            paint_board(painter, self.after, area=(x, y, x + 1, y + 1), level_marks=False)
        painter.setOpacity(1.0)
        pen = QPen(OUTLINE, 4, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for x, y in self.squares:
            painter.drawRect(square_rect(x, y).adjusted(2, 2, -2, -2))
        painter.restore()
