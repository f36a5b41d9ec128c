"""What bots do with option cards where a card leaves the choice to its
holder (docs/rules.md 10.12: a bot's policy, not a rule): the card given up first,
the movement option without a plan, the card kept on the Flywheel, and the
weapon a laser shot is replaced by. The rules ask a bot's ``option_choices``
(engine/rules/state.py OptionChoices); a race's bots share one policy."""
from __future__ import annotations

from collections.abc import Callable

from rallyforge.engine.model.program_cards import BACK, KIND_CODE, LEFT, MOVE3, priority
from rallyforge.engine.model.scenario import Card
from rallyforge.engine.rules.course import OFF_BOARD, WALL
from rallyforge.engine.rules.option_holding import has
from rallyforge.engine.rules.option_play import locked
from rallyforge.engine.rules.paths import UNREACHABLE, distances_to
from rallyforge.engine.rules.state import Floor, RobotState

# How much a bot values each card when it must give one up (higher: kept
# longer). A bot's ranking, not a rule (docs/rules.md 10.12).
BOT_VALUE = {card: i for i, card in enumerate((
    "ablative-coat", "flywheel", "conditional-program", "brakes", "reverse-gears", "recompile",
    "superior-archive-copy", "abort-switch", "circuit-breaker", "gyroscopic-stabilizer",
    "power-down-shield", "scrambler", "radio-control", "tractor-beam", "rear-firing-laser",
    "ramming-gear", "mechanical-arm", "fourth-gear", "crab-legs", "dual-processor",
    "extra-memory", "fire-control", "pressor-beam", "mini-howitzer", "high-power-laser",
    "double-barreled-laser"))}

class OptionPolicy:
    """The bots' option choices (each a bot's ranking or rule of thumb)."""

    def give_up(self, robot: RobotState) -> str:
        """Its least valuable card by BOT_VALUE (the most recent of equals)."""
        return min(reversed(robot.cards), key=BOT_VALUE.__getitem__)

    def keep(self, cards: list[str]) -> str:
        """Its most valuable card by BOT_VALUE."""
        return max(cards, key=BOT_VALUE.__getitem__)

    def move_use(self, kind: int, cards: list[str]) -> str | None:
        """Fourth Gear always, no other card (greedy, random: no plan of their own)."""
        if kind == MOVE3 and "fourth-gear" in cards:
            return "fourth-gear"
        return None

    def flywheel_card(self, left: list[Card]) -> Card:
        """The leftover card of highest priority (a move card when one is left)."""
        return max(left, key=priority)

    def weapon(self, floor: Floor, shooter: RobotState, targets: list[RobotState], d: int,
               slot: int, points: int) -> tuple[str, str | None] | None:
        return _weapon(floor, shooter, targets, d, slot, points)


def _weapon(floor: Floor, shooter: RobotState, targets: list[RobotState], d: int,
                slot: int, points: int) -> tuple[str, str | None] | None:
    """A bot's weapon (docs/rules.md 10.12): a push or pull that puts the target
    in a pit or off the board beats damage; then Fire Control, unless the
    damage would destroy the target; damage otherwise."""
    if not targets:
        return None
    course = floor.course
    t = targets[0].sq
    for weapon, way in (("mini-howitzer", d), ("pressor-beam", d), ("tractor-beam", (d + 2) & 3)):
        if has(shooter, weapon):
            to = course.target[t * 4 + way]
            if to == OFF_BOARD or (to >= 0 and course.death[to] is not None):
                return weapon, None
    if has(shooter, "fire-control") and targets[0].damage + points < floor.rules.destroy_at_damage:
        mode = _fire_control(floor, targets[0], slot)
        if mode is not None:
            return "fire-control", mode
    return None


def _fire_control(floor: Floor, target: RobotState, slot: int) -> str | None:
    """A bot's Fire Control choice (docs/rules.md 10.12; a bot's policy): destroy
    the target's option it ranks highest when that ranks in the upper half
    of BOT_VALUE; else lock, among the registers revealed so far, the one
    whose card the target needs most (_moves_it_on); else destroy its best
    option if it holds one."""
    best = max(target.cards, key=BOT_VALUE.__getitem__, default=None)
    if best is not None and BOT_VALUE[best] >= len(BOT_VALUE) // 2:
        return f"option={best}"
    revealed = [(i, card) for i in range(slot + 1)
                if not locked(target, i) and (card := target.registers[i]) is not None]
    if revealed:
        need = _moves_it_on(floor, target)
        return str(max(revealed, key=lambda held: (need(held[1]), -held[0]))[0] + 1)
    return f"option={best}" if best is not None else None


def _moves_it_on(floor: Floor, robot: RobotState) -> Callable[[Card], tuple[int, bool]]:
    """How much a card would bring the robot toward its next flag, played
    from where it stands on a bare board: (path distance gained, a move
    card) — a move toward the flag before a turn, a turn before a move away."""
    course = floor.course
    dist = (distances_to(course, floor.flag_squares[robot.flags])
            if robot.flags < len(floor.flag_squares) else None)

    def gain(card: Card) -> tuple[int, bool]:
        kind = KIND_CODE[card.kind]
        if kind >= LEFT or dist is None or dist[robot.sq] == UNREACHABLE:
            return 0, kind < LEFT
        d, n = ((robot.facing + 2) & 3, 1) if kind == BACK else (robot.facing, kind + 1)
        sq = robot.sq
        for _ in range(n):
            nxt = course.target[sq * 4 + d]
            if nxt == WALL:
                break
            if nxt == OFF_BOARD or course.death[nxt] is not None:
                return -course.size, True       # the card destroys it
            sq = nxt
        after = dist[sq] if dist[sq] != UNREACHABLE else course.size
        return dist[robot.sq] - after, True

    return gain
