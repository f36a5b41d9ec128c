"""Engine work off the GUI thread: a balance run, a search for fixes, the
Course Card's quick run. ``work(progress, should_stop)`` runs in the thread;
Cancel sets the flag ``should_stop`` reads. A course with errors is refused
(``refused`` with its problems); any other failure is a message, never a
crash of the editor.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QThread, Signal

from rallyforge.engine.model.problems import ScenarioError
from rallyforge.engine.model.scenario import Scenario

Progress = Callable[[int, int, float], None]
Work = Callable[[Progress, Callable[[], bool]], Any]


class RunWorker(QThread):
    progressed = Signal(int, int, float)    # done, planned, seconds
    done = Signal(object)                   # the result
    failed = Signal(str)
    refused = Signal(object)                # the course's errors: nothing raced

    def __init__(self, scenario: Scenario, work: Work, parent=None):
        """`scenario` is the course `work` runs on (kept to tell an old run's result)."""
        super().__init__(parent)
        self.scenario = scenario
        self._work = work
        self._stop = threading.Event()
        self.result: Any = None

    def cancel(self) -> None:
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    def run(self) -> None:
        try:
            self.result = self._work(
                lambda done, total, elapsed: self.progressed.emit(done, total, elapsed),
                self._stop.is_set)
        except ScenarioError as exc:
            self.refused.emit(exc.problems)
            return
        except Exception as exc:   # never take the editor down
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.done.emit(self.result)


# Running workers, so that a thread outlives a dialog closed under it (it is
# told to stop, and drops its result).
_LIVE: set[RunWorker] = set()


def keep_alive(worker: RunWorker) -> None:
    _LIVE.add(worker)
    worker.finished.connect(lambda: _LIVE.discard(worker))


def stop_all(wait_ms: int = 10000) -> None:
    """Cancel every run and wait for its thread (the app is quitting)."""
    for worker in list(_LIVE):
        worker.cancel()
    for worker in list(_LIVE):
        worker.wait(wait_ms)
