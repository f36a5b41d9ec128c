"""The lone-robot model: what every card does to a robot alone on the board.

For each square, facing, register (1-5) and card kind, the model holds
where the robot ends the register (after its card and the board elements),
whether it was destroyed and why, and the board-laser damage it then takes
where it stands. A *state* is ``square * 4 + facing``.

The results come from the race's own rules code (``movement.play_card``
and its single steps, ``elements.board_elements``) run on a one-robot
floor, in two parts that compose: a card's result does not depend on the
register, and the board elements' result does not depend on the facing
(belts, gears and pushers turn and move a robot the same whatever its
facing), and depends on the register only through pushers and crushers. So
the card part is computed once per state and kind (``card_part``: from one
step per square and direction, turns, and the cards played on
teleporters), the element part once per square and per group of registers
whose active elements are alike, and numpy composes them.

A robot on a randomizer is modelled as playing the card it was given (its
replacement is unknown in advance; over all kinds this changes nothing for
reachability). Damage never destroys a lone robot here: the model reports
the damage (board lasers, and falls down ledges) and leaves its sum to the
caller. On a board with levels or ramps the card part is ``play_card`` on
every state (a ramp takes two steps of one card, so single steps do not
compose).

Distances (``distance_to``) use every card in every register: a
register-agnostic approximation that counts the fewest registers if the
register sequence were free to choose. It is exact on boards whose pushers
and crushers act in every register, and otherwise optimistic.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from rallyforge.engine.model.directions import NAMES
from rallyforge.engine.model.element_kinds import BOARD_CAUSES
from rallyforge.engine.model.program_cards import BACK, LEFT
from rallyforge.engine.model.scenario import Board, CARD_KINDS, Rules
from rallyforge.engine.rules.board_elements import board_elements
from rallyforge.engine.rules.course import CURRENT, Course, RANDOMIZER_BIT, TELEPORTER, WATER, compile_course
from rallyforge.engine.rules.movement import play_card, push
from rallyforge.engine.rules.state import Floor, RobotState

KINDS = CARD_KINDS + ("none",)      # "none": a register without a card (board elements only)
NO_CARD = len(CARD_KINDS)
# cause codes; 0: not destroyed ("damage": a fall reaching destroy_at_damage)
CAUSES = (None, *BOARD_CAUSES, "damage")
DESTROYED = -1                      # the end state of a destroyed robot
UNREACHABLE = -1
# distance maps a model remembers: at most this many states in all (4 bytes each)
MOST_REMEMBERED_STATES = 4_000_000


class Result(NamedTuple):
    kind: str
    square: tuple[int, int] | None     # None when destroyed
    facing: str | None
    cause: str | None
    damage: int


class LoneModel:
    """``end[register - 1, kind, state]`` is the end state (DESTROYED when the
    robot was destroyed, with ``cause[...]`` the code of the cause in CAUSES),
    ``damage[...]`` the damage taken in the register: falls, and the
    board lasers where it ends."""

    def __init__(self, course: Course, end: np.ndarray, cause: np.ndarray, damage: np.ndarray):
        self.course = course
        self.end = end
        self.cause = cause
        self.damage = damage
        self._moves: np.ndarray | None = None
        self._backward_lists: tuple[np.ndarray, np.ndarray] | None = None
        self._closures: list[tuple[np.ndarray, np.ndarray]] = []
        # distance maps asked for before, by their target squares (a bot on a
        # course without flags asks for one to each square it stands on)
        self._distances: dict[tuple[int, ...], np.ndarray] = {}

    @classmethod
    def build(cls, board: Board, rules: Rules | None = None) -> "LoneModel":
        """The model of a board (cached: boards and rules are immutable; rules
        equal but for the types of their numbers, 2 and 2.0, are cached apart,
        so that a model never answers for rules it was not built with)."""
        rules = rules or Rules()
        return _build(board, rules, tuple(type(getattr(rules, f.name)) for f in fields(rules)))

    # ------------------------------------------------------------ reading

    def result(self, square: int, facing: int, register: int, kind: int) -> Result:
        """What card `kind` (deck.KIND_CODE order, or NO_CARD) does in
        `register` from `square` (index) facing `facing`."""
        s = square * 4 + facing
        end = int(self.end[register - 1, kind, s])
        if end == DESTROYED:
            return Result(KINDS[kind], None, None, CAUSES[self.cause[register - 1, kind, s]], 0)
        return Result(KINDS[kind], self.course.xy[end >> 2], NAMES[end & 3], None,
                      int(self.damage[register - 1, kind, s]))

    # ------------------------------------------------------------ searching

    def distance_to(self, target_squares: Iterable[int]) -> np.ndarray:
        """Per state, the fewest registers to end a register on one of
        `target_squares` (UNREACHABLE when no sequence of cards gets there
        alive), using every card in every register (see the module notes).
        One breadth-first search from all of them: its cost does not grow
        with their number. The map is remembered (read-only) for the same squares."""
        return self.distances_to([target_squares])[0]

    def distances_to(self, targets: Sequence[Iterable[int]]) -> list[np.ndarray]:
        """``distance_to`` of each set of target squares, those not
        remembered found together: one breadth-first search over copies of
        the states side by side, one copy per set (a bot's tables ask for a
        map per flag; a search's cost is mostly its levels, not their size)."""
        keys = [tuple(np.unique(np.asarray(list(squares), dtype=np.intp)).tolist())
                for squares in targets]
        maps = {key: known for key in keys if (known := self._distances.get(key)) is not None}
        new = [key for key in dict.fromkeys(keys) if key not in maps]
        if new:
            sources, first = self._predecessors()
            states = self.end.shape[2]
            dist = np.full(len(new) * states, UNREACHABLE, dtype=np.int32)
            frontier = np.concatenate([copy * states + (np.array(key, dtype=np.intp)[:, None] * 4
                                                        + np.arange(4)).ravel()
                                       for copy, key in enumerate(new)])
            dist[frontier] = 0
            level = 0
            while frontier.size:
                level += 1
                state = frontier % states
                copy_start = np.repeat(frontier - state, first[state + 1] - first[state])
                found = sources[gather(first, state)] + copy_start
                found = found[dist[found] == UNREACHABLE]
                dist[found] = level
                frontier = _distinct(found, dist.size)
            dist.flags.writeable = False
            if (len(self._distances) + len(new)) * states > MOST_REMEMBERED_STATES:
                self._distances.clear()
            for copy, key in enumerate(new):
                maps[key] = self._distances[key] = dist[copy * states:(copy + 1) * states]
        return [maps[key] for key in keys]

    def reachable_states(self, starts: np.ndarray) -> np.ndarray:
        """A boolean array over states: those some sequence of cards leads to
        (alive) from one of `starts`, the starts included.

        Answers are remembered with the strongly connected part of their
        first start (the states that lead back to it): every state there
        reaches the same states, so a later question whose starts all lie
        in the answer and one of them in that part has the same answer (the
        validator asks from every dock and flag of a board, and these are
        usually all in one such part)."""
        states = self.end.shape[2]
        starts = np.unique(np.asarray(starts, dtype=np.intp))
        if not starts.size:
            return np.zeros(states, dtype=bool)
        for reached, core in self._closures:
            if reached[starts].all() and core[starts].any():
                return reached.copy()
        first = starts[:1]
        reached = self._forward(first)
        if not reached[starts].all():
            return self._forward(starts)
        core = self._backward(first, reached)
        self._closures = [(reached, core)] + self._closures[:7]
        return reached.copy()

    def _forward(self, starts: np.ndarray) -> np.ndarray:
        """The states reached from `starts` (a breadth-first search on
        boolean arrays, a frontier per register)."""
        moves = self._successors()
        states = moves.shape[0]
        reached = np.zeros(states + 1, dtype=bool)  # the last: the destroyed robot's
        reached[states] = True
        frontier = starts
        reached[frontier] = True
        while frontier.size:
            found = np.zeros(states + 1, dtype=bool)
            found[moves[frontier]] = True
            found &= ~reached
            reached |= found
            frontier = np.flatnonzero(found)
        return reached[:states]

    def _backward(self, starts: np.ndarray, within: np.ndarray) -> np.ndarray:
        """The states of `within` that lead to one of `starts`, when
        `within` holds every state reached from them: a way from a state
        of `within` to `starts` never leaves `within`."""
        sources, first = self._predecessors()
        led = np.zeros(within.size, dtype=bool)
        led[starts] = True
        frontier = starts
        while frontier.size:
            found = np.zeros(within.size, dtype=bool)
            found[sources[gather(first, frontier)]] = True
            found &= within
            found &= ~led
            led |= found
            frontier = np.flatnonzero(found)
        return led

    def _successors(self) -> np.ndarray:
        """``[state, j]``: the end state of the j-th card in some register,
        over the seven cards and the registers whose results differ
        (registers alike are taken once); the number of states when the
        robot is destroyed."""
        if self._moves is None:
            cards = len(CARD_KINDS)
            states = self.end.shape[2]
            registers = [0]
            for r in range(1, 5):
                if not any(np.array_equal(self.end[r, :cards], self.end[q, :cards])
                           for q in registers):
                    registers.append(r)
            moves = self.end[registers, :cards, :].reshape(-1, states).T
            self._moves = np.where(moves == DESTROYED, states, moves).astype(np.intp)
        return self._moves

    def _predecessors(self) -> tuple[np.ndarray, np.ndarray]:
        """Every alive transition by any card in any register, backwards, as
        a compressed adjacency list: (predecessors, where each state's
        predecessors start in them). Staying put is left out; a predecessor
        may be listed twice."""
        if self._backward_lists is None:
            moves = self._successors()
            states, width = moves.shape
            cards = len(CARD_KINDS)
            owner = np.repeat(np.arange(states, dtype=np.int32), width).reshape(states, width)
            keep = (moves < states) & (moves != owner)
            # a register's move like that of the first register's is there already
            keep[:, cards:] &= moves[:, cards:] != np.tile(moves[:, :cards], width // cards - 1)
            owner, other = owner[keep], moves[keep]
            # (a radix sort when the states fit 16 bits)
            order = np.argsort(other.astype(np.uint16 if states <= 1 << 16 else np.int64),
                               kind="stable")
            first = np.zeros(states + 1, dtype=np.int64)
            np.cumsum(np.bincount(other, minlength=states), out=first[1:])
            self._backward_lists = (owner[order], first)
        return self._backward_lists


def _distinct(states: np.ndarray, size: int) -> np.ndarray:
    """The states of `states` (each in range(size)) once each, in order."""
    seen = np.zeros(size, dtype=bool)
    seen[states] = True
    return np.flatnonzero(seen)


def gather(first: np.ndarray, states: np.ndarray) -> np.ndarray:
    """The positions first[s] .. first[s + 1] - 1 of every state s in `states`,
    in one array (the neighbours of a frontier in a compressed adjacency list)."""
    counts = first[states + 1] - first[states]
    return np.repeat(first[states] - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())


@lru_cache(maxsize=8)
def _build(board: Board, rules: Rules, types: tuple[type, ...]) -> LoneModel:
    course = compile_course(board)
    n = course.size
    states = n * 4
    lone = LoneRobot(course, rules)
    card_end, card_damage = card_part(lone)
    alive = card_end >= 0
    card_sq = np.where(alive, card_end >> 2, 0)
    card_facing = card_end & 3
    card_cause = np.where(alive, 0, -card_end).astype(np.int8)

    # element part, per square facing N (the result turns with the facing),
    # once for each group of registers whose active elements are alike
    end = np.empty((5, NO_CARD + 1, states), dtype=np.int32)
    cause = np.empty((5, NO_CARD + 1, states), dtype=np.int8)
    damage = np.zeros((5, NO_CARD + 1, states), dtype=np.int16)
    # (capped: beyond any destroy_at_damage it changes nothing, and lasers
    # stacked by the thousand on one square must not overflow the table)
    laser = np.minimum(np.asarray(course.laser_damage, dtype=np.int64), 999).astype(np.int16)
    floor = lone.floor
    done: dict[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], int] = {}
    for register in range(1, 6):
        hot = course.hot[register]
        key = (tuple(hot), course.pushers[register])
        if key in done:
            r = done[key]
            end[register - 1], cause[register - 1] = end[r], cause[r]
            damage[register - 1] = damage[r]
            continue
        done[key] = register - 1
        elements = list(range(0, states, 4))        # square * 4 + facing N: nothing happens
        fallen = [0] * n
        floor.register = register
        for square in [sq for sq in range(n) if hot[sq] & ~RANDOMIZER_BIT]:
            lone.put(square, 0)
            board_elements(floor, register)
            elements[square] = lone.lift()
            fallen[square] = lone.damage
        elem = np.array(elements, dtype=np.int32)
        elem_damage = np.array(fallen, dtype=np.int16)
        # compose: the elements act on wherever the card left the robot
        then = elem[card_sq]
        survived = alive & (then >= 0)
        end[register - 1] = np.where(survived, (then & ~3) | ((card_facing + then) & 3),
                                     DESTROYED)
        cause[register - 1] = np.where(alive, np.maximum(-then, 0), card_cause)
        damage[register - 1] = np.where(
            survived, card_damage + elem_damage[card_sq] + laser[np.maximum(then, 0) >> 2], 0)
    return LoneModel(course, end, cause, damage)


class LoneRobot:
    """One robot that cannot run out of lives on a floor of its own, put on
    a square, moved by the rules code, then lifted off again."""

    _CAUSE_CODE = {c: i for i, c in enumerate(CAUSES)}

    def __init__(self, course: Course, rules: Rules):
        self.robot = RobotState(0, "lone", -1, 0, lives=1 << 30)
        self.floor = Floor(course, rules, [self.robot])
        self.floor.on_death = self._died
        self.cause = 0          # the cause code of the last destruction
        self.damage = 0         # the damage taken between the last put and lift

    def _died(self, robot: RobotState, square: int, cause: str) -> None:
        self.cause = self._CAUSE_CODE[cause]

    def put(self, square: int, facing: int) -> RobotState:
        robot = self.robot
        robot.sq, robot.facing, robot.damage = square, facing, 0
        self.floor.occ[square] = robot
        return robot

    def lift(self) -> int:
        """Where the robot ended, as a state, or -(cause code); lifts it off."""
        robot = self.robot
        self.damage = robot.damage
        if robot.sq < 0:
            return -self.cause
        self.floor.occ[robot.sq] = None
        return robot.sq * 4 + robot.facing


def card_part(lone: LoneRobot) -> tuple[np.ndarray, np.ndarray]:
    """``[kind, state]``: what card `kind` (or NO_CARD) does to `lone`
    standing in `state`, board elements not included, by the race's own
    movement code (rules 3.1-3.7): the end state, or -(cause code) when the
    robot is destroyed; and the fall damage it took on the way. (Computed from pits and drains too, where no robot
    stands: harmless, and it lets reachable_from start anywhere.)

    ``play_card`` is not run for all 7 cards of every state; what it does
    follows from fewer runs of its parts, exactly:

    - a turning card only turns, whatever the square (on water and
      teleporters too, 3.6-3.7): its facing change is read off ``play_card``
      once per facing;
    - off teleporters, a movement card is ``push`` towards its direction
      (the facing, or its opposite for ``back``) repeated once per square it
      moves (one fewer on water and currents, 3.6), stopping when a step is
      blocked or the robot is destroyed; with no other robot on the board a
      step depends only on the square and the direction, and a blocked step
      taken again from the same square is blocked again. So one ``push`` per
      square and direction gives every movement card by composition;
    - on a teleporter every movement card is ``play_card`` itself (3.7).

    tests/test_lone_robot_model.py checks this against ``play_card`` on every state of
    every example course."""
    floor = lone.floor
    course = floor.course
    n = course.size
    states = n * 4
    out = np.empty((NO_CARD + 1, states), dtype=np.int32)
    out[NO_CARD] = np.arange(states, dtype=np.int32)
    fallen = np.zeros((NO_CARD + 1, states), dtype=np.int16)
    if course.levelled:
        for kind in range(NO_CARD):
            for state in range(states):
                play_card(floor, lone.put(state >> 2, state & 3), kind)
                out[kind, state] = lone.lift()
                fallen[kind, state] = lone.damage
        return out, fallen

    # one step of a card from each square towards each direction: the end
    # square, or -(cause code)
    step = []
    robot, occ = lone.robot, floor.occ
    for square in range(n):
        for d in range(4):
            robot.sq = square
            occ[square] = robot
            push(floor, robot, d, "card")
            if robot.sq >= 0:
                step.append(robot.sq)
                occ[robot.sq] = None
            else:
                step.append(-lone.cause)
    step_to = np.array(step, dtype=np.int32)

    squares = np.repeat(np.arange(n, dtype=np.int32), 4)         # of each state
    facings = np.tile(np.arange(4, dtype=np.int32), n)
    tile = np.asarray(course.tile, dtype=np.int8)
    lost = np.isin(tile, (WATER, CURRENT)).astype(np.int32)[squares]   # 3.6: the first square is lost
    for kind in range(LEFT):
        towards = (facings + 2) & 3 if kind == BACK else facings
        steps = (1 if kind == BACK else kind + 1) - lost
        at = squares.copy()
        for k in range(3):
            going = (k < steps) & (at >= 0)
            at = np.where(going, step_to[np.where(going, at, 0) * 4 + towards], at)
        out[kind] = np.where(at >= 0, at * 4 + facings, at)

    # turning cards: the facing change, the same on every square
    for kind in range(LEFT, NO_CARD if n else LEFT):
        turned = []
        for f in range(4):
            play_card(floor, lone.put(0, f), kind)
            end = lone.lift()
            if end >> 2 != 0:
                raise RuntimeError("a turning card moved the robot: card_part must change")
            turned.append(end & 3)
        out[kind] = squares * 4 + np.array(turned, dtype=np.int32)[facings]

    # movement cards on teleporters: the card itself
    teleported = []
    for sq in np.flatnonzero(tile == TELEPORTER).tolist():
        for f in range(4):
            for kind in range(LEFT):
                play_card(floor, lone.put(sq, f), kind)
                teleported.append((kind, sq * 4 + f, lone.lift()))
    if teleported:
        kinds, starts, ends = np.array(teleported, dtype=np.int32).T
        out[kinds, starts] = ends
    return out, fallen
