"""Checkpoints (rules 6): flags touched in order, finishing, archive markers."""
from __future__ import annotations

from rallyforge.engine.rules.option_arm import arm_square
from rallyforge.engine.rules.option_holding import used
from rallyforge.engine.rules.state import Floor, RobotState
from rallyforge.engine.rules.superbot import scores


def touch(floor: Floor, robots: list[RobotState], register: int) -> list[RobotState]:
    """Step E for the robots on the board (robot order; those destroyed since
    the list was made are skipped); returns the robots that finished in it."""
    marks = floor.marks
    finished: list[RobotState] = []
    flags = floor.flag_squares
    last = len(flags)
    flag_at = floor.flag_at
    any_flag = floor.rules.archive_on_any_flag
    log = floor.events is not None
    teams = floor.teams
    unordered = teams is not None and teams.unordered
    for robot in robots:
        sq = robot.sq
        if unordered and sq >= 0:
            teams.touch(floor, robot, sq)       # type: ignore[union-attr]
        arm = "mechanical-arm" in robot.cards
        if sq < 0 or not (marks[sq] or arm):
            continue
        # a blocker never touches flags (it still moves its archive marker),
        # and flag control and capture touch flags their own way (13.2)
        racing = teams is None or not (unordered or teams.blocker[robot.index])
        armed = False
        if racing and arm and robot.flags < last and sq != flags[robot.flags] \
                and scores(floor, robot):
            reached = arm_square(floor, robot, flags[robot.flags].__eq__)
            if reached is not None:     # Mechanical Arm: one flag, no archive move (10.11)
                used(floor, robot, "mechanical-arm", cause="flag")
                _touch_flag(floor, robot, reached, register, finished)
                armed = True
        if not marks[sq]:
            continue
        if racing and not armed and robot.flags < last and sq == flags[robot.flags]:
            # under `superbot` only the SuperBot touches it; the others move
            # their archive all the same (12.9)
            if scores(floor, robot):
                _touch_flag(floor, robot, sq, register, finished)
            # 6.2's "next flag" is the one just touched: after touching it,
            # the next flag is one the robot cannot be standing on.
            moves_archive = True
        else:
            # (the course itself, not a copy: a touched flag may turn a board, 12.10)
            moves_archive = floor.course.archive_point[sq] or (any_flag and flag_at[sq] > 0)
        if moves_archive and robot.archive != sq:
            robot.archive = sq
            if log:
                floor.emit("archive", robot, dst=floor.course.xy[sq])
    return finished


def _touch_flag(floor: Floor, robot: RobotState, sq: int, register: int,
                finished: list[RobotState]) -> None:
    """The robot touches its next flag, on square sq (6.1); with
    `flag_gives_option` it is owed a card at clean-up (docs/rules.md 10.2)."""
    robot.flags += 1
    if floor.events is not None:
        floor.emit("flag", robot, src=floor.course.xy[sq], amount=robot.flags)
    if floor.teams is not None:
        floor.teams.touched(floor, robot)
    if robot.flags == len(floor.flag_squares):
        robot.finished = (floor.round, register)
        finished.append(robot)
    if floor.rules.flag_gives_option:
        floor.flag_gifts.append(robot)
    if floor.on_flag is not None:
        floor.on_flag(sq)
