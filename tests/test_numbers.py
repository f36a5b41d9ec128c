"""Numbers in a course file. JSON does not tell 9 from 9.0: a whole number
written with a decimal point (9.0, -0.0) is that whole number wherever the
format takes one, and the course reads, races and saves as with 9. NaN and
the infinities (which Python's JSON reads) are no number a course may hold:
E105 wherever they stand, never read, never written.

Every numeric key of the format is tried, each in the first example or
fixture that has it (tests/fixtures/numbers/every-number.json holds the
keys the examples leave out: goals, the rule numbers, accept, a stored card).
"""
from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import dumps, load_dict, read_dict
from rallyforge.engine.format.schema import SCHEMA, _walk_schema
from rallyforge.engine.model.problems import ScenarioError
from rallyforge.engine.rules import lone_robot_model
from rallyforge.engine.validation.validator import validate_data

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SOURCES = ([FIXTURES / "numbers" / "every-number.json", FIXTURES / "options-every-syntax.json"]
           + sorted((ROOT / "scenarios").glob("*.json"))
           + sorted((ROOT / "tests" / "rules").glob("*.json")))
NON_FINITE = (math.nan, math.inf, -math.inf)


def schema_number_places() -> dict[tuple, bool]:
    """Each place in a document where the schema takes a number: True where
    only a whole number."""
    places: dict[tuple, bool] = {}

    def visit(node: dict, place: tuple) -> None:
        types = node.get("type")
        types = types if isinstance(types, list) else [types]
        if "integer" in types or "number" in types:
            places[place] = places.get(place, False) or "number" not in types
    _walk_schema(SCHEMA, visit)
    return places


PLACES = schema_number_places()


def numbers_in(doc: object, path: tuple = ()) -> list[tuple]:
    """The path of every number in a document (true and false are none)."""
    if isinstance(doc, bool):
        return []
    if isinstance(doc, (int, float)):
        return [path]
    if isinstance(doc, dict):
        return [p for key, value in doc.items() for p in numbers_in(value, path + (key,))]
    if isinstance(doc, list):
        return [p for i, value in enumerate(doc) for p in numbers_in(value, path + (i,))]
    return []


def place_of(path: tuple) -> tuple:
    return tuple("*" if isinstance(part, int) else part for part in path)


def first_of_each_place() -> dict[tuple, tuple[Path, tuple]]:
    found: dict[tuple, tuple[Path, tuple]] = {}
    for source in SOURCES:
        doc = json.loads(source.read_text(encoding="utf-8"))
        for path in numbers_in(doc):
            found.setdefault(place_of(path), (source, path))
    return found


FOUND = first_of_each_place()
CASES = sorted((place, *where) for place, where in FOUND.items() if place in PLACES)
IDS = ["/".join(map(str, case[0])) for case in CASES]


def changed(source: Path, path: tuple, value: object) -> tuple[dict, dict]:
    """The document of `source`, and a copy with `value` at `path`."""
    doc = json.loads(source.read_text(encoding="utf-8"))
    other = copy.deepcopy(doc)
    node = other
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value(node[path[-1]]) if callable(value) else value
    return doc, other


def verdict(doc: dict) -> list[tuple]:
    return [(p.code, p.pointer, p.severity) for p in validate_data(doc)]


def strict_json(text: str) -> object:
    def refuse(name: str):
        raise AssertionError(f"{name} written")
    return json.loads(text, parse_constant=refuse)


def test_every_numeric_key_of_the_format_is_tried():
    assert set(PLACES) <= set(FOUND), sorted(set(PLACES) - set(FOUND))


@pytest.mark.parametrize("place, source, path", CASES, ids=IDS)
def test_a_whole_number_with_a_decimal_point_is_the_whole_number(place, source, path):
    doc = json.loads(source.read_text(encoding="utf-8"))
    value = _at(doc, path)
    if isinstance(value, float) and not value.is_integer():
        value = round(value)                # (a number key holding a fraction: a whole one)
        doc = changed(source, path, value)[1]
    for written in {float(value), -0.0} if value == 0 else {float(value)}:
        _, other = changed(source, path, written)
        assert verdict(other) == verdict(doc)
        ours, theirs = read_dict(doc)[0], read_dict(other)[0]
        if PLACES[place]:                   # a whole number: read as the int, typed so
            assert repr(theirs) == repr(ours)
            assert dumps(theirs) == dumps(ours)
        else:                               # a number: the same number
            assert json.loads(dumps(theirs)) == json.loads(dumps(ours))


