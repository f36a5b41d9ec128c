"""Painting with real mouse events on the board view: brush, belt, walls,
lasers and pushers, eraser, fills, eyedropper, flags and docks; every stroke
one undo step, undo and redo exact."""

from PySide6.QtCore import Qt

from rallyforge.editor.document import empty_scenario
from rallyforge.engine.model.scenario import Dock, Flag, Laser, Pusher, Tile, Wall
from tests.editor_support import (  # noqa: F401  (fixtures)
    answers, centre, click, drag, drag_squares, make_window, point, window,
)


def test_brush_stroke_paints_squares_as_one_undo_step(window):
    w = window
    w.set_tool("brush")
    w.state.set_brush(kind="pit")
    before = w.doc.scenario
    drag_squares(w.view, [(1, 1), (2, 1), (3, 1), (3, 2)])
    b = w.doc.scenario.board
    assert [(t.x, t.y, t.type) for t in b.tiles] == [(1, 1, "pit"), (2, 1, "pit"), (3, 1, "pit"),
                                                     (3, 2, "pit")]
    assert w.doc.undo_stack.count() == 1
    after = w.doc.scenario
    w.doc.undo_stack.undo()
    assert w.doc.scenario is before
    w.doc.undo_stack.redo()
    assert w.doc.scenario == after


def test_brush_fills_gaps_of_a_fast_drag_and_uses_the_direction(window):
    w = window
    w.set_tool("brush")
    w.state.set_brush(kind="conveyor", dir="E", express=True)
    w.menus.actions["rotate_right"].trigger()          # Z: E -> S
    drag_squares(w.view, [(0, 5), (6, 5)])
    b = w.doc.scenario.board
    assert [(t.x, t.y) for t in b.tiles] == [(x, 5) for x in range(7)]
    assert all(t.dir == "S" and t.express for t in b.tiles)


def test_right_click_with_the_brush_picks_up_a_tile(window):
    w = window
    w.doc.reset(w.doc.scenario.__class__(**{**w.doc.scenario.__dict__, "board":
        w.doc.scenario.board.__class__(12, 12, tiles=(Tile(4, 4, "gear", rotation="ccw"),))}), None)
    w.set_tool("brush")
    click(w.view, 4.5, 4.5, Qt.RightButton)
    assert (w.state.brush.kind, w.state.brush.rotation) == ("gear", "ccw")


def test_belt_path_points_each_square_to_the_next(window):
    w = window
    w.set_tool("belt")
    path = [(2, 2), (3, 2), (4, 2), (4, 3), (4, 4), (3, 4)]
    drag_squares(w.view, path)
    b = w.doc.scenario.board
    for (x, y), (nx, ny) in zip(path, path[1:]):
        d = {(1, 0): "E", (-1, 0): "W", (0, 1): "S", (0, -1): "N"}[(nx - x, ny - y)]
        assert b.tile_at(x, y) == Tile(x, y, "conveyor", dir=d)
    assert b.tile_at(3, 4).dir == "W"              # the last square keeps the last step's way
    assert w.doc.undo_stack.count() == 1


def test_belt_with_shift_is_express_and_jumps_are_filled(window):
    w = window
    w.set_tool("belt")
    drag_squares(w.view, [(1, 8), (5, 8), (5, 10)], modifiers=Qt.ShiftModifier)
    b = w.doc.scenario.board
    assert {(t.x, t.y) for t in b.tiles} == {(x, 8) for x in range(1, 6)} | {(5, 9), (5, 10)}
    assert all(t.express for t in b.tiles)
    assert b.tile_at(4, 8).dir == "E" and b.tile_at(5, 8).dir == "S"


def test_wall_tool_toggles_the_nearest_edge(window):
    w = window
    w.set_tool("wall")
    click(w.view, 3.5, 3.08)                        # near the N edge of (3, 3)
    assert w.doc.scenario.board.walls == (Wall(3, 3, "N"),)
    click(w.view, 3.5, 2.92)                        # the same edge from (3, 2): off again
    assert w.doc.scenario.board.walls == ()
    click(w.view, 5.95, 1.5)                        # E edge of (5, 1)
    assert w.doc.scenario.board.has_wall(6, 1, "W")
    assert w.doc.undo_stack.count() == 3


def test_wall_drag_draws_a_run_of_walls_in_one_step(window):
    w = window
    w.set_tool("wall")
    drag(w.view, [point(w.view, x + 0.5, 6.05) for x in range(1, 5)])
    assert {(wl.x, wl.y, wl.side) for wl in w.doc.scenario.board.walls} == {(x, 6, "N") for x in range(1, 5)}
    assert w.doc.undo_stack.count() == 1


def test_laser_and_pusher_take_their_direction_from_the_edge(window):
    w = window
    w.set_tool("laser")
    w.state.set_brush(beams=2)
    click(w.view, 0.08, 5.5)                        # W edge of (0, 5): fires east
    assert w.doc.scenario.board.lasers == (Laser(0, 5, "E", 2),)
    w.set_tool("pusher")
    w.state.set_brush(phases=(2, 4))
    click(w.view, 7.5, 0.08)                        # N edge of (7, 0): pushes south
    assert w.doc.scenario.board.pushers == (Pusher(7, 0, "S", (2, 4)),)
    assert w.doc.scenario.board.has_wall(7, 0, "N")
    assert w.state.inspected == (7, 0)
    click(w.view, 7.5, 0.08)                        # again: removed
    assert w.doc.scenario.board.pushers == ()


