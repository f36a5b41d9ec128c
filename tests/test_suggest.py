"""Suggested fixes: the edits, the candidates, the measures, the search and
its command."""
import json
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from rallyforge.engine.analysis.suggest import applied, suggest
from rallyforge.engine.analysis.suggest.candidates import Diagnosis, candidates, is_acceptable, shortlist
from rallyforge.engine.analysis.suggest.edits import Edit, apply_all
from rallyforge.engine.analysis.suggest.types import Suggestion, SuggestResult
from rallyforge.engine.format.typed_json import mismatch
from rallyforge.engine.analysis.suggest.score import Record, Target, measures, paired_change
from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import dumps, load_dict, load_file
from rallyforge.engine.model.directions import DX, DY, INDEX
from rallyforge.engine.model.scenario import Goals
from rallyforge.engine.validation.validator import course_problems

ROOT = Path(__file__).parent.parent
STANDARD = ROOT / "scenarios" / "standard-course.json"
UNFAIR = Path(__file__).parent / "fixtures" / "unfair-standard.json"


def diagnosis_for(s, best: int, worst: int) -> Diagnosis:
    """A first run's findings: dock `best` wins most, `worst` least; robots
    die most next to flag 1 and on the first dock."""
    rates = [0.25] * len(s.docks)
    rates[best - 1], rates[worst - 1] = 0.5, 0.1
    hot = ((s.flags[0].x, s.flags[0].y + 1), 9), ((s.docks[0].x, s.docks[0].y), 3)
    return Diagnosis(tuple(rates), hot, (0.5,) * len(s.flags), 12.0)


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.json")), ids=lambda p: p.stem)
def test_every_shortlisted_candidate_is_a_valid_course_with_no_new_warning(path):
    s = load_file(path)
    goals = Goals(fair=True, length="short", deaths_per_leg=0.2)
    found = shortlist(s, candidates(s, goals, diagnosis_for(s, len(s.docks), 1)), 40)
    assert len(found) == 40, "a course with trouble gets candidates"
    before = sorted(p.code for p in course_problems(s) if p.severity == "warning")
    for e in found:
        edited = apply_all(s, (e,))
        assert edited != s, e.words
        problems = course_problems(edited)
        assert not [p for p in problems if p.severity == "error"], e.words
        after = sorted(p.code for p in problems if p.severity == "warning")
        assert set(after) <= set(before) and len(after) <= len(before), e.words
        assert load_dict(json.loads(dumps(edited))) == edited      # what the editor would save


def test_candidates_reach_far_a_dock_anywhere_in_the_docking_area_a_flag_across_the_board():
    s = load_file(STANDARD)
    forward = apply_all(s, (Edit("move_dock", (8, (10, 12), (5, 7))),))     # the issue's course
    found = candidates(forward, Goals(), diagnosis_for(forward, 8, 2))
    assert len(found) >= 1000
    assert Edit("move_dock", (8, (5, 7), (10, 12))) in found        # back where it was
    assert Edit("move_dock", (8, (5, 7), (0, 14), "E")) in found    # any square, any facing
    assert Edit("move_dock", (2, (6, 15), (10, 11), "W")) in found  # every dock
    assert len([e for e in found if e.kind == "swap_docks"]) == 8 * 7 // 2
    assert Edit("move_flag", (1, (5, 4), (11, 10))) in found        # six squares each way
    assert not any(e.kind == "move_flag" and e.args[0] != 1 for e in found)   # no length goal
    board = forward.board
    for e in found:
        if e.kind == "move_dock":
            (x, y), facing = e.args[2], (e.args[3:] or (s.docks[e.args[0] - 1].facing,))[0]
            ahead = (x + DX[INDEX[facing]], y + DY[INDEX[facing]])
            assert board.type_at(x, y) == "floor", e.words                 # never on a hazard
            assert board.in_bounds(*ahead) and board.type_at(*ahead) != "pit", e.words
    with_length = candidates(forward, Goals(length="short"), diagnosis_for(forward, 8, 2))
    assert {e.args[0] for e in with_length if e.kind == "remove_flag"} == {1, 2, 3}
    assert {e.args[0] for e in with_length if e.kind == "move_flag"} == {1, 2, 3}


