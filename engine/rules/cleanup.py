"""Clean-up (rules 7): repairs, unlocking registers, re-entry."""
from __future__ import annotations

from collections.abc import Callable

from rallyforge.engine.model.directions import NAMES
from rallyforge.engine.model.scenario import Rules
from rallyforge.engine.rules.option_arm import arm_square
from rallyforge.engine.rules.option_holding import gain, used
from rallyforge.engine.rules.paths import UNREACHABLE, distances_to
from rallyforge.engine.rules.state import Floor, RobotState


def ring(k: int) -> list[tuple[int, int]]:
    """The squares at king-move distance k, clockwise from due north."""
    out = [(dx, -k) for dx in range(0, k + 1)]                 # north edge, east half
    out += [(k, dy) for dy in range(-k + 1, k + 1)]            # east edge
    out += [(dx, k) for dx in range(k - 1, -k - 1, -1)]        # south edge
    out += [(-k, dy) for dy in range(k - 1, -k - 1, -1)]       # west edge
    out += [(dx, -k) for dx in range(-k + 1, 0)]               # north edge, west half
    return out


def lock_count(damage: int, rules: Rules) -> int:
    """Registers locked at this damage: 5, 4, ... from `lock_from_damage` on (2.3)."""
    locked = damage - rules.lock_from_damage + 1
    return 0 if locked <= 0 else 5 if locked >= 5 else locked


_EMPTY = tuple((None,) * n for n in range(6))


def release_unlocked(robot: RobotState, rules: Rules) -> None:
    """Empty the registers that the robot's damage does not lock (7.2)."""
    free = 5 - lock_count(robot.damage, rules)
    robot.registers[:free] = _EMPTY[free]


def _arm_repair(floor: Floor, robot: RobotState, repairs: Callable[[int], bool]) -> int | None:
    """The square the Mechanical Arm repairs at: an upgrade square if one is
    in reach (a repair and an option, 10.11), else a repair square."""
    upgrade = arm_square(floor, robot, floor.course.upgrade.__getitem__)
    return upgrade if upgrade is not None else arm_square(floor, robot, repairs)


def repair(floor: Floor, robots: list[RobotState]) -> set[RobotState]:
    """7.1: a robot on a repair or upgrade square (or a flag, with
    `flags_repair`) loses 1 damage; on an upgrade square it gains an option
    unless it is powered down. With `repair_sites` "options" it draws
    option cards instead (docs/rules.md 12.5). With played options the option is a card,
    Mechanical Arm reaches the squares around, and robots that touched a
    flag with `flag_gives_option` get their card. Returns the robots
    whose damage a repair lowered."""
    course = floor.course
    flags_repair = floor.rules.flags_repair
    log = floor.events is not None
    repaired = set()
    flag_at = floor.flag_at
    options_sites = floor.rules.repair_sites == "options"

    def repairs(s: int) -> bool:
        return course.archive_point[s] or bool(flags_repair and flag_at[s])

    for robot in robots:
        sq = robot.sq
        on = repairs(sq)
        if robot.cards and not course.upgrade[sq]:
            # the Mechanical Arm: one repair and one option at most (10.11); on
            # a repair square it adds an upgrade square's option only
            arm = _arm_repair(floor, robot, repairs)
            if arm is not None and (not on or course.upgrade[arm]):
                upgrade = course.upgrade[arm] and not robot.powered_down
                if upgrade or (robot.damage and not on) or options_sites:   # it changes something
                    cause = "repair site" if options_sites else "upgrade" if upgrade else "repair"
                    used(floor, robot, "mechanical-arm", cause=cause)
                sq, on = arm, True
        if not on:
            continue
        if options_sites:           # cards instead of a repair (docs/rules.md 12.5)
            site = "repair site" if course.archive_point[sq] else "flag square"
            for _ in range(2 if course.upgrade[sq] else 1):
                _give_option(floor, robot, site)
            continue
        if robot.damage:
            robot.damage -= 1
            repaired.add(robot)
            if log:
                floor.emit("repair", robot, amount=1)
        if course.upgrade[sq] and not robot.powered_down:
            _give_option(floor, robot, "upgrade")
    for robot in floor.flag_gifts:          # even if destroyed or powered down since (10.2)
        _give_option(floor, robot, "flag")
    floor.flag_gifts.clear()
    return repaired


