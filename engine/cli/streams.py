"""The program's standard output and standard error, guarded: one way out
for every command when a write fails.

- The reader went away (a closed pipe: ``validate ... | head``, a progress
  bar's reader gone): what is still to be written to that stream is
  dropped, and the command goes on to the exit code its work gives (files
  it was asked for are still written).
- The write itself failed (a full disk: ``> /dev/full``, an I/O error):
  the rest to that stream is dropped too, the command goes on, and then
  says so in one line on the other stream, if that one works, and exits 1.
- Text the stream's encoding cannot hold (a file name with bytes that are
  not UTF-8) is written with those characters escaped, never a traceback.

Either way the stream's file descriptor is pointed at the null device, so
that Python's own flush at exit does not fail again (it printed "Exception
ignored" and exited 120).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, TextIO


class GuardedStream:
    """A text stream that never raises on write or flush (see the module)."""

    def __init__(self, inner: TextIO, name: str):
        self.inner = inner
        self.name = name
        self.gone = False                   # the reader closed it
        self.failure: OSError | None = None     # a write failed otherwise

    @property
    def broken(self) -> bool:
        return self.gone or self.failure is not None

    def write(self, text: str) -> int:
        if not self.broken:
            self._guarded(lambda: self._write(text))
        return len(text)

    def _write(self, text: str) -> None:
        try:
            self.inner.write(text)
        except UnicodeEncodeError:
            encoding = getattr(self.inner, "encoding", None) or "utf-8"
            self.inner.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))

    def flush(self) -> None:
        if not self.broken:
            self._guarded(self.inner.flush)

    def _guarded(self, act: Callable[[], object]) -> None:
        try:
            act()
        except BrokenPipeError:
            self.gone = True
            self._to_null()
        except OSError as exc:
            self.failure = exc
            self._to_null()

    def _to_null(self) -> None:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self.inner.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):     # not a real file
            pass

    def __getattr__(self, name: str) -> Any:    # isatty, fileno, encoding, ...
        return getattr(self.inner, name)


def guard() -> tuple[GuardedStream, GuardedStream]:
    """Put guarded streams in place of sys.stdout and sys.stderr."""
    out = GuardedStream(sys.stdout, "standard output")
    err = GuardedStream(sys.stderr, "standard error")
    sys.stdout, sys.stderr = out, err
    return out, err


def failed_write(out: GuardedStream, err: GuardedStream) -> bool:
    """After the command: flush, and when a write failed (not a reader
    gone), say so on the other stream; True when one did."""
    out.flush()
    err.flush()
    for failed, other in ((out, err), (err, out)):
        if failed.failure is not None:
            reason = failed.failure.strerror or failed.failure
            other.write(f"rallyforge: error: cannot write to {failed.name}: {reason}\n")
            other.flush()
            return True
    return False
