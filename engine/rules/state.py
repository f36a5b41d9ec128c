"""The mutable state of a race: robots and who stands where.

``Floor`` is everything the rules code (movement, conveyors, elements,
lasers, checkpoints, clean-up) reads and changes: the compiled course, the
robots, the occupancy of every square, and the moment (round, register,
step) that stamps events and orders destructions. A race holds one; the
lone-robot model holds another with a single robot, so both run the same
rules code.

The rules that keep state of their own and act on the floor (option cards,
engine/rules/option_holding.py; team races, engine/rules/teams.py) import
this module; it knows them only by what it holds of them (``RobotOptions``,
``OptionDeck``, the ``OptionChoices`` and ``TeamRules`` protocols) and by
the hook ``Floor.discard_at_destruction``, so no import goes back up.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from rallyforge.engine.model.directions import DX, DY, NAMES
from rallyforge.engine.model.events import EventLog
from rallyforge.engine.model.option_cards import OPTION_IDS
from rallyforge.engine.model.scenario import Card, Rules
from rallyforge.engine.rules.course import Course


class RobotState:
    """One robot. ``sq`` is its square index, -1 when it is not on the board
    (destroyed, out, or finished and gone)."""

    __slots__ = ("index", "name", "sq", "facing", "damage", "lives", "flags", "options",
                 "archive", "destroyed", "out", "finished", "powered_down", "announced",
                 "decided", "registers", "deaths", "death_seq", "pending", "cards", "opt",
                 "killed_by", "superbot")

    def __init__(self, index: int, name: str, sq: int, facing: int, *, damage: int = 0,
                 lives: int = 3, flags: int = 0, options: int = 0, powered_down: bool = False):
        self.index = index              # place in robot order
        self.name = name
        self.sq = sq
        self.facing = facing
        self.damage = damage
        self.lives = lives
        self.flags = flags              # flags touched
        self.options = options
        self.archive = sq
        self.destroyed = False          # waiting to re-enter
        self.out = False
        self.finished: tuple[int, int] | None = None    # (round, register)
        self.powered_down = powered_down    # powered down in the current round
        self.announced = powered_down       # powered down in the next round
        self.decided = False                # has chosen about power down this round
        self.registers: list[Card | None] = [None] * 5
        self.deaths = 0
        self.death_seq = 0              # the Floor.moment it was last destroyed in: orders re-entry
        self.pending = 0                # laser damage being added up in a lasers step
        self.cards: list[str] = []      # option cards held (played options), oldest first
        self.opt: RobotOptions | None = None    # what its cards remember (played options)
        self.killed_by: Blame | None = None     # what destroyed it last (Floor.destroy)
        self.superbot = False           # holds the SuperBot title (rule superbot)

    def __repr__(self) -> str:
        return f"<RobotState {self.name} sq={self.sq} facing={NAMES[self.facing]}>"

    def priority(self, slot: int) -> int:
        """The priority of the card in register slot+1; -1 without one."""
        card = self.registers[slot]
        return card.priority if card is not None and card.priority is not None else -1

    def saved(self) -> RobotSaved:
        """Its state, for ``restore`` (its lists copied; not its option cards'
        memory, ``opt``, which only played option cards have)."""
        assert self.opt is None
        return (self.sq, self.facing, self.damage, self.lives, self.flags, self.options,
                self.archive, self.destroyed, self.out, self.finished, self.powered_down,
                self.announced, self.decided, self.deaths, self.death_seq, self.pending,
                self.killed_by, self.superbot, list(self.registers), list(self.cards))

    def restore(self, saved: RobotSaved) -> None:
        (self.sq, self.facing, self.damage, self.lives, self.flags, self.options,
         self.archive, self.destroyed, self.out, self.finished, self.powered_down,
         self.announced, self.decided, self.deaths, self.death_seq, self.pending,
         self.killed_by, self.superbot, registers, cards) = saved
        self.registers, self.cards = list(registers), list(cards)


class RobotOptions:
    """What a robot's option cards remember besides which it holds
    (``RobotState.cards``)."""

    __slots__ = ("coat", "shells", "fc_locks", "pairs", "plan", "radio", "flywheel", "aside",
                 "stabilized", "aborted", "shield", "shield_sides", "fresh", "choices", "locks")

    def __init__(self, shield: bool):
        self.coat = 0                   # Ablative Coat points taken
        self.shells = 0                 # Mini Howitzer shots fired
        self.fc_locks: list[int] = []   # registers (0-4) locked by Fire Control
        # a pair's rotate card and the option that joins it (crab-legs, dual-processor)
        self.pairs: list[tuple[Card, str] | None] = [None] * 5
        self.plan: list[tuple[str | None, str | None, str | None]] | None = None
        # Radio Control: (shooter, first register index, target registers copying)
        self.radio: tuple[RobotState, int, frozenset[int]] | None = None
        self.flywheel: Card | None = None
        self.aside: tuple[Card, int] | None = None      # Conditional Program
        self.stabilized = False         # Gyroscopic Stabilizer this round
        self.aborted = False
        self.shield = shield            # shield_with_options
        self.shield_sides = 0           # Power-Down Shield: sides used in this register
        self.fresh = False              # Superior Archive Copy: re-enter with 0 damage
        # a bot's option choices once its bot programs it (docs/rules.md 10.12); None: a
        # script's choices
        self.choices: OptionChoices | None = None
        self.locks = 0                  # registers locked by damage this round


class OptionDeck:
    """The 26 option cards, shuffled once from the race's seed (docs/rules.md 10.1);
    discarded cards go under it and it is never reshuffled."""

    __slots__ = ("cards",)

    def __init__(self, seed: int, listed: set[str]):
        self.cards = [c for c in OPTION_IDS if c not in listed]
        if self.cards:      # (an empty deck, a bot's scoring floor's, needs no generator)
            # its own generator: the program deck deals the same cards whatever
            # the option deck does
            random.Random(f"option deck {seed}").shuffle(self.cards)

    def deal(self) -> str | None:
        return self.cards.pop(0) if self.cards else None

    def discard(self, card: str) -> None:
        self.cards.append(card)


class OptionChoices(Protocol):
    """A bot's choices with option cards (docs/rules.md 10.12: a bot's policy, not a rule)."""

    def give_up(self, robot: RobotState) -> str:
        """The card the robot gives up first (a discard, a card traded for damage)."""
        ...

    def keep(self, cards: list[str]) -> str:
        """Of a draft of starting option cards, the one the robot keeps (docs/rules.md 12.6)."""
        ...

    def move_use(self, kind: int, cards: list[str]) -> str | None:
        """The movement option a card of `kind` is played with, for a bot
        without a plan of its own."""
        ...

    def flywheel_card(self, left: list[Card]) -> Card:
        """Of the hand's cards left out of the program, the one kept on the Flywheel."""
        ...

    def weapon(self, floor: Floor, shooter: RobotState, targets: list[RobotState], d: int,
               slot: int, points: int) -> tuple[str, str | None] | None:
        """The weapon a main laser shot is replaced by, with its mode; None
        for the laser's damage."""
        ...


