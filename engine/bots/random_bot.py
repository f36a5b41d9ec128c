"""The random bot: a uniformly random program from its hand."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rallyforge.engine.model.scenario import Card

if TYPE_CHECKING:
    import random

    from rallyforge.engine.rules.bot_view import BotView


class RandomBot:
    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]:
        # The hand is dealt from a shuffled deck, so its first cards already
        # are a uniformly random choice in a random order.
        return hand[:len(free_registers)]

    def power_down(self, view: BotView, rng: random.Random) -> bool:
        """Rest when damage has started to lock registers."""
        return view.robot.damage >= view.rules.lock_from_damage