def _give_option(floor: Floor, robot: RobotState, why: str) -> None:
    """An option card for the robot: dealt from the deck when options are
    played, else counted."""
    if floor.option_deck is not None:
        gain(floor, robot, why)
    else:
        robot.options += 1
        if floor.events is not None:
            floor.emit("option", robot, amount=1)


def reenter(floor: Floor, robots: list[RobotState]) -> None:
    """7.4: every destroyed robot that is not out comes back on its archive
    square (or the best free square around it) with `respawn_damage`, earliest
    destroyed first, robots destroyed in one moment in robot order."""
    waiting = [r for r in robots if r.destroyed and not r.out]
    waiting.sort(key=lambda r: (r.death_seq, r.index))
    for robot in waiting:
        square = _entry_square(floor, robot)
        if square is None:          # the board is full: it waits for the next clean-up
            continue
        robot.sq = square
        robot.facing = _entry_facing(floor, robot, square)
        # damage is counted up to destroy_at_damage (rule 8), even on re-entry
        robot.damage = min(floor.rules.respawn_damage, floor.rules.destroy_at_damage)
        if robot.opt is not None and robot.opt.fresh:      # Superior Archive Copy
            robot.opt.fresh = False
            if robot.damage:
                used(floor, robot, "superior-archive-copy", cause="re-enters with 0 damage")
            robot.damage = 0
        robot.destroyed = False
        floor.occ[square] = robot
        if floor.events is not None:
            floor.emit("reenter", robot, dst=floor.course.xy[square],
                       facing=NAMES[robot.facing], amount=robot.damage)


def _next_flag_distances(floor: Floor, robot: RobotState) -> tuple[int, ...] | None:
    if robot.flags >= len(floor.flag_squares):
        return None
    return distances_to(floor.course, floor.flag_squares[robot.flags])


def _entry_square(floor: Floor, robot: RobotState) -> int | None:
    """The archive square, or from the nearest ring around it with a free
    square (on the board, no robot, no pit or drain) the one nearest the next
    flag by path distance (unreachable last), ties clockwise from north."""
    course, occ = floor.course, floor.occ
    archive = robot.archive
    if occ[archive] is None:
        return archive
    dist = _next_flag_distances(floor, robot)
    x, y = course.xy[archive]
    for k in range(1, max(course.width, course.height)):
        best = None
        for rank, (dx, dy) in enumerate(ring(k)):
            sx, sy = x + dx, y + dy
            if not (0 <= sx < course.width and 0 <= sy < course.height):
                continue
            square = sy * course.width + sx
            if occ[square] is not None or course.death[square] is not None:
                continue
            d = dist[square] if dist is not None else UNREACHABLE
            key = (d if d != UNREACHABLE else course.size, rank)
            if best is None or key < best[0]:
                best = (key, square)
        if best is not None:
            return best[1]
    return None


def _entry_facing(floor: Floor, robot: RobotState, square: int) -> int:
    """Directions ranked by the path distance to the next flag from the
    neighbour that way (a first step across a wall, off the board or into a
    pit last; ties N, E, S, W); the best one with no robot within 3 squares
    along it (walls stop the look), or the best one if all are barred."""
    course, occ = floor.course, floor.occ
    dist = _next_flag_distances(floor, robot)
    if dist is not None and dist[square] == UNREACHABLE:
        dist = None                     # an unreachable flag: all directions rank equal
    ranked = []
    for d in range(4):
        if dist is None:
            key = 0
        else:
            # a first step up a ledge ranks like one into a wall; up a ramp it
            # costs two steps, as in path distance (docs/rules.md 11.7)
            neighbour, cost = course.target[square * 4 + d], 1
            if neighbour < 0 and square * 4 + d in course.climb:
                neighbour, cost = course.climb[square * 4 + d], 2
            if neighbour < 0 or course.death[neighbour] is not None:
                key = 2 * course.size + 2
            elif dist[neighbour] == UNREACHABLE:
                key = 2 * course.size + 1
            else:
                key = dist[neighbour] + cost
        ranked.append((key, d))
    ranked.sort()
    for _, d in ranked:
        for s in course.ray(square, d)[:3]:
            if occ[s] is not None:
                break                   # barred
        else:
            return d
    return ranked[0][1]
