"""The special course rules (docs/rules.md 12) beyond their rule cases in
tests/rules/12.*: what a rule case cannot show (a bot's choice, two races
compared, the format's round trip)."""
from __future__ import annotations

import json
import random
from pathlib import Path

from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import dumps, load_dict
from rallyforge.engine.model.scenario import SPECIAL_RULES, Rules
from rallyforge.engine.rules.race import Race
from rallyforge.engine.validation.validator import validate_data

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def course(rules: dict | None = None, **extra) -> dict:
    doc = {"format": "rally-scenario", "version": 1, "name": "Special",
           "board": {"width": 6, "height": 6},
           "flags": [{"x": 5, "y": 0}, {"x": 0, "y": 0}],
           "docks": [{"x": 0, "y": 5, "facing": "N"}, {"x": 2, "y": 5, "facing": "N"},
                     {"x": 4, "y": 5, "facing": "N"}]}
    if rules is not None:
        doc["rules"] = rules
    doc.update(extra)
    return doc


class PowerDownAlways:
    """A bot that plays its first cards and always asks to power down."""

    def program(self, view, hand, free, rng: random.Random):
        return hand[:len(free)]

    def power_down(self, view, rng: random.Random) -> bool:
        return True


def powered_down_rounds(rules: dict) -> int:
    race = Race(load_dict(course(rules)), seed=3, bots=[PowerDownAlways()])
    count = 0
    for _ in range(4):
        race.play_round()
        count += race.robots[0].powered_down
    return count


def test_no_robot_powers_down_where_the_rules_allow_none():
    assert powered_down_rounds({}) > 0
    assert powered_down_rounds({"power_down": False}) == 0


def test_a_start_powered_down_is_refused_where_none_is_allowed():
    doc = course({"power_down": False}, robots=[{"name": "A", "powered_down": True}])
    problems = [(p.code, p.pointer) for p in validate_data(doc)]
    assert ("E331", "/robots/0/powered_down") in problems
    assert not [p for p in validate_data(course({"power_down": False},
                                                robots=[{"name": "A"}])) if p.is_error]


def test_a_draft_with_counted_options_leaves_one_option():
    s = load_dict(course({"start_option_choice": 3, "options": "counted"},
                         robots=[{"name": "A"}, {"name": "B", "options": 2}]))
    race = Race(s, seed=1)
    assert [r.options for r in race.robots] == [1, 2]


def test_the_programming_clock_changes_no_race():
    def log(rules: dict) -> list:
        race = new_race(load_dict(course(rules)), seed=5, bots=["search", "greedy"])
        race.run()
        return list(race.events)
    assert log({"programming_seconds": 30}) == log({})


def test_special_rules_round_trip_and_only_changed_keys_are_written():
    rules = {"flags_move": True, "robot_laser_damage": 2, "start_damage": 2, "power_down": False,
             "repair_sites": "options", "start_option_choice": 3, "programming_seconds": 60}
    assert set(rules) == set(SPECIAL_RULES)
    s = load_dict(course(rules))
    assert {k: getattr(s.rules, k) for k in rules} == rules
    assert load_dict(json.loads(dumps(s))).rules == s.rules
    assert Rules().changed() == {}
    assert load_dict(course({})).rules == Rules()


def riding_flag(rules: dict, walls: list | None = None) -> dict:
    """Flag 1 on the first square of a belt that carries robots off it."""
    doc = course(rules)
    doc["board"] = {"width": 7, "height": 6, "walls": walls or [],
                    "tiles": [{"x": 3, "y": 2, "type": "conveyor", "dir": "E"},
                              {"x": 4, "y": 2, "type": "conveyor", "dir": "E"}]}
    doc["flags"] = [{"x": 3, "y": 2}, {"x": 0, "y": 0}]
    return doc


def errors(doc: dict) -> list[tuple[str, int | None, int | None]]:
    return [(p.code, p.x, p.y) for p in validate_data(doc) if p.is_error]


