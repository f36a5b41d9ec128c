"""Turning a board, or one factory board of it, by quarter turns clockwise.

Pure functions on the immutable model: the editor turns boards and
selections with them (engine/editing/transform.py), assembling turns library
boards, and a race turns a factory board in place when a flag is touched
(docs/rules.md 12.10).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, overload

from rallyforge.engine.model.directions import INDEX, NAMES
from rallyforge.engine.model.scenario import Board, FactoryBoard


@overload
def turn_direction(direction: str, quarter_turns: int) -> str: ...
@overload
def turn_direction(direction: None, quarter_turns: int) -> None: ...
@overload
def turn_direction(direction: str | None, quarter_turns: int) -> str | None: ...


def turn_direction(direction: str | None, quarter_turns: int) -> str | None:
    if direction is None:
        return None
    return NAMES[(INDEX[direction] + quarter_turns) & 3]


def rotate_point(x: int, y: int, width: int, height: int, quarter_turns: int) -> tuple[int, int]:
    """Where square (x, y) of a width x height board lands after turning the
    board clockwise by quarter_turns quarters."""
    for _ in range(quarter_turns & 3):
        x, y, width, height = height - 1 - y, x, height, width
    return x, y


def rotated_size(width: int, height: int, quarter_turns: int) -> tuple[int, int]:
    return (height, width) if quarter_turns & 1 else (width, height)


def rotate_board(board: Board, quarter_turns: int) -> Board:
    """The board turned clockwise by 90 degrees, quarter_turns times: squares,
    walls, and the directions of belts, currents, lasers and pushers turn with
    it; gears keep their sense of rotation."""
    q = quarter_turns & 3
    if q == 0:
        return board
    w, h = board.width, board.height

    def move(item: Any, **changes: Any) -> Any:      # any element of a board list
        x, y = rotate_point(item.x, item.y, w, h, q)
        return replace(item, x=x, y=y, **changes)

    nw, nh = rotated_size(w, h, q)
    return replace(
        board, width=nw, height=nh,
        tiles=tuple(move(t, dir=turn_direction(t.dir, q)) for t in board.tiles),
        walls=tuple(move(wl, side=turn_direction(wl.side, q)) for wl in board.walls),
        lasers=tuple(move(l, dir=turn_direction(l.dir, q)) for l in board.lasers),
        pushers=tuple(move(p, dir=turn_direction(p.dir, q)) for p in board.pushers),
        levels=tuple(move(v) for v in board.levels),
    )


def rotate_rectangle(part: FactoryBoard, width: int, height: int,
                     quarter_turns: int) -> FactoryBoard:
    """A factory board of a width x height board, after rotate_board(board, quarter_turns)."""
    q = quarter_turns & 3
    corners = [rotate_point(x, y, width, height, q)
               for x, y in ((part.x, part.y), (part.x + part.width - 1, part.y + part.height - 1))]
    w, h = rotated_size(part.width, part.height, q)
    return replace(part, x=min(x for x, _ in corners), y=min(y for _, y in corners), width=w,
                   height=h, turn=(part.turn + q) & 3)


# turn_part's boards by the identity of what they were turned from (boards
# are immutable): a balance run of a course whose boards turn (docs/rules.md
# 12.10) turns the same few boards again and again, race after race. The
# boards made are kept by value too, so that turns in another order that
# give an equal board give the same object (the races' caches of courses and
# bots' tables, kept by object, then meet each arrangement once).
_turned: dict[tuple[int, int, int], tuple[Board, FactoryBoard, Board]] = {}
_made: dict[Board, Board] = {}
MOST_TURNED = 512


def turn_part(board: Board, part: FactoryBoard, quarter_turns: int = 1) -> Board:
    """The board with one square factory board of it turned in place: the
    elements listed on its squares (tiles, levels, lasers, pushers, and the
    walls listed on them, its outer edges included) turn with it, those
    listed on other squares stay. A wall on the board's border belongs to
    the square it is listed on, as the library's boards list theirs. The
    same board and part give the same board (the one made before), and so
    do turns that lead to an equal board."""
    key = (id(board), id(part), quarter_turns)
    known = _turned.get(key)
    if known is not None and known[0] is board and known[1] is part:
        return known[2]
    if len(_turned) >= MOST_TURNED:
        _turned.clear()
        _made.clear()
    turned = _turned_part(board, part, quarter_turns)
    turned = _made.setdefault(turned, turned)
    _turned[key] = (board, part, turned)
    return turned


def _turned_part(board: Board, part: FactoryBoard, quarter_turns: int) -> Board:
    assert part.turns_in_place, "only a square board turns in place"

    def inside(item: Any) -> bool:
        return part.covers(item.x, item.y)

    def lifted(items: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(replace(i, x=i.x - part.x, y=i.y - part.y) for i in items if inside(i))

    piece = rotate_board(Board(part.width, part.height, lifted(board.tiles), lifted(board.walls),
                               lifted(board.lasers), lifted(board.pushers),
                               levels=lifted(board.levels)), quarter_turns)

    def merged(mine: tuple[Any, ...], turned: tuple[Any, ...]) -> tuple[Any, ...]:
        return (tuple(i for i in mine if not inside(i))
                + tuple(replace(i, x=i.x + part.x, y=i.y + part.y) for i in turned))

    return replace(board, tiles=merged(board.tiles, piece.tiles),
                   walls=merged(board.walls, piece.walls),
                   lasers=merged(board.lasers, piece.lasers),
                   pushers=merged(board.pushers, piece.pushers),
                   levels=merged(board.levels, piece.levels)).canonical()
