"""What a race comes to: each robot's public state, the winners, the rounds."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from rallyforge.engine.model.directions import NAMES
from rallyforge.engine.rules.course import Course
from rallyforge.engine.rules.state import RobotState


class Place(TypedDict):
    x: int
    y: int


class Finish(TypedDict):
    round: int
    register: int


class RobotDoc(TypedDict):
    """A robot in the `rallyforge run --json` document (RobotResult.to_json)."""
    name: str
    x: int | None
    y: int | None
    facing: str | None
    damage: int
    lives: int
    flags: int
    alive: bool
    out: bool
    powered_down: bool
    options: int
    option_cards: list[str]
    archive: Place
    finished: Finish | None
    deaths: int
    superbot: NotRequired[bool]


class OutcomeDoc(TypedDict):
    """The `rallyforge run --json` document without checks and events (Outcome.to_json)."""
    scenario: str
    seed: int
    rounds: int
    winners: list[str]
    robots: list[RobotDoc]
    teams: NotRequired[list[str]]


@dataclass(frozen=True)
class RobotResult:
    """A robot's public state at one moment. Off the board, x, y and facing
    are None."""
    name: str
    x: int | None
    y: int | None
    facing: str | None
    damage: int
    lives: int
    flags: int
    alive: bool                 # on the board
    out: bool                   # out of the race
    powered_down: bool          # powered down in the current round
    options: int
    option_cards: tuple[str, ...]       # ids held, in the order gained (played options)
    archive: tuple[int, int]
    finished: tuple[int, int] | None    # (round, register)
    deaths: int
    superbot: bool = False              # holds the SuperBot title (rule superbot)
    # (read by checks; not part of a robot's state that replays compare)
    won: bool = field(default=False, compare=False)     # its side has won (docs/rules.md 13)
    carries: int = field(default=0, compare=False)      # the flag it carries ("capture")

    @classmethod
    def of(cls, robot: RobotState, course: Course, won: bool = False,
           carries: int = 0) -> "RobotResult":
        on = robot.sq >= 0
        x, y = course.xy[robot.sq] if on else (None, None)
        return cls(robot.name, x, y, NAMES[robot.facing] if on else None, robot.damage,
                   robot.lives, robot.flags, on, robot.out, robot.powered_down, robot.options,
                   tuple(robot.cards), course.xy[robot.archive], robot.finished, robot.deaths,
                   robot.superbot, won, carries)

    def to_json(self) -> RobotDoc:
        doc: RobotDoc = {
            "name": self.name, "x": self.x, "y": self.y, "facing": self.facing,
            "damage": self.damage, "lives": self.lives, "flags": self.flags,
            "alive": self.alive, "out": self.out, "powered_down": self.powered_down,
            "options": self.options, "option_cards": list(self.option_cards), "archive": {"x": self.archive[0], "y": self.archive[1]},
            "finished": ({"round": self.finished[0], "register": self.finished[1]}
                         if self.finished else None),
            "deaths": self.deaths,
        }
        if self.superbot:
            doc["superbot"] = True
        return doc


def first_finishers(finished: Sequence[tuple[int, int] | None]) -> tuple[int, ...]:
    """The robots (by place in `finished`, each robot's (round, register) of
    its finish or None) that share the earliest finish: the winners, none
    when nobody finished."""
    finishes = [f for f in finished if f is not None]
    if not finishes:
        return ()
    first = min(finishes)
    return tuple(i for i, f in enumerate(finished) if f == first)


@dataclass(frozen=True)
class Outcome:
    scenario: str
    seed: int
    rounds: int                 # the last round played, in part or in full
    winners: tuple[str, ...]    # empty when undecided
    robots: tuple[RobotResult, ...]
    teams: tuple[str, ...] = ()     # the winning teams or players (docs/rules.md 13)

    @property
    def decided(self) -> bool:
        return bool(self.winners)

    def robot(self, name: str) -> RobotResult:
        return next(r for r in self.robots if r.name == name)

    def to_json(self) -> OutcomeDoc:
        """The `rallyforge run --json` document (without checks and events)."""
        doc: OutcomeDoc = {"scenario": self.scenario, "seed": self.seed, "rounds": self.rounds,
               "winners": list(self.winners), "robots": [r.to_json() for r in self.robots]}
        if self.teams:
            doc["teams"] = list(self.teams)
        return doc
