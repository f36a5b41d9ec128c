"""Mechanical Arm (docs/rules.md 10.11): the squares a robot reaches around it."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rallyforge.engine.rules.option_holding import has

if TYPE_CHECKING:
    from rallyforge.engine.rules.state import Floor, RobotState


def arm_reach(floor: Floor, sq: int) -> list[int]:
    """The squares of the 8 around `sq` with no wall between; for a diagonal
    both two-edge paths must be free (docs/rules.md 10, Mechanical Arm). A
    level change counts as a wall (docs/rules.md 11.7). Remembered on the
    course (Course.arm_reach)."""
    known = floor.course.arm_reach
    out = known.get(sq)
    if out is None:
        out = known[sq] = _reach(floor.course.beam_target, sq)
    return out


def _reach(target: list[int], sq: int) -> list[int]:
    out = []
    near = [target[sq * 4 + d] for d in range(4)]
    for d in range(4):
        if near[d] >= 0:
            out.append(near[d])
    for d in range(4):
        e = (d + 1) & 3
        a, b = near[d], near[e]
        if a >= 0 and b >= 0:
            via_a, via_b = target[a * 4 + e], target[b * 4 + d]
            if via_a >= 0 and via_a == via_b:
                out.append(via_a)
    return out


def arm_square(floor: Floor, robot: RobotState, wanted: Callable[[int], bool]) -> int | None:
    """A square within the Mechanical Arm's reach for which wanted(square) holds."""
    if robot.sq < 0 or not has(robot, "mechanical-arm"):
        return None
    for square in arm_reach(floor, robot.sq):
        if wanted(square):
            return square
    return None
