"""Option cards in play (docs/rules.md 10): the option deck, gaining and losing
cards, damage and what prevents it, movement with options, and the round
choices (Abort Switch, Conditional Program, Recompile, Gyroscopic
Stabilizer, Circuit Breaker, Mechanical Arm).

A race with played options gives every robot a ``RobotOptions`` (its
``opt``); with counted options ``opt`` is None and none of this runs. The
laser step with options is engine/rules/option_weapons.py; holding cards and damage
are engine/rules/option_holding.py.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rallyforge.engine.model.option_cards import MOVE_USES, PAIR_USES
from rallyforge.engine.model.program_cards import BACK, KIND_CODE, LEFT, MOVE1, MOVE3, priority, resolve
from rallyforge.engine.model.scenario import Card, ProgramRound
from rallyforge.engine.rules.cleanup import lock_count
from rallyforge.engine.rules.course import CURRENT, TELEPORTER, WATER
from rallyforge.engine.rules.movement import card_step, play_card, turn
from rallyforge.engine.rules.option_holding import has, hurt_now, ignored, opts, used

# The cards that change how a robot's card moves it (the uses a script may
# name: docs/format.md, "Option cards in a script").
MOVE_CARDS = frozenset((*MOVE_USES, *PAIR_USES, "ramming-gear"))

# Quarter turns clockwise of a pair's rotate card.
_TURNS = {"left": 3, "right": 1, "uturn": 2}

if TYPE_CHECKING:
    from rallyforge.engine.rules.program_deck import Deck
    from rallyforge.engine.rules.state import Floor, RobotState

# ---------------------------------------------------------------- movement (2.5 B)

def play_with_options(floor: Floor, robot: RobotState, slot: int, kind: int,
                      copy: bool = False) -> None:
    """Carry out the robot's card of register slot+1 with its movement
    options (docs/rules.md 10.5-10.6). A radio copy is a plain card."""
    o = opts(robot)
    cards = robot.cards
    course = floor.course
    tile = course.tile[robot.sq]
    pair = None if copy else o.pairs[slot]
    use = None if copy or o.plan is None else o.plan[slot][0]
    if o.choices is not None and not copy and o.plan is None:     # a bot without its own plan
        use = o.choices.move_use(kind, cards)
    ram = "ramming-gear" in cards
    if pair is not None:
        rotate, which = pair
        if which in cards and tile != TELEPORTER:
            wet = tile == WATER or tile == CURRENT
            if which == "crab-legs":
                used(floor, robot, which, cause=f"steps {rotate.kind}")
                d = (robot.facing + _TURNS[rotate.kind]) & 3
                steps(floor, robot, d, 0 if wet else 1, ram)
            else:
                # a Back up counts as a move of 1 (docs/rules.md 10, Dual Processor):
                # it always plays as the turn
                k = 2 if rotate.kind == "uturn" else 1
                n = max(0, (1 if kind == BACK else kind + 1) - k - wet)
                used(floor, robot, which,
                     cause=f"moves {n}, then turns {'around' if k == 2 else rotate.kind}")
                steps(floor, robot, robot.facing, n, ram)
                if robot.sq >= 0:
                    turn(floor, robot, _TURNS[rotate.kind], "card")
            return
        if which not in cards:
            ignored(floor, robot, which, "not held")
        use = None                      # Brakes and Fourth Gear do not apply to a pair's move card
    extra = 0
    if use is not None:
        wanted = {"brakes": MOVE1, "fourth-gear": MOVE3, "reverse-gears": BACK}.get(use)
        if use not in cards:
            ignored(floor, robot, use, "not held")
        elif wanted != kind:
            ignored(floor, robot, use, "not that card")
        else:
            used(floor, robot, use)
            if use == "brakes":
                return                  # moves 0 squares (on a teleporter too, 10.5)
            extra = 1
    # only Ramming Gear's first push makes a move differ from a plain card's
    if not ram or kind >= LEFT or tile == TELEPORTER:
        play_card(floor, robot, kind, extra)
        return
    d, n = ((robot.facing + 2) & 3, 1) if kind == BACK else (robot.facing, kind + 1)
    if tile == WATER or tile == CURRENT:
        n -= 1
    steps(floor, robot, d, n + extra, True)


def steps(floor: Floor, robot: RobotState, d: int, n: int, ram: bool) -> None:
    """n single steps towards d with pushing (3.2-3.4); with Ramming Gear the
    first robot of the first pushed line takes 1 damage at once, also when
    the push is blocked (its row in docs/rules.md 10), coming from the side
    the robot pushes from (for Power-Down Shield). Up a ramp two steps go as
    one (docs/rules.md 11.3)."""
    course, occ = floor.course, floor.occ
    target, drop = course.target, course.drop
    while n > 0:
        if ram:
            k = robot.sq * 4 + d
            # up a ramp only a step from its foot pushes (docs/rules.md 11.3)
            ahead = target[k] if k not in course.climb else course.climb[k] if n >= 2 else -1
            # a robot below a ledge is fallen past, not pushed (docs/rules.md 11.2)
            if ahead >= 0 and (rammed := occ[ahead]) is not None and not (drop and drop[k]):
                ram = False
                used(floor, robot, "ramming-gear", rammed)
                hurt_now(floor, rammed, 1, "ramming gear", (d + 2) & 3)    # from the pusher's side
        taken = card_step(floor, robot, d, n)
        if not taken:
            return
        n -= taken


# ---------------------------------------------------------------- programming

def set_plan(floor: Floor, robot: RobotState, entry: ProgramRound | None, free: int) -> None:
    """A scripted round's option uses: per register the `/` use and the
    weapon (locked registers included: docs/format.md,
    "Option cards in a script"); pairs in the unlocked ones.
    Round choices are read here too (Gyroscopic Stabilizer, Abort Switch,
    Conditional Program, Flywheel)."""
    o = opts(robot)
    if entry is None:
        o.plan = None
        return
    o.plan = [(e.use, e.weapon, e.mode) for e in entry.cards[:5]]
    o.plan += [(None, None, None)] * (5 - len(o.plan))
    for i, e in enumerate(entry.cards[:free]):
        if i not in o.fc_locks:
            o.pairs[i] = (resolve(e.pair), e.use) if e.pair is not None and e.use else None
    stabilize(floor, robot, entry)
    if entry.conditional is not None:
        if has(robot, "conditional-program"):
            o.aside = (resolve(entry.conditional[0]), entry.conditional[1])
        else:
            ignored(floor, robot, "conditional-program", "not held")
    if entry.flywheel is not None:
        if o.flywheel is not None:      # one card at a time
            ignored(floor, robot, "flywheel", "a card is kept already")
        elif has(robot, "flywheel"):
            o.flywheel = resolve(entry.flywheel)
            used(floor, robot, "flywheel", cause=f"keeps {o.flywheel}")
        else:
            ignored(floor, robot, "flywheel", "not held")


def take_flywheel(floor: Floor, robot: RobotState, hand: list[Card]) -> list[Card]:
    """The hand with the card kept on the Flywheel, taken back before
    programming in a round of its owner's choice (docs/rules.md 10, Flywheel)."""
    o = opts(robot)
    if o.flywheel is None:
        ignored(floor, robot, "flywheel", "no card kept" if has(robot, "flywheel") else "not held")
        return hand
    card, o.flywheel = o.flywheel, None
    used(floor, robot, "flywheel", cause=f"takes back {card}")
    return hand + [card]


