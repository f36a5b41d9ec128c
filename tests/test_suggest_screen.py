"""Suggest's screen: the lone-robot model's steps, the ranking of far
candidates before any race, the reasons given, the side effects counted;
and on the planted courses of tests/fixtures (a fair course made unfair,
long or deadly by one edit), the top suggestion undoes most of the edit."""
import math
from pathlib import Path

import pytest

from rallyforge.engine.analysis.suggest import applied, search, suggest
from rallyforge.engine.analysis.suggest.candidates import Diagnosis, candidates, docking_area, shortlist
from rallyforge.engine.analysis.suggest.edits import Edit, apply_all
from rallyforge.engine.analysis.suggest.score import Target, side_effects
from rallyforge.engine.analysis.suggest.screen import FAR, numbers, screen, sight, why
from rallyforge.engine.cli.suggest import text
from rallyforge.engine.format.loader import load_file
from rallyforge.engine.model.scenario import Goals

ROOT = Path(__file__).parent.parent
STANDARD = load_file(ROOT / "scenarios" / "standard-course.json")
TUTORIAL = load_file(ROOT / "scenarios" / "tutorial.json")
FIXTURES = Path(__file__).parent / "fixtures"
FAIR = Target(Goals(), 8, 8)             # eight players: every dock of the standard course races
UNFAIR_TUTORIAL = load_file(FIXTURES / "planted-unfair-tutorial.json")  # dock 4 before flag 1
FAIR4 = Target(Goals(), 4, 4)


def first_run(s, winner: int) -> Diagnosis:
    """What a first run would show: dock `winner` wins half the races."""
    rates = [0.2] * len(s.docks)
    rates[winner - 1] = 0.5
    return Diagnosis(tuple(rates), (((5, 6), 4),), (0.2,) * len(s.flags), 8.0)


def test_steps_count_each_square_and_turn_a_lone_robot_needs():
    seen = sight(STANDARD)
    forward = sight(apply_all(STANDARD, (Edit("move_dock", (8, (10, 12), (5, 7))),)))
    assert forward.leads[7] == 3                  # (5,7) to flag 1 at (5,4): three squares
    assert forward.leads[:7] == seen.leads[:7]
    walled = sight(apply_all(STANDARD, (Edit("add_wall", ((5, 15), "N")),)))
    assert walled.leads[0] >= seen.leads[0] + 2   # turn away and back again, at least
    assert walled.leads[1:] == seen.leads[1:]
    assert len(seen.legs) == 2 and seen.steps == sum(seen.leads) / 8 + sum(seen.legs)
    highlands = sight(load_file(ROOT / "scenarios" / "highlands.json"))
    assert FAR not in highlands.leads + highlands.legs      # its ramps need a Move 2 or 3


PLANTED = {   # one edit that makes the standard course unfair, and the square it spoils
    "dock forward": Edit("move_dock", (8, (10, 12), (5, 7))),
    "flag beside a dock": Edit("move_flag", (1, (5, 4), (5, 13))),
    "wall in front of a dock": Edit("add_wall", ((5, 15), "N")),
}


@pytest.mark.parametrize("planted", PLANTED.values(), ids=PLANTED.keys())
def test_the_model_ranks_an_undo_of_a_planted_edit_first(planted):
    s = apply_all(STANDARD, (planted,))
    winner = {"move_dock": 8, "move_flag": 5, "add_wall": 2}[planted.kind]
    found = candidates(s, Goals(), first_run(s, winner))
    base, ranked = screen(s, FAIR, first_run(s, winner), found)
    fair = sight(STANDARD).spread(base)
    assert base.spread(base) > fair
    assert ranked[0].sight.spread(base) - fair <= (base.spread(base) - fair) / 2   # most undone
    raced = shortlist(s, [r.edit for r in ranked], search.RACED, search.PER_GROUP)
    if planted.kind == "add_wall":
        assert Edit("remove_wall", ((5, 15), "N")) in raced
    assert all(sight(apply_all(s, (e,))).spread(base) < base.spread(base) for e in raced[:8])


def test_the_docks_unevenness_is_in_steps_lengthening_every_lead_alike_barely_changes_it():
    s, diagnosis = UNFAIR_TUTORIAL, first_run(UNFAIR_TUTORIAL, 4)
    base, ranked = screen(s, FAIR4, diagnosis, candidates(s, Goals(), diagnosis))
    away = next(r for r in ranked if r.edit == Edit("move_flag", (1, (5, 3), (5, 0))))
    assert [b - a for a, b in zip(base.leads, away.sight.leads)] == [3] * 4    # every lead longer
    longer = away.sight.steps / base.steps                                     # 13.25 / 10.25
    # the same head start, only spread over a longer race (as a share of each
    # version's own mean lead it would fall by 10.25 / 13.25, a quarter)
    assert away.sight.spread(base) == pytest.approx(base.spread(base) / math.sqrt(longer))
    assert away.sight.spread(base) > 0.85 * base.spread(base)
    back = ranked[0]                                    # dock 4 back among the others
    assert back.edit.kind == "move_dock" and back.edit.args[0] == 4
    assert min(base.leads[:3]) <= back.sight.leads[3] <= max(base.leads[:3])
    assert back.sight.spread(base) < base.spread(base) / 3 and back.score < away.score


