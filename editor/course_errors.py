"""What the Balance check, Suggest Fixes and the Course Card show instead of
figures when the course has errors (the engine races no such course): the
errors, and a button that brings the Issues panel to the front."""
from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from rallyforge.engine.model.problems import Problem

SHOWN = 4           # errors listed; the Issues panel has them all


def errors_text(problems: list[Problem]) -> str:
    """The errors as rich text: how many, then the first few."""
    errors = [p for p in problems if p.is_error]
    count = f"{len(errors)} error" + ("" if len(errors) == 1 else "s")
    lines = [f"<b>The course has {count}: nothing was raced.</b> Fix "
             f"{'it' if len(errors) == 1 else 'them'} for figures."]
    for p in errors[:SHOWN]:
        lines.append(f"{p.code}: {html.escape(p.message)}")
    if len(errors) > SHOWN:
        lines.append(f"… and {len(errors) - SHOWN} more")
    return "<br>".join(lines)


class ErrorsBox(QFrame):
    showIssues = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setStyleSheet("ErrorsBox { background: #fbe3e3; border: 1px solid #a61b1b; }"
                           "QLabel { color: #a61b1b; }")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.button = QPushButton("Show Issues")
        self.button.setToolTip("Bring the Issues panel to the front: every error, with its place")
        self.button.clicked.connect(self.showIssues.emit)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addLayout(row)
        self.hide()

    def show_errors(self, problems: list[Problem]) -> None:
        self.label.setText(errors_text(problems))
        self.show()
