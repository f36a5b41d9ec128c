"""What the rules show a bot, and what they ask of it (engine/bots).

A bot is any object with

    program(view, hand, free_registers, rng) -> list[Card]
        one card from `hand` per register in `free_registers` (1-based
        register numbers, in order); fewer cards leave the last ones empty.
    power_down(view, rng) -> bool
        whether to be powered down next round (asked once a round).

A bot may also carry ``option_choices`` (engine/rules/state.py OptionChoices): what it does with
option cards whenever a card leaves a choice to its holder; a race's bots
without their own use the race's (engine/bots/option_policy.py).

``view`` (BotView) shows only the course, the rules and the bot's own
robot; ``hand`` comes in dealt order, which is random; ``rng`` is the race's
random generator, the only randomness a bot may use, so that a seed replays
the race. One bot object serves one robot for a whole race.
"""
from __future__ import annotations

import random
from typing import Protocol

from rallyforge.engine.model.scenario import Board, Card, Rules
from rallyforge.engine.rules.course import Course
from rallyforge.engine.rules.state import RobotState
from rallyforge.engine.rules.teams import TeamPlay


class BotView:
    """What a bot may see. `flags` are the flag squares (index y * width + x)
    in order, where they stand now, and `homes` their squares in the file
    (they differ when flags ride the belts, docs/rules.md 12.1); `robot` is
    its own robot's state, to be read, never changed.
    ``others()`` are the other robots of the race, for what a player sees of
    them across the table: square, facing, damage, lives, flags touched,
    archive and the cards in their locked registers, never the cards they
    are programming."""

    __slots__ = ("board", "course", "flags", "rules", "robot", "robots", "homes", "teams")

    def __init__(self, board: Board, course: Course, flags: tuple[int, ...], rules: Rules,
                 robot: RobotState, robots: list[RobotState] | None = None,
                 homes: tuple[int, ...] | None = None, teams: TeamPlay | None = None):
        self.board, self.course, self.flags, self.rules, self.robot = (
            board, course, flags, rules, robot)
        self.robots = robots if robots is not None else [robot]
        self.homes = homes if homes is not None else flags
        # a team race's sides and state, as the table sees them (docs/rules.md 13)
        self.teams = teams

    def others(self) -> list[RobotState]:
        return [r for r in self.robots if r is not self.robot]


class Bot(Protocol):
    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]: ...

    def power_down(self, view: BotView, rng: random.Random) -> bool: ...
