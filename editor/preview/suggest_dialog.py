"""Suggest Fixes: rallyforge.engine.analysis.suggest in a worker thread (progress, Cancel with
the ranking so far), the ranked edits it finds, one previewed on the board
when chosen, and applied as one undo step.

The goals start as the course's own (``goals`` in the file, else fair
docks). The dialog only proposes; the controller previews and applies (it
owns the board and the undo stack), and refuses a suggestion once what a
race depends on has changed since the search.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QListWidget,
    QListWidgetItem, QPushButton, QSpinBox, QVBoxLayout,
)

from rallyforge.engine.analysis.balance.runner import default_workers
from rallyforge.engine.analysis.course_card.timemodel import CLASSES as LENGTH_CLASSES
from rallyforge.engine.analysis.suggest.types import Suggestion, SuggestResult
from rallyforge.engine.model.scenario import Goals, Scenario

from .run_dialog import RunDialog, clock
from .run_worker import RunWorker


class SuggestDialog(RunDialog):
    previewRequested = Signal(object, object)   # the course searched, a suggestion (or None)
    applyRequested = Signal(object, object)     # the course searched, a suggestion

    starting_text = "Racing the course to find where the trouble is…"
    failed_text = "The search failed"

    def __init__(self, scenario_source, parent=None):
        """`scenario_source()` gives the course to search from (the document's, now)."""
        super().__init__("Suggest Fixes", scenario_source, parent)
        import rallyforge.engine.analysis.suggest  # noqa: F401  (imported here, not in the worker: see balance_dialog)
        self.found: SuggestResult | None = None
        self.resize(620, 560)

        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.fair = QCheckBox("every dock wins as often")
        self.length = QComboBox()
        self.length.addItems(["(any)", *LENGTH_CLASSES])
        self.rounds = QSpinBox()
        self.rounds.setRange(0, 10000)
        self.rounds.setSpecialValueText("(any)")
        self.deaths = QDoubleSpinBox()
        self.deaths.setRange(0.0, 10.0)
        self.deaths.setSingleStep(0.1)
        self.deaths.setSpecialValueText("(any)")
        self.robots.setValue(4)
        self.budget = QSpinBox()
        from rallyforge.engine.analysis.suggest import DEFAULT_BUDGET, MIN_BUDGET
        self.budget.setRange(MIN_BUDGET, 1_000_000)
        self.budget.setSingleStep(1000)
        self.budget.setValue(DEFAULT_BUDGET)
        self.budget.setToolTip(f"About how many races the search plays (at least {MIN_BUDGET}); "
                               f"a small budget races fewer candidate edits, the most promising")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.workers = QSpinBox()
        self.workers.setRange(1, default_workers())
        self.workers.setValue(default_workers())
        form.addRow("Fair docks", self.fair)
        form.addRow("Length class", self.length)
        form.addRow("Median rounds", self.rounds)
        form.addRow("Deaths per robot per leg, at most", self.deaths)
        form.addRow("Robots per race", self.robots)
        form.addRow("Races to spend", self.budget)
        form.addRow("Seed", self.seed)
        form.addRow("Workers", self.workers)
        layout.addLayout(form)

        self.add_run_controls(layout, "Search")
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.setSpacing(3)
        layout.addWidget(self.list, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setEnabled(False)
        self.close_button = QPushButton("Close")
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.close_button)
        layout.addLayout(buttons)

        self.close_button.clicked.connect(self.close)
        self.apply_button.clicked.connect(self.apply_chosen)
        self.list.currentRowChanged.connect(self._chosen)
        self.refresh_course()
        self.set_goals(self.scenario_source().goals or Goals())

    # ------------------------------------------------------------ goals

    def set_goals(self, goals: Goals) -> None:
        self.fair.setChecked(goals.fair)
        self.length.setCurrentText(goals.length or "(any)")
        self.rounds.setValue(goals.rounds or 0)
        self.deaths.setValue(goals.deaths_per_leg or 0.0)
        if goals.robots:
            self.robots.setValue(goals.robots)

    def goals(self) -> Goals:
        length = self.length.currentText()
        return Goals(fair=self.fair.isChecked(),
                     length=length if length in LENGTH_CLASSES else None,
                     rounds=self.rounds.value() or None,
                     deaths_per_leg=self.deaths.value() or None)

    # ------------------------------------------------------------ running

    def start(self) -> None:
        if self.worker is None:
            self.clear_suggestions()
        super().start()

    def make_worker(self, scenario: Scenario, robots: int) -> RunWorker:
        from rallyforge.engine.analysis.suggest import suggest
        goals, budget, seed, workers = (self.goals(), self.budget.value(), self.seed.value(),
                                        self.workers.value())
        return RunWorker(scenario, lambda progress, should_stop: suggest(
            scenario, goals, robots, budget, seed, workers=workers, progress=progress,
            should_stop=should_stop))

    def planned(self) -> int:
        return self.budget.value()

    def show_done(self, result: SuggestResult) -> None:
        from rallyforge.engine.analysis.suggest.effect_words import suggestion_lines
        self.found = result
        self.progress.setValue(self.progress.maximum())
        unclear = result["goals"]["fair"] and result["fairness"] not in (None, "unfair")
        if result["cancelled"]:
            self.status.setText(f"Stopped after {result['races']} races: " + (
                "the ranking so far, on fewer races (wider intervals)."
                if result["suggestions"] or result["ideas"] else "no fix yet."))
        elif unclear and not result["candidates"]:
            self.status.setText(f"The seats show no clear unfairness in {result['races']} races "
                                f"(verdict: {result['fairness']}): nothing to fix.")
        elif not result["suggestions"]:
            self.status.setText(f"{result['screened']} edits screened, {result['candidates']} "
                                f"raced on {result['races']} races: none brings the course "
                                f"clearly closer to its goals.")
        else:
            self.status.setText(f"{result['screened']} edits screened, {result['candidates']} "
                                f"raced on {result['races']} races "
                                f"in {clock(result['elapsed_s'])}. Choose one to see it on the "
                                f"board.")
        for s in result["suggestions"]:
            fix = suggestion_lines(result, s, "clearly closer to the goals")
            self.list.addItem(QListWidgetItem("\n".join(fix)))
        if result["ideas"]:         # shown, never chosen: the races could not confirm them
            ideas = ["\n".join(suggestion_lines(result, s, "perhaps closer to the goals", "idea "))
                     for s in result["ideas"]]
            for text in ["Untried as fixes (they seemed better, but the races could not tell "
                         "them from no change):", *ideas]:
                item = QListWidgetItem(text)
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                self.list.addItem(item)
        self.resultReady.emit(result)

    def closeEvent(self, event) -> None:
        super().closeEvent(event)
        self.previewRequested.emit(None, None)

    # ------------------------------------------------------------ choosing

    def clear_suggestions(self) -> None:
        self.found = None
        self.list.clear()
        self.apply_button.setEnabled(False)
        self.previewRequested.emit(None, None)

    def chosen(self) -> Suggestion | None:
        """The chosen suggestion of the result (a fix: the ideas after them
        cannot be chosen)."""
        row = self.list.currentRow()
        if self.found is None or self.scenario is None or not \
                0 <= row < len(self.found["suggestions"]):
            return None
        return self.found["suggestions"][row]

    def _chosen(self, row: int) -> None:
        chosen = self.chosen()
        self.apply_button.setEnabled(chosen is not None)
        self.previewRequested.emit(self.scenario, chosen)

    def apply_chosen(self) -> None:
        chosen = self.chosen()
        if chosen is not None:
            self.applyRequested.emit(self.scenario, chosen)

