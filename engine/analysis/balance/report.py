"""report.md and PNG charts for a balance result: the words of its verdict
from in_short.py, the charts from charts.py (the Balance dialog shows the
same).
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING

from rallyforge.engine.analysis.balance.charts import (board_size, draw_deaths_by_cause,
                                                       draw_heatmap, draw_race_length, draw_wins,
                                                       figure)
from rallyforge.engine.analysis.balance.in_short import in_short, pct, rounds_text
from rallyforge.engine.analysis.course_card.build import lines as card_lines, loop_line, seating_words
from rallyforge.engine.format.loader import UNFINISHED

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from rallyforge.engine.analysis.balance.types import BalanceResult, Grid, Options
    from rallyforge.engine.model.json_types import FilePath
    from rallyforge.engine.model.scenario import Scenario

CHARTS = {
    "win_rates": "win_rates.png",
    "race_length": "race_length.png",
    "deaths": "heatmap_deaths.png",
    "deaths_by_cause": "heatmap_deaths_by_cause.png",
    "occupancy": "heatmap_occupancy.png",
}


def markdown(result: BalanceResult, charts: bool = True) -> str:
    """The report's text: plain language first, then the tables."""
    k = result["robots"]
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
    lines += ["## In short", "", *_in_short_lines(result)]

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
                             f"{rounds_text(fast)} rounds (median), one from dock "
                             f"{slow_dock} needs {rounds_text(slow)}.")
            else:
                lines.append(f"Alone, a robot finishes in {rounds_text(fast)} "
                             f"rounds (median) from every dock.")
            lines.append("")
        lines.append("| dock | trials | finished | median rounds |")
        lines.append("|---:|---:|---:|---:|")
        for t in trial:
            lines.append(f"| {t['dock']} | {t['trials']} | {t['finished']} | "
                         f"{rounds_text(t['median_rounds'])} |")
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
        lines.append(f"| {leg['to_flag']} | {leg['robots']} | "
                     f"{rounds_text(leg['median_rounds'])} | "
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


def _in_short_lines(result: BalanceResult) -> list[str]:
    """The "In short" section's lines (in_short.py)."""
    short = in_short(result)
    if short.listed:
        return [f"- {line}" for line in (short.lead, *short.points)] + [*short.notes, ""]
    return [short.lead, "", *(f"- {line}" for line in short.points), *short.notes, ""]


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
    wide, high = board_size(result)
    causes = len(result["heatmaps"]["deaths_by_cause"])
    charts: list[tuple[str, tuple[float, float], Callable[[Figure], None]]] = [
        (CHARTS["win_rates"], (6.4, 4.0), lambda fig: draw_wins(fig, result)),
        (CHARTS["race_length"], (6.4, 4.0), lambda fig: draw_race_length(fig, result)),
        (CHARTS["deaths"], (wide, high), lambda fig: draw_heatmap(
            fig, result, scenario, "deaths", "Deaths per 100 races")),
        (CHARTS["deaths_by_cause"], (min(20.0, wide * causes * 0.75), high * 0.8),
         lambda fig: draw_deaths_by_cause(fig, result, scenario)),
        (CHARTS["occupancy"], (wide, high), lambda fig: draw_heatmap(
            fig, result, scenario, "occupancy", "Register ends per 100 races")),
    ]
    for name, size, draw in charts:
        fig = figure(*size)
        draw(fig)
        fig.savefig(out / name, format="png")
    (out / "report.md").write_text(markdown(result), encoding="utf-8")