class TeamRules(Protocol):
    """What the floor and the checkpoint step ask of a team race's rules
    (engine/rules/teams.py ``TeamPlay``, docs/rules.md 13)."""

    blocker: list[bool]             # by robot: a blocker touches no flag (13.2)

    @property
    def unordered(self) -> bool: ...

    def touch(self, floor: Floor, robot: RobotState, sq: int) -> None: ...

    def touched(self, floor: Floor, robot: RobotState) -> None: ...

    def spares(self, robot: RobotState, square: int) -> bool: ...

    def destroyed(self, floor: Floor, robot: RobotState, square: int, spared: bool) -> None: ...

    def went_out(self, floor: Floor, robot: RobotState) -> None: ...

    def saved(self) -> TeamSaved: ...

    def restore(self, saved: TeamSaved) -> None: ...


# What sent a robot to its destruction: (agent, square). The agent is the
# move's cause (card, push, pusher, express, conveyor, current, teleport) for
# a fall into a pit, a drain or off the board, or down a ledge, with the
# square it moved from; "laser" with the board laser's square, "robot laser",
# or a damage cause (fall, ramming gear, recompile) with -1 for damage;
# "crusher" with its square.
Blame = tuple[str, int]
# (sq, facing, damage, lives, flags, options, archive, destroyed, out,
# finished, powered_down, announced, decided, deaths, death_seq, pending,
# killed_by, superbot, registers, cards): RobotState.saved
RobotSaved = tuple[int, int, int, int, int, int, int, bool, bool, tuple[int, int] | None, bool,
                   bool, bool, int, int, int, Blame | None, bool, list[Card | None], list[str]]
