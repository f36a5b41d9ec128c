"""File > New from Published Course, driven with real input: the list shows
the manual's courses with players, printed ratings and special rules; the
chosen course opens as a new unsaved document and races with F5."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from rallyforge.editor.new_from_published_dialog import COLUMNS, NewFromPublishedDialog
from rallyforge.editor.preview import install_preview
from tests.editor_support import answers, make_window, window  # noqa: F401  (fixtures)
from tests.test_editor_boards import ok, when_open
from tests.test_editor_verdicts import f5_race


def _row(dialog, name: str) -> list[str]:
    names = [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())]
    r = names.index(name)
    return [dialog.table.item(r, c).text() for c in range(len(COLUMNS))]


def test_a_published_course_opens_unsaved_with_its_printed_ratings_and_races_with_f5(
        window, qtbot, tmp_path):
    w = window
    controller = install_preview(w)
    seen = {}

    def fill(dialog: NewFromPublishedDialog) -> None:
        seen["rows"] = dialog.table.rowCount()
        seen["death trap"] = _row(dialog, "Death Trap")
        seen["factory"] = _row(dialog, "Factory Rejects")
        dialog.table.setFocus()
        QTest.keyClick(dialog.table, Qt.Key_Home)
        for _ in range(dialog.table.rowCount()):
            if dialog.chosen().name == "Death Trap":
                break
            QTest.keyClick(dialog.table, Qt.Key_Down)
        seen["info"] = dialog.info.text()
        seen["preview"] = dialog.preview.pixmap().size()
        dialog.grab().save(str(tmp_path / "new-from-published.png"))
        ok(dialog)

    filled = when_open(NewFromPublishedDialog, fill)
    w.menus.actions["new_from_published"].trigger()
    filled.check()
    assert seen["rows"] == 34
    assert seen["death trap"] == ["Death Trap", "17", "2-4", "short", "hard", "—"]
    assert seen["factory"][4:] == ["expert", "start with 2 damage; no power down"]
    assert "printed short, hard" in seen["info"] and seen["preview"].width() > 100
    s = w.doc.scenario
    assert s.name == "Death Trap" and w.doc.path is None        # new and unsaved
    assert s.published is not None and (s.published.length, s.published.difficulty) == (
        "short", "hard")
    assert [(f.x, f.y) for f in s.flags] == [(7, 7), (0, 4), (6, 5)]
    w.windowHandle().requestActivate()       # key shortcuts reach the active window only
    qtbot.waitUntil(w.isActiveWindow)
    timeline = f5_race(qtbot, w, controller)
    assert timeline is not None and len(timeline.names) >= 2
