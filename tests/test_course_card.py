"""The course card: its classes from hand-made results, the command on every
example, the stored card and its hash."""
from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance import course_card
from rallyforge.engine.analysis.course_card import build, calibration, timemodel
from rallyforge.engine.cli.main import main
from rallyforge.engine.analysis.course_card.flags import flag_path
from rallyforge.engine.format.loader import dumps, load_dict, load_file
from rallyforge.engine.format.stored_course_card import play_hash, stale, with_card
from rallyforge.engine.model.scenario import Goals, Tile, robots_for
from rallyforge.engine.validation.validator import course_problems

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "scenarios").glob("*.json"))
TUTORIAL = ROOT / "scenarios" / "tutorial.json"


def result(rounds=10, deaths=(0,), robots_per_leg=(100,), k=4, races=100, undecided=0) -> dict:
    """A balance result with only what the card reads."""
    times = [rounds] * races
    return {
        "robots": k, "races": races, "bot": "search", "seed": 0,
        "length": {"median": rounds, "median_ci": [rounds - 1, rounds + 1],
                   "median_between": rounds, "median_between_ci": [rounds - 1, rounds + 1],
                   "undecided": undecided, "histogram": [[rounds, races]]},
        "legs": [{"to_flag": j + 1, "deaths": d, "robots": r, "death_rate": d / r}
                 for j, (d, r) in enumerate(zip(deaths, robots_per_leg))],
        "fairness": {"verdict": "fair", "balance": 0.95, "more_races_needed": 0,
                     "wins_needed": 20, "won": races},
        "docks": [{"dock": d, "decided": 25, "share": 0.25, "share_ci": [0.2, 0.3]}
                  for d in range(1, 5)],
        "heatmaps": {"per_races": 100, "deaths": [[0.0, 0.0]], "deaths_by_cause": {},
                     "chains": []},
        "reentry_loops": [],
        "_times": times,
    }


@pytest.fixture
def open_course():
    return load_dict({"format": "rally-scenario", "version": 1, "name": "open",
                      "board": {"width": 6, "height": 6},
                      "flags": [{"x": 3, "y": 3}],
                      "docks": [{"x": 0, "y": 5, "facing": "N"}, {"x": 1, "y": 5, "facing": "N"}]})


@pytest.fixture
def far_course():
    """Docks at the bottom left, flags far apart: a flag path of 44.5 squares."""
    return load_dict({"format": "rally-scenario", "version": 1, "name": "far",
                      "board": {"width": 12, "height": 12},
                      "flags": [{"x": 11, "y": 0}, {"x": 0, "y": 0}, {"x": 2, "y": 10}],
                      "docks": [{"x": 0, "y": 11, "facing": "N"}, {"x": 1, "y": 11, "facing": "N"}]})


def test_time_model_and_length_classes():
    assert timemodel.minutes_per_round(4) == pytest.approx(5.0)
    assert timemodel.minutes_per_round(8) == pytest.approx(8.0)
    assert timemodel.table_minutes(10, 4) == pytest.approx(55.0)
    # the classes are bands of minutes set by the flag path (docs/rules.md)
    short_under, long_from = calibration.minute_bands(44.5)
    assert 5 < short_under < 30 and 100 < long_from < 300
    assert [timemodel.length_class(m, 44.5) for m in (
        short_under - 0.01, short_under, long_from - 0.01, long_from)] == [
        "short", "medium", "medium", "long"]
    # a longer walk between the flags makes the same minutes longer
    assert calibration.minute_bands(50.0) < (short_under, long_from) < calibration.minute_bands(40.0)
    assert timemodel.length_class(60, 30.0) == "short" and timemodel.length_class(60, 55.0) == "long"


def test_the_flag_path_walks_from_the_raced_docks_through_the_flags(far_course):
    # from the middle of docks 1-2, (0.5, 11): 10.5 + 11, then 11 + 0, then 2 + 10
    assert flag_path(far_course, 2) == 44.5
    assert flag_path(far_course, 1) == 11 + 11 + 11 + 12      # from dock 1 alone, (0, 11)
    assert flag_path(replace(far_course, flags=()), 2) == 0.0


