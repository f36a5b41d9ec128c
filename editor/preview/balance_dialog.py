"""Balance check: many races of the course in a worker thread, then the
results: win rate per dock with 95% intervals, the verdict in plain words,
race length, heatmaps on the board, and the report on disk.

The races go through rallyforge.engine.analysis.balance.balance, in worker processes when
more than one worker is asked for, else in the thread itself. Progress and
Cancel go through its ``progress`` and ``should_stop``; the plan is cut
into small chunks, and the wait for worker processes asks ``should_stop``
as it goes, so that Cancel is answered within a fraction of a second.
"Save report…" writes the
same files as ``rallyforge balance --report DIR`` (rallyforge.engine.analysis.balance.report).
"""
from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRunnable, Qt, QThread, QThreadPool, Signal
from PySide6.QtWidgets import (
    QButtonGroup, QComboBox, QDialog, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
    QFrame, QProgressBar, QPushButton, QScrollArea, QSizePolicy, QSpinBox, QTabWidget,
    QLayout, QTextBrowser, QVBoxLayout, QWidget,
)

from rallyforge.editor.course_errors import ErrorsBox
from rallyforge.editor.team_colors import team_color
from rallyforge.engine.model.problems import ScenarioError
from rallyforge.engine.model.scenario import robots_for

if TYPE_CHECKING:
    from rallyforge.engine.analysis.balance.teams import TeamVerdict
    from rallyforge.engine.analysis.balance.types import BalanceResult

# Cancel is asked between chunks, so chunks are small: one job in this
# process (a loop: no cost), a few in worker processes (each chunk is a round
# trip). A job is a race, or a time trial of one solo race per dock.
POOL_CHUNK = 4


# Worker processes take about a second to start: short runs go faster here.
SERIAL_RACES = 300


def auto_workers(races: int, asked: int = 0) -> int:
    """`asked` workers, or for 0 (Auto) one for a short run, else every core."""
    if asked > 0:
        return asked
    return 1 if races <= SERIAL_RACES else _cores()


def chunk_size(workers: int) -> int:
    """Jobs per chunk for a quick Cancel."""
    return 1 if workers <= 1 else POOL_CHUNK


def run_balance(scenario, races: int, robots: int, bot: str, seed: int = 0, *,
                workers: int = 1, chunk: int | None = None, progress=None,
                should_stop=None) -> BalanceResult:
    """rallyforge.engine.analysis.balance.balance in small chunks (for a quick Cancel): the
    result is the same for any chunk size."""
    from rallyforge.engine.analysis.balance import balance
    return balance(scenario, races, robots, bot, seed, workers=workers,
                   chunk_size=chunk or chunk_size(workers), progress=progress,
                   should_stop=should_stop)


def add_run_controls(layout, start_text: str):
    """Start and Cancel buttons, a progress bar and a status line under
    them, added to `layout`: (start, cancel, progress, status)."""
    row = QHBoxLayout()
    start = QPushButton(start_text)
    start.setDefault(True)
    cancel = QPushButton("Cancel")
    cancel.setEnabled(False)
    row.addWidget(start)
    row.addWidget(cancel)
    row.addStretch(1)
    layout.addLayout(row)
    progress = QProgressBar()
    progress.setRange(0, 1)
    progress.setValue(0)
    layout.addWidget(progress)
    status = QLabel("")
    status.setWordWrap(True)
    layout.addWidget(status)
    return start, cancel, progress, status


class BalanceWorker(QThread):
    progressed = Signal(int, int, float)    # races done, planned, seconds
    done = Signal(object)                   # the result dict
    failed = Signal(str)
    refused = Signal(object)                # the course's errors: nothing raced

    def __init__(self, scenario, races: int, robots: int, bot: str, seed: int, workers: int,
                 parent=None):
        super().__init__(parent)
        self.scenario, self.races, self.robots, self.bot = scenario, races, robots, bot
        self.seed, self.workers = seed, workers
        self._stop = threading.Event()
        self.result: BalanceResult | None = None

    def cancel(self) -> None:
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    def run(self) -> None:
        try:
            self.result = run_balance(
                self.scenario, self.races, self.robots, self.bot, self.seed,
                workers=self.workers,
                progress=lambda done, total, elapsed: self.progressed.emit(done, total, elapsed),
                should_stop=self._stop.is_set)
        except ScenarioError as exc:
            self.refused.emit(exc.problems)
            return
        except Exception as exc:   # never take the editor down
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.done.emit(self.result)