@pytest.mark.parametrize("place, source, path", CASES, ids=IDS)
def test_nan_and_the_infinities_are_refused_everywhere(place, source, path):
    for value in NON_FINITE:
        _, other = changed(source, path, value)
        pointer = "/" + "/".join(map(str, path))
        here = [p for p in validate_data(other) if p.pointer == pointer]
        assert [p.code for p in here] == ["E105"], (value, here)
        assert "must be a finite number, not " + json.dumps(value) in here[0].message
        with pytest.raises(ScenarioError):
            load_dict(other)
        scenario, _ = read_dict(other)      # the editor's lenient read keeps the rest ...
        if scenario is not None:
            strict_json(dumps(scenario))    # ... and never writes one back


def _at(doc: object, path: tuple) -> object:
    for part in path:
        doc = doc[part]         # type: ignore[index]
    return doc


def test_whole_numbers_with_a_decimal_point_race(tmp_path, capsys):
    """The rule numbers the races count with, as a campaign of fuzzed files
    wrote them: races play as with the whole numbers."""
    doc = json.loads((ROOT / "scenarios" / "highlands.json").read_text(encoding="utf-8"))
    rules = {"hand_size": 9.0, "start_options": -0.0, "respawn_damage": 2.0,
             "lock_from_damage": 5.0, "fall_damage": 2.0, "destroy_at_damage": 10.0,
             "lives": 3.0, "max_rounds": 30.0}
    outputs = []
    for name, written in (("whole", {k: int(v) for k, v in rules.items()}), ("decimal", rules)):
        doc["rules"] = written
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        assert main(["run", str(path), "--robots", "3", "--seed", "4", "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("first", [2, 2.0])
def test_the_verdict_on_fall_damage_does_not_hang_on_what_was_validated_before(first):
    """The lone-robot model is cached per board and rules, and 2 == 2.0: a
    levelled course with ``fall_damage: 2.0`` is judged the same whether the
    same board with 2 was judged first or not (it crashed, or came back
    clean after the 2)."""
    lone_robot_model._build.cache_clear()
    doc = json.loads((ROOT / "scenarios" / "highlands.json").read_text(encoding="utf-8"))
    verdicts = []
    for value in (first, 2.0 if first == 2 else 2):
        doc["rules"] = {"fall_damage": value}
        verdicts.append(verdict(doc))
    doc["rules"] = {"fall_damage": 2}
    lone_robot_model._build.cache_clear()
    assert verdicts == [verdict(doc)] * 2


def test_the_card_command_never_prints_nan(tmp_path, capsys):
    """A NaN in the goals or in a kept card is the file's error (exit 1),
    never a card printed with NaN (which is no JSON) nor one stored."""
    doc = json.loads((FIXTURES / "numbers" / "every-number.json").read_text(encoding="utf-8"))
    goals, kept = copy.deepcopy(doc), copy.deepcopy(doc)
    goals["goals"]["deaths_per_leg"] = math.nan
    kept["card"]["difficulty"]["deaths_per_robot_leg"] = math.inf
    for name, bad, argv in (("goals", goals, ["--races", "4", "--workers", "1", "--store"]),
                            ("kept", kept, ["--stored"])):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(bad), encoding="utf-8")
        before = path.read_bytes()
        assert main(["card", str(path), "--json", *argv]) == 1
        out, err = capsys.readouterr()
        assert out == "" and "must be a finite number" in err
        assert path.read_bytes() == before


def test_the_lone_robot_cache_keeps_rules_of_other_number_types_apart():
    """A script may build Rules(fall_damage=2.0) itself: what it gets does not
    hang on whether the model for fall_damage 2 was built first."""
    from rallyforge.engine.model.scenario import Rules
    board = load_dict(json.loads((ROOT / "scenarios" / "highlands.json").read_text())).board

    def built(rules: Rules) -> object:
        try:
            return lone_robot_model.LoneModel.build(board, rules)
        except TypeError as exc:
            return f"TypeError: {exc}"
    lone_robot_model._build.cache_clear()
    alone = built(Rules(fall_damage=2.0))
    whole = built(Rules(fall_damage=2))
    assert built(Rules(fall_damage=2.0)) == alone and built(Rules(fall_damage=2)) is whole
