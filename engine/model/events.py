"""The race's event log: one small tuple per thing that happened.

Every event is stamped with its round, register and step. ``register`` is
1 to 5 inside a register and None for what happens around them (set-up in
round 0, the start of a round, clean-up, the end). Squares are (x, y)
tuples; a square off the board (where a robot fell off) has coordinates
outside it. Fields an event does not use are None.

An event that changes a robot's state by a rule carries the values the
engine decided (lives and options left, damage after a power down or a
re-entry), so that a reader replaying the log never applies a rule itself.

Kinds and the fields they use:

    place       dst, facing, start, target, cause a robot put on its start square (round 0);
                                                  start: its damage, lives, flags, options
                                                  and powered_down there (a ``Start``); on a
                                                  team course target: its team, cause: its
                                                  role (docs/rules.md 13)
    powered_down amount                           powered down for this round (rule 2.1);
                                                  amount: its damage then (repaired, except
                                                  when it starts the race powered down)
    dealt       amount                            cards dealt
    program     cards, amount                     a robot's five registers once programmed
                                                  (step "program", one per robot in the race):
                                                  each card as "kind:priority", None for an
                                                  empty one; amount: how many of them (the
                                                  last ones) are locked by damage
    announce                                      power down announced for the next round
    randomized  card, cause                       a register's card replaced: by a randomizer
                                                  (no cause), or cause abort switch,
                                                  conditional program, scrambler
    card        card, cause                       a card played (step "move"); cause "radio
                                                  control" for a Radio Control copy
    move        src, dst, cause                   one square (or a jump); cause: card, push,
                                                  express, conveyor, current, pusher, teleport
    turn        facing, amount, cause             amount: quarter turns clockwise (1, 2 or 3);
                                                  cause: card, express, conveyor, current, gear
    laser       src, facing, path, target,        a beam: src is the laser's square (cause
                amount, cause                     "board", robot None) or the shooting robot's
                                                  (cause "robot"); path is every square it
                                                  crossed, the target's last; target None: no hit
    damage      amount, cause                     damage taken; cause: laser, shell, ramming
                                                  gear, recompile, fall
    destroyed   src, cause, amount, options       cause: see elements_table.DEATH_CAUSES;
                                                  src: where (off board: the last square it
                                                  stood on); amount: lives left; options:
                                                  options left
    out                                           lost its last life
    flag        src, amount, cause                flag number `amount` touched; cause "team":
                                                  a teammate touched it (docs/rules.md 13.3)
    finish      amount                            its place (1 = first)
    leave       src                               a finished robot leaves the board (finish "all")
    archive     dst                               archive marker moved
    flag_move   src, dst, amount, cause           flag number `amount` moved (robot None;
                                                  rules.flags_move): cause express or
                                                  conveyor, or off board, pit, drain when
                                                  it went back to its square in the file
    repair      amount                            damage repaired
    repair      amount, cause                     damage repaired; cause "superbot": the SuperBot
                                                  discards all its damage (rules 12.9)
    superbot    target                            the robot takes the SuperBot title: at set-up
                                                  (target None), or from the SuperBot it
                                                  destroyed (target its name)
    board_turn  target, src, amount               the factory board `target` under the flag
                                                  touched on src turns `amount` quarter turns
                                                  clockwise (a coin's heads; 0 for tails: it
                                                  stays), rules 12.10
    option      amount                            options gained (counted options)

Option cards (played options, docs/rules.md 10); `card` is the card's id:

    option_gained     card, cause                 cause: start, upgrade, flag, repair site,
                                                  flag square (repair_sites "options"),
                                                  "draft of N" (kept of N dealt)
    option_lost       card, cause                 cause: destroyed, traded for damage, used
                                                  up, fire control
    option_used       card, target, cause, dst    the card changed an outcome (automatic
                                                  cards too); a weapon's push or pull is told
                                                  after it with cause pushed, pulled, blocked
                                                  or target gone and dst where the target ends;
                                                  Fire Control's cause is its choice: lock,
                                                  lock register N, option, option ID;
                                                  Flywheel's keeps CARD or takes back CARD;
                                                  Superior Archive Copy is told at re-entry
    option_use_ignored card, cause                a use that cannot be made; cause: why
    damage_prevented  card, amount, cause         a point not taken: by Power-Down Shield,
                                                  Ablative Coat, or the card traded for it
    register_locked   card, amount                Fire Control locked register `amount`
    register_unlocked card, amount                its lock lifted after a repair
    reenter     dst, facing, amount               amount: its damage
    end         target                            target: the winners' names (a tuple)
Team races (docs/rules.md 13); `target` is a team's name, or a flag's ("the blue flag"):
    team_flag   amount, target                    flag `amount` now held by team `target`
    pick_up     src, target                       the robot picks up flag `target` on src
    drop        src, target, cause                it drops it on src; cause "home": the flag
                                                  went back to its square (src)
    spared      dst, target                       destroyed on the other team's home board:
                                                  no life lost, it re-enters at dst
    sits_out                                      destroyed: it sits out the next round
    team_wins   target                            team `target` wins (before ``end``)
"""
from __future__ import annotations

