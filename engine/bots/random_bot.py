"""The random bot: a uniformly random program from its hand."""
from __future__ import annotations


class RandomBot:
    def program(self, view, hand, free_registers, rng):
        # The hand is dealt from a shuffled deck, so its first cards already
        # are a uniformly random choice in a random order.
        return hand[:len(free_registers)]

    def power_down(self, view, rng):
        """Rest when damage has started to lock registers."""
        return view.robot.damage >= view.rules.lock_from_damage
