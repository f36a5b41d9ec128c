"""Two rounds ahead: what ending a round somewhere is worth, counting the
round after it.

The search bot scores where a program ends by the registers left to the
next flag, as if any card could fill any register. A square three
registers from the flag that needs a U-turn and a Move 3 is worth less
than one that needs only a Move 3 and any two cards, and a square beside a
pit where most hands go wrong is worth less than its distance says. So the
worth of an end state here is the mean, over HANDS hands dealt once per
course (the same hands for every state, so comparisons are fair), of the
search bot's best score of the next round from that state, with the hand
size and locked registers its damage will leave (a locked register is
counted as playing no card: its card is unknown). The scores are counted
in registers to go to the finish (Layered.to_go), not the search bot's
1000 a flag: in a mean, a one-in-twelve chance of touching the flag must
weigh the registers it saves, not 83 registers. Values are kept per state
(up to MEMO of them): a course's races meet the same states again and
again.

A finish this round is worth a finish in the next plus FINISH_SOONER; a
destruction is worth the next round from where the robot re-enters (its
archive, or the last flag it touched, facing its best way) with the
re-entry damage, less DEATH_COST for the life spent, or the search bot's
LAST_LIFE price when it has none to spare.
"""
from __future__ import annotations

import random

import numpy as np

from rallyforge.engine.bots.common import kind_counts
from rallyforge.engine.bots.search import DAMAGE, LAST_LIFE, Hands, best_of_hands, hand_programs
from rallyforge.engine.bots.tables import Layered, NONE
from rallyforge.engine.model.program_cards import DECK
from rallyforge.engine.model.scenario import Rules
from rallyforge.engine.rules.cleanup import lock_count

HANDS = 12
HAND_SEED = 2005        # the hands dealt once per course (any fixed number)
FINISH_SOONER = 8       # a round's worth of registers: finishing now beats finishing next round
DEATH_COST = 25         # registers' worth of a life spent (beyond the tempo lost)
MEMO = 200_000          # values kept per course (a few tens of MB at most)


class NextRound:
    def __init__(self, layered: Layered, rules: Rules):
        self.layered, self.rules = layered, rules
        rng = random.Random(HAND_SEED)
        # a smaller hand (a damaged robot's) is the first cards of the same deal
        self.hands = [rng.sample(DECK, rules.hand_size) for _ in range(HANDS)]
        self._counts = {size: [kind_counts(hand[:size]) for hand in self.hands]
                        for size in range(1, rules.hand_size + 1)}
        # (state, damage, a life to spare, archive) -> worth
        self._memo: dict[tuple[int, int, bool, int], float] = {}
        self._hands: dict[tuple[int, int], Hands] = {}

    def alive(self, x: int, damage: int, lives: int, archive: int) -> float:
        """The mean best score of the next round from extended state `x`
        (flags touched and board state; not finished, not destroyed)."""
        key = (x, damage, lives > 1, archive)
        found = self._memo.get(key)
        if found is not None:
            return found
        layered, rules = self.layered, self.rules
        flags, state = divmod(x, layered.S)
        size = rules.hand_size - damage
        m = min(5 - lock_count(damage, rules), size)
        if m <= 0:
            value = float(layered.to_go[x])     # nothing to program: the board moves it
        else:
            slots = list(range(m)) + [~NONE] * (5 - m)
            total = 0.0
            for best in best_of_hands(layered, state, flags, damage, lives, archive,
                                      self._programs(size, m), slots, rules.destroy_at_damage,
                                      to_go=True):      # each hand's, in order
                total += float(best)
            value = total / HANDS
        if len(self._memo) >= MEMO:
            self._memo.clear()
        self._memo[key] = value
        return value

    def _programs(self, size: int, m: int) -> Hands:
        """The programs of m registers of every hand of `size` cards."""
        found = self._hands.get((size, m))
        if found is None:
            found = self._hands[size, m] = Hands([hand_programs(counts, m)
                                                  for counts in self._counts[size]])
        return found

    def worth(self, x: int, taken: int, flags_before: int, damage: int, lives: int,
              archive: int) -> float:
        """What ending this round at extended state `x` is worth to a robot
        that began it with `flags_before` flags touched, `damage`, `lives`
        and `archive`, having taken `taken` board-laser damage on the way."""
        layered = self.layered
        if x >= layered.FIN:
            return float(layered.to_go[x]) + FINISH_SOONER
        flags, state = divmod(x, layered.S)
        if flags > flags_before:            # a flag touched moves the archive there
            archive = layered.flags[flags - 1]
        if state == layered.S - 1 or damage + taken >= self.rules.destroy_at_damage:
            return self.destroyed(flags, lives, archive)
        return self.alive(x, damage + taken, lives, archive) - DAMAGE * taken

    def destroyed(self, flags: int, lives: int, archive: int) -> float:
        """Destroyed this round with `flags` flags touched, to re-enter at
        `archive`."""
        layered = self.layered
        if lives <= 1:
            return float(layered.FLAG * flags - layered.offset[flags] - LAST_LIFE)
        facing = int(np.argmin(layered.dist[flags, archive * 4:archive * 4 + 4]))
        damage = min(self.rules.respawn_damage, self.rules.destroy_at_damage)
        return self.alive(flags * layered.S + archive * 4 + facing, damage, lives - 1,
                          archive) - DEATH_COST


def next_round(layered: Layered, rules: Rules) -> NextRound:
    """The course's two-round values (kept on its tables)."""
    found = layered.__dict__.get("_next_round")
    if found is None:
        found = layered.__dict__["_next_round"] = NextRound(layered, rules)
    return found