def test_of_edits_the_model_sees_alike_those_that_put_the_odd_dock_back_in_line_come_first():
    s, diagnosis = UNFAIR_TUTORIAL, first_run(UNFAIR_TUTORIAL, 4)
    rows = {d.y for d in s.docks[:3]}                   # docks 1-3 stand on rows 10 and 11
    area = docking_area(s, 4)
    in_line = [q for q in area if q[1] in rows]
    assert 0 < len(in_line) < len(area) and area[:len(in_line)] == in_line
    base, ranked = screen(s, FAIR4, diagnosis, candidates(s, Goals(), diagnosis))
    top = ranked[0].edit                                # not a square a row ahead of the others
    assert top.kind == "move_dock" and top.args[0] == 4 and top.args[2][1] in rows
    swaps = [Edit("swap_docks", (1, 2)), Edit("swap_docks", (1, 4))]    # the same leads, renumbered
    _, tied = screen(s, FAIR4, diagnosis, swaps)
    assert tied[0].score == tied[1].score and tied[0].edit == swaps[1]  # the one touching dock 4


def test_the_best_edits_touching_the_dock_the_first_races_single_out_are_raced():
    """A wall before dock 1 of the gauntlet reads to the model as more even
    steps to flag 1, so its removal ranks far below the edits raced; the
    first races say dock 1 wins least, so the best edit of each kind that
    touches it is raced all the same."""
    gauntlet = load_file(ROOT / "scenarios" / "gauntlet.json")
    wall, undo = (Edit(kind, ((5, 13), "N")) for kind in ("add_wall", "remove_wall"))
    walled = apply_all(gauntlet, (wall,))
    rates = [0.26] * len(walled.docks)
    rates[0] = 0.19                                             # dock 1, at (5, 13)
    diagnosis = Diagnosis(tuple(rates), (), (0.2,) * len(walled.flags), 9.0)
    target = Target(Goals(fair=True), 4, len(walled.docks))
    _, ranked = screen(walled, target, diagnosis, candidates(walled, target.goals, diagnosis))
    assert [r.edit for r in ranked].index(undo) > search.RACED
    found = search.Search(walled, Goals(fair=True), (4,), 6000, 0, "search", 1, None, True, None,
                          None)
    raced = found.shortlist(diagnosis)
    assert undo in raced and len(raced) == search.RACED
    # why, when the model sees no change in steps: what the first races said of that dock
    side = Edit("add_wall", ((5, 13), "E"))
    assert sight(apply_all(walled, (side,))).leads == sight(walled).leads
    assert why(walled, target, diagnosis, sight(walled), (side,)).startswith(
        "dock 1 wins 19% of the first races, the others 26%; this edit changes what stands at "
        "dock 1")


