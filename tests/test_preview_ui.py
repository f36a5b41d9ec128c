"""The engine preview in the editor window (pytest-qt, offscreen): a race is
played in a worker and shown on the board, stepping follows the engine,
course tests jump to a failing check, a balance run reports and draws its
heatmap, Cancel stops it, and the window keeps working meanwhile. How fast
is measured in bench/bench_editor.py, not here."""
from __future__ import annotations

import json
import math
import shutil
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from rallyforge.editor import commands
from rallyforge.editor.preview import install_preview
from rallyforge.editor.preview.heatmap_overlay import MODES
from rallyforge.drawing.style import SQUARE
from rallyforge.engine.bots import new_race
from rallyforge.engine.editing import edit, transform
from rallyforge.engine.model.scenario import Pusher
from tests.editor_support import answers, make_window, window_on_copy  # noqa: F401

FIXTURES = Path(__file__).parent / "fixtures"
FACTORY = FIXTURES / "preview" / "factory.json"
FAILING = FIXTURES / "preview" / "failing-check.json"


@pytest.fixture
def preview(window_on_copy):
    """A main window on (a copy of) the factory course with the preview installed."""
    def make(path=FACTORY):
        window = window_on_copy(path)
        controller = install_preview(window)
        controller.panel.setup.robot_count.setValue(4)
        return window, controller
    return make


def run_race(qtbot, controller, seed=1, bot="random"):
    controller.panel.setup.seed.setValue(seed)
    controller.panel.setup.all_bots.setCurrentText(bot)          # as the designer picks it
    controller.panel.setup.all_bots.activated.emit(controller.panel.setup.all_bots.currentIndex())
    qtbot.mouseClick(controller.panel.setup.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: controller.playback.timeline is not None and not controller.worker.busy,
                    timeout=5000)
    return controller.playback.timeline


def marker_squares(controller) -> dict:
    """Where the robot markers stand on the board: square, facing angle, or None."""
    out = {}
    for name, marker in controller.overlay.markers.items():
        body = marker.body
        if not body.isVisible():
            out[name] = None
            continue
        pos = body.pos()
        out[name] = (round(pos.x() / SQUARE - 0.5), round(pos.y() / SQUARE - 0.5),
                     body.rotation() % 360)
    return out


def set_up_balance(controller, races: int, bot: str, robots: int | None = None,
                   workers: int = 1):
    """The balance dialog, set for a run (not started)."""
    dialog = controller.balance.open_dialog()
    dialog.races.setValue(races)
    if robots is not None:
        dialog.robots.setValue(robots)
    dialog.bot.setCurrentText(bot)
    dialog.workers.setValue(workers)
    return dialog


def engine_squares(snapshot) -> dict:
    angles = {"N": 0, "E": 90, "S": 180, "W": 270}
    return {r.name: (r.x, r.y, angles[r.facing]) if r.alive else None for r in snapshot}


def test_a_race_runs_and_plays_to_the_end(qtbot, preview):
    window, c = preview()
    t = run_race(qtbot, c, seed=1, bot="search")
    assert len(c.overlay.markers) == 4 and c.panel.slider.maximum() == len(t) - 1
    assert c.panel.tables.cards.rowCount() == 4 and c.log.model.rowCount() == len(t.events)
    c.panel.speed.setCurrentIndex(c.panel.speed.count() - 1)
    c.player.set_speed(100)                        # about a second of playback
    start, entered = c.player.index, []
    c.player.frameChanged.connect(entered.append)
    with qtbot.waitSignal(c.player.finished, timeout=15000):
        qtbot.mouseClick(c.panel.play_button, Qt.LeftButton)
    assert c.player.index == len(t) - 1 and not c.player.playing
    assert entered == list(range(start + 1, len(t)))   # played through every frame, no jump
    race = new_race(window.doc.scenario, seed=1, robot_count=4, bot="search")
    race.run()
    assert marker_squares(c) == engine_squares(race.snapshot())
    assert c.panel.slider.value() == len(t) - 1
    assert "race over" in c.panel.where.text()


