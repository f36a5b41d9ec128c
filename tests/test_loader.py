"""Loading scenario files into the model and saving them back."""
from __future__ import annotations

import dataclasses
import json
import os
import stat
from pathlib import Path

import pytest

from rallyforge.engine.format import loader
from rallyforge.engine.format.loader import (MAX_FILE_BYTES, dumps, load_dict, load_file, read_dict, read_file,
                                  read_json, save_file, to_dict)
from rallyforge.engine.model.element_kinds import EDGE_LIST, TILE_LIST, new_tile
from rallyforge.engine.model.problems import ScenarioError
from rallyforge.engine.model.scenario import (Board, Card, Check, Dock, Entry, Flag, Laser, Level, Placement,
                                   ProgramRound, Pusher, RobotSpec, Rules, Scenario, Tile)
from rallyforge.engine.validation.validator import validate_data

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SCENARIOS = sorted((ROOT / "scenarios").glob("*.json"))


def loadable_files() -> list[Path]:
    """Every example scenario and every fixture that loads."""
    out = list(SCENARIOS)
    for path in sorted(FIXTURES.glob("*/*.json")):
        try:
            load_file(path)
        except ScenarioError:
            continue
        out.append(path)
    return out


LOADABLE = loadable_files()


def minimal(**extra) -> dict:
    doc = {
        "format": "rally-scenario", "version": 1, "name": "Minimal",
        "board": {"width": 6, "height": 5},
        "flags": [{"x": 4, "y": 1}],
        "docks": [{"x": 0, "y": 4, "facing": "N"}, {"x": 1, "y": 4, "facing": "E"}],
    }
    doc.update(extra)
    return doc


# ---------------------------------------------------------------- loading

def test_minimal_file_loads_with_defaults():
    s = load_dict(minimal())
    assert s.name == "Minimal"
    assert (s.board.width, s.board.height) == (6, 5)
    assert s.board.tiles == s.board.walls == s.board.lasers == s.board.pushers == ()
    assert s.rules == Rules()
    assert s.rules.lives == 3 and s.rules.hand_size == 9 and s.rules.finish == "first"
    assert s.robots == () and s.checks == ()
    assert s.author is None and s.description is None and s.note is None
    assert [(d.x, d.y, d.facing) for d in s.docks] == [(0, 4, "N"), (1, 4, "E")]
    assert s.board.type_at(3, 3) == "floor" and s.board.tile_at(3, 3) is None


def test_element_defaults_are_filled():
    data = minimal(robots=[{"name": "Zoom", "program": [["move1", "right:80"]]}], rules={"lives": 5})
    data["board"]["tiles"] = [{"x": 1, "y": 1, "type": "conveyor", "dir": "E"},
                              {"x": 2, "y": 1, "type": "crusher", "phases": [2, 4]}]
    data["board"]["lasers"] = [{"x": 3, "y": 3, "dir": "W"}]
    s = load_dict(data)
    belt, crusher = s.board.tiles
    assert belt == Tile(1, 1, "conveyor", dir="E", express=False)
    assert crusher.phases == (2, 4)
    assert s.board.lasers == (Laser(3, 3, "W", beams=1),)
    robot = s.robots[0]
    assert isinstance(robot, RobotSpec)
    assert (robot.dock, robot.at, robot.damage, robot.lives, robot.flags, robot.powered_down) == \
        (None, None, None, None, 0, False)
    assert robot.start_damage(s.rules) == 0        # no damage of its own: the rules' start_damage
    assert [str(c) for c in robot.program[0].cards] == ["move1", "right:80"]
    assert robot.program[0].cards[0].card.priority is None
    assert s.rules.lives == 5 and s.rules.max_rounds == 100
    assert s.robot_start(0) == (0, 4, "N")            # its place in the list: dock 1


def test_walls_are_folded_with_laser_and_pusher_walls():
    data = minimal()
    data["board"]["walls"] = [{"x": 2, "y": 2, "side": "N"}, {"x": 0, "y": 0, "side": "W"}]
    data["board"]["lasers"] = [{"x": 4, "y": 3, "dir": "E", "beams": 2}]
    data["board"]["pushers"] = [{"x": 3, "y": 0, "dir": "S", "phases": [1, 3, 5]}]
    b = load_dict(data).board
    assert b.has_wall(2, 2, "N") and b.has_wall(2, 1, "S")      # one edge, two names
    assert not b.has_wall(2, 2, "S")
    assert b.blocked(2, 2, 0) and b.blocked(2, 1, 2)
    assert b.has_wall(4, 3, "W") and b.has_wall(3, 3, "E")      # the laser hangs on its W side
    assert b.blocked(3, 3, 1) and b.blocked(4, 3, 3)
    assert b.has_wall(3, 0, "N") and b.blocked(3, 0, 0)         # the pusher's, on the outer edge
    assert b.has_wall(0, 0, "W") and b.blocked(0, 0, 3)
    assert not b.blocked(4, 3, 1)                               # the beam side is open


