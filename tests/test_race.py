"""The race API: stepping, the outcome, the event log, determinism, checks and
the `run` and `test` commands."""
from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rallyforge.engine.analysis.scenario_checks import play_checked, run_checks
from rallyforge.engine.bots import new_race
from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import load_dict
from rallyforge.engine.model.element_kinds import DEATH_CAUSES

ROOT = Path(__file__).parent.parent
RULES = Path(__file__).parent / "rules"


def doc(**extra) -> dict:
    """A 6x6 course with a bit of everything, two flags and four docks."""
    d = {
        "format": "rally-scenario", "version": 1, "name": "Testbed",
        "board": {
            "width": 6, "height": 6,
            "tiles": [{"x": 1, "y": 2, "type": "conveyor", "dir": "E", "express": True},
                      {"x": 2, "y": 2, "type": "conveyor", "dir": "N"},
                      {"x": 4, "y": 1, "type": "gear", "rotation": "cw"},
                      {"x": 0, "y": 3, "type": "pit"},
                      {"x": 5, "y": 5, "type": "repair"},
                      {"x": 3, "y": 4, "type": "water"}],
            "walls": [{"x": 2, "y": 0, "side": "S"}],
            "lasers": [{"x": 5, "y": 3, "dir": "W", "beams": 1}],
            "pushers": [{"x": 0, "y": 1, "dir": "E", "phases": [2, 4]}],
        },
        "flags": [{"x": 4, "y": 0}, {"x": 1, "y": 4}],
        "docks": [{"x": 1, "y": 5, "facing": "N"}, {"x": 2, "y": 5, "facing": "N"},
                  {"x": 3, "y": 5, "facing": "N"}, {"x": 4, "y": 5, "facing": "N"}],
    }
    d.update(extra)
    return d


def robot(name, x, y, facing, program=(), **kw):
    return {"name": name, "at": {"x": x, "y": y, "facing": facing}, "program": list(program), **kw}


