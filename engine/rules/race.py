"""A race: rounds of dealing, programming, five registers and clean-up
(rules 2), on a scenario, with one seed for all randomness.

    race = Race(scenario, seed=7)
    outcome = race.run()            # or step: play_register(), play_round()
    race.events                     # the event log (engine/model/events.py)

Statistics runs pass ``record_events=False`` and take what they need from
the hooks: ``on_death(robot, square, cause)`` at each destruction,
``on_register_end(race)`` after each register and, with played option
cards, ``on_option(robot, "gained" or "used", card, cause)``.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from rallyforge.engine.model.directions import INDEX, NAMES
from rallyforge.engine.model.events import EventLog, Start
from rallyforge.engine.model.program_cards import DECK, KIND_CODE
from rallyforge.engine.model.scenario import Board, Card, RobotSpec, Scenario, starting_options
from rallyforge.engine.rules.board_elements import board_elements
from rallyforge.engine.rules.board_turns import BoardTurns, turning
from rallyforge.engine.rules.bot_view import Bot, BotView
from rallyforge.engine.rules.checkpoints import touch
from rallyforge.engine.rules.cleanup import lock_count, reenter, release_unlocked, repair
from rallyforge.engine.rules.course import RANDOMIZER, Course, compile_course
from rallyforge.engine.rules.lasers import fire
from rallyforge.engine.rules.movement import play_card
from rallyforge.engine.rules.option_holding import at_destruction, gain, opts, used
from rallyforge.engine.rules.option_play import (before_reveal, play_register_cards, plays_plain,
                                      recompile, release_with_options, stabilize, take_flywheel)
from rallyforge.engine.rules.option_weapons import fire_with_options, fires_plain
from rallyforge.engine.rules.outcome import Outcome, RobotResult, first_finishers
from rallyforge.engine.rules.program_deck import Deck
from rallyforge.engine.rules.programming import Controller
from rallyforge.engine.rules.state import (DeathHook, Floor, FloorSaved, OptionChoices, OptionDeck,
                                          OptionHook, RobotOptions, RobotState)
from rallyforge.engine.rules.superbot import crown, discard_damage
from rallyforge.engine.rules.teams import TeamPlay

# The deck's cards' text in the event log, made once: a long log shares the
# strings. Found by the card object (a card's own hash is a Python call).
_CARD_TEXT: dict[int, str] = {id(card): str(card) for card in DECK}


def _card_text(card: Card | None) -> str | None:
    if card is None:
        return None
    text = _CARD_TEXT.get(id(card))
    return text if text is not None else str(card)


class Saved(NamedTuple):
    """A race's state (Race.save); ``rng`` None when left out (``within_round``)."""
    rng: tuple[Any, ...] | None                     # random.Random.getstate()
    deck: tuple[list[Card], int, bool]
    floor: FloorSaved
    # (round, register, over, between rounds, finishers, cards played, turned board)
    race: tuple[int, int, bool, bool, int, int, Board | None]