def test_scenario_error_carries_every_problem():
    data = minimal()
    data["flags"] = [{"x": 9, "y": 1}, {"x": 2, "y": 2}, {"x": 2, "y": 2}]   # E201, E203
    data["board"]["tiles"] = [{"x": 1, "y": 1, "type": "pit"}, {"x": 1, "y": 1, "type": "water"}]
    data["docks"].append({"x": 5, "y": 4, "facing": "up"})                   # schema
    with pytest.raises(ScenarioError) as caught:
        load_dict(data)
    found = {p.code for p in caught.value.problems}
    assert {"E201", "E202", "E203"} <= found
    assert any(p.code.startswith("E1") and p.pointer.startswith("/docks/2")
               for p in caught.value.problems)
    assert len(caught.value.problems) >= 4
    assert "more" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_read_dict_keeps_what_it_can():
    data = minimal()
    data["flags"] = [{"x": 4, "y": 1}, {"x": 2, "y": "two"}, {"x": 2, "y": 2}]
    scenario, problems = read_dict(data)
    assert [(f.x, f.y) for f in scenario.flags] == [(4, 1), (2, 2)]
    assert problems and all(p.pointer.startswith("/flags/1") for p in problems)


@pytest.mark.parametrize("data", [None, 3, "x", [], {}, {"board": []}, {"flags": "all"}])
def test_read_dict_never_raises(data):
    scenario, problems = read_dict(data)
    assert problems
    with pytest.raises(ScenarioError):
        load_dict(data)


def test_robot_off_board_pointer_is_the_files():
    data = minimal(robots=[{"name": 5}, {"name": "B", "at": {"x": 9, "y": 9, "facing": "N"}}])
    _, problems = read_dict(data)
    off = [p for p in problems if p.code == "E201"]
    assert [p.pointer for p in off] == ["/robots/1/at"]


@pytest.mark.parametrize("value", [1e400, -1e400, float("nan"), 10 ** 400])
def test_non_finite_and_huge_numbers_are_problems(value):
    data = minimal()
    data["board"]["width"] = value
    data["flags"][0]["x"] = value
    with pytest.raises(ScenarioError):
        load_dict(data)


# ---------------------------------------------------------------- reading files

def test_read_json_reports_each_kind_of_unreadable_file(tmp_path):
    assert read_json(tmp_path / "missing.json")[1][0].code == "E001"
    assert read_json(tmp_path)[1][0].code == "E001"
    assert read_json(FIXTURES / "unreadable" / "not-utf8.json")[1][0].code == "E002"
    assert read_json(FIXTURES / "unreadable" / "not-json.json")[1][0].code == "E003"
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    data, problems = read_json(big)
    assert data is None and problems[0].code == "E004" and "10 MB" in problems[0].message
    for path in (tmp_path / "missing.json", FIXTURES / "unreadable" / "not-utf8.json"):
        with pytest.raises(ScenarioError):
            load_file(path)
        assert read_file(path)[0] is None


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(minimal()).encode())
    assert load_file(path).name == "Minimal"


# ---------------------------------------------------------------- saving

def notes(value: object) -> set[str]:
    """Every note in a model, at any depth."""
    found: set[str] = set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            inner = getattr(value, f.name)
            if f.name.endswith("note") and inner is not None:
                found.add(inner)
            else:
                found |= notes(inner)
    elif isinstance(value, (tuple, list)):
        for item in value:
            found |= notes(item)
    return found


@pytest.mark.parametrize("path", LOADABLE, ids=[f"{p.parent.name}/{p.name}" for p in LOADABLE])
def test_round_trip(path, tmp_path):
    """load -> save -> load gives the same course (the README says so),
    whatever order the file lists the board's elements in; from then on
    saving is stable to the byte."""
    first = load_file(path)
    save_file(first, tmp_path / "saved.json")
    again = load_file(tmp_path / "saved.json")
    assert again == first
    save_file(again, tmp_path / "again.json")
    assert load_file(tmp_path / "again.json") == again
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "saved.json").read_bytes()


def reversed_board(data: dict) -> dict:
    """The document with every list of its board in the reverse order."""
    board = {key: value[::-1] if isinstance(value, list) else value
             for key, value in data["board"].items()}
    return dict(data, board=board)


