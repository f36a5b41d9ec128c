"""Flags that ride the conveyor belts (docs/rules.md 12.1, rule `flags_move`).

In the express step and the conveyors step, a flag on an active belt square
of that step moves one square along the belt, as a robot there would (a
wall ahead stops it); robots neither stop it nor are stopped by it. A flag
carried off the board or into a pit or drain goes back to its square in
the file. An archive marker on the square a flag leaves goes with it.
"""
from __future__ import annotations

from rallyforge.engine.rules.course import CONVEYOR_BIT, EXPRESS_BIT, WALL, Course
from rallyforge.engine.rules.state import Floor


def flag_bits(floor: Floor, hot: list[int]) -> int:
    """The element steps that would act on some flag where it stands now."""
    mask = 0
    for square in floor.flag_squares:
        mask |= hot[square]
    return mask


def carry_flags(floor: Floor, hot: list[int], bit: int, cause: str) -> None:
    """Move every flag on a square of `hot` with `bit` one square along its belt."""
    course = floor.course
    before = floor.flag_squares
    after = list(before)
    went: list[tuple[int, int, int, str]] = []      # (flag index, from, to, cause)
    for i, square in enumerate(before):
        if hot[square] & bit:
            ride = _ride(course, square, floor.flag_home[i])
            if ride is not None:
                after[i] = ride[0]
                went.append((i, square, ride[0], ride[1] or cause))
    if not went:
        return
    floor.place_flags(tuple(after))
    xy = course.xy
    markers: dict[int, int] = {}        # the squares left: where their archive markers go
    for i, square, to, why in went:
        markers.setdefault(square, to)
        floor.emit("flag_move", None, src=xy[square], dst=xy[to], amount=i + 1, cause=why)
    for robot in floor.robots:
        marker = markers.get(robot.archive)
        if marker is not None and not robot.out:
            robot.archive = marker
            floor.emit("archive", robot, dst=xy[marker])



def _ride(course: Course, square: int, home: int) -> tuple[int, str | None] | None:
    """Where a flag on the belt square `square` goes in one belt step, and
    why when not by the belt: "off board", "pit" or "drain" (it went back to
    `home`); None when a wall stops it."""
    to = course.target[square * 4 + course.belt_dir[square]]
    if to == WALL:
        return None
    if to < 0:
        return home, "off board"
    death = course.death[to]
    return (to, None) if death is None else (home, death)


def flag_path(course: Course, home: int) -> list[int]:
    """Every square where a flag that starts the race on `home` ends a
    register when flags move: it rides the belts register after register
    until it comes back to a square it has ended one on (belts act alike in
    every register). `home` is one of them only when the flag stays or
    comes back there."""
    seen: list[int] = []
    square = home
    while True:
        square = after_register(course, square, home)
        if square in seen:
            return seen
        seen.append(square)


def after_register(course: Course, square: int, home: int) -> int:
    """Where a flag on `square` (its file square `home`) stands after the
    express and conveyors steps of one register (belts act alike in every
    register)."""
    steps = belt_steps(course, square, home)
    return steps[-1] if steps else square


def belt_steps(course: Course, square: int, home: int) -> list[int]:
    """Where a flag on `square` (its file square `home`) stands after each
    belt step of a register that moves it: the express step, then the
    conveyors step."""
    hot = course.hot[1]
    steps = []
    for bit in (EXPRESS_BIT, CONVEYOR_BIT):
        if hot[square] & bit:
            ride = _ride(course, square, home)
            if ride is not None:
                square = ride[0]
                steps.append(square)
    return steps
