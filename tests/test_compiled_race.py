"""The compiled race (engine/rules/compiled/_race.c) with the search bot's
compiled race bot (engine/bots/_search_race.c) against the Python engine
(engine/rules/race.py with engine/bots/search.py): on the board of
every rule case and example course, under rules drawn at random, the same
races, death for death and square for square (random courses:
tests/test_compiled_differential.py); what it does not play it refuses, and
a test fails for anything it neither plays nor refuses; where it does not
apply, balance runs play the Python engine; RALLYFORGE_COMPILED=0 rules it
out; bad arguments raise, never crash."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from dataclasses import field, fields, make_dataclass, replace
from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance import compiled, play
from rallyforge.engine.bots import new_race, race_bot, search
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.element_kinds import COUNT, EDGE_LIST, Key, TILE_LIST, TileType
from rallyforge.engine.model.option_cards import OPTION_IDS
from rallyforge.engine.model.scenario import (COURSE_RULES, Board, FactoryBoard, Level, Rules, Scenario,
                                              Tile)
from rallyforge.engine.rules.compiled import COMPILED_SWITCH, race as compiled_rules
from tests import random_courses

ROOT = Path(__file__).resolve().parent.parent
BOARDS = sorted((ROOT / "tests" / "rules").glob("*.json")) + sorted((ROOT / "scenarios").glob("*.json"))
built = compiled.built()
needs_built = pytest.mark.usefixtures("compiled_part")      # (conftest.py: fails or skips)


def board(path: Path, variant: dict) -> Scenario | None:
    """The course of `path` for search-bot races, option cards counted, the
    rules changed by `variant`, without flags under elimination (docs/rules.md
    13.6); None without docks, or without flags under another victory."""
    scenario = load_file(path)
    rules = replace(scenario.rules, options="counted", **variant)
    eliminating = rules.victory == "elimination"
    if not scenario.docks or not (scenario.flags or eliminating):
        return None
    return replace(scenario, flags=() if eliminating else scenario.flags, rules=rules,
                   robots=(), checks=())


def cases() -> list:
    """Every board with rules drawn at random, all together (tests/random_courses.py)."""
    out = []
    for i, path in enumerate(BOARDS):
        variant = random_courses.rules(random.Random(i), rounds=12)
        variant.pop("options")
        out.append(pytest.param(path, variant, id=path.stem))
    return out


@needs_built
@pytest.mark.parametrize("path, variant", cases())
def test_the_same_races_as_the_python_engine(path, variant):
    scenario = board(path, variant)
    if scenario is None:
        pytest.skip("no docks, or no flags to race for")
    why = compiled.python_reason(scenario, "search", 1)
    if why is not None:
        refused = tuple(f"{cls.__name__}.{name} " for cls, table in compiled_rules.FIELDS.items()
                        for name, how in table.items()
                        if how == compiled_rules.REFUSED or isinstance(how, tuple))
        assert why.startswith(refused) or why == "a ramp tile", why
        return
    docks = len(scenario.docks)
    for seed in range(3):
        robots = (1, min(4, docks), docks)[seed]
        lineup = tuple((seed + i) % docks + 1 for i in range(robots))
        assert (compiled.race_summary(scenario, seed, lineup)
                == play.engine_summary(scenario, seed, lineup, "search")), (seed, lineup)
        assert (play.play_trial(scenario, seed, lineup[0], "search")
                == play.engine_trial(scenario, seed, lineup[0], "search"))


@needs_built
def test_long_races_with_every_dock_stay_the_same():
    """Many races on two busy example courses: deaths, pushes, re-entry
    crowding and ties broken by the generator all come up."""
    for name in ("standard-course.json", "gauntlet.json"):
        scenario = board(ROOT / "scenarios" / name, {})
        assert scenario is not None
        docks = tuple(range(1, len(scenario.docks) + 1))
        for seed in range(12):
            in_c = compiled.race_summary(scenario, seed, docks)
            assert in_c == play.engine_summary(scenario, seed, docks, "search"), (name, seed)
            assert in_c.deaths, "races with deaths to compare"


@needs_built
def test_the_game_seating_races_the_same_in_both_engines():
    """A balance run seated as the game seats players (k robots on docks
    1..k, several counts in turn) plays the docks its plan gives: the
    compiled race and the Python engine agree race for race."""
    from rallyforge.engine.analysis.balance.plan import RACE, make_plan
    scenario = board(ROOT / "scenarios" / "gauntlet.json", {})
    assert scenario is not None and len(scenario.docks) >= 6
    plan = make_plan(6, (2, 4, 6), len(scenario.docks), seed=3, trials=0)
    seated = [j for j in plan.jobs if j.kind == RACE]
    assert [j.docks for j in seated[:3]] == [(1, 2), (1, 2, 3, 4), (1, 2, 3, 4, 5, 6)]
    for job in seated:
        assert compiled.applies(scenario, "search", len(job.docks))
        in_c = compiled.race_summary(scenario, job.seed, job.docks)
        assert in_c.docks == job.docks
        assert in_c == play.engine_summary(scenario, job.seed, job.docks, "search"), job


def test_balance_runs_use_it_only_where_it_applies():
    standard = board(ROOT / "scenarios" / "standard-course.json", {})
    levelled = board(ROOT / "scenarios" / "highlands.json", {})
    assert standard is not None and levelled is not None
    played = replace(standard, rules=replace(standard.rules, options="played"))  # (an upgrade)
    assert compiled.applies(standard, "search", 4) == built
    assert compiled.applies(played, "search", 4) == built
    assert not compiled.applies(standard, "greedy", 4)
    assert not compiled.applies(standard, "search", compiled_rules.MOST_ROBOTS + 1)
    assert not compiled.applies(levelled, "search", 4)


def test_courses_with_python_only_rules_go_to_python():
    standard = board(ROOT / "scenarios" / "standard-course.json", {})
    assert standard is not None
    half = standard.board.width // 2
    parts = (FactoryBoard("West", 0, 0, half, half),)
    recorded = replace(standard, boards=parts)
    assert compiled.applies(recorded, "search", 4) == built
    controlling = replace(recorded, rules=replace(standard.rules, victory="flag_control"))
    assert not compiled.applies(controlling, "search", 4)
    flagged = replace(recorded, rules=replace(standard.rules, victory="elimination"))
    assert compiled.python_reason(flagged, "search", 4) == "3 flags on an elimination course (E343)"


def with_option_sources(scenario: Scenario, seed: int) -> Scenario:
    """`scenario` with option cards played: two at the start (or a draft of three, every
    other seed), a card per flag touched, repair sites that give cards on odd seeds."""
    rules = replace(scenario.rules, options="played", start_options=2 if seed % 2 else 0,
                    start_option_choice=0 if seed % 2 else 3, flag_gives_option=True,
                    repair_sites="options" if seed % 3 == 1 else "repair")
    return replace(scenario, rules=rules)


@needs_built
def test_played_option_cards_race_the_same_in_both_engines():
    """Every fourth board of the rule cases and examples, rules drawn at
    random, option cards played and handed out at the start, at flags, on
    upgrade squares and repair sites (docs/rules.md 10, 12.5, 12.6)."""
    raced = 0
    for param in cases()[::4]:
        plain = board(*param.values)
        if plain is None:
            continue
        for seed in range(2):
            scenario = with_option_sources(plain, seed)
            if compiled.python_reason(scenario, "search", 1) is not None:
                break                   # raced by Python for another reason (levels, a rule)
            raced += seed == 0
            docks = len(scenario.docks)
            lineup = tuple((seed + i) % docks + 1 for i in range(min(4, docks)))
            assert (compiled.race_summary(scenario, seed, lineup)
                    == play.engine_summary(scenario, seed, lineup, "search")), (param.id, seed)
    assert raced >= 25


@needs_built
def test_a_bot_trades_cards_for_damage_from_the_start():
    """A bot's option choices hold from the race's start (docs/rules.md 10.3,
    10.12): the point of a Recompile in the first round, before it first
    programs, is traded for a card as any other. On the standard course
    with three cards dealt each and registers locked from 1 damage (a
    trade at the first point): the same races in both engines, Recompile
    used in some."""
    standard = board(ROOT / "scenarios" / "standard-course.json", {})
    assert standard is not None
    rules = replace(standard.rules, options="played", start_options=3, lock_from_damage=1)
    scenario = replace(standard, rules=rules)
    recompiled = 0
    for seed in range(40):
        in_c = compiled.race_summary(scenario, seed, (1, 2, 3, 4))
        assert in_c == play.engine_summary(scenario, seed, (1, 2, 3, 4), "search"), seed
        recompiled += "recompile" in dict(in_c.options_used)
    assert recompiled >= 3, recompiled


TURNING = [ROOT / "engine" / "editing" / "published" / "frenetic-factory.json",
           ROOT / "tests" / "rules" / "12.10-board-turns-on-flag.json"]


def _boards_turned(scenario: Scenario, seed: int, docks: tuple[int, ...]) -> int:
    """The quarter turns of boards in the Python engine's race (its event log)."""
    race = new_race(play.lineup(scenario, docks, "search"), seed=seed)
    race.run()
    return sum(e.amount for e in race.events if e.kind == "board_turn")


