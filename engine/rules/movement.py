"""Movement by program cards (rules 3): steps, pushing, water, teleporters;
on levelled boards falls down ledges and climbs up ramps (docs/rules.md 11).

``push`` is also how pushers move a robot (rule 4.4).
"""
from __future__ import annotations

from rallyforge.engine.model.directions import DX, DY
from rallyforge.engine.model.program_cards import BACK, LEFT
from rallyforge.engine.rules.course import CURRENT, OFF_BOARD, TELEPORTER, WALL, WATER, Course
from rallyforge.engine.rules.option_holding import hurt_now
from rallyforge.engine.rules.state import Floor, RobotState

# Quarter turns clockwise of left, right, uturn (card codes LEFT.. in order).
_TURNS = (3, 1, 2)
# Jump length of move1..3 started on a teleporter (rule 3.7).
_JUMPS = (3, 4, 5)


def play_card(floor: Floor, robot: RobotState, kind: int, extra: int = 0) -> None:
    """Carry out one card completely (rules 3.1-3.7). Board elements under
    the robot act as plain floor while it does (3.5). `extra`: squares a
    movement option adds to a move (Fourth Gear, Reverse Gears), not to a
    jump from a teleporter (docs/rules.md 10.5)."""
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
    steps += extra
    if not floor.course.climb:
        for _ in range(steps):
            if not push(floor, robot, d, "card"):
                return
        return
    while steps > 0:
        taken = card_step(floor, robot, d, steps)
        if not taken:
            return
        steps -= taken


def card_step(floor: Floor, robot: RobotState, d: int, left: int) -> int:
    """One step of a card with `left` steps to go, on a board with ramps: the
    steps it took, 0 when the card is over. Up a ramp's low side costs two,
    the first onto the foot (docs/rules.md 11.3). The foot is not a square:
    the robot keeps its own square (which stays free for the slide back)
    until the second step puts it on the ramp."""
    ramp = floor.course.climb.get(robot.sq * 4 + d)
    if ramp is None:
        return 1 if push(floor, robot, d, "card") else 0
    occupant = floor.occ[ramp]
    line = None if occupant is None else _line(floor, ramp, d)
    if left < 2 or (occupant is not None and line is None):
        slide(floor, robot, ramp)
        return 0
    if not _shove(floor, line or [], d, robot):
        return 0
    src = robot.sq
    floor.occ[src] = None
    if floor.events is not None:
        floor.emit_move(robot, src, ramp, d, "card")
    floor.put(robot, ramp, src, "card")
    return 2


def slide(floor: Floor, robot: RobotState, ramp: int) -> None:
    """The robot on a ramp's foot goes back to the square it came from, where
    it still stands (docs/rules.md 11.3): no damage, no turn; the card is over."""
    if floor.events is not None:
        floor.emit("slide", robot, src=floor.course.xy[ramp], dst=floor.course.xy[robot.sq])


def turn(floor: Floor, robot: RobotState, quarter_turns: int, cause: str) -> None:
    robot.facing = (robot.facing + quarter_turns) & 3
    if floor.events is not None:
        floor.emit_turn(robot, quarter_turns, cause)


def push(floor: Floor, robot: RobotState, d: int, cause: str) -> bool:
    """Move `robot` one square towards d, pushing the unbroken line of robots
    ahead of it one square (3.2-3.4). Nobody moves when a wall stands in the
    way of any of them. Returns whether the robot moved and is still on the
    board."""
    course = floor.course
    occ = floor.occ
    k = robot.sq * 4 + d
    ahead = course.target[k]
    if ahead == WALL:
        return False
    # a robot below a ledge is not pushed: the mover falls past it (docs/rules.md 11.2)
    if ahead >= 0 and occ[ahead] is not None and not (course.drop and course.drop[k]):
        line = _line(floor, ahead, d)
        if line is None:
            return False
        if not _shove(floor, line, d, robot):
            return False
    step(floor, robot, d, cause)
    return robot.sq >= 0


