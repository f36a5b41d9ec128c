"""report.md and PNG charts for a balance result.

matplotlib through its object-oriented API only (``Figure`` and the Agg
canvas), never pyplot, so no GUI backend is ever loaded.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from rallyforge.engine.analysis.balance.course_card import seat_verdict
from rallyforge.engine.analysis.balance.teams import team_lines
from rallyforge.engine.analysis.card.build import (fairness_words, lines as card_lines, loop_line,
                                                   seating_words)
from rallyforge.engine.format.loader import UNFINISHED
from rallyforge.engine.model.element_kinds import DEADLY_TYPES

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    from rallyforge.engine.analysis.balance.types import BalanceResult, Dock, Grid, Options, RaceLength
    from rallyforge.engine.model.json_types import FilePath
    from rallyforge.engine.model.scenario import Scenario

CHARTS = {
    "win_rates": "win_rates.png",
    "race_length": "race_length.png",
    "deaths": "heatmap_deaths.png",
    "deaths_by_cause": "heatmap_deaths_by_cause.png",
    "occupancy": "heatmap_occupancy.png",
}


def pct(x: float | None) -> str:
    if x is None:
        return "n/a"
    if 0 < x < 0.01 or 0.99 < x < 1:        # 99.6% is not 100%
        return f"{100 * x:.1f}%"
    return f"{100 * x:.0f}%"


def _rounds(x: float | None) -> str:
    return "n/a" if x is None else f"{x:g}"


def dock_apart_note() -> str:
    return ("with several docks, one of them often misses the fair share by chance; the "
            "verdict weighs all docks together (a chi-square test), so it is the one to go by.")


def dock_stands_apart(result: BalanceResult, dock: Dock) -> str | None:
    """"above" or "below" for the seat the verdict names (the one furthest
    from its fair share, when the course is unfair and its interval leaves
    that out: aggregate.fairness), None for every other: the only case for a
    warning colour."""
    if not dock["races"] or result["fairness"].get("named") != dock["dock"]:
        return None
    return "above" if dock["share"] > fair_share(result, dock) else "below"


def fair_share(result: BalanceResult, dock: Dock) -> float:
    """A dock's fair share of decided races (1/k for k robots a race)."""
    k = result["robots"]
    return dock.get("fair_share", 1.0 / k if k else 0.0)


def few_wins(result: BalanceResult) -> str | None:
    """The verdict's lead when too few races are won to judge the docks
    (engine/analysis/balance/aggregate.py ``WINS_PER_DOCK``): how many were won, where
    robots died, and how many races would do. None otherwise."""
    n, won = result["races"], result["completion"]["decided"]
    needed = result["fairness"].get("wins_needed", 0)
    if not n or won >= needed:
        return None
    if 2 * won >= n:         # most are won: a short run, not a course nobody finishes
        head, why = f"**{won} of {n} races were won**", "too few to judge the docks yet"
    else:
        head = (f"**Only {won} of {n} races were won**" if won else
                f"**No robot reached the last flag in {n} races**")
        why = _where_robots_died(result)
    more = result["fairness"]["more_races_needed"]
    wait = f"about {more} more races should do" if more else "none is yet"
    return f"{head}: {why}. The docks' fairness is judged once {needed} races are won ({wait})."


def _where_robots_died(result: BalanceResult) -> str:
    """The leg with the most deaths and the deadliest square, in words."""
    legs = [leg for leg in result["legs"] if leg["deaths"]]
    if not legs:
        return "no robot died: the races ran out of rounds"
    leg = max(legs, key=lambda leg: leg["deaths"])
    card = result.get("card")
    square = card["deadliest_square"] if card else None
    where = f", the most at ({square['x']}, {square['y']}) ({square['cause']})" if square else ""
    return f"most died on the way to flag {leg['to_flag']}{where}"


