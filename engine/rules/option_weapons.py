"""The laser step with option cards (docs/rules.md 10.7-10.8): every beam and
weapon shot is traced from the same positions, then (2) damage, (3) Fire
Control, Scrambler and Radio Control, (4) destruction at
destroy_at_damage, (5) pushes and pulls by the shooters' card priority.

engine/rules/lasers.py stays the step of a race where no robot on the board holds
a card (the common, fast case).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rallyforge.engine.model.directions import DX, DY, NAMES
from rallyforge.engine.model.option_cards import BY_ID
from rallyforge.engine.rules.course import OFF_BOARD, WALL
from rallyforge.engine.rules.lasers import board_laser_targets, first_in_sight, shot_by
from rallyforge.engine.rules.movement import push, step
from rallyforge.engine.rules.option_holding import (HOWITZER_SHOTS, has, hurt, ignored, lose, opts,
                                         used)
from rallyforge.engine.rules.option_play import locked, replace_card
from rallyforge.engine.rules.state import Floor, RobotState
from rallyforge.engine.rules.superbot import laser_points, pass_title

if TYPE_CHECKING:
    from rallyforge.engine.rules.program_deck import Deck

MOVERS = ("mini-howitzer", "pressor-beam", "tractor-beam")
REPLACING = ("mini-howitzer", "pressor-beam", "tractor-beam", "radio-control", "scrambler")
# the cards that change what a robot's lasers do
SHOT_CARDS = frozenset((*REPLACING, "fire-control", "high-power-laser", "double-barreled-laser",
                        "rear-firing-laser"))


def trace(floor: Floor, sq: int, d: int, passes: int) -> tuple[list[int], list[RobotState]]:
    """A robot laser from square `sq` towards d: the squares it crosses and
    the robots it hits; it passes `passes` walls or robots (High-Power Laser),
    never a level change (docs/rules.md 11.5)."""
    course, occ = floor.course, floor.occ
    path: list[int] = []
    hit: list[RobotState] = []
    here = sq
    while True:
        nxt = course.beam_target[here * 4 + d]
        if nxt == WALL:
            if not passes:
                break
            passes -= 1
            x, y = course.xy[here]
            x, y = x + DX[d], y + DY[d]
            if not (0 <= x < course.width and 0 <= y < course.height):
                break
            nxt = y * course.width + x
            if course.level[nxt] != course.level[here]:
                break
        elif nxt == OFF_BOARD:
            break
        path.append(nxt)
        robot = occ[nxt]
        if robot is not None:
            hit.append(robot)
            if not passes:
                break
            passes -= 1
        here = nxt
    return path, hit


def _traced(floor: Floor, occupied: int, sq: int, d: int, passes: int, log: bool
            ) -> tuple[list[int], list[RobotState]]:
    """``trace``, or where its path is not recorded and the laser passes
    nothing, only the robot it hits (the path left empty): the first robot
    in sight, found with the robots' squares as bits (`occupied`)."""
    if log or passes:
        return trace(floor, sq, d, passes)
    target = first_in_sight(floor.course, occupied, sq, d)
    return [], [] if target < 0 else [floor.occ[target]]   # type: ignore[list-item]


class _Shot:
    """A weapon's effect waiting for its moment in the step."""
    __slots__ = ("weapon", "shooter", "target", "d", "mode")

    def __init__(self, weapon: str, shooter: RobotState, target: RobotState, d: int,
                 mode: str | None = None):
        self.weapon, self.shooter, self.target, self.d, self.mode = (
            weapon, shooter, target, d, mode)


def fires_plain(floor: Floor, robots: list[RobotState]) -> bool:
    """Whether step D plays as engine/rules/lasers.py ``fire`` does: with no
    log and no card held by a robot on the board (`robots`), a weapon named
    is ignored unseen and nothing prevents damage; every hit deals 1 or more
    (docs/format.md), so the robots hit are those with damage pending."""
    if floor.events is not None:
        return False
    for robot in robots:
        if robot.cards:
            return False
    return True


