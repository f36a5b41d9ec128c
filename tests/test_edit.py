"""engine/editing/edit.py: the pure edits behind every editor command."""
import pytest

from rallyforge.engine.editing import edit, transform
from rallyforge.engine.format.loader import dumps, read_dict, to_dict
from rallyforge.engine.model.scenario import (Board, Check, Dock, Flag, Laser, Placement, Pusher, RobotSpec,
                                   Rules, Scenario, Tile, Wall)


def course(width=6, height=5, **board):
    return Scenario("T", Board(width, height, **board), (Flag(1, 1),), (Dock(0, 4, "N"),))


def roundtrip(s: Scenario) -> Scenario:
    back, problems = read_dict(to_dict(s))
    return back


def test_set_tiles_paints_erases_and_keeps_file_order():
    b = Board(4, 4)
    b = edit.set_tiles(b, {(3, 3): Tile(0, 0, "pit"), (1, 0): Tile(1, 0, "conveyor", dir="E")})
    assert [(t.x, t.y, t.type) for t in b.tiles] == [(1, 0, "conveyor"), (3, 3, "pit")]
    assert edit.set_tiles(b, {(1, 0): Tile(1, 0, "conveyor", dir="E")}) is b   # nothing changes
    b = edit.set_tiles(b, {(1, 0): None, (9, 9): Tile(9, 9, "pit")})            # off board ignored
    assert b.tiles == (Tile(3, 3, "pit"),)


def test_edited_scenario_equals_itself_read_back():
    s = course()
    s = edit.with_board(s, edit.set_tiles(s.board, {(5, 0): Tile(5, 0, "pit"), (0, 0): Tile(0, 0, "gear", rotation="cw")}))
    s = edit.with_board(s, edit.set_wall(s.board, 2, 2, "E", True))
    s = edit.with_board(s, edit.set_wall(s.board, 1, 2, "N", True))
    s = edit.with_board(s, edit.set_laser(s.board, Laser(4, 4, "N", 2)))
    s = edit.with_board(s, edit.set_laser(s.board, Laser(0, 1, "E")))
    assert roundtrip(s) == s


def test_flood_region_follows_same_element_only():
    b = edit.set_tiles(Board(4, 3), {(1, y): Tile(1, y, "pit") for y in range(3)})
    assert edit.flood_region(b, 0, 0) == {(0, 0), (0, 1), (0, 2)}
    assert edit.flood_region(b, 1, 1) == {(1, 0), (1, 1), (1, 2)}
    assert len(edit.flood_region(b, 3, 0)) == 6


def test_walls_fold_both_sides_of_an_edge():
    b = Board(3, 3)
    b = edit.set_wall(b, 1, 1, "N", True)
    assert b.walls == (Wall(1, 1, "N"),)
    assert edit.set_wall(b, 1, 0, "S", True) is b            # the same edge, already walled
    b2 = edit.set_wall(b, 1, 0, "S", False)                   # removed from the other side
    assert b2.walls == ()
    listed_twice = Board(3, 3, walls=(Wall(1, 1, "N"), Wall(1, 0, "S")))
    assert edit.set_wall(listed_twice, 1, 1, "N", False).walls == ()


def test_outer_walls_are_named_from_the_board():
    b = edit.set_wall(Board(3, 3), 1, 3, "N", True)           # below the board: S of (1, 2)
    assert b.walls == (Wall(1, 2, "S"),)
    assert edit.set_wall(Board(3, 3), 5, 5, "N", True).walls == ()


def test_mounted_on_finds_emitters_on_an_edge():
    b = Board(3, 3, lasers=(Laser(1, 1, "S"),), pushers=(Pusher(2, 2, "W", (1,)),))
    assert edit.mounted_on(b, 1, 0, "S") == [Laser(1, 1, "S")]
    assert edit.mounted_on(b, 2, 2, "E") == [Pusher(2, 2, "W", (1,))]
    assert edit.mounted_on(b, 0, 0, "N") == []