class Race:
    def __init__(self, scenario: Scenario, seed: int = 0, bots: Sequence[Bot | None] = (),
                 record_events: bool = True, on_death: DeathHook | None = None,
                 on_option: OptionHook | None = None,
                 on_register_end: Callable[["Race"], None] | None = None,
                 option_choices: OptionChoices | None = None):
        """Robots come from the scenario's `robots`, `bots` giving each one's
        bot (None: its script only); when it lists none, one robot per bot
        stands on docks 1..k. A bot makes its option choices with its own
        ``option_choices``, else the race's (none: a script's choices).
        rallyforge.engine.bots.new_race makes the bots by name, with the bots' choices."""
        self.scenario = scenario
        self.seed = seed
        self.rules = scenario.rules
        self.rng = random.Random(seed)
        self.course = course = compile_course(scenario.board)
        self.flag_squares = tuple(course.square(f.x, f.y) for f in scenario.flags)
        robots: list[RobotState] = []
        self.controllers: list[Controller] = []
        for i, (name, (x, y, facing), spec, robot_bot) in enumerate(
                self._line_up(bots)):
            if spec is not None and spec.flags > len(scenario.flags):
                raise ValueError(f"robot {name!r} starts having touched {spec.flags} flags; "
                                 f"the course has {len(scenario.flags)}")
            start: dict[str, Any] = {"options": starting_options(self.rules),
                     "damage": self.rules.start_damage} if spec is None else {
                # counted up to it
                "damage": min(spec.start_damage(self.rules), self.rules.destroy_at_damage),
                "flags": spec.flags, "options": spec.option_count(self.rules),
                "powered_down": spec.powered_down and self.rules.power_down}
            lives = spec.lives if spec is not None and spec.lives is not None else self.rules.lives
            robot = RobotState(i, name, course.square(x, y), INDEX[facing], lives=lives, **start)
            robots.append(robot)
            view = BotView(scenario.board, course, self.flag_squares, self.rules, robot, robots)
            self.controllers.append(Controller(spec.program if spec else (), robot_bot, view,
                                               getattr(robot_bot, "option_choices", option_choices)))
        squares = [r.sq for r in robots]
        if len(set(squares)) != len(squares):
            raise ValueError("two robots start on one square")
        self.floor = Floor(course, self.rules, robots, self.flag_squares, record_events,
                           on_death)
        self.floor.on_option = on_option
        # a team race's rules (the floor holds them as its TeamRules)
        self.teams: TeamPlay | None = None
        if self.rules.victory != "robot":
            self.teams = self.floor.teams = TeamPlay(scenario, scenario.seats(len(robots)), course,
                                                     robots)
            for controller in self.controllers:
                controller.view.teams = self.teams
        self.on_register_end = on_register_end
        self.deck = Deck(self.rng)
        self.played = self.rules.options == "played"
        self.round = 0
        self.register = 0               # the last register played in this round
        self.over = False
        self._between_rounds = True     # the round's clean-up is done (or none started)
        self._finishers = 0
        self.cards_played = 0           # robot moves by program, for statistics
        self._abort_at: list[int | None] = [None] * len(robots)     # (set each round)
        if record_events:
            seats = scenario.seats(len(robots)) if scenario.team_race else ()
            for robot in robots:
                side = {"target": seats[robot.index].team, "cause": seats[robot.index].role} \
                    if seats else {}
                self.floor.emit("place", robot, dst=course.xy[robot.sq],
                                facing=NAMES[robot.facing],
                                start=Start(robot.damage, robot.lives, robot.flags,
                                            0 if self.played else robot.options,
                                            robot.powered_down), **side)
        if self.played:
            self._deal_options()
        if self.rules.superbot:
            self._crown_dock_1()
        self.turns: BoardTurns | None = None
        if turning(scenario):
            self.turns = BoardTurns(scenario, self.rng, self.floor, self._use_board)
            self.floor.on_flag = self.turns.flag_touched

    def _use_board(self, board: Board, course: Course) -> None:
        """Play on on a turned board (12.10): the race and every bot see it."""
        self.course = course
        for controller in self.controllers:
            controller.view.board, controller.view.course = board, course

    def _crown_dock_1(self) -> None:
        """Under `superbot` the robot on dock 1 starts as the SuperBot (12.9);
        with dock 1 empty, the robot on the lowest dock in use (a balance run's
        robots on docks 2-5), else the first robot."""
        docks = {self.course.square(d.x, d.y): n for n, d in enumerate(self.scenario.docks)}
        robots = self.floor.robots
        if robots:
            crown(self.floor, min(robots, key=lambda r: (docks.get(r.sq, len(docks)), r.index)))

    def _deal_options(self) -> None:
        """Set-up with played options (10.2): listed cards are taken out of the
        deck and gained in list order, then the deck is shuffled and each
        counted robot is dealt its cards, robot order."""
        floor = self.floor
        specs = self.scenario.robots
        listed = {c for spec in specs if isinstance(spec.options, tuple) for c in spec.options}
        floor.option_deck = OptionDeck(self.seed, listed)
        floor.discard_at_destruction = at_destruction
        counts = []                         # cards to deal each robot, once all listed are out
        for robot in floor.robots:
            spec = specs[robot.index] if specs else None
            robot.opt = RobotOptions(spec is not None and spec.shield_with_options)
            controller = self.controllers[robot.index]
            if not controller.rounds:           # a bot's choices from the start (10.12)
                robot.opt.choices = controller.choices
            count, robot.options = robot.options, 0
            if spec is not None and isinstance(spec.options, tuple):
                for card in spec.options:
                    gain(floor, robot, "start", card)
                count = 0
            counts.append(count)
        draft = self.rules.start_option_choice
        for robot, count in zip(floor.robots, counts):
            spec = specs[robot.index] if specs else None
            if draft and count and (spec is None or spec.options is None):
                self._draft(robot, draft)
                continue
            for _ in range(count):
                gain(floor, robot, "start")

    def _draft(self, robot: RobotState, size: int) -> None:
        """docs/rules.md 12.6: `size` cards dealt, one kept (a bot's most
        valued, else the first dealt), the others put under the option deck."""
        deck = self.floor.option_deck
        assert deck is not None
        dealt = [card for _ in range(size) if (card := deck.deal()) is not None]
        if not dealt:
            return
        controller = self.controllers[robot.index]
        choices = controller.choices if not controller.rounds else None
        kept = choices.keep(dealt) if choices is not None else dealt[0]
        for card in dealt:
            if card != kept:
                deck.discard(card)
        gain(self.floor, robot, f"draft of {len(dealt)}", kept)

    def _line_up(self, bots: Sequence[Bot | None]
                 ) -> Iterator[tuple[str, tuple[int, int, str], RobotSpec | None, Bot | None]]:
        """(name, start, spec, bot) of each robot in robot order."""
        s = self.scenario
        if s.robots:
            if bots and len(bots) != len(s.robots):
                raise ValueError(f"{len(bots)} bots for {len(s.robots)} robots")
            for i, spec in enumerate(s.robots):
                start = s.robot_start(i)
                if start is None:
                    raise ValueError(f"robot {spec.name!r} has no dock to start on")
                robot_bot = bots[i] if bots else None
                if spec.bot and robot_bot is None:
                    raise ValueError(f"robot {spec.name!r} names the bot {spec.bot!r}: make the "
                                     "race with rallyforge.engine.bots.new_race")
                yield spec.name, start, spec, robot_bot
            return
        if len(bots) > len(s.docks):
            raise ValueError(f"{len(bots)} robots need {len(bots)} docks; the course has "
                             f"{len(s.docks)}")
        for i, robot_bot in enumerate(bots):
            dock = s.docks[i]
            yield f"Robot {i + 1}", (dock.x, dock.y, dock.facing), None, robot_bot

    # ------------------------------------------------------------ public state

    @property
    def robots(self) -> list[RobotState]:
        return self.floor.robots

    @property
    def events(self) -> EventLog | None:
        """The event log (engine/model/events.py); None for a race made with
        ``record_events=False``."""
        return self.floor.events

    @property
    def moment(self) -> tuple[int, int | None]:
        """(round, register) of the last register played, or (round, None)
        once that round's clean-up is done; (0, None) before the race."""
        return (self.round, None) if self._between_rounds else (self.round, self.register)

    def snapshot(self) -> tuple[RobotResult, ...]:
        """Every robot's public state now."""
        won = set(self._winners())
        teams = self.teams
        return tuple(RobotResult.of(r, self.course, r.index in won,
                                    teams.carries(r) if teams is not None else 0)
                     for r in self.floor.robots)

    def _winners(self) -> tuple[int, ...]:
        """The robots (indices) whose side has won: the first finishers, or
        on a team course their teams, or the team that won otherwise."""
        robots = self.floor.robots
        first = first_finishers([r.finished for r in robots])
        teams = self.teams
        return first if teams is None else teams.winners(first)

    def outcome(self) -> Outcome:
        robots = self.floor.robots
        won = self._winners()
        teams = self.teams
        return Outcome(self.scenario.name, self.seed, self.round,
                       tuple(robots[i].name for i in won), self.snapshot(),
                       tuple(teams.team_names(won)) if teams is not None else ())

    def save(self, within_round: bool = False) -> Saved:
        """The race's state now, for ``restore`` to play on from it again (a
        bot's look-ahead plays one round many ways). Not with option cards
        played nor with events recorded: their state is not saved.
        `within_round`: the state is only played on to the end of this
        round. Within a round only a randomizer's draw uses the generator, so
        on a course without randomizers its state (625 numbers) is left out."""
        assert not self.played and self.floor.events is None, "save: no option cards, no log"
        deck = self.deck
        # (a turning board's coin is drawn within a round too)
        rng = None if within_round and not (self.course.has_randomizer or self.turns) \
            else self.rng.getstate()
        return Saved(rng, (list(deck.cards), deck.top, deck.settled), self.floor.saved(),
                     (self.round, self.register, self.over, self._between_rounds,
                      self._finishers, self.cards_played,
                      self.turns.board if self.turns else None))

    def restore(self, saved: Saved) -> None:
        """Put the race back in a state from ``save``."""
        deck = self.deck
        if saved.rng is not None:
            self.rng.setstate(saved.rng)
        cards, deck.top, deck.settled = saved.deck
        deck.cards = list(cards)
        self.floor.restore(saved.floor)
        (self.round, self.register, self.over, self._between_rounds, self._finishers,
         self.cards_played, board) = saved.race
        if self.turns is not None:
            assert board is not None        # saved with its turning boards
            self.turns.put(board)

    # ------------------------------------------------------------ stepping

    def play_register(self) -> None:
        """Play the next register (starting a round, after the last one's
        clean-up, when needed)."""
        self.start_round()
        if not self.over:
            self.register += 1
            self._play_register(self.register)

    def start_round(self) -> None:
        """After the fifth register, or before the race: the round's clean-up
        when due, then the next round's deal, programming and power-down
        announcements, up to its first register (nothing otherwise)."""
        if self.over:
            return
        if self.register == 5 and not self._between_rounds:
            self._clean_up()
        if self._between_rounds and not self.over:
            self._start_round()

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

    def _show_flags(self) -> None:
        """The bots see the flags where they stand now (moving flags, docs/rules.md 12.1)."""
        flags = self.floor.flag_squares
        for controller in self.controllers:
            controller.view.flags = flags

    def _start_round(self) -> None:
        floor, rules = self.floor, self.rules
        if rules.flags_move:
            self._show_flags()
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
                if robot.opt is not None:       # Fire Control locks lift (10.9)
                    robot.opt.fc_locks.clear()
                    robot.opt.pairs = [None] * 5
                    stabilize(floor, robot, self.controllers[robot.index].entry(self.round))
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
        if self.played:
            held |= self._held_by_options(robots)
        deck.shuffle(held)
        playing = [r for r in robots if r.sq >= 0 and not r.powered_down]
        sizes = [max(0, rules.hand_size - r.damage) for r in playing]
        if self.played:
            for i, robot in enumerate(playing):
                opts(robot).locks = lock_count(robot.damage, rules)
                if "extra-memory" in robot.cards:                   # docs/rules.md 10
                    sizes[i] += 1
                    used(floor, robot, "extra-memory")
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
        if self.played:
            hands = [self._options_hand(robot, hand) for robot, hand in zip(playing, hands)]
            # per robot, the register its script uses the Abort Switch in this round
            self._abort_at = [entry.abort_at if (entry := c.entry(round)) else None
                              for c in controllers]
        for robot, hand in zip(playing, hands):
            if robot.sq >= 0:                   # (not destroyed by its Recompile meanwhile)
                controllers[robot.index].fill(robot, round, hand, deck, rules, rng, floor)
        if log:
            for robot in robots:
                floor.emit("program", robot,
                           cards=tuple([_card_text(card) for card in robot.registers]),
                           amount=0 if robot.powered_down else lock_count(robot.damage, rules))

        floor.step = "announce"                                     # 2.4
        for robot in playing:
            self._choose_power_down(robot)

    def _held_by_options(self, robots: list[RobotState]) -> set[Card]:
        """Cards out of the shuffle: on a Flywheel, set aside by Conditional
        Program, in registers locked by Fire Control (docs/rules.md 10)."""
        held: set[Card] = set()
        for robot in robots:
            o = opts(robot)
            if o.flywheel is not None:
                held.add(o.flywheel)
            held.update(card for i in o.fc_locks if (card := robot.registers[i]) is not None)
            held.update(p[0] for p in o.pairs if p is not None)  # pairs in locked registers
        return held

    def _options_hand(self, robot: RobotState, hand: list[Card]) -> list[Card]:
        """The hand after Recompile, with the Flywheel card when its
        owner takes it back this round (their rows in docs/rules.md 10)."""
        o = opts(robot)
        o.stabilized = o.aborted = False
        controller = self.controllers[robot.index]
        if controller.recompiles(robot, self.round, hand, self.rng):
            hand = recompile(self.floor, robot, hand, self.deck)
        if controller.takes_flywheel(robot, self.round, hand, self.rng):
            hand = take_flywheel(self.floor, robot, hand)
        return hand

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

        if self.played:                         # before A: Abort Switch, Conditional Program
            before_reveal(floor, slot, self._abort_at, self.deck)

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
                        if robot.opt is not None:
                            robot.opt.pairs[slot] = None        # a pair is replaced whole
                        if log:
                            floor.emit("randomized", robot, card=_card_text(card))

        floor.step = "move"                                         # B
        if self.played and not plays_plain(floor, slot):
            self.cards_played += play_register_cards(floor, slot)
        else:
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
        if self.played and not fires_plain(floor, on_board):
            fire_with_options(floor, on_board, slot, self.deck)
        else:
            fire(floor, on_board, slot)

        floor.step = "checkpoints"                                  # E
        finished = touch(floor, on_board, register)
        if finished:
            self._finish(finished)
        if log:
            floor.events.pack()                 # type: ignore[union-attr]
        if self.on_register_end is not None:
            self.on_register_end(self)
        if self.teams is not None and not self.over and self.teams.decide_register(floor):
            self._end()
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
        if self.rules.finish == "first" or floor.teams is not None:   # a side has won (13)
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
        repaired = repair(floor, [r for r in robots if r.sq >= 0])
        if rules.superbot:
            discard_damage(floor, repaired)                         # 12.9
        floor.step = "registers"                                    # 7.2
        for robot in robots:
            if not robot.out:
                if robot.opt is not None:
                    release_with_options(floor, robot, repaired)
                else:
                    release_unlocked(robot, rules)
        floor.step = "power_down_choice"                            # 7.3
        if rules.flags_move:
            self._show_flags()
        for robot in robots:
            if self._in_race(robot) and not robot.decided:
                self._choose_power_down(robot)
            if (robot.sq >= 0 and robot.damage >= 3 and not robot.out and rules.power_down
                    and "circuit-breaker" in robot.cards and not robot.announced):
                robot.announced = True                              # Circuit Breaker
                used(floor, robot, "circuit-breaker")
                if floor.events is not None:
                    floor.emit("announce", robot)
        floor.step = "reentry"                                      # 7.4
        teams = self.teams
        reenter(floor, robots if teams is None else
                [r for r in robots if teams.may_reenter(r, self.round)])
        self._between_rounds = True
        if teams is not None and teams.decide_round(floor):
            self._end()
            return
        if self.round >= rules.max_rounds:
            self._end()

    def _end(self) -> None:
        self.over = True
        floor = self.floor
        if floor.events is not None:
            floor.step = "end"
            outcome = self.outcome()
            for name in outcome.teams:
                floor.emit("team_wins", None, target=name)
            floor.emit("end", None, target=outcome.winners)
