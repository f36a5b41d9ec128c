"""Holding option cards (docs/rules.md 10.1-10.4): gaining and losing cards,
and damage with what prevents it. What a robot's cards remember and the
option deck are part of the race state (engine/rules/state.py
``RobotOptions``, ``OptionDeck``); the state discards a destroyed robot's
card through ``Floor.discard_at_destruction``, set to ``at_destruction``."""
from __future__ import annotations

from rallyforge.engine.rules.state import Floor, OptionDeck, RobotOptions, RobotState

COAT_POINTS = 3
HOWITZER_SHOTS = 5


def opts(robot: RobotState) -> RobotOptions:
    """What the robot's option cards remember: every robot has it in a race
    that plays option cards, the only races that come here."""
    assert robot.opt is not None, "option cards are not played in this race"
    return robot.opt


def option_deck(floor: Floor) -> OptionDeck:
    assert floor.option_deck is not None, "option cards are not played in this race"
    return floor.option_deck


# ---------------------------------------------------------------- holding cards

def gain(floor: Floor, robot: RobotState, cause: str, card: str | None = None) -> None:
    """The robot gains `card`, or the top of the option deck (none when it
    is empty: the card is not owed, 10.1)."""
    if card is None:
        card = option_deck(floor).deal()
        if card is None:
            return
    robot.cards.append(card)
    robot.options += 1
    if floor.events is not None:
        floor.emit("option_gained", robot, card=card, cause=cause)
    if floor.on_option is not None:
        floor.on_option(robot, "gained", card, cause)


def lose(floor: Floor, robot: RobotState, card: str, cause: str) -> None:
    """The robot discards `card`: it goes under the option deck, fresh (10.3)."""
    robot.cards.remove(card)
    robot.options -= 1
    o = opts(robot)
    if card == "ablative-coat":
        o.coat = 0
    elif card == "mini-howitzer":
        o.shells = 0
    elif card == "flywheel":
        o.flywheel = None
    option_deck(floor).discard(card)
    if floor.events is not None:
        floor.emit("option_lost", robot, card=card, cause=cause)


def has(robot: RobotState, card: str) -> bool:
    return card in robot.cards


def steady(robot: RobotState) -> bool:
    """Whether board elements leave the robot's facing alone this round
    (Gyroscopic Stabilizer)."""
    return robot.opt is not None and robot.opt.stabilized


def cheapest(robot: RobotState) -> str:
    """The card this robot gives up first: scripted, its most recently
    gained; a bot, the one its option choices give up."""
    choices = opts(robot).choices
    return robot.cards[-1] if choices is None else choices.give_up(robot)


def at_destruction(floor: Floor, robot: RobotState) -> None:
    """A destroyed robot discards its cheapest card (10.3); holding Superior
    Archive Copy, it re-enters with 0 damage, also when that is the card
    discarded (its row in docs/rules.md 10). Fire Control locks lift, the Flywheel and Conditional
    cards and radio copies go."""
    o = opts(robot)
    o.fc_locks.clear()
    o.flywheel = o.aside = o.radio = None
    o.pairs = [None] * 5
    if not robot.cards:
        return
    o.fresh = has(robot, "superior-archive-copy")
    lose(floor, robot, cheapest(robot), "destroyed")


# ---------------------------------------------------------------- damage

def hurt(floor: Floor, robot: RobotState, points: int, cause: str, side: int = -1) -> int:
    """Damage to a robot, point by point through what prevents it (10.4):
    Power-Down Shield (damage coming from `side`: lasers, shells, Ramming
    Gear; once per side and register), Ablative Coat, then trading
    cards; returns the damage taken. `side` -1: damage with no direction."""
    taken = 0
    cap = floor.rules.destroy_at_damage
    o = robot.opt
    log = floor.events is not None
    for _ in range(points):
        cards = robot.cards
        if cards and o is not None:
            by = gone = None        # the card that takes the point; why it goes with it
            if (side >= 0 and robot.powered_down and "power-down-shield" in cards
                    and not o.shield_sides >> side & 1):
                o.shield_sides |= 1 << side
                by = "power-down-shield"
            elif "ablative-coat" in cards:
                o.coat += 1
                by = "ablative-coat"
                if o.coat >= COAT_POINTS:
                    gone = "used up"
            elif (o.shield or o.choices is not None) and robot.damage + taken + 1 >= min(
                    cap, floor.rules.lock_from_damage):
                by = cheapest(robot)
                gone = "traded for damage"
            if by is not None:
                # the point is told before the card it used up goes
                if log:
                    floor.emit("damage_prevented", robot, card=by, amount=1, cause=cause)
                if gone is not None:
                    lose(floor, robot, by, gone)
                continue
        taken += 1
    if taken:
        before = robot.damage
        robot.damage = min(cap, before + taken)
        if log:
            floor.emit("damage", robot, amount=robot.damage - before, cause=cause)
    return taken


def hurt_now(floor: Floor, robot: RobotState, points: int, cause: str, side: int = -1) -> None:
    """Damage outside the laser step: destroys at destroy_at_damage at once (10.4)."""
    hurt(floor, robot, points, cause, side)
    if robot.sq >= 0 and robot.damage >= floor.rules.destroy_at_damage:
        floor.destroy(robot, "damage", robot.sq, (cause, -1))


def used(floor: Floor, robot: RobotState, card: str, target: RobotState | None = None,
         cause: str | None = None, dst: int | None = None) -> None:
    """A card changed an outcome (an event, and the statistics hook); `dst`
    is where a push or pull left the target (-1: off the board)."""
    if floor.events is not None:
        floor.emit("option_used", robot, card=card, cause=cause,
                   target=target.name if target is not None else None,
                   dst=None if dst is None or dst < 0 else floor.course.xy[dst])
    if floor.on_option is not None:
        floor.on_option(robot, "used", card, cause)


def ignored(floor: Floor, robot: RobotState, card: str, reason: str) -> None:
    if floor.events is not None:
        floor.emit("option_use_ignored", robot, card=card, cause=reason)
