"""The 34 published courses of the 2005 course manual (engine/editing/published/,
made by scripts/published_courses.py from the board library)."""
from __future__ import annotations

import json

import pytest

from rallyforge.engine.editing import published_courses
from rallyforge.engine.format.loader import read_dict
from rallyforge.engine.validation.validator import validate_data
from scripts import published_courses as script

ENTRIES = published_courses.entries()
# The special-rules keys of the course-rules work (docs/rules.md 12 and 13):
# a course without them needs nothing more than this version plays.
NEW_KEYS = {"flags_move", "robot_laser_damage", "start_damage", "power_down", "repair_sites",
            "start_option_choice", "programming_seconds", "superbot", "board_turns_on_flag",
            "victory"}


def _doc(entry) -> dict:
    return json.loads(entry.path.read_text("utf-8"))


def test_the_library_has_the_34_courses_of_the_manual_in_its_order():
    assert len(ENTRIES) == 34
    assert [e.page for e in ENTRIES] == sorted(e.page for e in ENTRIES)
    assert ENTRIES[0].id == "risky-exchange" and ENTRIES[-1].id == "war-zone"
    assert [e.number for e in ENTRIES] == list(range(1, 35))
    ids = {e.id for e in ENTRIES}
    assert {"day-of-the-superbot", "all-for-one-or-one-for-all", "tight-collar"} <= ids
    rated = [e for e in ENTRIES if e.difficulty]
    assert len(rated) == 29
    assert sum(e.difficulty == "expert" for e in rated) == 19
    assert sum(e.length == "medium" for e in rated) == 15
    assert {e.id for e in ENTRIES if e.team} == {
        "interference", "tandem-carnage", "all-for-one-or-one-for-all", "capture-the-flag",
        "toggle-boggle", "war-zone"}


def test_the_files_are_what_the_script_makes_of_its_facts():
    assert script.main(["--check"]) == 0


def test_the_check_finds_a_file_that_was_changed(tmp_path, monkeypatch):
    for entry in ENTRIES:
        (tmp_path / entry.path.name).write_text(entry.path.read_text("utf-8"), "utf-8")
    changed = tmp_path / "checkmate.json"
    changed.write_text(changed.read_text("utf-8").replace('"x": 7, "y": 2', '"x": 7, "y": 3'))
    monkeypatch.setattr(script, "FOLDER", tmp_path)
    assert script.main(["--check"]) == 1


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_every_published_course_validates_with_no_error(entry):
    """Needs the special-rules keys (docs/rules.md 12 and 13) in the schema."""
    problems = validate_data(_doc(entry))
    assert [p.message for p in problems if p.severity == "error"] == []


@pytest.mark.parametrize("entry", [e for e in ENTRIES if not NEW_KEYS & set(_doc(e).get("rules", {}))],
                         ids=lambda e: e.id)
def test_a_course_without_special_rules_validates_once_boards_is_known(entry):
    doc = _doc(entry)
    assert doc.pop("boards")
    problems = validate_data(doc)
    assert [p.message for p in problems if p.severity == "error"] == []


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_a_course_records_its_printed_ratings_players_and_boards(entry):
    doc = _doc(entry)
    published = doc["published"]
    assert published["id"] == entry.id and published["page"] == entry.page
    assert (published.get("difficulty") is None) == (published["players"] == [4, 6, 8])
    players = published["players"]
    assert doc["goals"]["robots"] == (8 if entry.id == "interference" else
                                      6 if players[0] == 5 else 4)
    width, height = doc["board"]["width"], doc["board"]["height"]
    for b in doc["boards"]:
        assert 0 <= b["x"] and b["x"] + b["width"] <= width
        assert 0 <= b["y"] and b["y"] + b["height"] <= height
    assert len(doc["docks"]) == 8
    assert "anicolao/roborally" in doc["description"]


def test_the_printed_facts_follow_the_manual():
    by_id = {e.id: e for e in ENTRIES}
    assert (by_id["risky-exchange"].players, by_id["risky-exchange"].length,
            by_id["risky-exchange"].difficulty) == ("2-8", "medium", "easy")
    assert (by_id["death-trap"].players, by_id["death-trap"].length) == ("2-4", "short")
    assert by_id["capture-the-flag"].players == "4, 6 or 8"
    assert by_id["set-to-kill"].rules == ("robot lasers deal 2x damage",)
    assert by_id["factory-rejects"].rules == ("start with 2 damage", "no power down")
    rules = _doc(by_id["frenetic-factory"])["rules"]
    assert rules == {"board_turns_on_flag": True}


def test_a_disagreement_of_the_sources_is_named_in_the_description():
    doc = _doc(published_courses.find("frenetic-factory"))
    for n in (1, 3, 4):
        assert f"flag {n} is at" in doc["description"]
    assert "flag 2 is at" not in doc["description"]
    tight = _doc(published_courses.find("tight-collar"))["description"]
    assert "tight_collar.tmx is another layout" in tight
    agree = _doc(published_courses.find("checkmate"))["description"]
    assert "agree on the boards, bay and flags" in agree


def test_a_board_turn_follows_the_majority_of_three_sources_else_the_catalogue():
    twister = next(c for c in script.COURSES if c.id == "twister")
    assert twister.boards[0][3] == 2                        # the catalogue's half turn ...
    assert script.boards(twister)[0][3] == 0                # ... outvoted by the two others
    assert "(followed: the majority, 0)" in _doc(published_courses.find("twister"))["description"]
    around = next(c for c in script.COURSES if c.id == "around-the-world")
    assert script.boards(around)[0] == ("island", 0, 0, 0)  # three turns, no majority
    lost = next(c for c in script.COURSES if c.id == "lost-bearings")
    assert script.boards(lost)[0][3] == lost.boards[0][3]   # two sources: the catalogue


def test_the_calibration_courses_are_laid_out_as_the_library_makes_them():
    """Risky Exchange as assembled from the library: the Exchange unturned, the
    belt bay below, the flags of both sources."""
    doc = _doc(published_courses.find("risky-exchange"))
    doc.pop("boards")           # (read by the engine once the course rules know it)
    scenario, _ = read_dict(doc)
    assert scenario is not None
    assert (scenario.board.width, scenario.board.height) == (12, 16)
    assert [(f.x, f.y) for f in scenario.flags] == [(7, 1), (9, 7), (1, 4)]
    assert scenario.published is not None and scenario.published.difficulty == "easy"


def test_an_unknown_id_is_refused_with_the_way_to_the_list():
    with pytest.raises(published_courses.PublishedError, match="rallyforge published"):
        published_courses.find("no-such-course")
