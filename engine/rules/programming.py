"""Programming (rules 2.3-2.4): who fills a robot's registers and chooses
its power downs (the deck it deals from: engine/rules/program_deck.py)."""
from __future__ import annotations

import random

from rallyforge.engine.model.program_cards import resolve
from rallyforge.engine.model.scenario import Card, ProgramRound, Rules
from rallyforge.engine.rules.bot_view import Bot, BotView
from rallyforge.engine.rules.cleanup import lock_count
from rallyforge.engine.rules.option_play import bot_flywheel, set_plan, use_stabilizer
from rallyforge.engine.rules.program_deck import Deck
from rallyforge.engine.rules.state import Floor, OptionChoices, RobotState


class Controller:
    """Who programs one robot: its scripted rounds, then its bot (if any)."""

    __slots__ = ("script", "rounds", "bot", "choices", "view")

    def __init__(self, program: tuple[ProgramRound, ...], bot: Bot | None, view: BotView,
                 choices: OptionChoices | None = None):
        # each round: five cards (None for an empty register), power down
        self.script = tuple(
            (tuple(resolve(e.card) for e in entry.cards[:5]) + (None,) * (5 - len(entry.cards[:5])),
             entry.power_down)
            for entry in program)
        self.rounds = program
        self.bot = bot
        self.choices = choices if bot is not None else None     # its option choices
        self.view = view

    def entry(self, round: int) -> ProgramRound | None:
        """The scripted round, None once the script has run out."""
        return self.rounds[round - 1] if round <= len(self.rounds) else None

    def recompiles(self, robot: RobotState, round: int, hand: list[Card],
                   rng: random.Random) -> bool:
        """Whether the robot recompiles its hand this round (docs/rules.md 10): its
        script says so, or its bot decides, when it holds Recompile."""
        if round <= len(self.rounds):
            return self.rounds[round - 1].recompile
        choose = getattr(self.bot, "recompile", None)
        if choose is None or "recompile" not in robot.cards:
            return False
        free = 5 - lock_count(robot.damage, self.view.rules)
        return bool(choose(self.view, hand, list(range(1, free + 1)), rng))

    def takes_flywheel(self, robot: RobotState, round: int, hand: list[Card],
                       rng: random.Random) -> bool:
        """Whether the card kept on the robot's Flywheel joins this hand
        (docs/rules.md 10): its script says so, or its bot decides: with a search, when
        a program is better with the card; without one, when the hand is
        too short to fill its registers (a bot's policy)."""
        if round <= len(self.rounds):
            return self.rounds[round - 1].take_flywheel
        o = robot.opt
        if self.bot is None or o is None or o.flywheel is None:
            return False
        free = list(range(1, 6 - o.locks))
        choose = getattr(self.bot, "take_flywheel", None)
        if choose is None:
            return len(hand) < len(free)
        return bool(choose(self.view, hand, o.flywheel, free, rng))

    def fill(self, robot: RobotState, round: int, hand: list[Card], deck: Deck, rules: Rules,
             rng: random.Random, floor: Floor | None = None) -> None:
        """2.3: fill the unlocked registers; a locked register that is empty
        takes the scripted card for it, or for a bot the top card of the deck.
        With played options: locks as judged at the deal (before Recompile,
        docs/rules.md 10), registers locked by Fire Control keep their cards, and the
        script's option uses are read."""
        o = robot.opt
        free = 5 - (o.locks if o is not None else lock_count(robot.damage, rules))
        registers = robot.registers
        kept = [(i, registers[i]) for i in o.fc_locks] if o is not None else ()
        if round <= len(self.script):
            cards = self.script[round - 1][0]
            registers[:free] = cards[:free]
            for i in range(free, 5):
                if registers[i] is None:
                    registers[i] = cards[i]
        elif self.bot is not None:
            chosen = list(self.bot.program(self.view, hand, list(range(1, free + 1)), rng))
            registers[:free] = chosen[:free] + [None] * (free - len(chosen))
            for i in range(free, 5):
                if registers[i] is None:
                    registers[i] = deck.draw()
        else:                               # plays no new cards
            registers[:free] = (None,) * free
        if o is not None and floor is not None:
            for i, card in kept:
                registers[i] = card
            if round > len(self.script) and self.bot is not None:
                o.choices = self.choices    # its choices are a bot's from now on (10.12)
            set_plan(floor, robot, self.entry(round), free)
            plan = getattr(self.bot, "option_plan", None) if o.choices is not None else None
            if plan is not None:            # the search bot's movement options and pairs
                uses, pairs, steady = plan
                o.plan = [(use, None, None) for use in uses]
                for i in range(free):
                    if i not in o.fc_locks:
                        o.pairs[i] = pairs[i]
                if steady:
                    use_stabilizer(floor, robot)
            bot_flywheel(floor, robot, hand)

    def power_down(self, round: int, rng: random.Random) -> bool:
        """Whether the robot is to be powered down in the next round (never
        where the rules allow no power down, docs/rules.md 12.4)."""
        if not self.view.rules.power_down:
            return False
        if round <= len(self.script):
            return self.script[round - 1][1]
        if self.bot is not None:
            return self.bot.power_down(self.view, rng)
        return False