def markdown(result: BalanceResult, charts: bool = True) -> str:
    """The report's text: plain language first, then the tables."""
    k = result["robots"]
    comp = result["completion"]
    length = result["length"]
    fairness = result["fairness"]
    lines = [f"# Balance report: {result['scenario']}", ""]
    stopped = " (stopped early)" if result.get("cancelled") else ""
    seated = seating_words(result.get("players") or [k], result.get("seating", "game"),
                           result["bot"])
    lines.append(f"{result['races']} races{stopped} of {seated}, seed "
                 f"{result['seed']}, in {result['elapsed_s']:.1f} s.")
    lines.append("")
    card = result.get("card")
    if card and result["races"]:
        lines += ["## Course card", ""]
        lines += [f"- {line}" for line in card_lines(card)[1:]]
        lines.append("")
    lines.append("## In short")
    lines.append("")
    verdict = fairness["verdict"]
    few = few_wins(result)
    by_team = result.get("teams")
    if by_team is not None and result["races"]:
        # a team course: teams and seats, not docks (docs/rules.md 13)
        lines += [f"- {line}" for line in team_lines(by_team)]
        lines.append("")
    elif not result["races"]:
        lines.append("**No races were played.**")
    elif few:
        lines.append(few)
    elif verdict == "unfair":
        seats = fairness_words(seat_verdict(fairness, k)).removeprefix("unfair").lstrip(",: ")
        lines.append(f"**The course is unfair**: the seats' wins are too uneven to be luck "
                     f"(chi-square p = {fairness['chi2_p']:.2g}); {seats}.")
    elif verdict == "fair":
        lines.append(f"**The course looks fair**: every seat's share of decided races (races "
                     f"someone won) is within 5 points of a fair share, at 95% confidence.")
    else:
        more = fairness["more_races_needed"]
        hint = (f" About {more} more races should settle it." if more is not None
                else " More races may not settle it: the differences are near the 5-point line.")
        lines.append(f"**Not settled yet**: no clear sign of bias, but the intervals are still "
                     f"too wide to call the course fair.{hint}")
    lines.append("")
    lone = False        # a dock apart on its own while the docks together show no bias
    for d in result["docks"] if by_team is None else ():
        if not d["races"]:
            lines.append(f"- Dock {d['dock']} was not used.")
            continue
        if few:             # no comparison with a fair share: too few races are won
            lines.append(f"- Dock {d['dock']} wins {pct(d['win_rate'])} of races (95% interval "
                         f"{pct(d['ci'][0])} to {pct(d['ci'][1])}, {d['races']} races).")
            continue
        lo, hi = d["share_ci"]
        fair = fair_share(result, d)
        side = "above" if d["share"] > fair else "below"
        clear = lo > fair or hi < fair              # the interval leaves out a fair share
        big = abs(d["share"] - fair) > 0.05
        but = ""
        if clear and result["races"] and verdict != "unfair":
            lone = True
            how, but = side, ", though the course as a whole shows no clear bias"
        elif clear:
            how = f"well {side}" if big else f"a little {side}"
        elif big:
            how, but = side, ", though not clearly"
        else:
            how = "close to"
        lines.append(f"- Dock {d['dock']} wins {pct(d['win_rate'])} of races, {how} the "
                     f"{pct(fair)} of a fair course (95% interval {pct(d['ci'][0])} to "
                     f"{pct(d['ci'][1])}, {d['races']} races){but}.")
    if lone:
        lines.append("")
        lines.append(f"Why both: {dock_apart_note()}")
    lines.append("")
    lines.append(f"{pct(comp['rate'])} of races have a winner (95% interval "
                 f"{pct(comp['ci'][0])} to {pct(comp['ci'][1])}).")
    if length["median"] is not None:
        spread = (f"half of them between rounds {_rounds(length['q1'])} and "
                  f"{_rounds(length['q3'])}" if length["q3"] is not None else
                  f"a quarter by round {_rounds(length['q1'])}")
        lines[-1] += f" A race is won in round {_rounds(length['median'])} (median; {spread})."
    elif result["races"]:
        lines[-1] += " Fewer than half of them are won, so there is no median length."
    balance = fairness["balance"]
    if not few:
        lines.append(f"Balance {balance:.2f}: the best and worst docks' win rates are "
                     f"{100 * (1 - balance):.0f} points apart.")
    lines.append("")

    lines.extend(_options_section(result.get("options")))

    trial = [t for t in result["time_trial"] if t["trials"]]
    if trial:
        lines.append("## Time trial (one robot alone)")
        lines.append("")
        known = [(median, t["dock"]) for t in trial if (median := t["median_rounds"]) is not None]
        if known:
            (fast, fast_dock), (slow, slow_dock) = (min(known, key=lambda k: k[0]),
                                                    max(known, key=lambda k: k[0]))
            if slow > fast:
                lines.append(f"Alone, a robot from dock {fast_dock} finishes in "
                             f"{_rounds(fast)} rounds (median), one from dock "
                             f"{slow_dock} needs {_rounds(slow)}.")
            else:
                lines.append(f"Alone, a robot finishes in {_rounds(fast)} "
                             f"rounds (median) from every dock.")
            lines.append("")
        lines.append("| dock | trials | finished | median rounds |")
        lines.append("|---:|---:|---:|---:|")
        for t in trial:
            lines.append(f"| {t['dock']} | {t['trials']} | {t['finished']} | "
                         f"{_rounds(t['median_rounds'])} |")
        lines.append("")

    lines.append("## Legs")
    lines.append("")
    worst = max(result["legs"], key=lambda leg: leg["death_rate"], default=None)
    if worst and worst["death_rate"] > 0:
        lines.append(f"The deadliest leg is the one to flag {worst['to_flag']}: "
                     f"{worst['death_rate']:.2f} deaths per robot.")
        lines.append("")
    lines.append("| to flag | robots | median rounds | deaths | deaths per robot |")
    lines.append("|---:|---:|---:|---:|---:|")
    for leg in result["legs"]:
        lines.append(f"| {leg['to_flag']} | {leg['robots']} | {_rounds(leg['median_rounds'])} | "
                     f"{leg['deaths']} | {leg['death_rate']:.3f} |")
    lines.append("")

    hot = _hot_squares(result["heatmaps"]["deaths"])
    if hot:
        lines.append("## Where robots die")
        lines.append("")
        why = {(sq["x"], sq["y"]): sq["why"] for sq in result["heatmaps"]["chains"]}
        for (x, y), value in hot:
            chains = "; ".join(f"{w['chain']} ({w['per_100_races']:.1f})" for w in why[(x, y)])
            lines.append(f"- ({x}, {y}): {value:.1f} deaths per 100 races: {chains}")
        lines.append("")
    if result["reentry_loops"]:
        lines.append("## Re-entry loops")
        lines.append("")
        lines.extend(f"- {loop_line(loop)}" for loop in result["reentry_loops"])
        lines.append("")

    lines.append("## Docks")
    lines.append("")
    lines.append("| dock | races | wins | win rate | 95% interval |")
    lines.append("|---:|---:|---:|---:|---|")
    for d in result["docks"]:
        lines.append(f"| {d['dock']} | {d['races']} | {d['wins']} | {pct(d['win_rate'])} | "
                     f"{pct(d['ci'][0])} to {pct(d['ci'][1])} |")
    lines.append("")
    lines.append(f"Chi-square {fairness['chi2']:.2f} on {fairness['df']} degrees of freedom, "
                 f"p = {fairness['chi2_p']:.3g}.")
    lines.append("")
    if charts:
        lines.append("## Charts")
        lines.append("")
        lines.append(f"![win rate per dock]({CHARTS['win_rates']})")
        lines.append(f"![race length]({CHARTS['race_length']})")
        lines.append(f"![deaths]({CHARTS['deaths']})")
        lines.append(f"![deaths by cause]({CHARTS['deaths_by_cause']})")
        lines.append(f"![where robots end a register]({CHARTS['occupancy']})")
        lines.append("")
    return "\n".join(lines)


