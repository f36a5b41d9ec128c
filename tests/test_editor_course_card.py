"""The Course card panel: a quick estimate after each edit, in the
background; a card of another version of the course is never shown as final."""
from __future__ import annotations

import pytest

from rallyforge.editor import course_card_panel
from rallyforge.editor.course_card_panel import ESTIMATE, MEASURED, OUT_OF_DATE
from rallyforge.editor.palette import ENTRIES
from rallyforge.engine.format.stored_course_card import play_hash
from rallyforge.engine.model.scenario import Board, Dock, Flag, Scenario
from tests.editor_support import answers, drag_squares, make_window  # noqa: F401  (fixtures)


def course():
    return Scenario("Card", Board(8, 8), (Flag(4, 2),),
                    (Dock(0, 7, "N"), Dock(2, 7, "N"), Dock(4, 7, "N"), Dock(6, 7, "N")))


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(course_card_panel, "ESTIMATE_RACES", 12)
    monkeypatch.setattr(course_card_panel, "DELAY_MS", 10)


def card_shown(make_window, qtbot):
    w = make_window(scenario=course())
    w.card_panel.parentWidget().raise_()        # its tab: hidden, it runs nothing
    qtbot.waitUntil(lambda: w.card_panel.on_screen)
    return w


def paint(w, label, square):
    row = next(i for i, e in enumerate(ENTRIES) if e.label == label)
    w.element_palette.on_clicked(w.element_palette.list.item(row))
    drag_squares(w.view, [square])


def test_a_hidden_panel_runs_nothing_until_shown(make_window, qtbot, quick):
    w = make_window(scenario=course())
    w.issues.parentWidget().raise_()            # the card's tab behind the Issues tab
    qtbot.waitUntil(lambda: not w.card_panel.on_screen)
    paint(w, "Pit", (4, 3))
    qtbot.wait(50)
    assert w.card_panel.worker is None and w.card_panel.card is None
    w.card_panel.parentWidget().raise_()
    qtbot.waitUntil(lambda: w.card_panel.state == ESTIMATE, timeout=20000)
    assert w.card_panel.card["flag_score"] == 2


def test_an_edit_refreshes_the_estimate_and_the_old_card_is_never_final(make_window, qtbot, quick):
    w = card_shown(make_window, qtbot)
    panel = w.card_panel
    states = []
    panel.shown.connect(states.append)
    qtbot.waitUntil(lambda: panel.state == ESTIMATE, timeout=20000)
    first = panel.card
    assert first["estimate"] is True and first["races"] == 12
    assert first["flag_score"] == 0 and "Estimate" in panel.header.text()

    states.clear()
    paint(w, "Pit", (4, 3))                       # next to the flag: the course changed
    assert panel.state == OUT_OF_DATE and not panel.body.isEnabled()
    assert "Out of date" in panel.header.text()
    qtbot.waitUntil(lambda: panel.state == ESTIMATE, timeout=20000)
    assert panel.card is not first and panel.card["flag_score"] == 2
    assert panel.card["play_hash"] == play_hash(w.doc.scenario)
    # between the edit and the new estimate, the old card was shown only as out of date
    assert MEASURED not in states and states[0] == OUT_OF_DATE
    assert states.index(ESTIMATE) == len(states) - 1


def test_a_result_for_an_earlier_course_is_dropped(make_window, qtbot, quick):
    w = card_shown(make_window, qtbot)
    panel = w.card_panel
    qtbot.waitUntil(lambda: panel.state == ESTIMATE, timeout=20000)
    panel.timer.stop()
    panel.estimate()                               # a run starts on this course...
    running = panel.worker
    paint(w, "Pit", (4, 3))                        # ...and an edit cancels it
    assert running.cancelled and panel.worker is None
    running.wait(20000)
    qtbot.waitUntil(lambda: panel.state == ESTIMATE, timeout=20000)
    assert panel.card["play_hash"] == play_hash(w.doc.scenario)


def test_a_balance_runs_card_is_final_until_the_next_edit(make_window, qtbot, quick):
    from rallyforge.engine.analysis.balance import balance
    w = card_shown(make_window, qtbot)
    panel = w.card_panel
    result = balance(w.doc.scenario, 8)
    w.preview.balance.set_result(result, w.doc.scenario)
    assert panel.state == MEASURED and "Measured" in panel.header.text()
    assert panel.card["races"] == 8
    paint(w, "Pit", (4, 3))
    assert panel.state == OUT_OF_DATE
    w.doc.undo_stack.undo()                        # back to the measured course
    assert panel.state == MEASURED
    w.preview.balance.set_result(result, w.doc.scenario)   # stale results are not taken
    paint(w, "Pit", (4, 3))
    w.preview.balance.set_result(result, w.doc.scenario)
    assert panel.state != MEASURED