def test_a_flag_that_rides_the_belts_is_reached_where_they_take_it():
    assert errors(riding_flag({})) == [("E312", 3, 2)] * 3     # from each of the 3 docks
    moving = riding_flag({"flags_move": True})
    assert errors(moving) == []
    assert "W406" not in {p.code for p in validate_data(moving)}   # riding is meant here


def test_a_moving_flag_that_rides_into_a_closed_pocket_is_still_unreachable():
    # (3, 2) is walled but for the belt's way out, and the belt ends in a walled pocket
    walls = [{"x": 3, "y": 2, "side": s} for s in "NSW"] + [{"x": 4, "y": 2, "side": s}
                                                             for s in "NS"]
    walls += [{"x": 5, "y": 2, "side": s} for s in "NES"]
    problems = [p for p in validate_data(riding_flag({"flags_move": True}, walls)) if p.is_error]
    # flag 1 from every dock, and flag 2 from the pocket flag 1 ends in
    assert sorted((p.code, p.x, p.y) for p in problems) == [("E312", 0, 0)] + [("E312", 3, 2)] * 3
    assert all("close it off" in p.message for p in problems)


def test_moving_targets_validates_clean_with_its_rule_and_not_without():
    doc = json.loads((FIXTURES / "moving-targets.json").read_text(encoding="utf-8"))
    assert errors(doc) == []
    doc["rules"]["flags_move"] = False
    assert {(code, x, y) for code, x, y in errors(doc)} == {("E312", 1, 0), ("E312", 11, 5),
                                                            ("E312", 0, 6)}


def test_search_bots_go_for_repair_sites_that_hand_out_options():
    """A long way to the only flag, a wrench and a crossed wrench and hammer
    just off it: under repair_sites "options" the search bot ends its first
    round on a site most of the time, under "repair" (nothing to repair) never."""
    def cards_after_one_round(sites: str) -> int:
        doc = {"format": "rally-scenario", "version": 1, "name": "Sites",
               "board": {"width": 4, "height": 20,
                         "tiles": [{"x": 2, "y": 13, "type": "upgrade"},
                                   {"x": 0, "y": 10, "type": "repair"}]},
               "flags": [{"x": 1, "y": 0}], "docks": [{"x": 1, "y": 19, "facing": "N"}],
               "rules": {"repair_sites": sites, "robot_lasers": False}}
        got = 0
        for seed in range(20):
            race = new_race(load_dict(doc), seed=seed, robot_count=1, bot="search")
            race.play_round()
            got += race.robots[0].options
        return got
    assert cards_after_one_round("repair") == 0
    assert cards_after_one_round("options") >= 10


def test_search_bots_meet_a_flag_where_the_belt_takes_it():
    """A flag rides a belt past the robot: the search and aware bots step
    onto the belt where the flag will be, not where it stood at the deal."""
    doc = {"format": "rally-scenario", "version": 1, "name": "Belt flag",
           "board": {"width": 8, "height": 3,
                     "tiles": [{"x": x, "y": 1, "type": "conveyor", "dir": "E"} for x in range(8)]},
           "flags": [{"x": 1, "y": 1}], "docks": [{"x": 4, "y": 0, "facing": "S"}],
           "rules": {"flags_move": True, "robot_lasers": False}}
    for bot in ("search", "aware"):
        touched = 0
        for seed in range(10):
            race = new_race(load_dict(doc), seed=seed, robot_count=1, bot=bot)
            race.play_round()
            touched += race.robots[0].flags
        assert touched >= 8, bot


def test_search_robots_race_moving_targets_to_the_end():
    """Round after round the bots aim where the flags ride to (their tables
    follow the flags), so races on Moving Targets are decided."""
    course = load_dict(json.loads((FIXTURES / "moving-targets.json").read_text(encoding="utf-8")))
    for seed in range(3):
        outcome = new_race(course, seed=seed, robot_count=4, bot="search").run()
        assert outcome.winners, seed


