"""A progress bar for the command line, on stderr.

On a terminal it redraws one line (bar, races done, races per second, time
left); elsewhere (a pipe, a log file, CI) it writes a plain line at every
tenth of the run, so logs stay readable.
"""
from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ProgressBar:
    def __init__(self, label: str = "races", stream: TextIO | None = None, width: int = 28):
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.width = width
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        self.last_tenth = -1
        self.last_draw = 0.0
        self.drawn = False

    def __call__(self, done: int, total: int, elapsed: float) -> None:
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        text = (f"{self.label}: {done}/{total}  {rate:.1f} races/s  "
                f"{_clock(elapsed)} elapsed, {_clock(left)} left")
        if self.tty:
            now = time.monotonic()
            if done < total and now - self.last_draw < 0.1:
                return
            self.last_draw = now
            filled = int(self.width * done / total) if total else self.width
            bar = "#" * filled + "-" * (self.width - filled)
            self.stream.write(f"\r[{bar}] {text}\x1b[K")
            self.drawn = True
        else:
            tenth = 10 * done // total if total else 10
            if tenth == self.last_tenth:
                return
            self.last_tenth = tenth
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty and self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
