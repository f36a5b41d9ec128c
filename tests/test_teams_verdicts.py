"""Verdicts by team (docs/rules.md 13): balance, card and compare compare
teams and seats on a team course, not docks."""
from __future__ import annotations

from pathlib import Path

import pytest

from rallyforge.engine.analysis.balance import balance
from rallyforge.engine.analysis.balance.summary import RaceSummary
from rallyforge.engine.analysis.balance.teams import TeamTally, team_lines
from rallyforge.engine.analysis.course_card.build import lines as card_lines
from rallyforge.engine.format.loader import load_file


def team_verdict(scenario, races):
    tally = TeamTally(scenario)
    tally.add(races)
    return tally.result()

COURSES = Path(__file__).parent / "fixtures" / "teams"


def race(docks, sides, won) -> RaceSummary:
    return RaceSummary(seed=0, docks=docks, winners=(), rounds=5, finish_round=(None,) * 4,
                       flag_rounds=((),) * 4, deaths=(), occupancy=b"", sides=sides,
                       won_teams=won)


def test_team_shares_seats_and_the_first_seats_edge():
    scenario = load_file(COURSES / "any.json")
    red_first = ("Red", "Blue", "Red", "Blue")
    # docks rotate: in the second kind of race dock 1 (seat 1) is the last robot
    races = ([race((1, 2, 3, 4), red_first, ("Red",))] * 70
             + [race((2, 3, 4, 1), ("Blue", "Red", "Blue", "Red"), ("Red",))] * 10
             + [race((1, 2, 3, 4), red_first, ("Blue",))] * 20
             + [race((1, 2, 3, 4), red_first, ())] * 5)
    v = team_verdict(scenario, races)
    assert [(t["name"], t["wins"], t["races"]) for t in v["teams"]] == [("Red", 80, 100),
                                                                       ("Blue", 20, 100)]
    assert v["leader"] == "Red" and v["margin"] == pytest.approx(0.6)
    assert v["margin_ci"][0] > 0
    assert v["first_side"]["share"] == pytest.approx(0.8) and v["edge"] == "edge"
    assert v["seats"][1]["share"] == pytest.approx(0.2)
    text = "\n".join(team_lines(v))
    assert "Team Red wins most, clearly" in text and "has an edge" in text
    # an even split: no edge
    even = [race((1, 2, 3, 4), red_first, ("Red",)), race((1, 2, 3, 4), red_first, ("Blue",))] * 50
    assert team_verdict(scenario, even)["edge"] == "none"
    assert team_verdict(load_file("scenarios/" + "standard-course.json"), even) is None


def test_a_team_course_is_judged_by_team_in_the_report_and_the_card():
    from rallyforge.engine.analysis.balance.report import markdown
    result = balance(load_file(COURSES / "progress.json"), races=24, trials=0)
    assert {t["name"] for t in result["teams"]["teams"]} == {"Red", "Blue"}
    decided = result["completion"]["decided"]
    assert sum(t["wins"] for t in result["teams"]["teams"]) == pytest.approx(decided)
    shown = card_lines(result["card"])
    assert any(line.startswith("Teams: ") for line in shown)
    assert not any(line.startswith("Fairness: ") for line in shown)
    report = markdown(result, charts=False)
    assert "The first seat's side" in report and "- Dock 1 wins" not in report


def test_compare_by_team(tmp_path, capsys):
    from rallyforge.engine.cli.main import main
    status = main(["compare", str(COURSES / "any.json"), str(COURSES / "any.json"),
                   "--races", "8", "--quiet", "--workers", "1"])
    out = capsys.readouterr().out
    assert status == 0
    assert "- Team Red:" in out and "- The first seat's side:" in out and "- Dock 1" not in out


def test_a_capture_course_runs_its_time_trials_too():
    """A robot alone still carries the other team's flag (its team raced by none)."""
    result = balance(load_file(COURSES / "capture.json"), races=4, trials=1)
    assert result["races"] == 4 and any(t["trials"] for t in result["time_trial"])
