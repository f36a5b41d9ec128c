"""Shared helpers of the editor tests: a main window whose dialogs never
block, and real mouse events on the board view."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from rallyforge.drawing.style import SQUARE


class Answers:
    """What the monkeypatched dialogs answer, and what they were asked."""

    def __init__(self):
        self.save_changes = "discard"
        self.restore = False
        self.revert = True
        self.open_path = None
        self.save_path = None
        self.square_mm = 25.0
        self.paper = "A4"
        self.save_dropped = True
        self.open_elsewhere = False
        self.overwrite_changed = "cancel"
        self.errors: list[tuple[str, str]] = []
        self.asked: list[str] = []
        self.app_data = None


def crash(window) -> None:
    """As if the window's editor had been killed: its backups and their locks
    stay on disk, and their owner is gone."""
    from rallyforge.editor import backup_lock
    window.files.timer.stop()
    backup_lock.LIVE_KEYS.discard(window.files.locks.me.key)


@pytest.fixture
def answers(monkeypatch, tmp_path):
    """Every dialog answered from here; the application data folder (backups
    of untitled work) this test's own, as answers.app_data."""
    from rallyforge.editor import dialogs, files
    a = Answers()
    a.app_data = tmp_path / "app-data"
    monkeypatch.setattr(files, "app_data_dir", lambda: a.app_data)

    def record(name, value):
        def ask(*args, **kwargs):
            a.asked.append(name)
            return value() if callable(value) else value
        return ask
    monkeypatch.setattr(dialogs, "ask_save_changes", record("save_changes", lambda: a.save_changes))
    monkeypatch.setattr(dialogs, "ask_restore_autosave", record("restore", lambda: a.restore))
    monkeypatch.setattr(dialogs, "ask_revert", record("revert", lambda: a.revert))
    monkeypatch.setattr(dialogs, "get_open_path", record("open_path", lambda: a.open_path))
    monkeypatch.setattr(dialogs, "get_save_path", record("save_path", lambda: a.save_path))
    monkeypatch.setattr(dialogs, "get_pdf_options",
                        record("pdf_options", lambda: (a.square_mm, a.paper)))
    monkeypatch.setattr(dialogs, "ask_save_dropped",
                        record("save_dropped", lambda: a.save_dropped))
    monkeypatch.setattr(dialogs, "ask_open_elsewhere",
                        record("open_elsewhere", lambda: a.open_elsewhere))
    monkeypatch.setattr(dialogs, "ask_overwrite_changed",
                        record("overwrite_changed", lambda: a.overwrite_changed))
    monkeypatch.setattr(dialogs, "show_error",
                        lambda parent, title, text, details="": a.errors.append((title, text)))
    return a


@pytest.fixture
def make_window(qtbot, answers):
    from rallyforge.editor.main_window import MainWindow

    def make(path=None, scenario=None):
        w = MainWindow(path=str(path) if path else None)
        if scenario is not None:
            w.doc.reset(scenario, None)
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        w.windowHandle().requestActivate()   # key shortcuts reach the active window only
        qtbot.waitUntil(w.isActiveWindow)
        w.view.fit()
        return w
    return make


@pytest.fixture
def window(make_window):
    return make_window()


@pytest.fixture
def window_on_copy(make_window, tmp_path):
    """A main window on a copy of a course file: the file itself would be
    open in the window of a test running at the same time in another process
    (its backup locked there), and declined here as open elsewhere."""
    def make(path):
        copy = tmp_path / Path(path).name
        shutil.copyfile(path, copy)
        window = make_window(copy)
        assert window.doc.path is not None, f"{copy.name} did not open"
        return window
    return make


def point(view, x: float, y: float) -> QPoint:
    """The viewport point of board position (x, y), in squares."""
    return view.mapFromScene(QPointF(x * SQUARE, y * SQUARE))


def centre(view, square) -> QPoint:
    return point(view, square[0] + 0.5, square[1] + 0.5)


def drag(view, points, button=Qt.LeftButton, modifiers=Qt.NoModifier) -> None:
    """Press at the first viewport point, move through the others, release at the last."""
    vp = view.viewport()
    QTest.mousePress(vp, button, modifiers, points[0])
    for p in points[1:]:
        QTest.mouseMove(vp, p)
    QTest.mouseRelease(vp, button, modifiers, points[-1])


def drag_squares(view, squares, button=Qt.LeftButton, modifiers=Qt.NoModifier) -> None:
    drag(view, [centre(view, s) for s in squares], button, modifiers)


def click(view, x: float, y: float, button=Qt.LeftButton, modifiers=Qt.NoModifier) -> None:
    drag(view, [point(view, x, y)], button, modifiers)