@needs_built
@pytest.mark.parametrize("path", TURNING, ids=lambda p: p.stem)
def test_boards_that_turn_on_flags_race_the_same_in_both_engines(path):
    """docs/rules.md 12.10 in C: the coin flipped and the board turned where
    the Python race does, and played on at once by the race and the bots
    (Frenetic Factory's four boards; the rule case's two, one robot or more)."""
    scenario = board(path, {})
    assert scenario is not None and scenario.rules.board_turns_on_flag
    assert compiled.applies(scenario, "search", len(scenario.docks))
    turned = 0
    for seed in range(30):
        docks = tuple(range(1, min(len(scenario.docks), 1 + seed % 6) + 1))
        assert (compiled.race_summary(scenario, seed, docks)
                == play.engine_summary(scenario, seed, docks, "search")), (seed, docks)
        turned += _boards_turned(scenario, seed, docks) > 0
    assert turned >= 5, f"boards turned in {turned} races of 30"


@needs_built
@pytest.mark.parametrize("name", ("moving-targets", "set-to-kill", "factory-rejects",
                                  "day-of-the-superbot", "interference", "tandem-carnage",
                                  "all-for-one-or-one-for-all"))
def test_published_courses_with_special_rules_race_the_same_in_both_engines(name):
    """docs/rules.md 12.1 to 12.4, 12.9 and 13.2 to 13.4 in C: Moving
    Targets' flags riding the belts, Set to Kill's robot lasers dealing
    double, Factory Rejects' robots starting damaged with no power down, Day
    of the SuperBot's hunt, Interference's racers and blockers, Tandem
    Carnage's shared progress and All for One's any teammate, race for race
    as the Python engine plays them; and the rules matter: without them most
    of the same races go otherwise."""
    scenario = board(ROOT / "engine" / "editing" / "published" / f"{name}.json", {})
    assert scenario is not None
    plain = replace(scenario, rules=replace(scenario.rules, flags_move=False, robot_laser_damage=1,
                                            start_damage=0, power_down=True, superbot=False,
                                            victory="robot"))
    assert plain.rules != scenario.rules
    docks = tuple(range(1, 7))
    assert compiled.applies(scenario, "search", len(docks))
    changed = 0
    for seed in range(16):
        in_c = compiled.race_summary(scenario, seed, docks)
        assert in_c == play.engine_summary(scenario, seed, docks, "search"), seed
        changed += in_c != compiled.race_summary(plain, seed, docks)
    assert changed >= 12, f"the special rules changed {changed} races of 16"


