"""The small, reversible edits ``suggest`` proposes, as data: each one says
what it does in words, which things it touches (two edits that touch
nothing in common can be combined) and makes the edited course through the
editor's own edit operations (engine/editing/edit.py).

Docks and flags are numbered from 1, squares are (x, y), as the report and
the editor show them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from rallyforge.engine.analysis.suggest.types import EditJson
from rallyforge.engine.editing import edit
from rallyforge.engine.model.scenario import Scenario

Square = tuple[int, int]
# What edits touch, to tell which two overlap: ("dock", number), ("square", (x, y)),
# ("edge", (x, y), side), ("laser", (x, y), dir)... (Edit.touches)
Touches = frozenset[tuple[object, ...]]


def _at(square: Square) -> str:
    return f"({square[0]},{square[1]})"


@dataclass(frozen=True)
class Edit:
    """One edit. ``kind`` is one of KINDS; ``args`` its values, as in KINDS
    (a moved dock may take a new facing: (number, old, new, facing))."""
    kind: str
    args: tuple[Any, ...]

    @property
    def words(self) -> str:
        return WORDS[self.kind](*self.args)

    @property
    def touches(self) -> Touches:
        """Docks, flags, squares and edges the edit changes."""
        a = self.args
        if self.kind == "swap_docks":
            return frozenset({("dock", a[0]), ("dock", a[1])})
        if self.kind in ("move_dock", "move_flag"):
            marker = "dock" if self.kind == "move_dock" else "flag"
            return frozenset({(marker, a[0]), ("square", a[1]), ("square", a[2])})
        if self.kind == "turn_dock":
            return frozenset({("dock", a[0])})
        if self.kind in ("add_wall", "remove_wall"):
            return frozenset({("edge", a[0], a[1]), ("square", a[0])})
        if self.kind == "shorten_laser":
            return frozenset({("laser", a[0], a[1]), ("edge", a[2], a[3])})
        if self.kind == "remove_laser":
            return frozenset({("laser", a[0], a[1])})
        if self.kind == "remove_flag":
            return frozenset({("flag", a[0]), ("square", a[1])})
        return frozenset({("square", a[0])})  # turn_belt, pusher_registers, clear_square

    def apply(self, s: Scenario) -> Scenario:
        return APPLY[self.kind](s, *self.args)

    def as_json(self) -> EditJson:
        return {"kind": self.kind, "args": _jsonable(self.args), "words": self.words}

    @classmethod
    def from_json(cls, doc: EditJson) -> "Edit":
        return cls(doc["kind"], _tupled(doc["args"]))


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def _tupled(value: Any) -> Any:
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def apply_all(s: Scenario, edits: tuple[Edit, ...]) -> Scenario:
    for e in edits:
        s = e.apply(s)
    return edit.canonical(s)


# ---------------------------------------------------------------- what each does

def _swap_docks(s: Scenario, a: int, b: int) -> Scenario:
    order = list(range(len(s.docks)))
    order[a - 1], order[b - 1] = order[b - 1], order[a - 1]
    return edit.reorder_markers(s, "docks", order)


def _move_marker(kind: str) -> Callable[..., Scenario]:
    def move(s: Scenario, number: int, old: Square, new: Square, *facing: str) -> Scenario:
        """(a dock may be turned as it moves: `facing`)"""
        marker = edit.markers(s, kind)[number - 1]
        moved = replace(marker, x=new[0], y=new[1], **({"facing": facing[0]} if facing else {}))
        return edit.replace_marker(s, kind, number - 1, moved)
    return move


def _turn_dock(s: Scenario, number: int, old: str, new: str) -> Scenario:
    dock = s.docks[number - 1]
    return edit.replace_marker(s, "docks", number - 1, replace(dock, facing=new))


def _wall(present: bool) -> Callable[[Scenario, Square, str], Scenario]:
    def change(s: Scenario, square: Square, side: str) -> Scenario:
        return edit.with_board(s, edit.set_wall(s.board, square[0], square[1], side, present))
    return change


def _turn_belt(s: Scenario, square: Square, old: str, new: str) -> Scenario:
    tile = s.board.tile_at(*square)
    assert tile is not None
    return edit.with_board(s, edit.set_tiles(s.board, {square: replace(tile, dir=new)}))


def _pusher_registers(s: Scenario, square: Square, old: tuple[int, ...],
                      new: tuple[int, ...]) -> Scenario:
    pusher = s.board.pusher_map[square]
    return edit.with_board(s, edit.set_pusher(s.board, replace(pusher, phases=new)))


def _shorten_laser(s: Scenario, square: Square, fires: str, end: Square, side: str,
                   length: int) -> Scenario:
    return edit.with_board(s, edit.set_wall(s.board, end[0], end[1], side, True))


def _remove_flag(s: Scenario, number: int, square: Square) -> Scenario:
    return edit.remove_marker(s, "flags", number - 1)


def _clear_square(s: Scenario, square: Square, what: str) -> Scenario:
    return edit.with_board(s, edit.set_tiles(s.board, {square: None}))


def _remove_laser(s: Scenario, square: Square, fires: str) -> Scenario:
    return edit.with_board(s, edit.remove_laser(s.board, square[0], square[1], fires))


APPLY: dict[str, Callable[..., Scenario]] = {
    "swap_docks": _swap_docks,
    "move_dock": _move_marker("docks"),
    "move_flag": _move_marker("flags"),
    "turn_dock": _turn_dock,
    "add_wall": _wall(True),
    "remove_wall": _wall(False),
    "turn_belt": _turn_belt,
    "pusher_registers": _pusher_registers,
    "shorten_laser": _shorten_laser,
    "remove_flag": _remove_flag,
    "clear_square": _clear_square,
    "remove_laser": _remove_laser,
}

WORDS: dict[str, Callable[..., str]] = {
    "swap_docks": lambda a, b: f"swap the numbers of docks {a} and {b}",
    "move_dock": lambda n, old, new, *facing:
        f"move dock {n} from {_at(old)} to {_at(new)}" + (f" facing {facing[0]}" if facing else ""),
    "move_flag": lambda n, old, new: f"move flag {n} from {_at(old)} to {_at(new)}",
    "turn_dock": lambda n, old, new: f"turn dock {n} from {old} to {new}",
    "add_wall": lambda sq, side: f"add a wall on the {side} side of {_at(sq)}",
    "remove_wall": lambda sq, side: f"remove the wall on the {side} side of {_at(sq)}",
    "turn_belt": lambda sq, old, new: f"turn the conveyor at {_at(sq)} from {old} to {new}",
    "pusher_registers": lambda sq, old, new:
        f"make the pusher at {_at(sq)} push in registers {','.join(map(str, new))} "
        f"(was {','.join(map(str, old))})",
    "shorten_laser": lambda sq, fires, end, side, length:
        f"shorten the laser at {_at(sq)} firing {fires} to {length} square"
        f"{'s' if length > 1 else ''} (a wall on the {side} side of {_at(end)})",
    "remove_flag": lambda n, sq: f"remove flag {n} at {_at(sq)} (the later flags renumber)",
    "clear_square": lambda sq, what: f"make the {what} at {_at(sq)} plain floor",
    "remove_laser": lambda sq, fires: f"remove the laser at {_at(sq)} firing {fires}",
}

KINDS = tuple(APPLY)