def test_stepping_a_register_moves_robots_to_the_engine_positions(qtbot, preview):
    window, c = preview()
    run_race(qtbot, c, seed=2, bot="random")
    race = new_race(window.doc.scenario, seed=2, robot_count=4, bot="random", record_events=False)
    assert marker_squares(c) == engine_squares(race.snapshot())
    for _ in range(7):                                 # into round 2
        qtbot.mouseClick(c.panel.register_button, Qt.LeftButton)
        if race.moment[1] == 5:
            race.play_round()
        race.play_register()
        frame = c.playback.timeline.frames[c.player.index]
        assert (frame.round, frame.register) == race.moment
        assert marker_squares(c) == engine_squares(race.snapshot())
        assert frame.robots == race.snapshot()
        # the panels follow: active register, statuses, the frame's events selected
        assert c.panel.tables.cards.horizontalHeaderItem(frame.register - 1).text().startswith("▸")
        for row, r in enumerate(race.snapshot()):
            assert c.panel.tables.robots.item(row, 0).text() == str(r.damage)
            assert c.panel.tables.robots.item(row, 2).text() == str(r.flags)
    # one round on: the end of round 2 after its clean-up
    qtbot.mouseClick(c.panel.round_button, Qt.LeftButton)
    race.play_round()
    assert c.playback.timeline.frames[c.player.index].robots == race.snapshot()
    assert marker_squares(c) == engine_squares(race.snapshot())


def test_a_step_is_animated_and_the_event_list_follows(qtbot, preview):
    window, c = preview()
    t = run_race(qtbot, c, seed=3, bot="random")
    card = next(f for f in t.frames if f.step == "move" and any(m.moved for m in f.motions))
    c.player.seek(card.index - 1)
    c.player.set_speed(1.0)
    qtbot.mouseClick(c.panel.step_button, Qt.LeftButton)
    assert c.player.index == card.index and c.player.u < 1.0     # under way, not jumped
    mover = next(m for m in card.motions if m.moved)
    start = QPointF(c.overlay.markers[mover.robot].body.pos())
    qtbot.waitUntil(lambda: c.player.u == 1.0, timeout=5000)
    assert c.player.index == card.index and c.player.u == 1.0
    assert c.overlay.markers[mover.robot].body.pos() != start
    rows = sorted(i.row() for i in c.log.events.selectionModel().selectedIndexes())
    assert rows == list(range(*card.events))
    # clicking an event jumps to its frame
    later = t.frames[-3]
    index = c.log.model.index(later.events[0])
    c.log.events.scrollTo(index)
    rect = c.log.events.visualRect(index)
    qtbot.mouseClick(c.log.events.viewport(), Qt.LeftButton, pos=rect.center())
    assert c.player.index == later.index


def test_a_failing_check_jumps_to_its_moment(qtbot, preview):
    window, c = preview(FAILING)
    with qtbot.waitSignal(c.worker.finished, timeout=5000):
        qtbot.mouseClick(c.log.run_checks, Qt.LeftButton)
    qtbot.waitUntil(lambda: c.log.checks.count() == 3, timeout=2000)
    texts = [c.log.checks.item(i).text() for i in range(3)]
    assert texts[0].startswith("passed") and texts[2].startswith("passed")
    assert texts[1].startswith("FAILED") and "expected x=3 y=3" in texts[1]
    frame = c.playback.timeline.frames[c.player.index]
    assert (frame.round, frame.register) == (1, 2)
    assert marker_squares(c)["Rider"] == (3, 1, 90)      # where it really is
    assert c.overlay.expectation.isVisible() and c.overlay.expectation.square == (3, 3)
    detail = {c.log.detail.item(r, 0).text(): (c.log.detail.item(r, 1).text(),
                                                c.log.detail.item(r, 2).text())
              for r in range(c.log.detail.rowCount())}
    assert detail == {"x": ("3", "3"), "y": ("3", "1"), "facing": ("E", "E")}
    assert "1 of 3 failed" in c.log.checks_summary.text()
    # a passing check jumps too, and the ghost goes
    c.log.select_check(2)
    frame = c.playback.timeline.frames[c.player.index]
    assert frame.round == 1 and frame.round_end
    assert not c.overlay.expectation.isVisible()


