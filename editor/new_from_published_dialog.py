"""File > New from Published Course: the 34 courses of the game's 2005 course
manual (rallyforge.engine.editing.published_courses), listed with their players,
the length and difficulty the publisher printed and their special rules, and a
picture of the chosen one. The course opens as a new, unsaved document."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView, QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel, QTableWidget,
    QTableWidgetItem, QVBoxLayout,
)

from rallyforge.editor.insert_board_dialog import preview_pixmap
from rallyforge.engine.editing.published_courses import Entry, entries, read
from rallyforge.engine.model.scenario import Scenario

COLUMNS = ("Course", "Page", "Players", "Length", "Difficulty", "Special rules")
PREVIEW_PX = 280


class NewFromPublishedDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New from Published Course")
        self.entries = entries()
        self.table = QTableWidget(len(self.entries), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        for row, e in enumerate(self.entries):
            cells = (e.name, str(e.page), e.players, e.length, e.difficulty or "(team course)",
                     "; ".join(e.rules) or "—")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(_tooltip(e))
                self.table.setItem(row, col, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self.update_preview)
        self.table.cellDoubleClicked.connect(lambda *_: self.accept_if_ready())
        self.preview = QLabel()
        self.preview.setMinimumSize(PREVIEW_PX + 16, PREVIEW_PX + 16)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.info.setMaximumWidth(PREVIEW_PX + 16)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept_if_ready)
        self.buttons.rejected.connect(self.reject)
        right = QVBoxLayout()
        right.addWidget(self.preview)
        right.addWidget(self.info)
        right.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.table, 1)
        top.addLayout(right)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addWidget(self.buttons)
        self.course: Scenario | None = None
        self.resize(1180, 560)
        self.table.selectRow(0)
        self.table.setFocus()

    def chosen(self) -> Entry | None:
        rows = self.table.selectionModel().selectedRows()
        return self.entries[rows[0].row()] if rows else None

    def update_preview(self) -> None:
        entry = self.chosen()
        self.course = None
        self.preview.clear()
        if entry is None:
            self.info.setText("Choose a course.")
        else:
            scenario, problems = read(entry.path)
            printed = (f"printed {entry.length}, {entry.difficulty}" if entry.difficulty
                       else f"printed {entry.length}, a team course")
            head = f"<b>{entry.name}</b> (course manual page {entry.page}): {printed}."
            if scenario is None:
                why = next(p.message for p in problems if p.is_error)
                self.info.setText(f"{head}<br>This version cannot open it yet: {why}")
            else:
                self.course = scenario
                b = scenario.board
                team = " Played by teams (docs/rules.md 13)." if entry.team else ""
                self.info.setText(f"{head}<br>{b.width} × {b.height} squares, "
                                  f"{len(scenario.flags)} flags, {len(scenario.docks)} docks."
                                  f"{team}")
                self.preview.setPixmap(preview_pixmap(scenario, PREVIEW_PX))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            self.course is not None)

    def accept_if_ready(self) -> None:
        if self.course is not None:
            self.accept()

    def scenario(self) -> Scenario | None:
        return self.course


def _tooltip(e: Entry) -> str:
    rules = "; ".join(e.rules) or "none"
    return (f"{e.name}, course manual page {e.page}: {e.players} players, printed "
            f"{e.length}{', ' + e.difficulty if e.difficulty else ''}. Special rules: {rules}.")
