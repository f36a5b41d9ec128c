"""The compiled race of search bots (engine/bots/_race.c) against the Python
engine (engine/rules/race.py with engine/bots/search.py): on the board of
every rule case and example course, under the rules as written and as
changed one way or another, the same races, death for death and square for
square; where it does not apply, balance runs play the Python engine; bad
arguments raise, never crash."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance import play
from rallyforge.engine.bots import compiled_race, search
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.scenario import Scenario

ROOT = Path(__file__).resolve().parent.parent
BOARDS = sorted((ROOT / "tests" / "rules").glob("*.json")) + sorted((ROOT / "scenarios").glob("*.json"))
built = search.compiled is not None
needs_built = pytest.mark.skipif(not built, reason="the compiled part is not built here")

# Rules changed so that each one the compiled race reads is tried off its default.
VARIANTS = [{}, {"finish": "all"}, {"robot_lasers": False},
            {"flags_repair": False, "archive_on_any_flag": False}, {"lives": 1},
            {"hand_size": 5, "lock_from_damage": 3}, {"max_rounds": 3},
            {"teleport_backup_distance": 4}, {"respawn_damage": 0, "destroy_at_damage": 6},
            {"lives": 5, "finish": "all", "robot_lasers": False}]


def board(path: Path, variant: dict) -> Scenario | None:
    """The course of `path` for search-bot races, option cards counted, the
    rules changed by `variant`; None without docks or flags."""
    scenario = load_file(path)
    if not scenario.docks or not scenario.flags:
        return None
    rules = replace(scenario.rules, options="counted", **variant)
    return replace(scenario, rules=rules, robots=(), checks=())


def cases() -> list:
    out = []
    for i, path in enumerate(BOARDS):
        out.append(pytest.param(path, VARIANTS[i % len(VARIANTS)], id=path.stem))
    return out


@needs_built
@pytest.mark.parametrize("path, variant", cases())
def test_the_same_races_as_the_python_engine(path, variant):
    scenario = board(path, variant)
    if scenario is None:
        pytest.skip("no docks or no flags")
    if not compiled_race.applies(scenario, "search", 1):
        assert compile_levelled(scenario) or scenario.team_race, \
            "only levelled boards and team courses are left to the Python engine"
        return
    docks = len(scenario.docks)
    for seed in range(3):
        robots = (1, min(4, docks), docks)[seed]
        lineup = tuple((seed + i) % docks + 1 for i in range(robots))
        assert (play.compiled_summary(scenario, seed, lineup)
                == play.engine_summary(scenario, seed, lineup, "search")), (seed, lineup)
        assert (play.play_trial(scenario, seed, lineup[0], "search")
                == play.engine_trial(scenario, seed, lineup[0], "search"))


def compile_levelled(scenario: Scenario) -> bool:
    from rallyforge.engine.rules.course import compile_course
    return compile_course(scenario.board).levelled


@needs_built
def test_long_races_with_every_dock_stay_the_same():
    """Many races on two busy example courses: deaths, pushes, re-entry
    crowding and ties broken by the generator all come up."""
    for name in ("standard-course.json", "gauntlet.json"):
        scenario = board(ROOT / "scenarios" / name, {})
        assert scenario is not None
        docks = tuple(range(1, len(scenario.docks) + 1))
        for seed in range(12):
            compiled = play.compiled_summary(scenario, seed, docks)
            assert compiled == play.engine_summary(scenario, seed, docks, "search"), (name, seed)
            assert compiled.deaths, "races with deaths to compare"


def crowded_board(rng: random.Random) -> Scenario:
    """A small random board packed with elements, its docks anywhere (on
    belts, gears, teleporters...), so that robots meet head-on on belts,
    in lasers' beams and at re-entry far more often than on real courses."""
    from rallyforge.engine.format.loader import load_dict
    w, h = rng.randint(5, 8), rng.randint(5, 8)
    squares = rng.sample([(x, y) for x in range(w) for y in range(h)], w * h)
    dirs = "NESW"
    tiles = []
    safe = []                                   # squares a robot may start or a flag stand on
    for x, y in squares:
        kind = rng.choice(["floor"] * 4 + ["conveyor"] * 5 + ["pit", "gear", "crusher", "water",
                                                                "current", "teleporter", "repair",
                                                                "randomizer", "drain"])
        tile: dict = {"x": x, "y": y, "type": kind}
        if kind in ("conveyor", "current"):
            tile["dir"] = rng.choice(dirs)
            tile["express"] = kind == "conveyor" and rng.random() < 0.4
            if not tile["express"]:
                del tile["express"]
        elif kind == "gear":
            tile["rotation"] = rng.choice(["cw", "ccw"])
        elif kind == "crusher":
            tile["phases"] = sorted(rng.sample(range(1, 6), rng.randint(1, 3)))
        if kind not in ("pit", "drain"):
            safe.append((x, y))
        if kind != "floor":
            tiles.append(tile)
    walls = [{"x": x, "y": y, "side": rng.choice(dirs)} for x, y in rng.sample(squares, w)]
    lasers = [{"x": x, "y": y, "dir": rng.choice(dirs), "beams": rng.randint(1, 3)}
              for x, y in rng.sample(squares, 3)]
    pushers = [{"x": x, "y": y, "dir": rng.choice(dirs),
                "phases": sorted(rng.sample(range(1, 6), rng.randint(1, 3)))}
               for x, y in rng.sample(squares, 3)]
    picked = rng.sample(safe, min(len(safe), 9))
    flags = [{"x": x, "y": y} for x, y in picked[:rng.randint(1, 3)]]
    docks = [{"x": x, "y": y, "facing": rng.choice(dirs)} for x, y in picked[len(flags):]]
    return load_dict({"format": "rally-scenario", "version": 1, "name": "crowded",
                      "board": {"width": w, "height": h, "tiles": tiles, "walls": walls,
                                "lasers": lasers, "pushers": pushers},
                      "flags": flags, "docks": docks,
                      "rules": {"max_rounds": 12, "lives": rng.randint(1, 4),
                                "finish": rng.choice(["first", "all"])}})


