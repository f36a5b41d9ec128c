"""The Course card panel: how long, how hard and how fair the course is.

While the panel is shown, after every edit, a quick balance run
(ESTIMATE_RACES races, one worker thread, never the GUI thread) refreshes
the card; the next edit cancels it and drops its result. A course with
errors is not raced: the panel lists them, with a button to the Issues
panel. A card is shown as final ("Measured") only when a full balance run
of this very course made it (the Balance dialog, or the card kept in the
file); a quick run's card says "Estimate", and one made before the last
edit says "Out of date" and is greyed until the next estimate replaces it.
"""
from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from rallyforge.editor.course_errors import ErrorsBox
from rallyforge.editor.preview.balance_run import balance_worker
from rallyforge.editor.preview.run_worker import RunWorker, keep_alive
from rallyforge.engine.analysis.balance.play import default_bot
from rallyforge.engine.analysis.course_card.build import judged, lines, readable
from rallyforge.engine.format.stored_course_card import play_hash
from rallyforge.engine.model.scenario import robots_for
from rallyforge.engine.validation.validator import race_errors

if TYPE_CHECKING:
    from rallyforge.engine.analysis.balance.types import BalanceResult
    from rallyforge.engine.analysis.course_card.types import CourseCard

ESTIMATE_RACES = 200
DELAY_MS = 300          # quiet time after an edit before the estimate starts
BALANCE_MENU = "Race ▸ Balance Check…"     # where the full run is, as the menu names it

MEASURED, ESTIMATE, OUT_OF_DATE, WAITING, BLOCKED = (
    "Measured", "Estimate", "Out of date", "Estimating", "No estimate")


def _headed(line: str) -> str:
    """A card line with its heading (up to the first colon) in bold."""
    head, _, rest = line.partition(":")
    return f"<b>{html.escape(head)}:</b>{html.escape(rest)}"


