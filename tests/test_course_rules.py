"""The special course rules superbot and board_turns_on_flag (docs/rules.md
12.9, 12.10) and the course key `boards`: each rule case fails with its rule
turned off, the validator says what is wrong with a course that uses them,
and assembling a course records its boards."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rallyforge.engine.analysis.narration import describe
from rallyforge.engine.analysis.scenario_checks import run_checks
from rallyforge.engine.cli.main import main
from rallyforge.engine.editing import library
from rallyforge.engine.editing.transform import insert_board
from rallyforge.engine.format.loader import dumps, load_dict, load_file, read_json
from rallyforge.engine.model.scenario import FactoryBoard
from rallyforge.engine.rules.race import Race
from rallyforge.engine.validation.validator import validate_data

RULES = Path(__file__).parent / "rules"
RULE_OF = {"12.9": "superbot", "12.10": "board_turns_on_flag"}
CASES = sorted(p for p in RULES.glob("12.*.json") if p.name.split("-")[0] in RULE_OF)


def test_each_rule_has_cases():
    assert {p.name.split("-")[0] for p in CASES} == set(RULE_OF)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_the_case_fails_without_its_rule(path):
    data, _ = read_json(path)
    rule = RULE_OF[path.name.split("-")[0]]
    assert data["rules"][rule] is True
    without = copy.deepcopy(data)
    without["rules"][rule] = False
    assert all(r.passed for r in run_checks(load_dict(data)))
    assert not all(r.passed for r in run_checks(load_dict(without)))


def _course(**changes) -> dict:
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 8, "height": 6, "tiles": [], "walls": [], "lasers": [], "pushers": []},
           "flags": [{"x": 2, "y": 2}, {"x": 6, "y": 2}],
           "docks": [{"x": 0, "y": 5, "facing": "N"}, {"x": 1, "y": 5, "facing": "N"}]}
    doc.update(changes)
    return doc


def _codes(doc: dict) -> list[tuple[str, str, str]]:
    return [(p.code, p.pointer, p.message) for p in validate_data(doc)]


BOARDS = [{"name": "West", "x": 0, "y": 0, "width": 4, "height": 4},
          {"name": "East", "x": 4, "y": 0, "width": 4, "height": 4, "turn": 3}]


def test_boards_load_and_save_the_same_and_change_no_race():
    doc = _course(boards=BOARDS, rules={"board_turns_on_flag": True})
    scenario = load_dict(doc)
    assert scenario.boards == (FactoryBoard("West", 0, 0, 4, 4), FactoryBoard("East", 4, 0, 4, 4, 3))
    assert load_dict(json.loads(dumps(scenario))) == scenario
    assert '"turn": 3' in dumps(scenario) and dumps(scenario).count('"turn"') == 1
    assert _codes(doc) == []
    assert dumps(load_dict(_course())).count("boards") == 0


@pytest.mark.parametrize("boards, code, words", [
    ([{"name": "Wide", "x": 2, "y": 0, "width": 8, "height": 4}], "E335",
     "factory board 'Wide' (8x4 at (2, 0)) reaches outside the 8x6 board"),
    (BOARDS + [{"name": "Over", "x": 2, "y": 2, "width": 2, "height": 2}], "E336",
     "factory boards 'West' and 'Over' overlap"),
])
def test_boards_outside_or_overlapping_are_errors(boards, code, words):
    problems = _codes(_course(boards=boards))
    assert [p[0] for p in problems] == [code] and words in problems[0][2]
    assert problems[0][1] == f"/boards/{len(boards) - 1}"


def test_a_turning_board_needs_boards_square_boards_under_flags_and_flags_on_boards():
    assert _codes(_course(rules={"board_turns_on_flag": True})) == [(
        "E337", "/rules/board_turns_on_flag",
        "board_turns_on_flag turns the factory board under a touched flag, but the course does "
        "not say which boards it is made of; list them under boards (rallyforge assemble writes "
        "them) or turn the rule off")]
    narrow = [{"name": "Narrow", "x": 0, "y": 0, "width": 4, "height": 3}]
    problems = _codes(_course(rules={"board_turns_on_flag": True}, boards=narrow))
    assert [(p[0], p[1]) for p in problems] == [("E338", "/flags/0"), ("W430", "/flags/1")]
    assert "which is 4x3: a quarter turn would not fit it" in problems[0][2]
    assert "flag 2 at (6, 2) lies on no factory board" in problems[1][2]
    assert _codes(_course(boards=narrow)) == []     # without the rule nothing turns


def test_assemble_writes_the_boards_it_lays_out(tmp_path, capsys):
    out = tmp_path / "course.json"
    assert main(["assemble", "chess:90", "cross", "--bay", "docking-bay-1:180", "--flag", "3,3",
                 "-o", str(out)]) == 0
    assert load_file(out).boards == (
        FactoryBoard("Chess", 0, 0, 12, 12, 1), FactoryBoard("Cross", 12, 0, 12, 12),
        FactoryBoard("Docking Bay 1", 0, 12, 12, 4, 2))


def test_a_grid_and_an_inserted_board_record_where_each_board_went():
    boards = [(library.load(library.find(n)), 0) for n in ("chess", "vault", "island", "exchange")]
    grid = library.assemble(boards, None, "grid", "g")
    assert [(b.name, b.x, b.y) for b in grid.boards] == [
        ("Chess", 0, 0), ("Vault", 12, 0), ("Island", 0, 12), ("Exchange", 12, 12)]
    # inserted to the west, the course grows west: the boards already there move east
    bay = library.load(library.find("docking-bay-2"))
    grown = insert_board(grid, bay, "wn", 1)
    assert grown.boards[0] == FactoryBoard("Chess", 4, 0, 12, 12)
    assert grown.boards[-1] == FactoryBoard("Docking Bay 2", 0, 0, 4, 12, 1)


def test_the_coin_decides_and_both_faces_come_up():
    """Over seeds, the West board turns exactly when the log says heads (C
    is carried north by the turned belt), and stays as it is on tails."""
    scenario = load_file(RULES / "12.10-board-turns-on-flag.json")
    faces = []
    for seed in range(12):
        race = Race(scenario, seed=seed)
        race.play_register()
        race.play_register()
        turns = [e for e in race.events if e.kind == "board_turn"]
        assert [(e.target, e.src) for e in turns] == [("West", (1, 1))]
        heads = turns[0].amount == 1
        faces.append(heads)
        assert race.outcome().robot("C").y == (1 if heads else 2)
        assert describe(turns[0]) == ("the West board turns a quarter clockwise" if heads else
                                      "the coin falls tails: the West board stays as it is")
    assert any(faces) and not all(faces)


def test_a_saved_race_gets_its_unturned_board_back():
    """A bot's look-ahead saves a race, plays a round and restores it: a board
    turned in that round turns back, for the race and its bots alike."""
    scenario = load_file(RULES / "12.10-board-turns-on-flag.json")
    race = Race(scenario, seed=0, record_events=False)
    course = race.course
    saved = race.save(within_round=True)
    race.play_register()
    assert race.course is not course and race.floor.course is race.course
    assert race.controllers[0].view.course is race.course
    race.restore(saved)
    assert race.course is course and race.floor.course is course
    assert race.controllers[0].view.board is scenario.board
    race.play_register()
    race.play_register()
    assert race.outcome().robot("C").y == 1         # the coin, drawn again, turns it again


def _walled_in(x: int, y: int) -> list[dict]:
    return [{"x": x, "y": y, "side": side} for side in "NESW"]


def test_a_flag_walled_in_as_laid_out_counts_when_its_board_can_have_turned():
    """Flag 2 at (1, 1) is walled in, but its walls belong to the West board,
    under flag 1: once flag 1 is touched West may turn, and the walls go
    round (2, 1). Walled in on a board nothing has turned yet, it is a real
    mistake: flag 1 before any touch, or flag 2 on the East board."""
    board = {"width": 8, "height": 6, "tiles": [], "walls": _walled_in(1, 1), "lasers": [],
             "pushers": []}
    turning = {"board_turns_on_flag": True}
    course = _course(board=board, flags=[{"x": 0, "y": 3}, {"x": 1, "y": 1}], boards=BOARDS)
    assert [p[0] for p in _codes(course)] == ["E312"]
    assert _codes({**course, "rules": turning}) == []
    first = {**course, "rules": turning, "flags": [{"x": 1, "y": 1}, {"x": 0, "y": 3}]}
    assert [(p[0], p[1]) for p in _codes(first)] == [("E312", "/flags/0")] * 2
    east = {**course, "rules": turning, "board": {**board, "walls": _walled_in(5, 1)},
            "flags": [{"x": 0, "y": 3}, {"x": 5, "y": 1}]}
    assert [(p[0], p[1]) for p in _codes(east)] == [("E312", "/flags/1")]


def test_under_superbot_only_dock_1_must_reach_flag_1():
    board = {"width": 8, "height": 6, "tiles": [], "walls": _walled_in(1, 5), "lasers": [],
             "pushers": []}
    course = _course(board=board, rules={"superbot": True})
    problems = _codes(course)
    assert [(p[0], p[1]) for p in problems] == [("W431", "/flags/0")]
    assert problems[0][2].startswith("flag 1 at (2, 2) cannot be reached from dock 2 at (1, 5)")
    assert "only once this dock's robot takes the title" in problems[0][2]
    swapped = {**course, "docks": course["docks"][::-1]}
    assert [(p[0], p[1]) for p in _codes(swapped)] == [("E312", "/flags/0")]
    assert [p[0] for p in _codes({**course, "rules": {}})] == ["E312"]


def test_the_words_say_what_the_rules_did(capsys):
    assert main(["run", str(RULES / "12.9-superbot-title-to-the-destroyer.json"), "--events",
                 "--words", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert " start  S starts as the SuperBot\n" in out
    assert "   1·1  the SuperBot title passes to A (who destroyed S)\n" in out
    assert main(["run", str(RULES / "12.9-superbot-double-laser-discards-damage.json"), "--events",
                 "--words", "--rounds", "1"]) == 0
    assert "1·clean  S, the SuperBot, discards its 7 damage\n" in capsys.readouterr().out
    assert main(["run", str(RULES / "12.10-board-turns-on-flag.json"), "--events", "--words",
                 "--rounds", "1"]) == 0
    assert "   1·1  the West board turns a quarter clockwise\n" in capsys.readouterr().out


def test_the_card_hash_counts_the_boards_only_where_they_turn():
    from rallyforge.engine.format.stored_course_card import play_hash

    course = load_dict(_course(boards=BOARDS))
    moved = load_dict(_course(boards=moved_boards()))
    assert play_hash(course) == play_hash(moved) == play_hash(load_dict(_course()))
    turning = {"board_turns_on_flag": True}
    assert play_hash(load_dict(_course(boards=BOARDS, rules=turning))) != \
        play_hash(load_dict(_course(boards=moved_boards(), rules=turning)))


def moved_boards() -> list[dict]:
    return [{**BOARDS[0], "width": 3, "height": 3}, BOARDS[1]]


@pytest.mark.parametrize("robots, holder", [
    ([{"name": "A", "dock": 2}, {"name": "B", "dock": 1}], "B"),
    ([{"name": "A", "dock": 3}, {"name": "B", "dock": 2}], "B"),        # dock 1 empty
    ([{"name": "A", "at": {"x": 3, "y": 3, "facing": "N"}}, {"name": "B", "dock": 2}], "B"),
    ([{"name": "A", "at": {"x": 3, "y": 3, "facing": "N"}},
      {"name": "B", "at": {"x": 4, "y": 3, "facing": "N"}}], "A"),
])
def test_the_superbot_is_the_robot_on_the_lowest_dock_in_use(robots, holder):
    docks = [{"x": 0, "y": 5, "facing": "N"}, {"x": 1, "y": 5, "facing": "N"},
             {"x": 2, "y": 5, "facing": "N"}]
    race = Race(load_dict(_course(rules={"superbot": True}, robots=robots, docks=docks)))
    assert [r.name for r in race.robots if r.superbot] == [holder]