def test_editing_the_course_ends_the_playback(qtbot, preview):
    window, c = preview()
    run_race(qtbot, c, seed=4)
    c.player.step_round()
    doc = window.doc
    # a name is not the course: the race stays
    commands.change(doc, edit.set_fields(doc.scenario, name="Renamed"), "Rename")
    assert c.playback.timeline is not None
    # a pusher is: the race goes, a re-run is offered
    board = edit.set_pusher(doc.scenario.board, Pusher(5, 5, "E", (1, 2, 3, 4, 5)))
    commands.change(doc, edit.with_board(doc.scenario, board), "Pusher", (5, 5, 5, 5))
    assert c.playback.timeline is None and not c.overlay.markers
    assert not c.panel.setup.banner.isHidden() and "seed 4" in c.panel.setup.banner_text.text()
    assert c.player.timeline is None and c.player.u == 1.0
    with qtbot.waitSignal(c.worker.finished, timeout=5000):
        qtbot.mouseClick(c.panel.setup.rerun_button, Qt.LeftButton)
    assert c.playback.timeline is not None and c.playback.shown.seed == 4
    assert c.playback.shown.scenario.board.pusher_map[(5, 5)].dir == "E"
    assert c.panel.setup.banner.isHidden()
    # undo is an edit too; a race that finishes after an edit is not shown
    doc.undo_stack.undo()
    assert c.playback.timeline is None
    c.run_race()
    doc.undo_stack.redo()
    qtbot.waitUntil(lambda: not c.worker.busy, timeout=5000)
    qtbot.wait(50)
    assert c.playback.timeline is None


def test_scenario_robots_and_the_race_menu(qtbot, preview):
    window, c = preview(FAILING)
    assert c.panel.setup.use_scenario.isEnabled()
    c.panel.setup.use_scenario.setChecked(True)
    assert not c.panel.setup.robot_count.isEnabled()
    menu = window.menus.by_name["race"]
    assert [a.text() for a in menu.actions() if a.text()][:2] == ["&Run Race",
                                                                  "Re-run, Same Se&ed"]
    with qtbot.waitSignal(c.worker.finished, timeout=5000):
        c.menu.actions["run"].trigger()
    assert c.playback.timeline.names == ("Rider", "Watcher")
    c.menu.actions["step_register"].trigger()
    c.menu.actions["step_register"].trigger()
    assert marker_squares(c)["Rider"] == (3, 1, 90)
    end = c.playback.timeline.frames[c.player.index]
    assert end.register_end and (end.round, end.register) == (1, 2)
    c.menu.actions["back"].trigger()                       # one step back, at rest
    assert c.player.index == end.index - 1 and c.player.u == 1.0
    before = c.playback.timeline.frames[c.player.index]
    assert not before.register_end and (before.round, before.register) == (1, 2)
    assert marker_squares(c) == engine_squares(before.robots)


# ---------------------------------------------------------------- balance