@pytest.mark.parametrize("rules, score", [(0, 0.0), (1, 0.0), (0, 6.0), (2, 3.0)])
def test_difficulty_class_from_deaths_per_robot_per_leg(rules, score):
    bands = medium, hard, expert = calibration.death_bands(rules, score)
    assert medium < hard < expert
    for deaths, cls in ((medium * 0.99, "easy"), (medium * 1.01, "medium"),
                        (hard * 0.99, "medium"), (hard * 1.01, "hard"),
                        (expert * 0.99, "hard"), (expert * 1.01, "expert")):
        assert course_card.DIFFICULTY[calibration.band(deaths, bands)] == cls


def test_special_rules_and_the_flag_score_lower_the_deaths_of_each_class():
    plain = calibration.death_bands(0, 4.0)
    assert all(r < p for r, p in zip(calibration.death_bands(1, 4.0), plain))
    assert all(f < p for f, p in zip(calibration.death_bands(0, 6.0), plain))


def test_the_card_reads_its_rate_against_its_courses_bands(open_course):
    # 100 robots set out on the leg; the open course's flag scores 0, no special rules
    medium, hard, expert = calibration.death_bands(0, 0.0)
    for deaths, cls in ((int(medium * 100), "easy"), (int(medium * 100) + 1, "medium"),
                        (int(expert * 100) + 1, "expert")):
        card = course_card.card(open_course, result(deaths=(deaths,)))
        assert card["difficulty"]["class"] == cls
        assert card["difficulty"]["deaths_per_robot_leg"] == pytest.approx(deaths / 100)
        assert card["difficulty"]["special_rules"] == []
    superbot = replace(open_course, rules=replace(open_course.rules, superbot=True))
    card = course_card.card(superbot, result(deaths=(int(medium * 100),)))
    assert card["difficulty"]["special_rules"] == ["superbot"]
    assert card["difficulty"]["class"] != "easy"             # the same deaths, a special rule


def test_deaths_pool_over_legs_not_a_mean_of_rates(open_course):
    # 0 of 100 and 60 of 60: pooled 60 / 160; the mean of rates, 0.5, is another class
    medium, hard, _ = calibration.death_bands(0, 0.0)
    assert 60 / 160 < medium < 0.5 < hard
    card = course_card.card(open_course, result(deaths=(0, 60), robots_per_leg=(100, 60)))
    assert card["difficulty"]["deaths_per_robot_leg"] == pytest.approx(60 / 160, abs=1e-3)
    assert card["difficulty"]["class"] == "easy"


def test_the_flag_score_counts_in_the_class(open_course):
    walled = replace(open_course, board=replace(
        open_course.board, tiles=tuple(Tile(x, y, "pit") for x, y in ((2, 2), (4, 4), (2, 4)))))
    open_card = course_card.card(open_course, result(deaths=(30,)))
    card = course_card.card(walled, result(deaths=(30,)))          # 3 pits: score 6
    assert (open_card["flag_score"], open_card["difficulty"]["class"]) == (0, "easy")
    assert (card["flag_score"], card["difficulty"]["class"]) == (6, "hard")
    assert build.lines(card)[-1].startswith("Flag score: 6 (1: 6): the publisher's count of the "
                                            "hazards around each flag")
    medium, hard, expert = calibration.death_bands(0, 6.0)
    assert (f"on this course medium from {medium:.2f}, hard from {hard:.2f}, expert from "
            f"{expert:.2f} (no special rules, flag score 6)") in build.lines(card)[2]


def test_a_class_whose_interval_reaches_a_neighbour_says_so(open_course):
    card = course_card.card(open_course, result(deaths=(10,), robots_per_leg=(25,)))  # 0.4, few robots
    assert card["difficulty"]["class"] == "easy"
    assert card["difficulty"]["could_be"][:1] == ["medium"]
    sure = course_card.card(open_course, result(deaths=(2000,), robots_per_leg=(10000,)))
    assert sure["difficulty"]["could_be"] == []


def test_length_class_and_time_from_the_median(far_course, open_course):
    card = course_card.card(far_course, result(rounds=12))
    length = card["length"]
    assert (length["class"], length["minutes"], length["rounds_ci"]) == ("medium", 65, [11, 13])
    assert length["could_be"] == [] and length["flag_path"] == 44.5
    assert "; flag path 44.5 squares" in build.lines(card)[1]
    # the same race on a course whose flags lie close together is short
    assert course_card.card(open_course, result(rounds=12))["length"]["class"] == "short"
    # a median whose interval crosses into long says so
    _, long_from = calibration.minute_bands(44.5)
    edge = math.floor((long_from - timemodel.SETUP) / timemodel.minutes_per_round(4))
    assert "long" in course_card.card(far_course, result(rounds=edge))["length"]["could_be"]


