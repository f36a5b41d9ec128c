"""Movement options in the search bot's programs (docs/rules.md 10.12): once the
vectorised search has chosen the best plain program, each register may
take a movement option the robot holds (Fourth Gear, Reverse Gears, Brakes)
or become a two-card register with a spare hand card (Crab Legs, Dual
Processor). Each change is kept when the program then scores better,
register by register (a local search around the best plain program, not
the full search over every pair). Last, the Gyroscopic Stabilizer is used
for the round when the program so planned scores better with it.

Programs are scored by playing them on a one-robot floor with the race's
own rules code (engine/rules/option_play.py's movement with options, then the board
elements), so the model cannot drift from the rules: 1000 per flag
touched, minus the registers left to the next flag, minus the board-laser
damage taken; a destroyed robot scores as the search bot's destroyed
states do. A register of a plain card takes its move from the lone-robot
tables (that same rules code, run once per state) where they say exactly
what playing it would: on a board without levels (no fall hurts the robot,
so its cards and damage change no move) and without the Gyroscopic
Stabilizer (the tables' gears and belts turn it).
"""
from __future__ import annotations

from rallyforge.engine.bots.tables import Layered, NONE, Tables, UNREACHABLE
from rallyforge.engine.model.option_cards import OPTION_IDS, USE_KINDS
from rallyforge.engine.model.program_cards import BACK, KIND_CODE, MOVE1, MOVE3
from rallyforge.engine.model.scenario import Card
from rallyforge.engine.rules.board_elements import board_elements
from rallyforge.engine.rules.lone_robot_model import LoneRobot
from rallyforge.engine.rules.movement import play_card
from rallyforge.engine.rules.option_holding import at_destruction
from rallyforge.engine.rules.option_play import play_with_options
from rallyforge.engine.rules.state import OptionDeck, RobotOptions, RobotState

# the cards the search bot plans with
PLANNED_OPTIONS = ("fourth-gear", "reverse-gears", "brakes", "crab-legs", "dual-processor",
                   "gyroscopic-stabilizer")
_USE_OF = {MOVE3: "fourth-gear", BACK: "reverse-gears", MOVE1: "brakes"}
_PAIRS = {"crab-legs": ("left", "right"), "dual-processor": ("left", "right", "uturn")}

Pair = tuple[Card, str]         # a pair's rotate card and its option (state.RobotOptions.pairs)
Plan = tuple[list[Card | None], list[str | None], list[Pair | None]]   # cards, uses, pairs


