"""One colour per team of a team course (docs/rules.md 13), the same in the
robots on the board, the Robots table, the race panel and the balance
charts (the report's and the Balance dialog's): the seating rule's team
names get their own colour, other names one of the palette by their place."""
from __future__ import annotations

NAMED = {"Red": "#d62728", "Blue": "#1f77b4", "Green": "#2ca02c", "Yellow": "#d4a017",
         "Orange": "#ff7f0e", "Purple": "#9467bd", "White": "#b0b0b0", "Black": "#333333"}
PALETTE = ("#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79")


def team_color(name: str | None, place: int = 0) -> str | None:
    """The colour of team `name` (None: no team, no colour); `place` picks
    the palette's colour for a name the seating rule does not use."""
    if name is None:
        return None
    return NAMED.get(name, PALETTE[place % len(PALETTE)])
