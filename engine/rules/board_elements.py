"""Board elements (rule 2.5 C): belts, then pushers, gears and crushers."""
from __future__ import annotations

from rallyforge.engine.rules.conveyors import convey
from rallyforge.engine.rules.course import (CONVEYOR_BIT, CRUSHER_BIT, CURRENT_BIT, EXPRESS_BIT, GEAR_BIT,
                                 PUSHER_BIT, RANDOMIZER_BIT)
from rallyforge.engine.rules.movement import push, turn
from rallyforge.engine.rules.moving_flags import carry_flags, flag_bits
from rallyforge.engine.rules.option_holding import steady
from rallyforge.engine.rules.state import Floor, RobotState

# C1-C3. Express squares carry CONVEYOR_BIT too, so C2 moves whoever stands
# on any belt after C1: a robot carried off the belts in C1 stops (rule 4.3).
_BELT_STEPS = ((EXPRESS_BIT, "express", "express"),
               (CONVEYOR_BIT, "conveyors", "conveyor"),
               (CURRENT_BIT, "currents", "current"))


def board_elements(floor: Floor, register: int) -> None:
    """Steps C1-C6 of one register. A step is skipped when no robot (nor,
    with moving flags, a flag) stands on a square it acts on in this register."""
    hot = floor.course.hot[register]
    robots = floor.robots
    mask = _hot_mask(robots, hot)
    flags = flag_bits(floor, hot) & _FLAG_BELTS if floor.rules.flags_move else 0
    if not (mask | flags) & ~RANDOMIZER_BIT:
        return
    for bit, step, cause in _BELT_STEPS:
        if (mask | flags) & bit:
            floor.step = step
            if mask & bit and convey(floor, [r for r in robots if r.sq >= 0 and hot[r.sq] & bit],
                                     cause):
                mask = _hot_mask(robots, hot)
            if flags & bit:             # flags ride after the robots (docs/rules.md 12.1)
                carry_flags(floor, hot, bit, cause)
                flags = flag_bits(floor, hot) & _FLAG_BELTS
    if mask & PUSHER_BIT:
        floor.step = "pushers"
        push_pushers(floor, register)
        mask = _hot_mask(robots, hot)
    if mask & GEAR_BIT:
        floor.step = "gears"
        gear_turn = floor.course.gear_turn
        for robot in robots:
            if robot.sq >= 0 and gear_turn[robot.sq] and not steady(robot):
                turn(floor, robot, gear_turn[robot.sq], "gear")
    if mask & CRUSHER_BIT:
        floor.step = "crushers"
        for robot in robots:
            if robot.sq >= 0 and hot[robot.sq] & CRUSHER_BIT:
                floor.destroy(robot, "crusher", robot.sq, ("crusher", robot.sq))


# the belt steps that carry flags: not currents (docs/rules.md 12.1)
_FLAG_BELTS = EXPRESS_BIT | CONVEYOR_BIT


def _hot_mask(robots: list[RobotState], hot: list[int]) -> int:
    """The element steps that would act on some robot where they stand now."""
    mask = 0
    for robot in robots:
        if robot.sq >= 0:
            mask |= hot[robot.sq]
    return mask


def push_pushers(floor: Floor, register: int) -> None:
    """Active pushers one after another, by row then column; each pushes the
    robot that stood on it when the step began, if it is still there (4.4)."""
    occ = floor.occ
    standing = [(sq, d, robot) for sq, d in floor.course.pushers[register]
                if (robot := occ[sq]) is not None]
    for sq, d, robot in standing:
        if occ[sq] is robot:
            floor.moment += 1
            push(floor, robot, d, "pusher")
