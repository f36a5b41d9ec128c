"""What board-laser damage costs per robot and round: 8 robots on random
squares, five lasers steps a round (robot lasers off, no events), on the
standard 12x16 course and on the 100x100 benchmark course (100 lasers),
in a race without option cards (engine/rules/lasers.py) and in one that plays
them (engine/rules/option_weapons.py). Goal: 100x100 within 2x of 12x16, as the beams
are indexed by square when the course is compiled.

    python -m bench.bench_lasers
"""
from __future__ import annotations

import random
import time

from bench import STANDARD
from bench.bench_validate import build_course
from rallyforge.engine.format.loader import load_dict, load_file
from rallyforge.engine.model.scenario import Board, Rules
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.lasers import fire
from rallyforge.engine.rules.option_weapons import fire_with_options
from rallyforge.engine.rules.state import Floor, RobotState


def laser_cost(board: Board, options: bool = False, robots: int = 8, rounds: int = 3000,
               seed: int = 1) -> float:
    """CPU microseconds of board-laser damage per robot-round; `options`: the
    laser step of a race that plays option cards."""
    course = compile_course(board)
    rng = random.Random(seed)
    free = [s for s in range(course.size) if course.death[s] is None]
    team = [RobotState(i, f"Robot {i + 1}", -1, 0) for i in range(robots)]
    rules = Rules(robot_lasers=False, destroy_at_damage=10 ** 9)
    floor = Floor(course, rules, team)
    spent = 0.0
    for _ in range(rounds):
        for robot in team:
            if robot.sq >= 0:
                floor.occ[robot.sq] = None
        for robot, square in zip(team, rng.sample(free, robots)):
            robot.sq = square
            floor.occ[square] = robot
        start = time.process_time()
        for slot in range(5):
            if options:
                fire_with_options(floor, team, slot, None)
            else:
                fire(floor, team)
        spent += time.process_time() - start
    return spent / (rounds * robots) * 1e6


def main(argv: list[str] | None = None) -> None:
    small = load_file(STANDARD).board
    large = load_dict(build_course(100)).board
    for options, race in ((False, ""), (True, ", option cards played")):
        costs = [laser_cost(small, options), laser_cost(large, options)]
        for board, cost in zip((small, large), costs):
            print(f"board lasers {board.width}x{board.height} ({len(board.lasers)} lasers{race}): "
                  f"{cost:.2f} us per robot-round")
        print(f"board lasers 100x100 / 12x16{race}: {costs[1] / costs[0]:.1f}x (goal: at most 2x)")


if __name__ == "__main__":
    main()
