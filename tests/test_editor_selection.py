"""Rectangle selection with the mouse: select, move, rotate, mirror, cut,
copy, paste and delete, each one undo step."""
from PySide6.QtTest import QTest

from rallyforge.engine.model.scenario import Board, Dock, Flag, Scenario, Tile, Wall
from tests.editor_support import (  # noqa: F401  (fixtures)
    answers, centre, click, drag_squares, make_window,
)


def course():
    tiles = (Tile(1, 1, "conveyor", dir="E"), Tile(2, 1, "pit"), Tile(1, 2, "gear", rotation="cw"))
    return Scenario("Sel", Board(10, 10, tiles=tiles, walls=(Wall(2, 2, "S"),)),
                    (Flag(2, 2), Flag(8, 8)), (Dock(0, 9, "N"),))


def test_select_and_move_a_region_with_the_mouse(make_window):
    w = make_window(scenario=course())
    w.set_tool("select")
    drag_squares(w.view, [(1, 1), (2, 2)])
    assert w.state.selection == (1, 1, 2, 2)
    before = w.doc.scenario
    drag_squares(w.view, [(1, 1), (3, 4), (5, 6)])           # drag inside the selection by (4, 5)
    b = w.doc.scenario.board
    assert b.tile_at(1, 1) is None and b.tile_at(2, 1) is None
    assert b.tile_at(5, 6) == Tile(5, 6, "conveyor", dir="E")
    assert b.tile_at(6, 6).type == "pit" and b.tile_at(5, 7).type == "gear"
    assert b.has_wall(6, 7, "S") and not b.has_wall(2, 2, "S")
    assert w.doc.scenario.flags == (Flag(6, 7), Flag(8, 8))  # flag 1 moved with it, still flag 1
    assert w.state.selection == (5, 6, 6, 7)
    assert w.doc.undo_stack.count() == 1
    w.doc.undo_stack.undo()
    assert w.doc.scenario is before


def test_click_selects_one_square_for_the_inspector(make_window):
    w = make_window(scenario=course())
    w.set_tool("select")
    click(w.view, 2.5, 1.5)
    assert w.state.selection == (2, 1, 2, 1)
    assert w.state.inspected == (2, 1)


def test_rotate_and_mirror_the_selection(make_window):
    w = make_window(scenario=course())
    w.set_tool("select")
    drag_squares(w.view, [(1, 1), (2, 2)])
    w.menus.actions["rotate_right"].trigger()                      # Z with a selection turns it
    b = w.doc.scenario.board
    assert b.tile_at(2, 1) == Tile(2, 1, "conveyor", dir="S")
    assert b.tile_at(2, 2).type == "pit" and b.tile_at(1, 1).type == "gear"
    assert b.has_wall(1, 2, "W")                             # the wall S of (2, 2) turned to W of (1, 2)
    assert w.state.brush.dir == "E"                          # the brush did not turn
    w.menus.actions["rotate_left"].trigger()
    assert w.doc.scenario == course()
    w.menus.actions["mirror_h"].trigger()
    b = w.doc.scenario.board
    assert b.tile_at(2, 1) == Tile(2, 1, "conveyor", dir="W") and b.tile_at(1, 1).type == "pit"
    assert b.tile_at(2, 2).rotation == "ccw"
    assert w.doc.undo_stack.count() == 3


def test_cut_paste_and_delete(make_window):
    w = make_window(scenario=course())
    w.set_tool("select")
    drag_squares(w.view, [(1, 1), (2, 1)])
    w.menus.actions["cut"].trigger()
    assert w.doc.scenario.board.tile_at(1, 1) is None
    QTest.mouseMove(w.view.viewport(), centre(w.view, (5, 5)))
    w.menus.actions["paste"].trigger()                             # at the square under the mouse
    b = w.doc.scenario.board
    assert b.tile_at(5, 5).type == "conveyor" and b.tile_at(6, 5).type == "pit"
    assert w.state.selection == (5, 5, 6, 5)
    w.menus.actions["copy"].trigger()
    w.menus.actions["delete"].trigger()
    assert w.doc.scenario.board.tile_at(5, 5) is None
    assert w.doc.undo_stack.count() == 3
    w.menus.actions["select_all"].trigger()
    w.menus.actions["delete"].trigger()
    assert w.doc.scenario.board.tiles == () and w.doc.scenario.flags == ()


def test_esc_ends_a_drag_first_then_clears_the_selection(make_window):
    from PySide6.QtCore import Qt
    w = make_window(scenario=course())
    w.set_tool("select")
    drag_squares(w.view, [(1, 1), (2, 2)])
    assert w.state.selection == (1, 1, 2, 2)
    vp = w.view.viewport()
    w.view.setFocus()
    # a move of the selection under way: Esc drops the move, not the selection
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre(w.view, (1, 1)))
    QTest.mouseMove(vp, centre(w.view, (4, 4)))
    QTest.keyClick(w.view, Qt.Key_Escape)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre(w.view, (4, 4)))
    assert w.state.selection == (1, 1, 2, 2)
    assert w.doc.undo_stack.count() == 0
    QTest.keyClick(w.view, Qt.Key_Escape)
    assert w.state.selection is None
    # and with another tool in hand (Page Up raises the selection with any tool)
    w.state.set_selection((3, 3, 4, 4))
    QTest.keyClick(w.view, Qt.Key_B)
    QTest.keyClick(w.view, Qt.Key_Escape)
    assert w.state.selection is None