@needs_built
@pytest.mark.parametrize("board_seed", range(0, 80, 8))
def test_the_same_races_on_crowded_random_boards(board_seed):
    for k in range(board_seed, board_seed + 8):
        scenario = crowded_board(random.Random(k))
        if len(scenario.docks) < 2:
            continue
        docks = tuple(range(1, len(scenario.docks) + 1))
        assert (play.compiled_summary(scenario, k, docks)
                == play.engine_summary(scenario, k, docks, "search")), k


def test_balance_runs_use_it_only_where_it_applies():
    standard = board(ROOT / "scenarios" / "standard-course.json", {})
    levelled = board(ROOT / "scenarios" / "highlands.json", {})
    assert standard is not None and levelled is not None
    played = replace(standard, rules=replace(standard.rules, options="played"))
    assert compiled_race.applies(standard, "search", 4) == built
    assert not compiled_race.applies(standard, "greedy", 4)
    assert not compiled_race.applies(standard, "search", compiled_race.MOST_ROBOTS + 1)
    assert not compiled_race.applies(levelled, "search", 4)
    assert not compiled_race.applies(played, "search", 4)


def test_a_build_from_before_the_races_leaves_them_to_python(monkeypatch):
    """An old build of the compiled part (the search bot's loop alone, not yet
    built again by the install) is not asked for races it does not have."""
    from rallyforge.engine.analysis.balance import balance
    scenario = load_file(ROOT / "scenarios" / "tutorial.json")
    before = dict(balance(scenario, races=8, robots=2, workers=1), elapsed_s=0)
    loop_only = type("LoopOnly", (), {"decide": getattr(search.compiled, "decide", None)})()
    monkeypatch.setattr(search, "compiled", loop_only)
    assert not compiled_race.applies(board(ROOT / "scenarios" / "tutorial.json", {}), "search", 2)
    monkeypatch.setattr(search, "compiled", None)
    assert dict(balance(scenario, races=8, robots=2, workers=1), elapsed_s=0) == before