def _shove(floor: Floor, line: list[RobotState], d: int, mover: RobotState) -> bool:
    """Push the robots of `line` one square towards d, the farthest first;
    whether `mover`, pushing them, is still on the board. A robot that left
    with its player, put out by this push, is pushed no more (13.2)."""
    for pushed in reversed(line):
        if pushed.sq >= 0:
            step(floor, pushed, d, "push")
    return mover.sq >= 0


def _line(floor: Floor, square: int, d: int) -> list[RobotState] | None:
    """The unbroken line of robots from the one on `square` on towards d that
    a push moves, or None when a wall (or a ledge up, or a ramp's low side)
    stops it. A line ends at a ledge down: the robot there falls (docs/rules.md
    11.2)."""
    target, drop, occ = floor.course.target, floor.course.drop, floor.occ
    line: list[RobotState] = []
    robot = occ[square]
    while robot is not None:
        line.append(robot)
        k = square * 4 + d
        beyond = target[k]
        if beyond == WALL:
            return None
        if beyond < 0 or (drop and drop[k]):
            break
        square = beyond
        robot = occ[square]
    return line


def step(floor: Floor, robot: RobotState, d: int, cause: str) -> None:
    """Move a robot one square towards d onto a square known to be free (or
    off the board, or a pit); down a ledge it falls (see ``fall``)."""
    src = robot.sq
    course, occ = floor.course, floor.occ
    if course.drop and course.drop[src * 4 + d]:
        fall(floor, robot, d, cause)
        return
    dst = course.target[src * 4 + d]
    occ[src] = None
    if floor.events is not None:
        floor.emit_move(robot, src, dst, d, cause)
    if dst >= 0 and course.death[dst] is None:      # the common case of Floor.put
        occ[dst] = robot
        robot.sq = dst
    else:
        floor.put(robot, dst, src, cause)


def fall(floor: Floor, robot: RobotState, d: int, cause: str) -> None:
    """Down a ledge towards d (docs/rules.md 11.2): the robot lands on the
    first square without a robot (ledges down crossed freely); a wall, ledge
    up or ramp's low side before one destroys it, cause "fall"."""
    course, occ = floor.course, floor.occ
    src = robot.sq
    occ[src] = None
    square, travelled, last = course.target[src * 4 + d], 1, src
    while square >= 0 and occ[square] is not None:
        last = square
        square = course.target[square * 4 + d]
        travelled += 1
    if square == WALL:
        if floor.events is not None:
            floor.emit_move(robot, src, last, d, cause)
            floor.emit("fall", robot, src=course.xy[src], dst=course.xy[last], amount=0)
        floor.destroy(robot, "fall", last, (cause, src))
        return
    if floor.events is not None:
        floor.emit_move(robot, src, square, d, cause, travelled)
    land(floor, robot, src, square, last, d, travelled, cause)


def land(floor: Floor, robot: RobotState, src: int, square: int, last: int, d: int,
         travelled: int, cause: str) -> None:
    """End a fall from `src`, lifted off the board already, on `square` (< 0:
    `travelled` squares towards d, off the board, having last been over
    `last`): the fall damage once, where it lands, unless the landing
    destroys it (docs/rules.md 11.2). The fall event says what the rules
    deal; the damage event that follows, what the robot took (option cards
    may prevent some). `cause` is the move's (what to blame)."""
    course = floor.course
    landed = square >= 0 and course.death[square] is None
    damage = floor.rules.fall_damage if landed else 0
    if floor.events is not None:
        x, y = course.xy[src]
        to = course.xy[square] if square >= 0 else (x + DX[d] * travelled, y + DY[d] * travelled)
        floor.emit("fall", robot, src=course.xy[src], dst=to, amount=damage)
    floor.put(robot, square, last, cause)
    if landed and damage:
        hurt_now(floor, robot, damage, "fall")


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


def _search_back(course: Course, occ: list[RobotState | None], start: int, d: int,
                 distance: int) -> int:
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
    floor.put(robot, square, last, "teleport")
