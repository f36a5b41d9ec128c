"""Live validation and the Issues panel.

After each change a timer waits for a pause (DEBOUNCE_MS), then the validator
runs in a worker thread on the saved-file form of the course
(engine.loader.to_dict), so typing and painting never wait for it; a result
that arrives after a newer change has started another run is dropped. The
panel lists errors and warnings with their codes; clicking one selects its
square and centres it. Problems found when the file was opened stay listed
(marked "file") until it is saved.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from engine.loader import to_dict
from engine.problems import ERROR, Problem
from engine.validate import validate_data

DEBOUNCE_MS = 300
PROBLEM = Qt.UserRole


class _Relay(QObject):
    done = Signal(int, list)    # run number, problems


class _Validation(QRunnable):
    def __init__(self, run: int, scenario, relay: _Relay, latest):
        super().__init__()
        self.run_number = run
        self.scenario = scenario
        self.relay = relay
        self.latest = latest        # the newest run's number, when this one starts

    def run(self) -> None:
        if self.latest() != self.run_number:
            return                  # a newer change has started another run
        try:
            problems = validate_data(to_dict(self.scenario))
        except Exception as exc:  # a validator bug must not take the editor down
            problems = [Problem(ERROR, "X000", f"the validator failed: {exc!r}")]
        self.relay.done.emit(self.run_number, problems)


class Validator(QObject):
    """Runs the validator on the document, debounced and off the GUI thread."""
    finished = Signal(list)

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.problems: list = []
        self.run_number = 0
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.start)
        # The pool first: children go in creation order, and the pool waits
        # for a running check before the relay it reports to is gone.
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.relay = _Relay(self)
        self.relay.done.connect(self.on_done, Qt.QueuedConnection)
        doc.changed.connect(lambda area: self.schedule())
        doc.scenarioReplaced.connect(self.schedule)

    def schedule(self) -> None:
        self.run_number += 1      # any result still on its way is stale now
        self.timer.start()

    def start(self) -> None:
        self.run_number += 1
        self.pool.start(_Validation(self.run_number, self.doc.scenario, self.relay,
                                    lambda: self.run_number))

    def on_done(self, run: int, problems: list) -> None:
        if run != self.run_number:
            return
        self.problems = problems
        self.finished.emit(problems)

    def wait(self) -> None:
        self.pool.waitForDone()


def location(p) -> str:
    if p.x is not None and p.y is not None:
        return f"{p.x}, {p.y}"
    return p.pointer or "course"


class IssuesPanel(QWidget):
    problemActivated = Signal(object)   # Problem

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.validator = Validator(doc, self)
        self.summary = QLabel("Checking…")
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["", "Code", "Square", "Problem"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setWordWrap(False)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeToContents)
        header.setStretchLastSection(True)
        self.tree.itemClicked.connect(self.activate)
        self.tree.itemActivated.connect(self.activate)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree)
        self.validator.finished.connect(self.show_problems)
        # Saving drops the problems of the file as it was read.
        doc.modifiedChanged.connect(lambda modified: self.show_problems(self.validator.problems))
        self.validator.schedule()

    def activate(self, item: QTreeWidgetItem) -> None:
        self.problemActivated.emit(item.data(0, PROBLEM))

    @property
    def problems(self) -> list:
        """Everything listed: the live results and the problems of the opened file."""
        return self.validator.problems + self.doc.load_problems

    def show_problems(self, problems) -> None:
        self.tree.clear()
        listed = [(p, "") for p in problems] + [(p, "file") for p in self.doc.load_problems
                                               if p not in problems]
        # Errors first, then by square.
        listed.sort(key=lambda t: (not t[0].is_error, t[0].y if t[0].y is not None else -1,
                                   t[0].x if t[0].x is not None else -1))
        for p, origin in listed:
            item = QTreeWidgetItem(["●", p.code, location(p),
                                    p.message + (" (as read from the file)" if origin else "")])
            color = QColor(220, 50, 50) if p.is_error else QColor(230, 140, 0)
            item.setForeground(0, color)
            item.setToolTip(3, f"{p.severity} {p.code}: {p.message}\n{p.pointer}")
            item.setData(0, PROBLEM, p)
            self.tree.addTopLevelItem(item)
        errors = sum(p.is_error for p, _ in listed)
        warnings = len(listed) - errors
        self.summary.setText("No problems found." if not listed else
                             f"{errors} error{'s' * (errors != 1)}, "
                             f"{warnings} warning{'s' * (warnings != 1)}")
