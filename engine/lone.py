"""The lone-robot model: what every card does to a robot alone on the board.

For each square, facing, register (1-5) and card kind, the model holds
where the robot ends the register (after its card and the board elements),
whether it was destroyed and why, and the board-laser damage it then takes
where it stands. A *state* is ``square * 4 + facing``.

The results come from the race's own rules code (``movement.play_card``,
``elements.board_elements``) run on a one-robot floor, in two parts that
compose: a card's result does not depend on the register, and the board
elements' result does not depend on the facing (belts, gears and pushers
turn and move a robot the same whatever its facing), and depends on the
register only through pushers and crushers. So the card part is computed
once per state and kind, the element part once per square and per group of
registers whose active elements are alike, and numpy composes them.

A robot on a randomizer is modelled as playing the card it was given (its
replacement is unknown in advance; over all kinds this changes nothing for
reachability). Damage never destroys a lone robot here: the model reports
the damage and leaves its sum to the caller.

Distances (``distance_map``) use every card in every register: a
register-agnostic approximation that counts the fewest registers if the
register sequence were free to choose. It is exact on boards whose pushers
and crushers act in every register, and otherwise optimistic.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .course import RANDOMIZER_BIT, Course, compile_course
from .directions import NAMES
from .elements import board_elements
from .model import CARD_KINDS, Board, Rules
from .movement import play_card
from .state import Floor, RobotState

KINDS = CARD_KINDS + ("none",)      # "none": a register without a card (board elements only)
NO_CARD = len(CARD_KINDS)
CAUSES = (None, "pit", "drain", "off board", "crusher")     # cause codes; 0: not destroyed
DESTROYED = -1                      # the end state of a destroyed robot
UNREACHABLE = -1


class Result(NamedTuple):
    kind: str
    square: tuple[int, int] | None     # None when destroyed
    facing: str | None
    cause: str | None
    damage: int


class LoneModel:
    """``end[register - 1, kind, state]`` is the end state (DESTROYED when the
    robot was destroyed, with ``cause[...]`` the code of the cause in CAUSES),
    ``damage[...]`` the board-laser damage at the end of the register."""

    def __init__(self, course: Course, end: np.ndarray, cause: np.ndarray, damage: np.ndarray):
        self.course = course
        self.end = end
        self.cause = cause
        self.damage = damage
        self._adjacencies: dict[bool, tuple[np.ndarray, np.ndarray]] = {}
        self._distances: dict[int, np.ndarray] = {}

    @classmethod
    def build(cls, board: Board, rules: Rules | None = None) -> "LoneModel":
        """The model of a board (cached: boards and rules are immutable)."""
        return _build(board, rules or Rules())

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

    def successors(self, state: int, register: int) -> list[Result]:
        """The result of each of the seven cards from `state` (square * 4 +
        facing) in `register`."""
        return [self.result(state >> 2, state & 3, register, k) for k in range(len(CARD_KINDS))]

    # ------------------------------------------------------------ searching

    def distance_map(self, target_square: int) -> np.ndarray:
        """Per state, the fewest registers to end a register on
        `target_square` (UNREACHABLE when no sequence of cards gets there
        alive), using every card in every register (see the module notes)."""
        dist = self._distances.get(target_square)
        if dist is None:
            sources, first = self._adjacency(backward=True)
            dist = np.full(self.end.shape[2], UNREACHABLE, dtype=np.int32)
            frontier = np.arange(target_square * 4, target_square * 4 + 4)
            dist[frontier] = 0
            level = 0
            while frontier.size:
                level += 1
                frontier = np.unique(sources[_gather(first, frontier)])
                frontier = frontier[dist[frontier] == UNREACHABLE]
                dist[frontier] = level
            self._distances[target_square] = dist
        return dist

    def reachable_states(self, starts: np.ndarray) -> np.ndarray:
        """A boolean array over states: those some sequence of cards leads to
        (alive) from one of `starts`, the starts included."""
        targets, first = self._adjacency(backward=False)
        reached = np.zeros(self.end.shape[2], dtype=bool)
        frontier = np.unique(np.asarray(starts, dtype=np.int64))
        reached[frontier] = True
        while frontier.size:
            frontier = np.unique(targets[_gather(first, frontier)])
            frontier = frontier[~reached[frontier]]
            reached[frontier] = True
        return reached

    def _adjacency(self, backward: bool) -> tuple[np.ndarray, np.ndarray]:
        """Every distinct alive transition by any card in any register, as a
        compressed adjacency list: (neighbours, where each state's neighbours
        start in them); forward: successors, backward: predecessors."""
        if backward not in self._adjacencies:
            states = self.end.shape[2]
            moves = self.end[:, :len(CARD_KINDS), :].reshape(-1, states).astype(np.int64)
            owner = np.broadcast_to(np.arange(states, dtype=np.int64), moves.shape)
            alive = moves >= 0
            owner, other = owner[alive], moves[alive]
            if backward:
                owner, other = other, owner
            pairs = np.unique(owner * states + other)   # distinct, sorted by owner
            owner, other = np.divmod(pairs, states)
            first = np.searchsorted(owner, np.arange(states + 1))
            self._adjacencies[backward] = (other, first)
        return self._adjacencies[backward]


def _gather(first: np.ndarray, states: np.ndarray) -> np.ndarray:
    """The positions first[s] .. first[s + 1] - 1 of every state s in `states`,
    in one array (the neighbours of a frontier in a compressed adjacency list)."""
    counts = first[states + 1] - first[states]
    return np.repeat(first[states] - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())


@lru_cache(maxsize=8)
def _build(board: Board, rules: Rules) -> LoneModel:
    course = compile_course(board)
    n = course.size
    states = n * 4
    robot = RobotState(0, "lone", -1, 0, lives=1 << 30)
    floor = Floor(course, rules, [robot])
    occ = floor.occ
    cause_code = {c: i for i, c in enumerate(CAUSES)}
    died = [0]                  # the cause code of the last destruction
    floor.on_death = lambda r, square, cause: died.__setitem__(0, cause_code[cause])

    def after() -> int:
        """Where the robot ended, as a state, or -(cause code); lifts it off."""
        if robot.sq < 0:
            return -died[0]
        occ[robot.sq] = None
        return robot.sq * 4 + robot.facing

    # card part, per kind and state: end state, or -(cause code)
    card = [[0] * states for _ in range(NO_CARD + 1)]
    # (computed from pits and drains too, where no robot stands: harmless, and
    # it lets reachable_from start anywhere)
    for square in range(n):
        for facing in range(4):
            s = square * 4 + facing
            card[NO_CARD][s] = s
            for kind in range(NO_CARD):
                robot.sq, robot.facing = square, facing
                occ[square] = robot
                play_card(floor, robot, kind)
                card[kind][s] = after()
    card_end = np.array(card, dtype=np.int32)
    alive = card_end >= 0
    card_sq = np.where(alive, card_end >> 2, 0)
    card_facing = card_end & 3
    card_cause = np.where(alive, 0, -card_end).astype(np.int8)

    # element part, per square facing N (the result turns with the facing),
    # once for each group of registers whose active elements are alike
    end = np.empty((5, NO_CARD + 1, states), dtype=np.int32)
    cause = np.empty((5, NO_CARD + 1, states), dtype=np.int8)
    damage = np.zeros((5, NO_CARD + 1, states), dtype=np.int16)
    laser = np.asarray(course.laser_damage, dtype=np.int16)
    done: dict[tuple, int] = {}
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
        floor.register = register
        for square in range(n):
            if hot[square] & ~RANDOMIZER_BIT:
                robot.sq, robot.facing = square, 0
                occ[square] = robot
                board_elements(floor, register)
                elements[square] = after()
        elem = np.array(elements, dtype=np.int32)
        # compose: the elements act on wherever the card left the robot
        then = elem[card_sq]
        survived = alive & (then >= 0)
        end[register - 1] = np.where(survived, (then & ~3) | ((card_facing + then) & 3),
                                     DESTROYED)
        cause[register - 1] = np.where(alive, np.where(then >= 0, 0, -then), card_cause)
        damage[register - 1] = np.where(survived, laser[np.where(survived, then >> 2, 0)], 0)
    return LoneModel(course, end, cause, damage)
