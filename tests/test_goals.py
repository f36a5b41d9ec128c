"""The course's goals in the file, and the length classes they name."""
import json
from pathlib import Path

import pytest

from rallyforge.engine.analysis.course_card import calibration, timemodel
from rallyforge.engine.format.loader import dumps, load_dict
from rallyforge.engine.model.scenario import Goals
from rallyforge.engine.validation.validator import validate_data

STANDARD = Path(__file__).parent.parent / "scenarios" / "standard-course.json"


def standard(**goals) -> dict:
    data = json.loads(STANDARD.read_text())
    data["goals"] = goals
    return data


def test_goals_are_read_and_written_back_in_canonical_form():
    data = standard(deaths_per_leg=0.5, fair=False, length="short", robots=3, note="why")
    scenario = load_dict(data)
    assert scenario.goals == Goals(fair=False, length="short", deaths_per_leg=0.5, robots=3,
                                   note="why")
    again = json.loads(dumps(scenario))
    assert list(again["goals"]) == ["robots", "fair", "length", "deaths_per_leg", "note"]
    assert load_dict(again) == scenario
    assert list(again).index("goals") == list(again).index("rules" if "rules" in again
                                                          else "docks") + 1


def test_a_file_without_goals_writes_none():
    scenario = load_dict(json.loads(STANDARD.read_text()))
    assert scenario.goals is None and "goals" not in json.loads(dumps(scenario))


@pytest.mark.parametrize("goals, code, where", [
    ({"length": "forever"}, "E102", "/goals/length"),
    ({"rounds": 0}, "E105", "/goals/rounds"),
    ({"deaths_per_leg": -1}, "E105", "/goals/deaths_per_leg"),
    ({"speed": 3}, "E104", "/goals/speed"),
    ({"robots": 9}, "W420", "/goals/robots"),
])
def test_bad_goals_are_named(goals, code, where):
    problems = validate_data(standard(**goals))
    assert [(p.code, p.pointer) for p in problems] == [(code, where)]


def test_goals_for_as_many_robots_as_docks_are_fine():
    assert validate_data(standard(robots=8)) == []


def test_a_length_class_is_a_range_of_rounds_by_the_cards_time_model():
    path = 44.5                                   # squares from the docks through the flags
    for players in (2, 4, 8):
        for name in timemodel.CLASSES:
            low, high = timemodel.class_rounds(name, players, path)
            inside = (low + min(high, low + 10)) / 2
            assert timemodel.length_class(timemodel.table_minutes(inside, players), path) == name
    short_under, long_from = calibration.minute_bands(path)
    # 5 minutes a round at 4 players, 5 to set up
    assert timemodel.class_rounds("medium", 4, path) == pytest.approx(
        ((short_under - 5) / 5, (long_from - 5) / 5))
    assert timemodel.class_rounds("long", 4, path)[1] == float("inf")