def _options_section(opts: Options | None) -> list[str]:
    """The report's section on option cards (engine/analysis/balance/aggregate.py, options)."""
    if not opts:
        return []
    lines = ["## Options", ""]
    if opts["mode"] != "played":
        return lines + ["Option cards were only counted in these races (rules.options "
                        "\"counted\"); run with `--options played` to see what they are worth.",
                        ""]
    lines.append("Option cards were played (rules.options \"played\").")
    lines.append("")
    holders, others = opts["holders"], opts["non_holders"]
    for words, group in (("Robots that held at least one option", holders),
                         ("Robots that held none", others)):
        if group["robots"]:
            lines.append(f"- {words} won {pct(group['win_rate'])} of their races (95% interval "
                         f"{pct(group['ci'][0])} to {pct(group['ci'][1])}, "
                         f"{group['robots']} robot-races).")
    if holders["robots"] and others["robots"]:
        lines.append("- Robots gain cards where robots doing well go (upgrade squares, flags), "
                     "so the difference is not what a card is worth on its own.")
    lines.append("")
    if opts["upgrades"]:
        lines.append("| upgrade square | cards given | per race |")
        lines.append("|---|---:|---:|")
        for u in opts["upgrades"]:
            lines.append(f"| ({u['x']}, {u['y']}) | {u['gains']} | {u['per_race']:.2f} |")
        lines.append("")
    if opts["used"]:
        lines.append("Cards used (times a card changed an outcome): " + ", ".join(
            f"{card} {count}" for card, count in opts["used"]) + ".")
        lines.append("")
    return lines


