"""Opening reads the file in a worker thread: the window stays live, a
progress dialog shows for a big file, Cancel keeps the course, and the
user's input waits until the read is over."""
import threading

import pytest
from PySide6.QtCore import Qt, QThread, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QProgressDialog, QPushButton

from rallyforge.editor import file_reader
from rallyforge.engine.format.loader import save_file
from rallyforge.engine.model.scenario import Board, Dock, Flag, Scenario, Tile
from tests.editor_support import answers, click, make_window, window  # noqa: F401  (fixtures)


def course():
    return Scenario("Course", Board(8, 6, tiles=(Tile(3, 3, "pit"),)), (Flag(6, 1),),
                    (Dock(0, 5, "N"),))


def saved(tmp_path):
    path = tmp_path / "c1.json"
    save_file(course(), path)
    return path


@pytest.fixture
def slow_read(monkeypatch):
    """read_file held until the test lets it go; the thread it ran in."""
    real = file_reader.read_file
    go = threading.Event()
    threads = []

    def held(path):
        threads.append(QThread.currentThread() is QApplication.instance().thread())
        go.wait(10)
        return real(path)
    monkeypatch.setattr(file_reader, "read_file", held)
    monkeypatch.setattr(file_reader, "BIG_BYTES", 0)      # every file counts as big
    return go, threads


def visible_progress():
    return [d for d in QApplication.topLevelWidgets()
            if isinstance(d, QProgressDialog) and d.isVisible()]


def test_opening_reads_the_file_off_the_gui_thread_with_progress(window, answers, tmp_path,
                                                                 slow_read):
    go, threads = slow_read
    path = saved(tmp_path)
    seen = []

    def while_reading():
        seen.extend(d.labelText() for d in visible_progress())
        go.set()
    QTimer.singleShot(50, while_reading)        # runs only if the GUI thread is free
    assert window.files.open(str(path))
    assert threads == [False]
    assert len(seen) == 1 and seen[0].startswith("Reading c1.json (")
    assert window.doc.scenario == course() and not visible_progress()


def test_cancelling_a_read_keeps_the_course_and_input_waits(window, answers, tmp_path, slow_read):
    go, threads = slow_read
    path = saved(tmp_path)
    before = window.doc.scenario

    def while_reading():
        click(window.view, 1.5, 1.5)            # held back: nothing painted under the read
        cancel = visible_progress()[0].findChild(QPushButton)
        assert cancel.text() == "Cancel"
        QTest.mouseClick(cancel, Qt.LeftButton)
    QTimer.singleShot(50, while_reading)
    assert not window.files.open(str(path))
    go.set()
    assert window.doc.scenario == before and window.doc.path is None
    assert not window.doc.modified


def test_a_cancelled_read_s_late_result_is_dropped_on_the_gui_thread(window, answers, tmp_path,
                                                                    slow_read, qtbot):
    """The relay carrying the result belongs to the window, not the worker
    thread, and goes once the late result has come: deleted on the GUI
    thread, never under a result still queued for it."""
    go, _ = slow_read
    path = saved(tmp_path)
    QTimer.singleShot(50, lambda: QTest.mouseClick(
        visible_progress()[0].findChild(QPushButton), Qt.LeftButton))
    assert not window.files.open(str(path))
    assert len(window.findChildren(file_reader._Relay)) == 1     # waiting for the late result
    go.set()
    qtbot.waitUntil(lambda: not window.findChildren(file_reader._Relay), timeout=10000)
    assert window.doc.path is None
