"""Checkpoints (rules 6): flags touched in order, finishing, archive markers."""
from __future__ import annotations

from .state import Floor, RobotState


def touch(floor: Floor, robots: list[RobotState], register: int) -> list[RobotState]:
    """Step E for the robots on the board (robot order; those destroyed since
    the list was made are skipped); returns the robots that finished in it."""
    marks = floor.marks
    finished = []
    flags = floor.flag_squares
    last = len(flags)
    flag_at = floor.flag_at
    archive_point = floor.course.archive_point
    any_flag = floor.rules.archive_on_any_flag
    log = floor.events is not None
    for robot in robots:
        sq = robot.sq
        if sq < 0 or not marks[sq]:
            continue
        if robot.flags < last and sq == flags[robot.flags]:
            robot.flags += 1
            if log:
                floor.emit("flag", robot, src=floor.course.xy[sq], amount=robot.flags)
            if robot.flags == last:
                robot.finished = (floor.round, register)
                finished.append(robot)
            # 6.2's "next flag" is the one just touched: after touching it,
            # the next flag is one the robot cannot be standing on.
            moves_archive = True
        else:
            moves_archive = archive_point[sq] or (any_flag and flag_at[sq] > 0)
        if moves_archive and robot.archive != sq:
            robot.archive = sq
            if log:
                floor.emit("archive", robot, dst=floor.course.xy[sq])
    return finished
