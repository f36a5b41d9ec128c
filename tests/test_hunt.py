"""Bots under the superbot rule (engine/bots/hunt.py): the robots without the
title hunt the SuperBot instead of racing to flags they cannot touch."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from bench.superbot_hunt import measure
from rallyforge.engine.bots import new_race
from rallyforge.engine.bots.hunt import SHOT, hunt_scale, likely_path, quarry
from rallyforge.engine.bots.search import SearchBot
from rallyforge.engine.format.loader import load_dict, load_file
from rallyforge.engine.model.program_cards import DECK

ROOT = Path(__file__).resolve().parent.parent


def _course(superbot: bool = True):
    return load_dict({
        "format": "rally-scenario", "version": 1, "name": "hunt",
        "board": {"width": 8, "height": 8, "tiles": [], "walls": [], "lasers": [], "pushers": []},
        "flags": [{"x": 7, "y": 0}],
        "docks": [{"x": 7, "y": 4, "facing": "N"}, {"x": 0, "y": 7, "facing": "N"}],
        "rules": {"superbot": superbot}})


def test_only_robots_without_the_title_hunt_and_only_under_superbot():
    race = new_race(_course(), robot_count=2)
    superbot, hunter = race.robots
    assert superbot.superbot and not hunter.superbot
    assert quarry(race.controllers[1].view) is superbot
    assert quarry(race.controllers[0].view) is None
    assert quarry(new_race(_course(False), robot_count=2).controllers[1].view) is None


def test_the_superbot_is_expected_on_its_way_to_its_flag():
    race = new_race(_course(), robot_count=2)
    bot = SearchBot()
    tables = bot.tables(race.controllers[1].view)
    path = likely_path(tables, race.robots[0])
    xy = [race.course.xy[s] for s in path]
    assert xy[-1] == (7, 0) and [y for _, y in xy] == sorted((y for _, y in xy), reverse=True)


def test_registers_aimed_at_the_superbot_count_for_the_hunter():
    """The hunter's damage rows reward a register ending in line with the
    SuperBot's expected square, facing it; a state aimed elsewhere keeps the
    racer's damage."""
    race = new_race(_course(), robot_count=2)
    view = race.controllers[1].view
    tables = SearchBot().tables(view)
    layered = tables.layered()
    hunt = hunt_scale(tables, layered, race.robots[0], last_life=False)
    first = likely_path(tables, race.robots[0])[0]
    x, y = race.course.xy[first]
    below = race.course.square(x, y + 2) * 4 + 0           # two squares south, facing north
    # a Move 1 card (kind 0) from the square below that ends one square nearer, still aimed
    start = race.course.square(x, y + 3) * 4 + 0
    k = 0 * layered.X + start
    assert layered.end_all[0][k] == below
    assert hunt.dmg_all[0][k] == layered.dmg_all[0][k] - SHOT
    turned = race.course.square(x, y + 3) * 4 + 1          # facing east: aimed elsewhere
    assert hunt.dmg_all[0][0 * layered.X + turned] == layered.dmg_all[0][0 * layered.X + turned]


def test_a_hunter_programs_otherwise_than_a_racer():
    race = new_race(_course(), robot_count=2, record_events=False)
    view = race.controllers[1].view
    hand = [c for c in DECK if c.kind in ("move1", "move2", "right", "left")][::7][:9]
    hunting = SearchBot(True).program(view, hand, [1, 2, 3, 4, 5], random.Random(3))
    racing = SearchBot(False).program(view, hand, [1, 2, 3, 4, 5], random.Random(3))
    assert hunting != racing


def test_hunters_hit_the_superbot_more_than_racers_do():
    """Seeded races of search bots: the SuperBot takes more laser hits when
    the others hunt it (bench/superbot_hunt.py measures more races)."""
    course = load_file(ROOT / "scenarios" / "standard-course.json")
    course = replace(course, rules=replace(course.rules, superbot=True, max_rounds=30))
    racing = measure(course, 12, 6, hunts=False)
    hunting = measure(course, 12, 6, hunts=True)
    assert hunting["hits on the SuperBot"] > racing["hits on the SuperBot"]


def test_the_aware_bots_look_ahead_knows_who_holds_the_title():
    from rallyforge.engine.bots.aware import _Round
    race = new_race(_course(), robot_count=2, bot="aware", record_events=False)
    view = race.controllers[1].view
    ahead = _Round(view, view.others())
    assert [r.superbot for r in ahead.race.robots] == [False, True]
    race.run()          # an aware race under superbot plays to its end
    assert race.over
