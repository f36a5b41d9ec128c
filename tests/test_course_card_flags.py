"""Flag difficulty (docs/rules.md, "Flag difficulty"): small boards whose
scores are counted by hand, each telling the rule from a misreading."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rallyforge.engine.analysis.course_card.flags import course_score, flag_scores
from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import load_dict

ROOT = Path(__file__).resolve().parent.parent


def course(tiles=(), walls=(), lasers=(), pushers=(), flags=((3, 3),), size=7) -> dict:
    return {"format": "rally-scenario", "version": 1, "name": "t",
            "board": {"width": size, "height": size, "tiles": list(tiles), "walls": list(walls),
                      "lasers": list(lasers), "pushers": list(pushers)},
            "flags": [{"x": x, "y": y} for x, y in flags],
            "docks": [{"x": 0, "y": size - 1, "facing": "N"}, {"x": 1, "y": size - 1, "facing": "N"}]}


def scores(doc: dict) -> list[int]:
    return [s.score for s in flag_scores(load_dict(doc))]


def test_an_open_flag_scores_nothing():
    assert scores(course()) == [0]


def test_every_neighbour_counts_diagonals_included_but_not_two_squares_away():
    pits = [{"x": 2, "y": 2, "type": "pit"}, {"x": 4, "y": 4, "type": "drain"},
            {"x": 3, "y": 1, "type": "pit"}]            # two squares north: not a neighbour
    assert scores(course(pits)) == [2 + 2]


def test_teleporter_two():
    assert scores(course([{"x": 3, "y": 4, "type": "teleporter"}])) == [2]


def test_belts_count_by_where_they_move_robots_relative_to_the_flag():
    # west of the flag (2, 3): E points at the flag, W away, N across
    toward = {"x": 2, "y": 3, "type": "conveyor", "dir": "E"}
    away = {"x": 4, "y": 3, "type": "conveyor", "dir": "E"}         # east of it, moving east
    across = {"x": 3, "y": 4, "type": "current", "dir": "W"}         # south of it, moving west
    diagonal_away = {"x": 4, "y": 4, "type": "conveyor", "dir": "S"}  # south-east, moving south
    assert scores(course([toward])) == [0]
    assert scores(course([away])) == [2]
    assert scores(course([across])) == [1]
    assert scores(course([diagonal_away])) == [2]
    assert scores(course([toward, away, across, diagonal_away])) == [5]


def test_walls_count_on_the_flags_own_sides_only():
    own = [{"x": 3, "y": 3, "side": "N"}, {"x": 4, "y": 3, "side": "W"}]   # N and E of the flag
    beside = [{"x": 2, "y": 2, "side": "S"}]                               # a neighbour's wall
    assert scores(course(walls=own)) == [4]
    assert scores(course(walls=beside)) == [0]


def test_board_edge_three_per_side_of_the_flag_on_the_edge():
    assert scores(course(flags=[(3, 0)])) == [3]        # on the north edge
    assert scores(course(flags=[(0, 0)])) == [6]        # in a corner: two sides, not 5 neighbours
    walled = [{"x": 0, "y": 0, "side": "W"}]
    assert scores(course(walls=walled, flags=[(0, 0)])) == [6 + 2]


def test_a_laser_counts_once_when_its_beam_crosses_the_flag_or_it_hangs_next_to_it():
    far = {"x": 3, "y": 6, "dir": "N"}          # fires north through the flag from 3 squares away
    blocked = {"x": 0, "y": 3, "dir": "E"}      # fires east, stopped by a wall before the flag
    near = {"x": 2, "y": 2, "dir": "W"}         # next to the flag, firing away from it
    wall = [{"x": 2, "y": 3, "side": "E"}]
    assert scores(course(lasers=[far])) == [1]
    assert scores(course(lasers=[blocked], walls=wall)) == [2]     # the wall (flag's W side) only
    assert scores(course(lasers=[near])) == [1]


def test_pushers_on_the_flag_or_a_neighbour_one_each():
    pushers = [{"x": 2, "y": 3, "dir": "E", "phases": [1, 3, 5]},
               {"x": 3, "y": 0, "dir": "S", "phases": [2, 4]}]      # too far
    # the pusher at (2, 3) hangs on its west wall: not a side of the flag
    assert scores(course(pushers=pushers)) == [1]


def test_a_hand_counted_flag_and_the_course_mean():
    doc = course(tiles=[{"x": 4, "y": 2, "type": "pit"}, {"x": 2, "y": 3, "type": "conveyor",
                                                          "dir": "W"}],
                 walls=[{"x": 3, "y": 3, "side": "S"}],
                 lasers=[{"x": 6, "y": 3, "dir": "W"}],
                 flags=[(3, 3), (6, 0)])
    # flag 1: pit 2 + conveyor away 2 + wall S 2 + laser through it 1 = 7
    # flag 2: north and east edges 3 + 3 = 6
    s = flag_scores(load_dict(doc))
    assert [x.score for x in s] == [7, 6]
    assert course_score(s) == pytest.approx(6.5)


def test_validate_json_gives_an_info_entry_per_flag(capsys):
    path = ROOT / "scenarios" / "standard-course.json"
    assert main(["validate", "--format", "json", str(path)]) == 0
    infos = [p for p in json.loads(capsys.readouterr().out) if p["severity"] == "info"]
    expected = flag_scores(load_dict(json.loads(path.read_text())))
    assert [(p["x"], p["y"]) for p in infos] == [(s.x, s.y) for s in expected]
    assert all(p["code"] == "I501" for p in infos)
    assert infos[2]["message"].startswith(f"flag 3 difficulty {expected[2].score}")
    assert infos[2]["pointer"] == "/flags/2"
