"""The course card's shape (build.py makes it; docs/format.md, "card").

A card kept in a file is untrusted JSON: ``build.readable`` checks it
against ``CourseCard`` (engine/format/typed_json.py). The keys a card kept by an
older version may lack are ``NotRequired``.
"""
from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from rallyforge.engine.format.typed_json import Items

# a 95% interval [low, high]; None: that end is never reached
Interval = Annotated[list[float | None], Items(2)]
# the same, where both ends always exist (a proportion's Wilson interval)
Bounds = Annotated[list[float], Items(2)]

Length = TypedDict("Length", {
    "class": str, "could_be": list[str],
    "rounds": float | None, "rounds_ci": Interval,
    "minutes": float | None, "minutes_ci": Interval,
    "minutes_per_round": float, "undecided": float,
    "flag_path": NotRequired[float]})

Difficulty = TypedDict("Difficulty", {
    "class": str, "could_be": list[str],
    "deaths_per_robot_leg": float, "ci": Interval, "flag_score": float | None,
    "special_rules": NotRequired[list[str]]})


class SeatVerdict(TypedDict):
    """The verdict on the seats of one player count
    (engine/analysis/balance/course_card.py seat_verdict):
    `favoured_dock` is the seat it names (above or below its fair share;
    None when it names none); `dock`, `share`, `share_ci` and `fair_share`
    are the seat furthest from its fair share; `balance` 1 minus the gap
    between the best and worst seats' win rates."""
    robots: int
    verdict: str
    balance: float | None
    favoured_dock: int | None
    dock: int | None
    share: float | None
    share_ci: Interval
    fair_share: float
    more_races_needed: int | None
    won: int                                    # won races, of the wins_needed
    wins_needed: int


class Fairness(TypedDict):
    """As a SeatVerdict (the keys a card kept by an older version may lack
    are NotRequired), with the balance, and the verdict of each player count
    of a run of several (`by_players`; the verdict itself pools them)."""
    verdict: str
    balance: float | None
    favoured_dock: int | None
    share: float | None
    share_ci: Interval
    fair_share: float
    more_races_needed: int | None
    dock: NotRequired[int | None]
    won: NotRequired[int]
    wins_needed: NotRequired[int]
    by_players: NotRequired[list[SeatVerdict]]


class DeadliestLeg(TypedDict):
    to_flag: int
    deaths: int
    robots: int
    rate: float
    ci: Interval


class DeadliestSquare(TypedDict):
    x: int
    y: int
    per_100_races: float
    ci: Interval
    cause: str
    why: NotRequired[str]           # the commonest cause chain (balance/why.py)


class ReentryLoop(TypedDict):
    """An archive point where re-entering robots soon die again (balance/why.py)."""
    x: int
    y: int
    reentries: int
    deaths: int
    share: float
    ci: Bounds
    chain: str


class FlagPart(TypedDict):
    what: str
    points: int


class FlagScore(TypedDict):
    flag: int
    x: int
    y: int
    score: int
    parts: list[FlagPart]


class GoalCheck(TypedDict):
    goal: str                       # length, rounds, deaths_per_leg or fair
    wanted: str | int | float | bool
    verdict: str                    # met, missed or unsure


class GoalVerdicts(TypedDict):
    robots: int | None
    checks: list[GoalCheck]


class Printed(TypedDict):
    """What the publisher printed for a course of the game's course manual."""
    id: str
    page: int
    length: str
    difficulty: str | None      # None: a team course (no printed difficulty)


class TeamShare(TypedDict):
    name: str
    share: float
    ci: Bounds


class TeamCard(TypedDict):
    """A team course's verdict by team (engine/analysis/balance/teams.py)."""
    leader: str | None
    margin: float
    margin_ci: Bounds
    shares: list[TeamShare]
    first_side: float
    first_side_ci: Bounds
    even: float
    edge: Literal["edge", "behind", "none"]


class CourseCard(TypedDict):
    course: str
    play_hash: str
    robots: int
    races: int
    bot: str
    seed: int
    estimate: bool
    players: NotRequired[list[int]]     # robot counts raced in turn (robots: the most)
    seating: NotRequired[str]           # game (k robots on docks 1..k) or rotate
    length: Length
    difficulty: Difficulty
    fairness: Fairness
    deadliest_leg: DeadliestLeg | None
    deadliest_square: DeadliestSquare | None
    reentry_loops: NotRequired[list[ReentryLoop]]
    programming_seconds: NotRequired[int]      # the course's clock, not simulated (docs/rules.md 12.7)
    flags: list[FlagScore]
    flag_score: float | None
    goals: NotRequired[GoalVerdicts | None]    # judged against the file's goals on reading
    printed: NotRequired[Printed]   # a published course's printed ratings (from the file)
    teams: NotRequired[TeamCard]        # a team course (docs/rules.md 13)