# (won, owner, sat_out, flag_sq, carrier): engine/rules/teams.py TeamPlay.saved
TeamSaved = tuple[tuple[int, ...], list[int], dict[int, int], list[int], list[int]]
# (robots, (round, register, step, moment, outs), flag gifts, flag squares, teams)
FloorSaved = tuple[tuple[RobotSaved, ...], tuple[int, int | None, str, int, int],
                   list[RobotState], tuple[int, ...], TeamSaved | None]
DeathHook = Callable[[RobotState, int, str], None]
OptionHook = Callable[[RobotState, str, str, "str | None"], None]


class Floor:
    __slots__ = ("course", "rules", "robots", "occ", "flag_squares", "flag_home", "flag_at", "marks",
                 "round", "register", "_step", "moment", "events", "on_death", "on_option", "outs",
                 "option_deck", "discard_at_destruction", "flag_gifts", "on_flag", "teams")

    def __init__(self, course: Course, rules: Rules, robots: list[RobotState],
                 flag_squares: tuple[int, ...] = (), record_events: bool = False,
                 on_death: DeathHook | None = None):
        self.course = course
        self.rules = rules
        self.robots = robots
        self.occ: list[RobotState | None] = [None] * course.size
        for robot in robots:
            if robot.sq >= 0:
                self.occ[robot.sq] = robot
        self.flag_squares = flag_squares     # where the flags stand now
        self.flag_home = flag_squares        # their squares in the file (moving flags, 12.1)
        self.flag_at = [0] * course.size     # flag number on each square, 0 for none
        # squares where the checkpoint step has something to look at (a copy
        # at C speed: the aware bot sets up a race per look-ahead)
        self.marks = list(course.archive_point)
        self.place_flags(flag_squares)
        self.round = 0
        self.register: int | None = None
        # Robots destroyed in one moment re-enter in robot order (rule 7.4). A
        # moment is one step, or within the card step one card and within the
        # pusher step one pusher: setting `step` starts a new one, and the
        # card and pusher loops start one per card and per pusher.
        self.moment = 0
        self._step = "setup"
        self.events: EventLog | None = EventLog(course.xy) if record_events else None
        self.on_death = on_death
        # statistics hook: (robot, "gained" or "used", card id, cause) with played options
        self.on_option: OptionHook | None = None
        self.outs = 0                   # robots that have gone out of the race
        self.option_deck: OptionDeck | None = None      # with played options
        # with played options: what a destroyed robot's cards do (set with
        # option_deck to engine/rules/option_holding.py at_destruction)
        self.discard_at_destruction: Callable[[Floor, RobotState], None] | None = None
        self.flag_gifts: list[RobotState] = []  # flag_gives_option: a card each at 7.1
        self.teams: TeamRules | None = None     # a team race's variant (docs/rules.md 13)
        # board_turns_on_flag: called with a flag's square when a robot touches it
        self.on_flag: Callable[[int], None] | None = None

    def set_course(self, course: Course) -> None:
        """Play on on another course of the same size (a factory board turned, 12.10)."""
        self.course = course
        self.marks[:] = course.archive_point
        self.place_flags(self.flag_squares)

    @property
    def step(self) -> str:
        return self._step

    @step.setter
    def step(self, step: str) -> None:
        self._step = step
        self.moment += 1

    def place_flags(self, squares: tuple[int, ...]) -> None:
        """Put the flags on `squares` (moving flags, docs/rules.md 12.1),
        keeping ``flag_at`` and ``marks`` in step."""
        flag_at, marks, archive_point = self.flag_at, self.marks, self.course.archive_point
        for square in self.flag_squares:
            flag_at[square] = 0
            marks[square] = archive_point[square]
        self.flag_squares = squares
        for number, square in enumerate(squares, 1):
            flag_at[square] = number
            marks[square] = True

    def saved(self) -> FloorSaved:
        """The robots' state, the moment and where the flags stand, for
        ``restore`` (engine/rules/race.py Race.save)."""
        return (tuple(robot.saved() for robot in self.robots),
                (self.round, self.register, self._step, self.moment, self.outs),
                list(self.flag_gifts), self.flag_squares,
                self.teams.saved() if self.teams is not None else None)

    def restore(self, saved: FloorSaved) -> None:
        robots, moment, gifts, flags, teams = saved
        if flags != self.flag_squares:
            self.place_flags(flags)
        if self.teams is not None:
            assert teams is not None        # saved on this floor, with its teams
            self.teams.restore(teams)
        occ = self.occ
        for robot in self.robots:
            if robot.sq >= 0:
                occ[robot.sq] = None
        for robot, state in zip(self.robots, robots):
            robot.restore(state)
            if robot.sq >= 0:
                occ[robot.sq] = robot
        self.round, self.register, self._step, self.moment, self.outs = moment
        self.flag_gifts = list(gifts)

    # ------------------------------------------------------------ events

    def emit(self, kind: str, robot: RobotState | None, **payload: Any) -> None:
        """Log an event (nothing when the race keeps no log)."""
        if self.events is not None:
            self.events.record((self.round, self.register, self._step, kind,
                                robot.name if robot is not None else None, payload))

    def emit_move(self, robot: RobotState, src: int, dst: int, d: int, cause: str,
                  distance: int = 1) -> None:
        """A move event from square src towards d; dst < 0 means off the board."""
        xy = self.course.xy
        if dst >= 0:
            to = xy[dst]
        else:
            x, y = xy[src]
            to = (x + DX[d] * distance, y + DY[d] * distance)
        if self.events is not None:     # (emit's work, spelled out: the commonest event)
            self.events.record((self.round, self.register, self._step, "move", robot.name,
                                {"src": xy[src], "dst": to, "cause": cause}))

    def emit_turn(self, robot: RobotState, quarter_turns: int, cause: str) -> None:
        if self.events is not None:
            self.events.record((self.round, self.register, self._step, "turn", robot.name,
                                {"facing": NAMES[robot.facing], "amount": quarter_turns,
                                 "cause": cause}))

    # ------------------------------------------------------------ arriving and dying

    def put(self, robot: RobotState, square: int, came_from: int, by: str | None = None) -> None:
        """Put a robot that has just left square `came_from` (and is in no square
        of ``occ``) on `square`: off the board (< 0), into a pit or drain it is
        destroyed (rule 3.4). `by` is the move's cause (what to blame)."""
        if square < 0:
            robot.sq = -1
            self.destroy(robot, "off board", came_from, None if by is None else (by, came_from))
            return
        robot.sq = square
        cause = self.course.death[square]
        if cause is None:
            self.occ[square] = robot
        else:
            self.destroy(robot, cause, square, None if by is None else (by, came_from))

    def destroy(self, robot: RobotState, cause: str, square: int, by: Blame | None = None) -> None:
        """Remove a robot from the board at once: it loses a life and an option
        (rule 2, last paragraph). `square` is where it died, `by` what sent it
        there (``Blame``; None when unknown), kept in ``robot.killed_by``
        for the death hook."""
        if robot.sq >= 0 and self.occ[robot.sq] is robot:
            self.occ[robot.sq] = None
        robot.sq = -1
        robot.destroyed = True
        robot.deaths += 1
        robot.death_seq = self.moment
        robot.killed_by = by
        spared = self.teams is not None and self.teams.spares(robot, square)
        if not spared:
            robot.lives -= 1
        if robot.opt is not None:
            discard = self.discard_at_destruction
            assert discard is not None, "played options need Floor.discard_at_destruction"
            discard(self, robot)
        elif robot.options:
            robot.options -= 1
        if self.events is not None:
            self.emit("destroyed", robot, src=self.course.xy[square], cause=cause,
                      amount=robot.lives, options=robot.options)
        if self.teams is not None:
            self.teams.destroyed(self, robot, square, spared)
        if robot.lives <= 0:
            robot.out = True
            robot.powered_down = robot.announced = False
            self.outs += 1
            if self.events is not None:
                self.emit("out", robot)
            if self.teams is not None:
                self.teams.went_out(self, robot)
        if self.on_death is not None:
            self.on_death(robot, square, cause)
