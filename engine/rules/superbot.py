"""The SuperBot (docs/rules.md 12.9): one robot holds the title; its lasers
deal double damage, it discards its damage at the end of every round, and
only it touches flags. The robot whose damage destroys it takes the title."""
from __future__ import annotations

from rallyforge.engine.rules.state import Floor, RobotState


def crown(floor: Floor, robot: RobotState, before: RobotState | None = None) -> None:
    """Give `robot` the title (from `before`, None at set-up)."""
    if before is not None:
        before.superbot = False
    robot.superbot = True
    if floor.events is not None:
        floor.emit("superbot", robot, target=before.name if before is not None else None)


def scores(floor: Floor, robot: RobotState) -> bool:
    """Whether the robot may touch flags: always, except under `superbot`,
    where only the SuperBot does."""
    return robot.superbot or not floor.rules.superbot


def laser_points(robot: RobotState, points: int) -> int:
    """What a hit of the robot's laser worth `points` deals: double for the SuperBot."""
    return points * 2 if robot.superbot else points


def pass_title(floor: Floor, dealers: dict[RobotState, list[RobotState]], slot: int) -> None:
    """After the lasers step of register slot+1: a SuperBot destroyed in it
    hands the title to the robot whose laser or weapon hit it (`dealers`:
    each robot hit, with the robots that hit it), the one with the higher
    priority card in this register when several did. Destroyed by board
    lasers alone (or by the damage it came with), it keeps the title."""
    for victim, shooters in dealers.items():
        if victim.superbot and victim.sq < 0 and victim.destroyed:
            heir = max(shooters, key=lambda r: (r.priority(slot), -r.index))
            if heir is not victim:
                crown(floor, heir, victim)
            return


def discard_damage(floor: Floor, repaired: set[RobotState]) -> None:
    """At clean-up (7.1) the SuperBot on the board discards all its damage."""
    for robot in floor.robots:
        if robot.superbot and robot.sq >= 0 and robot.damage:
            if floor.events is not None:
                floor.emit("repair", robot, amount=robot.damage, cause="superbot")
            robot.damage = 0
            repaired.add(robot)