@pytest.mark.parametrize("path", LOADABLE, ids=[f"{p.parent.name}/{p.name}" for p in LOADABLE])
def test_the_order_a_file_lists_the_board_in_changes_nothing(path):
    """Tiles, walls, lasers, pushers and levels listed in any order: the same
    course, and each problem still points at the element it is about."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert load_dict(reversed_board(data)) == load_dict(data)
    for p in validate_data(reversed_board(data)):
        parts = p.pointer.split("/")
        if parts[1:2] == ["board"] and len(parts) == 4 and p.x is not None:
            element = reversed_board(data)["board"][parts[2]][int(parts[3])]
            assert (element["x"], element["y"]) == (p.x, p.y), p


def every_element_with_a_note() -> Scenario:
    """A course with one of each tile type, edge element, level, marker,
    robot placement, program round, check and rule set, each with its note."""
    tiles = tuple(new_tile(i % 10, i // 10, t.name, note=f"{t.name} tile")
                  for i, t in enumerate(TILE_LIST))
    edges = {e.list: (e.model(i, 8, **{k.name: k.new for k in e.keys}, note=f"{e.name} edge"),)
             for i, e in enumerate(EDGE_LIST)}
    board = Board(10, 10, tiles, **edges, note="the board",
                  levels=(Level(9, 9, 2, note="a level"),))
    program = (ProgramRound((Entry(Card("move1", 500)), Entry(Card("uturn"))), power_down=True,
                            note="a round"),)
    robots = (RobotSpec("A", dock=1, program=program, note="robot A"),
              RobotSpec("B", at=Placement(5, 9, "W", note="B's start")))
    checks = (Check(1, "A", register=2, expect=(("x", 1), ("archive", (0, 9))), note="a check",
                    archive_note="its archive"),)
    return Scenario("Notes everywhere", board, (Flag(0, 5, "a flag"),),
                    (Dock(0, 9, "N", "a dock"),), rules=Rules(lives=4, note="the rules"),
                    robots=robots, checks=checks, author="Jane", description="All of it",
                    note="the course")


def test_round_trip_keeps_a_note_on_every_element_type(tmp_path):
    first = every_element_with_a_note()
    wanted = ({f"{t.name} tile" for t in TILE_LIST} | {f"{e.name} edge" for e in EDGE_LIST}
              | {"the board", "a level", "a round", "robot A", "B's start", "a check",
                 "its archive", "a flag", "a dock", "the rules", "the course"})
    assert notes(first) == wanted
    save_file(first, tmp_path / "notes.json")
    again = load_file(tmp_path / "notes.json")
    assert notes(again) == wanted
    assert again == dataclasses.replace(first, board=first.board.canonical())


def test_round_trip_keeps_every_kind_of_value():
    data = minimal(author="Jane", description="All of it", note="top",
                   rules={"lives": 4, "finish": "all", "robot_lasers": False, "note": "r"},
                   robots=[{"name": "A", "dock": 2, "damage": 3, "lives": 2, "flags": 1,
                            "options": 1, "powered_down": True, "bot": "search", "note": "n",
                            "program": [["move1:500"], {"cards": ["uturn"], "power_down": True}]},
                           {"name": "B", "at": {"x": 2, "y": 2, "facing": "W", "note": "here"}}],
                   checks=[{"round": 1, "register": 2, "robot": "A", "x": 1, "y": None,
                            "alive": True, "archive": {"x": 0, "y": 4, "note": "a"}, "note": "c"}])
    data["board"].update(note="b", tiles=[{"x": 5, "y": 0, "type": "gear", "rotation": "ccw", "note": "g"},
                                          {"x": 0, "y": 0, "type": "conveyor", "dir": "S",
                                           "express": True}],
                         walls=[{"x": 1, "y": 1, "side": "E", "note": "w"}],
                         pushers=[{"x": 2, "y": 0, "dir": "S", "phases": [2, 4]}])
    first = load_dict(data)
    again = load_dict(json.loads(dumps(first)))
    assert again == first
    assert load_dict(json.loads(dumps(again))) == again
    assert again.robots[0].program[1] == ProgramRound((Entry(Card("uturn")),), power_down=True)
    assert again.checks[0].expected["y"] is None and again.board.note == "b"


ALL_FILES = SCENARIOS + sorted(FIXTURES.glob("invalid/*.json")) + sorted(FIXTURES.glob("warnings/*.json"))


@pytest.mark.parametrize("path", ALL_FILES, ids=[f"{p.parent.name}/{p.name}" for p in ALL_FILES])
def test_schema_and_loader_agree(path):
    """A file the schema accepts is built whole: the loader drops only what
    it names (off the board, two on a square); one it rejects does not load."""
    from rallyforge.engine.format.schema import schema_problems
    from tests.test_mutation import silently_dropped
    data = json.loads(path.read_text(encoding="utf-8"))
    if schema_problems(data):
        with pytest.raises(ScenarioError):
            load_dict(data)
    else:
        assert silently_dropped(data) == []


def test_canonical_text_is_sorted_and_stable():
    data = minimal()
    data["board"]["tiles"] = [{"x": 3, "y": 2, "type": "pit"}, {"x": 1, "y": 0, "type": "water"}]
    text = dumps(load_dict(data))
    assert text.endswith("\n")
    doc = json.loads(text)
    assert [(t["x"], t["y"]) for t in doc["board"]["tiles"]] == [(1, 0), (3, 2)]
    assert list(doc)[:3] == ["format", "version", "name"]
    assert dumps(load_dict(json.loads(text))) == text


def test_save_is_atomic_and_leaves_no_temporary_file(tmp_path):
    scenario = load_dict(minimal())
    target = tmp_path / "course.json"
    save_file(scenario, target)
    assert load_file(target) == scenario
    assert os.listdir(tmp_path) == ["course.json"]


def test_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "course.json"
    target.write_text("old contents", encoding="utf-8")

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(loader.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        save_file(load_dict(minimal()), target)
    assert target.read_text(encoding="utf-8") == "old contents"
    assert os.listdir(tmp_path) == ["course.json"]


def test_failed_rename_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "course.json"
    target.write_text("old contents", encoding="utf-8")

    def broken_replace(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(loader.os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_file(load_dict(minimal()), target)
    assert target.read_text(encoding="utf-8") == "old contents"
    assert os.listdir(tmp_path) == ["course.json"]


def test_pusher_and_laser_defaults_survive_saving():
    data = minimal()
    data["board"]["pushers"] = [{"x": 2, "y": 2, "dir": "N", "phases": [5]}]
    data["board"]["lasers"] = [{"x": 1, "y": 1, "dir": "S"}]
    s = load_dict(data)
    doc = to_dict(s)
    assert doc["board"]["lasers"] == [{"x": 1, "y": 1, "dir": "S", "beams": 1}]
    assert load_dict(doc).board.pushers == (Pusher(2, 2, "N", (5,)),)


def test_read_json_tells_json_null_from_an_unreadable_file(tmp_path):
    path = tmp_path / "null.json"
    path.write_text("null", encoding="utf-8")
    assert read_json(path) == (None, [])
    assert read_json(tmp_path / "missing.json")[0] is None
    assert read_json(tmp_path / "missing.json")[1]
    scenario, problems = read_file(path)
    assert scenario is None and [p.code for p in problems] == ["E101"]
    with pytest.raises(ScenarioError):
        load_file(path)


# ---------------------------------------------------------------- writing files

def _small() -> Scenario:
    return load_dict(minimal())


def test_saving_through_a_link_writes_its_target_and_keeps_the_link(tmp_path):
    target = tmp_path / "real" / "course.json"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "course.json"
    link.symlink_to(target)
    save_file(_small(), link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert load_file(target) == _small()
    assert sorted(p.name for p in target.parent.iterdir()) == ["course.json"]


def test_saving_never_replaces_what_is_not_a_regular_file(tmp_path):
    pipe = tmp_path / "course.json"
    os.mkfifo(pipe)
    with pytest.raises(OSError) as caught:
        save_file(_small(), pipe)
    assert "not a regular file" in str(caught.value.strerror)
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["course.json"]      # no temporary left


def test_a_new_file_gets_the_umask_mode_and_the_umask_is_never_changed(tmp_path, monkeypatch):
    umask = os.umask(0o027)
    try:
        def changed(mask):
            raise AssertionError("the umask was changed (threads share it)")
        monkeypatch.setattr(os, "umask", changed)
        save_file(_small(), tmp_path / "new.json")
        assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640
        (tmp_path / "kept.json").write_text("x", encoding="utf-8")
        os.chmod(tmp_path / "kept.json", 0o604)
        save_file(_small(), tmp_path / "kept.json")
        assert stat.S_IMODE((tmp_path / "kept.json").stat().st_mode) == 0o604
    finally:
        monkeypatch.undo()
        os.umask(umask)


def test_a_board_hashes_as_its_fields_in_every_process():
    """A board remembers its hash (caches keyed by boards hash them race
    after race): the hash of its fields, as the dataclass's own, equal for
    an equal board listed in another order, and computed afresh in a
    process a board is sent to (string hashes differ between processes)."""
    import pickle
    import subprocess
    import sys
    board = load_file(ROOT / "scenarios" / "standard-course.json").board
    fields = tuple(getattr(board, f.name) for f in dataclasses.fields(board))
    assert hash(board) == hash(fields) == hash(board)
    shuffled = dataclasses.replace(board, tiles=board.tiles[::-1]).canonical()
    assert shuffled == board and shuffled is not board and hash(shuffled) == hash(board)
    sent = pickle.dumps(board)
    check = ("import dataclasses, pickle, sys\n"
             "b = pickle.loads(sys.stdin.buffer.read())\n"
             "assert hash(b) == hash(tuple(getattr(b, f.name) for f in dataclasses.fields(b)))\n")
    for seed in ("1", "2"):
        subprocess.run([sys.executable, "-c", check], input=sent, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed})