@needs_built
@pytest.mark.parametrize("robots", (4, 8))
def test_war_zone_races_the_same_in_both_engines(robots):
    """docs/rules.md 13.6 in C: War Zone has no flags, each bot heads for
    the nearest robot of another team, and the last team with a robot left
    wins; race for race as the Python engine plays it. Most races are won,
    each by a team whose foes are all out, in the register the last went out."""
    scenario = board(ROOT / "engine" / "editing" / "published" / "war-zone.json", {})
    assert scenario is not None and scenario.rules.victory == "elimination"
    docks = tuple(range(1, robots + 1))
    assert compiled.applies(scenario, "search", robots)
    won = 0
    for seed in range(12):
        in_c = compiled.race_summary(scenario, seed, docks)
        assert in_c == play.engine_summary(scenario, seed, docks, "search"), seed
        if in_c.won_teams:
            won += 1
            out = {d.robot for d in in_c.deaths if d.archive is None}
            assert out | set(in_c.winners) == set(range(robots)), seed
            assert max(d.round for d in in_c.deaths) == in_c.rounds, seed
    assert won >= 8, f"{won} races of 12 won"


@needs_built
def test_a_robot_with_no_foe_on_the_board_plans_its_movement_options():
    """Under elimination a bot with no robot of another team on the board
    plays its own square as its flag, its own option cards in view, and
    plans its movement options (search.py with_a_flag); aimed at a robot it
    plans none (team_goals.py aimed: its view's copy of the robot holds no
    cards). A robot alone on War Zone holding every option card, its hand
    cut to a card or two by damage: the same races in both engines, Brakes
    now and then keeping it on its square."""
    scenario = board(ROOT / "engine" / "editing" / "published" / "war-zone.json", {})
    assert scenario is not None
    rules = replace(scenario.rules, options="played", start_options=len(OPTION_IDS),
                    start_damage=8)
    scenario = replace(scenario, rules=rules)
    braked = 0
    for seed in range(30):
        in_c = compiled.race_summary(scenario, seed, (1,))
        assert in_c == play.engine_summary(scenario, seed, (1,), "search"), seed
        braked += "brakes" in dict(in_c.options_used)
    assert braked >= 2, braked