def fire_with_options(floor: Floor, robots: list[RobotState], slot: int, deck: Deck) -> None:
    """Step D of register slot+1 for the robots on the board (robot order)."""
    course = floor.course
    log = floor.events is not None
    hits: dict[RobotState, list[tuple[int, int, str]]] = {}     # (points, side, cause)
    dealers: dict[RobotState, list[RobotState]] = {}    # who hit whom (the SuperBot, 12.9)

    def hit(robot: RobotState, points: int, side: int, cause: str = "laser",
            shooter: RobotState | None = None) -> None:
        hits.setdefault(robot, []).append((points, side, cause))
        if shooter is not None:
            dealers.setdefault(robot, []).append(shooter)

    occupied = 0            # the robots' squares as bits (Course.sight), for first_in_sight
    bit = course.bit
    for robot in robots:
        occupied |= bit[robot.sq]
    # (1) trace; no board laser's beam crosses a robot's square: none strikes
    struck = board_laser_targets(course, robots) if occupied & course.beam_bits else {}
    for k in range(len(course.lasers)) if log else sorted(struck):   # in the board's order
        laser = course.lasers[k]
        target = struck.get(k)
        if target is not None:
            hit(target, laser.beams, (laser.dir + 2) & 3)
        if log:
            _beam(floor, None, laser.square, laser.dir, laser.beam,
                  target.sq if target is not None else -1, laser.beams)
    effects: list[_Shot] = []
    # robot_laser_damage multiplies every damaging laser hit (docs/rules.md 12.2)
    times = floor.rules.robot_laser_damage
    lasers_on = floor.rules.robot_lasers
    for shooter in robots:
        if shooter.powered_down or not lasers_on:
            choice = _choice(shooter, slot)
            if choice is not None and not shooter.powered_down:
                ignored(floor, shooter, choice[0], "robot lasers off")     # 10.8
            continue
        cards = shooter.cards
        d = shooter.facing
        if not log and SHOT_CARDS.isdisjoint(cards):
            # (the commonest shot) no card that changes it: a weapon its script
            # or bot names is ignored (10.8) or, not a weapon, damages as the
            # laser does; unseen with no log
            square = first_in_sight(course, occupied, shooter.sq, d)
            if square >= 0:
                hit(floor.occ[square], laser_points(shooter, times),  # type: ignore[arg-type]
                    (d + 2) & 3, shooter=shooter)
            continue
        path, targets = _traced(floor, occupied, shooter.sq, d,
                                1 if "high-power-laser" in cards else 0, log)
        if log or targets:      # (nobody in line, unseen: as a plain shot)
            _main_shot(floor, shooter, slot, path, targets, times, hit, effects)
        if "rear-firing-laser" in cards:
            back = (d + 2) & 3
            path, targets = _traced(floor, occupied, shooter.sq, back, 0, log)
            if log:
                _beam(floor, shooter, shooter.sq, back, path,
                      targets[0].sq if targets else -1, laser_points(shooter, times))
            if targets:
                used(floor, shooter, "rear-firing-laser", targets[0])
                hit(targets[0], laser_points(shooter, times), d, shooter=shooter)

    for robot in robots:                                            # (2) damage
        robot.pending = 0
        for points, side, cause in hits.get(robot, ()):
            hurt(floor, robot, points, cause, side)

    for shot in effects:                                            # (3)
        _program_effect(floor, shot, slot, deck)

    cap = floor.rules.destroy_at_damage                             # (4)
    for robot in robots:
        if robot.sq >= 0 and robot.damage >= cap:
            floor.destroy(robot, "damage", robot.sq, shot_by(course, struck, robot, robot in hits))
    if floor.rules.superbot:
        pass_title(floor, dealers, slot)

    if not effects:
        return
    moves = [s for s in effects if s.weapon in MOVERS]
    moves.sort(key=lambda s: (-s.shooter.priority(slot), s.shooter.index))
    for shot in moves:                                              # (5)
        victim = shot.target
        if victim.sq < 0:
            used(floor, shot.shooter, shot.weapon, victim, "target gone")
            continue
        before = victim.sq
        if shot.weapon == "tractor-beam":
            back = (shot.d + 2) & 3
            to = course.target[victim.sq * 4 + back]
            if to != WALL and (to < 0 or floor.occ[to] is None):    # a robot there blocks (10.8)
                step(floor, victim, back, "tractor beam")
        else:
            push(floor, victim, shot.d, shot.weapon.replace("-", " "))
        moved = victim.sq != before
        used(floor, shot.shooter, shot.weapon, victim,
             ("pulled" if shot.weapon == "tractor-beam" else "pushed") if moved else "blocked",
             victim.sq if moved else None)


def _main_shot(floor: Floor, shooter: RobotState, slot: int, path: list[int],
               targets: list[RobotState], times: int, hit: Callable[..., None],
               effects: list[_Shot]) -> None:
    """The shooter's main laser with its weapon cards: its hits (by `hit`),
    the effects of a weapon that replaces it (10.7-10.8)."""
    cards = shooter.cards
    d = shooter.facing
    choice = _choice(shooter, slot)
    double = "double-barreled-laser" in cards
    points = laser_points(shooter, (2 if double else 1) * times)  # SuperBot: 12.9
    if shooter.opt is not None and shooter.opt.choices is not None and choice is None:
        choice = shooter.opt.choices.weapon(floor, shooter, targets, d, slot, points)
    weapon = _allowed(floor, shooter, choice, targets, slot, d)
    if floor.events is not None:
        _beam(floor, shooter, shooter.sq, d, path,
              targets[-1].sq if targets else -1, 0 if weapon in REPLACING else points)
    if weapon in REPLACING:
        victim = targets[0]
        if weapon not in MOVERS:        # a push or pull is told with where it ends, in (5)
            used(floor, shooter, weapon, victim)
        if weapon == "mini-howitzer":
            hit(victim, 1, (d + 2) & 3, "shell", shooter)
            opts(shooter).shells += 1
            if opts(shooter).shells >= HOWITZER_SHOTS:
                lose(floor, shooter, "mini-howitzer", "used up")
        effects.append(_Shot(weapon, shooter, victim, d))
        return
    mode = choice[1] if choice is not None else None                # Fire Control's
    for victim in targets:
        if weapon == "fire-control":
            used(floor, shooter, weapon, victim, _fire_control_words(mode))
            effects.append(_Shot(weapon, shooter, victim, d, mode))
        else:
            hit(victim, points, (d + 2) & 3, shooter=shooter)
            if double:
                used(floor, shooter, "double-barreled-laser", victim)
    if len(targets) > 1:
        used(floor, shooter, "high-power-laser", targets[1])


