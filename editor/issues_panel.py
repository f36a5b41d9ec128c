"""Live validation and the Issues panel.

After each change a timer waits for a pause (DEBOUNCE_MS), then the validator
runs in a worker thread on the saved-file form of the course
(rallyforge.engine.loader.to_dict), so typing and painting never wait for it; a result
that arrives after a newer change has started another run is dropped. The
panel lists errors and warnings with their codes; clicking one selects its
square and centres it. Problems found when the file was opened stay listed
(marked "file") until it is saved. A warning can be accepted (the file's
"accept" list, one undo step): it is then greyed and listed last. Each
problem is one line, cut short to the panel's width (ten fit in its default
height); its tooltip and the line under the list show it whole.
"""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout, QHeaderView, QLabel, QMenu, QPushButton, QTreeWidget, QTreeWidgetItem,
    QVBoxLayout, QWidget,
)

from rallyforge.editor import commands
from rallyforge.engine.format.loader import to_dict
from rallyforge.engine.model.option_cards import card_name
from rallyforge.engine.model.problems import ERROR, Problem, WARNING, pointer_parts
from rallyforge.engine.model.scenario import Accept, Scenario
from rallyforge.engine.validation.validator import validate_data

DEBOUNCE_MS = 300
ACCEPTED_COLOR = QColor(150, 150, 150)
PROBLEM = Qt.ItemDataRole.UserRole


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
        self.relay.done.connect(self.on_done, Qt.ConnectionType.QueuedConnection)
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


# A list in the file and what one of its elements is called.
_ELEMENTS = {"robots": "robot", "options": "option card", "program": "round", "cards": "register",
             "checks": "check", "flags": "flag", "docks": "dock", "tiles": "tile", "walls": "wall",
             "lasers": "laser", "pushers": "pusher", "levels": "level entry",
             "accept": "accepted warning"}


def location(p: Problem, scenario: Scenario | None = None) -> str:
    """Where a problem is, in words: its square, else what its pointer names
    ("robot Bo, option card 1 (Ablative Coat)" for /robots/1/options/0);
    robots and cards by name when `scenario` is the course the pointer is into."""
    if p.x is not None and p.y is not None:
        return f"{p.x}, {p.y}"
    parts = pointer_parts(p.pointer)
    words: list[str] = []
    robot = None
    for i, part in enumerate(parts):
        if not part.isdigit():
            if part not in _ELEMENTS:
                words.append(part.replace("_", " "))
            continue
        n = int(part)
        kind = parts[i - 1] if i and not parts[i - 1].isdigit() else "cards"
        noun = _ELEMENTS.get(kind, kind)
        if kind == "robots" and scenario is not None and n < len(scenario.robots):
            robot = scenario.robots[n]
            words.append(f"robot {robot.name}")
        elif kind == "options" and robot is not None and isinstance(robot.options, tuple) \
                and n < len(robot.options):
            words.append(f"{noun} {n + 1} ({card_name(robot.options[n])})")
        else:
            words.append(f"{noun} {n + 1}")
    return ", ".join(words) or "course"


