"""Team courses in the file (docs/format.md Teams): keys read and written
back, the seating rule, and the validator's E340-E345 and W440."""
from __future__ import annotations

import pytest

from rallyforge.engine.format.loader import dumps, load_dict, to_dict
from rallyforge.engine.model.scenario import Seat
from rallyforge.engine.validation.validator import validate_data


def course(**keys) -> dict:
    doc = {"format": "rally-scenario", "version": 1, "name": "t",
           "board": {"width": 6, "height": 6}, "flags": [{"x": 5, "y": 5}],
           "docks": [{"x": x, "y": 0, "facing": "S"} for x in range(4)]}
    doc.update(keys)
    return doc


def codes(doc: dict) -> list[str]:
    return [p.code for p in validate_data(doc) if p.code[1:3] in ("34", "44")]


def test_team_keys_are_read_and_written_back():
    doc = course(rules={"victory": "capture"}, goals={"team_size": 2},
                 teams=[{"name": "Red", "docks": [1, 3], "roles": ["racer", "racer"],
                         "home": {"x": 0, "y": 0, "width": 3, "height": 6}},
                        {"name": "Blue", "docks": [2, 4],
                         "home": {"x": 3, "y": 0, "width": 3, "height": 6}}],
                 flags=[{"x": 1, "y": 5}, {"x": 4, "y": 5}],
                 robots=[{"name": "Bo", "team": "Red", "role": "racer"}])
    s = load_dict(doc)
    assert s.rules.victory == "capture" and s.goals.team_size == 2
    assert s.teams[0].home.contains(2, 5) and not s.teams[0].home.contains(3, 5)
    assert (s.robots[0].team, s.robots[0].role) == ("Red", "racer")
    again = to_dict(s)
    assert again["teams"] == doc["teams"] and again["robots"][0]["team"] == "Red"
    assert load_dict(again) == s
    assert "victory" not in to_dict(load_dict(course()))       # the default is left out
    assert '"teams"' not in dumps(load_dict(course()))


def test_seats_alternate_round_the_docks_and_players_race_then_block():
    s = load_dict(course(rules={"victory": "team_any"}))
    assert [seat.team for seat in s.seats(4)] == ["Red", "Blue", "Red", "Blue"]
    player = load_dict(course(rules={"victory": "player"}))
    assert player.seats(4) == (Seat("Red"), Seat("Blue"), Seat("Red", "blocker"),
                               Seat("Blue", "blocker"))
    three = load_dict(course(rules={"victory": "team_any"}, goals={"team_size": 1}))
    assert [seat.team for seat in three.seats(3)] == ["Red", "Blue", "Green"]
    listed = load_dict(course(rules={"victory": "team_any"},
                              teams=[{"name": "A", "docks": [1, 2]}, {"name": "B", "docks": [3, 4]}]))
    assert [seat.team for seat in listed.seats(4)] == ["A", "A", "B", "B"]
    plain = load_dict(course())
    assert plain.seats(2) == (Seat(None), Seat(None)) and not plain.team_race


@pytest.mark.parametrize("keys, code, words", [
    ({"rules": {"victory": "team_any"}, "goals": {"robots": 3}}, "E340", "2 or more teams"),
    ({"rules": {"victory": "team_any"}, "goals": {"robots": 3, "team_size": 1}}, "E340",
     "team Red has 1 robot"),
    ({"rules": {"victory": "team_any"}, "goals": {"robots": 4}}, None, None),
    ({"rules": {"victory": "team_progress"},
      "teams": [{"name": "A", "docks": [1, 2, 3]}, {"name": "B", "docks": [4]}]},
     "E340", "team B has 1 robot"),
    ({"robots": [{"name": "a", "role": "blocker"}, {"name": "b"}]}, "E341", "make them racers"),
    ({"rules": {"victory": "team_any"},
      "teams": [{"name": "A", "docks": [1, 2], "roles": ["racer", "blocker"]},
                {"name": "B", "docks": [3, 4]}]}, "E341", "victory \"player\""),
    ({"rules": {"victory": "capture"}}, "E342", "home board"),
    ({"rules": {"victory": "elimination"}}, "E343", "remove them"),
    ({"rules": {"victory": "elimination"}, "flags": []}, None, None),
    ({"rules": {"victory": "team_any"},
      "teams": [{"name": "A", "docks": [1, 2]}, {"name": "B", "docks": [2, 5]}]},
     "E344", "dock 2 is in team A and in team B"),
    ({"rules": {"victory": "player"},
      "teams": [{"name": "A", "docks": [1, 2]}, {"name": "B", "docks": [3, 4]}]},
     "E345", "has 2 racers"),
    ({"teams": [{"name": "A", "docks": [1, 2]}]}, "W440", "set rules.victory"),
    ({"rules": {"victory": "player"}}, None, None),
])
def test_a_course_that_cannot_be_played_as_written_says_how_to_fix_it(keys, code, words):
    problems = [p for p in validate_data(course(**keys)) if p.code[1:3] in ("34", "44")]
    if code is None:
        assert problems == []
    else:
        assert code in [p.code for p in problems]
        assert any(words in p.message for p in problems if p.code == code), problems


def test_capture_needs_one_flag_on_each_home_board():
    teams = [{"name": "Red", "docks": [1, 3], "home": {"x": 0, "y": 0, "width": 3, "height": 6}},
             {"name": "Blue", "docks": [2, 4], "home": {"x": 3, "y": 0, "width": 3, "height": 6}}]
    assert codes(course(rules={"victory": "capture"}, teams=teams)) == ["E342"]
    assert codes(course(rules={"victory": "capture"}, teams=teams,
                        flags=[{"x": 1, "y": 5}, {"x": 4, "y": 5}])) == []


def test_seats_go_round_the_docks_in_use_whatever_the_robot_order():
    s = load_dict(course(rules={"victory": "player"},
                         docks=[{"x": x, "y": 0, "facing": "S"} for x in range(6)]))
    from dataclasses import replace
    from rallyforge.engine.model.scenario import RobotSpec
    rotated = replace(s, robots=tuple(RobotSpec(f"R{d}", dock=d) for d in (4, 5, 2, 3)))
    assert rotated.seats() == (Seat("Red", "blocker"), Seat("Blue", "blocker"), Seat("Red"),
                               Seat("Blue"))