def test_robots_placed_without_entries_start_with_start_damage():
    race = new_race(load_dict(course({"start_damage": 3})), seed=0, robot_count=2, bot="greedy")
    assert [r.damage for r in race.robots] == [3, 3]
    race.play_round()
    dealt = [e.amount for e in race.events if e.kind == "dealt"]
    assert dealt == [6, 6]                                  # 9 cards less 3 damage


def test_a_board_turned_again_is_the_board_turned_before():
    """A balance run of Frenetic Factory turns the same few boards again and
    again (docs/rules.md 12.10): the same board and part give the board made
    before, which is the board a fresh turn makes."""
    from rallyforge.engine.format.loader import load_file
    from rallyforge.engine.model import turning
    course = load_file(Path(__file__).resolve().parent.parent / "engine" / "editing" / "published"
                       / "frenetic-factory.json")
    part = next(p for p in course.boards if p.turns_in_place)
    once = turning.turn_part(course.board, part)
    assert turning.turn_part(course.board, part) is once
    assert once == turning._turned_part(course.board, part, 1) != course.board
    twice = turning.turn_part(once, part)
    assert turning.turn_part(once, part) is twice and twice != once
    assert turning.turn_part(course.board, part, 2) == twice


def test_turns_in_either_order_give_one_board():
    """Two factory boards turned one after the other, in either order, give
    one board object (turning.turn_part keeps its boards by value), the board
    fresh turns make: a balance run's courses and bots' tables, kept by
    object, meet each arrangement of the boards once."""
    from rallyforge.engine.format.loader import load_file
    from rallyforge.engine.model import turning
    course = load_file(Path(__file__).resolve().parent.parent / "engine" / "editing" / "published"
                       / "frenetic-factory.json")
    a, b = [p for p in course.boards if p.turns_in_place][:2]
    ab = turning.turn_part(turning.turn_part(course.board, a), b)
    ba = turning.turn_part(turning.turn_part(course.board, b), a)
    assert ab is ba
    assert ab == turning._turned_part(turning._turned_part(course.board, a, 1), b, 1)
    assert ab != turning.turn_part(course.board, a)


def test_a_turned_board_is_played_on_its_own_course():
    """Courses of turned boards are kept by board (course.compile_course):
    each board gets the course compiled from it, an equal board made anew
    the same course, and once the kept ones are dropped, still its own."""
    from rallyforge.engine.format.loader import load_file
    from rallyforge.engine.model import turning
    from rallyforge.engine.rules.course import Course, compile_course
    course = load_file(Path(__file__).resolve().parent.parent / "engine" / "editing" / "published"
                       / "frenetic-factory.json")
    part = next(p for p in course.boards if p.turns_in_place)
    boards = [course.board]
    for _ in range(3):
        boards.append(turning.turn_part(boards[-1], part))
    for _ in range(3):
        for board in boards:
            got = compile_course(board)
            assert got.board == board
            assert got.tile == Course(board).tile and got.target == Course(board).target
        compile_course.cache_clear()                        # dropped: compiled anew
    fresh = turning._turned_part(course.board, part, 1)     # equal, not the same object
    assert fresh is not boards[1] and compile_course(fresh).board == boards[1]


def test_search_bots_plan_on_the_board_as_turned():
    """After a factory board turns (docs/rules.md 12.10) the search bots plan
    on the turned board, not on the one they were dealt on: their tables are
    of the race's course as it is now."""
    from rallyforge.engine.bots.search import SearchBot
    from rallyforge.engine.format.loader import load_file
    course = load_file(Path(__file__).resolve().parent.parent / "engine" / "editing" / "published"
                       / "frenetic-factory.json")
    bots = [SearchBot() for _ in range(6)]
    race = new_race(course, seed=1, bots=bots)
    first = race.course
    while race.course is first and race.round < 60:        # until a board turns
        race.play_round()
    assert race.course is not first
    race.play_round()
    planned = [bot._tables.course for bot, robot in zip(bots, race.robots)
               if not robot.out and bot._tables is not None]
    assert planned and all(c is race.course for c in planned)