def test_an_edit_that_breaks_the_course_or_its_checks_is_never_a_candidate():
    data = json.loads(STANDARD.read_text())
    data["robots"] = [{"name": "A", "dock": 1, "program": [["move1"]]}]
    data["checks"] = [{"round": 1, "register": 1, "robot": "A", "x": 5, "y": 14}]
    s = load_dict(data)
    assert not is_acceptable(s, (Edit("move_dock", (1, (5, 15), (4, 15))),))     # check fails
    assert is_acceptable(s, (Edit("turn_dock", (8, "N", "W")),))
    assert not is_acceptable(s, (Edit("move_dock", (8, (10, 12), (6, 6))),))  # W408: in a beam
    assert is_acceptable(s, (Edit("move_dock", (8, (10, 12), (6, 5))),))
    pit = next(t for t in s.board.tiles if t.type == "pit")
    assert not is_acceptable(s, (Edit("move_flag", (1, (5, 4), (pit.x, pit.y))),))  # E301
    found = shortlist(s, candidates(s, Goals(), diagnosis_for(s, 1, 8)), 2000)
    assert Edit("move_dock", (1, (5, 15), (4, 15))) not in found
    assert Edit("move_dock", (1, (5, 15), (6, 14), "W")) in found    # A still moves to (5,14)


def test_edits_say_what_they_do_and_round_trip_as_json():
    e = Edit("move_dock", (8, (9, 15), (8, 15)))
    assert e.words == "move dock 8 from (9,15) to (8,15)"
    assert Edit.from_json(json.loads(json.dumps(e.as_json()))) == e
    s = load_file(STANDARD)
    moved = Edit("move_dock", (8, (10, 12), (9, 12))).apply(s)
    assert (moved.docks[7].x, moved.docks[7].y, moved.docks[7].facing) == (9, 12, "N")
    swapped = Edit("swap_docks", (1, 8)).apply(s)
    assert swapped.docks[0] == s.docks[7] and swapped.docks[7] == s.docks[0]
    assert Edit("pusher_registers", ((2, 10), (1, 3, 5), (2, 4))).apply(s).board.pusher_map[
        (2, 10)].phases == (2, 4)
    short = Edit("shorten_laser", ((4, 6), "E", (5, 6), "E", 2))
    assert short.words == "shorten the laser at (4,6) firing E to 2 squares (a wall on the E side of (5,6))"
    assert short.apply(s).board.has_wall(6, 6, "W")
    # edits touching the same dock cannot be combined, others can
    assert Edit("turn_dock", (8, "N", "W")).touches & e.touches
    assert not (Edit("turn_dock", (2, "N", "W")).touches & e.touches)


def rec(docks, winners, rounds, on_leg=(2,), deaths=()):
    return Record(docks, winners, rounds, on_leg, deaths)


def test_measures_and_shortfall():
    races = [rec((1, 2), (1,), 10, (2, 1), ((0, 0, 1),)), rec((1, 2), (1,), 12, (2, 2)),
             rec((1, 2), (2,), 14, (2, 1), ((0, 0, 2), (1, 1, 2)))]
    target = Target(Goals(fair=True, rounds=12, deaths_per_leg=0.5), robots=2, docks=2)
    m = measures(races, target)
    assert m["gap"] == pytest.approx(1 / 3)
    assert m["spread"] == pytest.approx(1 / 6)
    assert m["median_rounds"] == 12
    assert m["worst_leg_deaths"] == pytest.approx(2 / 4)        # leg 2: 2 deaths, 4 set out
    assert m["shortfall"] == pytest.approx(2 * 1 / 6)            # rounds and deaths are met
    long = Target(Goals(fair=False, rounds=8), robots=2, docks=2)
    assert measures(races, long)["shortfall"] == pytest.approx((12 - 8.5) / 8.5)
    same = paired_change(races, races, target, seed=1)
    assert same["gap"] == {"old": m["gap"].__round__(6), "new": m["gap"].__round__(6),
                           "change": 0.0, "ci": [0.0, 0.0]}


