"""The balance result's shape (aggregate.py makes it; ``rallyforge balance
--json`` prints it). Figures are rounded in aggregate.py; an interval end or
a median is None (null) when it is never reached.
"""
from __future__ import annotations

from typing import NotRequired, TypedDict

from rallyforge.engine.analysis.balance.teams import TeamVerdict
from rallyforge.engine.analysis.course_card.types import Bounds, CourseCard, Interval, ReentryLoop

Grid = list[list[float]]                # [y][x], per 100 races


class Completion(TypedDict):
    rate: float                         # share of races with a winner
    ci: Bounds                          # Wilson 95%
    decided: int


class RaceLength(TypedDict):
    """The winning round by Kaplan-Meier, undecided races censored at their
    last round; ``median_between`` read between whole rounds."""
    median: float | None
    median_ci: list[float | None]
    q1: float | None
    q3: float | None
    histogram: list[list[int]]          # [round, races won in it]
    undecided: int
    median_between: float | None
    median_between_ci: Interval


class Dock(TypedDict):
    """Wins over the races that used the dock, and over its decided races (share)."""
    dock: int
    races: int
    wins: int
    win_rate: float
    ci: Bounds                          # Wilson 95%
    decided: int
    share: float
    share_ci: Bounds
    fair_share: NotRequired[float]      # expected share of decided races (1/k for k robots)


class Apart(TypedDict):
    """The dock furthest from its fair share (aggregate.furthest)."""
    dock: int
    share: float
    share_ci: Bounds
    fair_share: float


class DockFairness(TypedDict):
    """aggregate.fairness."""
    verdict: str                        # fair, unfair or inconclusive
    chi2: float | None
    df: int
    chi2_p: float | None
    balance: float
    more_races_needed: int | None
    wins_needed: int
    won: NotRequired[int]               # won races, of the wins_needed
    apart: NotRequired[Apart | None]
    named: NotRequired[int | None]      # the dock the verdict names, if any


class PlayerCount(TypedDict):
    """The seats of the races of one robot count (a run of several)."""
    robots: int
    races: int
    docks: list[Dock]
    fairness: DockFairness


class TimeTrial(TypedDict):
    dock: int
    trials: int
    finished: int
    median_rounds: float | None


class Leg(TypedDict):
    to_flag: int
    robots: int                         # robots that set out on the leg
    median_rounds: float | None
    deaths: int
    death_rate: float


class Chain(TypedDict):
    chain: str
    per_100_races: float


class SquareChains(TypedDict):
    """Why robots die on a square (why.py ``Chains``)."""
    x: int
    y: int
    why: list[Chain]


class Heatmaps(TypedDict):
    width: int
    height: int
    per_races: int
    deaths: Grid
    deaths_by_cause: dict[str, Grid]
    occupancy: Grid
    chains: list[SquareChains]


class Upgrade(TypedDict):
    x: int
    y: int
    gains: int
    per_race: float


class Holders(TypedDict):
    robots: int                         # robot-races
    wins: int
    win_rate: float
    ci: Bounds


class Options(TypedDict):
    """aggregate.OptionUse: with counted options only the mode."""
    mode: str                           # played or counted
    upgrades: NotRequired[list[Upgrade]]
    holders: NotRequired[Holders]
    non_holders: NotRequired[Holders]
    used: NotRequired[list[list[str | int]]]     # [card, uses], most used first


class Measured(TypedDict):
    """The balance result without its card (the card is made from it)."""
    scenario: str
    races: int                          # played
    planned: int
    robots: int                         # the most robots a race had
    players: NotRequired[list[int]]     # the robot counts raced in turn
    seating: NotRequired[str]           # game (k robots on docks 1..k) or rotate
    bot: str
    engine: str                         # "compiled" or "python": which one raced (play.engine_name)
    seed: int
    cancelled: bool
    completion: Completion
    length: RaceLength
    docks: list[Dock]
    fairness: DockFairness
    by_players: NotRequired[list[PlayerCount]]     # with several counts: each apart
    time_trial: list[TimeTrial]
    legs: list[Leg]
    heatmaps: Heatmaps
    reentry_loops: list[ReentryLoop]
    options: Options
    elapsed_s: float
    teams: NotRequired[TeamVerdict]     # a team course: the verdict by team (teams.py)


class BalanceResult(Measured):
    card: CourseCard
