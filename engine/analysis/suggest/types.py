"""The shape of a ``suggest`` result (search.report makes it): what
`rallyforge suggest --json` writes (README, "The command line")."""
from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

from rallyforge.engine.format.typed_json import Items

# The measures of a set of races (score.measures): gap, spread, unevenness,
# median_rounds, worst_leg_deaths and shortfall.
Measures = dict[str, float]


class Change(TypedDict):
    """One measure from the course as it is to the edited one, on races
    matched by place, with the 95% paired bootstrap interval of the change."""
    old: float
    new: float
    change: float
    ci: Annotated[list[float], Items(2)]


# each measure's Change (score.paired_change)
Effect = dict[str, Change]


class EditJson(TypedDict):
    kind: str
    args: list[Any]                     # Edit.args, tuples as lists
    words: str


class GoalsJson(TypedDict):
    fair: bool
    length: NotRequired[str]
    rounds: NotRequired[int]
    deaths_per_leg: NotRequired[float]


class Suggestion(TypedDict):
    rank: int
    edits: list[EditJson]
    why: str                # what the search saw, in one line
    races: int              # races it was judged on
    clear: bool             # the shortfall's interval lies below zero
    effect: Effect


class SuggestResult(TypedDict):
    scenario: str
    goals: GoalsJson
    robots: int             # the most robots a race has
    players: list[int]      # the robot counts raced in turn
    seating: str            # game (k robots on docks 1..k) or rotate
    fairness: str | None    # the first run's verdict on the seats (None: not run)
    bot: str
    seed: int
    budget: int
    races: int              # played
    cancelled: bool
    screened: int           # candidate edits screened by the lone-robot model
    candidates: int         # versions raced
    before: Measures | None     # None: stopped before the course's first races ended
    elapsed_s: float
    suggestions: list[Suggestion]   # clear fixes only
    ideas: list[Suggestion]         # raced, seemed better, not confirmed
