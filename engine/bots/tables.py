"""Flat lone-robot tables for the greedy and search bots.

A *state* is ``square * 4 + facing``; two extra states follow the board's:
``DEAD`` (destroyed) and ``FIN`` (finished, out of harm's way). For every
register r (0-based), card kind k (deck.KIND_CODE order, and NONE for a
register without a card) and state s:

    end[r, k, s]   the state after the card and the board elements, for a
                   robot alone on the board (DEAD if it was destroyed)
    dmg[r, k, s]   board-laser damage it then takes where it stands
    cause          per (r, k, s): the death's cause, or None

and, per flag target t (t = flags touched so far; row F means finished):

    dist[t, s]     fewest registers from s to the end of a register on flag
                   t+1, over the transitions of any card in any register
                   (board elements included, deaths excluded); UNREACHABLE
                   when there is no way
    on_flag[r][t, s]  s stands on flag t+1 at the end of register r

Flags stand where they are, or with ``flags_move`` (docs/rules.md 12.1)
where the belts take them in each register of the round; ``dist`` is then
to where a flag will stand when the round ends.

``repair_dist[s]``: fewest registers to a square that repairs (repair,
upgrade, and flags when flags_repair), from one search from all of them,
however many there are.

The tables are made once per course, flags and rules in each process and
shared by every bot there. They are engine/rules/lone_robot_model.py's lone-robot model
(the race's own rules code run on a one-robot floor, so the bots' model
can never drift from the rules), laid out flat with the two extra states.
Its distance maps use every card in every register (optimistic where
pushers and crushers act only in some registers). A robot on a randomizer
is modelled as if its card were not replaced.
"""
from __future__ import annotations

import threading
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

import numpy as np

from rallyforge.engine.model.scenario import Rules
from rallyforge.engine.rules.course import Course
from rallyforge.engine.rules.lone_robot_model import DESTROYED, LoneModel, NO_CARD, UNREACHABLE as LONE_UNREACHABLE
from rallyforge.engine.rules.moving_flags import after_register

if TYPE_CHECKING:
    from rallyforge.engine.rules.state import RobotState

KINDS = 7                   # card kinds, in deck.KIND_CODE order
NONE = NO_CARD              # the "kind" of a register with no card: board elements only
TABLE_KINDS = KINDS + 1
# The tables as plain lists (Tables.lists): end and dmg [register][kind][state],
# dist [flags touched][state], on_flag [register][flag][state].
TableLists = tuple[list[list[list[int]]], list[list[list[int]]], list[list[int]],
                   list[list[list[bool]]]]
UNREACHABLE = 99


class Tables:
    def __init__(self, course: Course, flags: tuple[int, ...], rules: Rules,
                 homes: tuple[int, ...] | None = None):
        self.course = course
        self.flags = flags
        self.rules = rules
        n = course.size * 4
        self.states = n
        self.DEAD = n
        self.FIN = n + 1
        self.S2 = n + 2
        self.model = model = LoneModel.build(course.board, rules)
        end = np.empty((5, TABLE_KINDS, self.S2), dtype=np.int32)
        end[:, :, :n] = np.where(model.end == DESTROYED, self.DEAD, model.end)
        end[:, :, self.DEAD] = self.DEAD
        end[:, :, self.FIN] = self.FIN
        dmg = np.zeros((5, TABLE_KINDS, self.S2), dtype=np.int16)
        dmg[:, :, :n] = model.damage
        self.end, self.dmg = end, dmg
        # where the flags stand at the end of each register of the round: where
        # they are now, or with moving flags where the belts take them (docs/rules.md 12.1)
        at = []
        squares = flags
        for r in range(5):
            if rules.flags_move:
                squares = tuple(after_register(course, square, home)
                                for square, home in zip(squares, homes or flags))
            at.append(squares)
        # on_flag[r][t, s]: state s stands on flag t+1 at the end of register r
        self.on_flag = [self._on_flags(squares) for squares in at] if rules.flags_move \
            else [self._on_flags(flags)] * 5
        repairs = set()
        if rules.repair_sites == "repair":      # "options": sites give cards (docs/rules.md 12.5)
            repairs = {i for i in range(course.size) if course.archive_point[i]}
            if rules.flags_repair:
                repairs |= set(flags)
        # (every map from one search) the distance to a flag that counts is at the round's end
        maps = self._distances_to([{square} for square in at[4]] + ([repairs] if repairs else []))
        self.dist = np.full((len(flags) + 1, self.S2), UNREACHABLE, dtype=np.int32)
        for t in range(len(flags)):
            self.dist[t, :n] = maps[t]
        self.dist[len(flags)] = 0
        self.dist[:, self.FIN] = 0
        self.repair_dist = np.full(self.S2, UNREACHABLE, dtype=np.int32)
        if repairs:
            self.repair_dist[:n] = maps[-1]

    @cached_property
    def end_lists(self) -> list[list[list[int]]]:
        """end as plain lists [register][kind][state], for per-register
        loops in Python (made on first use: on a big board they take far
        more memory than the array)."""
        return [[self.end[r, k].tolist() for k in range(TABLE_KINDS)] for r in range(5)]

    @cached_property
    def lists(self) -> TableLists:
        """end, dmg, dist and on_flag as plain lists, for the per-register
        loops of the greedy bot (made on first use, as ``end_lists``)."""
        listed: dict[int, list[list[bool]]] = {}    # registers that share an array share its list
        for on in self.on_flag:
            if id(on) not in listed:
                listed[id(on)] = on.tolist()
        return (self.end_lists,
                [[self.dmg[r, k].tolist() for k in range(TABLE_KINDS)] for r in range(5)],
                self.dist.tolist(), [listed[id(on)] for on in self.on_flag])

    def layered(self) -> "Layered":
        """The search bot's layered tables (made on first use)."""
        layered = self.__dict__.get("_layered")
        if layered is None:
            layered = self._layered = Layered(self)
        return layered

    def _on_flags(self, squares: tuple[int, ...]) -> np.ndarray:
        on = np.zeros((len(squares) + 1, self.S2), dtype=bool)
        for t, square in enumerate(squares):
            on[t, square * 4:square * 4 + 4] = True
        return on

    def _distances_to(self, targets: list[set[int]]) -> list[np.ndarray]:
        """Per set of squares, the fewest registers from each board state to
        one of them (engine/rules/lone_robot_model.py's multi-source distance
        maps; UNREACHABLE when none)."""
        return [np.where(d == LONE_UNREACHABLE, UNREACHABLE, d).astype(np.int32)
                for d in self.model.distances_to(targets)]


