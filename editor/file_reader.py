"""Reading a course file off the GUI thread.

The engine reads and checks the file in a worker thread while the GUI thread
waits in an event loop of its own, so the window keeps drawing; the user's
input to the window (and every shortcut) is held back meanwhile, so nothing
is edited or closed under the read. A progress dialog (busy, with the file's
name and size) shows at once for a file of BIG_BYTES or more, and for any
file still being read after SHOW_AFTER_MS; its Cancel gives up waiting (the
thread's result is then dropped) and leaves the course as it was, as does
the application quitting meanwhile. (Timers may fire in that loop: a window
given a file reads it in its constructor, before the application's loop.)
"""
from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from rallyforge.engine.format.loader import read_file
from rallyforge.engine.model.problems import ERROR, Problem

BIG_BYTES = 1_000_000
SHOW_AFTER_MS = 400
_INPUT = {QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease,
          QEvent.Type.MouseButtonDblClick, QEvent.Type.Wheel, QEvent.Type.KeyPress,
          QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride, QEvent.Type.ContextMenu,
          QEvent.Type.Drop, QEvent.Type.Close}


class _Relay(QObject):
    done = Signal(object)       # what read_file gave


class _HoldInput(QObject):
    """Drops the user's input to one window, and every shortcut."""

    def __init__(self, window: QWidget):
        super().__init__()
        self.window = window

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Shortcut:
            return True
        return (event.type() in _INPUT and isinstance(obj, QWidget)
                and obj.window() is self.window)


def _size(path: str | Path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def read_in_background(parent: QWidget, path: str | Path):
    """read_file(path) run in a worker thread; None when the designer cancelled."""
    size = _size(path)
    result: list = []
    loop = QEventLoop()
    # The relay belongs to the window and is deleted on the GUI thread once
    # the result has come, even after a Cancel: were the worker thread to
    # drop the last reference to it, it would be deleted there while its
    # queued result waits on the GUI thread (a crash).
    relay = _Relay(parent)

    def arrived(read) -> None:
        result.append(read)
        loop.quit()
    relay.done.connect(arrived, Qt.ConnectionType.QueuedConnection)
    relay.done.connect(relay.deleteLater, Qt.ConnectionType.QueuedConnection)

    def work() -> None:
        try:
            read = read_file(path)
        except Exception as exc:  # a reader bug must not leave the editor waiting
            read = (None, [Problem(ERROR, "X000", f"the reader failed: {exc!r}")])
        try:
            relay.done.emit(read)
        except RuntimeError:    # the window is gone (the application quit meanwhile)
            pass

    progress = QProgressDialog(f"Reading {Path(path).name} ({size / 1e6:.1f} MB)…", "Cancel",
                               0, 0, parent)
    progress.setWindowTitle("Opening")
    progress.setWindowModality(Qt.WindowModality.WindowModal)
    progress.setAutoReset(False)
    progress.reset()           # not shown until the timer says so
    progress.canceled.connect(loop.quit)
    show = QTimer()
    show.setSingleShot(True)
    show.timeout.connect(progress.show)
    show.start(0 if size >= BIG_BYTES else SHOW_AFTER_MS)
    hold = _HoldInput(parent.window())
    app = QCoreApplication.instance()
    assert app is not None          # there is a parent window
    app.installEventFilter(hold)
    threading.Thread(target=work, name="read-course", daemon=True).start()
    try:
        loop.exec()
    finally:
        show.stop()
        app.removeEventFilter(hold)
        progress.canceled.disconnect()
        progress.close()
        progress.deleteLater()
    return result[0] if result else None
