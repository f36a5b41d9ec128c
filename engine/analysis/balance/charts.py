"""The balance charts, drawn on a matplotlib ``Figure``: report.py saves
them as PNGs (``figure`` gives an Agg one), the editor's Balance dialog
draws the same functions on its canvas' figure. They wear the verdict's
colours (in_short.py): a dock bar is red or blue only when the verdict names
that dock, so no chart contradicts its verdict.

matplotlib through its object-oriented API only, never pyplot, so no GUI
backend is ever loaded here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from rallyforge.engine.analysis.balance.in_short import dock_stands_apart, undecided_races
from rallyforge.engine.analysis.team_colors import team_color
from rallyforge.engine.model.element_kinds import DEADLY_TYPES

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from rallyforge.engine.analysis.balance.teams import TeamVerdict
    from rallyforge.engine.analysis.balance.types import BalanceResult, Grid, RaceLength
    from rallyforge.engine.model.scenario import Scenario

# The verdict's colours (in_short.InShort.kind): a headline, its ink and its paper.
VERDICT_STYLE = {
    "fair": ("The course looks fair", "#1e7b34", "#e3f4e6"),
    "unfair": ("The course is unfair", "#a61b1b", "#fbe3e3"),
    "inconclusive": ("Not settled yet", "#7a5a00", "#fff3cd"),
    "few_wins": ("Too few races won", "#8a3100", "#fde2cf"),
}
# A dock's bar: the dock the verdict names (in_short.dock_stands_apart), or none.
BAR_COLORS = {None: "#4c78a8", "above": "#d9534f", "below": "#5b8def", "unused": "#c8c8c8"}
FAIR_COLOR = "#54a24b"
SEAT_COLOR = "#9d9d9d"
ERROR_COLOR = "#333333"


def figure(width: float, height: float) -> Figure:
    """A figure of `width` by `height` inches on the Agg canvas, to save as PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def wins_title(result: BalanceResult) -> str:
    """What the wins chart shows: teams on a team course, else docks."""
    return "Win share per team" if result.get("teams") is not None else "Win rate per dock"


def draw_wins(fig: Figure, result: BalanceResult) -> None:
    """The wins chart: each team's share on a team course, else each dock's win rate."""
    by_team = result.get("teams")
    if by_team is not None:
        draw_team_shares(fig, by_team)
    else:
        draw_win_rates(fig, result)


def draw_win_rates(fig: Figure, result: BalanceResult) -> None:
    """Each dock's share of the decided races with its 95% interval (its win
    rate when every race is won: in_short.undecided_races), and the band of
    a fair course (clamped at 0)."""
    ax = fig.add_subplot()
    docks = result["docks"]
    xs = [d["dock"] for d in docks]
    rates = [d["share"] for d in docks]
    of_decided = undecided_races(result)
    colors = [BAR_COLORS[dock_stands_apart(result, d) if d["races"] else "unused"] for d in docks]
    ax.bar(xs, rates, color=colors, yerr=_errors(rates, [d["share_ci"] for d in docks]),
           capsize=5, ecolor=ERROR_COLOR)
    k = result["robots"]
    if k:
        fair = 1.0 / k
        ax.axhspan(max(0.0, fair - 0.05), fair + 0.05, color=FAIR_COLOR, alpha=0.15,
                   label="fair ± 5 points")
        ax.axhline(fair, color=FAIR_COLOR, linestyle="--", label=f"fair ({100 * fair:.0f}%)")
        ax.legend(loc="upper right", fontsize=8)
    for x, r, d in zip(xs, rates, docks):
        if d["races"]:
            ax.text(x, r / 2 if r > 0.08 else r + 0.02, f"{100 * r:.0f}%", ha="center",
                    va="center", fontsize=8, color="white" if r > 0.08 else ERROR_COLOR)
    ax.set_xticks(xs)
    ax.set_xlabel("dock")
    ax.set_ylabel("share of decided races" if of_decided else "win rate")
    ax.set_ylim(0, win_rate_top(result))
    _percent_axis(ax)
    ax.set_title(f"Share of decided races per dock, 95% intervals ({result['completion']['decided']}"
                 f" of {result['races']} races decided)" if of_decided else
                 f"Win rate per dock, 95% intervals ({result['races']} races)", fontsize=10)


def draw_team_shares(fig: Figure, v: TeamVerdict) -> None:
    """Each team's and each seat's share of decided races with its 95%
    interval, and an even share."""
    ax = fig.add_subplot()
    bars = [(f"Team {t['name']}", t) for t in v["teams"]] + [(s["name"], s) for s in v["seats"]]
    xs = list(range(len(bars)))
    shares = [b["share"] for _, b in bars]
    colors = [team_color(t["name"], i) for i, t in enumerate(v["teams"])]
    colors += [SEAT_COLOR] * len(v["seats"])
    ax.bar(xs, shares, color=colors, yerr=_errors(shares, [b["ci"] for _, b in bars]),
           capsize=5, ecolor=ERROR_COLOR)
    ax.axhline(v["even"], color=FAIR_COLOR, linestyle="--",
               label=f"even ({100 * v['even']:.0f}%)")
    ax.legend(loc="upper right", fontsize=8)
    ax.set_xticks(xs, [name for name, _ in bars], fontsize=8)
    ax.set_ylabel("share of decided races")
    ax.set_ylim(0, 1)
    _percent_axis(ax)
    ax.set_title("Win share per team and per seat's side, 95% intervals", fontsize=10)


