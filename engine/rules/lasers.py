"""Lasers (rules 5): every beam is traced on the same positions, the damage
is added up, then robots at `destroy_at_damage` are destroyed."""
from __future__ import annotations

from rallyforge.engine.rules.course import Course
from rallyforge.engine.rules.state import Blame, Floor, RobotState
from rallyforge.engine.rules.superbot import laser_points, pass_title


def board_laser_targets(course: Course, robots: list[RobotState]) -> dict[int, RobotState]:
    """The robot each board laser strikes (laser number -> the robot nearest
    the laser along its beam; lasers that strike nobody are left out), found
    from the beams crossing the robots' squares (Course.beams_on), so the
    cost follows the robots, not the size of the board. `robots` are the
    robots on the board."""
    nearest: dict[int, tuple[int, RobotState]] = {}     # laser number -> (place, robot)
    beams_on = course.beams_on
    for robot in robots:
        for k, place in beams_on[robot.sq]:
            if k not in nearest or place < nearest[k][0]:
                nearest[k] = (place, robot)
    return {k: robot for k, (_, robot) in nearest.items()}


def first_in_sight(course: Course, occupied: int, square: int, d: int) -> int:
    """The square of the first robot a robot laser from `square` towards d
    hits (Course.sight; `occupied` the sum of Course.bit over the robots on
    the board), or -1: the same as walking the beam, in a few integer
    operations (``fire`` inlines it)."""
    shift, mask, forward = course.sight[square * 4 + d]
    seen = occupied >> shift & mask
    if not seen:
        return -1
    return shift + ((seen & -seen) if forward else seen).bit_length() - 1


def fire(floor: Floor, robots: list[RobotState], slot: int = 0) -> None:
    """Board lasers and robot lasers of register slot+1; `robots` are the
    robots on the board, in robot order. A robot destroyed here has fired
    all the same (5.1)."""
    if not robots:
        return
    course, occ = floor.course, floor.occ
    log = floor.events is not None
    bit = course.bit
    occupied = 0
    for robot in robots:
        occupied |= bit[robot.sq]
    struck = board_laser_targets(course, robots) if occupied & course.beam_bits else {}
    lasers = course.lasers
    for k, robot in struck.items():
        robot.pending += lasers[k].beams
    hit = bool(struck)
    if log:
        # beams are recorded as squares (engine/model/events.py Beam): read, they become events
        record = floor.events.record        # type: ignore[union-attr]
        moment = floor.round, floor.register, floor.step
        for k, laser in enumerate(lasers):
            lit = struck.get(k)
            record((*moment, "laser", None,
                    laser.missed if lit is None else
                    (laser.square, laser.dir, laser.beam, lit.sq, lit.name, laser.beams, "board")))
    # under `superbot`: who hit whom (the SuperBot's title goes to its destroyer, 12.9)
    dealers: dict[RobotState, list[RobotState]] | None = {} if floor.rules.superbot else None
    if floor.rules.robot_lasers:
        times = floor.rules.robot_laser_damage         # docs/rules.md 12.2
        # The first robot on a line of sight (Course.sight) is found with a
        # few integer operations, inlined here: this is the engine's hottest loop.
        sight = course.sight
        for shooter in robots:
            if shooter.powered_down:
                continue
            shift, mask, forward = sight[shooter.sq * 4 + shooter.facing]
            seen = occupied >> shift & mask
            target = -1
            if seen:
                target = shift + ((seen & -seen) if forward else seen).bit_length() - 1
                # its bit in `occupied` says a robot stands there (no check: the hottest loop)
                if dealers is None:
                    occ[target].pending += times    # type: ignore[union-attr]
                else:                               # the SuperBot's laser deals double (12.9)
                    victim: RobotState = occ[target]     # type: ignore[assignment]
                    victim.pending += laser_points(shooter, times)
                    dealers.setdefault(victim, []).append(shooter)
                hit = True
            if log:
                record((*moment, "laser", shooter.name,
                        (shooter.sq, shooter.facing, course.ray(shooter.sq, shooter.facing),
                         target, occ[target].name if target >= 0 else None,  # type: ignore[union-attr]
                         laser_points(shooter, times), "robot")))
    # then every robot whose damage has reached the limit is destroyed, hit
    # now or not (a robot can re-enter or start with that much damage)
    cap = floor.rules.destroy_at_damage
    doomed = []
    for robot in robots:
        shot = hit and robot.pending > 0
        if shot:
            before = robot.damage
            robot.damage = min(cap, before + robot.pending)
            robot.pending = 0
            if log:
                floor.emit("damage", robot, amount=robot.damage - before, cause="laser")
        if robot.damage >= cap:
            doomed.append((robot, shot))
    for robot, shot in doomed:
        if robot.sq >= 0:   # (else it left with its player, put out meanwhile: 13.2)
            floor.destroy(robot, "damage", robot.sq, shot_by(course, struck, robot, shot))
    if dealers:
        pass_title(floor, dealers, slot)


def shot_by(course: Course, struck: dict[int, RobotState], robot: RobotState,
             shot: bool) -> Blame | None:
    """What to blame for a robot's destruction in the lasers step: a board
    laser that struck it (`struck`: ``board_laser_targets``), else the
    robots' lasers and weapons if any did (`shot`); None when it came into
    the step with its damage."""
    board = next((k for k, target in struck.items() if target is robot), None)
    if board is not None:
        return ("laser", course.lasers[board].square)
    return ("robot laser", -1) if shot else None

