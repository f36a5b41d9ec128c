"""The engine preview in the editor window: the Race and Race Log docks, the
Race menu, and what ties them to the document and to each other.

A race is played in a worker (editor/preview/race_worker.py) and shown by
playback.py; the Race menu is race_menu.py, the balance check and its
heatmaps balance_link.py, suggested fixes suggest_link.py. Any change to
the course that a race depends on (board, flags, docks, rules, robots) ends
the playback at once and offers to re-run the race with the same seed: the
board never shows a race on a course that no longer exists.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDockWidget

from .balance_link import BalanceLink
from .playback import Playback
from .player import Player
from .race_log import RaceLogPanel
from .race_menu import RaceMenu
from .race_panel import RacePanel
from .race_worker import RaceWorker, race_inputs
from .robots_overlay import RaceOverlay
from .run_worker import stop_all
from .suggest_link import SuggestLink


class PreviewController(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.doc = window.doc
        self.view = window.view
        self.player = Player(self)
        self.overlay = RaceOverlay(self.view.scene())
        self.worker = RaceWorker(self)
        self.panel = RacePanel()
        self.log = RaceLogPanel()
        self.playback = Playback(self.doc, self.view, self.player, self.overlay, self.panel,
                                 self.log, self)
        self.balance = BalanceLink(window, self)
        self.suggest = SuggestLink(window, self)
        self.last_request = None        # the last race asked for (for Re-run)
        self._play_when_ready = False
        self._sized = False

        self._add_docks()
        self.menu = RaceMenu(window, self)
        self._connect()
        self._update_actions()
        self.panel.setup.set_scenario(self.doc.scenario)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    # ------------------------------------------------------------ set-up

    def _add_docks(self) -> None:
        w = self.window
        scenario_dock = w.findChild(QDockWidget, "scenario")
        issues_dock = w.findChild(QDockWidget, "issues")
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.dock = w.docks.add_panel(self.panel, "Race", right, scenario_dock)
        self.log_dock = w.docks.add_panel(self.log, "Race Log", right, issues_dock)
        # the editing panels stay in front until a race is shown
        scenario_dock.raise_()
        issues_dock.raise_()

    def _connect(self) -> None:
        p, panel = self.player, self.panel
        panel.setup.runRequested.connect(self.run_race)
        panel.setup.rerunRequested.connect(self.rerun)
        panel.toStart.connect(p.to_start)
        panel.stepBack.connect(p.step_back)
        panel.playToggled.connect(self.toggle_play)
        panel.stepForward.connect(p.step)
        panel.stepRegister.connect(p.step_register)
        panel.stepRound.connect(p.step_round)
        panel.toEnd.connect(p.to_end)
        panel.seekRequested.connect(p.seek)
        panel.speedChanged.connect(p.set_speed)
        self.log.runChecksRequested.connect(self.run_checks)
        self.playback.shownChanged.connect(self._shown_changed)
        self.balance.suggestRequested.connect(self.suggest.open_for)
        self.worker.finished.connect(self._race_ready)
        self.worker.failed.connect(self._race_failed)
        self.worker.busyChanged.connect(self._busy)
        self.doc.changed.connect(self.on_course_changed)
        self.doc.scenarioReplaced.connect(self.on_course_replaced)

    def _update_actions(self) -> None:
        self.menu.update(self.playback.timeline is not None, self.last_request is not None)

    def _shown_changed(self, shown: bool) -> None:
        if shown:
            self.dock.raise_()
            self._make_room()
        self._update_actions()

    def _make_room(self) -> None:
        """The first time a race is shown: a wider right column, most of it for the Race dock."""
        if self._sized:
            return
        self._sized = True
        if self.dock.isFloating() or self.log_dock.isFloating():
            return
        if self.dock.width() < 430:
            self.window.resizeDocks([self.dock], [430], Qt.Orientation.Horizontal)
            QTimer.singleShot(0, self.view, self.view.fit)     # not once the window is gone

    # ------------------------------------------------------------ racing

    def run_race(self) -> None:
        ok, why = self.panel.setup.can_run()
        if not ok:
            self.panel.setup.status.setText(why)
            return
        seed, count, bots = self.panel.setup.settings()
        self._start_race(self.doc.scenario, seed, count, bots)

    def _start_race(self, scenario, seed, count, bots) -> None:
        self.panel.setup.show_banner(None)
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
        self.panel.setup.show_banner(None)
        self.log.set_checks_busy(True)
        self.log_dock.raise_()
        self.log.tabs.setCurrentIndex(1)
        self.last_request = self.worker.start_checks(self.doc.scenario, 0)
        self._update_actions()

    def toggle_play(self) -> None:
        if self.playback.timeline is None:
            self._play_when_ready = True
            self.run_race()
            return
        self.player.toggle()

    def _busy(self, busy: bool) -> None:
        request = self.worker.request
        if busy and request is not None:
            what = ("Racing the scenario's robots for the course tests…" if request.kind == "checks"
                    else f"Racing (seed {request.seed})…")
            self.panel.setup.set_busy(True, what)
        else:
            self.panel.setup.set_busy(False)
            if not busy:
                self.log.run_checks.setEnabled(True)

    def _race_ready(self, result) -> None:
        request = result.request
        if race_inputs(request.scenario) != race_inputs(self.doc.scenario):
            self.panel.setup.status.setText("")
            self.panel.setup.show_banner("The course changed while the race was played, so it was "
                                   "not shown.")
            if request.kind == "checks":
                self.log.set_check_results([], "The course changed: run the tests again.")
            return
        t = result.timeline
        rounds = t.frames[-1].round
        teams = list(dict.fromkeys(t.sides[name][0] for name in t.winners if name in t.sides))
        if teams:                   # a team course: the team wins (docs/rules.md 13)
            outcome = f"Team {' and '.join(teams)} win{'s' if len(teams) == 1 else ''}"
        elif t.winners:
            outcome = f"{', '.join(t.winners)} win{'s' if len(t.winners) == 1 else ''}"
        else:
            outcome = "no winner"
        checks = (result.checks or []) if request.kind == "checks" else None
        self.playback.show(t, request, checks)
        self.panel.setup.status.setText(f"{rounds} round{'s' * (rounds != 1)}, {outcome} · seed "
                                  f"{request.seed} · {len(t)} steps, ready in "
                                  f"{request.elapsed_s:.2f} s")
        if self._play_when_ready:
            self._play_when_ready = False
            self.player.play()

    def _race_failed(self, request, message: str) -> None:
        self._play_when_ready = False
        text = f"The race could not be played: {message}"
        self.panel.setup.status.setText(text)
        if request is not None and request.kind == "checks":
            self.log.set_check_results([], text)

    # ------------------------------------------------------------ the course changes

    def on_course_changed(self, area=None) -> None:
        scenario = self.doc.scenario
        self.panel.setup.set_scenario(scenario)
        self.balance.course_changed(scenario)
        self.suggest.course_changed(scenario)
        shown = self.playback.shown
        if shown is not None and race_inputs(shown.scenario) != race_inputs(scenario):
            self.playback.clear(f"The race is out of date: the course changed after it was "
                                f"played, so it was cleared. Re-run it with seed {shown.seed}?",
                                offer_rerun=self.last_request is not None)
            self.panel.setup.status.setText("Out of date: the course changed since the last race.")

    def on_course_replaced(self) -> None:
        self.worker.cancel()
        self.last_request = None
        self.playback.clear()
        self.panel.setup.status.setText("No race yet.")
        self.balance.clear()
        self.log.set_check_results([], "")

    # ------------------------------------------------------------ closing

    def shutdown(self) -> None:
        """Stop the playback and every worker (the window is closing)."""
        self.player.clear()
        self.worker.cancel()
        self.worker.wait(10000)
        self.suggest.shutdown()
        self.balance.shutdown()
        stop_all()          # the Course Card's quick runs too
