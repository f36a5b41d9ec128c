"""Suggest Fixes in the editor (pytest-qt, offscreen): the search runs in the
background with progress, its edits are listed, the chosen one is previewed
on the board and applied as one undo step; Cancel stops a search; the
balance dialog opens the search."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from PySide6.QtCore import Qt

from rallyforge.editor import commands
from rallyforge.editor.preview import install_preview
from rallyforge.engine.analysis.suggest import applied
from rallyforge.engine.editing import edit
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.scenario import Flag
from tests.editor_support import answers, make_window  # noqa: F401

FIXTURE = Path(__file__).parent / "fixtures" / "unfair-standard.json"


@pytest.fixture
def unfair(tmp_path) -> Path:
    """A copy of the fixture: a course file open in an editor window is
    locked for its backup, and the tests of another worker process open the
    same course at the same time."""
    copy = tmp_path / FIXTURE.name
    shutil.copyfile(FIXTURE, copy)
    return copy


def search(qtbot, make_window, path: Path, budget=700):
    window = make_window(path)
    controller = install_preview(window)
    dialog = controller.suggest.open_dialog()
    dialog.budget.setValue(budget)
    dialog.workers.setValue(1)
    with qtbot.waitSignal(dialog.resultReady, timeout=60000) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=10000)
    return window, controller, dialog, blocker.args[0]


def choose(qtbot, dialog, row: int) -> None:
    """Click suggestion `row` in the list (after clearing the choice)."""
    dialog.list.setCurrentRow(-1)
    rect = dialog.list.visualItemRect(dialog.list.item(row))
    qtbot.mouseClick(dialog.list.viewport(), Qt.LeftButton, pos=rect.center())


def test_a_suggestion_is_previewed_then_applied_as_one_undo_step(qtbot, make_window, unfair):
    window, controller, dialog, result = search(qtbot, make_window, unfair)
    fixes, ideas = len(result["suggestions"]), len(result["ideas"])
    assert fixes and dialog.list.count() == fixes + (ideas + 1 if ideas else 0)
    # the ideas the races could not confirm are listed apart, and cannot be chosen
    for row in range(fixes, dialog.list.count()):
        assert dialog.list.item(row).flags() == Qt.ItemFlag.NoItemFlags
    assert dialog.list.item(0).text().startswith("1. " + result["suggestions"][0]["edits"][0]["words"])
    before = window.doc.scenario
    steps = window.doc.undo_stack.count()
    choose(qtbot, dialog, 0)
    ghost = controller.suggest.ghost
    assert ghost.isVisible() and ghost.squares                  # previewed, the course untouched
    assert window.doc.scenario is before
    qtbot.mouseClick(dialog.apply_button, Qt.LeftButton)
    expected = applied(load_file(unfair), result["suggestions"][0])
    assert window.doc.scenario == expected
    assert window.doc.undo_stack.count() == steps + 1
    assert not ghost.isVisible()
    window.doc.undo_stack.undo()
    assert window.doc.scenario == before
    window.doc.undo_stack.redo()
    assert window.doc.scenario == expected
    # renamed since the search: the suggestion still fits, the name stays
    window.doc.undo_stack.undo()
    commands.change(window.doc, edit.set_fields(before, name="Renamed"), "Rename")
    choose(qtbot, dialog, 0)
    assert ghost.isVisible()
    qtbot.mouseClick(dialog.apply_button, Qt.LeftButton)
    assert window.doc.scenario == edit.set_fields(expected, name="Renamed")
    # a board edit since the search: its suggestions no longer fit and are refused
    window.doc.undo_stack.undo()
    moved = edit.replace_marker(window.doc.scenario, "flags", 0, Flag(4, 4))
    commands.change(window.doc, moved, "Move flag 1")
    current = window.doc.scenario
    choose(qtbot, dialog, 0)
    assert not ghost.isVisible()
    qtbot.mouseClick(dialog.apply_button, Qt.LeftButton)
    assert window.doc.scenario is current
    assert "changed since the search" in dialog.status.text()


def test_cancel_stops_a_search(qtbot, make_window, unfair):
    window = make_window(unfair)
    controller = install_preview(window)
    dialog = controller.suggest.open_dialog()
    dialog.budget.setValue(100_000)
    dialog.workers.setValue(1)
    with qtbot.waitSignal(dialog.resultReady, timeout=60000) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
        qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=30000)
        qtbot.mouseClick(dialog.cancel_button, Qt.LeftButton)
    result = blocker.args[0]
    assert result["cancelled"] and result["races"] < 100_000 and dialog.list.count() == 0
    assert "Stopped" in dialog.status.text()


def test_the_balance_dialog_opens_the_search_for_its_robots(qtbot, make_window, unfair):
    window = make_window(unfair)
    controller = install_preview(window)
    balance = controller.balance.open_dialog()
    balance.robots.setValue(3)
    qtbot.mouseClick(balance.suggest_button, Qt.LeftButton)
    dialog = controller.suggest.dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.robots.value() == 3 and dialog.worker is None     # ready, not started


def test_the_budget_box_says_its_least_and_keeps_to_it(qtbot, make_window, unfair):
    from PySide6.QtTest import QTest
    window = make_window(unfair)
    dialog = install_preview(window).suggest.open_dialog()
    box = dialog.budget
    assert "at least 100" in box.toolTip()
    box.setValue(1100)
    box.setFocus()
    QTest.keyClick(box, Qt.Key_Down)
    QTest.keyClick(box, Qt.Key_Down)
    assert box.value() == 100           # the least the search keeps to
    dialog.workers.setValue(1)
    with qtbot.waitSignal(dialog.resultReady, timeout=60000) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=10000)
    assert blocker.args[0]["races"] <= 100


def test_the_preview_marks_the_square_of_a_removed_flag_and_of_a_cleared_hazard():
    from rallyforge.editor.preview.suggest_ghost import changed_squares
    from rallyforge.engine.analysis.suggest.edits import Edit
    s = load_file(Path(__file__).parent.parent / "scenarios" / "standard-course.json")
    assert changed_squares(s, Edit("remove_flag", (3, (0, 5))).apply(s)) == [(0, 5)]
    assert changed_squares(s, Edit("remove_flag", (2, (9, 1))).apply(s)) == [(0, 5), (9, 1)]
    assert changed_squares(s, Edit("clear_square", ((7, 5), "pit")).apply(s)) == [(7, 5)]
    assert (8, 1) in changed_squares(s, Edit("remove_laser", ((8, 1), "E")).apply(s))
