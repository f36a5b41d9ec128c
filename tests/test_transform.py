"""Board geometry: rotating, mirroring, cutting, pasting and inserting boards."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rallyforge.engine.editing.transform import (clear_region, extract, insert_board, mirror_board,
                                      mirror_point, resize, rotate_board, rotate_point, stamp)
from rallyforge.engine.format.loader import load_dict
from rallyforge.engine.model.directions import INDEX, NAMES
from rallyforge.engine.model.scenario import Board, Dock, Flag, Laser, Pusher, Scenario, Tile, Wall, edge_key
from tests.strategies import scenarios

SIDES = ("N", "E", "S", "W")


def boards():
    return scenarios(with_notes=False).map(lambda doc: load_dict(doc).board)


def contents(board: Board):
    """What a board means, ignoring list order and how walls are spelled."""
    return (board.width, board.height, frozenset(board.tiles), frozenset(board.lasers),
            frozenset(board.pushers), board.wall_edges)


def example_board() -> Board:
    return Board(
        5, 3,
        tiles=(Tile(0, 0, "conveyor", dir="E", express=True), Tile(4, 2, "gear", rotation="cw"),
               Tile(2, 1, "current", dir="S"), Tile(1, 2, "crusher", phases=(1, 3))),
        walls=(Wall(0, 0, "N"), Wall(3, 1, "E"), Wall(4, 2, "S")),
        lasers=(Laser(1, 0, "S", 2),),
        pushers=(Pusher(3, 2, "N", (2, 4)),),
    )


# ---------------------------------------------------------------- rotation

def test_rotate_once_moves_squares_and_turns_directions():
    b = rotate_board(example_board(), 1)
    assert (b.width, b.height) == (3, 5)
    assert b.tile_at(2, 0) == Tile(2, 0, "conveyor", dir="S", express=True)   # NW corner -> NE
    assert b.tile_at(0, 4).rotation == "cw"                      # gears keep turning cw
    assert b.tile_at(1, 2).dir == "W"                                            # S current -> W
    assert b.lasers == (Laser(2, 1, "W", 2),)
    assert b.pushers == (Pusher(0, 3, "E", (2, 4)),)
    assert b.has_wall(2, 0, "E")            # the N wall of the old NW corner


@settings(max_examples=30, deadline=None)
@given(boards(), st.integers(0, 3))
def test_four_quarter_turns_and_back(board, q):
    assert rotate_board(board, 4) == board
    assert contents(rotate_board(rotate_board(board, q), 4 - q)) == contents(board)
    assert rotate_board(board, q) == rotate_board(board, q + 4)
    assert rotate_board(board, -1) == rotate_board(board, 3)


@settings(max_examples=30, deadline=None)
@given(boards(), st.integers(1, 3))
def test_walls_turn_with_the_board(board, q):
    """Every walled edge (listed, or behind a laser or pusher) lands on the
    rotated edge, and no other edge gets a wall."""
    turned = rotate_board(board, q)
    expected = set()
    for x, y, side in board.wall_edges:
        if side == "N" and y == board.height:      # the S edge of the last row
            x, y, side = x, y - 1, "S"
        if side == "W" and x == board.width:
            x, y, side = x - 1, y, "E"
        rx, ry = rotate_point(x, y, board.width, board.height, q)
        expected.add(edge_key(rx, ry, NAMES[(INDEX[side] + q) & 3]))
    assert turned.wall_edges == frozenset(expected)
    for y in range(board.height):
        for x in range(board.width):
            rx, ry = rotate_point(x, y, board.width, board.height, q)
            for side in SIDES:
                assert board.has_wall(x, y, side) == turned.has_wall(
                    rx, ry, NAMES[(INDEX[side] + q) & 3])


# ---------------------------------------------------------------- mirroring

@settings(max_examples=30, deadline=None)
@given(boards(), st.sampled_from(("horizontal", "vertical")))
def test_mirror_twice_is_identity_and_walls_follow(board, axis):
    once = mirror_board(board, axis)
    assert mirror_board(once, axis) == board
    flip = {"horizontal": {"E": "W", "W": "E"}, "vertical": {"N": "S", "S": "N"}}[axis]
    for y in range(board.height):
        for x in range(board.width):
            mx, my = mirror_point(x, y, board.width, board.height, axis)
            for side in SIDES:
                assert board.has_wall(x, y, side) == once.has_wall(mx, my, flip.get(side, side))


def test_mirror_swaps_gears_and_directions():
    b = mirror_board(example_board(), "horizontal")
    assert b.tile_at(0, 2).rotation == "ccw"
    assert b.tile_at(4, 0).dir == "W"
    assert b.lasers == (Laser(3, 0, "S", 2),)
    with pytest.raises(ValueError, match="axis"):
        mirror_board(example_board(), "diagonal")


# ---------------------------------------------------------------- regions

@st.composite
def board_and_region(draw):
    board = draw(boards())
    x0 = draw(st.integers(0, board.width - 1))
    y0 = draw(st.integers(0, board.height - 1))
    x1 = draw(st.integers(x0 + 1, board.width))
    y1 = draw(st.integers(y0 + 1, board.height))
    return board, (x0, y0, x1, y1)


@settings(max_examples=40, deadline=None)
@given(board_and_region())
def test_extract_then_stamp_back_restores_the_board(case):
    board, (x0, y0, x1, y1) = case
    fragment = extract(board, x0, y0, x1, y1)
    assert (fragment.width, fragment.height) == (x1 - x0, y1 - y0)
    restored = stamp(clear_region(board, x0, y0, x1, y1), fragment, x0, y0)
    assert contents(restored) == contents(board)
    assert contents(stamp(board, fragment, x0, y0)) == contents(board)


@settings(max_examples=30, deadline=None)
@given(boards())
def test_extract_of_the_whole_board_is_the_board(board):
    assert contents(extract(board, 0, 0, board.width, board.height)) == contents(board)


def test_extract_keeps_outer_walls_and_shifts():
    b = example_board()
    f = extract(b, 3, 1, 5, 3)
    assert (f.width, f.height) == (2, 2)
    assert f.pushers == (Pusher(0, 1, "N", (2, 4)),)
    assert f.tile_at(1, 1) == Tile(1, 1, "gear", rotation="cw")
    assert f.has_wall(0, 0, "E") and f.has_wall(1, 1, "S")


def test_clear_region_keeps_border_walls():
    b = Board(3, 1, walls=(Wall(0, 0, "E"), Wall(1, 0, "E"), Wall(1, 0, "N")))
    cleared = clear_region(b, 1, 0, 2, 1)
    assert {edge_key(w.x, w.y, w.side) for w in cleared.walls} == {(1, 0, "W"), (2, 0, "W")}


def test_stamp_drops_what_falls_outside_and_lists_no_wall_twice():
    target = Board(3, 3, walls=(Wall(1, 1, "N"),))
    fragment = Board(2, 2, tiles=(Tile(0, 0, "pit"), Tile(1, 1, "water")),
                     walls=(Wall(0, 0, "N"), Wall(1, 1, "E")))
    out = stamp(target, fragment, 2, 1)
    assert out.tile_at(2, 1).type == "pit" and len(out.tiles) == 1
    assert out.has_wall(2, 1, "N") and out.has_wall(1, 1, "N")
    out = stamp(target, fragment, 1, 1)
    assert sorted((w.x, w.y, w.side) for w in out.walls) == [(1, 1, "N"), (2, 2, "E")]


def test_growing_a_board_moves_everything():
    b = resize(Scenario("t", example_board(), (), ()), left=2, top=1).board
    assert (b.width, b.height) == (7, 4)
    assert b.tile_at(2, 1).type == "conveyor"


# ---------------------------------------------------------------- inserting boards

def course(board: Board, flags=(), docks=()) -> Scenario:
    return Scenario("t", board, tuple(flags), tuple(docks))


def main_board() -> Scenario:
    return course(Board(12, 12, tiles=(Tile(5, 5, "pit"),), walls=(Wall(3, 11, "S"),)),
                  flags=[Flag(1, 1), Flag(10, 10)], docks=[Dock(0, 11, "N")])


def docking_bay() -> Scenario:
    docks = [Dock(x, 2, "N") for x in (5, 6, 3, 8, 1, 10, 0, 11)]
    return course(Board(12, 4, tiles=(Tile(0, 0, "conveyor", dir="E"),), walls=(Wall(5, 3, "W"),)),
                  flags=[Flag(6, 0)], docks=docks)


def test_insert_docking_bay_below():
    out = insert_board(main_board(), docking_bay(), "sw", 0)
    b = out.board
    assert (b.width, b.height) == (12, 16)
    assert b.tile_at(5, 5).type == "pit" and b.tile_at(0, 12).dir == "E"
    assert b.has_wall(3, 11, "S") and b.has_wall(5, 15, "W")
    assert out.flags == (Flag(1, 1), Flag(10, 10), Flag(6, 12))
    assert out.docks[0] == Dock(0, 11, "N")
    assert out.docks[1:] == tuple(Dock(d.x, d.y + 12, "N") for d in docking_bay().docks)


def test_insert_turned_bay_on_the_east():
    out = insert_board(main_board(), docking_bay(), "en", 1)
    b = out.board
    assert (b.width, b.height) == (16, 12)
    # bay square (0, 0) turns to (3, 0) of the 4x12 bay, then moves 12 east
    assert b.tile_at(15, 0) == Tile(15, 0, "conveyor", dir="S")
    assert all(d.facing == "E" for d in out.docks[1:])
    assert out.docks[1] == Dock(12 + 1, 5, "E")


def test_insert_wider_board_grows_along_and_shifts_flush_east():
    wide = course(Board(16, 2, tiles=(Tile(15, 1, "repair"),)), flags=[Flag(0, 0)])
    out = insert_board(main_board(), wide, "se", 0)
    assert (out.board.width, out.board.height) == (16, 14)
    assert out.board.tile_at(9, 5).type == "pit"          # the old board moved 4 east
    assert out.flags[:2] == (Flag(5, 1), Flag(14, 10))
    assert out.docks == (Dock(4, 11, "N"),)
    assert out.board.tile_at(15, 13).type == "repair"


def test_insert_above_moves_the_current_course_south():
    out = insert_board(main_board(), docking_bay(), "nw", 2)
    assert (out.board.width, out.board.height) == (12, 16)
    assert out.board.tile_at(5, 9).type == "pit"
    assert out.flags[0] == Flag(1, 5)
    assert out.docks[1] == Dock(11 - 5, 1, "S")           # turned half round


def test_insert_skips_markers_on_taken_squares():
    main = course(Board(2, 1), flags=[Flag(0, 1 - 1)], docks=[Dock(1, 0, "N")])
    other = course(Board(2, 1), flags=[Flag(0, 0)], docks=[Dock(1, 0, "S")])
    out = insert_board(main, other, "sw", 0)
    assert out.flags == (Flag(0, 0), Flag(0, 1)) and out.docks == (Dock(1, 0, "N"), Dock(1, 1, "S"))


def test_insert_board_moves_robots_and_checks_with_the_course():
    from rallyforge.engine.model.scenario import Check, Placement, RobotSpec
    main = replace(main_board(), robots=(RobotSpec("A", at=Placement(2, 2, "N")),),
                   checks=(Check(1, "A", expect=(("x", 2), ("y", 3), ("archive", (2, 2)))),))
    out = insert_board(main, docking_bay(), "nw", 0)
    assert out.robots[0].at == Placement(2, 6, "N")
    assert out.checks[0].expected == {"x": 2, "y": 7, "archive": (2, 6)}


def test_insert_rejects_unknown_corner():
    with pytest.raises(ValueError, match="corner"):
        insert_board(main_board(), docking_bay(), "south", 0)


@settings(max_examples=40, deadline=None)
@given(scenarios(with_notes=False, max_side=6), scenarios(with_notes=False, max_side=6),
       st.sampled_from(("nw", "ne", "sw", "se", "wn", "ws", "en", "es")), st.integers(0, 3))
def test_inserted_scenario_is_consistent(a, b, corner, q):
    main, other = load_dict(a), load_dict(b)
    out = insert_board(main, other, corner, q)
    board = out.board
    ow, oh = (other.board.height, other.board.width) if q % 2 else (other.board.width,
                                                                   other.board.height)
    assert board.width * board.height >= main.board.width * main.board.height + ow * oh
    for item in (*board.tiles, *board.walls, *board.lasers, *board.pushers, *out.flags,
                 *out.docks):
        assert board.in_bounds(item.x, item.y)
    assert len({(f.x, f.y) for f in out.flags}) == len(out.flags) == len(main.flags) + len(
        other.flags)
    assert len(out.docks) == len(main.docks) + len(other.docks)
    assert len(board.tiles) == len(main.board.tiles) + len(other.board.tiles) + (
        board.width * board.height - main.board.width * main.board.height - ow * oh), \
        "every square neither board covers is void (off the table)"
