"""The program deck of a round (docs/rules.md 2.2): dealt to the robots
(engine/rules/programming.py), drawn from by Recompile and by a register
that a bot leaves empty, with cards put under it (engine/rules/option_play.py)."""
from __future__ import annotations

import random

from rallyforge.engine.model.program_cards import DECK, DECK_KEYS
from rallyforge.engine.model.scenario import Card


class Deck:
    """The program deck of one round: every card not held in a locked
    register (2.2), dealt and drawn from the top. The shuffle is a
    Fisher-Yates shuffle done position by position as cards are taken, so a
    round only pays for the cards it deals."""

    __slots__ = ("rng", "cards", "top", "settled")

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.cards: list[Card] = []
        self.top = 0
        self.settled = False        # the order of the rest is fixed (cards put under it)

    def shuffle(self, held: set[Card]) -> None:
        if held:
            # compared as (kind, priority) tuples: hashing those is much cheaper than Cards
            keys = {(c.kind, c.priority) for c in held}
            self.cards = [c for key, c in DECK_KEYS if key not in keys]
        else:
            self.cards = list(DECK)
        self.top = 0
        self.settled = False

    def deal(self, n: int) -> list[Card]:
        """The next n cards (fewer when the deck runs out)."""
        cards, top = self.cards, self.top
        end = min(len(cards), top + n)
        if self.settled:
            self.top = end
            return cards[top:end]
        getrandbits = self.rng.getrandbits
        for span, bits, steps in _plan(len(cards), top, end):
            r = getrandbits(bits)
            while r >= span:
                r = getrandbits(bits)
            for i, choices in steps:
                j = r % choices + i
                r //= choices
                cards[i], cards[j] = cards[j], cards[i]
        self.top = end
        return cards[top:end]

    def put_under(self, cards: list[Card]) -> None:
        """Put cards under the deck (Recompile): the rest is shuffled now,
        so that these come after it, in this order."""
        top = self.top
        self.deal(len(self.cards) - top)
        self.top = top
        self.settled = True
        self.cards.extend(cards)

    def draw(self) -> Card | None:
        """The top card; None when the deck is empty (the rules do not say
        what happens then: nothing is drawn)."""
        card = self.deal(1)
        return card[0] if card else None


# One random number from the generator serves several Fisher-Yates steps,
# as the digits of a number whose radixes are the steps' choice counts, as
# long as their product stays a small int.
_RANDOM_SPAN = 1 << 60
# (span, its bit length, ((position, choices), ...)) per group of steps
_Plan = tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]
_PLANS: dict[tuple[int, int, int], _Plan] = {}


def _plan(size: int, top: int, end: int) -> _Plan:
    """Fisher-Yates steps top..end-1 of a deck of `size` cards in groups:
    (span, its bit length, ((position, choices), ...))."""
    key = (size, top, end)
    plan = _PLANS.get(key)
    if plan is None:
        groups = []
        i = top
        while i < end:
            span = 1
            steps: list[tuple[int, int]] = []
            while i < end and (not steps or span * (size - i) < _RANDOM_SPAN):
                span *= size - i
                steps.append((i, size - i))
                i += 1
            groups.append((span, span.bit_length(), tuple(steps)))
        plan = _PLANS[key] = tuple(groups)
    return plan
