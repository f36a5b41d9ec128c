"""Courses that exist nowhere on disk yet (imported from a Tiled map,
assembled from library boards) are unsaved work: the title says so and
nothing drops them without asking. Driven with real clicks and keys."""
from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from rallyforge.editor.new_from_boards_dialog import NewFromBoardsDialog
from tests.editor_support import answers, make_window, window  # noqa: F401  (fixtures)
from tests.test_editor_boards import choose, ok, when_open
from tests.test_tiled_import import json_map, small_map


def click_menu(window, qtbot, menu: str, action: str) -> None:
    """Open a menu of the menu bar and click one of its entries, with the mouse."""
    bar, popup = window.menuBar(), window.menus.by_name[menu]
    QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier,
                     bar.actionGeometry(popup.menuAction()).center())
    qtbot.waitUntil(popup.isVisible)
    QTest.mouseClick(popup, Qt.LeftButton, Qt.NoModifier,
                     popup.actionGeometry(window.menus.actions[action]).center())


def import_small_map(window, qtbot, answers, tmp_path) -> None:
    path = tmp_path / "dizzy_dash.tmx"
    path.write_text(small_map(), encoding="utf-8")
    answers.open_path = str(path)
    click_menu(window, qtbot, "file", "import_map")
    qtbot.waitUntil(lambda: window.doc.scenario.name == "Dizzy Dash")


def test_an_imported_course_is_unsaved_work_named_after_it(window, qtbot, answers, tmp_path):
    import_small_map(window, qtbot, answers, tmp_path)
    assert window.windowTitle() == "Dizzy Dash* — Rally Forge"
    assert window.doc.path is None and window.doc.modified
    answers.save_changes = "cancel"
    QTest.keyClick(window, Qt.Key_N, Qt.ControlModifier)           # File > New
    assert answers.asked.count("save_changes") == 1                # asked before its dialog
    assert window.doc.scenario.name == "Dizzy Dash"                # and kept, as cancelled
    click_menu(window, qtbot, "file", "new_from_boards")
    assert answers.asked.count("save_changes") == 2
    answers.open_path = str(tmp_path / "dizzy_dash.tmx")
    click_menu(window, qtbot, "file", "open")
    assert answers.asked.count("save_changes") == 3
    assert window.doc.scenario.name == "Dizzy Dash" and window.doc.modified


def test_an_assembled_course_is_unsaved_work_named_after_it(window, qtbot, answers):
    def fill(dialog: NewFromBoardsDialog) -> None:
        dialog.name.setFocus()
        QTest.keyClicks(dialog.name, "Chess Match")
        choose(dialog.boards[0], "Chess")
        ok(dialog)

    filled = when_open(NewFromBoardsDialog, fill)
    click_menu(window, qtbot, "file", "new_from_boards")
    qtbot.waitUntil(lambda: window.doc.scenario.name == "Chess Match")
    filled.check()
    assert window.windowTitle() == "Chess Match* — Rally Forge"
    answers.save_changes = "cancel"
    window.windowHandle().requestActivate()     # back from the dialog: keys reach it again
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keyClick(window, Qt.Key_N, Qt.ControlModifier)
    assert answers.asked == ["save_changes"]
    assert window.doc.scenario.name == "Chess Match"


def import_button(box: QMessageBox):
    return next(b for b in box.buttons() if b.text() == "Import")


def test_open_offers_to_import_a_tiled_map(window, qtbot, answers, tmp_path):
    path = tmp_path / "dizzy_dash.tmx"
    path.write_text(small_map(), encoding="utf-8")
    answers.open_path = str(path)
    seen = {}

    def click_import(box: QMessageBox) -> None:
        seen["text"] = box.text()
        QTest.mouseClick(import_button(box), Qt.LeftButton)

    filled = when_open(QMessageBox, click_import)
    QTest.keyClick(window, Qt.Key_O, Qt.ControlModifier)          # File > Open
    filled.check()
    assert seen["text"] == "dizzy_dash.tmx is a Tiled map, not a course."
    assert answers.errors == []                                   # no "not valid JSON"
    assert window.doc.scenario.name == "Dizzy Dash" and window.doc.path is None
    assert window.windowTitle() == "Dizzy Dash* — Rally Forge"
    assert answers.asked.count("save_changes") == 0               # nothing was there to lose


def test_a_tiled_map_on_the_command_line_offers_the_import(make_window, tmp_path):
    path = tmp_path / "dizzy_dash.json"           # a Tiled JSON map, named like a course
    path.write_text(json.dumps(json_map()), encoding="utf-8")
    filled = when_open(QMessageBox, lambda box: QTest.mouseClick(import_button(box),
                                                                  Qt.LeftButton))
    w = make_window(path=path)
    filled.check()
    assert w.doc.scenario.name == "Dizzy Dash" and w.doc.modified


def test_the_import_says_a_laser_drawn_at_both_ends_is_a_choice_not_a_loss(
        window, qtbot, answers, tmp_path, monkeypatch):
    from rallyforge.editor import dialogs
    from tests.test_tiled_import import DOCK1, FLAG1, LASER_WALL_W, grid, tmx
    said = []
    monkeypatch.setattr(dialogs, "show_info", lambda parent, title, text, details="":
                        said.append((title, text, details)))
    monkeypatch.setattr(dialogs, "show_warning", lambda *args, **kwargs: said.append(args))
    cells = {(0, 0): LASER_WALL_W, (3, 0): 46, (0, 1): FLAG1, (1, 1): DOCK1}   # 46: fires W
    path = tmp_path / "both_ends.tmx"
    path.write_text(tmx(4, 2, {"l": grid(4, 2, cells)}), encoding="utf-8")
    answers.open_path = str(path)
    click_menu(window, qtbot, "file", "import_map")
    qtbot.waitUntil(lambda: bool(said))
    assert said == [("Import Tiled Map",
                     "both_ends.tmx: 1 laser is drawn with an emitter at both ends: the course "
                     "keeps one firing end of it (see the details).",
                     "both_ends.tmx:3,0: note: a laser drawn with an emitter at both ends: the "
                     "one at (0, 0) firing E is kept")]


def test_new_from_boards_opens_on_a_course_to_see(window, qtbot):
    """The first board and the first bay chosen, the preview drawn; with no
    board, it says so in a sentence."""
    seen = {}

    def look(dialog: NewFromBoardsDialog) -> None:
        seen["board"] = dialog.boards[0].currentText()
        seen["bay"] = dialog.bay.currentText()
        seen["preview"] = not dialog.preview.pixmap().isNull()
        seen["ok"] = dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
        seen["name"] = dialog.name.placeholderText()
        choose(dialog.boards[0], "—")
        seen["none"] = dialog.info.text()
        seen["ok without"] = dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
        dialog.reject()

    filled = when_open(NewFromBoardsDialog, look)
    click_menu(window, qtbot, "file", "new_from_boards")
    qtbot.waitUntil(lambda: "ok without" in seen)
    filled.check()
    assert seen == {"board": "Chess", "bay": "Docking Bay 1", "preview": True, "ok": True,
                    "name": "Chess", "none": "Choose at least one board.", "ok without": False}