def test_lasers_and_pushers_replace_and_remove():
    b = edit.set_laser(Board(3, 3), Laser(1, 1, "E", 1))
    b = edit.set_laser(b, Laser(1, 1, "E", 3))
    b = edit.set_laser(b, Laser(1, 1, "N", 1))
    assert b.lasers == (Laser(1, 1, "N", 1), Laser(1, 1, "E", 3))
    assert edit.remove_laser(b, 1, 1, "E").lasers == (Laser(1, 1, "N", 1),)
    b = edit.set_pusher(b, Pusher(0, 0, "S", (1, 3)))
    b = edit.set_pusher(b, Pusher(0, 0, "E", (2,)))
    assert b.pushers == (Pusher(0, 0, "E", (2,)),)
    assert edit.remove_pusher(b, 0, 0).pushers == ()
    cleared = edit.clear_squares(edit.set_tiles(b, {(1, 1): Tile(1, 1, "pit")}), [(1, 1)])
    assert cleared.tiles == () and cleared.lasers == ()


def test_markers_insert_remove_move_and_renumber():
    s = course()
    s = edit.insert_marker(s, "flags", 1, Flag(2, 2))
    s = edit.insert_marker(s, "flags", 0, Flag(3, 3))
    assert [(f.x, f.y) for f in s.flags] == [(3, 3), (1, 1), (2, 2)]
    assert edit.marker_at(s, "flags", 2, 2) == 2
    s = edit.move_marker(s, "flags", 2, 0)
    assert [(f.x, f.y) for f in s.flags] == [(2, 2), (3, 3), (1, 1)]
    s = edit.reorder_markers(s, "flags", [2, 0, 1])
    assert [(f.x, f.y) for f in s.flags] == [(1, 1), (2, 2), (3, 3)]
    s = edit.remove_marker(s, "flags", 0)
    assert [(f.x, f.y) for f in s.flags] == [(2, 2), (3, 3)]
    s = edit.replace_marker(s, "docks", 0, Dock(1, 4, "E"))
    assert s.docks == (Dock(1, 4, "E"),)
    with pytest.raises(ValueError):
        edit.reorder_markers(s, "flags", [0, 0])


def test_resize_shifts_everything_and_drops_what_falls_off():
    s = Scenario("T", Board(4, 4, tiles=(Tile(0, 0, "pit"), Tile(3, 3, "repair")),
                        walls=(Wall(0, 1, "N"), Wall(3, 0, "S"), Wall(0, 0, "W")),
                        lasers=(Laser(3, 1, "W"),), pushers=(Pusher(1, 3, "N", (1,)),)),
                 (Flag(3, 3), Flag(1, 1)), (Dock(0, 3, "N"),),
                 robots=(RobotSpec("A", at=Placement(2, 2, "E")),),
                 checks=(Check(1, "A", expect=(("x", 2), ("y", 1), ("archive", (1, 1)))),))
    grown = transform.resize(s, left=2, top=1)
    assert (grown.board.width, grown.board.height) == (6, 5)
    assert grown.board.tile_at(2, 1).type == "pit"
    assert grown.flags == (Flag(5, 4), Flag(3, 2))
    assert grown.robots[0].at == Placement(4, 3, "E")
    assert grown.checks[0].expected == {"x": 4, "y": 2, "archive": (3, 2)}
    shrunk = transform.resize(s, left=-1, top=0, right=0, bottom=-1)       # 3x3, old x=1.. y=..2
    b = shrunk.board
    assert (b.width, b.height) == (3, 3)
    assert b.tiles == ()                                              # both tiles fell off
    assert b.walls == (Wall(2, 0, "S"),)                             # the wall W of (0,0) fell off
    assert b.lasers == (Laser(2, 1, "W"),)
    assert b.pushers == ()
    assert shrunk.flags == (Flag(0, 1),) and shrunk.docks == ()
    # A wall on the edge that becomes the outer edge keeps the form that stays on the board.
    cut = transform.resize(s, top=-1)
    assert Wall(0, 0, "N") in cut.board.walls
    assert transform.resize(s) is s
    with pytest.raises(ValueError):
        transform.resize(s, right=-4)


def test_fields_rules_and_robots():
    s = course()
    assert edit.set_fields(s, name="T") is s
    assert edit.set_fields(s, name="Pusher Alley", author="Jane").author == "Jane"
    assert edit.set_rules(s, Rules(lives=5)).rules.lives == 5
    assert edit.set_robots(s, [RobotSpec("A")]).robots == (RobotSpec("A"),)


def test_canonical_sorts_board_lists_like_the_saved_file():
    s = course(tiles=(Tile(2, 2, "pit"), Tile(0, 0, "pit")), walls=(Wall(1, 1, "W"), Wall(1, 1, "N")))
    c = edit.canonical(s)
    assert c.board.tiles == (Tile(0, 0, "pit"), Tile(2, 2, "pit"))
    assert roundtrip(c) == c
    assert dumps(c) == dumps(s)


