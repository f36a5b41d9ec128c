"""The race on screen: its timeline (engine/analysis/replay.py) played by the
Player through the robot markers (robots_overlay.py), the board as the race
turned it, and the Race and Race Log panels in step; a jump to an event, or
to a course test's moment with the square it expected; and the race taken
off the board.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from rallyforge.engine.analysis.replay import board_at, turned_boards

from .player import Player
from .race_panel import RacePanel
from .race_log import RaceLogPanel
from .robots_overlay import RaceOverlay


class Playback(QObject):
    shownChanged = Signal(bool)         # a race is on the board, or none is

    def __init__(self, doc, view, player: Player, overlay: RaceOverlay, panel: RacePanel,
                 log: RaceLogPanel, parent=None):
        super().__init__(parent)
        self.doc, self.view = doc, view
        self.player, self.overlay, self.panel, self.log = player, overlay, panel, log
        self.timeline = None
        self.shown = None               # the RaceRequest of the race on screen
        self._turns: list = []          # the boards turned in that race (replay.turned_boards)
        self.check_results: list = []   # the course tests of that race, if it played them
        self._expect_frame: int | None = None
        player.positionChanged.connect(overlay.show)
        player.frameChanged.connect(self._frame_changed)
        player.playingChanged.connect(panel.set_playing)
        log.eventActivated.connect(self.jump_to_event)
        log.checkActivated.connect(self.jump_to_check)

    def show(self, timeline, request=None, checks=None) -> None:
        """Put the race on the board at its start; `checks` are its course
        tests' results (the first failure is shown at once)."""
        self.timeline = timeline
        self.shown = request
        self._turns = turned_boards(request.scenario, timeline.events) if request else []
        self._expect_frame = None
        self.overlay.set_timeline(timeline, request.scenario if request else None)
        self.panel.set_timeline(timeline)
        self.log.set_timeline(timeline)
        self.player.set_timeline(timeline, 0)
        self.panel.setup.show_banner(None)
        self.shownChanged.emit(True)
        if checks is not None:
            self.check_results = list(checks)
            self.log.set_check_results(self.check_results)
            failed = [i for i, r in enumerate(self.check_results) if not r.passed]
            if failed:
                self.log.select_check(failed[0])        # jumps there

    def clear(self, reason: str | None = None, offer_rerun: bool = False) -> None:
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
            self.panel.setup.show_banner(reason, offer_rerun)
        self.shownChanged.emit(False)

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
