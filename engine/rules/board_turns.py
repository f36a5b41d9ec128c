"""Factory boards that turn when a flag is touched (docs/rules.md 12.10).

A race of a course with ``board_turns_on_flag`` holds one ``BoardTurns``:
when a robot touches a flag, a coin from the race's generator decides
whether the factory board under the flag (the course's ``boards``) turns a
quarter clockwise. The turned board is compiled like any other
(engine/rules/course.py) and the race plays on on it; robots, flags and
archive markers keep their squares. ``flip`` is that coin and turn, shared
with the compiled race (engine/rules/compiled/race.py Changes).
"""
from __future__ import annotations

import random
from collections.abc import Callable

from rallyforge.engine.model.scenario import Board, FactoryBoard, Scenario
from rallyforge.engine.model.turning import turn_part
from rallyforge.engine.rules.course import Course, compile_course
from rallyforge.engine.rules.state import Floor


def turning(scenario: Scenario) -> bool:
    """Whether boards of `scenario` may turn in its races."""
    return scenario.rules.board_turns_on_flag and bool(scenario.boards)


def flip(scenario: Scenario, board: Board, x: int, y: int, rng: random.Random
         ) -> tuple[FactoryBoard, Board | None] | None:
    """A flag on (x, y) of `board` (the course's board as it lies now) was
    touched: None when no factory board that turns in place lies under it
    (and no coin is flipped), else that board and, when the coin falls
    heads, `board` with it turned a quarter clockwise (None for tails)."""
    part = scenario.board_under(x, y)
    if part is None or not part.turns_in_place:
        return None
    heads = rng.random() < 0.5
    return part, turn_part(board, part) if heads else None


class BoardTurns:
    def __init__(self, scenario: Scenario, rng: random.Random, floor: Floor,
                 use: Callable[[Board, Course], None]):
        """`use(board, course)` puts a turned board into play (the race's and
        its bots' views)."""
        self.scenario = scenario
        self.board = scenario.board
        self.rng, self.floor, self.use = rng, floor, use

    def flag_touched(self, square: int) -> None:
        """A robot touched the flag on `square`: flip the coin for its board."""
        floor = self.floor
        flipped = flip(self.scenario, self.board, *floor.course.xy[square], self.rng)
        if flipped is None:
            return
        part, turned = flipped
        if floor.events is not None:
            floor.emit("board_turn", None, target=part.name, src=floor.course.xy[square],
                       amount=0 if turned is None else 1)
        if turned is not None:
            self.put(turned)

    def put(self, board: Board) -> None:
        """Play on on `board` (a turn, or a saved race's board back)."""
        if board is not self.board:
            self.board = board
            course = compile_course(board)
            self.floor.set_course(course)
            self.use(board, course)
