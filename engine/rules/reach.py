"""Which squares a robot can get to from where it stands.

A robot alone on the board, with any card in any register, as the race
engine moves it (engine/rules/lone_robot_model.py): cards, walls, pits, water, teleporters,
conveyors, currents, pushers, gears and crushers. A square counts as
reached when the robot can end a register on it alive, facing any way, so
a flag reached by riding a conveyor counts, and one that every way in
carries the robot past (or into a pit) does not. The validator asks only
``reachable_from``.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Set as AbstractSet

import numpy as np

from rallyforge.engine.model.scenario import Board, Rules
from rallyforge.engine.rules.lone_robot_model import LoneModel


def reachable_from(board: Board, starts: Iterable[tuple[int, int]],
                   rules: Rules | None = None) -> AbstractSet[tuple[int, int]]:
    """Every square reachable from at least one of `starts` (the starts
    included, whatever the facing there; starts off the board are ignored),
    as a read-only set of (x, y). `rules` matter only for the teleporter's
    Back Up distance (default rules when not given)."""
    width = board.width
    states = [(y * width + x) * 4 + facing for x, y in starts if board.in_bounds(x, y)
              for facing in range(4)]
    if not states:
        return SquareSet(0, width, board.height)
    reached = _model(board, rules or Rules()).reachable_states(np.array(states))
    squares = reached.reshape(-1, 4).any(axis=1)
    bits = int.from_bytes(np.packbits(squares, bitorder="little").tobytes(), "little")
    return SquareSet(bits, width, board.height)


# the last board and rules seen, and their model
_last: tuple[Board | None, Rules | None, LoneModel | None] = (None, None, None)


def _model(board: Board, rules: Rules) -> LoneModel:
    """The lone-robot model, remembered for the board last asked about (the
    validator asks about one board many times; hashing a big board to find
    it in LoneModel.build's cache would cost more than this check)."""
    global _last
    seen, seen_rules, model = _last
    if seen is not board or seen_rules != rules:
        model = LoneModel.build(board, rules)
        _last = (board, rules, model)
    assert model is not None
    return model


class SquareSet(AbstractSet[tuple[int, int]]):
    """A set of squares kept as a bitboard: `in` is one bit test, and the
    (x, y) tuples are only made when the set is iterated."""

    __slots__ = ("bits", "width", "height")

    def __init__(self, bits: int, width: int, height: int):
        self.bits, self.width, self.height = bits, width, height

    def __contains__(self, square: object) -> bool:
        if not isinstance(square, (tuple, list)) or len(square) != 2:
            return False
        x, y = square
        if not (isinstance(x, int) and isinstance(y, int)
                and 0 <= x < self.width and 0 <= y < self.height):
            return False
        return bool(self.bits >> (y * self.width + x) & 1)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(_squares(self.bits, self.width))

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __repr__(self) -> str:
        return f"SquareSet({sorted(self)!r})"


def _squares(bits: int, width: int) -> list[tuple[int, int]]:
    text = bin(bits)[:1:-1]            # bit 0 first
    out = []
    find = text.find
    i = find("1")
    while i >= 0:
        out.append((i % width, i // width))
        i = find("1", i + 1)
    return out