def test_the_random_races_compared_hold_the_course_rules_rare_moments():
    """Among the races the differential tests compare (tests/random_courses.py),
    as the Python engine's log tells: flags ride belts (12.1), boards turn
    (12.10), the SuperBot's title passes to its destroyer (12.9; on Day of
    the SuperBot it seldom does: the SuperBot sheds its damage every
    round), a blocker leaves with its player (13.2) and a touch counts for
    teammates (13.3)."""
    moments = {"flag moved": lambda e, s: e.kind == "flag_move",
               "board turned": lambda e, s: e.kind == "board_turn" and e.amount,
               "title passed": lambda e, s: e.kind == "superbot" and e.target is not None,
               "blocker left": lambda e, s: e.kind == "leave" and s.rules.victory == "player",
               "flag shared": lambda e, s: e.kind == "flag" and e.cause == "team"}
    seen = dict.fromkeys(moments, 0)
    for seed in range(200):
        scenario = random_courses.random_course(seed)
        if compiled_rules.refusal(scenario) is None:
            docks = tuple(range(1, len(scenario.docks) + 1))
            race = new_race(play.lineup(scenario, docks, "search"), seed=seed)
            race.run()
            for name, happened in moments.items():
                seen[name] += any(happened(e, scenario) for e in race.events)
    assert min(seen.values()) >= 4, seen


@needs_built
@pytest.mark.parametrize("name", ("12.1-flags-move", "12.2-robot-laser-damage", "12.3-start-damage",
                                  "12.4-no-power-down", "12.9-superbot-double-laser-discards-damage",
                                  "12.9-superbot-fall-keeps-title",
                                  "12.9-superbot-tie-higher-priority",
                                  "12.9-superbot-title-to-the-destroyer",
                                  "13.2-blocker-and-player-out", "13.2-blocker-leaves-mid-push",
                                  "13.2-blocker-leaves-before-its-damage",
                                  "13.2-blocker-leaves-off-the-belt", "13.3-team-progress-shared",
                                  "13.4-team-any-finisher", "13.6-elimination"))
def test_the_rule_cases_of_special_rules_race_the_same_in_both_engines(name):
    """The rule cases of the special rules C plays, raced by search bots
    from every dock under their own rules: the same races in both engines."""
    scenario = board(ROOT / "tests" / "rules" / f"{name}.json", {})
    assert scenario is not None and set(scenario.rules.changed()) & set(COURSE_RULES)
    docks = tuple(range(1, len(scenario.docks) + 1))
    assert compiled.applies(scenario, "search", len(docks))
    for seed in range(20):
        assert (compiled.race_summary(scenario, seed, docks)
                == play.engine_summary(scenario, seed, docks, "search")), seed


@needs_built
def test_the_bots_of_turned_boards_are_kept_no_longer_than_their_tables():
    """Frenetic Factory's races meet dozens of arrangements of its boards:
    each one's compiled bot is dropped with its tables (tables.py's cache,
    bounded by squares), and its compiled courses are an LRU of 64."""
    import gc
    from rallyforge.engine.bots import tables
    scenario = board(TURNING[0], {})
    assert scenario is not None
    for seed in range(120):
        compiled.race_summary(scenario, seed, (1, 2, 3, 4, 5, 6))
    gc.collect()
    assert 10 < len(race_bot._made) <= len(tables._cache)
    assert compiled_rules._compiled.cache_info().currsize <= 64


def test_a_build_from_before_the_races_leaves_them_to_python(monkeypatch):
    """An old build of the compiled part (the search bot's loop alone, not yet
    built again by the install) is not asked for races it does not have."""
    from rallyforge.engine.analysis.balance import balance
    scenario = load_file(ROOT / "scenarios" / "tutorial.json")
    before = dict(balance(scenario, races=8, robots=2, workers=1), elapsed_s=0, engine=None)
    loop_only = type("LoopOnly", (), {"decide": getattr(search.compiled, "decide", None)})()
    monkeypatch.setattr(search, "compiled", loop_only)
    compiled._known.clear()
    assert not compiled.applies(board(ROOT / "scenarios" / "tutorial.json", {}), "search", 2)
    monkeypatch.setattr(search, "compiled", None)
    assert dict(balance(scenario, races=8, robots=2, workers=1), elapsed_s=0, engine=None) == before


def test_a_balance_run_gives_the_same_result_either_way(monkeypatch):
    from rallyforge.engine.analysis.balance import balance
    scenario = load_file(ROOT / "scenarios" / "waterworks.json")
    first = dict(balance(scenario, races=24, robots=4, workers=1), elapsed_s=0, engine=None)
    monkeypatch.setattr(compiled, "applies", lambda *args: False)
    second = dict(balance(scenario, races=24, robots=4, workers=1), elapsed_s=0, engine=None)
    assert first == second


# ------------------------------------------------------------ bad arguments

def specs() -> tuple[dict, dict]:
    """The course spec (race.CourseSpec) and the search bot's (race_bot.BotSpec)
    of the standard course."""
    scenario = board(ROOT / "scenarios" / "standard-course.json", {})
    assert scenario is not None
    course = compiled_rules.compile_course(scenario.board)
    flags = tuple(course.square(f.x, f.y) for f in scenario.flags)
    spec = compiled_rules.course_spec(course, flags, scenario.rules)
    return dict(spec), dict(race_bot.bot_spec(course, flags, scenario.rules))


