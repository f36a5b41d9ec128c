"""Broken files never crash the loader: random bytes flipped in valid files and
random values swapped into valid documents give ScenarioError or problems,
never KeyError, TypeError, RecursionError...

Seeded, so a failure names the case that reproduces it.
"""
from __future__ import annotations

import copy
import json
import math
import random
from pathlib import Path

import pytest

from rallyforge.engine.format.loader import dumps, load_dict, load_file, read_dict, read_file, to_dict
from rallyforge.engine.model.problems import Problem, ScenarioError
from rallyforge.engine.validation.validator import validate_data, validate_file

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The example courses, and the fixtures for robots, programs and checks.
SOURCES = (sorted((ROOT / "scenarios").glob("*.json")) + sorted(FIXTURES.glob("warnings/*.json"))
           + sorted(FIXTURES.glob("invalid/*.json")))
BYTE_CASES = 200
VALUE_CASES = 400
LONG_CASES = 8


def nested(depth: int, inner: object) -> object:
    for _ in range(depth):
        inner = [inner] if depth % 2 else {"x": inner}
    return inner


def random_value(rng: random.Random) -> object:
    """A JSON value of any type, often of the wrong one for its place."""
    pick = rng.randrange(16)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 5, 6, 99, 100, 101, 999, 1000, -(10 ** 6)])
    if pick == 3:
        return rng.choice([10 ** 30, -(10 ** 30), 10 ** 400, 2 ** 63])
    if pick == 4:
        return rng.choice([0.5, -0.0, 3.0, 1e308, math.inf, -math.inf, math.nan])
    if pick == 5:
        return rng.choice(["", "N", "E", "x", "pit", "conveyor", "move1", "move1:0", "move9:5",
                           "left:1000", "cw", "first", "é" * 3, "\u0000", "a" * 10_000])
    if pick == 6:
        return []
    if pick == 7:
        return {}
    if pick == 8:
        return [random_value(rng) for _ in range(rng.randint(1, 4))]
    if pick == 9:
        return {rng.choice(["x", "y", "type", "dir", "name", "zz", ""]): random_value(rng)
                for _ in range(rng.randint(1, 3))}
    if pick == 10:
        return nested(rng.choice([2, 30, 200, 600]), rng.choice([1, "x", None]))
    if pick == 11:
        return [[[]]]
    if pick == 12:
        return {"x": rng.randint(-2, 120), "y": rng.randint(-2, 120)}
    if pick == 13:
        return [{"x": rng.randint(-1, 9), "y": rng.randint(-1, 9), "type": "pit"}] * rng.randint(1, 3)
    if pick == 14:
        return rng.choice(["move1", "uturn:10"]) if rng.random() < 0.5 else [["move1"]] * 7
    return rng.randint(-5, 12)


def paths(value: object, limit: int = 12) -> list[tuple]:
    """Every path to a value inside a document, down to `limit` levels."""
    out = []
    todo = [((), value)]
    while todo:
        here, node = todo.pop()
        out.append(here)
        if len(here) >= limit:
            continue
        if isinstance(node, dict):
            todo.extend((here + (key,), inner) for key, inner in node.items())
        elif isinstance(node, list):
            todo.extend((here + (i,), inner) for i, inner in enumerate(node))
    return out


def mutate(doc: object, rng: random.Random) -> object:
    doc = copy.deepcopy(doc)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        where = rng.choice(paths(doc))
        if not where:
            return random_value(rng) if rng.random() < 0.3 else doc
        parent = doc
        for key in where[:-1]:
            parent = parent[key]
        key = where[-1]
        action = rng.random()
        if action < 0.7:
            parent[key] = random_value(rng)
        elif action < 0.85:
            del parent[key]                         # a missing key or a shorter list
        elif isinstance(parent, dict):
            parent[rng.choice(["extra", "x", "note", "dir"])] = random_value(rng)
        else:
            parent.insert(key, random_value(rng))
    return doc


LISTS = (("board", "tiles"), ("board", "walls"), ("board", "lasers"), ("board", "pushers"),
         ("flags",), ("docks",), ("robots",), ("checks",))


def silently_dropped(data: dict) -> list[str]:
    """The lists of a document the schema accepts from which the loader lost
    an element without saying why (it may drop only what E201-E205 name)."""
    scenario, problems = read_dict(data)
    lost = []
    for path in LISTS:
        raw: object = data
        for key in path:
            raw = raw.get(key) if isinstance(raw, dict) else None
        if not isinstance(raw, list):
            continue
        model: object = scenario
        for key in path:
            model = getattr(model, key)
        where = "/" + "/".join(path)
        named = {p.pointer for p in problems if p.code in ("E201", "E202", "E203", "E204", "E205")}
        dropped = sum(1 for i in range(len(raw)) if f"{where}/{i}" in named)
        if len(model) + dropped != len(raw):
            lost.append(where)
    return lost


