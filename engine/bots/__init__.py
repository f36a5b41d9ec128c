"""Bots: who programs a robot that has no scripted cards.

A bot is any object with

    program(view, hand, free_registers, rng) -> list[Card]
        one card from `hand` per register in `free_registers` (1-based
        register numbers, in order); fewer cards leave the last ones empty.
    power_down(view, rng) -> bool
        whether to be powered down next round (asked once a round).

``view`` (BotView) shows only the course, the rules and the bot's own
robot; ``hand`` comes in dealt order, which is random; ``rng`` is the race's
random generator, the only randomness a bot may use, so that a seed replays
the race. One bot object serves one robot for a whole race.

Register a bot class in ``BOTS``; ``DEFAULT_BOT`` names the one used when
none is named.
"""
from __future__ import annotations

import random
from typing import Protocol

from ..course import Course
from ..model import Board, Card, Rules
from ..state import RobotState
from .aware import AwareBot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot


class BotView:
    """What a bot may see. `flags` are the flag squares (index y * width + x)
    in order; `robot` is its own robot's state, to be read, never changed.
    ``others()`` are the other robots of the race, for what a player sees of
    them across the table: square, facing, damage, lives, flags touched,
    archive and the cards in their locked registers, never the cards they
    are programming."""

    __slots__ = ("board", "course", "flags", "rules", "robot", "robots")

    def __init__(self, board: Board, course: Course, flags: tuple[int, ...], rules: Rules,
                 robot: RobotState, robots: list[RobotState] | None = None):
        self.board, self.course, self.flags, self.rules, self.robot = (
            board, course, flags, rules, robot)
        self.robots = robots if robots is not None else [robot]

    def others(self) -> list[RobotState]:
        return [r for r in self.robots if r is not self.robot]


class Bot(Protocol):
    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]: ...

    def power_down(self, view: BotView, rng: random.Random) -> bool: ...


BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot,
                         "aware": AwareBot}
DEFAULT_BOT = "search"


def make_bot(name: str) -> Bot:
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are "
                         f"{', '.join(sorted(BOTS))}") from None