@needs_built
@pytest.mark.parametrize("change, error", [
    (lambda s: s.pop("target"), KeyError),
    (lambda s: s.update(target=s["target"][:-1]), ValueError),
    (lambda s: s.update(target=[9999] * len(s["target"])), ValueError),
    (lambda s: s.update(belt=["E"] * len(s["belt"])), TypeError),
    (lambda s: s.update(flags=[-1] * len(s["flags"])), ValueError),
    (lambda s: s.update(beam_k=[10 ** 6] * len(s["beam_k"]), beam_place=[0] * len(s["beam_k"]),
                        beam_start=s["beam_start"]), ValueError),
    (lambda s: s.update(pusher_start=[0, 0, 0, 0, 0, 0, 1]), ValueError),
    (lambda s: s.update(pushers=[0, 4] + s["pushers"][2:]), ValueError),      # a direction past W
    (lambda s: s.update(width=4097, height=1), ValueError),
])
def test_a_bad_course_is_refused(change, error):
    given = specs()[0]
    change(given)
    with pytest.raises(error):
        compiled_rules.compiled.race_course(given)


@needs_built
@pytest.mark.parametrize("change, error", [
    (lambda s: s.pop("end"), KeyError),
    (lambda s: s.update(flags=[-1] * len(s["flags"])), ValueError),
    (lambda s: s.update(S=s["S"] + 1), ValueError),
    (lambda s: s.update(value=s["value"][:-1]), ValueError),
    (lambda s: s.update(end=s["end"][:, :-8]), ValueError),
    (lambda s: s.update(end=s["end"].view("float32")), ValueError),          # int32-sized floats
    (lambda s: s.update(end=s["end"].astype(">i4")), ValueError),            # not native order
    (lambda s: s.update(value=s["value"].view("float64")), ValueError),
    (lambda s: s.update(card_kind=[7] * len(s["card_kind"])), ValueError),    # no such kind
    (lambda s: s.update(from_square=s["from_square"][:-1]), ValueError),
])
def test_a_bad_race_bot_is_refused(change, error):
    given = specs()[1]
    change(given)
    with pytest.raises(error):
        search.compiled.race_bot(given)


COURSE_SCALARS = ("lives", "hand_size", "destroy_at", "lock_from", "respawn", "robot_lasers",
                  "flags_repair", "any_flag", "teleport_back", "max_rounds", "finish_first",
                  "robot_laser_damage", "power_down", "superbot", "victory", "played_options",
                  "start_options", "draft", "flag_gives_option", "options_sites")
BOT_SCALARS = ("flag_value", "death_penalty", "last_life_penalty", "damage_weight", "far",
               "unreachable", "recompile_draws")


@needs_built
@pytest.mark.parametrize("which, name", [(0, n) for n in COURSE_SCALARS]
                         + [(1, n) for n in BOT_SCALARS])
def test_every_scalar_is_range_checked(which, name):
    given = specs()[which]
    make = (compiled_rules.compiled.race_course, search.compiled.race_bot)[which]
    for wrong in (-1, 2 ** 40):
        with pytest.raises((ValueError, OverflowError), match=name):
            make(dict(given, **{name: wrong}))
    make(given)


def test_the_scalars_tried_are_all_the_specs_pass():
    course, bot = ({key for key, v in spec.items() if isinstance(v, (int, bool))}
                   for spec in specs())
    assert course - set(COURSE_SCALARS) == {"width", "height", "flag_count"}
    assert bot - set(BOT_SCALARS) == {"squares", "flag_count", "X", "S", "FIN"}


@needs_built
def test_the_limits_are_the_headers():
    """engine/rules/compiled/_limits.h is the one place of the compiled part's
    limits: the race's module exports them and race.py reads them."""
    header = (ROOT / "engine" / "rules" / "compiled" / "_limits.h").read_text()
    defined = dict(re.findall(r"#define (MOST_\w+) (\d+)", header))
    for name in ("MOST_ROBOTS", "MOST_FLAGS", "MOST_SIDE"):
        assert (getattr(compiled_rules.compiled, name) == getattr(compiled_rules, name)
                == int(defined[name]))
    sources = [*(ROOT / "engine" / "bots").glob("_*.[ch]"),
               *(ROOT / "engine" / "rules" / "compiled").glob("_*.[ch]")]
    grep = [p.name for p in sources if p.name != "_limits.h"
            and re.search(r"#define MOST_|\b64 robots|> 64\b", p.read_text())]
    assert not grep, f"limits defined outside _limits.h in {grep}"


def _racer(scenario: Scenario):
    racer = compiled._racer(scenario)[0]
    assert racer is not None
    return racer.course.capsule, racer.bot