# ---------------------------------------------------------------- regions

def region_course():
    return Scenario("T", Board(6, 6, tiles=(Tile(0, 0, "conveyor", dir="E"), Tile(1, 0, "pit"),
                                           Tile(4, 4, "repair")),
                               walls=(Wall(0, 0, "S"),)),
                    (Flag(1, 1), Flag(5, 5), Flag(3, 0)), (Dock(0, 1, "E"),))


def test_copy_and_paste_a_region():
    s = region_course()
    clip = edit.copy_region(s, (0, 0, 1, 1))
    assert (clip.board.width, clip.board.height) == (2, 2)
    assert clip.flags == (Flag(1, 1),) and clip.docks == (Dock(0, 1, "E"),)
    pasted, rect = edit.paste(s, clip, 3, 3)
    assert rect == (3, 3, 4, 4)
    b = pasted.board
    assert b.tile_at(3, 3).type == "conveyor" and b.tile_at(4, 3).type == "pit"
    assert b.tile_at(4, 4) is None                                  # replaced by the clip's floor
    assert pasted.flags[-1] == Flag(4, 4)                           # appended
    assert pasted.docks == (Dock(0, 1, "E"), Dock(3, 4, "E"))
    _, clipped = edit.paste(s, clip, 5, 5)
    assert clipped == (5, 5, 5, 5)


def test_delete_region_removes_everything_in_it():
    s = edit.delete_region(region_course(), (0, 0, 1, 1))
    assert s.board.tile_at(0, 0) is None and s.board.tile_at(1, 0) is None
    assert s.flags == (Flag(5, 5), Flag(3, 0)) and s.docks == ()


def test_move_region_keeps_numbers_and_replaces_the_target():
    s = region_course()
    moved, rect = edit.move_region(s, (0, 0, 1, 1), 2, 0)
    assert rect == (2, 0, 3, 1)
    b = moved.board
    assert b.tile_at(0, 0) is None and b.tile_at(2, 0).type == "conveyor" and b.tile_at(3, 0).type == "pit"
    # Flag 1 moved with the region and kept its number; flag 3 at (3, 0) was covered.
    assert moved.flags == (Flag(3, 1), Flag(5, 5))
    assert moved.docks == (Dock(2, 1, "E"),)


def test_turn_region_rotates_elements_and_markers():
    s = region_course()
    turned, rect = edit.turn_region(s, (0, 0, 1, 1), 1)
    b = turned.board
    assert rect == (0, 0, 1, 1)
    # Clockwise: (0, 0) -> (1, 0), (1, 0) -> (1, 1), (0, 1) -> (0, 0).
    assert b.tile_at(1, 0) == Tile(1, 0, "conveyor", dir="S")
    assert b.tile_at(1, 1).type == "pit"
    assert turned.docks == (Dock(0, 0, "S"),)
    assert turned.flags[0] == Flag(0, 1)
    mirrored, _ = edit.turn_region(s, (0, 0, 1, 1), mirror="horizontal")
    assert mirrored.board.tile_at(1, 0) == Tile(1, 0, "conveyor", dir="W")
    assert mirrored.docks == (Dock(1, 1, "W"),)
    back, _ = edit.turn_region(edit.turn_region(turned, rect, 2)[0], rect, 1)
    assert back == edit.canonical(s)


def test_moving_a_region_carries_its_walls_and_emitters():
    s = Scenario("T", Board(6, 6, walls=(Wall(1, 1, "E"),), lasers=(Laser(0, 1, "E"),),
                           pushers=(Pusher(1, 0, "S", (1, 3)),)), (Flag(5, 5),), (Dock(5, 0, "N"),))
    moved, rect = edit.move_region(s, (0, 0, 1, 1), 3, 3)
    b = moved.board
    assert rect == (3, 3, 4, 4)
    assert b.lasers == (Laser(3, 4, "E"),) and b.pushers == (Pusher(4, 3, "S", (1, 3)),)
    assert b.has_wall(4, 4, "E") and not b.has_wall(1, 1, "E")
    assert edit.canonical(moved) == moved


def test_turning_a_region_turns_its_border_walls():
    s = Scenario("T", Board(4, 4, walls=(Wall(1, 0, "E"),)), (Flag(3, 3),), (Dock(3, 0, "N"),))
    turned, _ = edit.turn_region(s, (0, 0, 1, 1), 1)
    assert turned.board.walls == (Wall(1, 1, "S"),)
