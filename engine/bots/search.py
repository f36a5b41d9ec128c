"""The search bot (the default): every distinct program its hand allows,
scored on the lone-robot model.

What it searches. A program is a sequence of card *kinds* for the free
registers: cards of one kind move alike, so orderings that differ only in
which card of a kind goes where are one program (a 9-card hand into 5
registers has at most 9!/4! = 15,120 orderings, and typically 1,000-3,000
distinct kind sequences). All of them are scored, exactly: no beam, no
bound, no sampling.

How. A program is numbered by its kind sequence, the kinds of its m
registers as the digits of a base-7 number (7^m of them, m <= 5). Where the
compiled loop is built (engine/bots/_play.c, at install: a decision in about
half the time), it enumerates a hand's sequences and plays each, register by
register, on the lone-robot model laid out flat, with the flags touched
folded into the state (engine/bots/tables.py, ``Layered``): per register,
one look-up for the next state (square, facing, flags touched, finished or
destroyed) and one for the board-laser damage. Without it numpy does the
same, with the same integers: every sequence's kind counts are packed five
bits per kind once per process; a hand's counts, packed the same way with a
guard bit above each field, admit exactly the sequences whose subtraction
leaves every guard bit set (one vectorised test over the 16,807 sequences),
and the chosen ones are played as one gather per register and table over all
of them. Either way a hand's sequences are kept for the next hand with the
same cards. Locked registers play their cards, registers with no card only
the board elements. One simplification: a robot whose laser damage over the
round reaches the limit counts as destroyed, whatever register that happens
in.

The score, in registers (integers, so ties are exact):

    1000 per flag touched
    - registers left to the next flag (the course's distance map; 0 when finished)
    - 1 per point of board-laser damage taken
    + 1 per register to spare when it finishes (the earlier the better)
    destroyed (by a pit, drain, the edge, a crusher, or damage reaching the
    limit): flags touched before, minus the registers from where it would
    re-enter (its archive, or the last flag touched) to the next flag,
    minus a penalty of 10 registers (the round lost and re-entry damage),
    or 100000 when it has no life to spare.

The best score wins; ties are broken with the race's generator. Cards of a
kind are played highest priority first.

Power down (shared with greedy): with two or more registers locked and no
repair within 5 registers, or four or more locked wherever it is.
"""
from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING

import numpy as np

from rallyforge.engine.bots.common import (by_kind, cards_for, kind_counts, locked_kinds,
                                          should_power_down)
from rallyforge.engine.bots.hunt import Hunt, hunt_scale, quarry
from rallyforge.engine.bots import team_goals
from rallyforge.engine.bots.option_moves import OptionMoves, PLANNED_OPTIONS, Pair
from rallyforge.engine.bots.tables import KINDS, Layered, NONE, Tables, tables_for
from rallyforge.engine.model.program_cards import DECK_KEYS, KIND_CODE
from rallyforge.engine.model.scenario import Card
from rallyforge.engine.rules.compiled import switched_off

if TYPE_CHECKING:
    import random

    from rallyforge.engine.bots import _play                   # (its signatures: _play.pyi)
    from rallyforge.engine.rules.bot_view import BotView
    compiled = _play                                # (a name other modules may read)
elif switched_off():         # RALLYFORGE_COMPILED=0: the compiled part ruled out (README)
    compiled = None
else:
    try:
        from rallyforge.engine.bots import _play as compiled    # engine/bots/_play.c, when it could be built
    except ImportError:     # then numpy does the same
        compiled = None

FLAG = 1000
DEATH = 10
LAST_LIFE = 100000
DAMAGE = 1
# new hands drawn to judge a Recompile
RECOMPILE_DRAWS = 8

# Hands seen before skip the enumeration: the distinct programs of up to
# this many hand compositions are kept per process, for every course (about
# 16 kB each; 1,000 races on the standard course meet about 5,000
# compositions, the commonest first).
PROGRAM_CACHE = 4096
_PROGRAMS: dict[tuple[int, ...], Programs] = {}

_PLANNED = frozenset(PLANNED_OPTIONS)

# Value tables kept per course (engine/bots/tables.py Layered), one per
# robot's flags touched, archive and last life: up to this many numbers (16 MB).
VALUE_NUMBERS = 2_000_000

