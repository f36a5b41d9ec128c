"""Invariants of any race on any valid course with any programs (hypothesis).

Checked after every register and every clean-up: no two robots share a
square, no robot on the board stands on a pit or drain or off the board,
damage stays within 0..destroy_at_damage, the occupancy table agrees with
the robots; a race always ends; a seed replays the same event log, in this
process and in a fresh one.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import load_dict
from rallyforge.engine.rules.race import Race
from tests.strategies import scenarios

ROOT = Path(__file__).parent.parent
MAX_ROUNDS = 25          # keeps every example quick; the rules' cap is what ends a race anyway

courses = scenarios(max_side=9, bot_names=("random",))
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def make_race(doc: dict, seed: int = 0, record_events: bool = True) -> Race:
    scenario = load_dict(doc)
    rules = dataclasses.replace(scenario.rules,
                                max_rounds=min(scenario.rules.max_rounds, MAX_ROUNDS))
    scenario = dataclasses.replace(scenario, rules=rules)
    return new_race(scenario, seed=seed, bot="random", record_events=record_events)


def assert_invariants(race: Race) -> None:
    course, occ = race.course, race.floor.occ
    cap = race.rules.destroy_at_damage
    seen = set()
    for robot in race.robots:
        assert 0 <= robot.damage <= cap
        assert robot.out == (robot.lives <= 0)
        if robot.sq >= 0:
            assert robot.sq < course.size
            assert robot.sq not in seen, f"two robots on square {course.xy[robot.sq]}"
            seen.add(robot.sq)
            assert course.death[robot.sq] is None, f"{robot.name} stands on a pit"
            assert occ[robot.sq] is robot
            assert not robot.destroyed and not robot.out
    assert sum(r is not None for r in occ) == len(seen)
    for snap in race.snapshot():
        assert (snap.x is None) == (not snap.alive)
        if snap.alive:
            assert 0 <= snap.x < course.width and 0 <= snap.y < course.height


@SETTINGS
@given(courses)
def test_invariants_hold_and_the_race_ends(doc):
    race = make_race(doc)
    steps = 0
    while not race.over:
        if race.moment[1] == 5:
            race.play_round()
        else:
            race.play_register()
        assert_invariants(race)
        steps += 1
        assert steps <= 6 * MAX_ROUNDS + 6, "the race does not end"
    outcome = race.outcome()
    assert outcome.rounds <= MAX_ROUNDS
    assert all(outcome.robot(w).finished is not None for w in outcome.winners)


def event_log_hash(doc: dict, seed: int) -> str:
    race = make_race(doc, seed)
    race.run()
    text = json.dumps([e.to_json() for e in race.events], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@SETTINGS
@given(courses)
def test_a_seed_replays_the_same_race(doc):
    assert event_log_hash(doc, 7) == event_log_hash(doc, 7)
    quiet = make_race(doc, 7, record_events=False)
    loud = make_race(doc, 7)
    assert quiet.run() == loud.run()


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(courses)
def test_a_seed_replays_the_same_race_in_a_fresh_process(doc):
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]);"
            "from tests.test_race_properties import event_log_hash;"
            "print(event_log_hash(json.loads(sys.stdin.read()), 7))")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT)], input=json.dumps(doc),
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == event_log_hash(doc, 7)
