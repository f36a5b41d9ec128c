"""Balance check: many races of the course in a worker thread
(balance_run.py), then the results: win rate per dock with 95% intervals,
the verdict in plain words, race length, heatmaps on the board, and the
report on disk.

The engine decides, the dialog shows: the verdict's words and colours come
from rallyforge.engine.analysis.balance.in_short, the charts from its
charts module (the report's PNGs are the same drawings). "Save report…"
writes the same files as ``rallyforge balance --report DIR``
(rallyforge.engine.analysis.balance.report).
"""
from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import (
    QButtonGroup, QComboBox, QFileDialog, QFormLayout, QFrame, QHBoxLayout, QLabel, QLayout,
    QPushButton, QScrollArea, QSizePolicy, QSpinBox, QTabWidget, QTextBrowser, QVBoxLayout,
    QWidget,
)

from rallyforge.engine.analysis.balance.play import bot_names, default_bot
from rallyforge.engine.analysis.balance.runner import default_workers
from rallyforge.engine.model.scenario import robots_for

from .balance_run import SERIAL_RACES, auto_workers, balance_worker
from .run_dialog import RunDialog, clock

if TYPE_CHECKING:
    from rallyforge.engine.analysis.balance.in_short import InShort
    from rallyforge.engine.analysis.balance.types import BalanceResult


class _ReportRelay(QObject):
    done = Signal(object, str)      # paths, error


class _ReportJob(QRunnable):
    def __init__(self, result, directory, scenario, relay):
        super().__init__()
        self.args = (result, directory, scenario)
        self.relay = relay

    def run(self) -> None:
        from rallyforge.engine.analysis.balance.report import write_report
        try:
            paths = write_report(*self.args)
        except OSError as exc:
            self.relay.done.emit([], str(exc.strerror or exc))
        else:
            self.relay.done.emit([str(p) for p in paths], "")


def get_report_dir(parent, start: str = "") -> str | None:
    """The folder to write the report into (tests replace this)."""
    path = QFileDialog.getExistingDirectory(parent, "Save Balance Report", start)
    return path or None