def test_the_fair_measure_is_taken_per_player_count_and_averaged():
    """Two-robot races where seat 1 wins every race, three-robot races won
    by each seat in turn: the two counts' spreads are judged apart (the
    three-robot races are even), then weigh alike."""
    two = [rec((1, 2), (1,), 10, (2,))] * 2
    three = [rec((1, 2, 3), (d,), 10, (3,)) for d in (1, 2, 3)]
    target = Target(Goals(fair=True), robots=3, docks=3, players=(2, 3))
    m = measures(two + three, target)
    assert m["spread"] == pytest.approx((0.5 + 0.0) / 2)         # 2 robots: 1 and 0
    assert m["unevenness"] == pytest.approx((0.5 * 2 + 0.0) / 2)   # as a share of 1/k
    assert m["gap"] == pytest.approx((1.0 + 0.0) / 2)
    assert m["shortfall"] == m["unevenness"]


def test_the_search_is_deterministic_and_dask_ranks_as_local_processes():
    s = load_file(UNFAIR)
    local = suggest(s, budget=700, seed=3, workers=1)
    again = suggest(s, budget=700, seed=3, workers=1)
    dask = suggest(s, budget=700, seed=3, workers=2, scheduler="local", local_processes=False)
    for r in (again, dask):
        assert {k: v for k, v in r.items() if k != "elapsed_s"} == \
            {k: v for k, v in local.items() if k != "elapsed_s"}
    assert 600 <= local["races"] <= 700 and not local["cancelled"]     # most of the budget, no more
    assert local["fairness"] == "unfair" and local["players"] == [8]   # the goals' eight seats
    top = (local["suggestions"] + local["ideas"])[0]     # (on 700 races: perhaps an idea)
    assert top["effect"]["shortfall"]["change"] < 0
    assert ("dock", 8) in Edit.from_json(top["edits"][0]).touches        # the planted dock
    fixed = applied(s, top)
    assert fixed != s and not [p for p in course_problems(fixed) if p.severity == "error"]


def test_the_best_clear_edits_touching_nothing_in_common_are_combined_and_raced():
    from rallyforge.engine.analysis.suggest.search import Search
    s = load_file(UNFAIR)
    found = candidates(s, Goals(), diagnosis_for(s, 8, 2))
    move8 = Edit("move_dock", (8, (3, 9), (3, 11)))
    turn8 = next(e for e in found if e.kind == "turn_dock" and e.args[0] == 8)
    turn2 = next(e for e in found if e.kind == "turn_dock" and e.args[0] == 2)
    wall = next(e for e in found if e.kind == "add_wall")
    search = Search(s, Goals(), (4,), 700, 0, "random", 1, None, True, None, None)
    ranked = [search.add((e,)) for e in (move8, turn8, turn2, wall)]      # best first
    for v in ranked:
        search.races[v] = [None] * 16                   # each raced 16 times (stand-ins)
    raced = []
    search.race = raced.append
    search.clearly_better = lambda v: v != ranked[2]    # turn2's interval includes no change
    combos = search.combine(ranked)
    # turn8 touches dock 8 as move8 does; turn2 is not clearly better: move8 with the wall only
    assert [search.versions[v] for v in combos] == [(move8, wall)]
    assert raced == [{combos[0]: 16}]                   # raced as much as the single edits
    search.clearly_better = lambda v: True
    combos = search.combine(ranked)
    assert [search.versions[v] for v in combos] == [(move8, turn2), (move8, wall), (turn2, wall),
                                                    (move8, turn2, wall)]
    search.clearly_better = lambda v: v == ranked[0]
    assert search.combine(ranked) == []                 # one clear edit: nothing to combine