class IssuesPanel(QWidget):
    problemActivated = Signal(object)   # Problem

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.validator = Validator(doc, self)
        self.summary = QLabel("Checking…")
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["", "Code", "Where", "Problem"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setWordWrap(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self.context_menu)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.tree.itemClicked.connect(self.activate)
        self.tree.itemActivated.connect(self.activate)
        self.tree.currentItemChanged.connect(lambda item, _: self.show_detail(item))
        self.detail = QLabel()          # the chosen problem, whole
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.accept_button = QPushButton("Accept Warning")
        self.accept_button.setToolTip("Keep this warning in the file's accepted list: greyed, "
                                      "listed last, left out by `rallyforge validate`")
        self.accept_button.clicked.connect(self.toggle_accepted)
        self.accept_button.setEnabled(False)
        row = QHBoxLayout()
        row.addWidget(self.detail, 1)
        row.addWidget(self.accept_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree)
        layout.addLayout(row)
        self.validator.finished.connect(self.show_problems)
        # Saving drops the problems of the file as it was read.
        doc.modifiedChanged.connect(lambda modified: self.show_problems(self.validator.problems))
        self.validator.schedule()

    def activate(self, item: QTreeWidgetItem) -> None:
        self.problemActivated.emit(item.data(0, PROBLEM))

    def current_problem(self) -> Problem | None:
        item = self.tree.currentItem()
        return item.data(0, PROBLEM) if item is not None else None

    def show_detail(self, item) -> None:
        p = item.data(0, PROBLEM) if item is not None else None
        if p is None:
            self.detail.setText("")
            self.accept_button.setEnabled(False)
            return
        where = f" at ({p.x}, {p.y})" if p.x is not None and p.y is not None else ""
        accepted = " (accepted)" if p.accepted else ""
        self.detail.setText(f"<b>{p.severity} {p.code}{where}{accepted}</b>: {p.message}")
        self.accept_button.setEnabled(p.severity == WARNING)
        self.accept_button.setText("Stop Accepting" if p.accepted else "Accept Warning")

    def toggle_accepted(self) -> None:
        """Accept the chosen warning, or stop accepting it (one undo step)."""
        p = self.current_problem()
        if p is None or p.severity != WARNING:
            return
        s = self.doc.scenario
        if p.accepted:
            accept = tuple(a for a in s.accept if not a.covers(p.code, p.x, p.y))
            text = f"Stop accepting {p.code}"
        else:
            accept = (*s.accept, Accept(p.code, p.x, p.y))
            text = f"Accept {p.code}"
        commands.change(self.doc, replace(s, accept=accept), text)

    def context_menu(self, pos) -> None:
        item = self.tree.itemAt(pos)
        if item is None or item.data(0, PROBLEM).severity != WARNING:
            return
        self.tree.setCurrentItem(item)
        menu = QMenu(self)
        menu.addAction(self.accept_button.text(), self.toggle_accepted)
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    @property
    def problems(self) -> list:
        """Everything listed: the live results and the problems of the opened file."""
        return self.validator.problems + self.doc.load_problems

    def show_problems(self, problems) -> None:
        self.tree.clear()
        listed = [(p, "") for p in problems] + [(p, "file") for p in self.doc.load_problems
                                               if p not in problems]
        # Errors first, then by square; accepted warnings last.
        listed.sort(key=lambda t: (t[0].accepted, not t[0].is_error,
                                   t[0].y if t[0].y is not None else -1,
                                   t[0].x if t[0].x is not None else -1))
        for p, origin in listed:
            # the file's problems point into the file as read, whose lists may differ
            item = QTreeWidgetItem(["●", p.code, location(p, None if origin else self.doc.scenario),
                                    p.message + (" (as read from the file)" if origin else "")
                                    + (" (accepted)" if p.accepted else "")])
            color = QColor(220, 50, 50) if p.is_error else QColor(230, 140, 0)
            item.setForeground(0, ACCEPTED_COLOR if p.accepted else color)
            if p.accepted:
                for column in range(1, 4):
                    item.setForeground(column, ACCEPTED_COLOR)
            tip = f"{p.severity} {p.code} ({item.text(2)}): {p.message}\n{p.pointer}"
            for column in range(4):
                item.setToolTip(column, tip)
            item.setData(0, PROBLEM, p)
            self.tree.addTopLevelItem(item)
        accepted = sum(p.accepted for p, _ in listed)
        errors = sum(p.is_error for p, _ in listed)
        warnings = len(listed) - errors - accepted
        self.summary.setText("No problems found." if not listed else
                             f"{errors} error{'s' * (errors != 1)}, "
                             f"{warnings} warning{'s' * (warnings != 1)}"
                             + (f", {accepted} accepted" if accepted else ""))
        self.show_detail(self.tree.currentItem())