class OptionMoves:
    """One robot's scorer of programs with movement options (made per bot)."""

    def __init__(self, tables: Tables, layered: Layered, dead: list[int]):
        self.tables, self.layered, self.dead = tables, layered, dead
        # the tables' moves of plain cards, where they are exact (module notes)
        self.ends = None if tables.course.levelled else tables.end_lists
        self.lone = LoneRobot(tables.course, tables.rules)
        self.lone.robot.opt = RobotOptions(False)
        # an empty deck of its own: a card lost in a scored program goes there
        self.lone.floor.option_deck = OptionDeck(0, set(OPTION_IDS))
        self.lone.floor.discard_at_destruction = at_destruction

    def score(self, robot: RobotState, registers: list[Card | None], uses: list[str | None],
              pairs: list[Pair | None], steady: bool = False) -> int:
        """The score of playing `registers` (with `uses` and `pairs`; with the
        Gyroscopic Stabilizer if `steady`) from where `robot` is."""
        lone, tables = self.lone, self.tables
        me = lone.put(robot.sq, robot.facing)
        ready = False                   # its cards and plan set for the rules code
        flags, F = robot.flags, self.layered.F
        damage = 0
        laser = tables.course.laser_damage
        floor = lone.floor
        occ = floor.occ
        ends = None if steady else self.ends
        for r in range(5):
            floor.register = r + 1
            card = registers[r]
            if uses[r] is None and pairs[r] is None and ends is not None:
                # a plain card (or none) by the tables: card and board elements
                moved = ends[r][NONE if card is None else KIND_CODE[card.kind]][
                    me.sq * 4 + me.facing]
                if moved == tables.DEAD:
                    lone.lift()
                    return self.dead[flags]
                occ[me.sq] = None
                me.sq, me.facing = moved >> 2, moved & 3
                occ[me.sq] = me
            else:
                if not ready:
                    me.cards = list(robot.cards)
                    o = me.opt
                    assert o is not None
                    o.plan = [(u, None, None) for u in uses]
                    o.pairs = list(pairs)
                    o.stabilized = steady
                    ready = True
                if card is not None:
                    if uses[r] is None and pairs[r] is None:
                        # a plain card (alone on its floor, Ramming Gear meets no robot)
                        play_card(floor, me, KIND_CODE[card.kind])
                    else:
                        play_with_options(floor, me, r, KIND_CODE[card.kind])
                if me.sq >= 0:
                    board_elements(floor, r + 1)
            if me.sq < 0:
                lone.lift()
                return self.dead[flags]
            damage += laser[me.sq]
            if flags < F and me.sq == tables.flags[flags]:
                flags += 1
                if flags == F:
                    lone.lift()
                    return Layered.FLAG * F + (4 - r) - damage
        state = lone.lift()
        if damage >= tables.rules.destroy_at_damage - robot.damage:
            return self.dead[flags]
        if flags >= F:
            return Layered.FLAG * F - damage
        left = int(tables.dist[flags][state])
        far = left if left < UNREACHABLE else 2 * tables.course.size
        return Layered.FLAG * flags - far - damage

    def plan(self, robot: RobotState, registers: list[Card | None], free: list[int],
             hand: list[Card]) -> tuple[list[str | None], list[Pair | None], bool]:
        """``improve``'s uses and pairs, and ``steady``'s answer for them."""
        uses, pairs, best = self._improved(robot, registers, free, hand)
        return uses, pairs, self.steady(robot, registers, uses, pairs, best)

    def improve(self, robot: RobotState, registers: list[Card | None], free: list[int],
                hand: list[Card]) -> Plan:
        """The program with the movement options and pairs that raise its
        score, register by register in order; `free` are the 0-based
        registers the bot fills."""
        uses, pairs, _ = self._improved(robot, registers, free, hand)
        return registers, uses, pairs

    def _improved(self, robot: RobotState, registers: list[Card | None], free: list[int],
                  hand: list[Card]) -> tuple[list[str | None], list[Pair | None], int | None]:
        """``improve``'s uses and pairs, and their score (None when no change
        was tried: then nothing was scored)."""
        cards = robot.cards
        uses: list[str | None] = [None] * 5
        pairs: list[Pair | None] = [None] * 5
        # the plain program's score, made when a first change is to be judged
        # (most programs have nothing to try: scoring is a played round)
        best: int | None = None
        # (by value: a card tested against a list costs a Python __eq__ call per entry)
        taken = {(c.kind, c.priority) for c in registers if c is not None}
        spare = [c for c in hand if (c.kind, c.priority) not in taken]
        held = [(which, kinds) for which, kinds in _PAIRS.items() if which in cards]
        for r in free:
            card = registers[r]
            if card is None:
                continue
            kind = KIND_CODE[card.kind]
            tries: list[tuple[str | None, Pair | None]] = []
            use = _USE_OF.get(kind)
            if use is not None and use in cards:
                tries.append((use, None))
            for which, kinds in held:
                if card.kind not in USE_KINDS[which][0]:
                    continue
                seen = set()
                for c in spare:
                    if c.kind in kinds and c.kind not in seen:
                        seen.add(c.kind)
                        tries.append((None, (c, which)))
            if not tries:
                continue
            if best is None:
                best = self.score(robot, registers, uses, pairs)
            choice: tuple[str | None, Pair | None] = (None, None)
            for use, pair in tries:
                uses[r], pairs[r] = use, pair
                score = self.score(robot, registers, uses, pairs)
                if score > best:
                    best, choice = score, (use, pair)
            uses[r], pairs[r] = choice
            if choice[1] is not None:
                spare.remove(choice[1][0])
        return uses, pairs, best

    def steady(self, robot: RobotState, registers: list[Card | None], uses: list[str | None],
               pairs: list[Pair | None], plain: int | None = None) -> bool:
        """Whether the robot's Gyroscopic Stabilizer makes the planned round
        score better (`plain`: the plan's score without it, when known)."""
        if "gyroscopic-stabilizer" not in robot.cards:
            return False
        if plain is None:
            plain = self.score(robot, registers, uses, pairs)
        return self.score(robot, registers, uses, pairs, True) > plain
