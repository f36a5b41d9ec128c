"""The one beam tracer (engine/rules/beams.py) and the race's board lasers that
follow it through the beams indexed by square (Course.beams_on)."""
from __future__ import annotations

import random

import pytest

from rallyforge.engine.model.scenario import Board, Laser, Pusher, Rules, Wall
from rallyforge.engine.rules.beams import board_beams, ray
from rallyforge.engine.rules.course import Course
from rallyforge.engine.rules.lasers import fire
from rallyforge.engine.rules.option_weapons import fire_with_options
from rallyforge.engine.rules.state import Floor, RobotState


def squares(board: Board, cells) -> tuple[int, ...]:
    return tuple(board.index(x, y) for x, y in cells)


def test_a_ray_stops_at_walls_mounts_and_the_edge():
    board = Board(8, 4, walls=(Wall(3, 2, "E"),), pushers=(Pusher(6, 0, "E", (1,)),))
    assert ray(board, board.index(0, 2), 1) == squares(board, [(1, 2), (2, 2), (3, 2)])
    assert ray(board, board.index(5, 2), 1) == squares(board, [(6, 2), (7, 2)])
    assert ray(board, board.index(4, 2), 3) == ()                  # the wall on (3, 2)'s east side
    assert ray(board, board.index(2, 0), 1) == squares(board, [(3, 0), (4, 0), (5, 0)])  # a mount
    assert ray(board, board.index(1, 3), 0) == squares(board, [(1, 2), (1, 1), (1, 0)])


def test_board_beams_start_on_the_laser_and_say_how_they_end():
    board = Board(8, 4, walls=(Wall(3, 2, "E"), Wall(0, 0, "N")),
                  lasers=(Laser(0, 2, "E", 2), Laser(5, 2, "E"), Laser(4, 2, "W"), Laser(0, 3, "N"),
                          Laser(9, 9, "N")))
    beams = board_beams(board)
    assert [(b.laser, b.squares, b.walled) for b in beams] == [
        (Laser(0, 2, "E", 2), squares(board, [(0, 2), (1, 2), (2, 2), (3, 2)]), True),
        (Laser(5, 2, "E"), squares(board, [(5, 2), (6, 2), (7, 2)]), False),
        (Laser(4, 2, "W"), squares(board, [(4, 2)]), True),        # its mount is the wall
        (Laser(0, 3, "N"), squares(board, [(0, 3), (0, 2), (0, 1), (0, 0)]), True),
    ]                                                               # off the board: no beam


def _naive_pending(board: Board, spots: dict[int, int]) -> dict[int, int]:
    """Board-laser damage by walking every beam square by square."""
    out: dict[int, int] = {}
    for beam in board_beams(board):
        for square in beam.squares:
            if square in spots:
                out[spots[square]] = out.get(spots[square], 0) + beam.laser.beams
                break
    return out


def _random_laser_step(seed: int) -> tuple[Floor, list[RobotState], dict[int, int]]:
    """A random board with lasers and walls, robots on random squares (board
    lasers only), and the damage each robot takes from walking the beams."""
    rng = random.Random(seed)
    w, h = rng.randint(2, 9), rng.randint(2, 9)
    cells = [(x, y) for y in range(h) for x in range(w)]
    lasers = tuple(Laser(x, y, rng.choice("NESW"), rng.randint(1, 3))
                   for x, y in rng.sample(cells, rng.randint(1, min(6, len(cells)))))
    walls = tuple(Wall(x, y, rng.choice("NESW")) for x, y in rng.sample(cells, len(cells) // 4))
    board = Board(w, h, walls=walls, lasers=lasers)
    spots = rng.sample(range(w * h), rng.randint(1, min(8, w * h)))
    robots = [RobotState(i, f"R{i}", sq, 0) for i, sq in enumerate(spots)]
    floor = Floor(Course(board), Rules(robot_lasers=False, destroy_at_damage=100), robots)
    return floor, robots, _naive_pending(board, {sq: i for i, sq in enumerate(spots)})


@pytest.mark.parametrize("seed", range(40))
def test_board_lasers_hit_the_robot_nearest_each_laser(seed):
    floor, robots, expected = _random_laser_step(seed)
    fire(floor, robots)
    assert {r.index: r.damage for r in robots if r.damage} == expected


@pytest.mark.parametrize("seed", range(40))
def test_with_option_cards_board_lasers_hit_the_robot_nearest_each_laser(seed):
    """The laser step of a race that plays option cards finds its targets
    through the same index (its cost does not grow with the board)."""
    floor, robots, expected = _random_laser_step(seed)
    fire_with_options(floor, robots, 0, None)
    assert {r.index: r.damage for r in robots if r.damage} == expected
