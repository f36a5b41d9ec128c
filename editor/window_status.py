"""The editor window's status bar: what the square under the cursor holds
(its tile and keys, its level, a flag or dock on it), the zoom, and the
Issues panel's summary."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel

from rallyforge.engine.editing import edit
from rallyforge.engine.model.element_kinds import FLAG, REGISTERS, TILES

if TYPE_CHECKING:
    from rallyforge.editor.window_base import EditorWindow


class WindowStatus:
    def __init__(self, window: EditorWindow):
        self.doc, view, issues = window.doc, window.view, window.issues
        self.square_label = QLabel()
        self.zoom_label = QLabel()
        self.issue_label = QLabel()
        bar = window.statusBar()
        for label in (self.issue_label, self.square_label, self.zoom_label):
            label.setContentsMargins(10, 0, 10, 0)
            bar.addPermanentWidget(label)
        view.squareHovered.connect(self.show_square)
        # An edit (or undo) can change the square under a still cursor.
        self.doc.changed.connect(lambda area: self.show_square(view.hovered))
        view.zoomChanged.connect(lambda z: self.zoom_label.setText(f"Zoom {z * 100:.0f}%"))
        issues.validator.finished.connect(
            lambda problems: self.issue_label.setText(issues.summary.text()))

    def show_square(self, square: tuple[int, int] | None) -> None:
        if square is None:
            self.square_label.setText("")
            return
        x, y = square
        s = self.doc.scenario
        tile = s.board.tile_at(x, y)
        what = "floor"
        if tile is not None:
            what = tile.type
            for key in TILES[tile.type].keys:
                value = getattr(tile, key.name)
                if key.kind == FLAG:
                    what += f" {key.name}" if value else ""
                elif key.kind != REGISTERS:
                    what += f" {value}"
        level = s.board.level_at(x, y)
        if level:
            what += f", level {level}"
        for kind in ("flags", "docks"):
            index = edit.marker_at(s, kind, x, y)
            if index is not None:
                what += f", {kind[:-1]} {index + 1}"
        self.square_label.setText(f"Square {x}, {y}: {what}")
