"""The aware bot: the search bot's best programs, each played one round
ahead against what the other robots will likely do, with the race's own
rules.

What it sees of the others is what a player sees across the table: where
each robot stands and faces, its damage, lives and flags touched, and the
cards in its locked registers; never the cards it is programming.

Prediction. Its hand is unknown, so SAMPLES hands are drawn (with the
race's generator) from the cards the bot does not hold, of the size the
other robot's damage allows, and for each the search bot's choice for that
robot is taken as its program; locked registers play their cards.

Look-ahead. The search bot scores every program of the hand alone on the
board; the TOP best are then played, registers 1 to 5, by a real
``engine.race.Race`` holding every robot on the board where it stands, with
each sample of predicted programs (options counted, not played; no
clean-up). A program is judged by where its robot ends, summed over the
samples with the worst one counted WORST times more (a push into a pit in
one sample is what loses races), on the search bot's scale (flags,
registers left to the next flag, damage taken, the price of a death), so
pushes into pits or off the board, robot lasers and being blocked all
count; plus PUSH_GAIN for each other robot destroyed on the way and RIVALRY
times the progress the others lose (a push that pays: every program meets
the same samples, so what the others would have done anyway cancels out).
Among equals the better program alone wins. When no other robot is within
NEAR squares the round cannot bring them together often enough to pay for
the look-ahead: the search bot's choice stands.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..cleanup import lock_count
from ..deck import DECK
from ..model import Card, Entry, Flag, Placement, ProgramRound, RobotSpec, Scenario
from .search import DAMAGE, SearchBot, dead_values, program_cards

if TYPE_CHECKING:
    import random

    from ..state import RobotState
    from . import BotView
    from .tables import Tables

TOP = 8             # programs played ahead
SAMPLES = 6         # hands drawn for the others
NEAR = 10           # squares (king's moves) within which another robot matters
RIVALRY = 0.15      # weight of the others' progress lost
PUSH_GAIN = 5       # registers' worth of another robot's destruction (a push that pays)
WORST = 1           # extra weight of the worst sample (a push into a pit the others may make)

def _chebyshev(width: int, a: int, b: int) -> int:
    return max(abs(a % width - b % width), abs(a // width - b // width))


class AwareBot(SearchBot):
    def __init__(self):
        super().__init__()
        self._guesser = SearchBot()         # programs the others' drawn hands

    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]:
        robot = view.robot
        width = view.course.width
        others = [r for r in view.others() if r.sq >= 0]
        if not hand or not free_registers or robot.sq < 0 or not any(
                _chebyshev(width, robot.sq, r.sq) <= NEAR for r in others):
            return super().program(view, hand, free_registers, rng)
        chosen, score, groups, m = self.scored(view, hand, free_registers)
        order = np.argsort(-score, kind="stable")[:TOP]
        best = score.max()
        ties = np.flatnonzero(score == best)
        if ties.size > 1:           # the search bot's pick among equals, then the rest
            first = int(ties[rng.randrange(ties.size)])
            order = np.concatenate(([first], order[order != first]))[:TOP]
        tables = self.tables(view)
        samples = [self._predict(view, hand, others, rng) for _ in range(SAMPLES)]
        ahead = [judged([self._ahead(view, tables, program_cards(int(chosen[i]), m, groups),
                                     free_registers, others, predicted) for predicted in samples])
                 for i in order]
        pick = int(order[int(np.argmax(ahead))])     # the first of equals: the better alone
        return self.planned(view, program_cards(int(chosen[pick]), m, groups), free_registers,
                            hand, m)

    def _predict(self, view: BotView, hand: list[Card], others: list[RobotState],
                 rng: random.Random) -> dict[int, list[Card | None]]:
        """One guess at the others' programs: a hand drawn for each from the
        cards this bot does not hold, programmed by the search bot."""
        from . import BotView       # (the package imports this module first)
        mine = set(map(id, hand))
        pool = [c for c in DECK if id(c) not in mine]
        out = {}
        rules = view.rules
        for other in others:
            locked = lock_count(other.damage, rules)
            free = list(range(1, 6 - locked))
            # what the table sees: the locked registers' cards, face up
            program: list[Card | None] = list(other.registers)
            program[:len(free)] = [None] * len(free)
            size = min(len(pool), max(0, rules.hand_size - other.damage))
            if free and size and not other.powered_down:
                drawn = rng.sample(pool, size)
                seen = BotView(view.board, view.course, view.flags, rules, other, view.robots)
                cards = self._guesser.program(seen, drawn, free, rng)
                program[:len(cards)] = cards
            out[other.index] = program
        return out

    def _ahead(self, view: BotView, tables: Tables, cards: list[Card],
               free_registers: list[int], others: list[RobotState],
               predicted: dict[int, list[Card | None]]) -> float:
        robot = view.robot
        program = list(robot.registers)
        free = sorted(free_registers)
        for register, card in zip(free, cards):
            program[register - 1] = card
        from ..race import Race     # the race module uses the bots: import it late
        lineup = [robot] + others
        programs = [program] + [predicted[r.index] for r in others]
        race = Race(_round_scenario(view, lineup, programs), seed=0, record_events=False)
        for _ in range(5):
            race.play_register()
            if race.over:
                break
        layered = tables.layered()
        me = race.robots[0]
        value = _value(layered, me, robot) - DAMAGE * max(0, me.damage - robot.damage)
        # the others' loss is this robot's gain (the same samples for every program)
        rivals = list(zip(race.robots[1:], others))
        return (value + PUSH_GAIN * sum(1 for after, _ in rivals if after.deaths)
                - RIVALRY * sum(_value(layered, after, before, lives=2) for after, before in rivals))


def judged(values: list[float]) -> float:
    """A program's worth over the samples: their sum, the worst counted
    WORST times more (a rare death outweighs many small gains)."""
    return sum(values) + WORST * min(values)


def _value(layered, after: RobotState, before: RobotState, lives: int | None = None) -> float:
    """Where a robot ends the round, on the search bot's scale (`lives`:
    the lives to price a death at, when not its own)."""
    if after.finished is not None:
        return float(layered.value[layered.FIN + after.finished[1] - 1])
    if after.sq < 0:
        return float(dead_values(layered, before.flags, lives or before.lives,
                                 before.archive)[after.flags])
    return float(layered.value[after.flags * layered.S + after.sq * 4 + after.facing])


def _round_scenario(view: BotView, lineup: list[RobotState],
                    programs: list[list[Card | None]]) -> Scenario:
    """One round of the robots on the board, each with its program, the
    options counted (a bot's look-ahead does not play option cards)."""
    course = view.course
    key = (id(course), view.flags, view.rules)
    base = _BASES.get(key)
    if base is None or base.board is not view.board:
        flags = tuple(Flag(*course.xy[sq]) for sq in view.flags)
        rules = replace(view.rules, options="counted", start_options=0, flag_gives_option=False)
        base = Scenario("look-ahead", view.board, flags, (), rules)
        if len(_BASES) > 16:
            _BASES.clear()
        _BASES[key] = base
    specs = []
    for robot, program in zip(lineup, programs):
        cards = []
        for card in program:
            if card is None:
                break
            cards.append(Entry(card))
        x, y = course.xy[robot.sq]
        specs.append(RobotSpec(str(robot.index), at=Placement(x, y, "NESW"[robot.facing]),
                               damage=robot.damage, lives=robot.lives, flags=robot.flags,
                               program=(ProgramRound(tuple(cards)),)))
    return replace(base, robots=tuple(specs))


_BASES: dict[tuple, Scenario] = {}
