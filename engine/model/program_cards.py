"""The 84 program cards (rules 1.2) and the priority of scripted cards.

Cards are ``model.Card`` values; the deck's cards are made once here and
shared, so a hand or a register holds the same objects race after race.
"""
from __future__ import annotations

from rallyforge.engine.model.scenario import CARD_KINDS, Card

# kind: (count, first priority, step)
_SERIES = {
    "uturn": (6, 10, 10),
    "left": (18, 70, 20),
    "right": (18, 80, 20),
    "back": (6, 430, 10),
    "move1": (18, 490, 10),
    "move2": (12, 670, 10),
    "move3": (6, 790, 10),
}

DECK: tuple[Card, ...] = tuple(
    Card(kind, first + i * step)
    for kind in CARD_KINDS
    for count, first, step in [_SERIES[kind]]
    for i in range(count)
)

# Every card of the deck with its value, (kind, priority): sets of those are
# cheaper to build and test than sets of cards (a card's hash is a Python call).
DECK_KEYS: tuple[tuple[tuple[str, int | None], Card], ...] = tuple(
    ((c.kind, c.priority), c) for c in DECK)

HIGHEST: dict[str, int] = {kind: first + (count - 1) * step
                           for kind, (count, first, step) in _SERIES.items()}

# Card kind codes, in CARD_KINDS order: the movement code works with these.
MOVE1, MOVE2, MOVE3, BACK, LEFT, RIGHT, UTURN = range(7)
KIND_CODE: dict[str, int] = {kind: i for i, kind in enumerate(CARD_KINDS)}


def priority(card: Card) -> int:
    """The priority of a card in play: dealt, or scripted and resolved."""
    assert card.priority is not None, f"{card} is played unresolved"
    return card.priority


def resolve(card: Card) -> Card:
    """A scripted card with its priority: without one it takes the highest of
    its kind in the deck."""
    if card.priority is not None:
        return card
    return Card(card.kind, HIGHEST[card.kind])
