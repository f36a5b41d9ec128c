"""Conveyors and currents (rules 4.1-4.3): every robot on an active belt
square intends one square along it, and the intentions are resolved together."""
from __future__ import annotations

from rallyforge.engine.rules.course import WALL
from rallyforge.engine.rules.movement import land, turn
from rallyforge.engine.rules.option_holding import steady
from rallyforge.engine.rules.state import Floor, RobotState


def convey(floor: Floor, movers: list[RobotState], cause: str) -> bool:
    """Move `movers` (robots on the active belt squares, in robot order) one
    square along their belts at once; returns whether anyone moved.

    An intention across a wall is dropped first; then, until nothing changes,
    intentions are dropped when two or more share a target, when two robots
    would swap, or when the target holds a robot that is not moving. A ring
    of robots that all move keeps moving."""
    course, occ = floor.course, floor.occ
    target, belt = course.target, course.belt_dir
    if len(movers) == 1:
        # alone on the belts: only a wall or a robot standing ahead stops it
        robot = movers[0]
        to = target[robot.sq * 4 + belt[robot.sq]]
        if to == WALL or (to >= 0 and occ[to] is not None):
            return False
        occ[robot.sq] = None
        _carry(floor, robot, to, cause)
        return True
    intents: dict[RobotState, int] = {}
    for robot in movers:
        sq = robot.sq
        to = target[sq * 4 + belt[sq]]
        if to != WALL:
            # off the board: a key of its own (only this square leads there this way)
            intents[robot] = to if to >= 0 else -3 - sq
    while intents:
        targets = list(intents.values())
        dropped = []
        for robot, to in intents.items():
            if targets.count(to) > 1:
                dropped.append(robot)
            elif to >= 0:
                there = occ[to]
                if there is not None:
                    going = intents.get(there)
                    if going is None or going == robot.sq:     # standing still, or a swap
                        dropped.append(robot)
        if not dropped:
            break
        for robot in dropped:
            del intents[robot]
    if not intents:
        return False
    for robot in intents:
        occ[robot.sq] = None
    for robot, to in intents.items():
        if robot.sq >= 0:   # (else it left with its player, put out meanwhile: 13.2)
            _carry(floor, robot, max(to, -1), cause)
    return True


def _carry(floor: Floor, robot: RobotState, to: int, cause: str) -> None:
    """Carry a robot, already lifted off its square, one square along its belt
    to `to` (-1: off the board), turning it with a belt that turns (4.2)."""
    belt = floor.course.belt_dir
    src = robot.sq
    d = belt[src]
    if floor.events is not None:
        floor.emit_move(robot, src, to, d, cause)
    drop = floor.course.drop
    if drop and drop[src * 4 + d]:
        # a belt takes the robot down a ledge only onto a free square (docs/rules.md 11.2)
        land(floor, robot, src, to, src, d, 1, cause)
    else:
        floor.put(robot, to, src, cause)
    if robot.sq >= 0:
        new = belt[to]
        if new >= 0 and new != d and not steady(robot):
            turn(floor, robot, (new - d) & 3, cause)
