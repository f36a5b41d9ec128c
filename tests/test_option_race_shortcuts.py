"""A race with played option cards takes shortcuts where it keeps no event
log: a register's card or laser step plays as without option cards where
no robot on the board holds a card that changes it
(engine/rules/option_play.py ``plays_plain``, engine/rules/option_weapons.py
``fires_plain``), and a robot or shooter holding none plays or fires
plainly. With a log every card goes the long way, so a logged race and a
quiet one of the same seed must agree register by register. Also the
remembered look-ups: Mechanical Arm reaches, the course compiled last."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.rules import course as course_module
from rallyforge.engine.rules.option_arm import _reach, arm_reach
from rallyforge.engine.rules.race import Race
from rallyforge.engine.rules.state import Floor

PUBLISHED = Path(__file__).parent.parent / "engine" / "editing" / "published"
# option cards handed out at repair sites, and one dealt to every robot at the start
COURSES = ("option-world.json", "marathon-madness.json")


def register_by_register(path: Path, seed: int, record_events: bool) -> list[tuple]:
    """Every robot's state after every register of a race of search bots."""
    states: list[tuple] = []

    def note(race: Race) -> None:
        states.append((race.moment, tuple(
            (r.sq, r.facing, r.damage, r.lives, r.flags, tuple(r.cards), tuple(r.registers))
            for r in race.robots)))

    race = new_race(load_file(path), seed=seed, robot_count=6, bot="search",
                    record_events=record_events, on_register_end=note)
    race.run()
    return states


@pytest.mark.parametrize("name", COURSES)
def test_a_quiet_race_plays_as_a_logged_one(name):
    for seed in range(4):
        quiet = register_by_register(PUBLISHED / name, seed, False)
        logged = register_by_register(PUBLISHED / name, seed, True)
        assert quiet == logged, f"{name} seed {seed}"


def test_mechanical_arm_reaches_are_remembered_as_computed():
    scenario = load_file(PUBLISHED / "option-world.json")
    course = course_module.compile_course(scenario.board)
    floor = Floor(course, scenario.rules, [])
    for _ in range(2):      # made, then remembered
        for square in range(course.size):
            assert arm_reach(floor, square) == _reach(course.beam_target, square)


def test_a_boards_course_is_compiled_once_and_found_by_its_content():
    scenario = load_file(PUBLISHED / "option-world.json")
    other = load_file(PUBLISHED / "marathon-madness.json")
    first = course_module.compile_course(scenario.board)
    assert course_module.compile_course(scenario.board) is first
    assert course_module.compile_course(other.board).board == other.board
    # an equal board made anew gets the course of its content
    again = dataclasses.replace(scenario.board)
    assert again is not scenario.board
    assert course_module.compile_course(again).board == scenario.board
    assert course_module.compile_course(scenario.board) is first
