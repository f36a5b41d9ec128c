"""A team course in the editor (pytest-qt, real input): F5 races it, the
robots wear their team's colour, the race panel lists them by team, and the
Robots table has team and role columns."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDockWidget

from rallyforge.editor.preview import install_preview
from rallyforge.engine.analysis.team_colors import team_color
from rallyforge.engine.model.scenario import RobotSpec
from tests.editor_support import answers, make_window, window, window_on_copy  # noqa: F401
from tests.test_editor_verdicts import commit, f5_race, type_in_cell

COURSES = Path(__file__).resolve().parent / "fixtures" / "teams"


@pytest.fixture
def opened(window_on_copy):
    def make(name):
        window = window_on_copy(COURSES / f"{name}.json")
        return window, install_preview(window)
    return make


def test_f5_races_a_team_course_in_team_colours_grouped_by_team(qtbot, opened):
    window, c = opened("player")
    c.panel.setup.robot_count.setValue(4)
    timeline = f5_race(qtbot, window, c)
    assert timeline.sides == {"Robot 1": ("Red", "racer"), "Robot 2": ("Blue", "racer"),
                              "Robot 3": ("Red", "blocker"), "Robot 4": ("Blue", "blocker")}
    assert any(e.kind == "end" for e in timeline.events)
    won = [e.target for e in timeline.events if e.kind == "team_wins"]
    assert c.panel.setup.status.text().split(", ")[1].startswith(
        f"Team {won[0]} wins" if won else "no winner")
    # the robots on the board: Red's in red, Blue's in blue, blockers a shade darker
    red, blue = QColor(team_color("Red")), QColor(team_color("Blue"))
    bodies = {name: marker.body.color.name() for name, marker in c.overlay.markers.items()}
    assert bodies["Robot 1"] == red.name() and bodies["Robot 2"] == blue.name()
    assert bodies["Robot 3"] == red.darker(140).name()
    # the race panel lists them by team
    heads = [c.panel.tables.robots.verticalHeaderItem(row).text() for row in range(4)]
    assert heads == ["Red · Robot 1", "Red · Robot 3 (blocker)", "Blue · Robot 2",
                     "Blue · Robot 4 (blocker)"]
    cards = [c.panel.tables.cards.verticalHeaderItem(row).text() for row in range(4)]
    assert cards == heads


def test_the_robots_table_sets_team_and_role(qtbot, window, answers):
    w = window
    s = w.doc.scenario
    from dataclasses import replace
    w.doc.reset(replace(s, robots=(RobotSpec("Bo"), RobotSpec("Al"))), None)
    w.findChild(QDockWidget, "scenario").raise_()
    table = w.scenario_panel.robots
    w.scenario_panel.ensureWidgetVisible(table)
    qtbot.waitUntil(lambda: not table.visibleRegion().isEmpty())
    assert [table.horizontalHeaderItem(c).text() for c in (4, 5)] == ["Team", "Role"]
    commit(qtbot, type_in_cell(qtbot, table, 0, 4, "Red"))
    assert w.doc.scenario.robots[0].team == "Red"
    steps = w.doc.undo_stack.count()
    commit(qtbot, type_in_cell(qtbot, table, 0, 5, "boss"))
    assert "'boss' is not a role; the roles are: racer, blocker" in answers.errors[-1][1]
    commit(qtbot, type_in_cell(qtbot, table, 0, 5, "Blocker"))
    assert w.doc.scenario.robots[0].role == "blocker"
    assert w.doc.undo_stack.count() == steps + 1              # one step
    w.doc.undo_stack.undo()
    assert w.doc.scenario.robots[0].role is None
    assert table.item(0, 4).background().color() == QColor(team_color("Red")).lighter(170)


def test_the_balance_dialog_judges_a_team_course_by_team(qtbot, opened):
    from tests.test_preview_ui import set_up_balance
    window, c = opened("any")
    dialog = set_up_balance(c, 8, "search", robots=4)
    with qtbot.waitSignal(dialog.resultReady, timeout=60000) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    result = blocker.args[0]
    assert {t["name"] for t in result["teams"]["teams"]} == {"Red", "Blue"}
    assert "Team " in dialog.verdict.text() and "Dock 1 wins" not in dialog.summary.text()
    assert dialog.tabs.tabText(dialog.tabs.indexOf(dialog.win_tab)) == "Win share per team"
    labels = [t.get_text() for t in dialog.win_canvas.figure.axes[0].get_xticklabels()]
    assert labels[:2] == [f"Team {t['name']}" for t in result["teams"]["teams"]]
    assert "wins most" in dialog.verdict.text() or "No team won" in dialog.verdict.text()
    assert "The first seat's side" in dialog.summary.text()


def _team_f5_race(qtbot, window, c, seed: int):
    c.panel.setup.robot_count.setValue(4)
    c.panel.setup.seed.setValue(seed)
    c.panel.setup.all_bots.setCurrentText("team")                 # as the designer picks it
    c.panel.setup.all_bots.activated.emit(c.panel.setup.all_bots.currentIndex())
    return f5_race(qtbot, window, c)


def test_the_preview_draws_a_carried_flag_on_its_carrier_in_its_teams_colour(qtbot, opened):
    window, c = opened("capture")
    timeline = _team_f5_race(qtbot, window, c, seed=1)
    pick = next(e for e in timeline.events if e.kind == "pick_up")
    carrier_team = timeline.sides[pick.robot][0]
    flags = window.doc.scenario.flags
    number = next(k for k, f in enumerate(flags, 1) if (f.x, f.y) == pick.src)
    flag_team = next(t.name for t in window.doc.scenario.teams if t.home.contains(*pick.src))
    assert flag_team != carrier_team                        # the other team's flag
    frame = timeline.frame_of_event(timeline.events.index(pick))
    c.player.seek(frame - 1)
    assert c.overlay.team_flags.pennants == []              # on its square, not carried yet
    for later in (frame, frame + 8):                        # it moves with its carrier
        c.player.seek(later)
        (at, color, shown), = c.overlay.team_flags.pennants
        body = c.overlay.markers[pick.robot].body.pos()
        assert shown == number and color.name() == QColor(team_color(flag_team)).name()
        assert abs(at.x() - body.x()) < 30 and abs(at.y() - body.y()) < 30


def test_the_preview_rings_a_held_flag_in_the_holders_colour(qtbot, opened):
    window, c = opened("control")
    timeline = _team_f5_race(qtbot, window, c, seed=0)
    taken = [e for e in timeline.events if e.kind == "team_flag"]
    assert len({e.target for e in taken}) == 2              # both teams hold a flag in turn
    for e in taken:
        frame = timeline.frame_of_event(timeline.events.index(e))
        c.player.seek(frame)
        flag = window.doc.scenario.flags[e.amount - 1]
        rings = dict(c.overlay.team_flags.rings)
        assert rings[(flag.x, flag.y)].name() == QColor(team_color(e.target)).name()
    c.player.seek(0)
    assert c.overlay.team_flags.rings == []
