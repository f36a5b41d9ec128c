"""The engine decides what a balance result says and how its charts look
(engine/analysis/balance/in_short.py, charts.py); the report draws them as
PNGs and the editor's Balance dialog on its canvas, the same drawings in the
verdict's colours."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.container import BarContainer

from rallyforge.engine.analysis.balance import report
from rallyforge.engine.analysis.balance.charts import (BAR_COLORS, VERDICT_STYLE, draw_wins,
                                                       figure, wins_title)
from rallyforge.engine.analysis.balance.in_short import in_short
from rallyforge.engine.format.loader import load_file
from tests.test_few_wins import result_of

ROOT = Path(__file__).resolve().parent.parent


def unfair() -> dict:
    """Dock 1 wins all of 100 races won of 100: the verdict names it."""
    result = dict(result_of(100, 100), card=None)
    result["heatmaps"] = dict(result["heatmaps"], deaths_by_cause={"pit": [[0, 0], [0, 0]]})
    return result


def bars(ax) -> BarContainer:
    return next(c for c in ax.containers if isinstance(c, BarContainer))


def bar_colors(ax) -> list[str]:
    return [to_hex(bar.get_facecolor()) for bar in bars(ax)]


def test_the_report_chart_wears_the_verdict_colours(tmp_path, monkeypatch):
    result = unfair()
    assert result["fairness"]["verdict"] == "unfair" and result["fairness"]["named"] == 1
    drawn = []

    def kept(width: float, height: float):
        drawn.append(figure(width, height))
        return drawn[-1]
    monkeypatch.setattr(report, "figure", kept)
    paths = report.write_report(result, tmp_path / "out")
    assert all(p.exists() for p in paths)
    wins = drawn[0].axes[0]
    assert bar_colors(wins) == [BAR_COLORS["above"]] + [BAR_COLORS[None]] * 3


def test_only_the_dock_the_verdict_names_stands_out():
    result = unfair()
    result["fairness"] = dict(result["fairness"], named=None)     # nothing named: no warning
    fig = figure(6.4, 4.0)
    draw_wins(fig, result)
    assert bar_colors(fig.axes[0]) == [BAR_COLORS[None]] * 4


def test_with_races_undecided_the_bars_are_the_shares_the_words_give():
    """30 of 100 races won, all by dock 1: its bar is its share of the decided
    races (100%), as its sentence says, not its 30% of all races."""
    result = dict(result_of(30, 100), card=None)
    fig = figure(6, 4)
    draw_wins(fig, result)
    ax = fig.axes[0]
    assert [round(bar.get_height(), 6) for bar in bars(ax)] == [1.0, 0.0, 0.0, 0.0]
    assert ax.get_ylabel() == "share of decided races"
    assert "30 of 100 races decided" in ax.get_title()
    assert in_short(result).points[0].startswith("Dock 1 wins 100% of its decided races")
    every = dict(result_of(100, 100), card=None)          # every race won: win rates
    fig = figure(6, 4)
    draw_wins(fig, every)
    assert fig.axes[0].get_ylabel() == "win rate"
    assert [round(bar.get_height(), 6) for bar in bars(fig.axes[0])] == [1.0, 0.0, 0.0, 0.0]


def test_the_fair_band_stops_at_zero():
    result = dict(unfair(), robots=25)          # a fair share of 4%: the band would dip below 0
    fig = figure(6.4, 4.0)
    draw_wins(fig, result)
    ax = fig.axes[0]
    drawn = set(bars(ax))
    band = next(p for p in ax.patches if p not in drawn)
    assert np.min(np.atleast_2d(band.get_xy())[:, 1]) == 0.0


def test_a_team_course_is_charted_by_team():
    share = {"races": 10, "wins": 5.0, "share": 0.5, "ci": [0.2, 0.8]}
    teams = {"teams": [dict(share, name="Red"), dict(share, name="Blue")],
             "seats": [dict(share, name="Seat 1's side")], "even": 0.5}
    result = dict(unfair(), teams=teams)
    fig = figure(6.4, 4.0)
    draw_wins(fig, result)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["Team Red", "Team Blue", "Seat 1's side"]
    assert wins_title(result) == "Win share per team" and wins_title(unfair()) == \
        "Win rate per dock"


def test_the_report_says_what_in_short_says():
    result = unfair()
    short = in_short(result)
    assert short.kind == "unfair" and short.lead.startswith("**The course is unfair**")
    assert [line.split(" wins")[0] for line in short.points] == [f"Dock {d}" for d in range(1, 5)]
    section = report.markdown(result, charts=False).split("## In short\n\n")[1].split("\n## ")[0]
    assert section.startswith(short.lead + "\n\n")
    for line in short.points:
        assert f"- {line}\n" in section
    assert short.notes[-1] in section


def test_no_races_say_so_and_nothing_else():
    short = in_short(dict(unfair(), races=0))
    assert (short.kind, short.lead, short.points, short.notes) == (
        "inconclusive", "**No races were played.**", (), ())


@pytest.fixture
def dialog(qtbot):
    from rallyforge.editor.preview.balance_dialog import BalanceDialog
    course = load_file(ROOT / "scenarios" / "standard-course.json")
    shown = BalanceDialog(lambda: course)
    qtbot.addWidget(shown)
    return shown


def test_the_dialog_reads_the_result_not_the_report_text(dialog, monkeypatch):
    monkeypatch.setattr(report, "markdown", lambda result, charts=True: "# Nothing here")
    result = unfair()
    dialog.show_result(result)
    short = in_short(result)
    _, ink, paper = VERDICT_STYLE["unfair"]
    verdict = dialog.verdict.text()
    assert f"background:{paper}; color:{ink}" in verdict
    assert "<b>The course is unfair</b>: the seats" in verdict and "too uneven to be luck" in verdict
    assert dialog.summary.text().startswith(f"- {short.points[0]}")
    # the same drawing as the report's PNG, in the same colours
    assert bar_colors(dialog.win_canvas.figure.axes[0]) == \
        [BAR_COLORS["above"]] + [BAR_COLORS[None]] * 3


def test_the_dialog_offers_the_runners_workers(dialog):
    from rallyforge.engine.analysis.balance.runner import default_workers
    assert dialog.workers.maximum() == default_workers()