def test_the_rounds_interval_does_not_collapse_while_the_races_disagree():
    from rallyforge.engine.analysis.balance import balance
    result = balance(load_file(TUTORIAL), 60)
    assert len(result["length"]["histogram"]) > 1               # the races disagree
    assert result["length"]["median_ci"][0] == result["length"]["median_ci"][1]   # whole rounds
    length = result["card"]["length"]
    assert length["rounds_ci"][0] < length["rounds"] < length["rounds_ci"][1]
    assert length["minutes_ci"][0] < length["minutes_ci"][1]
    line = build.lines(result["card"])[1]
    assert line.startswith(f"Length: short: median {length['rounds']:.1f} rounds (95%: "
                           f"{length['rounds_ci'][0]:.1f} to {length['rounds_ci'][1]:.1f}); "
                           f"at least ")
    assert "a lower estimate" in line


def test_the_time_line_shows_its_arithmetic_and_it_adds_up():
    from rallyforge.engine.analysis.balance import balance
    card = balance(load_file(TUTORIAL), 60)["card"]
    length = card["length"]
    line = build.lines(card)[1]
    found = re.search(r"at least (\d+) min at a table \(95%: [^)]*\): (\d+) min to set up \+ "
                      r"([\d.]+) rounds × ([\d.]+) min \(", line)
    assert found, line
    total, set_up, rounds, per_round = (float(v) for v in found.groups())
    assert (set_up, per_round) == (timemodel.SETUP, length["minutes_per_round"])
    assert rounds == round(length["rounds"], 1)
    assert abs(set_up + rounds * per_round - total) <= 0.5 + 0.05 * per_round   # as rounded


def judged_seats(shares: list[float], decided: int) -> dict:
    """The fairness of four seats of four-robot races that won these shares
    of `decided` decided races (balance/aggregate.py ``fairness``)."""
    from rallyforge.engine.analysis.balance.aggregate import fairness
    from rallyforge.engine.analysis.stats import wilson
    wins = [round(p * decided) for p in shares]
    docks = [{"dock": i + 1, "races": decided, "wins": w, "win_rate": w / decided,
              "ci": list(wilson(w, decided)), "decided": decided, "share": w / decided,
              "share_ci": list(wilson(w, decided)), "fair_share": 0.25}
             for i, w in enumerate(wins)]
    return fairness(docks, [float(w) for w in wins], [decided / 4] * 4, decided, 1.0)


def test_the_verdict_names_the_seat_furthest_from_fair_when_its_interval_leaves_it_out(
        open_course):
    r = result()
    # seat 4 is 4 points above a fair share, seat 2 eight below: seat 2 is named,
    # though it wins least
    r["fairness"] = judged_seats([0.25, 0.17, 0.29, 0.29], 1000)
    c = course_card.card(open_course, r)
    assert (c["fairness"]["verdict"], c["fairness"]["favoured_dock"]) == ("unfair", 2)
    line = build.lines(c)[3]
    assert line.startswith("Fairness: unfair, seat 2 wins 17% of decided races (races someone "
                           "won) (95%: 15% to 19%) against a fair 25%; the best and worst seats' "
                           "win rates (of all races) are ")
    # unfair, but no seat's interval leaves out a fair share on its own
    r["fairness"] = judged_seats([0.31, 0.19, 0.31, 0.19], 200)
    c = course_card.card(open_course, r)
    assert (c["fairness"]["verdict"], c["fairness"]["favoured_dock"]) == ("unfair", None)
    assert build.lines(c)[3].startswith("Fairness: unfair: the seats differ, none alone (the "
                                        "furthest, seat 1 wins 31% of decided races")
    # too few won races: how many more, no seat
    r["fairness"] = judged_seats([0.5, 0.0, 0.5, 0.0], 12)
    c = course_card.card(open_course, r)
    assert (c["fairness"]["verdict"], c["fairness"]["favoured_dock"]) == ("inconclusive", None)
    assert build.lines(c)[3] == ("Fairness: inconclusive: 12 races won, the verdict waits for 20 "
                                 "(5 a seat); about 8 more races would give them")
    # fair: no name
    r["fairness"] = judged_seats([0.25, 0.25, 0.24, 0.26], 4000)
    c = course_card.card(open_course, r)
    assert (c["fairness"]["verdict"], c["fairness"]["favoured_dock"]) == ("fair", None)