def test_a_short_balance_run_reports_and_draws_a_heatmap(qtbot, preview, tmp_path, monkeypatch):
    window, c = preview()
    dialog = set_up_balance(c, 16, "random", robots=4)
    with qtbot.waitSignal(dialog.resultReady, timeout=30000) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    result = blocker.args[0]
    assert result["races"] == 16 and not result["cancelled"]
    assert dialog.results.isEnabled() and dialog.summary.text()
    # the verdict box wears the colours of the result's own verdict (or of too few wins)
    from rallyforge.engine.analysis.balance.charts import VERDICT_STYLE
    from rallyforge.engine.analysis.balance.in_short import few_wins
    _, ink, paper = VERDICT_STYLE["few_wins" if few_wins(result) else result["fairness"]["verdict"]]
    assert f"background:{paper}; color:{ink}" in dialog.verdict.text()
    assert dialog.win_canvas is not None and dialog.win_canvas.figure.axes
    # the deaths heatmap is on the board, with a legend
    h = c.balance.heatmap
    assert h.isVisible() and h.mode == "deaths" and h.cells
    x, y, value, _ = max(h.cells, key=lambda cell: cell[2])
    assert value == result["heatmaps"]["deaths"][y][x] > 0
    assert c.balance.legend.isVisible() and c.balance.legend.peak == value
    # toggles: the menu and the dialog agree
    c.menu.heat_actions["occupancy"].trigger()
    assert h.mode == "occupancy" and h.cells
    assert next(b for b in dialog.heat_buttons.buttons() if b.isChecked()).property("mode") \
        == "occupancy"
    for mode in MODES:
        c.balance.set_heatmap_mode(mode)
        assert h.mode == mode
    qtbot.mouseClick(dialog.heat_buttons.buttons()[0], Qt.LeftButton)    # "Nothing"
    assert not h.isVisible() and not c.balance.legend.isVisible()
    # the report: the same files as `rallyforge balance --report`
    from rallyforge.engine.analysis.balance.report import CHARTS
    monkeypatch.setattr("rallyforge.editor.preview.balance_dialog.get_report_dir",
                        lambda parent, start="": str(tmp_path))
    with qtbot.waitSignal(dialog.reportSaved, timeout=30000) as saved:
        qtbot.mouseClick(dialog.save_button, Qt.LeftButton)
    names = sorted(Path(p).name for p in saved.args[0])
    assert names == sorted(["report.md", *CHARTS.values()])
    assert (tmp_path / "report.md").read_text().startswith("# Balance report")


