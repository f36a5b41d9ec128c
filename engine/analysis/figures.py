"""Figures as the reports print them: two ends and the change between them."""
from __future__ import annotations


def ends_and_change(old: float, new: float, decimals: int = 0) -> tuple[str, str, str]:
    """`old`, `new` and their change as printed, to `decimals` decimals: the
    change is that of the printed ends, so that the figures add up (27.36 ->
    24.53 reads "27", "25", "-2"); never "-0"."""
    a, b = f"{old:.{decimals}f}", f"{new:.{decimals}f}"
    change = round(float(b) - float(a), decimals) + 0.0
    return a, b, f"{change:+.{decimals}f}"