# What a bot gives for an option card a repair site hands out (docs/rules.md
# 12.5), in registers: a bot's valuation, not a rule.
OPTION_CARD = 2


def option_sites(course: Course, flags: tuple[int, ...], rules: Rules) -> np.ndarray:
    """Per board state, the worth (OPTION_CARD a card) of the option cards
    ending the round there would hand out at clean-up: none unless
    ``repair_sites`` is "options"."""
    cards = np.zeros(course.size, dtype=np.int64)
    if rules.repair_sites == "options":
        for i in range(course.size):
            if course.upgrade[i]:
                cards[i] = 2
            elif course.archive_point[i]:
                cards[i] = 1
        if rules.flags_repair:
            for square in flags:
                cards[square] = max(cards[square], 1)
    return np.repeat(cards * OPTION_CARD, 4)


class Layered:
    """The lone-robot tables with the flag count folded into the state, for
    the search bot: one gather per register follows state, flags touched
    and finishing together.

    An extended state is ``t * S + s`` with t the flags touched (0 .. F-1)
    and s a board state, or ``t * S + n`` (destroyed with t flags touched);
    then five absorbing states FIN + r, "finished in register r". With X
    extended states and kind k, ``end[r][k * X + x]`` is the extended state
    after register r and ``dmg[r][k * X + x]`` the board-laser damage taken
    (rows of ``end_all`` and ``dmg_all``, (5, kinds * X)).
    ``value[x]`` scores where a program ends: 1000 per flag touched minus
    the registers left to the next flag (plus OPTION_CARD per option card
    the square hands out at clean-up under ``repair_sites`` "options"); a
    finish scores 1000 * F plus one per register to spare. The destroyed states' values depend on the robot
    (its archive, its lives) and are filled in per decision.
    """

    FLAG = 1000

    def __init__(self, tables: Tables):
        n = tables.states
        flags = tables.flags
        F = len(flags)
        S = self.S = n + 1
        self.F = F
        self.FIN = F * S
        X = self.X = F * S + 5
        kinds = TABLE_KINDS
        # (5, kinds * X) each, rows per register (the compiled loop reads them whole)
        self.end_all = np.empty((5, kinds * X), dtype=np.int32)
        self.dmg_all = np.zeros((5, kinds * X), dtype=np.int32)
        ends = self.end_all.reshape(5, kinds, X)
        ends[:, :, self.FIN:] = np.arange(self.FIN, X)
        # the layers as [r, kind, t, s]: extended state t * S + s (s < S)
        layers = ends[:, :, :F * S].reshape(5, kinds, F, S)
        base = np.arange(F, dtype=np.int32)[:, None] * S               # (F, 1): t * S
        layers[:, :, :, n] = base[:, 0] + n                          # destroyed: stays so
        damages = self.dmg_all.reshape(5, kinds, X)[:, :, :F * S].reshape(5, kinds, F, S)
        damages[:, :, :, :n] = tables.dmg[:, :, None, :n]             # alike in every layer
        for r in range(5):
            alike = next((q for q in range(r) if tables.on_flag[q] is tables.on_flag[r]
                          and np.array_equal(tables.end[q], tables.end[r])), None)
            if alike is not None:       # the same moves (commonly): all but the finishes
                layers[r, :, :, :n] = layers[alike, :, :, :n]
                last = layers[r, :, F - 1:, :n]
                last[last == self.FIN + alike] = self.FIN + r
                continue
            nxt = tables.end[r, :, None, :n]                    # (kinds, 1, n) board states
            dead = nxt == tables.DEAD
            # on[kind, t, s]: the card ends on flag t+1 (never when destroyed)
            on = tables.on_flag[r][:F].take(np.where(dead, 0, nxt)[:, 0], axis=1)
            on = on.transpose(1, 0, 2) & ~dead
            # every register has its own end array: touching the last flag in
            # register r leads to FIN + r
            layer = np.where(dead, base + n, base + nxt)
            layer[:, :F - 1] = np.where(on[:, :F - 1], base[1:] + nxt, layer[:, :F - 1])
            layer[:, F - 1:] = np.where(on[:, F - 1:], self.FIN + r, layer[:, F - 1:])
            layers[r, :, :, :n] = layer
        self.end = list(self.end_all)
        self.dmg = list(self.dmg_all)
        value = np.zeros(X, dtype=np.int64)
        sites = option_sites(tables.course, flags, tables.rules)
        for t in range(F):
            value[t * S:t * S + n] = self.FLAG * t - tables.dist[t, :n] + sites
        value[self.FIN:] = self.FLAG * F + (4 - np.arange(5))
        self.value = value
        self.dead_states = np.arange(F) * S + n
        self.flags = flags
        self.dist = tables.dist
        # per flag target, per square: registers to the target from the
        # square's best facing (where a destroyed robot would re-enter)
        per_square = tables.dist[:F, :n].reshape(F, -1, 4).min(axis=2)
        self.from_square = per_square.tolist()
        # The same places on a scale of registers to go to the finish (no
        # 1000 a flag), for means over chances (engine/bots/next_round.py):
        # `to_go` is what `value` becomes once each layer t loses
        # offset[t], its flags' 1000s and the registers from flag t+1 on.
        after = [0] * (F + 1)
        for t in range(F - 2, -1, -1):
            after[t] = after[t + 1] + self.from_square[t + 1][flags[t]]
        self.offset = np.array([self.FLAG * t + after[t] for t in range(F + 1)], dtype=np.int64)
        layer_offset = np.full(X, self.offset[F], dtype=np.int64)
        layer_offset[:F * S] = np.repeat(self.offset[:F], S)
        self.to_go = value - layer_offset

    @cached_property
    def steps_all(self) -> np.ndarray:
        """end_all and dmg_all packed per state for the compiled loop
        (engine/bots/_play.c): [r, x * kinds + k] holds (end, dmg) of kind k
        from extended state x, a state's 8 kinds on one 64-byte cache line
        (made on first use)."""
        kinds, X = TABLE_KINDS, self.X
        size = 5 * X * kinds * 2
        # (a line-aligned start: numpy aligns to 16 bytes only)
        spare = np.empty(size + 16, dtype=np.int32)
        start = (-spare.ctypes.data % 64) // 4
        packed = spare[start:start + size].reshape(5, X, kinds, 2)
        packed[..., 0] = self.end_all.reshape(5, kinds, X).transpose(0, 2, 1)
        packed[..., 1] = self.dmg_all.reshape(5, kinds, X).transpose(0, 2, 1)
        return packed.reshape(5, X * kinds * 2)

    def extended(self, robot: RobotState) -> int:
        """The extended state of a robot (engine/rules/state.py RobotState): its
        flags touched and board state, the destroyed state of its layer, or
        FIN + the register it finished in."""
        if robot.finished is not None:
            return self.FIN + robot.finished[1] - 1
        if robot.sq < 0:
            return robot.flags * self.S + self.S - 1
        return robot.flags * self.S + robot.sq * 4 + robot.facing


