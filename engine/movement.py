"""Movement by program cards (rules 3): steps, pushing, water, teleporters.

``push`` is also how pushers move a robot (rule 4.4).
"""
from __future__ import annotations

from .course import CURRENT, OFF_BOARD, TELEPORTER, WALL, WATER
from .deck import BACK, LEFT
from .directions import DX, DY
from .state import Floor, RobotState

# Quarter turns clockwise of left, right, uturn (card codes LEFT.. in order).
_TURNS = (3, 1, 2)
# Jump length of move1..3 started on a teleporter (rule 3.7).
_JUMPS = (3, 4, 5)


def play_card(floor: Floor, robot: RobotState, kind: int) -> None:
    """Carry out one card completely (rules 3.1-3.7). Board elements under
    the robot act as plain floor while it does (3.5)."""
    if kind >= LEFT:
        turn(floor, robot, _TURNS[kind - LEFT], "card")
        return
    if kind == BACK:
        d, steps = (robot.facing + 2) & 3, 1
    else:
        d, steps = robot.facing, kind + 1
    tile = floor.course.tile[robot.sq]
    if tile == TELEPORTER:
        distance = floor.rules.teleport_backup_distance if kind == BACK else _JUMPS[kind]
        jump(floor, robot, d, distance)
        return
    if tile == WATER or tile == CURRENT:
        steps -= 1
    for _ in range(steps):
        if not push(floor, robot, d, "card"):
            return


def turn(floor: Floor, robot: RobotState, quarter_turns: int, cause: str) -> None:
    robot.facing = (robot.facing + quarter_turns) & 3
    if floor.events is not None:
        floor.emit_turn(robot, quarter_turns, cause)


def push(floor: Floor, robot: RobotState, d: int, cause: str) -> bool:
    """Move `robot` one square towards d, pushing the unbroken line of robots
    ahead of it one square (3.2-3.4). Nobody moves when a wall stands in the
    way of any of them. Returns whether the robot moved and is still on the
    board."""
    target = floor.course.target
    occ = floor.occ
    ahead = target[robot.sq * 4 + d]
    if ahead == WALL:
        return False
    if ahead >= 0 and (ahead_robot := occ[ahead]) is not None:
        line = [ahead_robot]
        square = ahead
        while True:
            beyond = target[square * 4 + d]
            if beyond == WALL:
                return False
            if beyond < 0 or (next_robot := occ[beyond]) is None:
                break
            line.append(next_robot)
            square = beyond
        for pushed in reversed(line):
            step(floor, pushed, d, "push")
    step(floor, robot, d, cause)
    return robot.sq >= 0


def step(floor: Floor, robot: RobotState, d: int, cause: str) -> None:
    """Move a robot one square towards d onto a square known to be free (or
    off the board, or a pit)."""
    src = robot.sq
    course, occ = floor.course, floor.occ
    dst = course.target[src * 4 + d]
    occ[src] = None
    if floor.events is not None:
        floor.emit_move(robot, src, dst, d, cause)
    if dst >= 0 and course.death[dst] is None:      # the common case of Floor.put
        occ[dst] = robot
        robot.sq = dst
    else:
        floor.put(robot, dst, src)


def jump(floor: Floor, robot: RobotState, d: int, distance: int) -> None:
    """A movement card started on a teleporter (3.7): jump `distance` squares
    over walls, pits and robots; from a landing square that holds a robot go
    on to the first free square, and if a wall stops that, search back
    towards the start (ignoring walls) for the nearest free one."""
    course, occ = floor.course, floor.occ
    start = robot.sq
    occ[start] = None                   # its own start square counts as free
    x, y = course.xy[start]
    tx, ty = x + DX[d] * distance, y + DY[d] * distance
    if not (0 <= tx < course.width and 0 <= ty < course.height):
        _land(floor, robot, start, OFF_BOARD, d, distance, start)
        return
    square = ty * course.width + tx
    travelled = distance
    while occ[square] is not None:
        beyond = course.target[square * 4 + d]
        if beyond == WALL:
            square = _search_back(course, occ, start, d, distance)
            break
        if beyond == OFF_BOARD:
            _land(floor, robot, start, OFF_BOARD, d, travelled + 1, square)
            return
        square = beyond
        travelled += 1
    _land(floor, robot, start, square, d, 0, start)


def _search_back(course, occ, start: int, d: int, distance: int) -> int:
    """The free square nearest the landing square on the way back to the
    start square, which is free itself. A pit found there is where it lands:
    the rule asks only for a square without a robot."""
    x, y = course.xy[start]
    for k in range(distance - 1, 0, -1):
        square = (y + DY[d] * k) * course.width + x + DX[d] * k
        if occ[square] is None:
            return square
    return start


def _land(floor: Floor, robot: RobotState, start: int, square: int, d: int, distance: int,
          last: int) -> None:
    """End a jump from `start` on `square` (< 0: `distance` squares away, off
    the board, having last been over square `last`)."""
    if floor.events is not None:
        floor.emit_move(robot, start, square, d, "teleport", distance)
    floor.put(robot, square, last)