@needs_built
def test_a_bad_turn_is_refused():
    """race's `turned` (board_turns.py's coin, from engine/rules/compiled/race.py
    Changes) is called with the flag's square when a robot touches it; what
    it gives back is checked: a course of another size or flags, a bot made
    for another course, anything but a (course, bot) pair or None raise,
    and so does what it raises."""
    from rallyforge.engine.format.loader import load_dict

    def course(width: int, flag_x: int) -> tuple[object, object]:
        return _racer(load_dict({
            "format": "rally-scenario", "version": 1, "name": "turns",
            "board": {"width": width, "height": 1}, "flags": [{"x": flag_x, "y": 0}],
            "docks": [{"x": width - 1, "y": 0, "facing": "E"}], "rules": {"max_rounds": 2}}))

    here, wider, elsewhere = course(3, 0), course(4, 0), course(3, 1)
    race = compiled_rules.compiled.race
    on_flag = [(0, 1, 0, 3, 0, True)]           # powered down on the flag: touches it in register 1
    squares: list[int] = []
    assert race(*here, random.Random(0), on_flag, lambda sq: squares.append(sq))[0] == 1
    assert squares == [0], "called once, with the flag's square, as the robot finishes"
    assert race(*here, random.Random(0), on_flag, lambda sq: here)[0] == 1     # turned to itself
    for turned, error in ((lambda sq: wider, ValueError), (lambda sq: elsewhere, ValueError),
                          (lambda sq: (here[0], wider[1]), ValueError),
                          (lambda sq: (here[1], here[0]), ValueError),
                          (lambda sq: here[0], TypeError), (lambda sq: 1 / 0, ZeroDivisionError),
                          ("not callable", TypeError)):
        with pytest.raises(error):
            race(*here, random.Random(0), on_flag, turned)


def _stood(occupancy: bytes) -> list[int]:
    """A compiled race's occupancy, per square: the robots there at a register's end."""
    return [int.from_bytes(occupancy[at:at + 4], "little") for at in range(0, len(occupancy), 4)]


@needs_built
def test_a_blocker_leaves_its_belt_with_its_player():
    """13.2 in C: racer and blocker powered down on one belt; the racer
    carried off to its last death takes its player out, and the blocker
    leaves at once rather than riding on (the compiled race once carried
    it back onto the board)."""
    scenario = board(ROOT / "tests" / "rules" / "13.2-blocker-leaves-off-the-belt.json",
                     {"max_rounds": 1})
    assert scenario is not None
    width = scenario.board.width
    # (square, facing, damage, lives, flags, powered down, SuperBot, team, blocker)
    robots = [(3 * width, 1, 0, 3, 0, True, False, 0, False),
              (width + 7, 0, 0, 1, 0, True, False, 1, False),
              (3 * width + 1, 1, 0, 3, 0, True, False, 0, True),
              (width + 6, 0, 0, 3, 0, True, False, 1, True)]
    _, _, _, deaths, occupancy, *_ = compiled_rules.compiled.race(*_racer(scenario),
                                                                  random.Random(0), robots)
    stood = _stood(occupancy)
    assert [d[0] for d in deaths] == [1], "the racer dies, the blocker leaves"
    assert stood[width + 6] == stood[width + 7] == 0, "nobody stands on the belt after"


@needs_built
def test_64_robots_on_pushers_are_all_pushed():
    """64 powered-down robots in a column, each on a pusher pushing E in
    register 1: all of them move, the last included (the compiled race once
    kept room for 63 and left the 64th standing)."""
    from rallyforge.engine.format.loader import load_dict
    scenario = load_dict({
        "format": "rally-scenario", "version": 1, "name": "pushers",
        "board": {"width": 3, "height": 64,
                  "pushers": [{"x": 0, "y": y, "dir": "E", "phases": [1]} for y in range(64)]},
        "flags": [{"x": 2, "y": 0}], "docks": [{"x": 2, "y": 63, "facing": "E"}],
        "rules": {"max_rounds": 1, "robot_lasers": False}})
    robots = [(y * 3, 1, 0, 3, 0, True) for y in range(64)]
    _, _, _, deaths, occupancy, *_ = compiled_rules.compiled.race(*_racer(scenario),
                                                                  random.Random(0), robots)
    stood = _stood(occupancy)
    assert not deaths
    assert stood == [0, 5, 0] * 64, "every robot at x = 1 at the end of every register"


