"""The greedy bot: register by register, the card that brings the robot
closest to its next flag.

For each free register in turn it tries every kind of card left in its hand
on the lone-robot model (engine/bots/tables.py) and keeps the best: a card
that touches the next flag first, then the one that leaves the fewest
registers to go by the course's distance map; cards that destroy the robot
come last, and board-laser damage counts one register per point. Locked
registers play their cards. Ties are broken with the race's generator.
It never looks further than the register at hand.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rallyforge.engine.bots.common import by_kind, cards_for, locked_kinds, robot_state, should_power_down
from rallyforge.engine.bots.tables import KINDS, NONE, Tables, tables_for
from rallyforge.engine.model.scenario import Card

if TYPE_CHECKING:
    import random

    from rallyforge.engine.rules.bot_view import BotView

FLAG = 1000.0
DEATH = -10000.0
DAMAGE = 1.0


class GreedyBot:
    def __init__(self) -> None:
        self._view: BotView | None = None
        self._tables: Tables | None = None

    def tables(self, view: BotView) -> Tables:
        # one bot serves one robot for a race; moving flags move its tables' targets
        if self._tables is None or self._tables.flags != view.flags or view is not self._view:
            self._view, self._tables = view, tables_for(view)
        return self._tables

    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]:
        tables = self.tables(view)
        groups = by_kind(hand)
        left = [len(g) for g in groups]
        kinds = [k for k in range(KINDS) if left[k]]
        locked = locked_kinds(view, free_registers)
        free = set(free_registers)
        count = min(len(free_registers), len(hand))
        end, dmg, dist, on_flag = tables.lists
        flags = len(tables.flags)
        dead, fin = tables.DEAD, tables.FIN
        s = robot_state(view)
        t = min(view.robot.flags, flags)    # (it may start with every flag touched)
        room = view.rules.destroy_at_damage - view.robot.damage     # damage it can still take
        chosen: list[int] = []
        for r in range(5):
            if r + 1 in free and len(chosen) < count:
                best, ties = None, []
                for k in kinds:
                    if not left[k]:
                        continue
                    s2 = end[r][k][s] if s < dead else s
                    if s2 == dead or dmg[r][k][s] >= room:
                        score = DEATH
                    elif s2 == fin or on_flag[r][t][s2]:
                        score = FLAG - DAMAGE * dmg[r][k][s]
                    else:
                        score = -dist[t][s2] - DAMAGE * dmg[r][k][s]
                    if best is None or score > best:
                        best, ties = score, [k]
                    elif score == best:
                        ties.append(k)
                k = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
                chosen.append(k)
                left[k] -= 1
            elif r + 1 in free or (lock := locked[r]) is None:
                k = NONE
            else:
                k = lock
            if s < dead:
                room -= dmg[r][k][s]
                s = end[r][k][s] if room > 0 else dead
                if s < dead and on_flag[r][t][s]:
                    t += 1
                    if t == flags:
                        s = fin
        return cards_for(chosen, groups)

    def power_down(self, view: BotView, rng: random.Random) -> bool:
        return should_power_down(view, lambda: self.tables(view))