def only_scenario_errors(data: object, case: str) -> list[Problem]:
    """Every reader gives problems, never a crash; the validator's problems."""
    problems: list[Problem] = []
    for function in (load_dict, read_dict, validate_data):
        try:
            result = function(data)
        except ScenarioError as exc:
            assert function is load_dict, f"{case}: {function.__name__} raised {exc!r}"
            assert exc.problems and all(isinstance(p, Problem) for p in exc.problems)
            continue
        except Exception as exc:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{case}: {function.__name__} raised {type(exc).__name__}: {exc}")
        if function is validate_data:
            problems = result
            assert all(isinstance(p, Problem) for p in result), case
            if isinstance(data, dict) and not any(p.code.startswith("E1") for p in result):
                # schema and loader agree: what the schema accepts, the loader builds
                assert silently_dropped(data) == [], case
        if function is load_dict:
            # Whatever still loads, saves and loads back the same.
            try:
                assert to_dict(load_dict(json.loads(dumps(result)))) == to_dict(result), case
            except ScenarioError as exc:
                pytest.fail(f"{case}: a loaded course does not load after saving: {exc}")
    return problems


@pytest.mark.skipif(not SOURCES, reason="no valid files to mutate")
def test_random_values_in_valid_documents():
    rng = random.Random(20240611)
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in SOURCES]
    for case in range(VALUE_CASES):
        source = case % len(docs)
        seed = rng.randrange(2 ** 32)
        data = mutate(docs[source], random.Random(seed))
        only_scenario_errors(data, f"case {case} ({SOURCES[source].name}, seed {seed})")


@pytest.mark.skipif(not SOURCES, reason="no valid files to mutate")
def test_random_bytes_in_valid_files(tmp_path):
    rng = random.Random(42)
    texts = [p.read_bytes() for p in SOURCES]
    target = tmp_path / "mutant.json"
    for case in range(BYTE_CASES):
        source = case % len(texts)
        raw = bytearray(texts[source])
        for _ in range(rng.choice([1, 2, 4, 16])):
            i = rng.randrange(len(raw))
            kind = rng.random()
            if kind < 0.6:
                raw[i] = rng.randrange(256)
            elif kind < 0.8:
                del raw[i]
            else:
                raw[i:i] = rng.choice([b"[", b"{", b"-", b"9" * 40, b"1e999", b"NaN", b'"',
                                       b"\xff", b"\xc3", b",", b"null"])
        target.write_bytes(bytes(raw))
        label = f"case {case} ({SOURCES[source].name})"
        try:
            load_file(target)
        except ScenarioError:
            pass
        except Exception as exc:  # noqa: BLE001
            pytest.fail(f"{label}: load_file raised {type(exc).__name__}: {exc}\n{bytes(raw)[:300]!r}")
        for function in (read_file, validate_file):
            try:
                function(target)
            except Exception as exc:  # noqa: BLE001
                pytest.fail(f"{label}: {function.__name__} raised {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("depth", [100, 900, 3000])
def test_deep_nesting_in_a_file(tmp_path, depth):
    path = tmp_path / "deep.json"
    path.write_text('{"format": "rally-scenario", "note": ' + "[" * depth + "]" * depth + "}",
                    encoding="utf-8")
    with pytest.raises(ScenarioError):
        load_file(path)
    assert any(p.is_error for p in validate_file(path))


@pytest.mark.parametrize("value", [None, [], 3, 2.5, "course", True, [{"format": "rally-scenario"}]])
def test_documents_that_are_not_objects(value, tmp_path):
    """JSON null too: one problem, E101 at the top level, from every reader."""
    only_scenario_errors(value, repr(value))
    [problem] = validate_data(value)
    assert (problem.code, problem.pointer) == ("E101", "")
    assert problem.message.startswith("(top level): a scenario must be a JSON object")
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    assert [p.code for p in validate_file(path)] == ["E101"]
    assert read_file(path)[0] is None


@pytest.mark.skipif(not SOURCES, reason="no valid files to mutate")
def test_long_lists_in_valid_documents():
    """Any list of a document made far longer than the format allows: never a
    crash, and one E106 for it however long it is (checks compare no pairs)."""
    rng = random.Random(715)
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in SOURCES]
    for case in range(LONG_CASES):
        source = case % len(docs)
        doc = copy.deepcopy(docs[source])
        lists = [where for where in paths(doc) if isinstance(_get(doc, where), list)]
        where = rng.choice(lists)
        items = _get(doc, where) or [rng.randint(1, 5)]
        if rng.random() < 0.3:      # distinct numbers and a stray (once 35 s for 10,000 phases)
            long = [*range(1, 41_000), "x"]
        else:                       # past every bound but that of checks
            long = [copy.deepcopy(rng.choice(items)) for _ in range(10)] * 4_100
        _put(doc, where, long)
        label = f"case {case} ({SOURCES[source].name}, {'/'.join(map(str, where))})"
        too_long = [p for p in only_scenario_errors(doc, label)
                    if p.code == "E106" and "41000" in p.message]
        assert len(too_long) <= 1, label


def _get(doc: object, where: tuple) -> object:
    for key in where:
        doc = doc[key]      # type: ignore[index]
    return doc


def _put(doc: object, where: tuple, value: object) -> None:
    _get(doc, where[:-1])[where[-1]] = value     # type: ignore[index]
