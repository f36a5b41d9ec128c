"""The aware bot: plans two rounds ahead, and plays its best programs one
round ahead against what the other robots will likely do, with the race's
own rules.

What it sees of the others is what a player sees across the table: where
each robot stands and faces, its damage, lives and flags touched, and the
cards in its locked registers; never the cards it is programming.

Two rounds. The search bot scores every program of the hand alone on the
board; the CANDIDATES best are ranked again by what their end is worth
counting the round after (engine/bots/next_round.py): a square from which
most hands reach the flag beats one as near that needs the one right card.
When no other robot is within NEAR squares the best of them is played.

Prediction. The others' hands are unknown, so SAMPLES hands are drawn (with
the race's generator) from the cards the bot does not hold, of the size the
other robot's damage allows, and for each the search bot's choice for that
robot is taken as its program; locked registers play their cards.

Look-ahead. With another robot near, the TOP best candidates are played,
registers 1 to 5, by a real ``rallyforge.engine.race.Race`` holding every robot on the
board where it stands, with each sample of predicted programs (options
counted, not played; no clean-up): one race set up per decision, its round
dealt and saved (Race.save), and put back before each play. The programs are
played in card order, and the registers a program shares with the one before
are not played again: the race is put back to where they end (about a third
of the registers a decision would play). A program is judged by what its
robot's end is worth (two rounds, as above), summed over the samples with
the worst one counted WORST times more (a push into a pit in one sample is
what loses races), so pushes into pits or off the board, robot lasers and
being blocked all count; plus PUSH_GAIN for each other robot destroyed on
the way and RIVALRY times the progress the others lose (a push that pays:
every program meets the same samples, so what the others would have done
anyway cancels out). Among equals the better program alone wins. When each
of the TOP is destroyed in some sample, the best programs to WIDEN other
squares are played ahead too: the best way to the flag may lead past the
others, and a detour can be the way to stay in the race.

Power down. Besides the search bot's rule, it powers down when a round
without damage is worth more than POWER_ROUNDS rounds with its damage
(fewer cards, locked registers, a death nearer), from where it stands; but
not when, standing still, the others' predicted round destroys it in
STILL_DEATHS of SAMPLES samples: a powered-down robot cannot step out of
the way of a push.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from rallyforge.engine.bots.next_round import next_round
from rallyforge.engine.bots.search import (DAMAGE, SearchBot, best_programs, dead_values, hand_programs,
                                play_programs, program_cards, register_slots, with_a_flag)
from rallyforge.engine.model.program_cards import DECK, resolve
from rallyforge.engine.model.scenario import Card, Flag, Placement, RobotSpec, Rules, Scenario
from rallyforge.engine.rules.cleanup import lock_count

if TYPE_CHECKING:
    import random

    from rallyforge.engine.bots.tables import Layered, Tables
    from rallyforge.engine.rules.bot_view import BotView
    from rallyforge.engine.rules.state import RobotState

CANDIDATES = 16     # the search bot's best programs valued two rounds ahead
TOP = 8             # programs played ahead
WIDEN = 8           # programs to other squares played ahead when each of the TOP may be destroyed
SAMPLES = 6         # hands drawn for the others
NEAR = 10           # squares (king's moves) within which another robot matters
RIVALRY = 0.15      # weight of the others' progress lost
PUSH_GAIN = 5       # registers' worth of another robot's destruction (a push that pays)
WORST = 1           # extra weight of the worst sample (a push into a pit the others may make)
POWER_ROUNDS = 2    # rounds with its damage that one round without is worth more than: power down
STILL_DEATHS = 2    # samples destroying it standing still that forbid powering down

T = TypeVar("T")


def _chebyshev(width: int, a: int, b: int) -> int:
    return max(abs(a % width - b % width), abs(a // width - b // width))


class AwareBot(SearchBot):
    def __init__(self) -> None:
        super().__init__()
        self._guesser = SearchBot()         # programs the others' drawn hands

    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]:
        view = with_a_flag(view)
        robot = view.robot
        tables = self.tables(view)
        layered = tables.layered()
        if not hand or not free_registers or robot.sq < 0 or robot.flags >= layered.F:
            return super().program(view, hand, free_registers, rng)
        chosen, score, groups, m = self.scored(view, hand, free_registers)
        order = self._two_rounds(view, layered, chosen, score, groups, m, free_registers, rng)
        others = self._near(view)
        if others:
            samples = [self._predict(view, hand, others, rng) for _ in range(SAMPLES)]
            ahead_round = _Round(view, others)

            def judge(picks: np.ndarray) -> list[tuple[float, bool]]:
                programs = [_program(robot, program_cards(int(chosen[i]), m, groups),
                                     free_registers) for i in picks]
                return self._judged_ahead(view, tables, programs, others, samples, ahead_round)

            order = order[:TOP]
            ahead = judge(order)
            if all(d for _, d in ahead):     # destroyed in some sample, every one
                extra = self._elsewhere(view, layered, score, groups, m, free_registers, order)
                ahead += judge(extra)
                order = np.concatenate((order, extra))
            pick = int(order[int(np.argmax([v for v, _ in ahead]))])  # first of equals
        else:
            pick = int(order[0])
        return self.planned(view, layered, program_cards(int(chosen[pick]), m, groups),
                            free_registers, hand, m)

    def power_down(self, view: BotView, rng: random.Random) -> bool:
        view = with_a_flag(view)
        robot = view.robot
        if robot.sq < 0 or not robot.damage:
            return False
        layered = self.tables(view).layered()
        wanted = super().power_down(view, rng)
        if not wanted and robot.flags < layered.F:
            values = next_round(layered, view.rules)
            x = layered.extended(robot)
            here = float(layered.to_go[x])
            fresh = values.alive(x, 0, robot.lives, robot.archive) - here
            hurt = values.alive(x, robot.damage, robot.lives, robot.archive) - here
            wanted = fresh > POWER_ROUNDS * hurt
        return wanted and not self._destroyed_standing_still(view, rng)

    def _destroyed_standing_still(self, view: BotView, rng: random.Random) -> bool:
        """Whether the others' predicted round, the robot standing where it
        is with no card, destroys it in STILL_DEATHS of SAMPLES samples."""
        others = self._near(view)
        if not others:
            return False
        tables = self.tables(view)
        still: list[Card | None] = [None] * 5
        ahead_round = _Round(view, others)
        deaths = sum(self._ahead(view, tables, still, others,
                                 self._predict(view, [], others, rng), ahead_round)[1]
                     for _ in range(SAMPLES))
        return deaths >= STILL_DEATHS

    @staticmethod
    def _near(view: BotView) -> list[RobotState]:
        """The other robots on the board, when one of them is within NEAR
        squares (king's moves) of this one; else none."""
        robot = view.robot
        width = view.course.width
        others = [r for r in view.others() if r.sq >= 0]
        if any(_chebyshev(width, robot.sq, r.sq) <= NEAR for r in others):
            return others
        return []

    def _elsewhere(self, view: BotView, layered: Layered, score: np.ndarray,
                   groups: list[list[Card]], m: int,
                   free_registers: list[int], order: np.ndarray) -> np.ndarray:
        """The best program alone to each square none of `order` ends on,
        the WIDEN best of them."""
        robot = view.robot
        x, _ = play_programs(layered, layered.extended(robot),
                             hand_programs([len(g) for g in groups], m),
                             register_slots(view, free_registers, m))
        square = np.where(x < layered.FIN, (x % layered.S) // 4, -1)
        taken = set(square[order].tolist())
        out: list[int] = []
        for i in np.argsort(-score, kind="stable"):
            sq = int(square[i])
            if sq not in taken and 0 <= sq < layered.S // 4:     # alive, somewhere new
                taken.add(sq)
                out.append(int(i))
                if len(out) == WIDEN:
                    break
        return np.array(out, dtype=np.intp)

    def _two_rounds(self, view: BotView, layered: Layered, chosen: np.ndarray, score: np.ndarray,
                    groups: list[list[Card]], m: int,
                    free_registers: list[int], rng: random.Random) -> np.ndarray:
        """The CANDIDATES best programs alone, best first by what their end
        is worth counting the next round (engine/bots/next_round.py)."""
        robot = view.robot
        order = np.argsort(-score, kind="stable")[:CANDIDATES]
        ties = best_programs(score)
        if ties.size > 1:           # the search bot's pick among equals, then the rest
            first = int(ties[rng.randrange(ties.size)])
            order = np.concatenate(([first], order[order != first]))[:CANDIDATES]
        x, taken = play_programs(layered, layered.extended(robot),
                                 hand_programs([len(g) for g in groups], m)[order],
                                 register_slots(view, free_registers, m))
        values = next_round(layered, view.rules)
        worth = [values.worth(int(a), int(t), robot.flags, robot.damage, robot.lives,
                              robot.archive) for a, t in zip(x, taken)]
        return order[np.argsort(-np.array(worth), kind="stable")]

    def _predict(self, view: BotView, hand: list[Card], others: list[RobotState],
                 rng: random.Random) -> dict[int, list[Card | None]]:
        """One guess at the others' programs: a hand drawn for each from the
        cards this bot does not hold, programmed by the search bot."""
        from rallyforge.engine.rules.bot_view import BotView
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
                seen = BotView(view.board, view.course, view.flags, rules, other, view.robots,
                               view.homes, view.teams)
                cards = self._guesser.program(seen, drawn, free, rng)
                program[:len(cards)] = cards
            out[other.index] = program
        return out

    def _judged_ahead(self, view: BotView, tables: Tables, programs: list[list[Card | None]],
                      others: list[RobotState], samples: list[dict[int, list[Card | None]]],
                      ahead_round: _Round) -> list[tuple[float, bool]]:
        """Each program's worth over the samples (``judged``), and whether it
        is destroyed in any of them."""
        plan = _Plan(programs)
        ends = [self._ahead_each(view, tables, plan, others, predicted, ahead_round)
                for predicted in samples]
        return [(judged([sample[i][0] for sample in ends]), any(sample[i][1] for sample in ends))
                for i in range(len(programs))]

    def _ahead(self, view: BotView, tables: Tables, program: list[Card | None],
               others: list[RobotState], predicted: dict[int, list[Card | None]],
               ahead_round: _Round | None = None) -> tuple[float, bool]:
        """Its robot's round with `program` (five registers) among the others
        playing `predicted`: what the round is worth to it, and whether it
        was destroyed. `ahead_round`: the round of these robots, set up once
        for every program and sample of a decision (else set up here)."""
        return self._ahead_each(view, tables, _Plan([program]), others, predicted,
                                ahead_round)[0]

    def _ahead_each(self, view: BotView, tables: Tables, plan: _Plan,
                    others: list[RobotState], predicted: dict[int, list[Card | None]],
                    ahead_round: _Round | None = None) -> list[tuple[float, bool]]:
        """``_ahead`` of each program of `plan`, against the same prediction."""
        robot = view.robot
        if ahead_round is None:
            ahead_round = _Round(view, others)
        layered = tables.layered()

        def worth(ends: list[RobotState]) -> tuple[float, bool]:
            me = ends[0]
            value = _worth(layered, view, me, robot) - DAMAGE * max(0, me.damage - robot.damage)
            return (value + self.others_worth(view, layered, list(zip(ends[1:], others))),
                    bool(me.deaths))

        return ahead_round.play_each(plan, [predicted[r.index] for r in others], worth)

    def others_worth(self, view: BotView, layered: Layered,
                     rivals: list[tuple[RobotState, RobotState]]) -> float:
        """What the others' round (each robot's end and start) is worth to
        this robot: their loss is its gain (the same samples for every program)."""
        return (PUSH_GAIN * sum(1 for after, _ in rivals if after.deaths)
                - sum(self.rivalry(view, before) * _rival(layered, after, before)
                      for after, before in rivals))

    def rivalry(self, view: BotView, other: RobotState) -> float:
        """The weight of another robot's progress lost (RIVALRY)."""
        return RIVALRY


def _program(robot: RobotState, cards: list[Card], free_registers: list[int]
             ) -> list[Card | None]:
    """The five registers: `cards` in the free ones, the locked ones' own."""
    program = list(robot.registers)
    for register, card in zip(sorted(free_registers), cards):
        program[register - 1] = card
    return program


def judged(values: list[float]) -> float:
    """A program's worth over the samples: their sum, the worst counted
    WORST times more (a rare death outweighs many small gains)."""
    return sum(values) + WORST * min(values)


def _worth(layered: Layered, view: BotView, after: RobotState, before: RobotState) -> float:
    """What ending the round as `after` is worth to the robot that began it
    as `before`, counting the next round (its damage is `after`'s)."""
    return next_round(layered, view.rules).worth(layered.extended(after), 0, before.flags,
                                                 after.damage, before.lives, before.archive)


def _rival(layered: Layered, after: RobotState, before: RobotState) -> float:
    """Where another robot ends the round, in registers to go to the finish
    (Layered.to_go; a death priced as one with a life to spare)."""
    if after.finished is None and after.sq < 0:
        dead = dead_values(layered, before.flags, 2, before.archive) - layered.offset
        return float(dead[after.flags])
    return float(layered.to_go[layered.extended(after)])


class _Round:
    """One round of the robots on the board, each starting where it stands,
    played with programs by the race's own rules (options counted, not
    played; no clean-up): a ``Race`` set up once, its round dealt, and put
    back to that moment before each play."""

    def __init__(self, view: BotView, others: list[RobotState]):
        from rallyforge.engine.rules.race import Race  # the race module uses the bots: import it late
        lineup = [view.robot] + others
        self.race = Race(_round_scenario(view, lineup), seed=0, record_events=False)
        for robot, real in zip(self.race.robots, lineup):
            robot.superbot = real.superbot      # who holds the title (rules 12.9)
        self.race.start_round()
        self.start = self.race.save(within_round=True)

    def play(self, programs: list[list[Card | None]]) -> list[RobotState]:
        """The robots at the end of the round (or of the race, when one
        finishes with finish "first"), each playing its program: its cards up
        to the first empty register."""
        return self.play_each(_Plan(programs[:1]), programs[1:], list)[0]

    def play_each(self, plan: _Plan, theirs: list[list[Card | None]],
                  judge: Callable[[list[RobotState]], T]) -> list[T]:
        """``judge`` of the robots at the end of the round (as ``play``) for
        each of this robot's programs in `plan`, the others playing
        `theirs`: the registers programs share are played once, saved, and
        put back for the next program."""
        race = self.race
        fixed = [_registers(p) for p in theirs]
        out: list[T | None] = [None] * len(plan.registers)
        path = [self.start]         # path[d]: the race after d registers of the program before
        for i, shared, keep in plan.steps:
            registers = plan.registers[i]
            depth = min(shared, len(path) - 1)
            del path[depth + 1:]
            race.restore(path[depth])
            robots = race.robots
            if depth == 0:
                for robot, program in zip(robots[1:], fixed):
                    robot.registers = list(program)
            robots[0].registers[depth:] = registers[depth:]
            played = depth
            while played < 5 and not race.over:
                race.play_register()
                played += 1
                if played <= keep and played == len(path):
                    path.append(race.save(within_round=True))
            out[i] = judge(robots)
        return out  # type: ignore[return-value]


class _Plan:
    """The order in which to play a robot's programs so that those that begin
    alike (about a third of a decision's registers) share what they have in
    common: in card order, each with the registers it shares with the
    program before (played from there) and with the one after (saved on the
    way)."""

    def __init__(self, programs: list[list[Card | None]]):
        self.registers = [_registers(p) for p in programs]
        order = sorted(range(len(programs)), key=lambda i: [_order(c) for c in self.registers[i]])
        shared = [0] + [_shared(self.registers[a], self.registers[b])
                        for a, b in zip(order, order[1:])]
        self.steps = list(zip(order, shared, shared[1:] + [0]))


def _registers(program: list[Card | None]) -> list[Card | None]:
    """The five registers a program plays: its cards up to the first empty
    register (their priorities resolved), then none."""
    cards: list[Card | None] = []
    for card in program[:5]:
        if card is None:
            break
        cards.append(resolve(card))
    return cards + [None] * (5 - len(cards))


def _order(card: Card | None) -> tuple[str, int]:
    return ("", -1) if card is None else (card.kind, card.priority or 0)


def _shared(a: list[Card | None], b: list[Card | None]) -> int:
    """How many registers two programs have alike from the first."""
    n = 0
    while n < 5 and a[n] == b[n]:
        n += 1
    return n


def _round_scenario(view: BotView, lineup: list[RobotState]) -> Scenario:
    """The robots on the board where they stand, with no program, the
    options counted (a bot's look-ahead does not play option cards)."""
    course = view.course
    key = (id(course), view.flags, view.rules)
    base = _BASES.get(key)
    if base is None or base.board is not view.board:
        flags = tuple(Flag(*course.xy[sq]) for sq in view.flags)
        # (the look-ahead judges where robots end: no team rules, docs/rules.md 13)
        rules = replace(view.rules, options="counted", start_options=0, flag_gives_option=False,
                        start_option_choice=0, victory="robot")
        base = Scenario("look-ahead", view.board, flags, (), rules)
        if len(_BASES) > 16:
            _BASES.clear()
        _BASES[key] = base
    specs = []
    for robot in lineup:
        x, y = course.xy[robot.sq]
        specs.append(RobotSpec(str(robot.index), at=Placement(x, y, "NESW"[robot.facing]),
                               damage=robot.damage, lives=robot.lives,
                               # (a robot on the board has a flag to go: a team
                               # bot's view has one flag, engine/bots/team.py)
                               flags=min(robot.flags, len(view.flags) - 1)))
    return replace(base, robots=tuple(specs))


_BASES: dict[tuple[int, tuple[int, ...], Rules], Scenario] = {}
