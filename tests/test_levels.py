"""Levels, ramps and ledges (docs/rules.md 11) beyond the rules cases of
tests/rules/L*.json: races without level changes are unchanged, the events,
the lone-robot model, the validator and the file format."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import dumps, load_dict, load_file, read_dict
from rallyforge.engine.model.directions import NAMES
from rallyforge.engine.model.program_cards import KIND_CODE
from rallyforge.engine.model.scenario import CARD_KINDS, Level
from rallyforge.engine.rules.course import compile_course
from rallyforge.engine.rules.lone_robot_model import LoneModel, NO_CARD
from rallyforge.engine.rules.reach import reachable_from
from rallyforge.engine.validation.validator import validate_data

from .test_lone_robot_model import race_result

EXAMPLES = sorted((Path(__file__).parent.parent / "scenarios").glob("*.json"))
FLAT = [p for p in EXAMPLES if '"levels"' not in p.read_text(encoding="utf-8")]


def event_log(scenario, seed: int, bot: str | None) -> list[dict]:
    race = new_race(scenario, seed=seed, bot=bot)
    race.run()
    return [e.to_json() for e in race.events]


@pytest.mark.parametrize("path", FLAT, ids=[p.stem for p in FLAT])
def test_a_course_without_level_changes_races_as_before(path):
    """The whole board raised to level 1 has no ledge, so the levelled code
    path (drops, climbs, one-way distances, the lone model by play_card)
    must give the very race of the board without levels."""
    plain = load_file(path)
    board = plain.board
    raised = dataclasses.replace(plain, board=dataclasses.replace(board, levels=tuple(
        Level(x, y, 1) for y in range(board.height) for x in range(board.width))))
    assert compile_course(raised.board).levelled and not compile_course(board).levelled
    for seed, bot in ((1, None), (2, "random")):
        assert event_log(raised, seed, bot) == event_log(plain, seed, bot)


def course(levels, tiles=(), robots=(), walls=(), rules=None, width=6, height=4) -> dict:
    return {"format": "rally-scenario", "version": 1, "name": "levels",
            "board": {"width": width, "height": height, "tiles": list(tiles), "walls": list(walls),
                      "levels": [{"x": x, "y": y, "level": v} for x, y, v in levels]},
            "flags": [{"x": 0, "y": height - 1}],
            "docks": [{"x": 0, "y": height - 1, "facing": "N"}, {"x": 1, "y": height - 1, "facing": "N"}],
            "rules": rules or {"robot_lasers": False},
            "robots": list(robots)}


def first_register(doc: dict) -> list:
    race = new_race(load_dict(doc))
    race.play_register()
    return [e for e in race.events if e.register == 1 and e.kind in ("move", "fall", "slide")]


def test_a_fall_event_names_the_final_square_and_the_damage():
    doc = course([(1, 0, 2)], robots=[
        {"name": "A", "at": {"x": 1, "y": 0, "facing": "E"}, "program": [["move1"]]},
        {"name": "B", "at": {"x": 2, "y": 0, "facing": "N"}}], rules={"robot_lasers": False,
                                                                       "fall_damage": 3})
    move, fall = first_register(doc)
    assert (move.kind, move.src, move.dst, move.cause) == ("move", (1, 0), (3, 0), "card")
    assert (fall.kind, fall.robot, fall.src, fall.dst, fall.amount) == ("fall", "A", (1, 0), (3, 0), 3)
    assert (fall.round, fall.register, fall.step) == (1, 1, "move")


def test_a_fall_into_a_pit_costs_no_damage_in_its_event():
    doc = course([(1, 0, 1)], tiles=[{"x": 2, "y": 0, "type": "pit"}], robots=[
        {"name": "A", "at": {"x": 1, "y": 0, "facing": "E"}, "program": [["move1"]]}])
    fall = [e for e in first_register(doc) if e.kind == "fall"][0]
    assert (fall.dst, fall.amount) == ((2, 0), 0)


def test_a_slide_event_goes_from_the_ramp_back_to_the_square_behind_it():
    doc = course([(2, 0, 1), (3, 0, 1)], tiles=[{"x": 2, "y": 0, "type": "ramp", "dir": "E"}],
                 robots=[{"name": "A", "at": {"x": 1, "y": 0, "facing": "E"}, "program": [["move1"]]}])
    (slide,) = first_register(doc)
    assert (slide.kind, slide.robot, slide.src, slide.dst) == ("slide", "A", (2, 0), (1, 0))


# A small course with every kind of level edge and the elements that meet them.
LEVELLED = load_dict({
    "format": "rally-scenario", "version": 1, "name": "levelled",
    "board": {
        "width": 6, "height": 6,
        "tiles": [
            {"x": 2, "y": 1, "type": "ramp", "dir": "E"},
            {"x": 4, "y": 3, "type": "ramp", "dir": "N"},
            {"x": 1, "y": 3, "type": "conveyor", "dir": "N", "express": True},
            {"x": 1, "y": 4, "type": "conveyor", "dir": "N"},
            {"x": 5, "y": 2, "type": "conveyor", "dir": "S"},
            {"x": 0, "y": 0, "type": "current", "dir": "S"},
            {"x": 3, "y": 5, "type": "pit"},
            {"x": 0, "y": 5, "type": "water"},
            {"x": 5, "y": 5, "type": "teleporter"},
            {"x": 2, "y": 4, "type": "gear", "rotation": "cw"},
        ],
        "walls": [{"x": 3, "y": 0, "side": "E"}],
        "lasers": [{"x": 5, "y": 2, "dir": "W"}],
        "pushers": [{"x": 2, "y": 2, "dir": "S", "phases": [2, 4]}],
        "levels": [{"x": x, "y": y, "level": 2 if (x, y) == (4, 0) else 1}
                   for y in (0, 1, 2) for x in (2, 3, 4, 5)]
                  + [{"x": 4, "y": 3, "level": 1},
                     {"x": 0, "y": 0, "level": 1}, {"x": 0, "y": 1, "level": 1}],
    },
    "flags": [{"x": 3, "y": 1}],
    "docks": [{"x": 0, "y": 4, "facing": "E"}],
    "robots": [{"name": "Lone", "at": {"x": 0, "y": 4, "facing": "E"}}],
})


def test_the_lone_model_agrees_with_a_race_on_a_levelled_course():
    model = LoneModel.build(LEVELLED.board, LEVELLED.rules)
    course = model.course
    checked = 0
    for square in range(course.size):
        if course.death[square] is not None:
            continue
        for facing in range(4):
            for register in (1, 2):
                for kind in range(NO_CARD + 1):
                    expected = model.result(square, facing, register, kind)
                    got = race_result(square, facing, register, kind, LEVELLED)
                    assert (expected.square, expected.facing, expected.cause, expected.damage) \
                        == got, (course.xy[square], NAMES[facing], register, kind)
                    checked += 1
    assert checked > 1000


def test_a_ramp_is_climbed_only_with_two_steps_left():
    model = LoneModel.build(LEVELLED.board, LEVELLED.rules)
    behind = model.course.square(1, 1)
    assert model.result(behind, 1, 1, KIND_CODE["move1"]).square == (1, 1)
    assert model.result(behind, 1, 1, KIND_CODE["move2"]).square == (2, 1)
    # a conveyor running off the plateau's edge drops its robot with the fall damage
    assert model.result(model.course.square(5, 2), 0, 1, NO_CARD).square == (5, 3)
    assert model.result(model.course.square(5, 2), 0, 1, NO_CARD).damage == 2


def test_reachability_follows_ramps_and_ledges():
    board = load_dict(course([(x, y, 1) for y in range(2) for x in range(2, 6)],
                             tiles=[{"x": 2, "y": 1, "type": "ramp", "dir": "E"}])).board
    assert (4, 0) in reachable_from(board, [(0, 3)])        # up the ramp
    no_ramp = load_dict(course([(x, y, 1) for y in range(2) for x in range(2, 6)])).board
    assert (4, 0) not in reachable_from(no_ramp, [(0, 3)])  # a ledge all round
    assert (0, 3) in reachable_from(no_ramp, [(4, 0)])      # but down is fine


def problems(doc: dict) -> list[tuple[str, int | None, int | None]]:
    return [(p.code, p.x, p.y) for p in validate_data(doc)]


def test_a_flag_on_a_plateau_is_reachable_by_its_ramp_only():
    """E312 follows the real movement: the second flag stands on a plateau
    with a ledge all round but for a ramp; without the ramp nobody gets up,
    while coming back down to the first flag stays possible."""
    ramp = {"x": 2, "y": 1, "type": "ramp", "dir": "E"}
    doc = course([(x, y, 1) for y in range(2) for x in range(2, 6)], tiles=[ramp])
    doc["flags"] = [{"x": 1, "y": 0}, {"x": 4, "y": 0}, {"x": 0, "y": 2}]
    assert problems(doc) == []
    doc["board"]["tiles"] = []
    assert problems(doc) == [("E312", 4, 0)]


def test_the_validator_reports_level_mistakes_with_their_squares():
    doc = course([(2, 0, 1), (2, 0, 2), (1, 1, 4), (9, 1, 1), (3, 3, 0)])
    found = problems(doc)
    assert ("E207", 2, 0) in found          # listed twice
    assert ("E201", 9, 1) in found          # off the board
    assert any(code.startswith("E1") and (x, y) == (1, 1) for code, x, y in found)   # level 4
    assert ("W412", 3, 3) in found          # an explicit level 0


@pytest.mark.parametrize("levels, ramp, wrong", [
    ([(2, 0, 1), (3, 0, 1)], (2, 0, "E"), False),
    ([(2, 0, 1)], (2, 0, "E"), True),                       # the square ahead is too low
    ([(2, 0, 1), (3, 0, 1), (1, 0, 1)], (2, 0, "E"), True),  # the square behind is too high
    ([(2, 0, 2), (3, 0, 2)], (2, 0, "E"), True),            # two levels above the one behind
    ([(5, 0, 1)], (5, 0, "E"), True),                       # no square ahead
])
def test_a_ramp_must_join_the_level_below_to_its_own(levels, ramp, wrong):
    x, y, d = ramp
    doc = course(levels, tiles=[{"x": x, "y": y, "type": "ramp", "dir": d}])
    assert (("E316", x, y) in problems(doc)) == wrong


def test_warnings_for_docks_facing_ledges_and_lasers_cut_short():
    doc = course([(1, 3, 1), (4, 0, 1), (2, 1, 1), (3, 1, 1)],
                 tiles=[{"x": 2, "y": 1, "type": "ramp", "dir": "E"}])
    doc["docks"] = [{"x": 1, "y": 3, "facing": "E"}, {"x": 1, "y": 3 - 1, "facing": "N"}]
    doc["board"]["lasers"] = [{"x": 3, "y": 0, "dir": "E"}, {"x": 2, "y": 1, "dir": "E"},
                              {"x": 0, "y": 0, "dir": "S"}]
    found = problems(doc)
    assert ("W413", 1, 3) in found and ("W413", 1, 2) not in found
    assert ("W414", 3, 0) in found and ("W414", 0, 0) not in found
    assert ("W415", 2, 1) in found          # hung on the ramp's low side


def test_levels_and_ramps_round_trip_in_canonical_order():
    doc = course([(3, 1, 2), (2, 0, 1), (1, 0, 0)], tiles=[{"x": 2, "y": 0, "type": "ramp", "dir": "E"}],
                 rules={"fall_damage": 5})
    scenario, _ = read_dict(doc)
    text = dumps(scenario)
    again = json.loads(text)
    assert again["board"]["levels"] == [{"x": 1, "y": 0, "level": 0}, {"x": 2, "y": 0, "level": 1},
                                        {"x": 3, "y": 1, "level": 2}]
    assert again["board"]["tiles"] == [{"x": 2, "y": 0, "type": "ramp", "dir": "E"}]
    assert again["rules"] == {"fall_damage": 5}
    assert dumps(load_dict(again)) == text


def test_the_levelled_example_validates_clean_and_its_checks_pass():
    from rallyforge.engine.analysis.scenario_checks import check_file
    path = Path(__file__).parent.parent / "scenarios" / "highlands.json"
    assert validate_data(json.loads(path.read_text(encoding="utf-8"))) == []
    ok, lines = check_file(str(path))
    assert ok, lines
    assert len(FLAT) >= 6                       # the examples of before stay flat


def test_every_rule_of_the_levels_page_has_a_case():
    names = {p.name.split("-")[0] for p in (Path(__file__).parent / "rules").glob("L*.json")}
    assert names >= {"L1", "L2", "L3", "L4", "L5", "L6", "L7"}


def _floor(doc: dict):
    race = new_race(load_dict(doc))
    return race.floor, {r.name: r for r in race.robots}


def test_option_moves_climb_ramps_as_cards_do():
    """docs/rules.md 11.3: an option's move (Fourth Gear, Reverse Gears...) spends
    two steps up a ramp and slides back with only one."""
    from rallyforge.engine.rules.option_play import steps
    doc = course([(2, 0, 1), (3, 0, 1), (4, 0, 1), (5, 0, 1)],
                 tiles=[{"x": 2, "y": 0, "type": "ramp", "dir": "E"}],
                 robots=[{"name": "A", "at": {"x": 1, "y": 0, "facing": "E"}}])
    floor, robots = _floor(doc)
    steps(floor, robots["A"], 1, 1, False)
    assert floor.course.xy[robots["A"].sq] == (1, 0)
    steps(floor, robots["A"], 1, 4, False)
    assert floor.course.xy[robots["A"].sq] == (4, 0)


def test_weapons_and_the_arm_stop_at_level_changes():
    """docs/rules.md 11.5 and 11.7: even a High-Power Laser stops at a ledge; the
    Mechanical Arm treats a level change as a wall."""
    from rallyforge.engine.rules.option_arm import arm_reach
    from rallyforge.engine.rules.option_weapons import trace
    doc = course([(0, 0, 1), (1, 0, 1)], walls=[{"x": 1, "y": 1, "side": "E"}],
                 robots=[{"name": "A", "at": {"x": 0, "y": 0, "facing": "E"}},
                         {"name": "B", "at": {"x": 3, "y": 0, "facing": "N"}},
                         {"name": "C", "at": {"x": 0, "y": 1, "facing": "E"}},
                         {"name": "D", "at": {"x": 3, "y": 1, "facing": "N"}}])
    floor, robots = _floor(doc)
    xy = floor.course.xy
    path, hit = trace(floor, robots["A"].sq, 1, 1)
    assert [xy[s] for s in path] == [(1, 0)] and hit == []      # down the ledge: stopped
    path, hit = trace(floor, robots["C"].sq, 1, 1)
    assert hit == [robots["D"]]                                 # through a wall: as before
    assert sorted(xy[s] for s in arm_reach(floor, robots["A"].sq)) == [(1, 0)]


def test_a_teleporter_jump_ignores_levels_but_its_search_stops_at_a_ledge_up():
    """docs/rules.md 11.7: the jump lands with no fall damage; past a robot on the
    landing square, a ledge up is a wall (then it searches back)."""
    tele = {"x": 0, "y": 0, "type": "teleporter"}
    doc = course([(0, 0, 2), (0, 2, 2), (4, 2, 1)], tiles=[tele, {**tele, "y": 2}], robots=[
        {"name": "Free", "at": {"x": 0, "y": 0, "facing": "E"}, "program": [["move1:800"]]},
        {"name": "Blocked", "at": {"x": 0, "y": 2, "facing": "E"}, "program": [["move1:700"]]},
        {"name": "On landing", "at": {"x": 3, "y": 2, "facing": "N"}}], height=5)
    race = new_race(load_dict(doc))
    race.play_register()
    at = {r.name: (race.course.xy[r.sq], r.damage) for r in race.robots}
    assert at["Free"] == ((3, 0), 0)            # two levels down, no fall damage
    assert at["Blocked"] == ((2, 2), 0)         # (4, 2) is up a ledge: back to (2, 2)


def _validate_lines(tmp_path, capsys, doc: dict) -> list[str]:
    from rallyforge.engine.cli.main import main
    path = tmp_path / "course.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    main(["validate", str(path)])
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("levels, ramp, fix", [
    # a ramp painted at ground level, the plateau ahead of it: raise the ramp
    ([(3, 0, 1)], (2, 0, "E"), "raise (2, 0) to 1, or turn the ramp"),
    # a ramp on the plateau's edge leading up from a square as high as it
    ([(1, 0, 1), (2, 0, 1), (3, 0, 1)], (2, 0, "E"), "lower (1, 0) to 0, or turn the ramp"),
    # two levels above the square behind it, and the square ahead too
    ([(2, 0, 2), (3, 0, 2)], (2, 0, "E"), "raise (1, 0) to 1, or turn the ramp"),
    # pointing the wrong way: turning it is the whole fix
    ([(2, 0, 1), (1, 0, 1)], (2, 0, "E"), "or turn the ramp to lead up west"),
    ([(5, 0, 1)], (5, 0, "E"), "turn the ramp, or move it away from the board's edge"),
])
def test_the_bad_ramp_message_names_the_fix(tmp_path, capsys, levels, ramp, fix):
    x, y, d = ramp
    lines = _validate_lines(tmp_path, capsys, course(
        levels, tiles=[{"x": x, "y": y, "type": "ramp", "dir": d}]))
    (line,) = [line for line in lines if "E316" in line]
    assert "a ramp stands on the upper of two levels, one above the square behind it" in line
    assert line.endswith(fix)


def test_a_ramp_on_the_ground_is_said_to_stand_on_the_ground(tmp_path, capsys):
    lines = _validate_lines(tmp_path, capsys, course(
        [], tiles=[{"x": 2, "y": 0, "type": "ramp", "dir": "E"}]))
    (line,) = [line for line in lines if "E316" in line]
    assert "level -1" not in line and "not -1" not in line
    assert ("the ramp at (2, 0) leads up east, but it stands on the ground (level 0), with no "
            "lower level behind it; a ramp stands on the upper of two levels") in line
    assert line.endswith("raise (2, 0) to 1 and raise (3, 0) to 1, or turn the ramp")


def test_a_belt_pointing_up_a_ledge_is_warned_about_as_one_into_a_wall(tmp_path, capsys):
    tiles = [{"x": 1, "y": 0, "type": "conveyor", "dir": "E"},     # up a ledge
             {"x": 2, "y": 1, "type": "current", "dir": "E"},      # up a ramp's low side
             {"x": 3, "y": 0, "type": "conveyor", "dir": "E"},     # down a ledge: fine
             {"x": 2, "y": 2, "type": "conveyor", "dir": "E"},     # on the level, no ledge
             {"x": 3, "y": 1, "type": "ramp", "dir": "E"}]
    lines = _validate_lines(tmp_path, capsys, course(
        [(2, 0, 1), (3, 0, 1), (3, 1, 1), (4, 1, 1), (2, 2, 1), (3, 2, 1)], tiles=tiles))
    warned = [line for line in lines if "W405" in line]
    assert len(warned) == 2
    assert ":1,0: warning W405: the conveyor at (1, 0) points east up to level 1, which stops " \
           "robots as a wall would" in warned[0]
    assert ":2,1: warning W405: the current at (2, 1)" in warned[1]
