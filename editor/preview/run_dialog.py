"""The cycle the Balance and Suggest Fixes dialogs share: Start makes a
worker (run_worker.py) on the course as it is now, a bar and a status line
follow its progress, Cancel asks it to stop, and the dialog's settings come
back when its thread ends. A course with errors shows them, with a button to
the Issues panel, instead of figures.

A dialog says what to run (``make_worker``), how many races it plans
(``planned``), and what to do with the result (``show_done``, which
emits ``resultReady`` when the result is taken).
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QBoxLayout, QDialog, QHBoxLayout, QLabel, QProgressBar,
                               QPushButton, QSpinBox, QWidget)

from rallyforge.editor.course_errors import ErrorsBox
from rallyforge.engine.model.problems import Problem
from rallyforge.engine.model.scenario import Scenario

from .run_worker import RunWorker, keep_alive


def clock(seconds: float) -> str:
    """Seconds as m:ss."""
    m, s = divmod(max(0, int(round(seconds))), 60)
    return f"{m}:{s:02d}"


class RunDialog(QDialog):
    resultReady = Signal(object)            # the result
    issuesRequested = Signal()              # Show Issues, for a course with errors

    # what the status line says while the worker starts, and when it fails
    starting_text = "Starting…"
    failed_text = "The run failed"

    def __init__(self, title: str, scenario_source: Callable[[], Scenario], parent=None):
        """`scenario_source()` gives the course to run on (the document's, now)."""
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(False)
        self.scenario_source = scenario_source
        self.scenario: Scenario | None = None       # the course of the run in progress or shown
        self.worker: RunWorker | None = None
        self.robots = QSpinBox()                    # robots per race
        self.robots.setRange(1, 8)
        self.settings: list[QWidget] = []           # greyed while a run is in progress

    # ------------------------------------------------------------ what a dialog says

    def make_worker(self, scenario: Scenario, robots: int) -> RunWorker:
        raise NotImplementedError

    def planned(self) -> int:
        """The races the bar starts with (the worker's progress corrects it)."""
        raise NotImplementedError

    def show_done(self, result) -> None:
        raise NotImplementedError

    def progress_text(self, done: int, total: int, elapsed: float) -> str:
        return f"{done} of about {total} races · {clock(elapsed)} elapsed"

    # ------------------------------------------------------------ the controls

    def add_run_controls(self, layout: QBoxLayout, start_text: str) -> None:
        """Start and Cancel, the progress bar, the status line and the box of
        the course's errors, added to `layout`."""
        row = QHBoxLayout()
        self.start_button = QPushButton(start_text)
        self.start_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        row.addWidget(self.start_button)
        row.addWidget(self.cancel_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        layout.addWidget(self.progress)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.errors = ErrorsBox()
        self.errors.showIssues.connect(self.issuesRequested.emit)
        layout.addWidget(self.errors)
        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)

    # ------------------------------------------------------------ running

    def bring_up(self) -> None:
        """Show the dialog in front, fitted to the course as it is now."""
        self.refresh_course()
        self.show()
        self.raise_()

    @property
    def running(self) -> bool:
        return self.worker is not None

    def refresh_course(self) -> None:
        """Fit the robots to the course's docks; Start only with a dock."""
        docks = len(self.scenario_source().docks)
        self.robots.setRange(1, max(1, docks))
        if self.worker is None:
            self.start_button.setEnabled(docks >= 1)
            if docks < 1:
                self.status.setText("Place at least one dock to race.")

    def start(self) -> None:
        if self.worker is not None:
            return
        scenario = self.scenario_source()
        if not scenario.docks:
            self.status.setText("Place at least one dock to race.")
            return
        self.scenario = scenario
        # no parent: a run outlives a closed dialog (told to stop, its result dropped)
        worker = self.worker = self.make_worker(
            scenario, min(self.robots.value(), len(scenario.docks)))
        keep_alive(worker)
        worker.progressed.connect(self._progressed)
        worker.done.connect(self.show_done)
        worker.failed.connect(lambda message: self.status.setText(
            f"{self.failed_text}: {message}"))
        worker.refused.connect(self.show_refused)
        worker.finished.connect(self._worker_finished)
        self.errors.hide()
        self.progress.setRange(0, self.planned())
        self.progress.setValue(0)
        self.status.setText(self.starting_text)
        self._set_running(True)
        worker.start()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.status.setText("Stopping…")
            self.cancel_button.setEnabled(False)

    def _set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for widget in self.settings:
            widget.setEnabled(not running)

    def _progressed(self, done: int, total: int, elapsed: float) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        self.status.setText(self.progress_text(done, total, elapsed))

    def show_refused(self, problems: list[Problem]) -> None:
        """The course has errors: they, not figures."""
        self.status.setText("Nothing raced.")
        self.errors.show_errors(problems)

    def _worker_finished(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.deleteLater()
        self._set_running(False)
        self.refresh_course()

    def wait(self, ms: int = 60000) -> bool:
        """Wait for the run in progress (tests, and closing)."""
        return self.worker is None or self.worker.wait(ms)

    def closeEvent(self, event) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait(5000)
        super().closeEvent(event)