# Tables kept per process, the least recently used dropped first: at least
# 16, more of a small board's, about this many squares' worth in all (a table
# set takes about 2 kB a square and flag, 3.3 kB once the compiled loop has
# its packed copy, Layered.steps_all: some 330 MB in all). A bot on a course
# without flags asks for a set per square it stands on; one on a course whose
# boards turn (docs/rules.md 12.10) a set per arrangement of its boards
# (Frenetic Factory's balance runs meet some 50, about 2,700 squares and
# flags each; keeping 37 of them is as quick as keeping 59).
_cache: dict[tuple[int, tuple[int, ...], tuple[int, ...], int], Tables] = {}
_lock = threading.Lock()
MOST_CACHED_SQUARES = 100_000


class CourseView(Protocol):
    """What the tables of a course are made from: a bot's view
    (engine/rules/bot_view.py BotView), or the compiled race's stand-in for one."""
    course: Course
    flags: tuple[int, ...]
    homes: tuple[int, ...]
    rules: Rules


def tables_for(view: CourseView) -> Tables:
    """The tables of a bot's course (made on first use in this process).
    Kept by the course and rules objects (the tables hold them, so that no
    other object takes their ids): hashing the rules on every look-up cost more."""
    course, rules = view.course, view.rules
    key = (id(course), view.flags, view.homes, id(rules))
    with _lock:
        tables = _cache.pop(key, None)
        if tables is None or tables.course is not course or tables.rules is not rules:
            room = max(16, MOST_CACHED_SQUARES // (course.size * max(1, len(view.flags))))
            while len(_cache) >= room:
                del _cache[next(iter(_cache))]
            tables = Tables(course, view.flags, rules, view.homes)
        _cache[key] = tables
    return tables
