"""The engine preview in the editor window: the Race and Race Log docks, the
Race menu, the robots and heatmaps on the board, and what ties them to the
document.

A race is played in a worker (editor/preview/race_worker.py) and shown as a
timeline (engine/analysis/replay.py, drawn with animation.py) by a player (player.py) that drives the robot items
(robots_overlay.py) and the panels (race_panel.py). Any change to the course
that a race depends on (board, flags, docks, rules, robots) ends the
playback at once and offers to re-run the race with the same seed: the
board never shows a race on a course that no longer exists.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QDockWidget

from rallyforge.engine.analysis.replay import board_at, turned_boards
from rallyforge.engine.model.element_kinds import DEATH_CAUSES

from .heatmap_overlay import CAUSE_NAMES, HeatmapLegend, HeatmapOverlay, mode_title
from .player import Player
from .race_panel import RaceLogPanel, RacePanel
from .race_worker import RaceWorker
from .robots_overlay import RaceOverlay
from .suggest_ghost import SuggestionGhost


def race_inputs(scenario) -> tuple:
    """What a race depends on: not the name, author, notes or checks."""
    return (scenario.board, scenario.flags, scenario.docks, scenario.rules, scenario.robots)


class PreviewController(QObject):
    balanceMeasured = Signal(object)        # the course card of a balance run's result

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.doc = window.doc
        self.view = window.view
        scene = self.view.scene()
        self.player = Player(self)
        self.overlay = RaceOverlay(scene)
        self.heatmap = HeatmapOverlay(lambda: {(f.x, f.y) for f in self.doc.scenario.flags})
        scene.addItem(self.heatmap)
        self.legend = HeatmapLegend(self.view)
        self.view.tooltip_sources.append(self.heatmap.tooltip_at)
        self.suggestion_ghost = SuggestionGhost()
        scene.addItem(self.suggestion_ghost)
        self.worker = RaceWorker(self)
        self.panel = RacePanel()
        self.log = RaceLogPanel()
        self.timeline = None
        self.shown = None               # the RaceRequest of the race on screen
        self._turns: list = []          # the boards turned in that race (replay.turned_boards)
        self.last_request = None        # the last race asked for (for Re-run)
        self.check_results: list = []
        self._expect_frame: int | None = None
        self._play_when_ready = False
        self.balance_dialog = None
        self.balance_result: dict | None = None
        self.balance_scenario = None
        self.suggest_dialog = None
        self.heatmap_mode: str | None = None
        self._sized = False

        self._add_docks()
        self._add_actions()
        self._connect()
        self.panel.set_scenario(self.doc.scenario)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    # ------------------------------------------------------------ set-up

    def _add_docks(self) -> None:
        w = self.window
        scenario_dock = w.findChild(QDockWidget, "scenario")
        issues_dock = w.findChild(QDockWidget, "issues")
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.dock = w.add_panel(self.panel, "Race", right, scenario_dock)
        self.log_dock = w.add_panel(self.log, "Race Log", right, issues_dock)
        # the editing panels stay in front until a race is shown
        scenario_dock.raise_()
        issues_dock.raise_()

    def _add_actions(self) -> None:
        p = self.player
        a = self.actions = {
            "run": self.window.action("&Run Race", self.run_race, "F5",
                                "Play a race with the Race panel's robots and seed"),
            "rerun": self.window.action("Re-run, Same Se&ed", self.rerun, "Ctrl+F5",
                                  "Play the last race again on the course as it is now"),
            "play": self.window.action("&Play / Pause", self.toggle_play, "F6"),
            "step": self.window.action("&Step", p.step, "F7",
                                 "One step: a card, belts, pushers, gears, lasers, checkpoints"),
            "back": self.window.action("Step &Back", p.step_back, "Shift+F7"),
            "step_register": self.window.action("Step Re&gister", p.step_register, "F8"),
            "step_round": self.window.action("Step R&ound", p.step_round, "F9"),
            "clear": self.window.action("&Clear Race", lambda: self.end_playback(None),
                                  tip="Take the robots off the board"),
            "checks": self.window.action("Run Course &Tests", self.run_checks, "Ctrl+T",
                                   "Race the scenario's robots and compare its checks"),
            "balance": self.window.action("Bal&ance Check…", self.open_balance,
                                    tip="Race the course many times and judge its docks"),
            "suggest": self.window.action("Su&ggest Fixes…", self.open_suggest,
                                    tip="Search for small edits that bring the course closer "
                                        "to its goals: fair docks, a length, fewer deaths"),
        }
        menu = self.menu = self.window.menuBar().addMenu("&Race")
        self.window.menus["race"] = menu
        menu.addActions([a["run"], a["rerun"]])
        menu.addSeparator()
        menu.addActions([a["play"], a["step"], a["back"], a["step_register"],
                         a["step_round"], a["clear"]])
        menu.addSeparator()
        menu.addAction(a["checks"])
        menu.addSeparator()
        menu.addAction(a["balance"])
        menu.addAction(a["suggest"])
        self.heat_menu = menu.addMenu("&Heatmap")
        self.heat_group = QActionGroup(self)
        self.heat_group.setExclusive(True)
        self.heat_actions: dict[str | None, QAction] = {}
        modes = [(None, "&Off"), ("deaths", "&Deaths"), ("deaths_by_cause", "Deaths by &Cause")]
        modes += [(f"deaths:{c}", f"Deaths: {CAUSE_NAMES[c]}") for c in DEATH_CAUSES]
        modes += [("occupancy", "&Occupancy")]
        for mode, text in modes:
            action = self.window.action(text, lambda _=False, m=mode: self.set_heatmap_mode(m),
                                  checkable=True)
            if mode is not None:
                action.setStatusTip(mode_title(mode))
            self.heat_group.addAction(action)
            self.heat_menu.addAction(action)
            self.heat_actions[mode] = action
            if mode in ("deaths_by_cause", f"deaths:{DEATH_CAUSES[-1]}"):
                self.heat_menu.addSeparator()
        self.heat_actions[None].setChecked(True)
        self.heat_menu.setEnabled(False)
        self._update_actions()

    def _connect(self) -> None:
        p, panel, log = self.player, self.panel, self.log
        p.positionChanged.connect(self.overlay.show)
        p.frameChanged.connect(self._frame_changed)
        p.playingChanged.connect(panel.set_playing)
        panel.runRequested.connect(self.run_race)
        panel.rerunRequested.connect(self.rerun)
        panel.toStart.connect(p.to_start)
        panel.stepBack.connect(p.step_back)
        panel.playToggled.connect(self.toggle_play)
        panel.stepForward.connect(p.step)
        panel.stepRegister.connect(p.step_register)
        panel.stepRound.connect(p.step_round)
        panel.toEnd.connect(p.to_end)
        panel.seekRequested.connect(p.seek)
        panel.speedChanged.connect(p.set_speed)
        log.eventActivated.connect(self.jump_to_event)
        log.runChecksRequested.connect(self.run_checks)
        log.checkActivated.connect(self.jump_to_check)
        self.worker.finished.connect(self._race_ready)
        self.worker.failed.connect(self._race_failed)
        self.worker.busyChanged.connect(self._busy)
        self.doc.changed.connect(self.on_course_changed)
        self.doc.scenarioReplaced.connect(self.on_course_replaced)

    def _update_actions(self) -> None:
        on = self.timeline is not None
        for key in ("step", "back", "step_register", "step_round", "clear"):
            self.actions[key].setEnabled(on)
        self.actions["rerun"].setEnabled(self.last_request is not None)

    # ------------------------------------------------------------ racing

    def run_race(self) -> None:
        ok, why = self.panel.can_run()
        if not ok:
            self.panel.status.setText(why)
            return
        seed, count, bots = self.panel.settings()
        self._start_race(self.doc.scenario, seed, count, bots)

    def _start_race(self, scenario, seed, count, bots) -> None:
        self.panel.show_banner(None)
        self.last_request = self.worker.start_race(scenario, seed, count, bots)
        self._update_actions()

    def rerun(self) -> None:
        """The last race (or course tests) again, on the course as it is now."""
        last = self.last_request
        if last is None:
            self.run_race()
            return
        if last.kind == "checks":
            self.run_checks()
            return
        scenario = self.doc.scenario
        count = last.robot_count
        if count is not None:
            count = min(count, len(scenario.docks))
        bots = last.bots[:count] if last.bots is not None and count is not None else None
        self._start_race(scenario, last.seed, count, bots)

    def run_checks(self) -> None:
        self.panel.show_banner(None)
        self.log.set_checks_busy(True)
        self.log_dock.raise_()
        self.log.tabs.setCurrentIndex(1)
        self.last_request = self.worker.start_checks(self.doc.scenario, 0)
        self._update_actions()

    def toggle_play(self) -> None:
        if self.timeline is None:
            self._play_when_ready = True
            self.run_race()
            return
        self.player.toggle()

    def _busy(self, busy: bool) -> None:
        request = self.worker.request
        if busy and request is not None:
            what = ("Racing the scenario's robots for the course tests…" if request.kind == "checks"
                    else f"Racing (seed {request.seed})…")
            self.panel.set_busy(True, what)
        else:
            self.panel.set_busy(False)
            if not busy:
                self.log.run_checks.setEnabled(True)

    def _race_ready(self, result) -> None:
        request = result.request
        if race_inputs(request.scenario) != race_inputs(self.doc.scenario):
            self.panel.status.setText("")
            self.panel.show_banner("The course changed while the race was played, so it was "
                                   "not shown.")
            if request.kind == "checks":
                self.log.set_check_results([], "The course changed: run the tests again.")
            return
        self.show_timeline(result.timeline, request)
        t = result.timeline
        rounds = t.frames[-1].round
        teams = list(dict.fromkeys(t.sides[name][0] for name in t.winners if name in t.sides))
        if teams:                   # a team course: the team wins (docs/rules.md 13)
            outcome = f"Team {' and '.join(teams)} win{'s' if len(teams) == 1 else ''}"
        elif t.winners:
            outcome = f"{', '.join(t.winners)} win{'s' if len(t.winners) == 1 else ''}"
        else:
            outcome = "no winner"
        self.panel.status.setText(f"{rounds} round{'s' * (rounds != 1)}, {outcome} · seed "
                                  f"{request.seed} · {len(t)} steps, ready in "
                                  f"{request.elapsed_s:.2f} s")
        if request.kind == "checks":
            self.check_results = list(result.checks or [])
            self.log.set_check_results(self.check_results)
            failed = [i for i, r in enumerate(self.check_results) if not r.passed]
            if failed:
                self.log.select_check(failed[0])        # jumps there
        if self._play_when_ready:
            self._play_when_ready = False
            self.player.play()

    def _race_failed(self, request, message: str) -> None:
        self._play_when_ready = False
        text = f"The race could not be played: {message}"
        self.panel.status.setText(text)
        if request is not None and request.kind == "checks":
            self.log.set_check_results([], text)

    def show_timeline(self, timeline, request=None) -> None:
        self.timeline = timeline
        self.shown = request
        self._turns = turned_boards(request.scenario, timeline.events) if request else []
        self._expect_frame = None
        self.overlay.set_timeline(timeline, request.scenario if request else None)
        self.panel.set_timeline(timeline)
        self.log.set_timeline(timeline)
        self.player.set_timeline(timeline, 0)
        self.panel.show_banner(None)
        self.dock.raise_()
        self._make_room()
        self._update_actions()

    def _make_room(self) -> None:
        """The first time a race is shown: a wider right column, most of it for the Race dock."""
        if self._sized:
            return
        self._sized = True
        w = self.window
        if self.dock.isFloating() or self.log_dock.isFloating():
            return
        if self.dock.width() < 430:
            w.resizeDocks([self.dock], [430], Qt.Orientation.Horizontal)
            QTimer.singleShot(0, self.view, self.view.fit)     # not once the window is gone

    def end_playback(self, reason: str | None, rerun: bool = True) -> None:
        """Take the race off the board (and say why, offering a re-run)."""
        had = self.timeline is not None
        self.player.clear()
        self.overlay.clear()
        self.view.board_item.show_race_board(None)
        self.timeline = None
        self.shown = None
        self._expect_frame = None
        self.panel.set_timeline(None)
        self.log.set_timeline(None)
        if self.check_results:
            self.check_results = []
            self.log.set_check_results([], "The course changed: run the tests again.")
        if reason and had:
            self.panel.show_banner(reason, rerun and self.last_request is not None)
        self._update_actions()

    # ------------------------------------------------------------ following the playback

    def _frame_changed(self, i: int) -> None:
        if self.timeline is not None:          # a factory board may have turned (rules 12.10)
            self.view.board_item.show_race_board(
                board_at(self._turns, self.timeline.frames[i].events[1]))
        self.panel.show_frame(i)
        self.log.show_frame(self.timeline, i)
        if self._expect_frame is not None and i != self._expect_frame:
            self._expect_frame = None
            self.overlay.hide_expectation()

    def jump_to_event(self, index: int) -> None:
        if self.timeline is not None and 0 <= index < len(self.timeline.events):
            self.player.seek(self.timeline.frame_of_event(index))

    def jump_to_check(self, row: int) -> None:
        if self.timeline is None or not 0 <= row < len(self.check_results):
            return
        result = self.check_results[row]
        check = result.check
        frame = self.timeline.moment_frame(check.round, check.register)
        self.player.seek(frame)
        self.overlay.hide_expectation()
        expected = result.expected
        if not result.passed and result.actual:
            state = self.timeline.frames[frame].robot(check.robot)
            x = expected.get("x", state.x)
            y = expected.get("y", state.y)
            if x is not None and y is not None and \
                    self.doc.scenario.board.in_bounds(x, y):
                self.overlay.show_expectation(x, y, expected.get("facing"),
                                              f"{check.robot} expected")
                self._expect_frame = frame
                self.view.centre_on_square(x, y)

    # ------------------------------------------------------------ the course changes

    def on_course_changed(self, area=None) -> None:
        scenario = self.doc.scenario
        self.panel.set_scenario(scenario)
        if self.balance_dialog is not None:
            self.balance_dialog.refresh_course()
        if self.suggest_dialog is not None:
            self.suggest_dialog.refresh_course()
        self.suggestion_ghost.show_edit(scenario, None)
        if self.shown is not None and race_inputs(self.shown.scenario) != race_inputs(scenario):
            seed = self.shown.seed
            self.end_playback(f"The race is out of date: the course changed after it was "
                              f"played, so it was cleared. Re-run it with seed {seed}?")
            self.panel.status.setText("Out of date: the course changed since the last race.")
        if self.balance_result is not None and self.balance_scenario is not None:
            old, new = self.balance_scenario.board, scenario.board
            if (old.width, old.height) != (new.width, new.height):
                self.clear_heatmap()
            elif race_inputs(self.balance_scenario) != race_inputs(scenario):
                self._legend(note="from before your last edits")

    def on_course_replaced(self) -> None:
        self.worker.cancel()
        self.last_request = None
        self.end_playback(None)
        self.panel.status.setText("No race yet.")
        self.clear_heatmap()
        self.log.set_check_results([], "")

    # ------------------------------------------------------------ balance

    def open_balance(self):
        from .balance_dialog import BalanceDialog
        if self.balance_dialog is None:
            self.balance_dialog = BalanceDialog(lambda: self.doc.scenario, self.window)
            self.balance_dialog.resultReady.connect(self.set_balance_result)
            self.balance_dialog.heatmapRequested.connect(self.set_heatmap_mode)
            self.balance_dialog.suggestRequested.connect(self.suggest_from_balance)
            self.balance_dialog.issuesRequested.connect(self.window.show_issues)
        self.balance_dialog.refresh_course()
        self.balance_dialog.show()
        self.balance_dialog.raise_()
        return self.balance_dialog

    def set_balance_result(self, result: dict, scenario=None) -> None:
        self.balance_result = result
        self.balance_scenario = scenario or (self.balance_dialog.result_scenario
                                             if self.balance_dialog else self.doc.scenario)
        self.heatmap.set_heatmaps(result["heatmaps"], result["reentry_loops"])
        self.heat_menu.setEnabled(True)
        self.set_heatmap_mode("deaths")
        self.view.fit()         # the legend's strip took room: the whole board in view again
        if not result.get("cancelled"):
            self.balanceMeasured.emit(result.get("card"))

    def set_heatmap_mode(self, mode: str | None) -> None:
        if self.balance_result is None:
            mode = None
        self.heatmap_mode = mode
        self.heatmap.set_mode(mode)
        self.heat_actions[mode].setChecked(True)
        if self.balance_dialog is not None:
            self.balance_dialog.set_heatmap_mode(mode)
        note = ""
        if mode is not None and self.balance_scenario is not None and \
                race_inputs(self.balance_scenario) != race_inputs(self.doc.scenario):
            note = "from before your last edits"
        self._legend(note)

    def _legend(self, note: str = "") -> None:
        r = self.balance_result
        if self.heatmap_mode is None or r is None:
            self.legend.set_scale(None, 0.0)
            return
        if not note:
            note = f"{r['races']} races of {r['robots']} {r['bot']} robots"
        self.legend.set_scale(self.heatmap_mode, self.heatmap.peak, note)

    def clear_heatmap(self) -> None:
        self.balance_result = None
        self.balance_scenario = None
        self.heatmap.set_heatmaps(None)
        self.set_heatmap_mode(None)
        self.heat_menu.setEnabled(False)

    # ------------------------------------------------------------ suggested fixes

    def open_suggest(self):
        from .suggest_dialog import SuggestDialog
        if self.suggest_dialog is None:
            self.suggest_dialog = SuggestDialog(lambda: self.doc.scenario, self.window)
            self.suggest_dialog.previewRequested.connect(self.preview_suggestion)
            self.suggest_dialog.applyRequested.connect(self.apply_suggestion)
            self.suggest_dialog.issuesRequested.connect(self.window.show_issues)
        self.suggest_dialog.refresh_course()
        self.suggest_dialog.show()
        self.suggest_dialog.raise_()
        return self.suggest_dialog

    def suggest_from_balance(self, robots: int) -> None:
        """The balance dialog's Suggest Fixes: the search dialog, for as many
        robots per race as the balance check, ready to start."""
        dialog = self.open_suggest()
        if dialog.worker is None:
            dialog.robots.setValue(robots)

    def _fitting(self, searched, suggestion):
        """The course with `suggestion` applied, if the course still races as
        the one searched (names and notes may have changed), else None."""
        if suggestion is None or searched is None or \
                race_inputs(searched) != race_inputs(self.doc.scenario):
            return None
        from rallyforge.engine.analysis.suggest import applied
        return applied(self.doc.scenario, suggestion)

    def preview_suggestion(self, searched, suggestion) -> None:
        self.suggestion_ghost.show_edit(self.doc.scenario, self._fitting(searched, suggestion))

    def apply_suggestion(self, searched, suggestion) -> None:
        """Apply a suggestion as one undo step, if it still fits the course."""
        dialog = self.suggest_dialog
        assert dialog is not None               # the suggestion came from it
        after = self._fitting(searched, suggestion)
        if after is None:
            dialog.status.setText("The course has changed since the search: "
                                               "search again for suggestions that fit it.")
            return
        from rallyforge.editor import commands
        words = "; ".join(e["words"] for e in suggestion["edits"])
        commands.change(self.doc, after, f"Suggested fix: {words}")
        dialog.status.setText(f"Applied: {words}. Undo takes it back.")

    # ------------------------------------------------------------ closing

    def shutdown(self) -> None:
        """Stop the playback and every worker (the window is closing)."""
        self.player.clear()
        self.worker.cancel()
        self.worker.wait(10000)
        if self.suggest_dialog is not None and self.suggest_dialog.worker is not None:
            self.suggest_dialog.worker.cancel()
            self.suggest_dialog.worker.wait(10000)
        from .balance_dialog import stop_all
        if self.balance_dialog is not None and self.balance_dialog.worker is not None:
            self.balance_dialog.worker.cancel()
        stop_all()          # the Course Card's quick runs too
        if self.balance_dialog is not None:
            self.balance_dialog.pool.waitForDone(10000)