def event_hash(events) -> str:
    text = json.dumps([e.to_json() for e in events], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------- stepping and outcome

def test_stepping_by_register_and_round():
    race = new_race(load_dict(doc()), seed=3, robot_count=4, bot="random")
    assert race.moment == (0, None) and not race.over
    race.play_register()
    assert race.moment == (1, 1)
    race.play_register()
    assert (race.round, race.register) == (1, 2)
    race.play_round()
    assert race.moment == (1, None)
    race.play_register()
    assert race.moment == (2, 1)
    outcome = race.run()
    assert race.over and outcome.rounds == race.round
    race.play_round()                   # a race that is over stays over
    assert race.round == outcome.rounds


def test_outcome_and_its_json_shape():
    scenario = load_dict(doc(robots=[robot("Ann", 4, 2, "N", [["move2"]]),
                                     robot("Bob", 2, 4, "W", [["move1"]])]))
    outcome = new_race(scenario).run()
    assert outcome.winners == ()            # nobody touches both flags
    assert outcome.rounds == 100 and not outcome.decided
    data = outcome.to_json()
    assert list(data) == ["scenario", "seed", "rounds", "winners", "robots"]
    ann = data["robots"][0]
    assert list(ann) == ["name", "x", "y", "facing", "damage", "lives", "flags", "alive", "out",
                         "powered_down", "options", "option_cards", "archive", "finished", "deaths"]
    assert ann["flags"] == 1 and ann["archive"] == {"x": 4, "y": 0} and ann["finished"] is None
    assert (ann["x"], ann["y"], ann["facing"]) == (4, 0, "N")
    assert data["robots"][1]["alive"] is True


def test_winners_finish_in_the_earliest_register():
    scenario = load_dict(doc(flags=[{"x": 4, "y": 0}],
                             robots=[robot("Ann", 4, 1, "N", [["move1"]]),
                                     robot("Bob", 3, 1, "N", [["right", "move1"]])]))
    outcome = new_race(scenario).run()
    assert outcome.winners == ("Ann",)
    assert outcome.robot("Ann").finished == (1, 1) and outcome.rounds == 1
    assert outcome.robot("Bob").finished is None
    later = load_dict(doc(flags=[{"x": 4, "y": 0}],
                          robots=[robot("Ann", 4, 2, "N", [["left", "right", "move2"]]),
                                  robot("Bob", 3, 0, "E", [["left", "right", "left", "right", "move1"]])],
                          rules={"finish": "all", "robot_lasers": False}))
    outcome = new_race(later).run()
    assert outcome.robot("Ann").finished == (1, 3) and outcome.robot("Bob").finished == (1, 5)
    assert outcome.winners == ("Ann",) and outcome.rounds == 1


def test_finish_all_goes_on_until_every_robot_has_finished_or_is_out():
    scenario = load_dict(doc(flags=[{"x": 4, "y": 0}],
                             robots=[robot("Ann", 4, 1, "N", [["move1"]]),
                                     robot("Bob", 0, 2, "S", [["move1", "move1"]], lives=1)],
                             rules={"finish": "all", "robot_lasers": False}))
    outcome = new_race(scenario).run()
    assert outcome.winners == ("Ann",)
    assert outcome.rounds == 1
    assert outcome.robot("Bob").out and not outcome.robot("Ann").alive


def test_robots_on_docks_and_their_count():
    scenario = load_dict(doc())
    race = new_race(scenario, robot_count=2, bot="random")
    assert [r.name for r in race.robots] == ["Robot 1", "Robot 2"]
    assert [(s.x, s.y, s.facing) for s in race.snapshot()] == [(1, 5, "N"), (2, 5, "N")]
    assert len(new_race(scenario, bot="random").robots) == 4     # every dock, at most 8
    with pytest.raises(ValueError):
        new_race(scenario, robot_count=5)
    with pytest.raises(ValueError):
        new_race(scenario, robot_count=2, bot="no such bot")
    # `bots` gives each robot its own bot; the same bot twice is `bot`
    mixed = new_race(scenario, seed=4, robot_count=2, bots=["greedy", "random"])
    assert [type(c.bot).__name__ for c in mixed.controllers] == ["GreedyBot", "RandomBot"]
    assert new_race(scenario, seed=4, robot_count=2, bots=["random", "random"]).run() \
        == new_race(scenario, seed=4, robot_count=2, bot="random").run()


# ---------------------------------------------------------------- the event log

def test_every_event_is_stamped():
    race = new_race(load_dict(doc()), seed=5, robot_count=4, bot="random")
    race.run()
    events = race.events
    assert events[0].kind == "place" and events[0].round == 0
    assert events[-1].kind == "end"
    for e in events:
        assert isinstance(e.round, int) and e.register in (None, 1, 2, 3, 4, 5)
        assert e.step and e.kind
    rounds = [e.round for e in events]
    assert rounds == sorted(rounds)


def test_events_tell_what_happened():
    scenario = load_dict(doc(robots=[
        robot("Pusher", 3, 2, "E", [["move1:500", "move1:500", "left", "move1"]]),
        robot("Victim", 4, 2, "N"),
        robot("Shot", 5, 3, "N", damage=9),
        robot("Rider", 1, 2, "S", [["left:100"]]),
        robot("Sleeper", 5, 5, "N", [{"cards": [], "power_down": True}], damage=3),
    ]))
    race = new_race(scenario)
    race.play_round()
    events = [e for e in race.events if e.round == 1]
    by = lambda kind, who=None: [e for e in events if e.kind == kind and (who is None or e.robot == who)]

    card = by("card", "Pusher")[0]
    assert (card.register, card.step, card.card) == (1, "move", "move1:500")
    push = [e for e in by("move", "Victim") if e.cause == "push"][0]
    assert (push.src, push.dst, push.register) == ((4, 2), (5, 2), 1)
    assert by("move", "Pusher")[0].cause == "card"
    # Shot stands in the board laser's own square: it is hit and destroyed
    beam = [e for e in by("laser") if e.cause == "board"][0]
    assert beam.src == (5, 3) and beam.path == ((5, 3),) and beam.target == "Shot"
    assert by("damage", "Shot")[0].amount == 1
    dead = by("destroyed", "Shot")[0]
    assert (dead.cause, dead.src, dead.amount, dead.step) == ("damage", (5, 3), 2, "lasers")
    # register 2: the Victim is pushed off the board
    off = by("destroyed", "Victim")[0]
    assert (off.cause, off.register, off.src) == ("off board", 2, (5, 2))
    assert [e for e in by("move", "Victim") if e.register == 2][0].dst == (6, 2)
    # the Rider rides the express belt and turns onto the northbound belt
    ride = [e for e in by("move", "Rider") if e.cause == "express"][0]
    assert (ride.src, ride.dst) == ((1, 2), (2, 2))
    assert by("turn", "Rider")[0].cause == "card"
    turn = [e for e in by("turn", "Rider") if e.cause == "express"][0]
    assert turn.amount == 3 and turn.facing == "N"      # from E, carried E onto a N belt
    robot_beams = [e for e in by("laser") if e.cause == "robot" and e.robot == "Pusher"]
    assert robot_beams and all(e.register for e in robot_beams)
    assert by("repair", "Sleeper")[0].step == "repairs"
    assert (by("announce", "Sleeper")[0].step, by("announce", "Sleeper")[0].register) == ("announce", None)
    back = by("reenter", "Shot")[0]
    assert (back.dst, back.amount, back.register, back.step) == ((5, 3), 2, None, "reentry")
    race.play_register()
    assert [e for e in race.events if e.kind == "powered_down"][0].robot == "Sleeper"


def test_flag_archive_and_finish_events():
    scenario = load_dict(doc(robots=[robot("Ann", 4, 2, "N", [["move2", "left"]]),
                                     robot("Bob", 1, 5, "N", [["move1"]])]))
    race = new_race(scenario)
    race.play_round()
    kinds = [(e.kind, e.robot, e.register) for e in race.events if e.round == 1]
    assert ("flag", "Ann", 1) in kinds and ("archive", "Ann", 1) in kinds
    flag = [e for e in race.events if e.kind == "flag"][0]
    assert (flag.amount, flag.src) == (1, (4, 0))
    finisher = load_dict(doc(flags=[{"x": 4, "y": 0}], robots=[robot("Ann", 4, 2, "N", [["move2"]])]))
    race = new_race(finisher)
    race.run()
    tail = [(e.kind, e.robot) for e in race.events[-4:]]
    assert tail == [("flag", "Ann"), ("archive", "Ann"), ("finish", "Ann"), ("end", None)]
    assert race.events[-1].target == ("Ann",) and race.events[-2].amount == 1


def test_place_and_program_events_give_the_start_and_the_registers():
    scenario = load_dict(doc(robots=[
        robot("Ann", 4, 2, "N", [["move2:700", "left:90"]], flags=1, options=2, lives=2),
        robot("Hurt", 2, 4, "N", [["back:430", "uturn:10", "right:80", "move1:490",
                                   "move3:790"]], damage=6),
        robot("Sleeper", 5, 5, "N", damage=3, powered_down=True),
    ]))
    race = new_race(scenario)
    start = race.snapshot()
    race.play_round()
    places = [e for e in race.events if e.kind == "place"]
    assert [e.robot for e in places] == ["Ann", "Hurt", "Sleeper"]
    for e, r in zip(places, start):
        assert (e.round, e.register, e.step) == (0, None, "setup")
        assert (e.dst, e.facing) == ((r.x, r.y), r.facing)
        assert e.start == (r.damage, r.lives, r.flags, r.options, r.powered_down)
    assert (places[0].start.lives, places[0].start.flags, places[0].start.options) == (2, 1, 2)
    assert (places[1].start.damage, places[2].start.powered_down) == (6, True)

    programs = {e.robot: e for e in race.events if e.kind == "program"}
    assert set(programs) == {"Ann", "Hurt", "Sleeper"}
    for e in programs.values():
        assert (e.round, e.register, e.step) == (1, None, "program")
    assert programs["Ann"].cards == ("move2:700", "left:90", None, None, None)
    assert programs["Ann"].amount == 0
    # 6 damage locks registers 4 and 5 (they take the script's cards for them)
    assert programs["Hurt"].cards == ("back:430", "uturn:10", "right:80", "move1:490",
                                      "move3:790")
    assert programs["Hurt"].amount == 2
    assert programs["Sleeper"].cards == (None,) * 5 and programs["Sleeper"].amount == 0
    kinds = [e.kind for e in race.events if e.round == 1 and e.register is None]
    assert kinds.index("program") > max(i for i, k in enumerate(kinds) if k == "dealt")
    # the cards played are the ones programmed
    played = [(e.robot, e.register, e.card) for e in race.events if e.kind == "card"]
    for name, register, card in played:
        assert programs[name].cards[register - 1] == card
    # one program event per robot in the race and round; all of it is JSON
    race.run()
    for rnd in range(1, race.round + 1):
        names = [e.robot for e in race.events if e.kind == "program" and e.round == rnd]
        assert len(names) == len(set(names)) and names
    data = json.loads(json.dumps([e.to_json() for e in race.events]))
    place = data[0]
    assert place["start"] == {"damage": 0, "lives": 2, "flags": 1, "options": 2,
                              "powered_down": False}
    program = next(d for d in data if d["kind"] == "program" and d["robot"] == "Hurt")
    assert program["cards"][3:] == ["move1:490", "move3:790"] and program["amount"] == 2
    assert "register" in program and program["register"] is None


def test_no_events_unless_asked_and_the_hooks():
    deaths, ends = [], []
    race = new_race(load_dict(doc()), seed=2, robot_count=4, bot="random", record_events=False,
                on_death=lambda r, sq, cause: deaths.append((r.name, sq, cause)),
                on_register_end=lambda race: ends.append(race.moment))
    outcome = race.run()
    assert race.events is None
    assert len(deaths) == sum(r.deaths for r in outcome.robots)
    assert all(cause in DEATH_CAUSES for _, _, cause in deaths)
    assert ends[0] == (1, 1) and len(ends) >= 5 * (outcome.rounds - 1)


# ---------------------------------------------------------------- determinism

def _bot_race_hash(seed: int) -> str:
    race = new_race(load_dict(doc()), seed=seed, robot_count=4, bot="random")
    race.run()
    return event_hash(race.events)


def test_same_seed_same_race_other_seed_other_race():
    assert _bot_race_hash(11) == _bot_race_hash(11)
    assert _bot_race_hash(11) != _bot_race_hash(12)


def test_same_seed_same_race_in_a_fresh_process():
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]);"
            "from tests.test_race import _bot_race_hash; print(_bot_race_hash(11))")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True,
                         env=env, check=True, cwd=ROOT)
    assert out.stdout.strip() == _bot_race_hash(11)


