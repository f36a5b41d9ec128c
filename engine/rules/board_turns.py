"""Factory boards that turn when a flag is touched (docs/rules.md 12.10).

A race of a course with ``board_turns_on_flag`` holds one ``BoardTurns``:
when a robot touches a flag, a coin from the race's generator decides
whether the factory board under the flag (the course's ``boards``) turns a
quarter clockwise. The turned board is compiled like any other
(engine/rules/course.py) and the race plays on on it; robots, flags and
archive markers keep their squares.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from rallyforge.engine.model.scenario import Board, Scenario
from rallyforge.engine.model.turning import turn_part
from rallyforge.engine.rules.course import Course, compile_course
from rallyforge.engine.rules.state import Floor


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
        part = self.scenario.board_under(*self.floor.course.xy[square])
        if part is None or not part.turns_in_place:
            return
        heads = self.rng.random() < 0.5
        floor = self.floor
        if floor.events is not None:
            floor.emit("board_turn", None, target=part.name, src=floor.course.xy[square],
                       amount=1 if heads else 0)
        if heads:
            self.put(turn_part(self.board, part))

    def put(self, board: Board) -> None:
        """Play on on `board` (a turn, or a saved race's board back)."""
        if board is not self.board:
            self.board = board
            course = compile_course(board)
            self.floor.set_course(course)
            self.use(board, course)
