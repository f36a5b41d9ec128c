"""The "Race Log" dock of the engine preview: the event list, in step with
the playback (click an event to jump there), and the course tests: Run
course tests plays the scenario's robots, lists each check passed or
failed, and a click on one (or the first failure, at once) jumps to its
moment and shows the expected and actual values.

A plain widget; editor/preview/playback.py and controller.py connect it.
"""
from __future__ import annotations

from PySide6.QtCore import (
    QAbstractListModel, QItemSelection, QItemSelectionModel, QModelIndex, QSize, Qt, Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QListView, QListWidget,
    QListWidgetItem, QPushButton, QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout,
    QWidget,
)

from rallyforge.engine.analysis.narration import log_line

from .animation import robot_colors
from .swatch import FAIL, PASS, swatch


class EventModel(QAbstractListModel):
    """The race's events, one line each, made when shown."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.events = []
        self.colors: dict[str, QColor] = {}
        self._icons: dict[str, QIcon] = {}
        self._blank = QIcon()

    def set_timeline(self, timeline) -> None:
        self.beginResetModel()
        self.events = timeline.events if timeline is not None else []
        self.colors = ({n: QColor(c) for n, c in robot_colors(timeline).items()}
                       if timeline is not None else {})
        self._icons = {n: swatch(c, 10) for n, c in self.colors.items()}
        blank = QPixmap(10, 10)
        blank.fill(Qt.GlobalColor.transparent)
        self._blank = QIcon(blank)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.events)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        e = self.events[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return log_line(e)
        if role == Qt.ItemDataRole.DecorationRole:
            return self._icons.get(e.robot, self._blank)
        if role == Qt.ItemDataRole.ForegroundRole and e.kind in ("dealt", "place", "archive"):
            return QBrush(QColor(120, 120, 120))
        if role == Qt.ItemDataRole.ForegroundRole and e.kind in ("destroyed", "out"):
            return QBrush(FAIL)
        if role == Qt.ItemDataRole.FontRole and e.kind in ("card", "finish", "end", "flag"):
            f = QFont()
            f.setBold(True)
            return f
        return None


class RaceLogPanel(QWidget):
    eventActivated = Signal(int)        # index in the event log
    runChecksRequested = Signal()
    checkActivated = Signal(int)        # place in the check results

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs)

        events = QWidget()
        el = QVBoxLayout(events)
        el.setContentsMargins(4, 4, 4, 4)
        self.model = EventModel(self)
        self.events = QListView()
        self.events.setModel(self.model)
        self.events.setUniformItemSizes(True)
        self.events.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.events.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.events.setIconSize(QSize(10, 10))
        self.events.clicked.connect(lambda index: self.eventActivated.emit(index.row()))
        self.events.activated.connect(lambda index: self.eventActivated.emit(index.row()))
        el.addWidget(self.events)
        self.tabs.addTab(events, "Events")

        tests = QWidget()
        tl = QVBoxLayout(tests)
        tl.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.run_checks = QPushButton("Run course tests")
        self.run_checks.setToolTip("Race the scenario's robots (seed 0, as `rallyforge test`) "
                                   "and compare its checks (Ctrl+T)")
        self.checks_summary = QLabel("")
        self.checks_summary.setWordWrap(True)
        row.addWidget(self.run_checks)
        row.addWidget(self.checks_summary, 1)
        tl.addLayout(row)
        self.checks = QListWidget()
        self.checks.setWordWrap(True)
        self.checks.setIconSize(QSize(14, 14))
        self.checks.currentRowChanged.connect(self._check_chosen)
        self.checks.itemClicked.connect(lambda item: self.checkActivated.emit(
            self.checks.row(item)))
        tl.addWidget(self.checks, 2)
        self.detail = QTableWidget(0, 3)
        self.detail.setHorizontalHeaderLabels(["", "Expected", "Actual"])
        self.detail.verticalHeader().hide()
        self.detail.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.detail.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.detail.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.detail.verticalHeader().setDefaultSectionSize(20)
        tl.addWidget(self.detail, 1)
        self.tabs.addTab(tests, "Course tests")
        self.run_checks.clicked.connect(self.runChecksRequested.emit)
        self.results = []

    # ------------------------------------------------------------ events

    def set_timeline(self, timeline) -> None:
        self.model.set_timeline(timeline)

    def show_frame(self, timeline, i: int) -> None:
        """Select the events of frame i and bring them into view."""
        if timeline is None or not self.model.events:
            return
        start, stop = timeline.frames[i].events
        sel = self.events.selectionModel()
        if stop <= start:
            sel.clearSelection()
            target = self.model.index(min(start, len(self.model.events) - 1))
            self.events.scrollTo(target, QAbstractItemView.ScrollHint.PositionAtCenter)
            return
        top, bottom = self.model.index(start), self.model.index(stop - 1)
        sel.select(QItemSelection(top, bottom), QItemSelectionModel.SelectionFlag.ClearAndSelect)
        sel.setCurrentIndex(top, QItemSelectionModel.SelectionFlag.NoUpdate)
        self.events.scrollTo(bottom, QAbstractItemView.ScrollHint.EnsureVisible)
        self.events.scrollTo(top, QAbstractItemView.ScrollHint.EnsureVisible)

    # ------------------------------------------------------------ checks

    def set_checks_busy(self, busy: bool) -> None:
        self.run_checks.setEnabled(not busy)
        if busy:
            self.checks_summary.setText("Racing…")

    def set_check_results(self, results, message: str = "") -> None:
        self.results = list(results or [])
        self.checks.blockSignals(True)
        self.checks.clear()
        for r in self.results:
            item = QListWidgetItem(swatch(PASS if r.passed else FAIL, 14),
                                   ("passed: " if r.passed else "FAILED: ") + r.describe())
            item.setForeground(QBrush(FAIL) if not r.passed else QBrush())
            self.checks.addItem(item)
        self.checks.blockSignals(False)
        self.detail.setRowCount(0)
        failed = sum(not r.passed for r in self.results)
        if message:
            self.checks_summary.setText(message)
        elif not self.results:
            self.checks_summary.setText("The scenario has no checks.")
        elif failed:
            self.checks_summary.setText(f"<b style='color:#c02828'>{failed} of "
                                        f"{len(self.results)} failed</b>")
        else:
            self.checks_summary.setText(f"<b style='color:#28a046'>All {len(self.results)} "
                                        f"passed</b>")

    def select_check(self, row: int) -> None:
        self.checks.setCurrentRow(row)

    def _check_chosen(self, row: int) -> None:
        self.detail.setRowCount(0)
        if not 0 <= row < len(self.results):
            return
        r = self.results[row]
        keys = list(r.expected)
        self.detail.setRowCount(len(keys))
        for k, key in enumerate(keys):
            exp, act = r.expected[key], r.actual.get(key, "—")
            cells = (key, _show(exp), _show(act))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c and exp != act:
                    item.setForeground(QBrush(FAIL))
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                self.detail.setItem(k, c, item)
        self.checkActivated.emit(row)


def _show(value) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, tuple):
        return f"({value[0]}, {value[1]})"
    return str(value)
