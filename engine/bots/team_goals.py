"""Where a bot heads on a team course whose flags are not raced in order
(docs/rules.md 13.5 flag control, 13.6 elimination, 13.7 capture): every
bot plays these goals, as under ``superbot`` every bot hunts
(engine/bots/hunt.py), so that a balance run of plain bots plays the
variant rather than racing to flag 1 (or, without flags, standing where it
is: a program whose first register ends on the robot's own square "reached"
it, and the bot's tables care for no register after that).

A bot plays a goal through a view whose one flag is the goal's square
(``aimed``): its tables and look-ahead are the ones of a race to that flag.

- Flag control: the team's robots share out the flags the team does not
  hold, the nearest robot and flag paired first (each robot works the
  same pairing out for itself, so they agree); a robot left over heads
  for the held flag nearest to a robot of another team (the team bot pairs
  them by how far ahead of the other team it is, ``control``).
- Elimination: the nearest robot of another team (hunt).
- Capture: a carrier heads for its home board, for a square there at
  least DEPTH squares from the other boards (reached part way through a
  round, it is still home at the round's end); the teammate nearest to a
  robot of another team carrying the team's own flag chases that carrier;
  the others go for the other team's flag while it lies, and defend their
  own (its square, or its carrier) while a teammate carries it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.course import Course
from rallyforge.engine.rules.paths import UNREACHABLE, distances_to
from rallyforge.engine.rules.state import RobotState

if TYPE_CHECKING:
    from rallyforge.engine.rules.teams import TeamPlay

DEPTH = 3       # squares from the other boards a carrier aims to end a round on


class Aimed(BotView):
    """A view aimed at a goal: its one flag is the square to head for."""
    __slots__ = ()


def goal(view: BotView) -> int | None:
    """The square to head for under flag control, capture or elimination;
    None on other courses (the next flag, as usual) and for a view already
    aimed (a team bot's role may give another goal, engine/bots/team.py)."""
    teams, robot = view.teams, view.robot
    if teams is None or robot.sq < 0 or isinstance(view, Aimed):
        return None
    if teams.victory == "flag_control":
        return control(view, teams)
    if teams.victory == "capture":
        return _capture(view, teams)
    if teams.victory == "elimination":
        return nearest(view, robot.sq, [r.sq for r in _foes(view, teams)])
    return None


def aimed(view: BotView, target: int) -> Aimed:
    """A view whose only flag is `target`, its robot (a copy) having touched none."""
    robot = view.robot
    proxy = RobotState(robot.index, robot.name, robot.sq, robot.facing, damage=robot.damage,
                       lives=robot.lives, powered_down=robot.powered_down)
    proxy.archive, proxy.registers = robot.archive, list(robot.registers)
    robots = [proxy if r is robot else r for r in view.robots]
    return Aimed(view.board, view.course, (target,), view.rules, proxy, robots,
                 teams=view.teams)


def distance(view: BotView, start: int, goal: int) -> int:
    """Path distance from `start` to `goal` (the course's size when there is none)."""
    d = distances_to(view.course, goal)[start] if start >= 0 else UNREACHABLE
    return d if d != UNREACHABLE else view.course.size


def nearest(view: BotView, start: int, squares: list[int]) -> int | None:
    """The square of `squares` nearest to `start` by path (None: none)."""
    return min(squares, key=lambda sq: (distance(view, start, sq), sq), default=None)


def _team(view: BotView, teams: TeamPlay) -> list[RobotState]:
    mine = teams.team[view.robot.index]
    return [r for r in view.robots if teams.team[r.index] == mine and r.sq >= 0]


def _foes(view: BotView, teams: TeamPlay) -> list[RobotState]:
    mine = teams.team[view.robot.index]
    return [r for r in view.robots if teams.team[r.index] != mine and r.sq >= 0]


def control(view: BotView, teams: TeamPlay, contest: bool = False) -> int | None:
    """The flag control goal. `contest`: pair robots and flags by how far
    the robot is ahead of the nearest robot of another team on the way to
    the flag, the flags it gets to first before the ones it would have to
    fight for (then by distance)."""
    robot = view.robot
    mine = teams.team[robot.index]
    flags = teams.flag_home         # (not the view's: an aimed view's one flag is a goal)
    foes = [r.sq for r in _foes(view, teams)]
    free = [sq for k, sq in enumerate(flags) if teams.owner[k] != mine]

    def behind(sq: int) -> int:     # how far the nearest foe is from sq
        return min((distance(view, f, sq) for f in foes), default=view.course.size)

    pairs = sorted((distance(view, r.sq, sq) - (behind(sq) if contest else 0),
                    distance(view, r.sq, sq), r.index, sq)
                   for r in _team(view, teams) for sq in free)
    taken_robots: set[int] = set()
    taken_flags: set[int] = set()
    for _, _, index, sq in pairs:
        if index in taken_robots or sq in taken_flags:
            continue
        if index == robot.index:
            return sq
        taken_robots.add(index)
        taken_flags.add(sq)
    held = [sq for k, sq in enumerate(flags) if teams.owner[k] == mine]
    if not held:
        return nearest(view, robot.sq, list(flags))
    # guard the held flag a robot of another team is nearest to
    return min(held, key=lambda sq: (behind(sq), distance(view, robot.sq, sq), sq))


def _capture(view: BotView, teams: TeamPlay) -> int | None:
    robot = view.robot
    mine = teams.team[robot.index]
    own = teams.flag_of[mine]
    theirs = next(k for k in range(len(teams.flag_home)) if k != own)
    if teams.carrier[theirs] == robot.index:
        return _home_square(view, teams, mine)
    thief = teams.carrier[own]
    if thief >= 0 and view.robots[thief].sq >= 0:
        chasers = [r for r in _team(view, teams) if teams.carries(r) == 0]
        thief_sq = view.robots[thief].sq
        first = min(chasers, key=lambda r: (distance(view, r.sq, thief_sq), r.index))
        if first.index == robot.index:
            return thief_sq
    if teams.carrier[theirs] < 0:
        return teams.flag_sq[theirs]
    return teams.flag_sq[own] if thief < 0 else view.robots[thief].sq


def _home_square(view: BotView, teams: TeamPlay, team: int) -> int | None:
    """The nearest square of the team's home board that is DEPTH squares
    or more from the squares off it (the deepest there are, on a small one),
    on no pit or drain."""
    from_robot = distances_to(view.course, view.robot.sq)
    return min(_deep(view.course, teams.home[team]), key=lambda sq: (from_robot[sq], sq),
               default=None)


@lru_cache(maxsize=16)
def _deep(course: Course, home: frozenset[int]) -> tuple[int, ...]:
    width = course.width
    border = []             # the squares off the home board next to it
    for sq in home:
        x, y = sq % width, sq // width
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < width and 0 <= ny < course.height and course.square(nx, ny) not in home:
                border.append(course.square(nx, ny))

    def depth(sq: int) -> int:
        return min((max(abs(sq % width - o % width), abs(sq // width - o // width))
                    for o in border), default=course.size)

    safe = sorted(sq for sq in home if course.death[sq] is None)
    deepest = max((depth(sq) for sq in safe), default=0)
    return tuple(sq for sq in safe if depth(sq) >= min(DEPTH, deepest))

