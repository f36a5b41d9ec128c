"""What the greedy and search bots share: reading their own robot from the
view, choosing cards of a kind from the hand, and the power-down rule."""
from __future__ import annotations

from collections.abc import Callable

from rallyforge.engine.bots.tables import KINDS, Tables, UNREACHABLE
from rallyforge.engine.model.program_cards import KIND_CODE
from rallyforge.engine.model.scenario import Card
from rallyforge.engine.rules.bot_view import BotView
from rallyforge.engine.rules.cleanup import lock_count

# Power down when damage has locked two registers (damage 6 by default) and
# no repair is within a round's reach, or when damage is one short of
# locking all but one register, wherever the robot is.
POWER_DOWN_FAR = 5          # registers to the nearest repair counted as "far"


def robot_state(view: BotView) -> int:
    robot = view.robot
    return robot.sq * 4 + robot.facing


def locked_kinds(view: BotView, free_registers: list[int]) -> list[int | None]:
    """Per register (0-based), the kind of the card a locked register will
    play, None for a free register or an empty locked one (the deck fills
    those after programming: unknown to the bot)."""
    free = set(free_registers)
    out: list[int | None] = [None] * 5
    for i, card in enumerate(view.robot.registers):
        if i + 1 not in free and card is not None:
            out[i] = KIND_CODE[card.kind]
    return out


def _priority(card: Card) -> int:
    return card.priority or 0


def by_kind(hand: list[Card]) -> list[list[Card]]:
    """The hand's cards per kind, highest priority first."""
    groups: list[list[Card]] = [[], [], [], [], [], [], []]
    for card in hand:
        groups[KIND_CODE[card.kind]].append(card)
    for group in groups:
        if len(group) > 1:
            group.sort(key=_priority, reverse=True)
    return groups


def kind_counts(hand: list[Card]) -> list[int]:
    """How many cards of each kind the hand holds (``by_kind``'s group sizes)."""
    counts = [0] * KINDS
    for card in hand:
        counts[KIND_CODE[card.kind]] += 1
    return counts


def cards_for(kinds: list[int], groups: list[list[Card]]) -> list[Card]:
    """One card per kind in `kinds`, taking each kind's cards highest
    priority first."""
    taken = [0] * KINDS
    out = []
    for k in kinds:
        out.append(groups[k][taken[k]])
        taken[k] += 1
    return out


def should_power_down(view: BotView, tables: Callable[[], Tables]) -> bool:
    """The power-down rule above; `tables` gives the robot's tables, asked
    for only when the distance to a repair decides (most robots have locked
    none: a bot is asked every round)."""
    robot = view.robot
    if robot.sq < 0:
        return False
    rules = view.rules
    locked = lock_count(robot.damage, rules)
    if locked >= 4:
        return True
    if locked >= 2:
        far = tables().repair_dist[robot_state(view)]
        return bool(far > POWER_DOWN_FAR or far >= UNREACHABLE)
    return False
