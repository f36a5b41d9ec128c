"""The playback clock: which frame of a timeline is shown, and how far its
animation has got.

The position is (frame, u): frame i with u in [0, 1] of its animation; at
rest, u is 1 (the state after the frame). Playing advances u at the
frame's duration divided by the speed, 60 times a second, and goes on to
the next frame; stepping animates one frame and stops; seeking jumps to a
frame at rest.
"""
from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QObject, Qt, QTimer, Signal

FPS = 60
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)


class Player(QObject):
    positionChanged = Signal(int, float)    # frame, u: redraw the board
    frameChanged = Signal(int)              # a new frame is current: update the panels
    playingChanged = Signal(bool)
    finished = Signal()                     # played to the last frame

    def __init__(self, parent=None):
        super().__init__(parent)
        self.timeline = None
        self.index = 0
        self.u = 1.0
        self.speed = 1.0
        self.playing = False
        self._stop_at: int | None = None    # stepping: stop when this frame has played
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(round(1000 / FPS))
        self._timer.timeout.connect(self._tick)
        self._clock = QElapsedTimer()

    # ------------------------------------------------------------ state

    def set_timeline(self, timeline, index: int = 0) -> None:
        self._halt()
        self.timeline = timeline
        self.index = 0
        self.seek(index)

    def clear(self) -> None:
        self._halt()
        self.timeline = None
        self.index, self.u = 0, 1.0

    @property
    def last(self) -> int:
        return len(self.timeline) - 1 if self.timeline is not None else 0

    def set_speed(self, speed: float) -> None:
        self.speed = max(0.01, float(speed))

    # ------------------------------------------------------------ transport

    def play(self) -> None:
        if self.timeline is None or self.playing:
            return
        if self.index >= self.last and self.u >= 1.0:
            self.seek(0)                        # at the end: from the start again
        self.playing = True
        self._stop_at = None
        self._start()
        self.playingChanged.emit(True)

    def pause(self) -> None:
        if self.playing:
            self.playing = False
            self._timer.stop()
            self._stop_at = None
            if self.u < 1.0:                    # finish the frame at rest
                self.u = 1.0
                self.positionChanged.emit(self.index, 1.0)
            self.playingChanged.emit(False)

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    def step(self) -> None:
        """Animate the next frame, then stop."""
        if self.timeline is None:
            return
        self.pause()
        self._finish_frame()
        if self.index >= self.last:
            return
        self._enter(self.index + 1)
        self._stop_at = self.index
        self._start()

    def step_back(self) -> None:
        """The frame before, at rest (or this one at rest, from the middle of its animation)."""
        self.seek(self.index - 1 if self.u >= 1.0 else self.index)

    def step_register(self) -> None:
        if self.timeline is not None:
            self.seek(self.timeline.next_register_end(self.index))

    def step_round(self) -> None:
        if self.timeline is not None:
            self.seek(self.timeline.next_round_end(self.index))

    def to_start(self) -> None:
        self.seek(0)

    def to_end(self) -> None:
        self.seek(self.last)

    def seek(self, index: int) -> None:
        """Show frame `index` at rest."""
        if self.timeline is None:
            return
        self._halt()
        index = min(max(0, index), self.last)
        changed = index != self.index
        self.index, self.u = index, 1.0
        if changed:
            self.frameChanged.emit(index)
        self.positionChanged.emit(index, 1.0)
        if not changed:
            self.frameChanged.emit(index)

    # ------------------------------------------------------------ the clock

    def _halt(self) -> None:
        self._timer.stop()
        self._stop_at = None
        if self.playing:
            self.playing = False
            self.playingChanged.emit(False)

    def _start(self) -> None:
        self._clock.start()
        self._timer.start()

    def _finish_frame(self) -> None:
        if self.u < 1.0:
            self.u = 1.0
            self.positionChanged.emit(self.index, 1.0)

    def _enter(self, index: int) -> None:
        self.index, self.u = index, 0.0
        self.frameChanged.emit(index)

    def _tick(self) -> None:
        elapsed = self._clock.restart() * self.speed      # ms of race time
        assert self.timeline is not None        # the timer runs only while one plays
        frames = self.timeline.frames
        while True:
            if self.u >= 1.0:
                if self._stop_at is not None or self.index >= self.last:
                    break
                self._enter(self.index + 1)
            duration = frames[self.index].duration_ms
            if duration <= 0:
                self.u = 1.0
                continue
            need = (1.0 - self.u) * duration
            if elapsed < need:
                self.u += elapsed / duration
                break
            elapsed -= need
            self.u = 1.0
            if self._stop_at is not None:
                break
        self.positionChanged.emit(self.index, self.u)
        if self.u >= 1.0 and (self._stop_at is not None or self.index >= self.last):
            self._timer.stop()
            self._stop_at = None
            if self.playing:
                self.playing = False
                self.playingChanged.emit(False)
                self.finished.emit()