class CourseCardPanel(QWidget):
    shown = Signal(str)             # the state just shown (MEASURED, ESTIMATE, ...)
    issuesRequested = Signal()      # Show Issues, for a course with errors

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.card: CourseCard | None = None
        self.card_hash: str | None = None       # play_hash of the course the card describes
        self.worker: RunWorker | None = None
        self.state = BLOCKED
        self.blocked = False                    # no estimate: no docks or flags, or errors
        self.errors: list = []                  # the errors the last estimate was refused for
        self.on_screen = False                  # hidden, it runs nothing
        self._hashed: tuple = (None, None)      # (scenario, its play_hash)
        # the card scrolls: with goals it is taller than the panel's usual height
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        self.scroll_area.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll_area)
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(6, 6, 6, 6)
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(self.body.textFormat().RichText)
        self.error_box = ErrorsBox()
        self.error_box.showIssues.connect(self.issuesRequested.emit)
        layout.addWidget(self.header)
        layout.addWidget(self.error_box)
        layout.addWidget(self.body)
        layout.addStretch()
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DELAY_MS)
        self.timer.timeout.connect(self.estimate)
        doc.changed.connect(lambda area: self.course_changed())
        doc.scenarioReplaced.connect(self.course_replaced)
        self.course_replaced()

    # ------------------------------------------------------------ inputs

    def course_replaced(self) -> None:
        """A file opened (or a new course): its kept card is final if it
        matches (and is whole: the file may keep only a hash)."""
        stored = self.doc.scenario.card
        if stored is not None and stored.play_hash == self.course_hash() \
                and readable(stored.data) and not race_errors(self.doc.scenario):
            self.card, self.card_hash = stored.data, stored.play_hash
        self.course_changed()

    def course_changed(self) -> None:
        self.blocked = False
        self.errors = []
        self._cancel()
        if self.on_screen:
            self.timer.start()
        self.show_card()

    def set_on_screen(self, visible: bool) -> None:
        """Its dock shown or hidden (a tab brought to the front, or not)."""
        self.on_screen = visible
        if visible and not self.fresh and self.worker is None:
            self.timer.start()              # hidden, it was not kept up to date
            self.show_card()

    def show_measured(self, card: CourseCard | None) -> None:
        """A full balance run's card; kept only if it is of the course as it is."""
        if card is not None and card.get("play_hash") == self.course_hash():
            self._cancel()
            self.timer.stop()
            self.card, self.card_hash = card, card["play_hash"]
            self.show_card()

    # ------------------------------------------------------------ the quick run

    def estimate(self) -> None:
        scenario = self.doc.scenario
        if self.fresh and self.card is not None and not self.card.get("estimate"):
            return                              # a measured card of this course stands
        if not scenario.docks or not scenario.flags:
            self.blocked = True
            self.show_card()
            return
        robots = robots_for(scenario.goals, len(scenario.docks))
        # no parent: a run outlives a closed window (told to stop, its result dropped)
        # the card reads no time trial: none is played
        worker = balance_worker(scenario, ESTIMATE_RACES, robots, default_bot(), 0, 1, trials=0)
        keep_alive(worker)
        worker.done.connect(self._estimated)
        worker.failed.connect(self._failed)
        worker.refused.connect(self._refused)
        self.worker = worker
        worker.start()
        self.show_card()

    def _estimated(self, result: BalanceResult) -> None:
        worker = self.sender()
        if worker is not self.worker or worker.scenario is not self.doc.scenario \
                or worker.cancelled:
            return                              # an edit came since: not this course
        self.worker = None
        self.blocked = False
        self.card = {**result["card"], "estimate": True}
        self.card_hash = self.card["play_hash"]
        self.show_card()

    def _failed(self, message: str) -> None:
        if self.sender() is self.worker:
            self.worker = None
            self.blocked = True
            self.show_card()
            self.header.setText(f"<b>{BLOCKED}</b> — the quick run failed: {message}")

    def _refused(self, problems: list) -> None:
        if self.sender() is self.worker:
            self.worker = None
            self.blocked = True
            self.errors = problems
            self.show_card()

    def _cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None

    # ------------------------------------------------------------ showing

    def course_hash(self) -> str:
        scenario = self.doc.scenario
        if self._hashed[0] is not scenario:
            self._hashed = (scenario, play_hash(scenario))
        return self._hashed[1]

    @property
    def fresh(self) -> bool:
        return self.card_hash is not None and self.card_hash == self.course_hash()

    def show_card(self) -> None:
        card = self.card
        busy = self.worker is not None or self.timer.isActive()
        if card is not None and self.fresh:
            state = ESTIMATE if card.get("estimate") else MEASURED
        elif busy:
            state = WAITING if card is None else OUT_OF_DATE
        elif self.blocked or card is None:
            state = BLOCKED
        else:
            state = OUT_OF_DATE
        self.state = state
        played = (f"{card['races']} races of {card['robots']} robots (bot {card['bot']})"
                  if card else "")
        how = {
            MEASURED: f"a full balance run of this course: {played}.",
            ESTIMATE: f"a quick run of {played}; a balance run ({BALANCE_MENU}) measures it.",
            OUT_OF_DATE: "the course changed since. Updating…" if busy else
                         "the course changed since.",
            WAITING: "Estimating…",
            BLOCKED: "the course has errors." if self.errors else
                     "place a dock and a flag for an estimate." if self.blocked else
                     "no estimate yet.",
        }[state]
        self.header.setText(f"<b>{state}</b> — {how}")
        # the goals are not in the play hash: judged against the course's goals as they are now
        refused = state == BLOCKED and bool(self.errors)      # its errors, not an old card
        body = lines(judged(card, self.doc.scenario.goals, self.doc.scenario.published))[1:] \
            if card is not None and not refused else []
        self.body.setText("<br>".join(_headed(line) for line in body))
        self.body.setEnabled(state in (MEASURED, ESTIMATE))
        if refused:
            self.error_box.show_errors(self.errors)
        else:
            self.error_box.hide()
        self.shown.emit(state)