def test_few_deaths_read_in_three_decimals(open_course):
    text = build.lines(course_card.card(open_course, result(deaths=(2,), robots_per_leg=(1000,))))
    assert text[2].startswith("Difficulty: easy: 0.002 deaths per robot per leg (95%: 0.000 to "
                              "0.007)")
    assert text[4] == "Deadliest leg: to flag 1, 0.002 deaths per robot (95%: 0.000 to 0.007)"


def test_the_card_against_the_courses_goals(open_course, far_course):
    # on the far course, a median whose interval (one round either side) holds
    # the edge between medium and long
    _, long_from = calibration.minute_bands(44.5)
    edge = math.floor((long_from - timemodel.SETUP) / timemodel.minutes_per_round(4))
    far = course_card.card(far_course, result(rounds=edge))
    assert build.against_goals(far, Goals(length="medium", fair=False)) == [
        {"goal": "length", "wanted": "medium", "verdict": "unsure"}]
    assert build.against_goals(far, Goals(length="long", fair=False))[0]["verdict"] == "unsure"
    assert build.against_goals(far, Goals(length="short", fair=False))[0]["verdict"] == "missed"
    # the same rounds on the open course, whose flag lies by its docks: short for sure
    c = course_card.card(open_course, result(rounds=6, deaths=(20,), robots_per_leg=(100,)))
    verdicts = {g["goal"]: g["verdict"] for g in build.against_goals(
        c, Goals(length="short", deaths_per_leg=0.5))}
    assert verdicts == {"length": "met", "deaths_per_leg": "met", "fair": "met"}
    assert build.against_goals(c, Goals(length="long", fair=False))[0]["verdict"] == "missed"
    assert build.against_goals(c, Goals(rounds=6, fair=False))[0]["verdict"] == "unsure"
    assert build.against_goals(c, Goals(rounds=14, fair=False))[0]["verdict"] == "missed"
    deaths = {b: build.against_goals(c, Goals(deaths_per_leg=b, fair=False))[0]["verdict"]
              for b in (0.1, 0.2, 0.4)}             # 20 of 100: 95% about 0.12 to 0.31
    assert deaths == {0.1: "missed", 0.2: "unsure", 0.4: "met"}
    c["fairness"]["verdict"] = "inconclusive"
    goals = Goals(length="short", deaths_per_leg=0.5, robots=3)
    assert build.lines(build.judged(c, goals))[-1] == (
        "Goals (they are for 3 robots, the card for 4): length short: met; at most 0.5 deaths "
        "per robot on any leg: met; fair docks: not settled")
    assert build.judged(c, goals)["goals"] == {"robots": 3, "checks": build.against_goals(c, goals)}
    assert build.judged(c, None)["goals"] is None
    assert build.lines(build.judged(c, None))[-1].startswith("Flag score")


def test_the_card_of_a_course_with_goals_carries_their_verdicts(open_course):
    """One place judges the goals: the card's ``goals``, which its text reads."""
    course = replace(open_course, goals=Goals(rounds=14, deaths_per_leg=0.5))
    c = course_card.card(course, result(rounds=10, deaths=(20,), robots_per_leg=(100,)))
    assert c["goals"] == {"robots": None, "checks": [
        {"goal": "rounds", "wanted": 14, "verdict": "missed"},
        {"goal": "deaths_per_leg", "wanted": 0.5, "verdict": "met"},
        {"goal": "fair", "wanted": True, "verdict": "met"}]}
    assert build.lines(c)[-1] == ("Goals: 14 rounds: missed; at most 0.5 deaths per robot on "
                                  "any leg: met; fair docks: met")
    assert course_card.card(open_course, result())["goals"] is None


def test_a_card_is_for_the_goals_robots_when_the_docks_allow(open_course):
    docks = len(open_course.docks)
    assert robots_for(open_course.goals, docks) == 2                  # 2 docks
    assert robots_for(Goals(robots=1), docks) == 1
    assert robots_for(Goals(robots=3), docks) == 2