# Running workers, so that a thread outlives a dialog closed under it (it is
# told to stop, and drops its result).
_LIVE: set = set()


def keep_alive(worker: BalanceWorker) -> None:
    _LIVE.add(worker)
    worker.finished.connect(lambda: _LIVE.discard(worker))


def stop_all(wait_ms: int = 10000) -> None:
    """Cancel every balance run and wait for its thread (the app is quitting)."""
    for worker in list(_LIVE):
        worker.cancel()
    for worker in list(_LIVE):
        worker.wait(wait_ms)


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


def in_short(markdown: str) -> str:
    """The "In short" section of the report's text."""
    start = markdown.find("## In short")
    if start < 0:
        return ""
    body = markdown[start + len("## In short"):]
    end = body.find("\n## ")
    return (body if end < 0 else body[:end]).strip()


VERDICT_STYLE = {
    "fair": ("The course looks fair", "#1e7b34", "#e3f4e6"),
    "unfair": ("The course is unfair", "#a61b1b", "#fbe3e3"),
    "inconclusive": ("Not settled yet", "#7a5a00", "#fff3cd"),
    "few_wins": ("Too few races won", "#8a3100", "#fde2cf"),
}


class BalanceDialog(QDialog):
    heatmapRequested = Signal(object)       # mode or None
    resultReady = Signal(object)            # the result dict
    runFailed = Signal(str)
    reportSaved = Signal(list)              # paths written
    suggestRequested = Signal(int)          # robots per race
    issuesRequested = Signal()              # Show Issues, for a course with errors

    def __init__(self, scenario_source, parent=None):
        """`scenario_source()` gives the course to race (the document's, now)."""
        super().__init__(parent)
        self.setWindowTitle("Balance Check")
        self.setModal(False)
        self.scenario_source = scenario_source
        # Import the engine's balance modules and the chart library here: in the
        # worker an import holds the interpreter and freezes the window, and
        # at the end of a run it would delay the result (and Cancel).
        import matplotlib.backends.backend_qtagg  # noqa: F401
        import rallyforge.engine.analysis.balance.aggregate  # noqa: F401
        import rallyforge.engine.analysis.balance.play  # noqa: F401
        import rallyforge.engine.analysis.balance.runner  # noqa: F401
        self.scenario = None
        self.worker: BalanceWorker | None = None
        self.measured: BalanceResult | None = None
        self.result_scenario = None
        self.pool = QThreadPool(self)
        self.relay = _ReportRelay(self)
        self.relay.done.connect(self._report_done, Qt.ConnectionType.QueuedConnection)
        self.resize(1180, 700)

        outer = QHBoxLayout(self)
        left = QVBoxLayout()
        outer.addLayout(left, 2)
        form = QFormLayout()
        self.races = QSpinBox()
        self.races.setRange(1, 100_000)
        self.races.setValue(200)
        self.races.setSingleStep(50)
        self.robots = QSpinBox()
        self.robots.setRange(1, 8)
        from rallyforge.engine.bots import BOTS, DEFAULT_BOT
        self.bot = QComboBox()
        self.bot.addItems(sorted(BOTS))
        self.bot.setCurrentText(DEFAULT_BOT)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.workers = QSpinBox()
        cores = _cores()
        self.workers.setRange(0, max(1, cores))
        self.workers.setSpecialValueText("Auto")
        self.workers.setValue(0)
        self.workers.setToolTip("Worker processes (1: in a thread of the editor; Auto: one "
                                f"for up to {SERIAL_RACES} races, else every core)")
        form.addRow("Races", self.races)
        form.addRow("Robots per race", self.robots)
        form.addRow("Bot", self.bot)
        form.addRow("Seed", self.seed)
        form.addRow("Workers", self.workers)
        left.addLayout(form)

        self.start_button, self.cancel_button, self.progress, self.rate = \
            add_run_controls(left, "Start")

        # ---------------------------------------------------------- results
        self.errors = ErrorsBox()
        self.errors.showIssues.connect(self.issuesRequested.emit)
        left.addWidget(self.errors)
        self.verdict = QLabel("")
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.verdict.setWordWrap(True)
        self.verdict.hide()
        left.addWidget(self.verdict)
        self.summary = QLabel("")
        self.summary.setTextFormat(Qt.TextFormat.MarkdownText)
        self.summary.setWordWrap(True)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        scroll = QScrollArea()
        scroll.setWidget(self.summary)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        left.addWidget(scroll, 1)

        right = QVBoxLayout()
        outer.addLayout(right, 3)
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
        self.results.setEnabled(False)
        right.addWidget(self.results, 1)

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
        right.addLayout(buttons)

        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.close)
        self.save_button.clicked.connect(self.ask_save_report)
        self.suggest_button.clicked.connect(
            lambda: self.suggestRequested.emit(self.robots.value()))
        self.heat_buttons.buttonClicked.connect(
            lambda b: self.heatmapRequested.emit(b.property("mode")))
        self.refresh_course()
        scenario = scenario_source()
        self.robots.setValue(robots_for(scenario.goals, len(scenario.docks)))   # the goals', else 4

    # ------------------------------------------------------------ running

    def refresh_course(self) -> None:
        scenario = self.scenario_source()
        docks = len(scenario.docks)
        self.robots.setRange(1, max(1, docks))
        if self.robots.value() > docks:
            self.robots.setValue(max(1, docks))
        if self.worker is None:
            self.start_button.setEnabled(docks >= 1)
            if docks < 1:
                self.rate.setText("Place at least one dock to race.")

    @property
    def running(self) -> bool:
        return self.worker is not None

    def start(self) -> None:
        if self.worker is not None:
            return
        self.scenario = self.scenario_source()
        if not self.scenario.docks:
            self.rate.setText("Place at least one dock to race.")
            return
        robots = min(self.robots.value(), len(self.scenario.docks))
        self.worker = BalanceWorker(self.scenario, self.races.value(), robots,
                                    self.bot.currentText(), self.seed.value(),
                                    auto_workers(self.races.value(), self.workers.value()))
        keep_alive(self.worker)
        self.worker.progressed.connect(self._progressed)
        self.worker.done.connect(self._done)
        self.worker.failed.connect(self._failed)
        self.worker.refused.connect(self._refused)
        self.worker.finished.connect(self._worker_finished)
        self.errors.hide()
        self.progress.setRange(0, self.races.value())
        self.progress.setValue(0)
        self.rate.setText("Starting…")
        self._set_running(True)
        self.worker.start()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.rate.setText("Stopping…")
            self.cancel_button.setEnabled(False)

    def _set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for w in (self.races, self.robots, self.bot, self.seed, self.workers):
            w.setEnabled(not running)

    def _progressed(self, done: int, total: int, elapsed: float) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        self.rate.setText(f"{done} of {total} races · {rate:.1f} races/s · "
                          f"{_clock(elapsed)} elapsed, {_clock(left)} left")

    def _done(self, result: BalanceResult) -> None:
        self.measured = result
        self.result_scenario = self.scenario
        stopped = " (stopped early)" if result.get("cancelled") else ""
        self.rate.setText(f"{result['races']} of {result['planned']} races{stopped} in "
                          f"{result['elapsed_s']:.1f} s · "
                          f"{result['races'] / result['elapsed_s'] if result['elapsed_s'] else 0:.1f}"
                          f" races/s")
        self.progress.setValue(result["races"])
        self.resultReady.emit(result)      # the run is over; drawing its charts comes after
        self.show_result(result)

    def _failed(self, message: str) -> None:
        self.rate.setText(f"The balance run failed: {message}")
        self.runFailed.emit(message)

    def _refused(self, problems: list) -> None:
        """The course has errors: they, not the figures of an earlier run."""
        self.measured = None
        self.rate.setText("Nothing raced.")
        self.verdict.hide()
        self.summary.setText("")
        self.report_view.clear()
        _drop(self.win_tab, self.win_canvas)
        _drop(self.length_tab, self.length_canvas)
        self.win_canvas = self.length_canvas = None
        self.results.setEnabled(False)
        self.save_button.setEnabled(False)
        self.errors.show_errors(problems)

    def _worker_finished(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.deleteLater()
        self._set_running(False)
        self.refresh_course()

    def wait(self, ms: int = 30000) -> bool:
        """Wait for the run in progress (tests, and closing)."""
        if self.worker is None:
            return True
        return self.worker.wait(ms)

    def closeEvent(self, event) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait(5000)
        self.pool.waitForDone(10000)
        super().closeEvent(event)

    # ------------------------------------------------------------ results

    def show_result(self, result: BalanceResult) -> None:
        from rallyforge.engine.analysis.balance.report import few_wins, markdown
        text = markdown(result, charts=False)
        verdict = result["fairness"]["verdict"] if result["races"] else "inconclusive"
        by_team = result.get("teams")
        if by_team is not None:     # a team course: the first seat's side, not the docks
            verdict = team_verdict_style(by_team)
        elif few_wins(result):      # the verdict leads with that, and waits for more wins
            verdict = "few_wins"
        _, ink, paper = VERDICT_STYLE.get(verdict, VERDICT_STYLE["inconclusive"])
        short = in_short(text)
        first, _, rest = short.partition("\n\n")
        if by_team is not None:     # the leader's sentence in the box, each team's below
            lines = [line.removeprefix("- ") for line in first.splitlines()]
            first, rest = lines[0], "\n".join(lines[1:] + [rest])
        if not result["races"]:
            first, rest = "**No races were played.**", ""
        self.verdict.setText(
            f"<div style='background:{paper}; color:{ink}; padding:8px; font-size:14px;'>"
            f"{_bold(first)}</div>")
        self.verdict.show()
        self.summary.setText(rest)
        self.report_view.setMarkdown(text)
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
        self.win_canvas = self._canvas(self.win_tab, self.win_canvas)
        by_team = result.get("teams")
        self.tabs.setTabText(self.tabs.indexOf(self.win_tab), "Win share per team"
                             if by_team is not None else "Win rate per dock")
        if by_team is not None:
            draw_team_shares(self.win_canvas.figure, by_team)
        else:
            draw_win_rates(self.win_canvas.figure, result)
        self.win_canvas.draw_idle()
        self.length_canvas = self._canvas(self.length_tab, self.length_canvas)
        draw_race_length(self.length_canvas.figure, result)
        self.length_canvas.draw_idle()

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
        self.rate.setText(f"Writing the report into {directory}…")
        self.pool.start(_ReportJob(self.measured, directory, self.result_scenario, self.relay))

    def _report_done(self, paths: list, error: str) -> None:
        self.save_button.setEnabled(True)
        if error:
            self.rate.setText(f"The report could not be written: {error}")
        else:
            self.rate.setText(f"Report written: {paths[0] if paths else ''}")
        self.reportSaved.emit(paths)


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
    import html
    parts = html.escape(markdown_text).split("**")
    return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    m, s = divmod(seconds, 60)
    return f"{m}:{s:02d}"


# ---------------------------------------------------------------- charts


BAR_COLORS = {None: "#4c78a8", "above": "#d9534f", "below": "#5b8def", "unused": "#c8c8c8"}


def draw_win_rates(fig, result: BalanceResult) -> None:
    """Win rate per dock with its 95% interval, and the band of a fair course."""
    ax = fig.add_subplot()
    docks = result["docks"]
    xs = [d["dock"] for d in docks]
    rates = [d["win_rate"] for d in docks]
    low = [max(0.0, r - d["ci"][0]) for r, d in zip(rates, docks)]
    high = [max(0.0, d["ci"][1] - r) for r, d in zip(rates, docks)]
    k = result["robots"]
    fair = 1.0 / k if k else 0.0
    # Red and light blue only for docks the verdict calls out: a bar never
    # contradicts the verdict.
    from rallyforge.engine.analysis.balance.report import dock_stands_apart, win_rate_top
    colors = [BAR_COLORS[dock_stands_apart(result, d) if d["races"] else "unused"] for d in docks]
    ax.bar(xs, rates, color=colors, yerr=[low, high], capsize=5, ecolor="#333333")
    if k:
        ax.axhspan(max(0, fair - 0.05), fair + 0.05, color="#54a24b", alpha=0.15,
                   label="fair ± 5 points")
        ax.axhline(fair, color="#54a24b", linestyle="--", label=f"fair ({100 * fair:.0f}%)")
        ax.legend(loc="upper right", fontsize=8)
    for x, r, d in zip(xs, rates, docks):
        if d["races"]:
            ax.text(x, r / 2 if r > 0.08 else r + 0.02, f"{100 * r:.0f}%", ha="center",
                    va="center", fontsize=8, color="white" if r > 0.08 else "#333333")
    ax.set_xticks(xs)
    ax.set_xlabel("dock")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, win_rate_top(result))
    ax.yaxis.set_major_formatter(_percent())
    ax.set_title(f"Win rate per dock, 95% intervals ({result['races']} races)", fontsize=10)