def test_a_version_that_moves_a_flag_is_judged_on_its_own_flag_path():
    """A length goal's rounds depend on the flag path: the same races on a
    version whose flag 1 lies farther read as longer, so for a "long" goal
    that version falls less short, in the race stage, the bootstrap and the
    model's screen alike."""
    from rallyforge.engine.analysis.course_card.flags import flag_path
    from rallyforge.engine.analysis.suggest.screen import predicted, screen
    from rallyforge.engine.analysis.suggest.search import Search
    s = load_file(STANDARD)
    f1 = s.flags[0]
    goals = Goals(fair=False, length="long")
    search = Search(s, goals, (4,), 700, 0, "random", 1, None, True, None, None)
    farther = next(Edit("move_flag", (1, (f1.x, f1.y), (x, f1.y))) for x in (0, s.board.width - 1)
                   if flag_path(apply_all(s, (Edit("move_flag", (1, (f1.x, f1.y), (x, f1.y))),)), 4)
                   > flag_path(s, 4) + 3)
    v = search.add((farther,))
    assert search.target_of(v).path == flag_path(apply_all(s, (farther,)), 4) > search.target.path
    races = [rec((1, 2, 3, 4), (1,), 9, (4, 4, 4))] * 12
    search.races[0], search.races[v] = races, races             # the very same races
    assert measures(races, search.target)["shortfall"] > 0      # short of long on the course
    assert search.shortfall_change(v) < 0
    assert search.effect(v)["shortfall"]["change"] < 0
    diagnosis = replace(diagnosis_for(s, 1, 2), median_rounds=9)
    base, ranked = screen(s, search.target, diagnosis, [farther])
    version = apply_all(s, (farther,))
    own, course = (predicted(base, ranked[0].sight, 0.0, t, diagnosis)
                   for t in (search.target.on(version), search.target))
    assert ranked[0].score == own < course


def test_a_search_cancelled_before_any_edit_raced_suggests_nothing():
    from rallyforge.engine.cli.suggest import text
    s = load_file(UNFAIR)
    calls = []
    result = suggest(s, budget=700, workers=1, should_stop=lambda: bool(calls.append(1)) or
                     len(calls) > 3)
    assert result["cancelled"] and result["suggestions"] == [] and result["races"] < 700
    assert "no fix yet" in text(result)


def test_a_search_cancelled_later_ranks_the_edits_of_its_last_finished_stage():
    from rallyforge.engine.cli.suggest import text
    s = load_file(UNFAIR)
    whole = suggest(s, budget=1200, seed=3, workers=1)
    played = []
    result = suggest(s, budget=1200, seed=3, workers=1,
                     progress=lambda done, total, elapsed: played.append(done),
                     should_stop=lambda: bool(played) and played[-1] >= 800)
    assert result["cancelled"] and result["races"] < whole["races"]
    for listed in (result["suggestions"], result["ideas"]):
        assert [r["rank"] for r in listed] == list(range(1, len(listed) + 1))
    ranked = result["suggestions"] + result["ideas"]
    assert ranked and all(r["clear"] for r in result["suggestions"])
    assert not any(r["clear"] for r in result["ideas"])
    races = {r["races"] for r in ranked}
    best = (whole["suggestions"] + whole["ideas"])[0]
    assert len(races) == 1 and 0 < races.pop() < best["races"]
    assert all(r["effect"]["shortfall"]["change"] < 0 for r in ranked)
    assert best["edits"] in [r["edits"] for r in ranked]
    printed = text(result)
    assert "the ranking so far" in printed and f"1. {ranked[0]['edits'][0]['words']}" in printed


