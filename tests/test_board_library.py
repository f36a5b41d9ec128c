"""The board library (engine/editing/boards/, engine/editing/library.py) and
`rallyforge assemble`: every board validates and renders, the README shows
each, and assembled courses have the boards where they were asked for."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge.editor.board_library import thumbnail
from rallyforge.engine.analysis.balance import compiled, play
from rallyforge.engine.cli.main import main
from rallyforge.engine.editing import library
from rallyforge.engine.editing.transform import rotate_board, rotate_point
from rallyforge.engine.format.loader import to_dict
from rallyforge.engine.model.scenario import Dock, Flag
from rallyforge.engine.rules.reach import reachable_from
from rallyforge.engine.validation.validator import read_valid_file, validate_data

ROOT = Path(__file__).resolve().parents[1]
FILES = library.board_files()
BOARDS = [p for p in FILES if not library.is_bay(p)]
BAYS = [p for p in FILES if library.is_bay(p)]


def test_the_library_has_the_boards_and_bays_of_the_open_conversions():
    assert {p.stem for p in BOARDS} == {"chess", "chop-shop", "cross", "exchange", "island",
                                        "maelstrom", "spin-zone", "vault"}
    assert {p.stem for p in BAYS} == {"docking-bay-1", "docking-bay-2"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_library_board_validates_names_its_source_and_renders(qapp, path):
    scenario, problems = read_valid_file(path)
    assert scenario is not None
    assert [p for p in problems if not p.accepted] == []
    assert "Blodige-roboter" in scenario.author and "MIT" in scenario.author
    assert "Cross-checked against" in scenario.description
    b = scenario.board
    assert (b.width, b.height) == ((12, 4) if library.is_bay(path) else (12, 12))
    image = thumbnail(path, square_px=4)
    assert not image.isNull()
    colours = {image.pixel(x, y) for x in range(0, image.width(), 3)
               for y in range(0, image.height(), 3)}
    assert len(colours) > 3            # a picture, not a blank


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_readme_lists_every_board_with_its_thumbnail(path):
    readme = (ROOT / "README.md").read_text("utf-8")
    assert f"docs/boards/{path.stem}.png" in readme
    assert (ROOT / "docs" / "boards" / f"{path.stem}.png").exists()


def _load(stem: str):
    return library.load(library.find(stem))


def test_assembling_two_boards_side_by_side_with_a_bay_keeps_only_the_bays_docks():
    chess, cross, bay = _load("chess"), _load("cross"), _load("docking-bay-1")
    course = library.assemble([(chess, 0), (cross, 1)], (bay, 0), "side", "Test")
    b = course.board
    assert (b.width, b.height) == (24, 16)
    assert course.flags == ()
    assert course.docks == tuple(Dock(d.x, d.y + 12, d.facing) for d in bay.docks)
    turned = rotate_board(cross.board, 1)
    right = {(t.x - 12, t.y, t.type, t.dir) for t in b.tiles if t.x >= 12 and t.y < 12}
    assert right == {(t.x, t.y, t.type, t.dir) for t in turned.tiles}
    left = {(t.x, t.y, t.type, t.dir) for t in b.tiles if t.x < 12 and t.y < 12}
    assert left == {(t.x, t.y, t.type, t.dir) for t in chess.board.tiles}


@pytest.mark.parametrize("arrangement, count, size", [
    ("stack", 2, (12, 28)), ("grid", 4, (24, 28)), ("side", 3, (36, 16))])
def test_each_arrangement_lays_the_boards_out_as_named(arrangement, count, size):
    boards = [(_load(s), 0) for s in ("vault", "island", "exchange", "chess")[:count]]
    course = library.assemble(boards, (_load("docking-bay-2"), 0), arrangement, "T")
    assert (course.board.width, course.board.height) == size
    assert len(course.docks) == 8


def test_a_grid_needs_four_boards_and_a_board_must_exist():
    with pytest.raises(library.LibraryError, match="four boards"):
        library.assemble([(_load("chess"), 0)], None, "grid", "T")
    with pytest.raises(library.LibraryError, match="no board 'nowhere'"):
        library.find("nowhere")


def test_the_assemble_command_writes_a_course_that_validates(tmp_path, capsys):
    out = tmp_path / "course.json"
    assert main(["assemble", "chess", "cross:90", "--bay", "docking-bay-1",
                 "--flag", "16,3", "--flag", "4,5", "-o", str(out)]) == 0
    course, problems = read_valid_file(out)
    assert course is not None and not [p for p in problems if p.is_error]
    assert (course.board.width, course.board.height) == (24, 16)
    assert [(f.x, f.y) for f in course.flags] == [(16, 3), (4, 5)]


def test_the_assemble_command_without_flags_says_they_are_to_come(tmp_path, capsys):
    out = tmp_path / "course.json"
    assert main(["assemble", "island", "--bay", "docking-bay-2", "-o", str(out)]) == 0
    assert "no flags yet" in capsys.readouterr().err
    data = json.loads(out.read_text())
    assert data["flags"] == [] and len(data["docks"]) == 8


@pytest.mark.parametrize("argv, code, words", [
    (["assemble", "atlantis", "-o", "X"], 1, "no board 'atlantis'"),
    (["assemble", "chess:45", "-o", "X"], 2, "the turn is 0, 90, 180 or 270"),
    (["assemble", "chess", "--flag", "40,1", "-o", "X"], 1, "off the 12 x 12 board"),
])
def test_the_assemble_command_refuses_bad_input_clearly(tmp_path, capsys, argv, code, words):
    argv = [a if a != "X" else str(tmp_path / "x.json") for a in argv]
    if code == 2:
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
    else:
        assert main(argv) == 1
    assert re.search(re.escape(words), capsys.readouterr().err)
    assert not (tmp_path / "x.json").exists()


def test_the_assembled_course_races_and_has_a_card(tmp_path, capsys):
    out = tmp_path / "course.json"
    main(["assemble", "exchange", "island", "--bay", "docking-bay-1", "--flag", "11,4",
          "--flag", "16,6", "-o", str(out)])
    course, problems = read_valid_file(out)
    assert course is not None and not [p for p in problems if p.is_error]
    assert main(["card", str(out), "--races", "8", "--robots", "2"]) == 0
    assert "Length" in capsys.readouterr().out


def test_the_sources_are_settled_by_their_majority_and_each_disagreement_is_said():
    from rallyforge.engine.model.scenario import Board, Tile, Wall
    from scripts.board_library import elements, settle
    ours = Board(3, 3, tiles=(Tile(0, 0, "pit"),), walls=(Wall(1, 1, "N"),))
    second = Board(3, 3, tiles=(Tile(0, 0, "repair"),), walls=(Wall(1, 1, "N"), Wall(2, 2, "W")))
    third = Board(3, 3, tiles=(Tile(0, 0, "repair"),))
    board, notes = settle(ours, [elements(b) for b in (ours, second, third)], ["a", "b", "c"])
    assert board.tiles == (Tile(0, 0, "repair"),)              # two sources against one
    assert board.walls == (Wall(1, 1, "N"),)                   # idem; (2, 2) W only in one
    assert len(notes) == 3 and notes[0].endswith("(followed: repair at (0, 0))")
    tie, tie_notes = settle(ours, [elements(b) for b in (ours, third)], ["a", "c"])
    assert tie.tiles == (Tile(0, 0, "pit"),) and len(tie_notes) == 2   # a tie keeps the map


def test_the_library_files_are_what_the_sources_give(capsys):
    """Rebuilds every board from the fetched snapshots, when they are on this machine."""
    from scripts import board_library
    if not (board_library.BLODIGE.exists() and board_library.GBAHNS.exists()):
        pytest.skip("the snapshots of the sources are not on this machine")
    assert board_library.main(["--check"]) == 0


def test_the_table_beside_a_narrower_bay_is_no_floor_for_robots(tmp_path, capsys):
    """README's `assemble chess cross --bay docking-bay-1`: the 12 x 4 beside
    the bay is void, which no robot reaches alive, no flag may stand on, and
    both engines race alike."""
    out = tmp_path / "course.json"
    assert main(["assemble", "chess", "cross", "--bay", "docking-bay-1", "--flag", "16,3",
                 "-o", str(out)]) == 0
    assert "1 flag\n" in capsys.readouterr().err
    course, _ = read_valid_file(out)
    assert course is not None
    b = course.board
    beside_bay = {(x, y) for x in range(12, 24) for y in range(12, 16)}
    assert {(t.x, t.y) for t in b.tiles if t.type == "void"} == beside_bay
    reached = reachable_from(b, [(d.x, d.y) for d in course.docks], course.rules)
    assert (16, 3) in reached and not beside_bay & set(reached)
    on_void = replace(course, flags=(Flag(16, 13),))
    assert [p.code for p in validate_data(to_dict(on_void)) if p.is_error] == ["E301"]
    counted = replace(course, rules=replace(course.rules, options="counted"))
    if compiled.built():          # the compiled race plays it, as the Python engine does
        assert compiled.applies(counted, "search", 4)
        lineup = (1, 2, 3, 4)
        assert (compiled.race_summary(counted, 3, lineup)
                == play.engine_summary(counted, 3, lineup, "search"))


def test_belts_printed_off_a_library_board_stay_accepted_once_assembled(tmp_path, capsys):
    """A belt that runs off a board as printed is no warning to fix: turned
    and moved with its board, it stays accepted where it still runs off the
    table (here the Cross's south exits, beside the bay, into void)."""
    cross = _load("cross")
    printed = {(a.x, a.y) for a in cross.accept if a.code == "W405"}
    assert printed
    course = library.assemble([(_load("chess"), 0), (cross, 1)], (_load("docking-bay-1"), 0),
                              "side", "T")
    turned = {rotate_point(x, y, 12, 12, 1) for x, y in printed}
    assert {(a.x - 12, a.y) for a in course.accept if a.code == "W405"} == turned
    assert all(a.note.startswith("as printed on Cross") for a in course.accept)
    course = replace(course, flags=(Flag(16, 3),))
    w405 = [p for p in validate_data(to_dict(course)) if p.code == "W405"]
    assert w405 and all(p.accepted for p in w405)
    out = tmp_path / "course.json"
    assert main(["assemble", "chess", "cross:90", "--bay", "docking-bay-1", "--flag", "16,3",
                 "-o", str(out)]) == 0
    assert "W405" not in capsys.readouterr().err


def test_placing_boards_at_their_own_squares_fills_the_gaps_with_void_and_refuses_overlaps():
    chess, bay = _load("chess"), _load("docking-bay-2")
    course = library.place([(chess, 0, 0, 0), (chess, 12, 12, 1)], (bay, 24, 0, 3), "L")
    b = course.board
    assert (b.width, b.height) == (28, 24)
    void = {(t.x, t.y) for t in b.tiles if t.type == "void"}
    assert {(x, y) for x in range(12) for y in range(12, 24)} <= void      # south-west gap
    assert (13, 0) in void and (0, 13) in void and (27, 23) in void
    assert all(d.facing == "W" and d.x == 26 for d in course.docks)         # the bay turned 270
    with pytest.raises(library.LibraryError, match="overlaps"):
        library.place([(chess, 0, 0, 0), (chess, 6, 0, 0)], None, "L")