def test_why_speaks_of_steps_to_the_flag_and_first_races():
    s = apply_all(STANDARD, (PLANTED["dock forward"],))
    back = Edit("move_dock", (8, (5, 7), (10, 12)))
    line = why(s, FAIR, first_run(s, 8), sight(s), (back,))
    lo, hi = min(sight(STANDARD).leads), max(sight(STANDARD).leads)       # (10 and 11)
    assert line == (f"dock 8 is 3 steps from flag 1; docks 1-7 are {lo:.0f}-{hi:.0f} (first races: "
                    f"dock 8 wins 50%, the others 20%); with this edit docks 1-8 are {lo:.0f}-{hi:.0f}")
    beside = apply_all(STANDARD, (PLANTED["flag beside a dock"],))
    back = Edit("move_flag", (1, (5, 13), (5, 4)))
    line = why(beside, FAIR, first_run(beside, 1), sight(beside), (back,))
    assert line.startswith(f"dock 1 is {sight(beside).leads[0]:.0f} steps from flag 1; docks 2-8")
    swap = Edit("swap_docks", (1, 2))
    assert "sees no change" in why(s, FAIR, first_run(s, 8), sight(s), (swap,))
    both = why(s, FAIR, first_run(s, 8), sight(s), (back, Edit("turn_dock", (1, "N", "E"))))
    assert both.startswith("dock 8 is 3 steps") and both.count("dock 8 is") == 1
    assert "with these edits docks 1-8 are" in both
    assert numbers([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"


def test_why_names_the_seat_the_edit_touches():
    """The first races single out dock 8, the edit moves dock 5: the why
    speaks of dock 5 (its number or its square touched), not of dock 8."""
    s = apply_all(STANDARD, (PLANTED["dock forward"],))
    dock5 = s.docks[4]
    moved = Edit("move_dock", (5, (dock5.x, dock5.y), (dock5.x, dock5.y + 1)))
    line = why(s, FAIR, first_run(s, 8), sight(s), (moved,))
    assert line.startswith("dock 5 is ") and "first races: dock 5 wins 20%" in line
    walled = Edit("add_wall", ((dock5.x, dock5.y), "N"))
    assert why(s, FAIR, first_run(s, 8), sight(s), (walled,)).startswith("dock 5 is ")


def test_side_effects_count_what_no_goal_asks_about():
    old = {"worst_leg_deaths": 0.4, "median_rounds": 10.0}
    worse = {"worst_leg_deaths": 0.6, "median_rounds": 15.0}
    assert side_effects(old, worse, FAIR) == pytest.approx(0.1 * ((0.5 - 0.1) + (0.5 - 0.1)))
    assert side_effects(old, {"worst_leg_deaths": 0.42, "median_rounds": 10.5}, FAIR) == 0
    assert side_effects(worse, old, FAIR) == 0                   # better is no cost
    assert side_effects(old, {"worst_leg_deaths": 4.0, "median_rounds": 40.0}, FAIR) == \
        pytest.approx(0.1 * 2)                                   # at most 0.1 each
    deaths_goal = Target(Goals(deaths_per_leg=0.5), 4, 8)
    assert side_effects(old, worse, deaths_goal) == pytest.approx(0.1 * 0.4)   # length only
    length_goal = Target(Goals(length="short"), 4, 8)
    assert side_effects(old, worse, length_goal) == pytest.approx(0.1 * 0.4)   # deaths only


def test_a_fix_that_lengthens_the_race_ranks_below_an_equal_one_that_does_not():
    from rallyforge.engine.analysis.suggest.score import Record
    s = load_file(ROOT / "scenarios" / "tutorial.json")
    found = search.Search(s, Goals(), (4,), 100, 0, "random", 1, None, True, None, None)
    unfair = [Record((1, 2, 3, 4), (1,), 10, (4,), ())] * 3 + [Record((1, 2, 3, 4), (2,), 10, (4,), ())]
    even = [Record((1, 2, 3, 4), (d,), 10, (4,), ()) for d in (1, 2, 3, 4)]
    found.races[0] = unfair
    short = found.add((Edit("turn_dock", (1, "N", "E")),))
    long = found.add((Edit("turn_dock", (1, "N", "W")),))
    found.races[short] = even
    found.races[long] = [Record(r.docks, r.winner_docks, 14, r.on_leg, r.deaths) for r in even]
    assert found.shortfall_change(short) < found.shortfall_change(long) < 0


# ---------------------------------------------------------------- planted courses, raced

@pytest.fixture
def few_raced(monkeypatch):
    """A small, quick search: the model's best 8 raced."""
    monkeypatch.setattr(search, "RACED", 8)


def test_fair_goal_the_top_suggestion_puts_the_forward_dock_back_among_the_others(few_raced):
    s = load_file(FIXTURES / "planted-unfair-tutorial.json")       # dock 4 moved before flag 1
    result = suggest(s, budget=240, seed=2, workers=1)
    # (on so few races no edit is told from no change: the best is an idea, not a fix)
    assert result["fairness"] == "unfair" and not result["suggestions"]
    top = result["ideas"][0]
    fixed, planted, fair = sight(applied(s, top)), sight(s), sight(TUTORIAL)
    assert fixed.spread(planted) - fair.spread(planted) <= \
        (planted.spread(planted) - fair.spread(planted)) / 2
    assert top["effect"]["gap"]["change"] < 0
    assert top["why"].startswith(f"dock 4 is {planted.leads[3]:.0f} steps from flag 1; docks 1-3 "
                                 f"are {min(fair.leads[:3]):.0f}-{max(fair.leads[:3]):.0f}")
    printed = text(result)
    assert (f"{result['screened']} candidate edits screened by the lone-robot model, "
            f"{result['candidates']} raced") in printed
    assert result["screened"] > 500 and result["candidates"] >= 8
    assert f"   why: {top['why']}" in printed


def test_length_goal_the_top_suggestion_brings_the_far_flag_back(few_raced):
    s = load_file(FIXTURES / "planted-long-standard.json")  # a flag added in the far corner
    assert s.goals == Goals(fair=False, length="short")
    result = suggest(s, budget=300, seed=2, workers=1)
    top = result["suggestions"][0]
    fixed, planted, original = sight(applied(s, top)), sight(s), sight(STANDARD)
    assert fixed.steps - original.steps <= (planted.steps - original.steps) / 2
    assert top["effect"]["median_rounds"]["new"] <= 11          # a short race again
    assert top["edits"][0]["kind"] in ("move_flag", "remove_flag") and top["edits"][0]["args"][0] == 2


def test_deaths_goal_the_top_suggestion_takes_the_planted_laser_away(few_raced):
    s = load_file(FIXTURES / "planted-deadly-standard.json")   # a triple laser across flag 1
    assert s.goals == Goals(fair=False, deaths_per_leg=0.45)
    result = suggest(s, budget=300, seed=2, workers=1)
    top = result["suggestions"][0]
    assert any(e["kind"] in ("remove_laser", "shorten_laser") and e["args"][0] == [11, 4]
               for e in top["edits"])
    deaths = top["effect"]["worst_leg_deaths"]
    assert deaths["new"] <= 0.45 < deaths["old"]
    assert "deaths of the first races were where this edit takes the danger away" in top["why"]
