"""The JSON Schema of format v1 and the designer-facing problems made from it."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rallyforge.engine.format import schema as schema_module
from rallyforge.engine.format.loader import read_dict
from rallyforge.engine.format.schema import SCHEMA, schema_path, schema_problems, validator
from rallyforge.engine.model.element_kinds import (DIRECTION, FLAG, REGISTERS, ROTATION, TILES, TILE_LIST,
                                        TILE_TYPES)
from rallyforge.engine.model.problems import ERROR, Problem

from .strategies import scenarios

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_FILES = sorted((ROOT / "scenarios").glob("*.json"))
CARD_HELP = ("cards are move1, move2, move3, back, left, right, uturn, "
             "optionally with :PRIORITY 1-999")


def base() -> dict:
    """A small valid scenario with one of everything, to break in one place."""
    return {
        "format": "rally-scenario",
        "version": 1,
        "name": "Pusher Alley",
        "board": {
            "width": 12,
            "height": 16,
            "tiles": [
                {"x": 3, "y": 4, "type": "conveyor", "dir": "E", "express": True},
                {"x": 4, "y": 4, "type": "gear", "rotation": "cw"},
                {"x": 5, "y": 4, "type": "conveyor", "dir": "S"},
                {"x": 6, "y": 4, "type": "crusher", "phases": [1, 3]},
                {"x": 7, "y": 4, "type": "conveyor", "dir": "N"},
                {"x": 8, "y": 4, "type": "pit", "note": "mind the gap"},
            ],
            "walls": [{"x": 3, "y": 4, "side": "N"}],
            "lasers": [{"x": 0, "y": 5, "dir": "E", "beams": 2}],
            "pushers": [{"x": 4, "y": 0, "dir": "S", "phases": [2, 4]}],
        },
        "flags": [{"x": 9, "y": 2}, {"x": 1, "y": 7}],
        "docks": [{"x": 5, "y": 15, "facing": "N"}, {"x": 6, "y": 15, "facing": "N"}],
        "rules": {"lives": 3, "finish": "all"},
        "robots": [
            {"name": "Twonky", "dock": 1, "bot": "search"},
            {"name": "Zoom", "at": {"x": 3, "y": 4, "facing": "E"}, "damage": 3,
             "program": [["move2:700", "right:200", "move1", "uturn", "back"],
                         {"cards": ["left"], "power_down": True}]},
        ],
        "checks": [
            {"round": 1, "register": 3, "robot": "Zoom", "x": 5, "y": 4, "facing": "S",
             "damage": 1},
            {"round": 2, "robot": "Twonky", "alive": False, "lives": 2, "x": None, "y": None,
             "facing": None},
        ],
    }


def broken(change) -> list[Problem]:
    doc = base()
    change(doc)
    return schema_problems(doc)


def only(problems: list[Problem]) -> Problem:
    assert len(problems) == 1, [p.message for p in problems]
    return problems[0]


def tile(x: int = 0, y: int = 0, **keys) -> dict:
    return {"x": x, "y": y, **keys}


# ---------------------------------------------------------------- the schema itself

def test_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] == "https://rallyforge.example/schema/scenario-v1.json"
    assert isinstance(validator(), Draft202012Validator)
    assert validator() is validator()


def test_schema_file_is_readable_json_with_two_space_indent():
    text = schema_path().read_text(encoding="utf-8")
    assert json.loads(text) == SCHEMA
    lines = text.splitlines()
    assert lines[0] == "{" and lines[1].startswith('  "$schema"')
    assert all((len(line) - len(line.lstrip(" "))) % 2 == 0 for line in lines)


def _subschemas(node, path=()):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _subschemas(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _subschemas(value, path + (i,))


def test_every_property_has_a_title_and_a_description():
    missing = []
    for path, node in _subschemas(SCHEMA):
        # Conditions (if) are not hover help; a node at .../properties is the name table itself.
        if "if" in path or path[-1:] == ("properties",) or "properties" not in node:
            continue
        for name, sub in node["properties"].items():
            if not (isinstance(sub, dict) and sub.get("title") and sub.get("description")):
                missing.append(path + ("properties", name))
    assert missing == []
    assert len(list(_subschemas(SCHEMA))) > 100


def test_every_object_is_closed_and_takes_a_note():
    objects = [(path, node) for path, node in _subschemas(SCHEMA) if node.get("type") == "object"]
    assert len(objects) >= 14
    for path, node in objects:
        assert node.get("additionalProperties") is False, path
        assert node["properties"]["note"]["type"] == "string", path


def test_each_tile_type_takes_exactly_its_keys():
    assert schema_module._TILE_KEYS == {t.name: ("x", "y", "type", *t.key_names, "note")
                                        for t in TILE_LIST}


# ---------------------------------------------------------------- valid documents

@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.name for p in SCENARIO_FILES])
def test_example_scenarios_pass_the_schema(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [p.message for p in schema_problems(data)] == []
    assert validator().is_valid(data)


def test_the_base_document_and_the_spec_examples_pass():
    assert schema_problems(base()) == []
    doc = base()
    doc.update(author="Jane Designer", description="Two flags.", note="top-level note")
    doc["board"]["note"] = "a board note"
    doc["rules"] = {"lives": 10, "hand_size": 9, "destroy_at_damage": 10, "lock_from_damage": 5,
                    "respawn_damage": 2, "robot_lasers": True, "flags_repair": False,
                    "archive_on_any_flag": True, "teleport_backup_distance": 2,
                    "max_rounds": 100, "finish": "first", "note": "house rules"}
    doc["robots"][1]["program"].append([])
    doc["checks"][0]["archive"] = {"x": 1, "y": 2, "note": "n"}
    assert schema_problems(doc) == []


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(bot_names=("search", "random")))
def test_generated_scenarios_have_no_schema_problems(doc):
    assert schema_problems(doc) == []
    assert validator().is_valid(doc)


def test_the_strategy_reaches_every_part_of_the_format():
    seen: set[str] = set()

    @settings(max_examples=300, database=None, deadline=None, phases=[Phase.generate],
              derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(scenarios(bot_names=("search",)))
    def collect(doc):
        board = doc["board"]
        seen.update(t["type"] for t in board.get("tiles", []))
        seen.update(key for key in ("walls", "lasers", "pushers", "levels") if board.get(key))
        seen.update(f"rules.{key}" for key in doc.get("rules", {}))
        for robot in doc.get("robots", []):
            seen.update(f"robot.{key}" for key in robot)
            seen.update("program.object" for e in robot.get("program", []) if isinstance(e, dict))
        for check in doc.get("checks", []):
            seen.update(f"check.{key}" for key, value in check.items() if value is not None)
            seen.update("check.off-board" for value in [check.get("x", 0)] if value is None)
        seen.update(f"flags.{len(doc['flags'])}" for _ in [0])

    collect()
    wanted = set(TILE_TYPES) | {"walls", "lasers", "pushers", "levels", "rules.finish",
                                          "rules.fall_damage", "robot.at",
                                "robot.dock", "robot.bot", "robot.program", "program.object",
                                "check.register", "check.archive", "check.off-board",
                                "flags.1", "flags.4"}
    assert wanted - seen == set()


def test_a_full_100_by_100_course_passes():
    doc = _big_course()
    assert schema_problems(doc) == []


# ---------------------------------------------------------------- the messages of the brief

def test_bad_direction_names_the_tile_and_its_square():
    def change(doc):
        doc["board"]["tiles"][4]["dir"] = "north"
    p = only(broken(change))
    assert p == Problem(ERROR, "E102", 'board.tiles[4]: "dir" must be one of N, E, S, W, '
                        'not "north"', "/board/tiles/4/dir", 7, 4)


def test_board_too_wide():
    p = only(broken(lambda doc: doc["board"].update(width=140)))
    assert p == Problem(ERROR, "E105", "board.width: must be at most 100, not 140",
                        "/board/width", None, None)


def test_misspelt_tile_key():
    def change(doc):
        doc["board"]["tiles"][2] = {"x": 5, "y": 4, "type": "conveyor", "dri": "S"}
    problems = broken(change)
    assert [(p.code, p.pointer, p.message, p.x, p.y) for p in problems] == [
        ("E103", "/board/tiles/2", 'board.tiles[2]: missing required key "dir" for a '
         '"conveyor" tile', 5, 4),
        ("E104", "/board/tiles/2/dri", 'board.tiles[2]: unknown key "dri" (a "conveyor" tile '
         'takes dir, express, note)', 5, 4),
    ]


def test_bad_card():
    def change(doc):
        doc["robots"][1]["program"][0][2] = "move4"
    p = only(broken(change))
    assert p == Problem(ERROR, "E107", f'robots[1].program[0][2]: "move4" is not a card '
                        f"({CARD_HELP})", "/robots/1/program/0/2", None, None)


def test_no_flags():
    """Only an "elimination" course may have none (the loader tells, as it
    needs the rules: docs/rules.md 13.6)."""
    doc = base()
    doc["flags"] = []
    assert schema_problems(doc) == []
    p = only(read_dict(doc)[1])
    assert (p.code, p.pointer, p.message) == ("E106", "/flags", "flags: needs at least 1 flag")
    doc["rules"] = {**doc.get("rules", {}), "victory": "elimination"}
    assert [p for p in read_dict(doc)[1] if p.code == "E106"] == []


def test_missing_board():
    p = only(broken(lambda doc: doc.pop("board")))
    assert (p.code, p.pointer, p.message) == ("E103", "", '(top level): missing required '
                                              'key "board"')


# ---------------------------------------------------------------- every kind of problem

def _set(path, value):
    def change(doc):
        node = doc
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
    return change


def _drop(path):
    def change(doc):
        node = doc
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]
    return change


CASES = [
    # wrong types
    (_set(["board", "height"], "16"), "E101", "/board/height",
     'board.height: must be a whole number, not "16"'),
    (_set(["board", "height"], 16.5), "E101", "/board/height",
     "board.height: must be a whole number, not 16.5"),
    (_set(["board", "tiles"], {}), "E101", "/board/tiles",
     "board.tiles: must be a list [...], not an object"),
    (_set(["board", "tiles", 0, "express"], "yes"), "E101", "/board/tiles/0/express",
     'board.tiles[0]: "express" must be true or false, not "yes"'),
    (_set(["name"], 7), "E101", "/name", "name: must be text in quotes, not 7"),
    (_set(["rules"], []), "E101", "/rules", "rules: must be an object {...}, not a list"),
    (_set(["robots", 1, "program", 1], 5), "E101", "/robots/1/program/1",
     "robots[1].program[1]: must be a list [...] or an object {...}, not 5"),
    (_set(["robots", 1, "program", 1, "cards"], "left"), "E101", "/robots/1/program/1/cards",
     'robots[1].program[1]: "cards" must be a list [...], not "left"'),
    (_set(["checks", 0, "x"], "5"), "E101", "/checks/0/x",
     'checks[0]: "x" must be a whole number or null, not "5"'),
    (_set(["board", "lasers", 0, "beams"], True), "E101", "/board/lasers/0/beams",
     'board.lasers[0]: "beams" must be a whole number, not true'),
    # not one of the allowed values
    (_set(["format"], "rally"), "E102", "/format",
     'format: must be "rally-scenario", not "rally"'),
    (_set(["version"], 2), "E102", "/version", "version: must be 1, not 2"),
    (_set(["board", "tiles", 5, "type"], "lava"), "E102", "/board/tiles/5/type",
     f'board.tiles[5]: "type" must be one of {", ".join(TILE_TYPES)}, not "lava"'),
    (_set(["board", "tiles", 1, "rotation"], "left"), "E102", "/board/tiles/1/rotation",
     'board.tiles[1]: "rotation" must be one of cw, ccw, not "left"'),
    (_set(["rules", "finish"], "last"), "E102", "/rules/finish",
     'rules.finish: must be one of first, all, not "last"'),
    (_set(["checks", 0, "facing"], "up"), "E102", "/checks/0/facing",
     'checks[0]: "facing" must be one of N, E, S, W, null, not "up"'),
    (_set(["robots", 1, "at", "facing"], "n"), "E102", "/robots/1/at/facing",
     'robots[1].at.facing: must be one of N, E, S, W, not "n"'),
    (_set(["board", "walls", 0, "side"], "top"), "E102", "/board/walls/0/side",
     'board.walls[0]: "side" must be one of N, E, S, W, not "top"'),
    # missing keys
    (_drop(["docks", 1, "facing"]), "E103", "/docks/1",
     'docks[1]: missing required key "facing"'),
    (_drop(["board", "pushers", 0, "phases"]), "E103", "/board/pushers/0",
     'board.pushers[0]: missing required key "phases"'),
    (_drop(["board", "tiles", 1, "rotation"]), "E103", "/board/tiles/1",
     'board.tiles[1]: missing required key "rotation" for a "gear" tile'),
    (_drop(["board", "tiles", 3, "phases"]), "E103", "/board/tiles/3",
     'board.tiles[3]: missing required key "phases" for a "crusher" tile'),
    (_drop(["robots", 1, "program", 1, "cards"]), "E103", "/robots/1/program/1",
     'robots[1].program[1]: missing required key "cards"'),
    (_drop(["checks", 0, "round"]), "E103", "/checks/0",
     'checks[0]: missing required key "round"'),
    (_drop(["robots", 0, "name"]), "E103", "/robots/0",
     'robots[0]: missing required key "name"'),
    # unknown keys
    (_set(["board", "widht"], 3), "E104", "/board/widht",
     'board: unknown key "widht" (allowed keys are width, height, tiles, walls, lasers, '
     'pushers, levels, note)'),
    (_set(["board", "tiles", 5, "dir"], "N"), "E104", "/board/tiles/5/dir",
     'board.tiles[5]: "dir" does not belong on a "pit" tile (a "pit" tile takes only x, y, '
     'type, note)'),
    (_set(["board", "tiles", 1, "express"], True), "E104", "/board/tiles/1/express",
     'board.tiles[1]: "express" does not belong on a "gear" tile (a "gear" tile takes '
     'rotation, note)'),
    (_set(["rules", "live"], 3), "E104", "/rules/live",
     'rules: unknown key "live" (allowed keys are lives, hand_size, destroy_at_damage, '
     'lock_from_damage, respawn_damage, robot_lasers, flags_repair, archive_on_any_flag, '
     'teleport_backup_distance, max_rounds, finish, options, start_options, flag_gives_option, '
     'fall_damage, flags_move, robot_laser_damage, start_damage, power_down, repair_sites, '
     'start_option_choice, programming_seconds, superbot, board_turns_on_flag, victory, note)'),
    (_set(["colour"], "red"), "E104", "/colour",
     '(top level): unknown key "colour" (allowed keys are format, version, name, author, '
     'description, board, flags, docks, boards, rules, goals, published, robots, checks, card, accept, teams, note)'),
    (_set(["robots", 1, "program", 1, "powerdown"], True), "E104",
     "/robots/1/program/1/powerdown",
     'robots[1].program[1]: unknown key "powerdown" (allowed keys are cards, power_down, use, abort_at, recompile, conditional, flywheel, take_flywheel, note)'),
    # out of range
    (_set(["board", "width"], 0), "E105", "/board/width", "board.width: must be at least 1, not 0"),
    (_set(["board", "tiles", 0, "x"], -1), "E105", "/board/tiles/0/x",
     'board.tiles[0]: "x" must be at least 0, not -1'),
    (_set(["board", "lasers", 0, "beams"], 4), "E105", "/board/lasers/0/beams",
     'board.lasers[0]: "beams" must be at most 3, not 4'),
    (_set(["board", "pushers", 0, "phases"], [2, 6]), "E105", "/board/pushers/0/phases/1",
     "board.pushers[0].phases[1]: must be at most 5, not 6"),
    (_set(["robots", 1, "damage"], 10), "E105", "/robots/1/damage",
     'robots[1]: "damage" must be at most 9, not 10'),
    (_set(["robots", 0, "dock"], 0), "E105", "/robots/0/dock",
     'robots[0]: "dock" must be at least 1, not 0'),
    (_set(["robots", 0, "lives"], 11), "E105", "/robots/0/lives",
     'robots[0]: "lives" must be at most 10, not 11'),
    (_set(["rules", "lives"], 0), "E105", "/rules/lives", "rules.lives: must be at least 1, not 0"),
    (_set(["rules", "max_rounds"], 10001), "E105", "/rules/max_rounds",
     "rules.max_rounds: must be at most 10000, not 10001"),
    (_set(["rules", "respawn_damage"], 10), "E105", "/rules/respawn_damage",
     "rules.respawn_damage: must be at most 9, not 10"),
    (_set(["checks", 0, "register"], 6), "E105", "/checks/0/register",
     'checks[0]: "register" must be at most 5, not 6'),
    (_set(["checks", 0, "round"], 0), "E105", "/checks/0/round",
     'checks[0]: "round" must be at least 1, not 0'),
    (_set(["name"], ""), "E105", "/name", "name: must not be empty"),
    (_set(["robots", 0, "name"], ""), "E105", "/robots/0/name",
     'robots[0]: "name" must not be empty'),
    (_set(["robots", 0, "bot"], ""), "E105", "/robots/0/bot", 'robots[0]: "bot" must not be empty'),
    # lists
    (_set(["docks"], []), "E106", "/docks", "docks: needs at least 1 dock"),
    (_set(["board", "pushers", 0, "phases"], []), "E106", "/board/pushers/0/phases",
     'board.pushers[0]: "phases" needs at least 1 register'),
    (_set(["board", "tiles", 3, "phases"], [1, 3, 3]), "E106", "/board/tiles/3/phases",
     'board.tiles[3]: "phases" lists 3 more than once'),
    (_set(["robots", 1, "program", 0], ["move1"] * 6), "E106", "/robots/1/program/0",
     "robots[1].program[0]: has 6 cards, at most 5 allowed"),
    # cards
    (_set(["robots", 1, "program", 0, 0], "move1:0"), "E107", "/robots/1/program/0/0",
     f'robots[1].program[0][0]: "move1:0" is not a card ({CARD_HELP})'),
    (_set(["robots", 1, "program", 0, 0], "move1:1000"), "E107", "/robots/1/program/0/0",
     f'robots[1].program[0][0]: "move1:1000" is not a card ({CARD_HELP})'),
    (_set(["robots", 1, "program", 0, 0], "Move1"), "E107", "/robots/1/program/0/0",
     f'robots[1].program[0][0]: "Move1" is not a card ({CARD_HELP})'),
    (_set(["robots", 1, "program", 0, 0], 3), "E107", "/robots/1/program/0/0",
     f"robots[1].program[0][0]: 3 is not a card ({CARD_HELP})"),
    (_set(["robots", 1, "program", 1, "cards", 0], "left:070"), "E107",
     "/robots/1/program/1/cards/0",
     f'robots[1].program[1].cards[0]: "left:070" is not a card ({CARD_HELP})'),
]


@pytest.mark.parametrize("change, code, where, message", CASES,
                         ids=[f"{c[1]}-{c[2]}" for c in CASES])
def test_one_mistake_gives_one_problem(change, code, where, message):
    p = only(broken(change))
    assert (p.code, p.pointer, p.message) == (code, where, message)
    assert p.severity == ERROR and p.is_error


def test_six_registers_are_too_many_and_repeat_one():
    # (a list too long is checked further up to its bound only: the repeat is
    # in the first five)
    problems = broken(_set(["board", "tiles", 3, "phases"], [1, 2, 1, 4, 5, 3]))
    assert [(p.code, p.pointer, p.message) for p in problems] == [
        ("E106", "/board/tiles/3/phases", 'board.tiles[3]: "phases" has 6 registers, at most 5 '
         "allowed"),
        ("E106", "/board/tiles/3/phases", 'board.tiles[3]: "phases" lists 1 more than once'),
    ]


@pytest.mark.parametrize("card", ["move1", "move2:700", "back:1", "uturn:999", "left:10"])
def test_good_cards_pass(card):
    assert broken(_set(["robots", 1, "program", 0, 0], card)) == []


def test_problems_carry_the_square_of_their_object():
    def change(doc):
        doc["board"]["walls"][0]["side"] = "up"              # a wall at (3, 4)
        doc["flags"][1]["note"] = 5                          # a flag at (1, 7)
        doc["robots"][1]["at"]["facing"] = "up"              # starts at (3, 4)
        doc["board"]["tiles"][2]["y"] = "4"                  # no integer y: no square
        doc["board"]["tiles"][3]["phases"] = {"x": 1, "y": 1}   # a value is not its own place
        del doc["docks"][1]["facing"]                       # a dock at (6, 15)
        doc["robots"][1]["at"]["colour"] = "red"             # the key's object: (3, 4)
        doc["board"]["width"] = 0                            # no square at all
        doc["checks"][0]["register"] = 6                     # expects (5, 4): not its place
        doc["checks"][0]["archive"] = {"x": 2, "y": 2, "z": 0}  # nor is the archive it expects
    squares = {p.pointer: (p.x, p.y) for p in broken(change)}
    assert squares == {
        "/board/width": (None, None),
        "/board/walls/0/side": (3, 4),
        "/board/tiles/2/y": (None, None),
        "/board/tiles/3/phases": (6, 4),
        "/flags/1/note": (1, 7),
        "/docks/1": (6, 15),
        "/robots/1/at/facing": (3, 4),
        "/robots/1/at/colour": (3, 4),
        "/checks/0/register": (None, None),
        "/checks/0/archive/z": (None, None),
    }


def test_problems_come_in_file_order_without_duplicates():
    def change(doc):
        doc["checks"][1]["lives"] = -1
        doc["board"]["tiles"][1]["x"] = -1
        doc["version"] = 9
        doc["board"]["tiles"][0] = {"x": 0, "y": 0, "type": "conveyor", "dri": "E", "dirr": "E"}
        doc["flags"] = [{"x": -1, "y": 0}]
    problems = broken(change)
    assert [p.pointer for p in problems] == [
        "/version", "/board/tiles/0", "/board/tiles/0/dri", "/board/tiles/0/dirr",
        "/board/tiles/1/x", "/flags/0/x", "/checks/1/lives"]
    assert len({(p.code, p.pointer, p.message) for p in problems}) == len(problems)


def test_a_tile_with_a_bad_type_still_reports_its_other_keys():
    problems = broken(_set(["board", "tiles", 0], {"x": -2, "y": 0, "type": "lava", "dri": 1}))
    assert [(p.code, p.pointer) for p in problems] == [
        ("E105", "/board/tiles/0/x"), ("E102", "/board/tiles/0/type"),
        ("E104", "/board/tiles/0/dri")]


# ---------------------------------------------------------------- not an object at all

@pytest.mark.parametrize("data, shown", [
    ([], "a list"), ([{"format": "rally-scenario"}], "a list"), ("board", '"board"'),
    (None, "null"), (42, "42"), (2.5, "2.5"), (True, "true"), ((1, 2), "a Python tuple"),
])
def test_a_document_that_is_not_an_object_gives_one_clear_problem(data, shown):
    p = only(schema_problems(data))
    assert p == Problem(ERROR, "E101", "(top level): a scenario must be a JSON object {...}, "
                        f"not {shown}", "", None, None)


def test_odd_values_never_raise():
    doc = base()
    doc["name"] = "x" * 500
    doc["board"]["width"] = 10 ** 200
    doc["board"]["height"] = float("nan")
    doc["board"]["tiles"][0]["dir"] = {"deep": [[[[]]]]}
    doc["board"]["tiles"][1] = [1, 2]
    doc["robots"][0] = "Twonky"
    doc[""] = 1
    problems = schema_problems(doc)
    assert {p.pointer for p in problems} == {"/board/width", "/board/height",
                                             "/board/tiles/0/dir", "/board/tiles/1",
                                             "/robots/0", "/"}
    width = next(p for p in problems if p.pointer == "/board/width")
    assert width.message == "board.width: must be at most 100, not a very large number"
    height = next(p for p in problems if p.pointer == "/board/height")
    assert (height.code, height.message) == ("E105", "board.height: must be a finite number, not NaN")


def test_a_number_too_long_to_print_is_reported_not_raised():
    doc = base()
    doc["author"] = 10 ** 5000          # json.load refuses these; a Python caller might not
    p = only(schema_problems(doc))
    assert (p.code, p.pointer) == ("E108", "")
    assert p.message.startswith("(top level): the document could not be checked")


# ---------------------------------------------------------------- big courses

def _big_course() -> dict:
    kinds = list(TILE_TYPES)
    tiles = []
    for y in range(100):
        for x in range(100):
            kind = kinds[(x * 7 + y * 3) % len(kinds)]
            t = {"x": x, "y": y, "type": kind}
            for key in TILES[kind].keys:
                value = {DIRECTION: "NESW"[(x + y) % 4], FLAG: True if x % 2 else None,
                         ROTATION: "ccw", REGISTERS: [2, 4]}[key.kind]
                if value is not None:
                    t[key.name] = value
            tiles.append(t)
    doc = base()
    doc["board"].update(width=100, height=100, tiles=tiles,
                        walls=[{"x": i % 100, "y": i // 100, "side": "NESW"[i % 4]}
                               for i in range(0, 10000, 7)])
    return doc


def test_errors_deep_in_big_lists_keep_their_places():
    doc = _big_course()
    doc["board"]["tiles"][9999]["type"] = "lava"
    doc["board"]["tiles"][5000]["x"] = "0"
    doc["board"]["walls"][1000]["side"] = "top"
    doc["robots"][1]["damage"] = 12
    doc["checks"][1]["round"] = 0
    problems = schema_problems(doc)
    assert [(p.pointer, p.x, p.y) for p in problems] == [
        ("/board/tiles/5000/x", None, None),
        ("/board/tiles/9999/type", 99, 99),
        ("/board/walls/1000/side", 0, 70),
        ("/robots/1/damage", None, None),
        ("/checks/1/round", None, None),
    ]
    assert problems[1].message.startswith('board.tiles[9999]: "type" must be one of floor,')


# ---------------------------------------------------------------- the fast screen is exact

ODD_VALUES = [-1, 0, 1, 3, 5, 6, 100, 101, 10001, 2.5, 3.0, True, False, None, "", "N", "north",
              "cw", "conveyor", "pit", "move1", "move4", "left:0", "first", [], [1], [1, 1],
              [3, 1], [1, 2, 3, 4, 5, 6], ["move1"], {}, {"x": 1}]
EXTRA_KEYS = ["dir", "express", "rotation", "phases", "note", "type", "x", "dri", "cards",
              "power_down", "beams", "side", "facing", "name", "at"]


def _places(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _places(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _places(value, path + (i,))


@st.composite
def mutated(draw):
    """A valid scenario broken in one to three random places."""
    doc = copy.deepcopy(draw(scenarios(max_side=6, bot_names=("search",))))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_places(doc))[1:]))
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["set", "drop", "add"]))
        if action == "set":
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif action == "drop":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(EXTRA_KEYS))] = copy.deepcopy(
                draw(st.sampled_from(ODD_VALUES)))
    return doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_screening_changes_no_problem(doc):
    screened = schema_problems(doc)
    with mock.patch.object(schema_module, "_failures", side_effect=ValueError):
        plain = schema_problems(doc)        # jsonschema alone, on the whole document
    assert screened == plain
    assert bool(screened) == (not validator().is_valid(doc))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_the_screen_flags_exactly_the_items_jsonschema_rejects(doc):
    failures = schema_module._failures(doc)
    for path in schema_module._LISTS:
        items = schema_module._at(doc, path)
        if not isinstance(items, list):
            continue
        items_schema = schema_module._at(SCHEMA, _schema_route(path) + ("items",))
        judge = validator().evolve(schema=items_schema)
        flagged = {f[len(path)] for f in failures if tuple(f[:len(path)]) == path
                   and len(f) > len(path)}
        assert flagged == {i for i, item in enumerate(items) if not judge.is_valid(item)}, path


def test_the_big_lists_are_screened():
    # (the course card's short lists are screened too: Rally Forge writes them)
    assert [path for path in schema_module._LISTS if path[0] != "card"] == [
        ("board", "tiles"), ("board", "walls"), ("board", "lasers"), ("board", "pushers"),
        ("board", "levels"),
        ("flags",), ("boards",), ("robots",), ("checks",), ("accept",), ("teams",)]


def test_nan_is_never_taken_for_null():
    # the screen reads NaN as null, which a check's x may be: such documents go
    # to jsonschema whole; where null is not allowed either, the screen rejects it
    doc = base()
    doc["checks"][1]["x"] = float("nan")
    doc["board"]["tiles"][0]["x"] = float("inf")
    problems = schema_problems(doc)
    assert [(p.code, p.pointer, p.message) for p in problems] == [
        ("E105", "/board/tiles/0/x", 'board.tiles[0]: "x" must be a finite number, not Infinity'),
        ("E105", "/checks/1/x", 'checks[1]: "x" must be a finite number, not NaN')]
    del doc["checks"][1]["x"]
    assert [p.pointer for p in schema_problems(doc)] == ["/board/tiles/0/x"]


def _schema_route(path: tuple) -> tuple:
    """Where in the schema the list at ``path`` is described."""
    routes = {("board",): ("$defs", "board")}
    prefix = routes.get(path[:-1], ())
    return prefix + ("properties", path[-1])


def test_a_list_longer_than_its_bound_is_one_problem_and_checked_up_to_the_bound():
    """10,000 registers with a bad one past the bound: one E106 naming the
    length, nothing about the items past the bound, and (what took 35 s) no
    comparison of every pair."""
    phases = list(range(1, 10_001)) + ["x"]
    problems = broken(_set(["board", "pushers", 0, "phases"], phases))
    assert [(p.code, p.pointer, p.message) for p in problems] == [
        ("E106", "/board/pushers/0/phases", 'board.pushers[0]: "phases" has 10001 registers, '
         "at most 5 allowed")]


def test_every_list_of_the_format_is_bounded():
    from rallyforge.engine.format.schema import _list_bounds
    unbounded = [path for path, (limit, _) in _list_bounds(SCHEMA).items()
                 if limit == float("inf")]
    assert unbounded == []


def test_repeats_are_found_in_one_pass():
    from rallyforge.engine.format.schema import _NOTHING, _repeated
    assert _repeated(list(range(100_000)) + [5]) == 5
    assert _repeated([1, True]) is _NOTHING and _repeated([1, 1.0]) == 1.0
    assert _repeated([{"a": [1]}, {"a": [1.0]}]) == {"a": [1.0]}
    assert _repeated([[1], [True]]) is _NOTHING
    assert _repeated(list(range(10))) is _NOTHING


def _many_broken_tiles(count: int) -> dict:
    """base() on a 40x40 board with `count` pits that each have an unknown key,
    three walls on no side, and a number of lives that is not a number."""
    doc = base()
    doc["board"].update(width=40, height=40, walls=[{"x": i, "y": 9, "side": "up"}
                                                    for i in range(3)])
    doc["board"]["tiles"] = [{"x": i % 40, "y": 10 + i // 40, "type": "pit", "zz": 1}
                             for i in range(count)]
    doc["rules"]["lives"] = "many"
    return doc


def test_problems_past_the_bound_are_summed_up_in_one_and_their_items_skipped():
    from rallyforge.engine.format.loader import read_dict
    from rallyforge.engine.format.schema import MAX_LISTED

    doc = _many_broken_tiles(1200)
    problems = schema_problems(doc)
    assert len(problems) == MAX_LISTED + 1
    assert all(p.is_error for p in problems)
    # what lies outside the big lists is all there, then their items in order
    assert [p.pointer for p in problems[:3]] == ["/board/tiles/0/zz", "/board/tiles/1/zz",
                                                 "/board/tiles/2/zz"]
    assert [p.pointer for p in problems[MAX_LISTED - 2:MAX_LISTED]] == [
        "/board/tiles/998/zz", "/rules/lives"]
    last = problems[-1]
    assert (last.code, last.pointer, last.message) == (
        "E109", "", "(top level): only the first 1,000 problems with the file's structure are "
        "listed; 201 more tiles and 3 more walls have problems too (fix these, then validate "
        "again)")
    # the loader skips the broken items whose problems are not listed too
    scenario, read = read_dict(doc)
    assert scenario is not None and read[:len(problems)] == problems
    assert scenario.board.tiles == () and scenario.board.walls == ()


def test_an_item_cut_short_by_the_bound_is_named():
    doc = _many_broken_tiles(999)
    doc["board"]["tiles"][998]["yy"] = 2        # its second problem is one too many
    problems = schema_problems(doc)
    assert [p.pointer for p in problems[-3:]] == ["/board/tiles/998/zz", "/rules/lives", ""]
    assert problems[-1].message == (
        "(top level): only the first 1,000 problems with the file's structure are listed; "
        "board.tiles[998] has more, and 3 more walls have problems too (fix these, then "
        "validate again)")


def test_as_many_problems_as_the_bound_are_all_listed():
    from rallyforge.engine.format.schema import MAX_LISTED
    problems = schema_problems(_many_broken_tiles(MAX_LISTED - 4))
    assert len(problems) == MAX_LISTED and "E109" not in {p.code for p in problems}