def team_verdict_style(v: TeamVerdict) -> str:
    """The verdict box's style on a team course: "unfair" when the first
    seat's side has an edge or is behind, "fair" when its share is within 5
    points of an even share, else "inconclusive"."""
    lo, hi = v["first_side"]["ci"]
    if v["leader"] is None:
        return "few_wins"
    if v["edge"] != "none":
        return "unfair"
    return "fair" if v["even"] - 0.05 <= lo and hi <= v["even"] + 0.05 else "inconclusive"


def draw_team_shares(fig, v: TeamVerdict) -> None:
    """Each team's and each seat's share of decided races with its 95%
    interval, and an even share."""
    ax = fig.add_subplot()
    bars = [(f"Team {t['name']}", t) for t in v["teams"]] + [(s["name"], s) for s in v["seats"]]
    xs = list(range(len(bars)))
    shares = [b["share"] for _, b in bars]
    low = [max(0.0, s - b["ci"][0]) for s, (_, b) in zip(shares, bars)]
    high = [max(0.0, b["ci"][1] - s) for s, (_, b) in zip(shares, bars)]
    colors = [team_color(t["name"], i) for i, t in enumerate(v["teams"])]
    colors += ["#9d9d9d"] * len(v["seats"])
    ax.bar(xs, shares, color=colors, yerr=[low, high], capsize=5, ecolor="#333333")
    ax.axhline(v["even"], color="#54a24b", linestyle="--", label=f"even ({100 * v['even']:.0f}%)")
    ax.legend(loc="upper right", fontsize=8)
    ax.set_xticks(xs, [name for name, _ in bars], fontsize=8)
    ax.set_ylabel("share of decided races")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_title("Win share per team and per seat's side, 95% intervals", fontsize=10)


def draw_race_length(fig, result: BalanceResult) -> None:
    from rallyforge.engine.analysis.balance.report import quartile_marks
    ax = fig.add_subplot()
    length = result["length"]
    hist = length["histogram"]
    if hist:
        ax.bar([h[0] for h in hist], [h[1] for h in hist], width=0.85, color="#f58518")
    marks = quartile_marks(length)
    for key, value, style in marks:
        ax.axvline(value, color="#333333", linestyle=style, label=f"{key} {value:g}")
    if marks:
        ax.legend(loc="upper right", fontsize=8)
    undecided = length["undecided"]
    ax.set_xlabel("winning round")
    ax.set_ylabel("races")
    ax.set_title("Race length" + (f" ({undecided} races undecided)" if undecided else ""),
                 fontsize=10)


def _percent():
    from matplotlib.ticker import FuncFormatter
    return FuncFormatter(lambda v, _: f"{100 * v:.0f}%")