import bisect
import pickle
import zlib
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, overload

from rallyforge.engine.model.directions import NAMES

Square = tuple[int, int]


class Start(NamedTuple):
    """A robot's state when it is placed (the ``place`` event's ``start``)."""
    damage: int
    lives: int
    flags: int
    options: int
    powered_down: bool


class Event(NamedTuple):
    round: int
    register: int | None
    step: str
    kind: str
    robot: str | None
    card: str | None = None
    src: Square | None = None
    dst: Square | None = None
    facing: str | None = None
    cause: str | None = None
    path: tuple[Square, ...] | None = None
    target: str | tuple[str, ...] | None = None
    amount: int | None = None
    cards: tuple[str | None, ...] | None = None
    start: Start | None = None
    options: int | None = None

    def to_json(self) -> dict[str, object]:
        """The event as JSON-ready data, without the unused fields."""
        return {key: _json(value) for key, value in zip(self._fields, self)
                if value is not None or key == "register"}


def _json(value: object) -> object:
    """Tuples as lists (squares, paths, names, cards), a ``Start`` as an object."""
    if isinstance(value, Start):
        return value._asdict()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


# A ``laser`` event as recorded, its squares as indices: (origin, facing,
# beam: the squares it crosses when it hits nobody, target: the square of the
# robot it hits or -1, that robot's name, amount, cause). Read, it becomes
# coordinates and a path (a race fires a beam for every laser in every register).
Beam = tuple[int, int, tuple[int, ...], int, "str | None", int, str]

# A recorded event: round, register, step, kind, robot, then its fields as
# keywords (a dict) or a Beam. Events are made from them only when read.
Record = tuple[int, "int | None", str, str, "str | None", "dict[str, Any] | Beam"]


class EventLog(Sequence[Event]):
    """The ordered event log of a race, cheap to keep and small whatever the
    race's length: ``record`` appends each event as a plain tuple (a
    ``Record``), and the ``Event`` is made when it is read. ``pack()``, called
    between registers, pickles and compresses the records once there are
    BLOCK of them (a block shrinks about tenfold); the newest stay as they
    are. It reads as a list: len, iteration, indexing and slicing. `xy` are
    the course's square coordinates (Course.xy)."""

    BLOCK = 4096

    def __init__(self, xy: Sequence[Square] = ()) -> None:
        self._xy = xy
        self._blocks: list[bytes] = []
        self._ends: list[int] = []          # the records up to the end of each block
        self._tail: list[Record] = []
        self.record = self._tail.append     # the hot path: nothing but an append (not
        # to be kept across a pack(), which starts a new tail)
        self._unpacked: tuple[int, list[Record]] | None = None    # the last block read

    def pack(self) -> None:
        """Pack the newest records into a block if there are BLOCK of them."""
        tail = self._tail
        if len(tail) >= self.BLOCK:
            self._blocks.append(zlib.compress(pickle.dumps(tail, pickle.HIGHEST_PROTOCOL), 1))
            self._ends.append(len(self))
            self._tail = []
            self.record = self._tail.append

    def append(self, event: Event) -> None:
        """Add an event made elsewhere."""
        self.record((*event[:5], {k: v for k, v in zip(event._fields[5:], event[5:])
                                  if v is not None}))
        self.pack()

    def __len__(self) -> int:
        return (self._ends[-1] if self._ends else 0) + len(self._tail)

    def _event(self, record: Record) -> Event:
        round, register, step, kind, robot, fields = record
        if isinstance(fields, dict):
            return Event(round, register, step, kind, robot, **fields)
        origin, facing, beam, target, target_name, amount, cause = fields
        xy = self._xy
        path = beam[:beam.index(target) + 1] if target >= 0 else beam
        return Event(round, register, step, kind, robot, src=xy[origin], facing=NAMES[facing],
                     path=tuple([xy[s] for s in path]), target=target_name, amount=amount,
                     cause=cause)

    def _records(self, b: int) -> list[Record]:
        if b >= len(self._blocks):
            return self._tail
        if self._unpacked is None or self._unpacked[0] != b:
            self._unpacked = (b, pickle.loads(zlib.decompress(self._blocks[b])))
        return self._unpacked[1]

    def __iter__(self) -> Iterator[Event]:
        event = self._event
        for b in range(len(self._blocks)):
            yield from map(event, self._records(b))
        yield from map(event, self._tail)

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return list(self)[index]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("event index out of range")
        b = bisect.bisect_right(self._ends, index)
        return self._event(self._records(b)[index - (self._ends[b - 1] if b else 0)])