def test_the_deaths_heatmap_tooltip_says_why_robots_die_there(qtbot, preview):
    """A re-entry square facing an express belt into a pit: hovering the pit
    names the chain, hovering the re-entry square warns of the loop."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    from tests.editor_support import point
    window, c = preview(FIXTURES / "reentry-loop.json")
    dialog = set_up_balance(c, 20, "random", robots=2)
    with qtbot.waitSignal(dialog.resultReady, timeout=30000):
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)

    def hover(x: int, y: int) -> str:
        at = point(window.view, x + 0.5, y + 0.5)
        QApplication.sendEvent(window.view.viewport(), QHelpEvent(
            QEvent.ToolTip, at, window.view.viewport().mapToGlobal(at)))
        qtbot.waitUntil(lambda: QToolTip.isVisible())
        text = QToolTip.text()
        QToolTip.hideText()
        return text

    pit = hover(3, 1).splitlines()
    assert pit[0].endswith("deaths per 100 races here:")
    assert pit[1].startswith("  carried into the pit at (3, 1) by the belt from (2, 1) (")
    assert hover(1, 1).startswith("Re-entry loop: robots re-entering at (1, 1) die again")
    c.menu.heat_actions["occupancy"].trigger()          # not a deaths heatmap: no death tooltip
    assert window.view.tooltip_at((3, 1)) is None


def test_cancel_stops_a_long_run_and_reports_what_was_played(qtbot, preview, monkeypatch):
    from rallyforge.editor.preview import balance_run
    window, c = preview()
    # the run waits after its first race until Cancel is pressed: compiled
    # races are fast enough to finish 20,000 before a click on a quiet machine
    pressed = threading.Event()

    def held_balance(*args, progress, **kwargs):
        def report(done, total, elapsed):
            progress(done, total, elapsed)
            if done == 1:
                pressed.wait(10)
        return run_balance(*args, progress=report, **kwargs)

    run_balance = balance_run.run_balance
    monkeypatch.setattr(balance_run, "run_balance", held_balance)
    dialog = set_up_balance(c, 20_000, "search")
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=20000)
    with qtbot.waitSignal(dialog.resultReady, timeout=20000) as blocker:
        qtbot.mouseClick(dialog.cancel_button, Qt.LeftButton)
        pressed.set()
    result = blocker.args[0]
    assert result["cancelled"] and 0 < result["races"] < 20_000
    qtbot.waitUntil(lambda: not dialog.running, timeout=2000)
    assert dialog.start_button.isEnabled()


def test_the_window_keeps_working_during_a_run(qtbot, preview, monkeypatch):
    """The work runs off the GUI thread while the event loop goes on: each
    run below is held midway until the window has shown it (progress on the
    bar, a timer tick while the race worker is busy), which could never happen
    if the work blocked the event loop."""
    from rallyforge.editor.preview import balance_run, race_worker
    window, c = preview()
    shown = threading.Event()
    threads = []

    def held_balance(*args, progress, **kwargs):
        def report(done, total, elapsed):
            progress(done, total, elapsed)
            if done == 1:
                threads.append(threading.current_thread())
                shown.wait(10)
        return run_balance(*args, progress=report, **kwargs)

    run_balance = balance_run.run_balance
    monkeypatch.setattr(balance_run, "run_balance", held_balance)
    dialog = set_up_balance(c, 6, "random")
    timer = QTimer()
    timer.timeout.connect(lambda: dialog.progress.value() == 1 and shown.set())
    timer.start(5)
    with qtbot.waitSignal(dialog.resultReady, timeout=30000) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    assert shown.is_set() and threads[0] is not threading.main_thread()
    assert blocker.args[0]["races"] == 6 and not blocker.args[0]["cancelled"]
    # and a race in the worker too
    shown.clear()
    play_race = race_worker.play_race

    def held_race(*args, **kwargs):
        threads.append(threading.current_thread())
        shown.wait(10)
        return play_race(*args, **kwargs)

    monkeypatch.setattr(race_worker, "play_race", held_race)
    timer.timeout.disconnect()
    timer.timeout.connect(lambda: c.worker.busy and shown.set())
    run_race(qtbot, c, seed=9, bot="search")
    timer.stop()
    assert shown.is_set() and threads[1] is not threading.main_thread()
    assert len(c.playback.timeline.names) == 4


def test_a_balance_result_survives_small_edits_and_goes_with_the_board(qtbot, preview):
    window, c = preview()
    fake = {"races": 3, "robots": 2, "bot": "random", "heatmaps": {
        "width": 10, "height": 10, "per_races": 100,
        "deaths": [[0.0] * 10 for _ in range(9)] + [[0.0] * 9 + [50.0]],
        "deaths_by_cause": {"pit": [[0.0] * 10 for _ in range(9)] + [[0.0] * 9 + [50.0]]},
        "occupancy": [[1.0] * 10 for _ in range(10)], "chains": []}, "reentry_loops": []}
    c.balance.set_result(fake, window.doc.scenario)
    assert (9, 9, 50.0) in [cell[:3] for cell in c.balance.heatmap.cells] and c.balance.legend.isVisible()
    doc = window.doc
    commands.change(doc, edit.with_board(doc.scenario, edit.set_wall(doc.scenario.board,
                                                                     0, 0, "E", True)), "Wall")
    assert c.balance.heatmap.isVisible() and "before your last edits" in c.balance.legend.note
    commands.change(doc, transform.resize(doc.scenario, right=1), "Resize")
    assert not c.balance.heatmap.isVisible() and c.balance.result is None
    assert not c.menu.heat_menu.isEnabled()


def test_closing_the_window_stops_the_workers(qtbot, preview):
    window, c = preview()
    dialog = set_up_balance(c, 20_000, "random")
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: dialog.running, timeout=2000)
    worker = dialog.worker
    c.shutdown()
    assert worker.isFinished()
    assert worker.result["cancelled"] and worker.result["races"] < 20_000
    QApplication.processEvents()


def test_eight_robots_on_the_factory_course_are_shown_frame_by_frame(qtbot, preview):
    window, c = preview()
    scenario = window.doc.scenario
    c.panel.setup.robot_count.setValue(8)
    t = run_race(qtbot, c, seed=5, bot="search")
    assert len(t.names) == 8 and len(c.overlay.markers) == 8
    for f in t.frames[:200]:
        for u in (0.25, 0.5, 0.75):
            c.overlay.show(f.index, u)
        c.overlay.show(f.index, 1.0)                # the end of a step is the frame itself
        assert marker_squares(c) == engine_squares(f.robots), f.index
    # playing a race never edits the course
    assert window.doc.scenario is scenario and not window.doc.modified


def test_a_balance_run_on_worker_processes_gives_the_serial_result(qtbot, preview):
    from rallyforge.editor.preview.balance_run import run_balance
    window, c = preview()
    dialog = set_up_balance(c, 24, "greedy", robots=3, workers=2)
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running, timeout=60000)
    pooled = dialog.measured
    assert pooled is not None, dialog.status.text()
    serial = run_balance(window.doc.scenario, 24, 3, "greedy", 0, workers=1)
    for key in ("races", "docks", "fairness", "length", "heatmaps", "legs", "time_trial"):
        assert pooled[key] == serial[key], key


def scripted_race(qtbot, preview, case: str):
    """The controller of a window on rule case `case`, its own robots raced."""
    _, c = preview(Path(__file__).parent / "rules" / f"{case}.json")
    c.panel.setup.use_scenario.setChecked(True)
    with qtbot.waitSignal(c.worker.finished, timeout=5000):
        c.menu.actions["run"].trigger()
    return c


def seek_end_of(c, round: int, register: int):
    """Show the end of that register; returns its frame."""
    frame = next(f for f in c.playback.timeline.frames
                 if f.register_end and (f.round, f.register) == (round, register))
    c.player.seek(frame.index)
    return frame


def test_the_race_shows_option_cards_with_spent_charges_and_tells_their_events(qtbot, preview):
    c = scripted_race(qtbot, preview, "o2-mini-howitzer")
    t = c.playback.timeline
    second = seek_end_of(c, 1, 2)
    shooter, target = (c.panel.tables.robots.cellWidget(row, 5) for row in (0, 1))
    # two of the five shells fired, two of the coat's three points taken: greyed
    # (the names as short as the column needs; in a narrow one, the charges left as a number)
    assert shooter.text().endswith(("<span style='color:#222'>●●●</span>"
                                    "<span style='color:#bbb'>●●</span>", "&nbsp;3/5"))
    assert target.text().endswith(("<span style='color:#222'>●</span>"
                                   "<span style='color:#bbb'>●●</span>", "&nbsp;1/3"))
    assert shooter.toolTip().startswith("Mini Howitzer: 5 shots")
    told = [c.log.model.data(c.log.model.index(row)) for row in range(*second.events)]
    assert any(line.endswith("A fires the Mini Howitzer: B pushed to (4,2)") for line in told)
    c.player.seek(len(t.frames) - 1)
    assert shooter.text() == "" and target.text() == ""       # both cards used up


def test_a_cards_tooltip_and_the_log_tell_what_fire_control_did(qtbot, preview):
    c = scripted_race(qtbot, preview, "o7-fire-control-chosen")
    shooter = c.panel.tables.robots.cellWidget(0, 5)
    told = {}
    for register in (1, 2, 3):
        frame = seek_end_of(c, 1, register)
        told[register] = shooter.toolTip().splitlines()
        lines = [c.log.model.data(c.log.model.index(row)) for row in range(*frame.events)]
        if register == 1:
            assert any(line.endswith("A fires the Fire Control at B to lock its register 4")
                       for line in lines)
            assert any(line.endswith("B's register 4 is locked by Fire Control") for line in lines)
    assert told[1][0].startswith("Fire Control: Instead of the main laser's damage, the robot "
                                 "chooses")
    assert told[1][1:] == ["    Last: 1·1: A fires the Fire Control at B to lock its register 4"]
    assert told[2][1:] == ["    Last: 1·2: A cannot use the Fire Control: register 4 already "
                           "locked"]
    assert told[3][1:] == ["    Last: 1·3: A fires the Fire Control at B to destroy its Brakes"]
    # B's register 4 is locked from 1·1 on and keeps its Rotate left in round 2
    for round, register in ((1, 1), (2, 5)):
        seek_end_of(c, round, register)
        locked = c.panel.tables.cards.item(1, 3)
        assert locked.toolTip() == "left:410 (locked by A's Fire Control in 1·1)"
        assert locked.background().color() == QColor(255, 200, 120)
        assert c.panel.tables.cards.item(1, 2).toolTip() == "uturn:60"


def test_a_window_deleted_right_after_its_first_race_is_shown_raises_nothing(
        qtbot, answers, tmp_path):
    """Showing the first race widens the Race dock and fits the board once
    the layout has settled; a window gone by then has nothing to fit. (A
    window of its own: the test deletes it.)"""
    from PySide6.QtCore import QCoreApplication, QEvent

    from rallyforge.editor.main_window import MainWindow
    copy = tmp_path / FACTORY.name
    shutil.copyfile(FACTORY, copy)
    window = MainWindow(path=str(copy))
    window.show()
    controller = install_preview(window)
    window.resizeDocks([controller.dock], [200], Qt.Horizontal)
    QApplication.processEvents()
    assert controller.dock.width() < 430
    controller._make_room()                 # what showing the first race does
    controller.shutdown()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)
    qtbot.wait(50)                          # the fit's timer would fire here


def test_the_heatmap_legend_hides_no_square(qtbot, preview):
    window, c = preview()
    window.resize(1400, 900)
    dialog = set_up_balance(c, 8, "greedy", robots=4)
    with qtbot.waitSignal(dialog.resultReady, timeout=30000):
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    dialog.close()
    view, legend = window.view, c.balance.legend
    view.fit()                                  # the board fills the view, corner to corner
    QApplication.processEvents()
    def on_screen(widget, rect):
        return rect.translated(widget.mapToGlobal(rect.topLeft()) - rect.topLeft())

    def board():
        """The squares on show, on the screen."""
        vp = view.viewport()
        return on_screen(vp, view.mapFromScene(c.balance.heatmap.boundingRect()).boundingRect()
                         .intersected(vp.rect()))
    shown = view.viewport().geometry()
    assert legend.isVisible()
    assert not on_screen(legend, legend.rect()).intersects(board())
    assert not on_screen(legend, legend.rect()).intersects(on_screen(view.viewport(),
                                                                      view.viewport().rect()))
    for mode in ("deaths_by_cause", "occupancy"):   # taller and shorter legends
        c.balance.set_heatmap_mode(mode)
        QApplication.processEvents()
        view.set_zoom(2.0)                          # the board larger than the view: no free corner
        QApplication.processEvents()
        assert not on_screen(legend, legend.rect()).intersects(board())
    window.grab().save("/tmp/heatmap-legend.png")
    c.balance.set_heatmap_mode(None)
    assert not legend.isVisible() and view.viewport().geometry().height() > shown.height()


def test_after_a_balance_check_the_whole_board_is_in_view_and_counts_clear_the_flags(
        qtbot, preview, monkeypatch):
    """The legend's strip takes room below the board: the board is fitted
    again, top row and docks included; a count on a flag's square sits in its
    corner, clear of the flag's disc."""
    from rallyforge.editor.preview.heatmap_overlay import HeatmapOverlay
    window, c = preview(FIXTURES.parent.parent / "scenarios" / "two-boards.json")   # tall
    window.resize(1400, 900)
    view = window.view
    view.fit()
    QApplication.processEvents()
    dialog = set_up_balance(c, 8, "greedy", robots=4)
    with qtbot.waitSignal(dialog.resultReady, timeout=30000):
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    dialog.close()
    QApplication.processEvents()
    assert c.balance.legend.isVisible()
    in_view = view.mapToScene(view.viewport().rect()).boundingRect()
    board = c.balance.heatmap.boundingRect()
    assert in_view.adjusted(-1, -1, 1, 1).contains(board), (in_view, board)
    # a count on flag 1's square
    flag = window.doc.scenario.flags[0]
    heat = c.balance.result["heatmaps"]
    heat["deaths"][flag.y][flag.x] = 2 * max(max(row) for row in heat["deaths"]) + 1
    c.balance.heatmap.set_heatmaps(heat, [])
    view.set_zoom(1.0)
    view.centre_on_square(flag.x, flag.y)
    boxes = []
    original = HeatmapOverlay.label_box
    monkeypatch.setattr(HeatmapOverlay, "label_box", staticmethod(
        lambda x, y, on_flag: boxes.append(((x, y), on_flag, original(x, y, on_flag)))
        or original(x, y, on_flag)))
    view.viewport().grab()
    box = next(b for square, on_flag, (b, _) in boxes if square == (flag.x, flag.y) and on_flag)
    centre = QPointF((flag.x + 0.5) * SQUARE, (flag.y + 0.5) * SQUARE)
    nearest = QPointF(min(max(centre.x(), box.left()), box.right()),
                      min(max(centre.y(), box.top()), box.bottom()))
    gap = nearest - centre
    assert math.hypot(gap.x(), gap.y()) > 0.35 * SQUARE           # off the flag's disc