def bot_flywheel(floor: Floor, robot: RobotState, hand: list[Card]) -> None:
    """A bot's Flywheel (docs/rules.md 10.12): with no card on it, it keeps the
    leftover card its option choices pick, to take back when a program is
    better with it."""
    o = opts(robot)
    if o.choices is None or o.flywheel is not None or not has(robot, "flywheel"):
        return
    taken = set(robot.registers) | {p[0] for p in o.pairs if p is not None}
    left = [c for c in hand if c not in taken]
    if left:
        o.flywheel = o.choices.flywheel_card(left)
        used(floor, robot, "flywheel", cause=f"keeps {o.flywheel}")


def stabilize(floor: Floor, robot: RobotState, entry: ProgramRound | None) -> None:
    """The round's Gyroscopic Stabilizer use, read for a powered-down robot
    too (its row in docs/rules.md 10)."""
    if entry is not None and "gyroscopic-stabilizer" in entry.use:
        use_stabilizer(floor, robot)


def use_stabilizer(floor: Floor, robot: RobotState) -> None:
    """Board elements leave the robot's facing alone this round (a script's
    use or a bot's choice)."""
    if has(robot, "gyroscopic-stabilizer"):
        opts(robot).stabilized = True
        used(floor, robot, "gyroscopic-stabilizer")
    else:
        ignored(floor, robot, "gyroscopic-stabilizer", "not held")


def recompile(floor: Floor, robot: RobotState, hand: list[Card], deck: Deck) -> list[Card]:
    """Recompile (docs/rules.md 10): the hand goes under the deck, a new one of the same
    size is dealt, and the robot takes 1 damage (locks this round are
    already judged)."""
    if not has(robot, "recompile") or not hand:
        ignored(floor, robot, "recompile", "not held" if hand else "empty hand")
        return hand
    used(floor, robot, "recompile")
    deck.put_under(hand)
    new = deck.deal(len(hand))
    hurt_now(floor, robot, 1, "recompile")
    return new


