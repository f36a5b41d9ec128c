"""A suggestion's expected effect in words, for the command line and the
editor: each measure before -> after with the 95% interval of its change."""
from __future__ import annotations

from rallyforge.engine.analysis.figures import ends_and_change
from rallyforge.engine.analysis.suggest.types import Change, Effect, Suggestion, SuggestResult


def points(x: float) -> str:
    """A share (0..1) as whole percentage points."""
    return f"{100 * x:.0f}"


def _signed(x: float) -> str:
    """Points with their sign, never "-0"."""
    return f"{round(100 * x) or 0:+d}"


def _signed_hundredths(x: float) -> str:
    """To two decimals with their sign, never "-0.00"."""
    return f"{round(x, 2) + 0.0:+.2f}"


def _gap_line(g: Change) -> str:
    lo, hi = g["ci"]
    old, new, change = ends_and_change(100 * g["old"], 100 * g["new"])
    return (f"gap between the best and worst dock {old} -> {new} points "
            f"(change {change}, 95% interval {_signed(lo)} to {_signed(hi)})")


def _rounds_line(m: Change) -> str:
    lo, hi = m["ci"]
    return (f"median race {m['old']:g} -> {m['new']:g} rounds (95% interval of the change "
            f"{lo:+g} to {hi:+g})")


def _deaths_line(d: Change) -> str:
    lo, hi = d["ci"]
    return (f"deadliest leg {d['old']:.2f} -> {d['new']:.2f} deaths per robot (95% interval of "
            f"the change {_signed_hundredths(lo)} to {_signed_hundredths(hi)})")


def effect_lines(result: SuggestResult, effect: Effect) -> list[str]:
    """The expected effect of a suggestion in words: on each goal, then on
    the measures that are no goal (so that a fix for one thing does not
    hide what it costs in another)."""
    goals = result["goals"]
    measures = (("gap", _gap_line, goals["fair"]),
                ("median_rounds", _rounds_line, "length" in goals or "rounds" in goals),
                ("worst_leg_deaths", _deaths_line, "deaths_per_leg" in goals))
    return ([line(effect[key]) for key, line, wanted in measures if wanted]
            + [f"not a goal: {line(effect[key])}" for key, line, wanted in measures if not wanted])


def suggestion_lines(result: SuggestResult, s: Suggestion, how: str,
                     mark: str = "") -> list[str]:
    """A suggestion in words: "1. the edits", why, its expected effect, and
    `how` sure the races are of it (`mark` before its number: "idea ")."""
    return [f"{mark}{s['rank']}. " + "; ".join(e["words"] for e in s["edits"]),
            *([f"why: {s['why']}"] if s["why"] else []), *effect_lines(result, s["effect"]),
            f"{how}; judged on {s['races']} races against the course as it is"]