_FIELD = 5
_GUARD = sum(1 << (_FIELD * k + _FIELD - 1) for k in range(KINDS))


@functools.cache
def _sequences(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Every kind sequence of length m, (m, 7^m) in ascending order, and
    their kind counts packed (made on first use: the compiled loop needs
    neither)."""
    seqs = np.array(list(itertools.product(range(KINDS), repeat=m)), dtype=np.intp).T
    packed = np.zeros(seqs.shape[1], dtype=np.int64)
    for j in range(m):
        packed += np.left_shift(np.int64(1), _FIELD * seqs[j].astype(np.int64))
    return np.ascontiguousarray(seqs), packed




def candidates(counts: list[int], m: int) -> np.ndarray:
    """The numbers (indices into the 7^m kind sequences of length m) of every
    distinct sequence that the hand (`counts` per kind) can play, in
    lexicographic order (ascending)."""
    if compiled is not None:
        return np.frombuffer(compiled.programs(counts, m), np.int64)
    packed = _sequences(m)[1]
    hand = _GUARD
    for k, c in enumerate(counts):
        hand |= min(c, 15) << (_FIELD * k)
    return np.flatnonzero(((hand - packed) & _GUARD) == _GUARD)


class Programs:
    """Programs of m registers: their kind sequence numbers (``candidates``),
    the first register's kind the most significant base-7 digit; `counts`,
    per kind, when they are every program of a hand with those cards. For
    numpy (no compiled loop), their per-register row offsets in tables of X
    extended states, kind * X, (m, n), kept per X."""
    __slots__ = ("seqs", "m", "counts", "_offsets")

    def __init__(self, seqs: np.ndarray, m: int, counts: list[int] | None = None):
        self.seqs, self.m, self.counts = seqs, m, counts
        self._offsets: dict[int, np.ndarray] = {}

    def __getitem__(self, index: np.ndarray) -> Programs:
        return Programs(self.seqs[index], self.m)

    def offsets(self, X: int) -> np.ndarray:
        found = self._offsets.get(X)
        if found is None:
            found = self._offsets[X] = _sequences(self.m)[0][:, self.seqs] * X
        return found


class Hands:
    """Several hands' programs of m registers (each from hand_programs), and
    for numpy all of them side by side, with where each hand's begin."""

    def __init__(self, hands: list[Programs]):
        self.counts = [h.counts for h in hands]
        self.m = hands[0].m
        self.all = Programs(np.concatenate([h.seqs for h in hands]), self.m)
        self.starts = np.cumsum([0] + [h.seqs.size for h in hands[:-1]])


def hand_programs(counts: list[int], m: int) -> Programs:
    """The distinct programs of m registers of a hand (`counts` per kind),
    kept for the next hand alike."""
    key = (m, *counts)
    found = _PROGRAMS.get(key)
    if found is None:
        found = Programs(candidates(counts, m), m, counts)
        if len(_PROGRAMS) < PROGRAM_CACHE:
            _PROGRAMS[key] = found
    return found


def dead_values(layered: Layered, flags: int, lives: int, archive: int) -> np.ndarray:
    """Per flag count t, the value of being destroyed having touched t flags:
    the flags, minus the registers from where it would re-enter (the last
    flag touched this round, else its archive) to the next flag, minus the
    penalty."""
    penalty = LAST_LIFE if lives <= 1 else DEATH
    F = layered.F
    out = [0] * (F + 1)
    for t in range(F + 1):
        back = layered.flags[t - 1] if t > flags else archive
        left = layered.from_square[t][back] if t < F else 0
        out[t] = FLAG * t - left - penalty
    return np.array(out, dtype=np.int64)


def play_programs(layered: Layered, x0: int, programs: Programs,
                  slots: list[int], dmg_all: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Where each program ends from extended state `x0` (the layered
    tables' extended states) and the board-laser damage it takes on the
    way (by `dmg_all` instead of the tables' when given); `programs` and
    `slots` as for score_programs."""
    X = layered.X
    dmg_all = layered.dmg_all if dmg_all is None else dmg_all
    if compiled is not None:
        n = programs.seqs.size
        ends, damage = np.empty(n, np.int32), np.empty(n, np.int32)
        compiled.play(layered.end_all, dmg_all, programs.seqs, programs.m, slots, X, x0,
                      ends, damage)
        return ends, damage
    cand = programs.offsets(X)
    # numbers until the first row spreads them out
    x: np.ndarray | np.integer | int = x0
    taken: np.ndarray | np.integer | int = 0
    for r, slot in enumerate(slots):
        idx = cand[slot] + x if slot >= 0 else x + (~slot) * X
        taken = taken + dmg_all[r].take(idx)
        x = layered.end[r].take(idx)
    assert isinstance(x, np.ndarray) and isinstance(taken, np.ndarray)
    return x, taken


def score_programs(layered: Layered, state: int, flags: int, damage: int, lives: int,
                   archive: int, programs: Programs, slots: list[int],
                   destroy_at: int, to_go: bool = False, hunt: Hunt | None = None) -> np.ndarray:
    """The score of each program. `slots` gives, per register, the row of
    the programs (0 to m - 1) that fills it, or a fixed kind as ~kind (a
    locked card, or NONE). At least one register is a row. `to_go`: on the
    scale of registers to go to the finish (Layered.to_go) instead of 1000
    a flag. `hunt`: a hunter's scale instead (engine/bots/hunt.py)."""
    x0 = flags * layered.S + state
    value, dead, room = _scale(layered, flags, damage, lives, archive, destroy_at, to_go)
    dmg_all = layered.dmg_all
    if hunt is not None:
        value, dead, dmg_all = hunt
    if compiled is not None:
        m, counts, L = programs.m, programs.counts, layered
        score = np.empty(programs.seqs.size, np.int64)
        if counts is not None and rows_first(slots, m):
            # a whole hand, its rows first: played as a tree, shared beginnings once
            compiled.score_hand(L.end_all, dmg_all, counts, m, slots, L.X, x0, value, dead, room,
                                L.S, L.FIN, DAMAGE, score)
        else:
            compiled.score(L.end_all, dmg_all, programs.seqs, m, slots, L.X, x0, value, dead,
                           room, L.S, L.FIN, DAMAGE, score)
        return score
    x, taken = play_programs(layered, x0, programs, slots, dmg_all)
    score = value.take(x) - DAMAGE * taken
    if taken.max() >= room:
        over = (taken >= room) & (x < layered.FIN)
        score = np.where(over, dead.take(x // layered.S), score)
    return score


def _scale(layered: Layered, flags: int, damage: int, lives: int, archive: int,
           destroy_at: int, to_go: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """What an end is scored with: ``_values``' value of every extended state
    and dead values, and the damage a round may add before it destroys the
    robot (judged on the round's total)."""
    dead, value = _values(layered, flags, lives <= 1, archive, to_go)
    return value, dead, destroy_at - damage


def rows_first(slots: list[int], m: int) -> bool:
    """Whether the programs' rows fill the first m registers, fixed cards the rest."""
    if slots is _UNLOCKED[m]:           # nothing locked (the commonest)
        return True
    return slots[:m] == _UNLOCKED[m][:m] and all(s < 0 for s in slots[m:])


def best_of_hands(layered: Layered, state: int, flags: int, damage: int, lives: int,
                  archive: int, hands: Hands, slots: list[int], destroy_at: int,
                  to_go: bool = False) -> list[int]:
    """The best score of each hand's programs (as score_programs; `slots`
    with the rows first)."""
    if compiled is None:
        scores = score_programs(layered, state, flags, damage, lives, archive, hands.all, slots,
                                destroy_at, to_go)
        return np.maximum.reduceat(scores, hands.starts).tolist()
    value, dead, room = _scale(layered, flags, damage, lives, archive, destroy_at, to_go)
    L = layered
    return compiled.best_of_hands(L.end_all, L.dmg_all, hands.counts, hands.m, slots, L.X,
                                  flags * L.S + state, value, dead, room, L.S, L.FIN, DAMAGE)


def _values(layered: Layered, flags: int, last_life: bool, archive: int, to_go: bool
            ) -> tuple[np.ndarray, np.ndarray]:
    """dead_values (on the scale of `to_go`), and the value of every
    extended state with them in its destroyed states; kept on the tables
    (up to VALUE_NUMBERS numbers)."""
    cache = layered.__dict__.setdefault("_values", {})
    key = (flags, last_life, archive, to_go)
    found = cache.get(key)
    if found is None:
        dead = dead_values(layered, flags, 1 if last_life else 2, archive)
        if to_go:
            dead = dead - layered.offset
        value = (layered.to_go if to_go else layered.value).copy()
        value[layered.dead_states] = dead[:layered.F]
        if (len(cache) + 1) * value.size > VALUE_NUMBERS:
            cache.clear()
        found = cache[key] = (dead, value)
    return found


def survival_scores(tables: Tables, state: int, programs: Programs, slots: list[int],
                    damage: int, lives: int, destroy_at: int) -> np.ndarray:
    """The score of each program for a robot with no flag left to touch:
    the death penalty if it is destroyed, minus the damage taken;
    `programs` and `slots` as for score_programs."""
    S2 = tables.S2
    cand = programs.offsets(S2)
    # numbers until the first row spreads them out
    x: np.ndarray | np.integer | int = state
    taken: np.ndarray | np.integer | int = 0
    for r, slot in enumerate(slots):
        idx = cand[slot] + x if slot >= 0 else x + (~slot) * S2
        taken = taken + tables.dmg[r].ravel().take(idx)
        x = tables.end[r].ravel().take(idx)
    dead = (x == tables.DEAD) | (taken >= destroy_at - damage)
    return np.where(dead, -(LAST_LIFE if lives <= 1 else DEATH), 0) - DAMAGE * taken


# register_slots with nothing locked, per m (shared: not to be changed)
_UNLOCKED = [[*range(m), *[~NONE] * (5 - m)] for m in range(6)]


def register_slots(view: BotView, free_registers: list[int], m: int) -> list[int]:
    """Per register, the row of the program that fills it, or ~kind of the
    card a locked register plays (NONE when it has none)."""
    if len(free_registers) == 5:            # nothing locked (the commonest)
        return _UNLOCKED[m]
    locked = locked_kinds(view, free_registers)
    free = sorted(free_registers)[:m]
    slots = []
    row = 0
    for r in range(5):
        if r + 1 in free:
            slots.append(row)
            row += 1
        elif (lock := locked[r]) is not None and r + 1 not in free_registers:
            slots.append(~lock)
        else:
            slots.append(~NONE)
    return slots


def _packed(layered: Layered, dmg_all: np.ndarray) -> np.ndarray | None:
    """The tables packed per state for the compiled loop (Layered.steps_all),
    where it plays the tables' own damage (not a hunter's)."""
    return layered.steps_all if dmg_all is layered.dmg_all else None


def sequence_kinds(sequence: int, m: int) -> list[int]:
    """The card kinds of kind sequence number `sequence` of length m."""
    kinds = [0] * m
    for j in range(m - 1, -1, -1):
        sequence, kinds[j] = divmod(sequence, KINDS)
    return kinds


def best_programs(score: np.ndarray) -> np.ndarray:
    """The indices of the highest score, ascending."""
    if compiled is not None:
        out = np.empty(score.size, np.int64)
        return out[:compiled.best(score, out)]
    return np.flatnonzero(score == score.max())


def program_cards(sequence: int, m: int, groups: list[list[Card]]) -> list[Card]:
    return cards_for(sequence_kinds(sequence, m), groups)


class SearchBot:
    def __init__(self, hunts: bool = True) -> None:
        """`hunts`: under ``superbot``, a robot without the title hunts the
        SuperBot (engine/bots/hunt.py); False races to the flags all the same."""
        self.hunts = hunts
        self._view: BotView | None = None
        self._tables: Tables | None = None
        self._moves: OptionMoves | None = None
        # the movement options and pairs of the last program, per register,
        # and whether to use the Gyroscopic Stabilizer (read by the
        # controller with played option cards)
        self.option_plan: tuple[list[str | None], list[Pair | None], bool] | None = None

    def tables(self, view: BotView) -> Tables:
        # one bot serves one robot for a race; moving flags move its tables'
        # targets, and a board turned on a flag (docs/rules.md 12.10) is another course
        played = with_a_flag(view)
        if (self._tables is None or self._tables.flags != played.flags
                or self._tables.course is not played.course or view is not self._view):
            self._view, self._tables = view, tables_for(played)
            self._moves = None
        assert self._tables is not None
        return self._tables

    def program(self, view: BotView, hand: list[Card], free_registers: list[int],
                rng: random.Random) -> list[Card]:
        if not hand or not free_registers:
            self.option_plan = None         # (no program, no plan: not the last round's)
            return []
        view = with_a_flag(view)
        layered = self.tables(view).layered()
        m = min(len(free_registers), len(hand))
        program = self._decided(view, layered, hand, free_registers, m, rng)
        if program is None:
            chosen, score, groups, m = self.scored(view, hand, free_registers)
            best = best_programs(score)
            pick = int(best[rng.randrange(best.size)]) if best.size > 1 else int(best[0])
            program = program_cards(int(chosen[pick]), m, groups)
        return self.planned(view, layered, program, free_registers, hand, m)

    def _decided(self, view: BotView, L: Layered, hand: list[Card], free_registers: list[int],
                 m: int, rng: random.Random) -> list[Card] | None:
        """The program the compiled loop picks, all in one call, as ``program``
        would from ``scored``; None where it does not apply (not built, every
        flag touched, locked registers before free ones)."""
        if compiled is None:
            return None
        robot = view.robot
        slots = register_slots(view, free_registers, m)
        if robot.flags >= L.F or not rows_first(slots, m):
            return None
        value, dead, room, dmg_all = self._scoring(view, L, robot.damage)
        return compiled.decide(L.end_all, dmg_all, hand, m, slots, L.X,
                               robot.flags * L.S + robot.sq * 4 + robot.facing, value, dead,
                               room, L.S, L.FIN, DAMAGE, KIND_CODE, rng, _packed(L, dmg_all))

    def planned(self, view: BotView, layered: Layered, program: list[Card],
                free_registers: list[int], hand: list[Card], m: int) -> list[Card]:
        """The program, with the plan of its movement options (and Gyroscopic
        Stabilizer) when it holds any."""
        robot = view.robot
        self.option_plan = None
        if robot.flags < layered.F and not _PLANNED.isdisjoint(robot.cards):
            self.option_plan = self._with_options(view, layered, program,
                                                  sorted(free_registers)[:m], free_registers, hand)
        return program

    def recompile(self, view: BotView, hand: list[Card], free_registers: list[int],
                  rng: random.Random) -> bool:
        """Whether to Recompile (a new hand for 1 damage): when new hands
        drawn from the cards it cannot see score better on average, that
        damage included, than the best program of this hand (a bot's policy)."""
        if not hand or not free_registers:
            return False
        robot = view.robot
        best = self.best_scores(view, [hand], free_registers)[0]
        # (values, not cards: engine/model/program_cards.py DECK_KEYS)
        seen = {(c.kind, c.priority) for c in (*hand, *robot.registers) if c is not None}
        unseen = [c for key, c in DECK_KEYS if key not in seen]
        draws = [rng.sample(unseen, len(hand)) for _ in range(RECOMPILE_DRAWS)]
        total = sum(self.best_scores(view, draws, free_registers, robot.damage + 1))
        return total / RECOMPILE_DRAWS - DAMAGE > best

    def take_flywheel(self, view: BotView, hand: list[Card], card: Card,
                      free_registers: list[int], rng: random.Random) -> bool:
        """Whether to take back the card kept on the Flywheel (docs/rules.md
        10.12): when the best program of the hand with it scores better than
        the best without it, or always when the hand is empty (a bot's policy)."""
        if not free_registers:
            return False
        if not hand:
            return True
        if len(hand) >= len(free_registers):    # programs of one size: one walk of both
            with_it, without = self.best_scores(view, [hand + [card], hand], free_registers)
        else:
            with_it = self.best_scores(view, [hand + [card]], free_registers)[0]
            without = self.best_scores(view, [hand], free_registers)[0]
        return with_it > without

    def best_scores(self, view: BotView, hands: list[list[Card]], free_registers: list[int],
                    damage: int | None = None) -> list[int]:
        """The best score of each of several hands of one size (as ``scored``'s
        highest): where the compiled loop applies, all in one call that keeps
        no program (best_of_hands: the same walk as score_hand)."""
        robot = view.robot
        m = min(len(free_registers), len(hands[0]))
        layered = self.tables(view).layered()
        slots = register_slots(view, free_registers, m)
        if compiled is None or robot.flags >= layered.F or not rows_first(slots, m):
            return [int(self.scored(view, hand, free_registers, damage)[1].max())
                    for hand in hands]
        value, dead, room, dmg_all = self._scoring(
            view, layered, robot.damage if damage is None else damage)
        counts = [kind_counts(hand) for hand in hands]
        L = layered
        return compiled.best_of_hands(L.end_all, dmg_all, counts, m, slots, L.X,
                                      robot.flags * L.S + robot.sq * 4 + robot.facing, value,
                                      dead, room, L.S, L.FIN, DAMAGE, _packed(L, dmg_all))

    def scored(self, view: BotView, hand: list[Card], free_registers: list[int],
               damage: int | None = None) -> tuple[np.ndarray, np.ndarray, list[list[Card]], int]:
        """Every distinct program of a non-empty hand with its score (with
        `damage` instead of the robot's): (sequence indices, scores, the hand
        by kind, registers filled); ``program_cards`` turns one into cards."""
        tables = self.tables(view)
        robot = view.robot
        damage = robot.damage if damage is None else damage
        groups = by_kind(hand)
        counts = [len(g) for g in groups]
        m = min(len(free_registers), len(hand))
        layered = tables.layered()
        programs = hand_programs(counts, m)
        slots = register_slots(view, free_registers, m)
        state = robot.sq * 4 + robot.facing
        if robot.flags < layered.F:
            score = score_programs(layered, state, robot.flags, damage, robot.lives,
                                   robot.archive, programs, slots, view.rules.destroy_at_damage,
                                   hunt=self._hunting(view))
        else:       # every flag touched already (a starting value): stay alive
            score = survival_scores(tables, state, programs, slots, damage, robot.lives,
                                    view.rules.destroy_at_damage)
        return programs.seqs, score, groups, m

    def _scoring(self, view: BotView, layered: Layered, damage: int
                 ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
        """What the compiled loop scores the robot's programs with (having
        `damage`): values, dead values, room (``_scale``) and the damage
        tables, a hunter's where it hunts."""
        robot = view.robot
        value, dead, room = _scale(layered, robot.flags, damage, robot.lives, robot.archive,
                                   view.rules.destroy_at_damage, False)
        dmg_all = layered.dmg_all
        hunt = self._hunting(view)
        if hunt is not None:
            value, dead, dmg_all = hunt
        return value, dead, room, dmg_all

    def _hunting(self, view: BotView) -> Hunt | None:
        """A hunter's values when the robot hunts the SuperBot, else None."""
        holder = quarry(view) if self.hunts else None
        if holder is None:
            return None
        tables = self.tables(view)
        return hunt_scale(tables, tables.layered(), holder, view.robot.lives <= 1)

    def _with_options(self, view: BotView, layered: Layered, program: list[Card], free: list[int],
                      free_registers: list[int], hand: list[Card]
                      ) -> tuple[list[str | None], list[Pair | None], bool]:
        """Movement options and pairs for the chosen program, and whether it
        is steadier (engine/bots/option_moves.py)."""
        robot = view.robot
        # (the dead values the program was chosen with, kept on the tables)
        dead = _values(layered, robot.flags, robot.lives <= 1, robot.archive, False)[0].tolist()
        if self._moves is None:
            self._moves = OptionMoves(self.tables(view), layered, dead)
        self._moves.dead = dead
        registers: list[Card | None] = list(robot.registers)     # locked ones play theirs
        for r in free_registers:
            registers[r - 1] = None
        for r, card in zip(free, program):
            registers[r - 1] = card
        return self._moves.plan(robot, registers, [r - 1 for r in free], hand)

    def power_down(self, view: BotView, rng: random.Random) -> bool:
        return should_power_down(view, lambda: self.tables(with_a_flag(view)))


def with_a_flag(view: BotView) -> BotView:
    """The view to play on: under flag control or capture one whose only
    flag is the goal of the bot's robot (engine/bots/team_goals.py); on a
    course without flags ("elimination", docs/rules.md 13.6) its robot's own
    square stands in for a flag, so that it keeps out of harm where it is."""
    target = team_goals.goal(view)
    if target is not None:
        return team_goals.aimed(view, target)
    if view.flags or view.robot.sq < 0:
        return view
    from rallyforge.engine.rules.bot_view import BotView
    return BotView(view.board, view.course, (view.robot.sq,), view.rules, view.robot,
                   view.robots, homes=view.homes, teams=view.teams)
