"""A robot laser's first target found on the bitboards (lasers.first_in_sight,
which the laser step with option cards uses when no path is recorded) is
the robot that walking its beam square by square hits
(option_weapons.trace), on random boards with walls, levels and crowds."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rallyforge.engine.model.scenario import Level
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.lasers import first_in_sight
from rallyforge.engine.rules.option_weapons import trace
from rallyforge.engine.rules.state import Floor, RobotState
from tests import random_courses


@pytest.mark.parametrize("seed", range(12))
def test_the_first_robot_in_sight_is_the_first_the_beam_hits(seed):
    scenario = random_courses.random_course(seed)
    board = scenario.board
    rng = random.Random(seed)
    # levels too (beams stop at a level change), which random courses leave out
    levels = tuple(Level(x, y, rng.randint(1, 3)) for y in range(board.height)
                   for x in range(board.width) if rng.random() < 0.2)
    course = compile_course(replace(board, levels=levels))
    squares = rng.sample(range(course.size), rng.randint(1, min(course.size, 30)))
    robots = [RobotState(i, f"R{i}", sq, 0) for i, sq in enumerate(squares)]
    floor = Floor(course, scenario.rules, robots, (), False, None)
    occupied = sum(course.bit[sq] for sq in squares)
    for sq in range(course.size):
        for d in range(4):
            hit = trace(floor, sq, d, 0)[1]
            found = first_in_sight(course, occupied, sq, d)
            assert (floor.occ[found] if found >= 0 else None) == (hit[0] if hit else None), \
                (sq, d)
