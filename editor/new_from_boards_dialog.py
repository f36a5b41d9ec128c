"""File > New from Boards: up to four factory boards of the library, each
turned as chosen, laid side by side, stacked or two by two, with a docking
bay below them; a live picture of the course as it will open
(rallyforge.engine.editing.library.assemble). The course opens with the bay's docks, ready for
flags."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
    QVBoxLayout,
)

from rallyforge.editor.insert_board_dialog import add_turn_keys, preview_pixmap, turn_choices
from rallyforge.engine.editing import library
from rallyforge.engine.model.scenario import Rules, Scenario

SLOTS = 4
ARRANGEMENTS = (("side", "Side by side"), ("stack", "Stacked"), ("grid", "Two by two"))
PREVIEW_PX = 300


class NewFromBoardsDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New from Boards")
        files = library.board_files()
        self.loaded = {str(p): library.load(p) for p in files}
        self.name = QLineEdit()     # empty: the course is named after its boards
        self.name.textChanged.connect(self.update_preview)
        self.boards: list[QComboBox] = []
        self.turns: list[QComboBox] = []
        form = QFormLayout()
        form.addRow("Name", self.name)
        for i in range(SLOTS):
            board = QComboBox()
            board.addItem("—", None)
            for p in files:
                if not library.is_bay(p):
                    board.addItem(self.loaded[str(p)].name, str(p))
            turns = turn_choices()
            row = QHBoxLayout()
            row.addWidget(board, 1)
            row.addWidget(turns)
            form.addRow(f"Board {i + 1}", row)
            board.currentIndexChanged.connect(self.update_preview)
            turns.currentIndexChanged.connect(self.update_preview)
            self.boards.append(board)
            self.turns.append(turns)
        add_turn_keys(self, self.turns[0])      # Z / Shift+Z turn the first board
        self.arrangement = QComboBox()
        for code, label in ARRANGEMENTS:
            self.arrangement.addItem(label, code)
        self.arrangement.currentIndexChanged.connect(self.update_preview)
        self.bay = QComboBox()
        self.bay.addItem("none", None)
        for p in files:
            if library.is_bay(p):
                self.bay.addItem(self.loaded[str(p)].name, str(p))
        self.bay.setCurrentIndex(min(1, self.bay.count() - 1))
        self.bay.currentIndexChanged.connect(self.update_preview)
        form.addRow("Arrangement", self.arrangement)
        form.addRow("Docking bay", self.bay)
        self.preview = QLabel()
        self.preview.setMinimumSize(PREVIEW_PX + 16, PREVIEW_PX + 16)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        left = QVBoxLayout()
        left.addLayout(form)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.preview, 1)
        right.addWidget(self.info)
        top = QHBoxLayout()
        top.addLayout(left)
        top.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addWidget(self.buttons)
        self.course: Scenario | None = None
        self.resize(760, 440)
        self.boards[0].setCurrentIndex(1)       # a course to see at once: the first board
        self.update_preview()

    def update_preview(self) -> None:
        chosen = [(self.loaded[b.currentData()], t.currentData())
                  for b, t in zip(self.boards, self.turns) if b.currentData()]
        bay = (self.loaded[self.bay.currentData()], 0) if self.bay.currentData() else None
        self.name.setPlaceholderText(library.course_name([b.name for b, _ in chosen]))
        try:
            self.course = library.assemble(chosen, bay, self.arrangement.currentData(),
                                           self.name.text().strip()
                                           or self.name.placeholderText())
        except library.LibraryError as exc:
            self.course = None
            said = str(exc)
            self.info.setText(f"{said[:1].upper()}{said[1:]}.")
            self.preview.clear()
        else:
            b = self.course.board
            self.info.setText(f"{b.width} × {b.height} squares, {len(self.course.docks)} docks. "
                              "Place the flags once it is open.")
            self.preview.setPixmap(preview_pixmap(self.course, PREVIEW_PX))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(self.course is not None)

    def scenario(self) -> Scenario | None:
        """The assembled course (new courses play option cards, as File > New's)."""
        if self.course is None:
            return None
        return replace(self.course, rules=Rules(options="played"))