def test_a_balance_run_gives_the_same_result_either_way(monkeypatch):
    from rallyforge.engine.analysis.balance import balance
    scenario = load_file(ROOT / "scenarios" / "waterworks.json")
    first = dict(balance(scenario, races=24, robots=4, workers=1), elapsed_s=0)
    monkeypatch.setattr(compiled_race, "applies", lambda *args: False)
    second = dict(balance(scenario, races=24, robots=4, workers=1), elapsed_s=0)
    assert first == second


# ------------------------------------------------------------ bad arguments

def spec() -> dict:
    scenario = board(ROOT / "scenarios" / "standard-course.json", {})
    assert scenario is not None
    course = compiled_race.compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    captured = {}

    def keep(given):
        captured.update(given)
        return object()

    original = search.compiled
    try:
        search.compiled = type("Catch", (), {"race_course": staticmethod(keep)})()
        compiled_race._spec(course, flags, scenario)
    finally:
        search.compiled = original
    return captured


@needs_built
@pytest.mark.parametrize("change, error", [
    (lambda s: s.pop("target"), KeyError),
    (lambda s: s.update(target=s["target"][:-1]), ValueError),
    (lambda s: s.update(target=[9999] * len(s["target"])), ValueError),
    (lambda s: s.update(belt=["E"] * len(s["belt"])), TypeError),
    (lambda s: s.update(flags=[-1] * len(s["flags"])), ValueError),
    (lambda s: s.update(beam_k=[10 ** 6] * len(s["beam_k"]), beam_place=[0] * len(s["beam_k"]),
                        beam_start=s["beam_start"]), ValueError),
    (lambda s: s.update(S=s["S"] + 1), ValueError),
    (lambda s: s.update(value=s["value"][:-1]), ValueError),
    (lambda s: s.update(end=s["end"][:, :-8]), ValueError),
    (lambda s: s.update(pusher_start=[0, 0, 0, 0, 0, 0, 1]), ValueError),
])
def test_a_bad_course_is_refused(change, error):
    given = spec()
    change(given)
    with pytest.raises(error):
        search.compiled.race_course(given)


@needs_built
def test_bad_races_are_refused():
    given = spec()
    course = search.compiled.race_course(given)
    rng = random.Random(1)
    start = (given["flags"][0], 0, 0, 3, 0, False)
    with pytest.raises(TypeError):
        search.compiled.race(course, rng)
    with pytest.raises(ValueError):
        search.compiled.race("not a course", rng, [start])
    with pytest.raises(ValueError):
        search.compiled.race(course, rng, [])
    with pytest.raises(ValueError):
        search.compiled.race(course, rng, [start] * 65)
    with pytest.raises(ValueError):
        search.compiled.race(course, rng, [start, start])           # two robots on one square
    with pytest.raises(ValueError):
        search.compiled.race(course, rng, [(len(given["death"]), 0, 0, 3, 0, False)])
    with pytest.raises(AttributeError):
        search.compiled.race(course, object(), [start])
    rounds, *_ = search.compiled.race(course, rng, [start])
    assert rounds >= 1, "a good race still plays after the refusals"


def test_a_team_course_is_left_to_python():
    """docs/rules.md 13 is not in _race.c: a course with a victory other
    than "robot", or any team or role, is refused."""
    from rallyforge.engine.model.scenario import Rules
    plain = load_file("tests/rules/6.3-finish-first-ends-race.json")
    plain = replace(plain, robots=(), checks=())
    assert compiled_race.applies(plain, "search", 2) == compiled_race.built()
    for victory in ("player", "team_progress", "team_any", "flag_control", "capture"):
        assert not compiled_race.applies(replace(plain, rules=replace(plain.rules, victory=victory)),
                                         "search", 2)
    assert Rules().victory == "robot"