def _hot_squares(grid: Grid, top: int = 5) -> list[tuple[tuple[int, int], float]]:
    cells = [((x, y), v) for y, row in enumerate(grid) for x, v in enumerate(row) if v > 0]
    cells.sort(key=lambda c: (-c[1], c[0][1], c[0][0]))
    return cells[:top]


# ---------------------------------------------------------------- charts

def win_rate_top(result: BalanceResult) -> float:
    """The top of a win rate chart: above every interval and the fair band,
    so that the fair line shows even when no race is won."""
    k = result["robots"]
    band = 1.0 / k + 0.05 if k else 0.0
    return min(1.0, max([0.1, band] + [d["ci"][1] for d in result["docks"] if d["races"]]) * 1.15)


def _figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Figure, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, format="png")


def chart_win_rates(result: BalanceResult, path: Path) -> None:
    fig = _figure(6.4, 4.0)
    ax = fig.add_subplot()
    docks = [d for d in result["docks"]]
    xs = [d["dock"] for d in docks]
    rates = [d["win_rate"] for d in docks]
    low = [max(0.0, r - d["ci"][0]) for r, d in zip(rates, docks)]
    high = [max(0.0, d["ci"][1] - r) for r, d in zip(rates, docks)]
    ax.bar(xs, rates, color="#4c78a8", yerr=[low, high], capsize=4, ecolor="#333333")
    k = result["robots"]
    if k:
        fair = 1.0 / k
        ax.axhspan(fair - 0.05, fair + 0.05, color="#54a24b", alpha=0.15, label="fair +- 5 points")
        ax.axhline(fair, color="#54a24b", linestyle="--", label=f"fair ({100 * fair:.0f}%)")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_xticks(xs)
    ax.set_xlabel("dock")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, win_rate_top(result))
    ax.set_title(f"Win rate per dock, 95% intervals ({result['races']} races)")
    _save(fig, path)


def chart_race_length(result: BalanceResult, path: Path) -> None:
    fig = _figure(6.4, 4.0)
    ax = fig.add_subplot()
    hist = result["length"]["histogram"]
    if hist:
        ax.bar([h[0] for h in hist], [h[1] for h in hist], width=0.9, color="#f58518")
    marks = quartile_marks(result["length"])
    for key, value, style in marks:
        ax.axvline(value, color="#333333", linestyle=style, label=f"{key} {value:g}")
    if marks:
        ax.legend(loc="upper right", fontsize=8)
    undecided = result["length"]["undecided"]
    ax.set_xlabel("winning round")
    ax.set_ylabel("races")
    ax.set_title("Race length" + (f" ({undecided} races undecided)" if undecided else ""))
    _save(fig, path)


def quartile_marks(length: RaceLength) -> list[tuple[str, float, str]]:
    """The race length chart's lines: (name, round, line style) of the
    quartiles the races reach."""
    marks = (("q1", length["q1"], ":"), ("median", length["median"], "--"),
             ("q3", length["q3"], ":"))
    return [(key, value, style) for key, value, style in marks if value is not None]


