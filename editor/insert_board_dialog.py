"""File > Insert Board: attach another course's board (turned in quarter
turns) to one side of this one, flush with a corner; the board grows to make
room (engine.transform.insert_board). One undo step."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
    QPushButton, QVBoxLayout,
)

from editor import commands, dialogs
from engine.editing import edit
from engine.editing.transform import insert_board
from engine.format.loader import read_file

CORNERS = (
    ("sw", "Below, flush with the west edge"), ("se", "Below, flush with the east edge"),
    ("nw", "Above, flush with the west edge"), ("ne", "Above, flush with the east edge"),
    ("wn", "Left, flush with the north edge"), ("ws", "Left, flush with the south edge"),
    ("en", "Right, flush with the north edge"), ("es", "Right, flush with the south edge"),
)


class InsertBoardDialog(QDialog):
    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.other = None
        self.setWindowTitle("Insert Board")
        self.path = QLineEdit()
        self.path.setPlaceholderText("a scenario file")
        self.path.editingFinished.connect(self.read)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path, 1)
        file_row.addWidget(browse)
        self.turns = QComboBox()
        for q in range(4):
            self.turns.addItem(f"{q * 90}° clockwise" if q else "as drawn", q)
        self.turns.currentIndexChanged.connect(self.update_info)
        self.corner = QComboBox()
        for code, label in CORNERS:
            self.corner.addItem(label, code)
        self.info = QLabel("Choose a file.")
        self.info.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Board from", file_row)
        form.addRow("Turned", self.turns)
        form.addRow("Place it", self.corner)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.info)
        layout.addWidget(self.buttons)
        self.update_info()

    def browse(self) -> None:
        path = dialogs.get_open_path(self, "Insert Board From")
        if path:
            self.path.setText(path)
            self.read()

    def read(self) -> None:
        path = self.path.text().strip()
        self.other, problems = read_file(path) if path else (None, [])
        if path and self.other is None:
            self.info.setText(f"{Path(path).name} cannot be read: "
                              + "; ".join(p.message for p in problems))
        self.update_info()

    def update_info(self) -> None:
        ok = self.other is not None
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(ok)
        if ok:
            b = self.other.board
            w, h = (b.height, b.width) if self.turns.currentData() % 2 else (b.width, b.height)
            self.info.setText(f"{self.other.name}: {w} × {h} squares once turned, with "
                              f"{len(self.other.flags)} flags and {len(self.other.docks)} docks.")

    def accept(self) -> None:
        if self.other is None:
            return
        new = insert_board(self.doc.scenario, self.other, self.corner.currentData(),
                           self.turns.currentData())
        commands.change(self.doc, edit.canonical(new), f"Insert board {self.other.name}")
        super().accept()
