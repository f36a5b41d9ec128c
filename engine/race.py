"""A race: rounds of dealing, programming, five registers and clean-up
(rules 2), on a scenario, with one seed for all randomness.

    race = Race(scenario, seed=7)
    outcome = race.run()            # or step: play_register(), play_round()
    race.events                     # the event log (engine/events.py)

Statistics runs pass ``record_events=False`` and take what they need from
the hooks: ``on_death(robot, square, cause)`` at each destruction and
``on_register_end(race)`` after each register.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .bots import DEFAULT_BOT, Bot, BotView, make_bot
from .checkpoints import touch
from .cleanup import lock_count, reenter, release_unlocked, repair
from .course import RANDOMIZER, compile_course
from .deck import KIND_CODE
from .directions import INDEX, NAMES
from .elements import board_elements
from .events import EventLog, Start
from .lasers import fire
from .model import Card, Scenario
from .movement import play_card
from .outcome import Outcome, RobotResult
from .programming import Controller, Deck
from .state import DeathHook, Floor, RobotState

# Robots a race puts on docks when the scenario lists none and no count is given.
DEFAULT_ROBOTS = 8

# Each card's text in the event log, made once: a long log shares the strings.
_CARD_TEXT: dict[Card, str] = {}


def _card_text(card: Card | None) -> str | None:
    if card is None:
        return None
    text = _CARD_TEXT.get(card)
    if text is None:
        text = _CARD_TEXT[card] = str(card)
    return text


class Race:
    def __init__(self, scenario: Scenario, seed: int = 0, robot_count: int | None = None,
                 bot: str | None = None, bots: Sequence[str | Bot] | None = None,
                 record_events: bool = True, on_death: DeathHook | None = None,
                 on_register_end: Callable[["Race"], None] | None = None):
        """Robots come from the scenario's `robots`; when it lists none,
        `robot_count` bots stand on docks 1..k (`bots` gives each one's bot,
        else all are `bot`, else the default bot)."""
        self.scenario = scenario
        self.seed = seed
        self.rules = scenario.rules
        self.rng = random.Random(seed)
        self.course = course = compile_course(scenario.board)
        self.flag_squares = tuple(course.square(f.x, f.y) for f in scenario.flags)
        robots: list[RobotState] = []
        self.controllers: list[Controller] = []
        for i, (name, (x, y, facing), spec, robot_bot) in enumerate(
                self._line_up(robot_count, bot, bots)):
            if spec is not None and spec.flags > len(scenario.flags):
                raise ValueError(f"robot {name!r} starts having touched {spec.flags} flags; "
                                 f"the course has {len(scenario.flags)}")
            start = {} if spec is None else {
                "damage": min(spec.damage, self.rules.destroy_at_damage),    # counted up to it
                "flags": spec.flags, "options": spec.option_count(self.rules),
                "powered_down": spec.powered_down}
            lives = spec.lives if spec is not None and spec.lives is not None else self.rules.lives
            robot = RobotState(i, name, course.square(x, y), INDEX[facing], lives=lives, **start)
            robots.append(robot)
            view = BotView(scenario.board, course, self.flag_squares, self.rules, robot)
            self.controllers.append(Controller(spec.program if spec else (), robot_bot, view))
        squares = [r.sq for r in robots]
        if len(set(squares)) != len(squares):
            raise ValueError("two robots start on one square")
        self.floor = Floor(course, self.rules, robots, self.flag_squares, record_events,
                           on_death)
        self.on_register_end = on_register_end
        self.deck = Deck(self.rng)
        self.round = 0
        self.register = 0               # the last register played in this round
        self.over = False
        self._between_rounds = True     # the round's clean-up is done (or none started)
        self._finishers = 0
        self.cards_played = 0           # robot moves by program, for statistics
        if record_events:
            for robot in robots:
                self.floor.emit("place", robot, dst=course.xy[robot.sq],
                                facing=NAMES[robot.facing],
                                start=Start(robot.damage, robot.lives, robot.flags,
                                            robot.options, robot.powered_down))

    def _line_up(self, robot_count, bot, bots):
        """(name, start, spec, bot) of each robot in robot order."""
        s = self.scenario
        if s.robots:
            for i, spec in enumerate(s.robots):
                start = s.robot_start(i)
                if start is None:
                    raise ValueError(f"robot {spec.name!r} has no dock to start on")
                yield spec.name, start, spec, make_bot(spec.bot) if spec.bot else None
            return
        count = robot_count if robot_count is not None else min(DEFAULT_ROBOTS, len(s.docks))
        if not 0 <= count <= len(s.docks):
            raise ValueError(f"{count} robots need {count} docks; the course has "
                             f"{len(s.docks)}")
        for i in range(count):
            chosen = bots[i] if bots is not None else (bot or DEFAULT_BOT)
            dock = s.docks[i]
            yield (f"Robot {i + 1}", (dock.x, dock.y, dock.facing), None,
                   make_bot(chosen) if isinstance(chosen, str) else chosen)

    # ------------------------------------------------------------ public state

    @property
    def robots(self) -> list[RobotState]:
        return self.floor.robots

    @property
    def events(self) -> EventLog | None:
        """The event log (engine/events.py); None for a race made with
        ``record_events=False``."""
        return self.floor.events

    @property
    def moment(self) -> tuple[int, int | None]:
        """(round, register) of the last register played, or (round, None)
        once that round's clean-up is done; (0, None) before the race."""
        return (self.round, None) if self._between_rounds else (self.round, self.register)

    def snapshot(self) -> tuple[RobotResult, ...]:
        """Every robot's public state now."""
        return tuple(RobotResult.of(r, self.course) for r in self.floor.robots)

    def outcome(self) -> Outcome:
        finishes = [r.finished for r in self.floor.robots if r.finished is not None]
        first = min(finishes) if finishes else None
        winners = tuple(r.name for r in self.floor.robots
                        if first is not None and r.finished == first)
        return Outcome(self.scenario.name, self.seed, self.round, winners, self.snapshot())

    # ------------------------------------------------------------ stepping

    def play_register(self) -> None:
        """Play the next register (starting a round, after the last one's
        clean-up, when needed)."""
        if self.over:
            return
        if self.register == 5 and not self._between_rounds:
            self._clean_up()
        if self._between_rounds and not self.over:
            self._start_round()
        if not self.over:
            self.register += 1
            self._play_register(self.register)

    def play_round(self) -> None:
        """Play to the end of the current round, clean-up included (a whole
        round when between rounds)."""
        if self.over:
            return
        if self._between_rounds:
            self._start_round()
        while not self.over and self.register < 5:
            self.register += 1
            self._play_register(self.register)
        if not self.over:
            self._clean_up()

    def run(self) -> Outcome:
        while not self.over:
            self.play_round()
        return self.outcome()

    # ------------------------------------------------------------ the round

    @staticmethod
    def _in_race(robot: RobotState) -> bool:
        return not robot.out and robot.finished is None

    def _start_round(self) -> None:
        floor, rules = self.floor, self.rules
        self.round += 1
        self.register = 0
        self._between_rounds = False
        floor.round, floor.register = self.round, None
        log = floor.events is not None
        robots = [r for r in floor.robots if not r.out and r.finished is None]     # in the race

        floor.step = "power_down"                                   # 2.1
        for robot in robots:
            robot.powered_down, robot.announced, robot.decided = robot.announced, False, False
            if robot.powered_down:
                if self.round > 1:      # one that starts the race powered down keeps its damage
                    robot.damage = 0
                robot.registers = [None] * 5
                if log:
                    floor.emit("powered_down", robot, amount=robot.damage)

        floor.step = "deal"                                         # 2.2
        held = set()
        for robot in robots:
            if robot.damage >= rules.lock_from_damage:
                for card in robot.registers[5 - lock_count(robot.damage, rules):]:
                    if card is not None:
                        held.add(card)
        deck = self.deck
        deck.shuffle(held)
        playing = [r for r in robots if r.sq >= 0 and not r.powered_down]
        sizes = [max(0, rules.hand_size - r.damage) for r in playing]
        cards = deck.deal(sum(sizes))       # dealt in robot order, as many as there are
        hands = []
        top = 0
        for robot, size in zip(playing, sizes):
            hands.append(cards[top:top + size])
            top += size
            if log:
                floor.emit("dealt", robot, amount=len(hands[-1]))

        floor.step = "program"                                      # 2.3
        controllers, round, rng = self.controllers, self.round, self.rng
        for robot, hand in zip(playing, hands):
            controllers[robot.index].fill(robot, round, hand, deck, rules, rng)
        if log:
            for robot in robots:
                floor.emit("program", robot,
                           cards=tuple(map(_card_text, robot.registers)),
                           amount=0 if robot.powered_down else lock_count(robot.damage, rules))

        floor.step = "announce"                                     # 2.4
        for robot in playing:
            self._choose_power_down(robot)

    def _choose_power_down(self, robot: RobotState) -> None:
        robot.announced = self.controllers[robot.index].power_down(self.round, self.rng)
        robot.decided = True
        if robot.announced and self.floor.events is not None:
            self.floor.emit("announce", robot)

    def _play_register(self, register: int) -> None:
        floor = self.floor
        floor.register = register
        robots = floor.robots
        slot = register - 1
        log = floor.events is not None
        outs = floor.outs

        # (a powered-down robot's registers are empty)
        if self.course.has_randomizer:                              # A
            floor.step = "reveal"
            tile = self.course.tile
            for robot in robots:
                if (robot.sq >= 0 and tile[robot.sq] == RANDOMIZER
                        and robot.registers[slot] is not None):
                    # only a card is replaced: an empty register stays empty
                    card = self.deck.draw()
                    if card is not None:
                        robot.registers[slot] = card
                        if log:
                            floor.emit("randomized", robot, card=_card_text(card))

        floor.step = "move"                                         # B
        # highest priority first, then robot order
        actors = sorted((-card.priority, r.index, r, card) for r in robots
                        if r.sq >= 0 and (card := r.registers[slot]) is not None
                        and card.priority is not None)     # a register's card has its priority
        played = 0
        for _, _, robot, card in actors:
            if robot.sq >= 0:
                floor.moment += 1
                if log:
                    floor.emit("card", robot, card=_card_text(card))
                play_card(floor, robot, KIND_CODE[card.kind])
                played += 1
        self.cards_played += played

        board_elements(floor, register)                             # C

        floor.step = "lasers"                                       # D
        on_board = [r for r in robots if r.sq >= 0]
        fire(floor, on_board)

        floor.step = "checkpoints"                                  # E
        finished = touch(floor, on_board, register)
        if finished:
            self._finish(finished)
        if self.on_register_end is not None:
            self.on_register_end(self)
        if (finished or floor.outs != outs) and not self.over \
                and not any(self._in_race(r) for r in robots):
            self._end()

    def _finish(self, finished: list[RobotState]) -> None:
        """Robots that touched the last flag in this register share a place;
        with finish "first" the race ends now, with "all" they leave the board."""
        floor = self.floor
        place = self._finishers + 1
        self._finishers += len(finished)
        for robot in finished:
            if floor.events is not None:
                floor.emit("finish", robot, amount=place)
        if self.rules.finish == "first":
            self._end()
            return
        for robot in finished:
            if floor.events is not None:
                floor.emit("leave", robot, src=self.course.xy[robot.sq])
            floor.occ[robot.sq] = None
            robot.sq = -1
            robot.powered_down = robot.announced = False

    def _clean_up(self) -> None:
        floor, rules = self.floor, self.rules
        floor.register = None
        robots = floor.robots
        floor.step = "repairs"                                      # 7.1
        repair(floor, [r for r in robots if r.sq >= 0])
        floor.step = "registers"                                    # 7.2
        for robot in robots:
            if not robot.out:
                release_unlocked(robot, rules)
        floor.step = "power_down_choice"                            # 7.3
        for robot in robots:
            if self._in_race(robot) and not robot.decided:
                self._choose_power_down(robot)
        floor.step = "reentry"                                      # 7.4
        reenter(floor, robots)
        self._between_rounds = True
        if self.round >= rules.max_rounds:
            self._end()

    def _end(self) -> None:
        self.over = True
        floor = self.floor
        if floor.events is not None:
            floor.step = "end"
            floor.emit("end", None, target=self.outcome().winners)