def test_the_card_command_reads_the_goals(tmp_path, capsys):
    doc = json.loads(TUTORIAL.read_text())
    doc["goals"] = {"robots": 2, "length": "long"}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    assert main(["card", str(path), "--races", "20", "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "20 races of 2 `search` robots" in out[0]
    assert out[-1].startswith("Goals: length long: missed; fair docks: ")
    assert main(["card", str(path), "--races", "20", "--workers", "1", "--robots", "3",
                 "--json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["robots"] == 3
    assert card["goals"]["robots"] == 2
    assert [(g["goal"], g["wanted"], g["verdict"]) for g in card["goals"]["checks"]][0] == (
        "length", "long", "missed")
    assert [g["goal"] for g in card["goals"]["checks"]] == ["length", "fair"]


def test_the_kept_card_says_how_it_meets_the_goals_the_file_has(tmp_path, capsys):
    doc = json.loads(TUTORIAL.read_text())
    doc["goals"] = {"length": "long", "fair": False}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    assert main(["card", str(path), "--races", "20", "--workers", "1", "--store"]) == 0
    capsys.readouterr()
    kept = json.loads(path.read_text())["card"]
    assert kept["goals"] == {"robots": None, "checks": [
        {"goal": "length", "wanted": "long", "verdict": "missed"}]}
    assert not course_problems(load_file(path))
    # new goals do not make the card stale: it is judged again when shown and when saved
    course = replace(load_file(path), goals=Goals(length="short", fair=False))
    assert json.loads(dumps(build.kept_judged(course)))["card"]["goals"]["checks"] == [
        {"goal": "length", "wanted": "short", "verdict": "met"}]
    doc = json.loads(path.read_text())
    doc["goals"] = {"length": "short", "fair": False}
    path.write_text(json.dumps(doc))
    assert main(["card", str(path), "--stored", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["goals"]["checks"][0]["verdict"] == "met"
    assert main(["card", str(path), "--stored"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Goals: length short: met"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_card_command_on_every_example(path, capsys):
    assert main(["card", str(path), "--races", "40", "--workers", "1", "--json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert set(card) == {"course", "play_hash", "robots", "races", "bot", "seed", "estimate",
                         "players", "seating", "length", "difficulty", "fairness", "deadliest_leg",
                         "deadliest_square", "reentry_loops", "flags", "flag_score", "goals"}
    assert set(card["length"]) == {"class", "could_be", "rounds", "rounds_ci", "minutes",
                                   "minutes_ci", "minutes_per_round", "undecided", "flag_path"}
    assert set(card["difficulty"]) == {"class", "could_be", "deaths_per_robot_leg", "ci",
                                       "flag_score", "special_rules"}
    assert set(card["fairness"]) == {"verdict", "balance", "favoured_dock", "share", "share_ci",
                                     "fair_share", "more_races_needed", "dock", "won",
                                     "wins_needed"}
    if card["deadliest_leg"] is not None:
        assert set(card["deadliest_leg"]) == {"to_flag", "deaths", "robots", "rate", "ci"}
    if card["deadliest_square"] is not None:
        assert set(card["deadliest_square"]) == {"x", "y", "per_100_races", "ci", "cause", "why"}
    assert all(set(f) == {"flag", "x", "y", "score", "parts"} for f in card["flags"])
    assert card["races"] == 40 and card["estimate"] is False
    assert len(card["flags"]) == len(load_file(path).flags)


def test_the_card_as_text(capsys):
    assert main(["card", str(TUTORIAL), "--races", "20", "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Course card: First Steps (measured: 20 races of 4 `search` robots")
    assert [line.split(":")[0] for line in out[1:]] == [
        "Length", "Difficulty", "Fairness", "Deadliest leg", "Deadliest square", "Flag score"]


def test_the_play_hash_follows_play_only(open_course):
    base = play_hash(open_course)
    assert len(base) == 64
    assert play_hash(replace(open_course, name="other", description="d", note="n")) == base
    flags = (replace(open_course.flags[0], note="the hard one"),)
    assert play_hash(replace(open_course, flags=flags)) == base
    assert play_hash(replace(open_course, flags=(replace(flags[0], x=2),))) != base
    assert play_hash(replace(open_course, rules=replace(open_course.rules, lives=2))) != base
    assert play_hash(replace(open_course, docks=open_course.docks[::-1])) != base


def test_a_stored_card_is_kept_and_warns_once_stale(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text(TUTORIAL.read_text())
    assert main(["card", str(path), "--races", "20", "--workers", "1", "--store"]) == 0
    printed = capsys.readouterr().out
    course = load_file(path)
    assert course.card is not None and not stale(course)
    assert course.card.data["races"] == 20
    assert main(["card", str(path), "--stored"]) == 0
    assert capsys.readouterr().out == printed
    assert not [p for p in course_problems(course) if p.code == "W416"]
    moved = replace(course, flags=(replace(course.flags[0], x=course.flags[0].x - 1),))
    assert [p.pointer for p in course_problems(moved) if p.code == "W416"] == ["/card"]
    assert load_dict(json.loads(dumps(moved))).card == course.card    # saved as read


def test_a_kept_card_that_is_only_a_hash_is_an_error_not_a_crash(tmp_path, capsys):
    course = load_file(TUTORIAL)
    path = tmp_path / "t.json"
    path.write_text(dumps(with_card(course, {"play_hash": play_hash(course), "robots": 4})))
    assert main(["card", str(path), "--stored"]) == 1
    assert "keeps is incomplete or damaged (course: missing;" in capsys.readouterr().err
    whole = course_card.card(course, result())
    assert build.readable(whole)
    assert not build.readable(dict(whole, length={"class": "short"}))


def test_stored_without_a_card_is_an_error(capsys):
    assert main(["card", str(TUTORIAL), "--stored"]) == 1
    assert "keeps no card" in capsys.readouterr().err


def test_the_schema_wants_a_hash(open_course):
    from rallyforge.engine.validation.validator import validate_data
    doc = json.loads(dumps(with_card(open_course, {"play_hash": "x"})))
    assert [p.pointer for p in validate_data(doc) if p.is_error] == ["/card/play_hash"]


def test_the_balance_report_starts_with_the_card(tmp_path):
    assert main(["balance", str(TUTORIAL), "--races", "20", "--workers", "1", "--quiet",
                 "--report", str(tmp_path)]) == 0
    text = (tmp_path / "report.md").read_text()
    assert text.index("## Course card") < text.index("## In short")
    assert "- Length: short" in text and "- Flag score: 2 (1: 2)" in text


def test_the_balance_report_says_how_the_course_meets_its_goals(tmp_path, capsys):
    doc = json.loads(TUTORIAL.read_text())
    doc["goals"] = {"robots": 2, "length": "long", "fair": False}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "out.json"
    assert main(["balance", str(path), "--races", "20", "--workers", "1", "--quiet",
                 "--report", str(tmp_path / "rep"), "--json", str(out)]) == 0
    assert "- Goals: length long: missed" in (tmp_path / "rep" / "report.md").read_text()
    result = json.loads(out.read_text())
    assert result["robots"] == 2                    # the goals' robots, no --robots given
    assert result["card"]["goals"]["checks"] == [
        {"goal": "length", "wanted": "long", "verdict": "missed"}]
    assert "Goals: length long: missed" in capsys.readouterr().out
    assert main(["balance", str(path), "--races", "20", "--workers", "1", "--quiet",
                 "--robots", "3", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["robots"] == 3


def test_the_balance_function_races_the_goals_robots():
    from rallyforge.engine.analysis.balance import balance
    course = replace(load_file(TUTORIAL), goals=Goals(robots=2))
    assert balance(course, 4)["robots"] == 2
    assert balance(course, 4, robots=3)["robots"] == 3


def test_the_card_reads_no_time_trial_so_the_card_command_plays_none(monkeypatch, capsys):
    from rallyforge.engine.analysis.balance import balance, play
    course = load_file(TUTORIAL)
    with_trials = balance(course, 30, trials=2)
    assert {t["trials"] for t in with_trials["time_trial"]} == {2}
    assert balance(course, 30, trials=0)["card"] == with_trials["card"]

    def no_trial(*args, **kwargs):
        raise AssertionError("the card command played a time trial")
    monkeypatch.setattr(play, "play_trial", no_trial)
    assert main(["card", str(TUTORIAL), "--races", "16", "--workers", "1"]) == 0
    assert "Length:" in capsys.readouterr().out


def test_compare_races_the_old_courses_goals_robots(tmp_path, capsys):
    doc = json.loads(TUTORIAL.read_text())
    doc["goals"] = {"robots": 2}
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(doc))
    new.write_text(TUTORIAL.read_text())
    out = tmp_path / "out.json"
    assert main(["compare", str(old), str(new), "--races", "8", "--workers", "1", "--quiet",
                 "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["robots"] == 2
    doc["goals"] = {"robots": 3}
    old.write_text(json.dumps(doc))
    doc.pop("goals")
    doc["docks"] = doc["docks"][:2]
    new.write_text(json.dumps(doc))
    assert main(["compare", str(old), str(new), "--races", "8", "--workers", "1",
                 "--quiet"]) == 2
    assert "robots 3: 'First Steps' has only 2 docks" in capsys.readouterr().err


def test_a_length_goal_and_a_rounds_goal_are_both_judged(open_course):
    """docs/format.md, `goals`: one check per goal asked; neither of the two shadows the other."""
    c = course_card.card(open_course, result(rounds=5))       # 4 to 6 rounds: short at 4 robots
    checks = build.against_goals(c, Goals(length="short", rounds=30, fair=False))
    assert checks == [{"goal": "length", "wanted": "short", "verdict": "met"},
                      {"goal": "rounds", "wanted": 30, "verdict": "missed"}]
    course = replace(open_course, goals=Goals(length="long", rounds=10, fair=False))
    assert build.lines(course_card.card(course, result(rounds=10)))[-1] == (
        "Goals: length long: missed; 10 rounds: unsure".replace("unsure", "not settled"))


def stop_after_first_chunk(monkeypatch):
    """Ctrl+C pressed while the second chunk of races is played."""
    from rallyforge.engine.analysis.balance.play import RaceTask
    play = RaceTask.play
    calls = []

    def pressed(self, jobs):
        calls.append(len(jobs))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return play(self, jobs)
    monkeypatch.setattr(RaceTask, "play", pressed)


def test_a_card_stopped_by_ctrl_c_is_neither_shown_nor_stored(tmp_path, capsys, monkeypatch):
    path = tmp_path / "t.json"
    path.write_text(TUTORIAL.read_text())
    before = path.read_bytes()
    stop_after_first_chunk(monkeypatch)
    assert main(["card", str(path), "--races", "200", "--workers", "1", "--store"]) == 130
    out, err = capsys.readouterr()
    assert out == ""
    played = int(err.split("stopped: ")[1].split(" of ")[0])
    assert 0 < played < 200 and "of 200 races played; no card stored" in err
    assert path.read_bytes() == before


def test_an_interval_shows_as_many_decimals_as_its_ends_need(open_course):
    r = result(rounds=2)
    r["length"]["median_between_ci"] = [1.96, 2.04]       # 14.8 to 15.2 minutes
    line = build.lines(course_card.card(open_course, r))[1]
    assert "median 2.00 rounds (95%: 1.96 to 2.04)" in line
    assert "at least 15.0 min at a table (95%: 14.8 to 15.2)" in line
    r["length"]["median_between_ci"] = [1.0, 3.0]
    line = build.lines(course_card.card(open_course, r))[1]
    assert "median 2.0 rounds (95%: 1.0 to 3.0); at least 15 min at a table (95%: 10 to 20)" in line


def test_a_card_of_other_bots_says_its_classes_are_fitted_to_the_default_bots(open_course):
    assert not any(line.startswith("Note:") for line in build.lines(course_card.card(open_course,
                                                                                result())))
    r = dict(result(), bot="random")
    assert build.lines(course_card.card(open_course, r))[-1] == (
        "Note: the classes are fitted to `search` robots' races, not `random` robots'")


def test_a_card_kept_before_chains_loops_and_goals_is_still_shown(open_course):
    old = {k: v for k, v in course_card.card(open_course, result()).items()
           if k not in ("reentry_loops", "goals")}
    old["deadliest_square"] = {"x": 1, "y": 2, "per_100_races": 2.0, "ci": [1.0, 3.0],
                               "cause": "pit", "deaths_class": "hard"}  # an old key: let through
    assert build.readable(old)
    assert "Deadliest square: (1, 2), 2.0 deaths per 100 races (95%: 1.0 to 3.0), mostly pit" \
        in build.lines(build.judged(old, None))


@pytest.mark.parametrize("damaged, place", [
    (lambda c: c["length"].update(rounds_ci=[9.0, 10.0, 11.0]), "length.rounds_ci: 2 items"),
    (lambda c: c["fairness"].update(share="0.25"), "fairness.share: a number wanted"),
    (lambda c: c["flags"][0]["parts"][0].pop("points"), "flags[0].parts[0].points: missing"),
    (lambda c: c.update(estimate=0), "estimate: true or false wanted"),
    (lambda c: c.update(deadliest_leg={"to_flag": 1}), "deadliest_leg.deaths: missing"),
])
def test_a_damaged_kept_card_is_named_where_it_is_damaged(damaged, place):
    whole = json.loads(json.dumps(course_card.card(load_file(TUTORIAL), result(deaths=(5,)))))
    assert whole["flags"][0]["parts"] and build.readable(whole)
    damaged(whole)
    assert not build.readable(whole)
    assert build.damage(whole).startswith(place)


def test_every_card_of_the_cards_type_can_be_shown():
    """The shape check is all `lines` needs: any value of types.CourseCard (values
    made from its annotations, odd combinations included: a favoured dock
    with no share, a median with no rounds) is readable and shown."""
    from typing import Annotated, Literal, NotRequired, Union, get_args, get_origin, get_type_hints
    from typing import is_typeddict
    import types as builtin_types

    from hypothesis import given, settings, strategies as st

    from rallyforge.engine.analysis.course_card.types import CourseCard
    from rallyforge.engine.format.typed_json import Items

    def values(kind):
        origin, args = get_origin(kind), get_args(kind)
        if origin is Annotated:
            (n,) = [m.count for m in args[1:] if isinstance(m, Items)]
            return st.lists(values(get_args(args[0])[0]), min_size=n, max_size=n)
        if is_typeddict(kind):
            hints = get_type_hints(kind, include_extras=True)
            optional = {k: values(get_args(h)[0]) for k, h in hints.items()
                        if get_origin(h) is NotRequired}
            return st.fixed_dictionaries({k: values(h) for k, h in hints.items()
                                          if k not in optional}, optional=optional)
        if origin in (Union, builtin_types.UnionType):
            return st.one_of([values(a) for a in args])
        if origin is Literal:
            return st.sampled_from(args)
        if origin is list:
            return st.lists(values(args[0]), max_size=3)
        return {int: st.integers(-5, 10**6), float: st.floats(-1e6, 1e6), str: st.text(max_size=8),
                bool: st.booleans(), type(None): st.none()}[kind]

    @settings(max_examples=150, deadline=None)
    @given(values(CourseCard), st.sampled_from([None, Goals(rounds=12, deaths_per_leg=0.3, fair=True,
                                                      length="short", robots=3)]))
    def shown(card, goals):
        assert build.readable(card)
        assert build.lines(build.judged(card, goals))

    shown()


def test_the_card_type_and_the_schema_list_the_same_fields():
    """types.CourseCard (what is checked and shown) and the schema's card (what a
    file may hold) name the same fields at every level, but for notes and the
    fields only earlier versions wrote."""
    from typing import Annotated, get_args, get_origin, get_type_hints, is_typeddict

    from rallyforge.engine.analysis.course_card.types import CourseCard
    from rallyforge.engine.format.schema import schema_path

    def typed_dicts(kind):         # the TypedDict inside X | None, list[X], NotRequired[X]
        if is_typeddict(kind):
            return kind
        if get_origin(kind) is Annotated:       # an interval
            return None
        return next((k for k in map(typed_dicts, get_args(kind)) if k is not None), None)

    def walk(kind, node, where):
        node = node.get("items", node)
        fields = set(node["properties"]) - {"note", "deaths_class", "flag_class"}
        hints = get_type_hints(kind, include_extras=True)
        assert set(hints) == fields, where
        for key, hint in hints.items():
            inner = typed_dicts(hint)
            if inner is not None:
                walk(inner, node["properties"][key], f"{where}.{key}")

    walk(CourseCard, json.loads(schema_path().read_text())["properties"]["card"], "card")


def test_a_course_with_a_programming_clock_says_the_card_leaves_it_out(open_course, tmp_path,
                                                                       capsys):
    plain = build.lines(course_card.card(open_course, result()))
    assert not [line for line in plain if "clock" in line]
    clocked = replace(open_course, rules=replace(open_course.rules, programming_seconds=30))
    card = course_card.card(clocked, result())
    assert card["programming_seconds"] == 30
    assert ("Programming clock: 30 s for people at a table, not simulated: bots program untimed, "
            "so the length and difficulty above leave it out") in build.lines(card)
    path = tmp_path / "clocked.json"                 # kept in the file, read back and shown
    path.write_text(dumps(with_card(clocked, card)), encoding="utf-8")
    assert main(["card", str(path), "--stored"]) == 0
    assert "Programming clock: 30 s" in capsys.readouterr().out