# ---------------------------------------------------------------- checks

def test_a_wrong_check_names_robot_moment_and_both_values():
    data = json.loads((RULES / "3.1-card-moves.json").read_text())
    data["checks"][1]["x"] = 3           # round 1 register 2: really (2, 1)
    results = run_checks(load_dict(data))
    failed = [r for r in results if not r.passed]
    assert len(failed) == 1
    assert failed[0].describe() == ("check 2, robot M after round 1 register 2: "
                                    "expected x=3 y=1 facing=N, got x=2 y=1 facing=N")
    assert failed[0].to_json() == {"index": 2, "passed": False,
                                   "expected": {"x": 3, "y": 1, "facing": "N"},
                                   "actual": {"x": 2, "y": 1, "facing": "N"}}


def test_checks_after_the_end_compare_the_final_state():
    scenario = load_dict(doc(flags=[{"x": 3, "y": 0}],
                             robots=[robot("Ann", 3, 2, "N", [["move1", "move1", "move1"]])],
                             checks=[{"round": 3, "robot": "Ann", "y": 0, "alive": True,
                                      "archive": {"x": 3, "y": 0}},
                                     {"round": 1, "register": 1, "robot": "Ann", "y": 1}]))
    results = run_checks(scenario)
    assert [r.passed for r in results] == [True, True]
    assert results[0].describe() == ("check 1, robot Ann after round 3: y=0 alive=true "
                                     "archive=(3,0) as expected")