@needs_built
def test_bad_races_are_refused():
    course, bot = _racer(board(ROOT / "scenarios" / "standard-course.json", {}))
    other = _racer(board(ROOT / "scenarios" / "tutorial.json", {}))[1]
    given = specs()[0]
    race = compiled_rules.compiled.race
    rng = random.Random(1)
    start = (given["flags"][0], 0, 0, 3, 0, False)
    with pytest.raises(TypeError):
        race(course, bot, rng)
    with pytest.raises(ValueError):
        race("not a course", bot, rng, [start])
    with pytest.raises(ValueError):
        race(course, "not a bot", rng, [start])
    with pytest.raises(ValueError):
        race(bot, course, rng, [start])                     # the two swapped
    with pytest.raises(ValueError, match="another course"):
        race(course, other, rng, [start])
    with pytest.raises(ValueError):
        race(course, bot, rng, [])
    with pytest.raises(ValueError):
        race(course, bot, rng, [start] * 65)
    with pytest.raises(ValueError):
        race(course, bot, rng, [start, start])              # two robots on one square
    with pytest.raises(ValueError):
        race(course, bot, rng, [(len(given["death"]), 0, 0, 3, 0, False)])
    with pytest.raises(AttributeError):
        race(course, bot, object(), [start])
    rounds, *_ = race(course, bot, rng, [start])
    assert rounds >= 1, "a good race still plays after the refusals"


# ------------------------------------------------- what it plays, what it refuses

def unlisted(tiles=TILE_LIST, edges=EDGE_LIST, classes=tuple(compiled_rules.FIELDS)) -> list[str]:
    """Every tile kind, edge element and model field the compiled race's
    table does not say it plays or refuses (a kind whose keys are not all
    played must be refused whole)."""
    out = []
    for kinds, played, refused in ((tiles, compiled_rules.PLAYED_TILES, compiled_rules.REFUSED_TILES),
                                   (edges, compiled_rules.PLAYED_EDGES, compiled_rules.REFUSED_EDGES)):
        for kind in kinds:
            keys = {key.name for key in kind.keys}
            if kind.name in refused:
                continue
            if kind.name not in played:
                out.append(f"the {kind.name!r} element")
            elif set(played[kind.name]) != keys:
                out.append(f"the {kind.name!r} element's keys {sorted(keys)}")
    for cls in classes:
        listed = compiled_rules.FIELDS.get(cls, {})
        out += [f"{cls.__name__}.{f.name}" for f in fields(cls) if f.name not in listed]
    return out


def test_every_element_and_rule_is_played_or_refused():
    """A rule, course key or element added to the Python rules only must not
    be raced by the C as if it were not there."""
    missing = unlisted()
    assert not missing, (
        f"{', '.join(missing)}: neither played by the compiled race (engine/rules/compiled/_race.c) "
        "nor refused. List it in engine/rules/compiled/race.py: a field in FIELDS as REFUSED, a tile "
        "kind in REFUSED_TILES, an edge in REFUSED_EDGES (Python then plays courses that use "
        "it), or as PLAYED once _race.c plays it and tests/test_compiled_race.py compares it")
    assert set(compiled_rules.FIELDS) >= {Scenario, Board, Rules}


def test_a_made_up_element_or_rule_is_caught(monkeypatch):
    """The check above on a tile kind, an edge and a Rules field nobody has heard of."""
    imagined = TileType("imagined", "Imagined")
    assert unlisted(tiles=TILE_LIST + (imagined,)) == ["the 'imagined' element"]
    beam = replace(EDGE_LIST[1], name="beam")
    assert unlisted(edges=EDGE_LIST + (beam,)) == ["the 'beam' element"]
    keyed = replace(TILE_LIST[2], keys=TILE_LIST[2].keys + (Key("speed", COUNT, new=1),))
    assert unlisted(tiles=(keyed,)) == ["the 'conveyor' element's keys ['dir', 'express', 'speed']"]
    grown = _grown_rules()
    monkeypatch.setitem(compiled_rules.FIELDS, grown, compiled_rules.FIELDS[Rules])  # (as if Rules grew)
    assert unlisted(classes=(grown,)) == ["Rules.slippery"]


def _grown_rules():
    """Rules with a field the compiled race's table has not heard of."""
    return make_dataclass("Rules", [("slippery", bool, field(default=False))], bases=(Rules,),
                          frozen=True)


@needs_built
def test_what_it_does_not_play_is_refused(monkeypatch):
    standard = board(ROOT / "scenarios" / "standard-course.json", {})
    assert standard is not None and compiled.applies(standard, "search", 4)
    grown = _grown_rules()
    monkeypatch.setitem(compiled_rules.FIELDS, grown, compiled_rules.FIELDS[Rules])  # (as if Rules grew)
    at_default = replace(standard, rules=grown())
    assert compiled.applies(at_default, "search", 4), "a new rule at its default changes nothing"
    used = replace(standard, rules=grown(slippery=True))
    assert compiled.python_reason(used, "search", 4) == "Rules.slippery = True"
    imagined = replace(standard, board=replace(standard.board, tiles=standard.board.tiles
                                               + (Tile(0, 0, "imagined"),)))
    assert compiled.python_reason(imagined, "search", 4) == "a imagined tile"
    for rules in ({"victory": "capture"}, {"finish": "never"}):
        changed = replace(standard, rules=replace(standard.rules, **rules))
        assert not compiled.applies(changed, "search", 4), rules
    levelled = replace(standard, board=replace(standard.board, levels=(Level(1, 1, 1),)))
    assert compiled.python_reason(levelled, "search", 4).startswith("Board.levels")