class BalanceDialog(RunDialog):
    heatmapRequested = Signal(object)       # mode or None
    reportSaved = Signal(list)              # paths written
    suggestRequested = Signal(int)          # robots per race

    starting_text = "Starting…"
    failed_text = "The balance run failed"

    def __init__(self, scenario_source, parent=None):
        """`scenario_source()` gives the course to race (the document's, now)."""
        super().__init__("Balance Check", scenario_source, parent)
        # Import the engine's balance modules and the chart library here: in the
        # worker an import holds the interpreter and freezes the window, and
        # at the end of a run it would delay the result (and Cancel).
        import matplotlib.backends.backend_qtagg  # noqa: F401
        import rallyforge.engine.analysis.balance.aggregate  # noqa: F401
        import rallyforge.engine.analysis.balance.charts  # noqa: F401
        self.measured: BalanceResult | None = None
        self.result_scenario = None
        self.pool = QThreadPool(self)
        self.relay = _ReportRelay(self)
        self.relay.done.connect(self._report_done, Qt.ConnectionType.QueuedConnection)
        self.resize(1180, 700)

        outer = QHBoxLayout(self)
        left = QVBoxLayout()
        outer.addLayout(left, 2)
        left.addLayout(self._settings_form())
        self.add_run_controls(left, "Start")
        left.addWidget(self._summary_box(), 1)
        right = QVBoxLayout()
        outer.addLayout(right, 3)
        right.addWidget(self._results_box(), 1)
        right.addLayout(self._buttons())

        self.refresh_course()
        scenario = scenario_source()
        self.robots.setValue(robots_for(scenario.goals, len(scenario.docks)))   # the goals', else 4

    def _settings_form(self) -> QFormLayout:
        form = QFormLayout()
        self.races = QSpinBox()
        self.races.setRange(1, 100_000)
        self.races.setValue(200)
        self.races.setSingleStep(50)
        self.bot = QComboBox()
        self.bot.addItems(bot_names())
        self.bot.setCurrentText(default_bot())
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.workers = QSpinBox()
        self.workers.setRange(0, default_workers())
        self.workers.setSpecialValueText("Auto")
        self.workers.setValue(0)
        self.workers.setToolTip("Worker processes (1: in a thread of the editor; Auto: one "
                                f"for up to {SERIAL_RACES} races, else every core)")
        form.addRow("Races", self.races)
        form.addRow("Robots per race", self.robots)
        form.addRow("Bot", self.bot)
        form.addRow("Seed", self.seed)
        form.addRow("Workers", self.workers)
        self.settings = [self.races, self.robots, self.bot, self.seed, self.workers]
        return form

    def _summary_box(self) -> QWidget:
        """The verdict in its colours, and the figures behind it."""
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        self.verdict = QLabel("")
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.verdict.setWordWrap(True)
        self.verdict.hide()
        column.addWidget(self.verdict)
        self.summary = QLabel("")
        self.summary.setTextFormat(Qt.TextFormat.MarkdownText)
        self.summary.setWordWrap(True)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        scroll = QScrollArea()
        scroll.setWidget(self.summary)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        column.addWidget(scroll, 1)
        return box

    def _results_box(self) -> QWidget:
        """The charts and the full report in tabs, and the heatmap buttons."""
        self.results = QWidget()
        rl = QVBoxLayout(self.results)
        rl.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()
        self.win_canvas = None
        self.length_canvas = None
        self.win_tab = QWidget()
        QVBoxLayout(self.win_tab).setContentsMargins(0, 0, 0, 0)
        self.length_tab = QWidget()
        QVBoxLayout(self.length_tab).setContentsMargins(0, 0, 0, 0)
        self.report_view = QTextBrowser()
        self.tabs.addTab(self.win_tab, "Win rate per dock")
        self.tabs.addTab(self.length_tab, "Race length")
        self.tabs.addTab(self.report_view, "Full report")
        rl.addWidget(self.tabs, 1)

        heat = QHBoxLayout()
        heat.addWidget(QLabel("On the board:"))
        self.heat_buttons = QButtonGroup(self)
        self.heat_buttons.setExclusive(True)
        for mode, text in ((None, "Nothing"), ("deaths", "Deaths"),
                           ("deaths_by_cause", "Deaths by cause"), ("occupancy", "Occupancy")):
            b = QPushButton(text)
            b.setCheckable(True)
            b.setProperty("mode", mode)
            self.heat_buttons.addButton(b)
            heat.addWidget(b)
        heat.addStretch(1)
        rl.addLayout(heat)
        self.heat_buttons.buttonClicked.connect(
            lambda b: self.heatmapRequested.emit(b.property("mode")))
        self.results.setEnabled(False)
        return self.results

    def _buttons(self) -> QHBoxLayout:
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.save_button = QPushButton("Save report…")
        self.save_button.setToolTip("report.md and PNG charts, as rallyforge balance --report")
        self.save_button.setEnabled(False)
        self.suggest_button = QPushButton("Suggest Fixes…")
        self.suggest_button.setToolTip("Search for small edits that make the course fairer "
                                       "(Race > Suggest Fixes…), for as many robots per race")
        self.close_button = QPushButton("Close")
        buttons.addWidget(self.suggest_button)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.close_button)
        self.close_button.clicked.connect(self.close)
        self.save_button.clicked.connect(self.ask_save_report)
        self.suggest_button.clicked.connect(
            lambda: self.suggestRequested.emit(self.robots.value()))
        return buttons

    # ------------------------------------------------------------ running

    def make_worker(self, scenario, robots: int):
        races = self.races.value()
        return balance_worker(scenario, races, robots, self.bot.currentText(),
                              self.seed.value(), auto_workers(races, self.workers.value()))

    def planned(self) -> int:
        return self.races.value()

    def progress_text(self, done: int, total: int, elapsed: float) -> str:
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        return (f"{done} of {total} races · {rate:.1f} races/s · "
                f"{clock(elapsed)} elapsed, {clock(left)} left")

    def show_done(self, result: BalanceResult) -> None:
        self.measured = result
        self.result_scenario = self.scenario
        stopped = " (stopped early)" if result.get("cancelled") else ""
        elapsed = result["elapsed_s"]
        self.status.setText(f"{result['races']} of {result['planned']} races{stopped} in "
                            f"{elapsed:.1f} s · "
                            f"{result['races'] / elapsed if elapsed else 0:.1f} races/s")
        self.progress.setValue(result["races"])
        self.resultReady.emit(result)      # the run is over; drawing its charts comes after
        self.show_result(result)

    def show_refused(self, problems: list) -> None:
        """The course has errors: they, not the figures of an earlier run."""
        self.measured = None
        self.verdict.hide()
        self.summary.setText("")
        self.report_view.clear()
        _drop(self.win_tab, self.win_canvas)
        _drop(self.length_tab, self.length_canvas)
        self.win_canvas = self.length_canvas = None
        self.results.setEnabled(False)
        self.save_button.setEnabled(False)
        super().show_refused(problems)

    def closeEvent(self, event) -> None:
        super().closeEvent(event)
        self.pool.waitForDone(10000)

    # ------------------------------------------------------------ results

    def show_result(self, result: BalanceResult) -> None:
        from rallyforge.engine.analysis.balance.charts import VERDICT_STYLE
        from rallyforge.engine.analysis.balance.in_short import in_short
        from rallyforge.engine.analysis.balance.report import markdown
        short = in_short(result)
        _, ink, paper = VERDICT_STYLE[short.kind]
        self.verdict.setText(
            f"<div style='background:{paper}; color:{ink}; padding:8px; font-size:14px;'>"
            f"{_bold(short.lead)}</div>")
        self.verdict.show()
        self.summary.setText(_figures(short))
        self.report_view.setMarkdown(markdown(result, charts=False))
        self._draw_charts(result)
        self.results.setEnabled(True)
        self.save_button.setEnabled(True)

    def _canvas(self, tab: QWidget, old):
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure
        _drop(tab, old)
        canvas = FigureCanvasQTAgg(Figure(figsize=(6.4, 3.4), dpi=100, layout="constrained"))
        _layout(tab).addWidget(canvas)
        return canvas

    def _draw_charts(self, result: BalanceResult) -> None:
        from rallyforge.engine.analysis.balance.charts import (draw_race_length, draw_wins,
                                                               wins_title)
        self.tabs.setTabText(self.tabs.indexOf(self.win_tab), wins_title(result))
        wins = self.win_canvas = self._canvas(self.win_tab, self.win_canvas)
        draw_wins(wins.figure, result)
        wins.draw_idle()
        length = self.length_canvas = self._canvas(self.length_tab, self.length_canvas)
        draw_race_length(length.figure, result)
        length.draw_idle()

    def set_heatmap_mode(self, mode: str | None) -> None:
        for b in self.heat_buttons.buttons():
            if b.property("mode") == mode:
                b.setChecked(True)

    # ------------------------------------------------------------ the report

    def ask_save_report(self) -> None:
        if self.measured is None:
            return
        directory = get_report_dir(self)
        if directory:
            self.save_report(directory)

    def save_report(self, directory: str) -> None:
        """Write report.md and the charts into `directory` (in a worker thread;
        `reportSaved` says when)."""
        self.save_button.setEnabled(False)
        self.status.setText(f"Writing the report into {directory}…")
        self.pool.start(_ReportJob(self.measured, directory, self.result_scenario, self.relay))

    def _report_done(self, paths: list, error: str) -> None:
        self.save_button.setEnabled(True)
        if error:
            self.status.setText(f"The report could not be written: {error}")
        else:
            self.status.setText(f"Report written: {paths[0] if paths else ''}")
        self.reportSaved.emit(paths)


def _figures(short: InShort) -> str:
    """What the summary shows under the verdict box: the teams' or docks'
    lines, then the notes (Markdown)."""
    return "\n".join([f"- {line}" for line in short.points] + list(short.notes)).strip()


def _layout(tab: QWidget) -> QLayout:
    """The layout a chart tab is made with."""
    layout = tab.layout()
    assert layout is not None
    return layout


def _drop(tab: QWidget, canvas) -> None:
    """Take a chart off its tab."""
    if canvas is not None:
        _layout(tab).removeWidget(canvas)
        canvas.deleteLater()


def _bold(markdown_text: str) -> str:
    """**bold** to <b>bold</b>, for the verdict box."""
    parts = html.escape(markdown_text).split("**")
    return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))
