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

    place       dst, facing, start                a robot put on its start square (round 0);
                                                  start: its damage, lives, flags, options
                                                  and powered_down there (a ``Start``)
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
    flag        src, amount                       flag number `amount` touched
    finish      amount                            its place (1 = first)
    leave       src                               a finished robot leaves the board (finish "all")
    archive     dst                               archive marker moved
    repair      amount                            damage repaired
    option      amount                            options gained (counted options)

Option cards (played options, options.md 6.27); `card` is the card's id:

    option_gained     card, cause                 cause: start, upgrade, flag
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
"""
from __future__ import annotations

import pickle
import zlib
from collections.abc import Iterator, Sequence
from typing import NamedTuple, overload

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


class EventLog(Sequence[Event]):
    """The ordered event log of a race, kept small whatever the race's length:
    every BLOCK events are pickled and compressed together (a block of events
    shrinks about tenfold), the newest stay as they are. It reads as a list:
    len, iteration, indexing and slicing."""

    BLOCK = 4096

    def __init__(self) -> None:
        self._blocks: list[bytes] = []
        self._tail: list[Event] = []

    def append(self, event: Event) -> None:
        self._tail.append(event)
        if len(self._tail) == self.BLOCK:
            self._blocks.append(zlib.compress(pickle.dumps(self._tail, pickle.HIGHEST_PROTOCOL), 1))
            self._tail = []

    def __len__(self) -> int:
        return len(self._blocks) * self.BLOCK + len(self._tail)

    def _block(self, b: int) -> list[Event]:
        return pickle.loads(zlib.decompress(self._blocks[b])) if b < len(self._blocks) else self._tail

    def __iter__(self) -> Iterator[Event]:
        for b in range(len(self._blocks)):
            yield from self._block(b)
        yield from self._tail

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
        return self._block(index // self.BLOCK)[index % self.BLOCK]
