"""Races for the preview, played off the GUI thread.

`RaceWorker.start_race(...)` plays a whole race with its event log in a
thread of its own pool and turns it into a timeline (engine/analysis/
replay.py); `start_checks(...)` plays the scenario's own robots and
compares its checks on the way. Results come back through Qt signals,
queued to the GUI thread. Only the latest request counts: a result that
arrives after a newer request is dropped. The scenario is an immutable
value, so the thread reads it safely while the designer edits.
"""
from __future__ import annotations

import time

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal

from rallyforge.engine.analysis.replay import play_race


class _Relay(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)


class _Job(QRunnable):
    def __init__(self, number: int, work, relay: _Relay):
        super().__init__()
        self.number = number
        self.work = work
        self.relay = relay

    def run(self) -> None:
        try:
            result = self.work()
        except Exception as exc:     # an engine error must not take the editor down
            self.relay.failed.emit(self.number, f"{type(exc).__name__}: {exc}")
        else:
            self.relay.done.emit(self.number, result)


def race_inputs(scenario) -> tuple:
    """What a race depends on: not the name, author, notes or checks."""
    return (scenario.board, scenario.flags, scenario.docks, scenario.rules, scenario.robots)


class RaceRequest:
    """What was asked for, kept with its result."""

    def __init__(self, kind: str, scenario, seed: int, robot_count: int | None = None,
                 bots: tuple[str, ...] | None = None):
        self.kind = kind                # "race" or "checks"
        self.scenario = scenario
        self.seed = seed
        self.robot_count = robot_count  # None: the scenario's own robots
        self.bots = bots
        self.elapsed_s = 0.0


class RaceResult:
    def __init__(self, request: RaceRequest, timeline, checks=None):
        self.request = request
        self.timeline = timeline
        self.checks = checks            # CheckResult list for a "checks" request


class RaceWorker(QObject):
    finished = Signal(object)           # RaceResult
    failed = Signal(object, str)        # RaceRequest, message
    busyChanged = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        # the pool first: as a child it is destroyed (waiting for its thread)
        # before the relay the thread reports to
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self.relay = _Relay(self)
        self.relay.done.connect(self._done, Qt.ConnectionType.QueuedConnection)
        self.relay.failed.connect(self._failed, Qt.ConnectionType.QueuedConnection)
        self.number = 0
        self.request: RaceRequest | None = None
        self.busy = False

    def start_race(self, scenario, seed: int, robot_count: int | None,
                   bots: tuple[str, ...] | None = None) -> RaceRequest:
        request = RaceRequest("race", scenario, seed, robot_count, bots)

        def work():
            t0 = time.perf_counter()
            timeline = play_race(scenario, seed=seed, robot_count=robot_count, bots=bots)
            request.elapsed_s = time.perf_counter() - t0
            return RaceResult(request, timeline)
        self._start(request, work)
        return request

    def start_checks(self, scenario, seed: int = 0) -> RaceRequest:
        request = RaceRequest("checks", scenario, seed)

        def work():
            t0 = time.perf_counter()
            timeline, results = play_race(scenario, seed=seed, checks=scenario.checks)
            request.elapsed_s = time.perf_counter() - t0
            return RaceResult(request, timeline, results)
        self._start(request, work)
        return request

    def cancel(self) -> None:
        """Forget the request in progress (its result will be dropped)."""
        self.number += 1
        self.request = None
        self._set_busy(False)

    def wait(self, ms: int = -1) -> bool:
        return self.pool.waitForDone(ms)

    def _start(self, request: RaceRequest, work) -> None:
        self.number += 1
        self.request = request
        self._set_busy(True)
        self.pool.start(_Job(self.number, work, self.relay))

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busyChanged.emit(busy)

    def _done(self, number: int, result) -> None:
        if number != self.number:
            return
        self.request = None
        self._set_busy(False)
        self.finished.emit(result)

    def _failed(self, number: int, message: str) -> None:
        if number != self.number:
            return
        request, self.request = self.request, None
        self._set_busy(False)
        self.failed.emit(request, message)