def test_command_line(tmp_path, capsys):
    out, report = tmp_path / "fixed.json", tmp_path / "s.json"
    code = main(["suggest", str(UNFAIR), "--budget", "1200", "--seed", "3", "--workers", "1",
                 "--quiet", "--json", str(report), "--apply", "1", "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    result = json.loads(report.read_text())
    first = result["suggestions"][0]
    assert first["clear"] and first["effect"]["shortfall"]["ci"][1] < 0      # a fix
    assert ("dock", 8) in Edit.from_json(first["edits"][0]).touches          # the planted dock
    # the JSON is the typed result: every field of its type, and no other
    assert mismatch(result, SuggestResult) is None
    assert set(result) == set(SuggestResult.__annotations__)
    assert set(first) == set(Suggestion.__annotations__)
    assert f"1. {first['edits'][0]['words']}" in text
    assert "gap between the best and worst dock" in text
    # fair docks the only goal: the other measures follow, marked as no goal
    effect = first["effect"]["worst_leg_deaths"]
    assert (f"not a goal: deadliest leg {effect['old']:.2f} -> {effect['new']:.2f} deaths per robot"
            in text)
    assert "not a goal: median race" in text and "not a goal: gap" not in text
    assert load_file(out) == applied(load_file(UNFAIR), first)


def test_effects_never_read_minus_zero():
    from rallyforge.engine.analysis.suggest.effect_words import effect_lines
    result = {"goals": {"fair": True, "deaths_per_leg": 0.5}}
    effect = {"gap": {"old": 0.3, "new": 0.1, "change": -0.2, "ci": [-0.3, -0.004]},
              "median_rounds": {"old": 7, "new": 7, "change": 0, "ci": [0.0, 1.0]},
              "worst_leg_deaths": {"old": 0.44, "new": 0.40, "change": -0.04, "ci": [-0.09, -0.001]}}
    lines = effect_lines(result, effect)
    assert lines[0].endswith("(change -20, 95% interval -30 to +0)")
    assert lines[1].endswith("(95% interval of the change -0.09 to +0.00)")
    assert not any("-0 " in line or "-0)" in line or "-0.00" in line for line in lines)


@pytest.mark.parametrize("argv, message", [
    (["--goal", "length=forever"], "not a goal"),
    (["--apply", "1"], "--apply N and --out FILE go together"),
    (["--robots", "9"], "only 8 docks"),
])
def test_bad_usage_exits_2(argv, message, capsys):
    try:                                # argparse's own checks exit, the command's return
        code = main(["suggest", str(UNFAIR), "--quiet", *argv])
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_goals_from_the_command_line_replace_the_files():
    from rallyforge.engine.cli.suggest import goal, goals_of

    s = load_file(UNFAIR)
    given = SimpleNamespace(goal=[goal("length=medium"), goal("deaths<=0.5")])
    assert goals_of(given, s) == Goals(fair=False, length="medium", deaths_per_leg=0.5)
    assert goals_of(SimpleNamespace(goal=None), s) == s.goals and s.goals.robots == 8
    with_goals = replace(s, goals=Goals(rounds=9))
    assert goals_of(SimpleNamespace(goal=None), with_goals) == Goals(rounds=9)


def test_goals_asking_more_robots_than_docks_race_as_many_as_the_card_does():
    """The robots per race are the course card's (engine/model/scenario.py robots_for):
    goals asking more robots than the course has docks (W420) fall back to 4."""
    s = load_file(UNFAIR)
    s = replace(s, goals=Goals(robots=len(s.docks) + 1))
    result = suggest(s, budget=700, workers=1, should_stop=lambda: True)
    assert result["robots"] == 4


def test_printed_figures_add_up(monkeypatch, capsys):
    """27.36 -> 24.53 points reads 27 -> 25, change -2 (not -3)."""
    import rallyforge.engine.analysis.suggest
    real = rallyforge.engine.analysis.suggest.suggest

    def with_the_issues_figures(*args, **kwargs):
        result = real(*args, **kwargs)
        gap = (result["suggestions"] + result["ideas"])[0]["effect"]["gap"]
        gap.update(old=0.2736, new=0.2453, change=-0.0283)
        return result
    monkeypatch.setattr(rallyforge.engine.analysis.suggest, "suggest", with_the_issues_figures)
    code = main(["suggest", str(UNFAIR), "--budget", "700", "--workers", "1", "--quiet"])
    assert code == 0
    assert "gap between the best and worst dock 27 -> 25 points (change -2," in \
        capsys.readouterr().out


def test_a_small_budget_is_kept_to(capsys):
    result = suggest(load_file(UNFAIR), budget=100, bot="greedy", workers=1)
    assert result["races"] <= 100
    # an edit is raced once the first races find the seats clearly unfair
    assert (result["candidates"] >= 1) == (result["fairness"] == "unfair")


def test_the_budget_help_says_its_least(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["suggest", "--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--budget RACES races to spend, about: at least 100;" in text
    assert "the bot every robot uses: aware, greedy, random, search, team (default: search)" in text
    with pytest.raises(SystemExit) as stop:
        main(["suggest", str(UNFAIR), "--budget", "50"])
    assert stop.value.code == 2
    assert "--budget: must be at least 100, not 50" in capsys.readouterr().err


def test_a_search_stopped_before_the_courses_first_races_says_nothing_was_measured():
    from rallyforge.engine.cli.suggest import text
    result = suggest(load_file(UNFAIR), budget=700, workers=1, should_stop=lambda: True)
    assert result["cancelled"] and result["races"] == 0 and result["before"] is None
    printed = text(result)
    assert "Now: nothing measured" in printed
    assert "0 points apart" not in printed and "median race 0 rounds" not in printed


@pytest.mark.parametrize("given, goals", [
    ("deaths<=11", {"deaths_per_leg": 11.0}),
    ("deaths<=inf", {"deaths_per_leg": float("inf")}),
    ("deaths<=nan", {"deaths_per_leg": float("nan")}),
    ("deaths<=-0.5", {"deaths_per_leg": -0.5}),
    ("rounds=99999999999999999999", {"rounds": 99999999999999999999}),
    ("rounds=0", {"rounds": 0}),
])
def test_goals_on_the_command_line_have_the_files_bounds_and_words(given, goals, capsys):
    from rallyforge.engine.validation.validator import validate_data
    with pytest.raises(SystemExit) as exc:
        main(["suggest", str(UNFAIR), "--quiet", "--goal", given])
    assert exc.value.code == 2
    doc = json.loads(UNFAIR.read_text(encoding="utf-8"))
    doc["goals"] = goals
    [problem] = [p for p in validate_data(doc) if p.pointer.startswith("/goals")]
    assert f"argument --goal: {given!r}: {problem.message}\n" in capsys.readouterr().err


def test_a_fair_course_gets_no_fix_and_apply_writes_nothing(tmp_path, capsys):
    """The tutorial's docks mirror each other about the flag: its first races
    find no clear unfairness, so no edit is raced, none offered, and
    --apply writes nothing."""
    tutorial = ROOT / "scenarios" / "tutorial.json"
    result = suggest(load_file(tutorial), budget=600, workers=1)
    assert result["fairness"] != "unfair" and result["goals"] == {"fair": True}
    assert (result["candidates"], result["suggestions"], result["ideas"]) == (0, [], [])
    out = tmp_path / "fixed.json"
    code = main(["suggest", str(tutorial), "--budget", "600", "--workers", "1", "--quiet",
                 "--apply", "1", "--out", str(out)])
    printed = capsys.readouterr()
    assert code == 1 and not out.exists()
    assert "The seats show no clear unfairness" in printed.out
    assert "--apply 1: nothing written: no fix was found" in printed.err