# courses of one to three squares with a pusher facing each way (race_course
# once took the pushers' directions for squares and refused S and W there)
TINY = [(w, h, facing, x) for w, h in ((1, 1), (2, 1), (1, 3), (3, 1)) for facing in "NESW"
        for x in range(w)]


@needs_built
@pytest.mark.parametrize("width, height, facing, x", TINY)
def test_tiny_courses_with_a_pusher_race(width, height, facing, x):
    from rallyforge.engine.format.loader import load_dict
    scenario = load_dict({
        "format": "rally-scenario", "version": 1, "name": "tiny",
        "board": {"width": width, "height": height,
                  "pushers": [{"x": x, "y": 0, "dir": facing, "phases": [1, 3, 5]}]},
        "flags": [{"x": width - 1, "y": height - 1}], "docks": [{"x": 0, "y": 0, "facing": "E"}],
        "rules": {"max_rounds": 6}})
    assert compiled.python_reason(scenario, "search", 1) is None
    for seed in range(3):
        assert (compiled.race_summary(scenario, seed, (1,))
                == play.engine_summary(scenario, seed, (1,), "search"))


def test_a_course_race_course_refuses_falls_back_to_python(monkeypatch):
    """A check of race_course failing is no crash: Python plays the course."""
    from rallyforge.engine.analysis.balance import balance
    scenario = load_file(ROOT / "scenarios" / "tutorial.json")
    before = dict(balance(scenario, races=6, robots=2, workers=1), elapsed_s=0, engine=None)

    def refuse(spec):
        raise ValueError("race_course: pushers[1] = 3 is out of range")

    monkeypatch.setattr(compiled_rules, "compiled", type("Refusing", (), {
        "race_course": staticmethod(refuse), "race": None})())
    compiled._known.clear()
    compiled_rules._compiled.cache_clear()
    assert compiled.python_reason(scenario, "search", 2) == (
        "race_course: pushers[1] = 3 is out of range")
    after = dict(balance(scenario, races=6, robots=2, workers=1), elapsed_s=0, engine=None)
    assert after == before


# ------------------------------------------------------------ the switch

def _balance(path: Path, env: dict[str, str], *extra: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "rallyforge.engine.cli", "balance", str(path),
                           "--races", "12", "--robots", "3", "--workers", "1", "--quiet",
                           "--json", "-", *extra],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_built
@pytest.mark.parametrize("name", ["standard-course.json", "waterworks.json"])
def test_the_switch_plays_python_with_the_same_result(name):
    """RALLYFORGE_COMPILED=0: the Python engine races, and the balance JSON
    is the same but for the engine's name and the time."""
    path = ROOT / "scenarios" / name
    env = {k: v for k, v in os.environ.items() if k != COMPILED_SWITCH}
    in_c = _balance(path, env)
    python = _balance(path, {**env, COMPILED_SWITCH: "0"})
    assert (in_c.pop("engine"), python.pop("engine")) == ("compiled", "python")
    in_c.pop("elapsed_s"), python.pop("elapsed_s")
    assert in_c == python


def test_the_switch_rules_out_the_whole_compiled_part():
    code = ("from rallyforge.engine.bots import search; "
            "from rallyforge.engine.rules.compiled import race; "
            "from rallyforge.engine.analysis.balance import compiled; "
            "print(search.compiled is None, race.compiled is None, compiled.built())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, COMPILED_SWITCH: "0"}, timeout=120)
    assert done.stdout.split() == ["True", "True", "False"], done.stderr


def test_the_help_names_the_switch():
    from rallyforge.engine.cli.main import build_parser
    assert COMPILED_SWITCH + "=0" in build_parser([]).format_help()
    assert COMPILED_SWITCH + "=0" in (ROOT / "README.md").read_text()



def _dealt_three(seed: int) -> Scenario:
    """Random course `seed` with played option cards, three each at the start."""
    scenario = random_courses.random_course(seed)
    return replace(scenario, rules=replace(scenario.rules, options="played", start_options=3,
                                           start_option_choice=0))


@needs_built
@pytest.mark.parametrize("seed", (199, 538, 612))
def test_a_robot_its_recompile_destroys_programs_nothing(seed):
    """docs/rules.md 10, Recompile: a robot the card's damage destroys programs
    nothing that round (the search bot was once asked to program it off the
    board, and failed), in C as in Python."""
    scenario = _dealt_three(seed)
    docks = tuple(range(1, len(scenario.docks) + 1))
    in_c = compiled.race_summary(scenario, seed, docks)
    assert any(death.agent == "recompile" for death in in_c.deaths)
    assert in_c == play.engine_summary(scenario, seed, docks, "search")