def before_reveal(floor: Floor, slot: int, abort_at: list[int | None], deck: Deck) -> None:
    """Start of register slot+1, before step A, for each robot on the board:
    no side of its Power-Down Shield used yet, its Abort Switch (`abort_at`:
    per robot, the register its script uses it in this round, else None),
    then its Conditional Program swap (their rows in docs/rules.md 10)."""
    register = slot + 1
    for robot in floor.robots:
        o = robot.opt
        if robot.sq < 0 or o is None:
            continue
        o.shield_sides = 0
        if abort_at[robot.index] == register and not o.aborted:
            o.aborted = True
            if not has(robot, "abort-switch"):
                ignored(floor, robot, "abort-switch", "not held")
            else:
                used(floor, robot, "abort-switch")
                for i in range(slot, 5):
                    if robot.registers[i] is not None and not locked(robot, i):
                        card = deck.draw()
                        if card is None:
                            break
                        replace_card(floor, robot, i, card, "abort switch")
        if o.aside is not None and o.aside[1] == register:
            card, _ = o.aside
            o.aside = None
            if locked(robot, slot):
                ignored(floor, robot, "conditional-program", "locked register")
            else:
                used(floor, robot, "conditional-program")
                replace_card(floor, robot, slot, card, "conditional program")


def locked(robot: RobotState, i: int) -> bool:
    """Whether register i (0-4) is locked this round: by damage, or by Fire Control."""
    o = opts(robot)
    return i >= 5 - o.locks or i in o.fc_locks


def replace_card(floor: Floor, robot: RobotState, i: int, card: Card, cause: str) -> None:
    """A new card in register i: a pair there is discarded whole (10.6)."""
    robot.registers[i] = card
    opts(robot).pairs[i] = None
    if floor.events is not None:
        floor.emit("randomized", robot, card=str(card), cause=cause)


# ---------------------------------------------------------------- the registers

def plays_plain(floor: Floor, slot: int) -> bool:
    """Whether step B of register slot+1 plays as without option cards: with
    no log, no robot on the board holding a card that changes a move
    (MOVE_CARDS) or copying another's card (Radio Control); a use or pair
    planned with a card not held is then ignored, unseen (``play_with_options``)."""
    if floor.events is not None:
        return False
    for r in floor.robots:
        if r.sq >= 0 and (not MOVE_CARDS.isdisjoint(r.cards) or r.opt is not None
                          and r.opt.radio is not None and slot in r.opt.radio[2]):
            return False
    return True


def play_register_cards(floor: Floor, slot: int) -> int:
    """Step B with played options: highest priority first (robot order on
    ties); a robot under Radio Control plays a copy of its controller's card
    just below that card's priority (10.10). Returns the cards played."""
    actors = []
    for r in floor.robots:
        if r.sq < 0:
            continue
        o = opts(r)
        if o.radio is not None and slot in o.radio[2]:
            shooter = o.radio[0]
            card = shooter.registers[slot] if shooter.sq >= 0 else None
            if card is not None:
                actors.append((-priority(card) + 0.5, r.index, r, Card(card.kind, card.priority),
                               True))
        card = r.registers[slot]
        if card is not None:
            actors.append((-priority(card), r.index, r, card, False))
    actors.sort(key=lambda a: a[:2])
    played = 0
    log = floor.events is not None
    for _, _, robot, card, copy in actors:
        if robot.sq < 0:
            continue
        floor.moment += 1               # every card is its own moment (rules 7.4)
        if log:
            floor.emit("card", robot, card=str(card), cause="radio control" if copy else None)
        if log or not MOVE_CARDS.isdisjoint(robot.cards):
            play_with_options(floor, robot, slot, KIND_CODE[card.kind], copy)
        else:   # a plain card: a use it planned is of a card not held, ignored unseen
            play_card(floor, robot, KIND_CODE[card.kind])
        played += 1
    return played


def release_with_options(floor: Floor, robot: RobotState, repaired: set[RobotState]) -> None:
    """7.2 with played options: as release_unlocked, but a register Fire
    Control locked keeps its card unless a repair lowered the robot's
    damage this clean-up (10.9); radio copies, the Conditional card and
    the round's choices end."""
    o = opts(robot)
    if robot in repaired and o.fc_locks:
        if floor.events is not None:
            floor.emit("register_unlocked", robot, card="fire-control",
                       amount=min(o.fc_locks) + 1)
        o.fc_locks.clear()
    free = 5 - lock_count(robot.damage, floor.rules)
    for i in range(free):
        if i not in o.fc_locks:
            robot.registers[i] = None
            o.pairs[i] = None
    o.radio = o.aside = None
    o.plan = None
    o.stabilized = False