def _choice(robot: RobotState, slot: int) -> tuple[str, str | None] | None:
    """The scripted weapon of this register: (weapon, mode)."""
    o = robot.opt
    if o is None or o.plan is None:
        return None
    _, weapon, mode = o.plan[slot]
    return (weapon, mode) if weapon is not None else None


def _allowed(floor: Floor, shooter: RobotState, choice: tuple[str, str | None] | None,
             targets: list[RobotState], slot: int,
             d: int) -> str | None:
    """The weapon used, or None when the use cannot be made (10.8: ignored
    with an event, and the main laser fires normally)."""
    if choice is None:
        return None
    weapon, mode = choice
    target = targets[0] if targets else None
    reason = None
    if not has(shooter, weapon):
        reason = "not held"
    elif target is None:
        reason = "nothing in line"
    elif weapon == "tractor-beam" and floor.course.target[shooter.sq * 4 + d] == target.sq:
        reason = "adjacent target"
    elif weapon in ("scrambler", "radio-control") and (slot == 4 or target.powered_down):
        reason = "register 5" if slot == 4 else "powered-down target"
    elif weapon == "scrambler" and (target.registers[slot + 1] is None
                                    or locked(target, slot + 1)):
        reason = "next register locked or empty"
    elif weapon == "fire-control" and all(_fire_control(t, mode) is None for t in targets):
        reason = ("nothing left to lock" if mode is None else
                  f"register {mode} already locked" if mode.isdigit() else
                  f"the target does not hold the {BY_ID[mode.partition('=')[2]].name}")
    if reason is not None:
        ignored(floor, shooter, weapon, reason)
        return None
    return weapon


def _fire_control(target: RobotState, mode: str | None) -> tuple[int | None, str | None] | None:
    """What Fire Control in `mode` does to `target` (docs/rules.md 10, Fire Control):
    (register index to lock, None) or (None, option to destroy, None when
    it holds none); None when the choice cannot be made on it (10.8)."""
    if mode is None:            # the lowest-numbered unlocked register, played ones included
        i = next((i for i in range(5) if not locked(target, i)), None)
        return None if i is None else (i, None)
    if mode.isdigit():
        i = int(mode) - 1
        return None if locked(target, i) else (i, None)
    card = mode.partition("=")[2]
    if card:
        return (None, card) if card in target.cards else None
    return None, target.cards[-1] if target.cards else None     # the most recently gained


def _fire_control_words(mode: str | None) -> str:
    """Fire Control's choice as the option_used event tells it."""
    if mode is None:
        return "lock"
    if mode.isdigit():
        return f"lock register {mode}"
    return mode.replace("=", " ")


def _program_effect(floor: Floor, shot: _Shot, slot: int, deck: Deck) -> None:
    """Fire Control, Scrambler and Radio Control (step 3 of 10.7)."""
    target = shot.target
    if shot.weapon == "fire-control":
        effect = _fire_control(target, shot.mode)
        if effect is None:
            return
        i, option = effect
        if option is not None:              # not damage: nothing prevents it (docs/rules.md 10)
            lose(floor, target, option, "fire control")
        elif i is not None:
            opts(target).fc_locks.append(i)
            if floor.events is not None:
                floor.emit("register_locked", target, amount=i + 1, card="fire-control")
    elif shot.weapon == "scrambler":
        card = deck.draw()
        if card is not None:
            replace_card(floor, target, slot + 1, card, "scrambler")
    elif shot.weapon == "radio-control":
        o = opts(target)
        copying = frozenset(i for i in range(slot + 1, 5) if not locked(target, i))
        for i in copying:
            target.registers[i] = None
            o.pairs[i] = None
        o.radio = (shot.shooter, slot + 1, copying)


def _beam(floor: Floor, shooter: RobotState | None, origin: int, d: int, path: Iterable[int],
          target: int, amount: int) -> None:
    xy = floor.course.xy
    squares = list(path)
    if target >= 0 and target in squares:
        squares = squares[:squares.index(target) + 1]
    floor.emit("laser", shooter, src=xy[origin], facing=NAMES[d],
               path=tuple(xy[s] for s in squares),
               target=struck.name if target >= 0 and (struck := floor.occ[target]) else None,
               amount=amount, cause="robot" if shooter else "board")