def draw_race_length(fig: Figure, result: BalanceResult) -> None:
    """Races won per round, with the quartiles the races reach."""
    ax = fig.add_subplot()
    length = result["length"]
    hist = length["histogram"]
    if hist:
        ax.bar([h[0] for h in hist], [h[1] for h in hist], width=0.85, color="#f58518")
    marks = quartile_marks(length)
    for key, value, style in marks:
        ax.axvline(value, color=ERROR_COLOR, linestyle=style, label=f"{key} {value:g}")
    if marks:
        ax.legend(loc="upper right", fontsize=8)
    undecided = length["undecided"]
    ax.set_xlabel("winning round")
    ax.set_ylabel("races")
    ax.set_title("Race length" + (f" ({undecided} races undecided)" if undecided else ""),
                 fontsize=10)


def win_rate_top(result: BalanceResult) -> float:
    """The top of a win rate chart: above every interval and the fair band,
    so that the fair line shows even when no race is won."""
    k = result["robots"]
    band = 1.0 / k + 0.05 if k else 0.0
    return min(1.0, max([0.1, band] + [d["share_ci"][1] for d in result["docks"] if d["races"]])
               * 1.15)


def quartile_marks(length: RaceLength) -> list[tuple[str, float, str]]:
    """The race length chart's lines: (name, round, line style) of the
    quartiles the races reach."""
    marks = (("q1", length["q1"], ":"), ("median", length["median"], "--"),
             ("q3", length["q3"], ":"))
    return [(key, value, style) for key, value, style in marks if value is not None]


def _errors(values: list[float], intervals: list[list[float]]) -> list[list[float]]:
    """Error bar lengths below and above each value, from its interval."""
    return [[max(0.0, v - ci[0]) for v, ci in zip(values, intervals)],
            [max(0.0, ci[1] - v) for v, ci in zip(values, intervals)]]


def _percent_axis(ax: Axes) -> None:
    from matplotlib.ticker import FuncFormatter
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:.0f}%"))


# ---------------------------------------------------------------- heatmaps

def board_size(result: BalanceResult) -> tuple[float, float]:
    """A heatmap figure's size in inches, for the board's proportions."""
    w, h = result["heatmaps"]["width"], result["heatmaps"]["height"]
    scale = 6.0 / max(w, h)
    return max(3.0, w * scale + 1.5), max(3.0, h * scale + 0.8)


def draw_heatmap(fig: Figure, result: BalanceResult, scenario: Scenario | None,
                 key: Literal["deaths", "occupancy"], title: str) -> None:
    """One heatmap on the board, with its scale."""
    ax = fig.add_subplot()
    image = _draw_board(ax, scenario, result["heatmaps"][key], title)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="per 100 races")


def draw_deaths_by_cause(fig: Figure, result: BalanceResult, scenario: Scenario | None) -> None:
    """A deaths heatmap per cause, side by side."""
    causes = list(result["heatmaps"]["deaths_by_cause"])
    for i, cause in enumerate(causes, 1):
        ax = fig.add_subplot(1, len(causes), i)
        _draw_board(ax, scenario, result["heatmaps"]["deaths_by_cause"][cause], cause)


def _draw_board(ax: Axes, scenario: Scenario | None, grid: Grid, title: str,
                cmap: str = "magma_r") -> Any:
    """The grid's values over the board's squares; walls, pits, flags and
    docks drawn on it when `scenario` is given. Returns the image."""
    import numpy as np
    data = np.array(grid, dtype=float)
    image = ax.imshow(data, cmap=cmap, origin="upper", interpolation="nearest",
                      extent=(-0.5, data.shape[1] - 0.5, data.shape[0] - 0.5, -0.5))
    ax.set_title(title, fontsize=9)
    ax.set_xticks([])
    ax.set_yticks([])
    if scenario is None:
        return image
    from matplotlib.patches import Rectangle
    board = scenario.board
    for tile in board.tiles:
        if tile.type in DEADLY_TYPES:
            ax.add_patch(Rectangle((tile.x - 0.5, tile.y - 0.5), 1, 1, fill=False, hatch="xx",
                                   edgecolor="#7f7f7f", linewidth=0))
    for ex, ey, side in board.wall_edges:
        if side == "N":
            ax.plot([ex - 0.5, ex + 0.5], [ey - 0.5, ey - 0.5], color="#1f77b4", linewidth=2)
        else:
            ax.plot([ex - 0.5, ex - 0.5], [ey - 0.5, ey + 0.5], color="#1f77b4", linewidth=2)
    for i, flag in enumerate(scenario.flags, 1):
        ax.text(flag.x, flag.y, f"F{i}", ha="center", va="center", fontsize=7,
                color="white", fontweight="bold",
                bbox={"boxstyle": "round,pad=0.15", "fc": "#2ca02c", "ec": "none"})
    for i, dock in enumerate(scenario.docks, 1):
        ax.text(dock.x, dock.y, f"{i}", ha="center", va="center", fontsize=7,
                color="black", bbox={"boxstyle": "circle,pad=0.1", "fc": "#ffffff",
                                     "ec": ERROR_COLOR})
    return image
