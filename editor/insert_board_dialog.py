"""File > Insert Board: attach a board of the library (engine/editing/boards/),
or another course's board from a file, turned in quarter turns (Z / Shift+Z),
to one side of this one (by default to the right, flush with the north edge),
flush with a corner; the board grows to make room, and what neither board
covers is void, off the table (rallyforge.engine.editing.transform.insert_board). A preview shows the board as turned. One
undo step.

A library factory board brings its board only, a docking bay its docks too
(rallyforge.engine.editing.library.part); a course from a file brings its flags and docks."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QKeySequence, QPixmap, QShortcut
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
    QListView, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout,
)

from rallyforge.editor import commands, dialogs
from rallyforge.editor.board_library import piece, thumbnail
from rallyforge.drawing.pictures import render_image
from rallyforge.engine.editing import edit, library
from rallyforge.engine.editing.transform import insert_board
from rallyforge.engine.format.loader import read_file

CORNERS = (
    ("sw", "Below, flush with the west edge"), ("se", "Below, flush with the east edge"),
    ("nw", "Above, flush with the west edge"), ("ne", "Above, flush with the east edge"),
    ("wn", "Left, flush with the north edge"), ("ws", "Left, flush with the south edge"),
    ("en", "Right, flush with the north edge"), ("es", "Right, flush with the south edge"),
)
PREVIEW_PX = 200


def library_list(paths: list[Path], square_px: int = 6) -> QListWidget:
    """The library as thumbnails with names; each item's data is its path."""
    view = QListWidget()
    view.setViewMode(QListView.ViewMode.IconMode)
    view.setResizeMode(QListView.ResizeMode.Adjust)
    view.setMovement(QListView.Movement.Static)
    view.setIconSize(QSize(12 * square_px + 8, 12 * square_px + 8))
    view.setGridSize(QSize(12 * square_px + 36, 12 * square_px + 40))
    for path in paths:
        item = QListWidgetItem(QIcon(QPixmap.fromImage(thumbnail(path, square_px=square_px))),
                               library.load(path).name)
        item.setData(Qt.ItemDataRole.UserRole, str(path))
        view.addItem(item)
    return view


def turn_choices() -> QComboBox:
    turns = QComboBox()
    for q in range(4):
        turns.addItem(f"{q * 90}° clockwise" if q else "as drawn", q)
    return turns


def add_turn_keys(dialog: QDialog, turns: QComboBox) -> None:
    """Z turns the board clockwise, Shift+Z back."""
    for key, step in (("Z", 1), ("Shift+Z", 3)):
        shortcut = QShortcut(QKeySequence(key), dialog)
        shortcut.activated.connect(
            lambda s=step: turns.setCurrentIndex((turns.currentIndex() + s) % 4))


def preview_pixmap(scenario, side: int = PREVIEW_PX) -> QPixmap:
    b = scenario.board
    return QPixmap.fromImage(render_image(scenario, max(1, side // max(b.width, b.height))))


class InsertBoardDialog(QDialog):
    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.other = None
        self.setWindowTitle("Insert Board")
        self.library = library_list(library.board_files())
        self.library.currentItemChanged.connect(self.pick)
        self.path = QLineEdit()
        self.path.setPlaceholderText("or a scenario file")
        self.path.editingFinished.connect(self.read)
        browse = QPushButton("From file…")
        browse.clicked.connect(self.browse)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path, 1)
        file_row.addWidget(browse)
        self.turns = turn_choices()
        self.turns.currentIndexChanged.connect(self.update_info)
        add_turn_keys(self, self.turns)
        self.corner = QComboBox()
        for code, label in CORNERS:
            self.corner.addItem(label, code)
        # beside the board, level with its top: never under a docking bay at the south
        self.corner.setCurrentIndex(self.corner.findData("en"))
        self.preview = QLabel()
        self.preview.setMinimumSize(PREVIEW_PX + 16, PREVIEW_PX + 16)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.info = QLabel("Choose a board of the library, or a file.")
        self.info.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Board from", file_row)
        form.addRow("Turned (Z, Shift+Z)", self.turns)
        form.addRow("Place it", self.corner)
        right = QVBoxLayout()
        right.addWidget(self.preview)
        right.addWidget(self.info)
        right.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.library, 1)
        top.addLayout(right)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.resize(760, 480)
        self.update_info()

    def pick(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        path = Path(item.data(Qt.ItemDataRole.UserRole))
        self.other = piece(path)
        self.path.clear()
        self.update_info()

    def browse(self) -> None:
        path = dialogs.get_open_path(self, "Insert Board From")
        if path:
            self.path.setText(path)
            self.read()

    def read(self) -> None:
        path = self.path.text().strip()
        if not path:
            return
        # Qt takes no item (nullptr) for "none current"; the stubs lack None
        self.library.setCurrentItem(None)  # type: ignore[call-overload]
        self.other, problems = read_file(path)
        if self.other is None:
            self.info.setText(f"{Path(path).name} cannot be read: "
                              + "; ".join(p.message for p in problems))
        self.update_info()

    def update_info(self) -> None:
        other = self.other
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(other is not None)
        if other is None:
            self.preview.clear()
            return
        turned = library.turned(other, self.turns.currentData())
        self.preview.setPixmap(preview_pixmap(turned))
        b = turned.board
        self.info.setText(f"{other.name}: {b.width} × {b.height} squares once turned, with "
                          f"{len(other.flags)} flags and {len(other.docks)} docks.")

    def accept(self) -> None:
        if self.other is None:
            return
        new = insert_board(self.doc.scenario, self.other, self.corner.currentData(),
                           self.turns.currentData())
        commands.change(self.doc, edit.canonical(new), f"Insert board {self.other.name}")
        super().accept()