def test_eraser_clears_squares(window):
    w = window
    w.set_tool("brush")
    w.state.set_brush(kind="water")
    drag_squares(w.view, [(0, 0), (3, 0)])
    w.set_tool("eraser")
    drag_squares(w.view, [(1, 0), (2, 0)])
    assert [(t.x, t.y) for t in w.doc.scenario.board.tiles] == [(0, 0), (3, 0)]


def test_rect_fill_and_flood_fill(window):
    w = window
    w.set_tool("rect_fill")
    w.state.set_brush(kind="pit")
    drag_squares(w.view, [(2, 2), (3, 3), (4, 4)])
    assert {(t.x, t.y) for t in w.doc.scenario.board.tiles} == {(x, y) for x in range(2, 5) for y in range(2, 5)}
    assert w.doc.undo_stack.count() == 1
    w.set_tool("flood_fill")
    w.state.set_brush(kind="water")
    click(w.view, 0.5, 0.5)                         # the floor around the pit
    b = w.doc.scenario.board
    assert sum(t.type == "water" for t in b.tiles) == 144 - 9
    assert sum(t.type == "pit" for t in b.tiles) == 9
    w.state.set_brush(kind="repair")
    click(w.view, 3.5, 3.5)                         # the pit
    assert sum(t.type == "repair" for t in w.doc.scenario.board.tiles) == 9


def test_eyedropper_takes_the_tile_and_returns_to_the_brush(window):
    w = window
    w.set_tool("belt")
    drag_squares(w.view, [(1, 1), (1, 2)], modifiers=Qt.ShiftModifier)
    w.set_tool("eyedropper")
    click(w.view, 1.5, 1.5)
    assert (w.state.brush.kind, w.state.brush.dir, w.state.brush.express) == ("conveyor", "S", True)
    assert w.tool_id == "brush"


def test_flags_and_docks_keep_their_numbering(window):
    w = window
    w.set_tool("flag")
    for x in (1, 2, 3):
        click(w.view, x + 0.5, 1.5)
    assert w.doc.scenario.flags == (Flag(1, 1), Flag(2, 1), Flag(3, 1))
    drag_squares(w.view, [(2, 1), (2, 5)])          # move flag 2
    assert w.doc.scenario.flags == (Flag(1, 1), Flag(2, 5), Flag(3, 1))
    click(w.view, 1.5, 1.5, Qt.RightButton)         # remove flag 1: the others renumber
    assert w.doc.scenario.flags == (Flag(2, 5), Flag(3, 1))
    w.set_tool("dock")
    w.state.set_brush(dir="N")
    click(w.view, 4.5, 11.5)
    w.state.set_brush(dir="E")
    click(w.view, 4.5, 11.5)                        # clicking a dock turns it
    assert w.doc.scenario.docks == (Dock(4, 11, "E"),)
    w.markers_panel.renumber("flags", 1, 0)
    assert w.doc.scenario.flags == (Flag(3, 1), Flag(2, 5))
    assert w.markers_panel.lists["flags"].item(0).text().startswith("Flag 1: square 3, 1")
    w.markers_panel.lists["flags"].setCurrentRow(1)
    w.set_tool("flag")
    click(w.view, 6.5, 6.5, modifiers=Qt.ShiftModifier)   # inserted before flag 2, as flag 2
    assert w.doc.scenario.flags == (Flag(3, 1), Flag(6, 6), Flag(2, 5))


def test_undo_all_returns_to_the_empty_board_exactly(window):
    w = window
    empty = w.doc.scenario
    w.set_tool("brush")
    drag_squares(w.view, [(0, 0), (5, 0)])
    w.set_tool("wall")
    click(w.view, 2.5, 2.05)
    w.set_tool("flag")
    click(w.view, 8.5, 8.5)
    full = w.doc.scenario
    while w.doc.undo_stack.canUndo():
        w.doc.undo_stack.undo()
    assert w.doc.scenario is empty
    assert not w.doc.modified
    while w.doc.undo_stack.canRedo():
        w.doc.undo_stack.redo()
    assert w.doc.scenario == full


def test_a_brush_drag_over_50_squares_of_a_24x28_course_is_one_edit(make_window):
    """(How long it takes: bench/bench_editor.py.)"""
    w = make_window(scenario=empty_scenario(24, 28))
    w.set_tool("brush")
    w.state.set_brush(kind="conveyor", dir="E")
    squares = ([(x, 3) for x in range(24)] + [(x, 4) for x in reversed(range(24))]
               + [(0, 5), (1, 5)])                  # one stroke, square by square
    assert len(squares) == 50
    drag(w.view, [centre(w.view, s) for s in squares])
    tiles = w.doc.scenario.board.tiles
    assert sorted((t.x, t.y) for t in tiles) == sorted(squares)
    assert {(t.type, t.dir) for t in tiles} == {("conveyor", "E")}
    assert w.doc.undo_stack.count() == 1


def test_wall_behind_a_laser_counts_as_there(window):
    w = window
    w.set_tool("laser")
    click(w.view, 2.5, 2.08)                        # N edge of (2, 2): fires south
    w.set_tool("wall")
    click(w.view, 2.5, 2.08)                        # clearing: nothing listed, the laser stays
    assert w.doc.scenario.board.walls == () and w.doc.scenario.board.has_wall(2, 2, "N")
    assert w.doc.undo_stack.count() == 1