def options_fit(table, width: int) -> None:
    """Each row's option cards fit a column `width` wide: on one line, or
    wrapped in a row tall enough to show them all."""
    from PySide6.QtGui import QTextDocumentFragment
    for row in range(table.rowCount()):
        label = table.cellWidget(row, 5)
        if label.wordWrap():
            assert table.rowHeight(row) >= label.heightForWidth(width - 1)
        else:
            m = label.contentsMargins()
            shown = QTextDocumentFragment.fromHtml(label.text()).toPlainText()
            assert label.fontMetrics().horizontalAdvance(shown) <= width - m.left() - m.right()


def test_the_options_rows_fit_the_width_the_column_is_resized_to(qtbot, preview):
    """Qt may say a column was resized while its columnWidth still gives the
    old width: the rows are fitted to the width it says."""
    window, c = preview(FIXTURES / "preview" / "options-showcase.json")
    c.dock.raise_()
    c.panel.setup.use_scenario.setChecked(True)
    with qtbot.waitSignal(c.worker.finished, timeout=10000):
        qtbot.mouseClick(c.panel.setup.run_button, Qt.LeftButton)
    c.player.seek(1)
    table = c.panel.tables.robots
    options_fit(table, table.columnWidth(5))
    table.horizontalHeader().sectionResized.emit(5, table.columnWidth(5), 40)
    options_fit(table, 40)


