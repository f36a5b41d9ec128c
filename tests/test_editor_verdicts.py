"""Verdicts the editor can be trusted for (pytest-qt, real input): the Race
panel races what it shows, the Robots table takes only names it knows, no
numbers for a course with errors, and a course nobody finishes says so."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QDockWidget, QLineEdit

from rallyforge.editor.preview import install_preview
from rallyforge.engine.bots import new_race
from tests.editor_support import answers, make_window, window, window_on_copy  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
HIGHLANDS = ROOT / "scenarios" / "highlands.json"       # lists four scripted robots


@pytest.fixture
def opened(window_on_copy):
    """A main window with the preview on a copy of a course (the file itself
    may be open in another test's window)."""
    def make(path):
        window = window_on_copy(path)
        return window, install_preview(window)
    return make


def places(robots) -> dict:
    return {r.name: (r.x, r.y, r.facing, r.flags) if r.alive else None for r in robots}


def tick(qtbot, box) -> None:
    """Click a check box on its box (its widget may be wider than its label)."""
    qtbot.mouseClick(box, Qt.LeftButton, pos=QPoint(8, box.height() // 2))


def f5_race(qtbot, window, controller):
    controller.playback.timeline = None
    qtbot.keyClick(window, Qt.Key_F5)
    qtbot.waitUntil(lambda: controller.playback.timeline is not None and not controller.worker.busy,
                    timeout=20000)
    return controller.playback.timeline


def test_f5_races_the_panels_bots_unless_the_files_robots_are_ticked(qtbot, opened):
    window, c = opened(HIGHLANDS)
    scenario = window.doc.scenario
    panel = c.panel.setup
    if not panel.use_scenario.isChecked():
        tick(qtbot, panel.use_scenario)
    assert panel.use_scenario.isChecked()
    assert f5_race(qtbot, window, c).names == tuple(r.name for r in scenario.robots)

    tick(qtbot, panel.use_scenario)                                 # unticked
    assert not panel.use_scenario.isChecked()
    panel.robot_count.setFocus()
    panel.robot_count.selectAll()
    qtbot.keyClicks(panel.robot_count, "4")
    assert panel.robot_count.value() == 4
    assert panel.all_bots.currentText() == "search"
    seed = panel.seed.value()
    timeline = f5_race(qtbot, window, c)
    assert timeline.names == ("Robot 1", "Robot 2", "Robot 3", "Robot 4")
    starts = {e.robot: e.dst for e in timeline.events if e.kind == "place"}
    assert list(starts.values()) == [(d.x, d.y) for d in scenario.docks[:4]]
    race = new_race(replace(scenario, robots=(), checks=()), seed=seed, robot_count=4, bot="search")
    race.run()
    assert places(timeline.frames[-1].robots) == places(race.snapshot())
    assert timeline.frames[-1].round == race.round


# ---------------------------------------------------------------- the Robots table

def type_in_cell(qtbot, table, row: int, column: int, text: str):
    """Click a cell, F2, type `text` over what it holds: the cell editor
    (its completer still open) before Return."""
    rect = table.visualRect(table.model().index(row, column))
    assert table.viewport().visibleRegion().contains(rect.center())
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.keyClick(table, Qt.Key_F2)
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    editor = QApplication.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    return editor


def commit(qtbot, editor) -> None:
    """Return: to the completer's list when it is open (it passes it on)."""
    popup = editor.completer().popup() if editor.completer() else None
    qtbot.keyClick(popup if popup is not None and popup.isVisible() else editor, Qt.Key_Return)
    table = editor.parent().parent()
    qtbot.waitUntil(lambda: table.state() != QAbstractItemView.EditingState)   # committed


def test_the_robots_table_offers_real_names_and_refuses_others(qtbot, window, answers):
    w = window
    w.scenario_panel.add_robot()
    w.findChild(QDockWidget, "scenario").raise_()
    table = w.scenario_panel.robots
    w.scenario_panel.ensureWidgetVisible(table)        # scrolled to, as the designer would
    qtbot.waitUntil(lambda: not table.visibleRegion().isEmpty())

    editor = type_in_cell(qtbot, table, 0, 2, "se")
    completer = editor.completer()
    assert completer.popup().isVisible()
    assert completer.currentCompletion() == "search"
    commit(qtbot, editor)
    assert answers.errors and "'se' is not a bot" in answers.errors[-1][1]
    assert w.doc.scenario.robots[0].bot is None and table.item(0, 2).text() == ""

    commit(qtbot, type_in_cell(qtbot, table, 0, 2, "smart"))
    assert "'smart' is not a bot; the bots are: aware, greedy, random, search, team" in \
        answers.errors[-1][1]
    assert w.doc.scenario.robots[0].bot is None

    commit(qtbot, type_in_cell(qtbot, table, 0, 2, "greedy"))
    assert w.doc.scenario.robots[0].bot == "greedy"

    steps = w.doc.undo_stack.count()
    editor = type_in_cell(qtbot, table, 0, 3, "Brakes, Mini How")
    offered = editor.completer().completionModel()                   # for the last name
    assert editor.completer().popup().isVisible()
    assert [offered.index(i, 0).data() for i in range(offered.rowCount())] == ["Mini Howitzer"]
    qtbot.keyClick(editor.completer().popup(), Qt.Key_Down)
    assert editor.text() == "Brakes, Mini Howitzer"                    # the other kept
    commit(qtbot, editor)
    assert w.doc.scenario.robots[0].options == ("brakes", "mini-howitzer")

    errors = len(answers.errors)
    commit(qtbot, type_in_cell(qtbot, table, 0, 3, "Brakes, Mini Howizter"))
    assert len(answers.errors) == errors + 1
    assert "'Mini Howizter' is not an option card; did you mean Mini Howitzer?" in \
        answers.errors[-1][1]
    assert w.doc.scenario.robots[0].options == ("brakes", "mini-howitzer")     # unchanged
    assert table.item(0, 3).text() == "Brakes, Mini Howitzer"
    assert w.doc.undo_stack.count() == steps + 1                            # one edit, not two

    commit(qtbot, type_in_cell(qtbot, table, 0, 1, "two"))
    assert "a dock is a number from 1, not 'two'" in answers.errors[-1][1]
    assert w.doc.scenario.robots[0].dock is None


# ---------------------------------------------------------------- a course with errors

FLAG_ON_PIT = ROOT / "tests" / "fixtures" / "invalid" / "flag-on-pit.json"     # E301


def in_front(window, name: str) -> bool:
    dock = window.findChild(QDockWidget, name)
    return dock.isVisible() and not dock.widget().visibleRegion().isEmpty()


def click(qtbot, button) -> None:
    assert button.isVisible() and button.isEnabled()
    qtbot.mouseClick(button, Qt.LeftButton)


def test_no_figures_for_a_course_with_errors_but_the_errors(qtbot, opened, tmp_path, monkeypatch):
    from rallyforge.editor import course_card_panel
    from rallyforge.engine import balance
    from rallyforge.engine.analysis.balance.course_card import card
    from rallyforge.engine.format.loader import read_dict, read_json, save_file
    from rallyforge.engine.format.stored_course_card import play_hash, with_card
    monkeypatch.setattr(course_card_panel, "ESTIMATE_RACES", 8)
    monkeypatch.setattr(course_card_panel, "DELAY_MS", 10)
    # a card kept in the file, measured on it by a version that raced broken courses
    data, _ = read_json(FLAG_ON_PIT)
    broken, _ = read_dict(data)
    fixed = replace(broken, flags=(broken.flags[0],))
    kept = dict(card(fixed, balance(fixed, 4, 2, "random")), play_hash=play_hash(broken))
    path = tmp_path / "kept" / "flag-on-pit.json"
    path.parent.mkdir()
    save_file(with_card(broken, kept), path)
    window, c = opened(path)

    panel = window.card_panel
    panel.parentWidget().raise_()
    qtbot.waitUntil(lambda: panel.error_box.isVisible(), timeout=20000)
    assert panel.state == course_card_panel.BLOCKED and panel.card is None     # not the kept card
    assert "E301: flag 2 at (2, 5) stands on a pit" in panel.error_box.label.text()
    assert panel.body.text() == ""
    click(qtbot, panel.error_box.button)
    qtbot.waitUntil(lambda: in_front(window, "issues"))

    dialog = c.balance.open_dialog()
    dialog.races.setValue(8)
    results = []
    dialog.resultReady.connect(results.append)
    click(qtbot, dialog.start_button)
    qtbot.waitUntil(lambda: dialog.errors.isVisible() and not dialog.running, timeout=20000)
    assert "The course has 1 error: nothing was raced" in dialog.errors.label.text()
    assert "E301" in dialog.errors.label.text()
    assert results == [] and dialog.measured is None and not dialog.verdict.isVisible()
    assert not dialog.save_button.isEnabled()
    assert panel.state != course_card_panel.MEASURED
    window.findChild(QDockWidget, "course_card").raise_()
    click(qtbot, dialog.errors.button)
    qtbot.waitUntil(lambda: in_front(window, "issues"))
    dialog.close()

    suggest = c.suggest.open_dialog()
    suggest.budget.setValue(100)
    click(qtbot, suggest.start_button)
    qtbot.waitUntil(lambda: suggest.errors.isVisible() and suggest.worker is None, timeout=20000)
    assert "E301" in suggest.errors.label.text() and suggest.list.count() == 0
    window.findChild(QDockWidget, "course_card").raise_()
    click(qtbot, suggest.errors.button)
    qtbot.waitUntil(lambda: in_front(window, "issues"))
    suggest.close()


# ---------------------------------------------------------------- a course nobody finishes

NOBODY_FINISHES = ROOT / "tests" / "fixtures" / "balance" / "nobody-finishes.json"


def test_a_course_nobody_finishes_says_so(qtbot, opened):
    window, c = opened(NOBODY_FINISHES)
    dialog = c.balance.open_dialog()
    for spin, value in ((dialog.races, "40"), (dialog.robots, "4")):
        spin.setFocus()
        spin.selectAll()
        qtbot.keyClicks(spin, value)
    dialog.bot.setFocus()
    qtbot.keyClick(dialog.bot, Qt.Key_Up)                  # search, one up: random
    assert (dialog.races.value(), dialog.robots.value(), dialog.bot.currentText()) == (
        40, 4, "random")
    with qtbot.waitSignal(dialog.resultReady, timeout=60000) as blocker:
        click(qtbot, dialog.start_button)
    result = blocker.args[0]
    assert result["completion"]["decided"] == 0
    verdict = dialog.verdict.text()
    assert "No robot reached the last flag in 40 races</b>: most died on the way to flag 1, " \
           "the most at (7, 7)" in verdict
    assert "judged once 20 races are won" in verdict
    assert "Not settled" not in verdict and "bias" not in verdict
    assert "fair course" not in dialog.summary.text()      # no dock judged against a fair share
    from rallyforge.engine.analysis.balance.charts import VERDICT_STYLE
    _, ink, paper = VERDICT_STYLE["few_wins"]
    assert f"background:{paper}; color:{ink}" in verdict
    axes = dialog.win_canvas.figure.axes[0]
    fair_lines = [line for line in axes.get_lines() if list(line.get_ydata()) == [0.25, 0.25]]
    assert fair_lines and axes.get_ylim()[1] > 0.30           # the fair line and its band show