def test_play_checked_to_the_end():
    scenario = load_dict(doc(robots=[robot("Ann", 4, 2, "N", [["left"]])],
                             checks=[{"round": 1, "robot": "Ann", "facing": "W"}]))
    race = new_race(scenario)
    results = play_checked(race, scenario.checks, to_end=True)
    assert race.over and results[0].passed


# ---------------------------------------------------------------- the command line

def write(tmp_path, name, data) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_run_json(tmp_path, capsys):
    path = write(tmp_path, "course.json", doc())
    assert main(["run", path, "--seed", "4", "--robots", "3", "--bot", "random", "--json",
                 "--rounds", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["scenario", "seed", "rounds", "winners", "robots", "checks"]
    assert data["seed"] == 4 and data["rounds"] <= 5 and len(data["robots"]) == 3
    for r in data["robots"]:
        assert (r["x"] is None) == (not r["alive"])
    assert main(["run", path, "--robots", "2", "--bot", "random", "--json", "--events",
                 "--rounds", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["events"][0]["kind"] == "place" and data["events"][-1]["kind"] == "end"
    assert data["events"][0]["start"]["lives"] == 3
    assert [e["robot"] for e in data["events"] if e["kind"] == "program"] == ["Robot 1", "Robot 2"]


def test_run_text_and_failed_checks(tmp_path, capsys):
    data = json.loads((RULES / "3.1-card-moves.json").read_text())
    assert main(["run", write(tmp_path, "ok.json", data), "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "checks: 7 of 7 passed" in out and "undecided after 2 rounds" in out
    data["checks"][0]["y"] = 0
    assert main(["run", write(tmp_path, "bad.json", data), "--rounds", "2"]) == 1
    assert "FAIL check 1, robot M after round 1 register 1" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--robots", "-1"], ["--robots", "0"],
                                  ["--rounds", "two"]])
def test_run_refuses_bad_numbers_as_usage(tmp_path, capsys, argv):
    path = write(tmp_path, "course.json", doc())
    with pytest.raises(SystemExit) as exit:
        main(["run", path, *argv])
    assert exit.value.code == 2
    assert f"argument {argv[0]}: " in capsys.readouterr().err


def test_test_command_exit_codes(tmp_path, capsys):
    good = json.loads((RULES / "3.3-push-chain.json").read_text())
    assert main(["test", write(tmp_path, "good.json", good)]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("good.json (3 checks)")
    bad = copy.deepcopy(good)
    bad["checks"][0]["x"] = 4
    assert main(["test", write(tmp_path, "bad.json", bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "check 1, robot A after round 1 register 1: expected x=4" in out
    none = dict(good)
    del none["checks"]
    assert main(["test", write(tmp_path, "none.json", none)]) == 1
    assert "no checks" in capsys.readouterr().out
    invalid = dict(good, flags=[])
    assert main(["test", write(tmp_path, "invalid.json", invalid)]) == 1
    assert "invalid scenario" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit:
        main(["test"])
    assert exit.value.code == 2


def test_test_command_on_a_directory(capsys):
    assert main(["test", str(RULES)]) == 0
    *lines, summary = capsys.readouterr().out.splitlines()
    assert len(lines) == len(list(RULES.glob("*.json")))
    assert all(line.startswith("PASS ") for line in lines)
    assert summary == f"{len(lines)} passed"


def test_test_command_lists_the_courses_of_a_folder_without_checks_and_sums_up(tmp_path, capsys):
    good = json.loads((RULES / "3.3-push-chain.json").read_text())
    write(tmp_path, "a-test.json", good)
    write(tmp_path, "b-course.json", {k: v for k, v in good.items() if k != "checks"})
    assert main(["test", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"SKIP {tmp_path / 'b-course.json'}: no checks"
    assert out[-1] == "1 passed, 1 without checks"
    bad = copy.deepcopy(good)
    bad["checks"][0]["x"] = 4
    write(tmp_path, "c-bad.json", bad)
    assert main(["test", str(tmp_path)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 1 failed, 1 without checks"
    only_courses = tmp_path / "courses"
    only_courses.mkdir()
    write(only_courses, "course.json", {k: v for k, v in good.items() if k != "checks"})
    assert main(["test", str(only_courses)]) == 1        # nothing was tested at all
    assert capsys.readouterr().out.splitlines()[-1] == "1 without checks"


def test_test_command_passes_on_the_example_courses(capsys):
    assert main(["test", str(ROOT / "scenarios")]) == 0
    summary = capsys.readouterr().out.splitlines()[-1]
    assert summary.endswith(" without checks") and summary.startswith("1 passed, ")


def test_stepping_by_registers_stops_at_max_rounds():
    scenario = load_dict(doc(rules={"max_rounds": 2}))
    race = new_race(scenario, seed=1, robot_count=2, bot="random")
    for _ in range(20):
        race.play_register()
    assert race.over and race.round == 2 and race.moment == (2, None)


def test_damage_is_counted_up_to_the_limit_even_on_reentry():
    # respawn_damage 2 with destroy_at_damage 1: it re-enters with 1 damage, and the
    # next lasers step destroys it although no beam hits it (rule 5.1: every robot
    # whose damage has reached the limit)
    scenario = load_dict(doc(robots=[robot("Ann", 3, 0, "N", [["move1"]])],
                             rules={"destroy_at_damage": 1, "robot_lasers": False}))
    race = new_race(scenario)
    race.play_round()
    ann = race.snapshot()[0]
    assert (ann.alive, ann.damage, ann.lives) == (True, 1, 2)
    race.play_register()
    assert race.events[-1].kind == "destroyed" and race.events[-1].cause == "damage"


def test_a_start_above_destroy_at_damage_counts_up_to_it():
    """Rule 8 (docs/format.md: damage never counts past destroy_at_damage): a
    robot given more damage than that through the API (a file cannot: E105)
    starts with destroy_at_damage, as in the compiled race (_race.c race)."""
    from dataclasses import replace
    scenario = load_dict(doc(robots=[robot("R", 3, 3, "N", damage=9)],
                             rules={"destroy_at_damage": 10}))
    over = replace(scenario, robots=(replace(scenario.robots[0], damage=15),))
    race = new_race(over, seed=0)
    assert race.floor.robots[0].damage == 10
    race.play_register()
    r = race.floor.robots[0]
    assert r.destroyed and r.damage == 10, "destroyed in the first register, keeping its 10"