@pytest.mark.parametrize("size", [(1400, 900), (1280, 800)])
def test_the_options_column_shows_card_names_whole_or_shortened_never_cut(qtbot, preview, size):
    from PySide6.QtGui import QTextDocumentFragment
    from rallyforge.engine.model.option_cards import BY_ID
    window, c = preview(FIXTURES / "preview" / "options-showcase.json")
    window.resize(*size)
    c.dock.raise_()
    c.panel.setup.use_scenario.setChecked(True)
    with qtbot.waitSignal(c.worker.finished, timeout=10000):
        qtbot.mouseClick(c.panel.setup.run_button, Qt.LeftButton)
    c.player.seek(1)
    QApplication.processEvents()
    table = c.panel.tables.robots
    held = {r["name"]: r["options"] for r in json.loads(
        (FIXTURES / "preview" / "options-showcase.json").read_text())["robots"]}
    for row, name in enumerate(c.playback.timeline.names):
        label = table.cellWidget(row, 5)
        shown = QTextDocumentFragment.fromHtml(label.text()).toPlainText()
        for card in held[name]:
            assert BY_ID[card].name in label.toolTip()          # whole in the tooltip
        assert shown.count(",") == len(held[name]) - 1         # every card there
    options_fit(table, table.columnWidth(5))
    window.grab().save(f"/tmp/race-options-{size[0]}.png")