def _draw_board(ax: Axes, scenario: Scenario | None, grid: Grid, title: str, cmap: str = "magma_r",
                colorbar: Callable[..., object] | None = None) -> None:
    import numpy as np
    data = np.array(grid, dtype=float)
    image = ax.imshow(data, cmap=cmap, origin="upper", interpolation="nearest",
                      extent=(-0.5, data.shape[1] - 0.5, data.shape[0] - 0.5, -0.5))
    if colorbar is not None:
        colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="per 100 races")
    ax.set_title(title, fontsize=9)
    ax.set_xticks([])
    ax.set_yticks([])
    if scenario is None:
        return
    board = scenario.board
    for tile in board.tiles:
        if tile.type in DEADLY_TYPES:
            ax.add_patch(_rect(tile.x, tile.y, hatch="xx"))
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
                color="black", bbox={"boxstyle": "circle,pad=0.1", "fc": "#ffffff", "ec": "#333333"})


def _rect(x: int, y: int, hatch: str) -> Rectangle:
    from matplotlib.patches import Rectangle
    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch=hatch, edgecolor="#7f7f7f",
                     linewidth=0)


def _board_size(result: BalanceResult) -> tuple[float, float]:
    w, h = result["heatmaps"]["width"], result["heatmaps"]["height"]
    scale = 6.0 / max(w, h)
    return max(3.0, w * scale + 1.5), max(3.0, h * scale + 0.8)


def chart_heatmap(result: BalanceResult, scenario: Scenario | None,
                  key: Literal["deaths", "occupancy"], title: str, path: Path) -> None:
    fig = _figure(*_board_size(result))
    ax = fig.add_subplot()
    _draw_board(ax, scenario, result["heatmaps"][key], title, colorbar=fig.colorbar)
    _save(fig, path)


def chart_deaths_by_cause(result: BalanceResult, scenario: Scenario | None, path: Path) -> None:
    w, h = _board_size(result)
    causes = list(result["heatmaps"]["deaths_by_cause"])
    fig = _figure(min(20.0, w * len(causes) * 0.75), h * 0.8)
    for i, cause in enumerate(causes, 1):
        ax = fig.add_subplot(1, len(causes), i)
        _draw_board(ax, scenario, result["heatmaps"]["deaths_by_cause"][cause], cause)
    _save(fig, path)


def write_report(result: BalanceResult, directory: FilePath,
                 scenario: Scenario | None = None) -> list[Path]:
    """Write report.md and the charts into `directory` (made if missing);
    returns the files written. They appear whole or not at all: written
    beside it first, then moved in. `scenario` (optional) draws walls, pits, flags
    and docks on the heatmaps."""
    target = Path(directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    out = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    UNFINISHED.add(out)
    umask = os.umask(0)
    os.umask(umask)
    out.chmod(0o777 & ~umask)          # (as a folder made by mkdir, not mkdtemp's 0700)
    try:
        _write_report(result, out, scenario)
        names = sorted(p.name for p in out.iterdir())
        if target.is_dir():
            for name in names:
                os.replace(out / name, target / name)
            out.rmdir()
        else:
            out.rename(target)
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    finally:
        UNFINISHED.discard(out)
    return [target / "report.md", *(target / name for name in CHARTS.values())]


def _write_report(result: BalanceResult, out: Path, scenario: Scenario | None) -> None:
    charts = [
        (CHARTS["win_rates"], lambda p: chart_win_rates(result, p)),
        (CHARTS["race_length"], lambda p: chart_race_length(result, p)),
        (CHARTS["deaths"], lambda p: chart_heatmap(result, scenario, "deaths",
                                                   "Deaths per 100 races", p)),
        (CHARTS["deaths_by_cause"], lambda p: chart_deaths_by_cause(result, scenario, p)),
        (CHARTS["occupancy"], lambda p: chart_heatmap(result, scenario, "occupancy",
                                                      "Register ends per 100 races", p)),
    ]
    for name, draw in charts:
        draw(out / name)
    (out / "report.md").write_text(markdown(result), encoding="utf-8")