def test_the_estimate_is_for_the_goals_robots_and_says_how_it_meets_them(make_window, qtbot, quick):
    from dataclasses import replace

    from rallyforge.engine.model.scenario import Goals
    w = make_window(scenario=replace(course(), goals=Goals(robots=2, length="long")))
    w.card_panel.parentWidget().raise_()
    panel = w.card_panel
    qtbot.waitUntil(lambda: panel.state == ESTIMATE, timeout=20000)
    assert panel.card["robots"] == 2
    assert "12 races of 2 robots (bot search)" in panel.header.text()
    assert "<b>Goals:</b> length long: missed" in panel.body.text()
    assert panel.body.text().startswith("<b>Length:</b> ")


def test_the_balance_dialog_races_the_goals_robots(make_window):
    from dataclasses import replace

    from rallyforge.editor.preview import install_preview
    from rallyforge.engine.model.scenario import Goals
    w = make_window(scenario=replace(course(), goals=Goals(robots=3)))
    assert install_preview(w).balance.open_dialog().robots.value() == 3


def test_the_card_kept_in_the_file_is_final_until_the_course_changes(make_window, qtbot, quick):
    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.format.stored_course_card import with_card
    kept = balance(course(), 8)["card"]
    w = make_window(scenario=with_card(course(), kept))
    w.card_panel.parentWidget().raise_()
    panel = w.card_panel
    qtbot.waitUntil(lambda: panel.on_screen)
    assert panel.state == MEASURED and panel.card == kept and panel.worker is None
    paint(w, "Pit", (4, 3))
    assert panel.state == OUT_OF_DATE
    qtbot.waitUntil(lambda: panel.state == ESTIMATE, timeout=20000)


def test_a_kept_card_is_judged_against_the_goals_the_course_has_now(make_window, qtbot, quick):
    from dataclasses import replace

    from rallyforge.engine.analysis.balance import balance
    from rallyforge.engine.format.stored_course_card import with_card
    from rallyforge.engine.model.scenario import Goals
    kept = balance(course(), 8)["card"]                 # measured without goals
    goals = Goals(length="long", fair=False)
    w = make_window(scenario=with_card(replace(course(), goals=goals), kept))
    w.card_panel.parentWidget().raise_()
    panel = w.card_panel
    qtbot.waitUntil(lambda: panel.on_screen)
    assert panel.state == MEASURED and kept["goals"] is None
    assert panel.body.text().endswith("<b>Goals:</b> length long: missed")


def test_a_kept_card_that_is_only_a_hash_is_not_shown(make_window, qtbot, quick):
    from rallyforge.engine.format.stored_course_card import with_card
    w = make_window(scenario=with_card(course(), {"play_hash": play_hash(course())}))
    w.card_panel.parentWidget().raise_()
    panel = w.card_panel
    qtbot.waitUntil(lambda: panel.state == ESTIMATE, timeout=20000)
    assert panel.card["races"] == 12


def test_a_card_taller_than_its_panel_scrolls_to_its_last_line(make_window, qtbot, quick):
    from dataclasses import replace

    from rallyforge.engine.model.scenario import Goals
    w = make_window(scenario=replace(course(), goals=Goals(robots=2, length="long")))
    dock = w.card_panel.parentWidget()
    dock.raise_()
    panel = w.card_panel
    qtbot.waitUntil(lambda: panel.state == ESTIMATE, timeout=20000)
    panel.resize(300, 150)
    bar = panel.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    bottom = panel.body.mapTo(panel.scroll_area.viewport(), panel.body.rect().bottomLeft()).y()
    assert bottom <= panel.scroll_area.viewport().height()      # the Goals line can be seen


def test_the_menu_the_estimate_points_to_is_the_real_menu(make_window, qtbot, quick):
    """"Race ▸ Balance Check…": a menu of the menu bar, and an entry of it, as they read."""
    import re
    w = card_shown(make_window, qtbot)
    qtbot.waitUntil(lambda: w.card_panel.state == ESTIMATE, timeout=20000)
    cited = re.findall(r"\(([^()]+ ▸ [^()]+)\)", w.card_panel.header.text())
    assert cited == ["Race ▸ Balance Check…"]

    def shown(action):
        return action.text().replace("&", "")
    for path in cited:
        menu_name, entry = path.split(" ▸ ")
        menu = next(a.menu() for a in w.menuBar().actions() if shown(a) == menu_name)
        assert entry in [shown(a) for a in menu.actions()]
