"""Balance runs with option cards: the --options what-if switch, and the
report's section on what the cards are worth."""
from __future__ import annotations

import json

from rallyforge.engine.analysis.balance.aggregate import OptionUse
from rallyforge.engine.analysis.balance.report import markdown
from rallyforge.engine.analysis.balance.summary import RaceSummary
from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import load_file
from tests.test_balance import ROOT

STANDARD = ROOT / "scenarios" / "standard-course.json"


def run(tmp_path, *args) -> dict:
    """Eight races rotated over every dock: the far docks' robots reach the
    upgrade square in them (docks 1-4 do not, in so few races)."""
    out = tmp_path / "result.json"
    assert main(["balance", str(STANDARD), "--races", "8", "--robots", "4", "--workers", "1",
                 "--docks", "rotate", "--quiet", "--json", str(out), *args]) == 0
    return json.loads(out.read_text())


def test_options_switch_and_the_reported_mode(tmp_path):
    counted = run(tmp_path)["options"]
    assert counted == {"mode": "counted"}                 # the course's own rule
    played = run(tmp_path, "--options", "played")["options"]
    assert played["mode"] == "played"
    assert [(u["x"], u["y"]) for u in played["upgrades"]] == [(5, 1)]
    assert played["holders"]["robots"] + played["non_holders"]["robots"] == 8 * 4
    assert played["upgrades"][0]["gains"] >= played["holders"]["robots"] > 0


def summary(winners, held, upgrades=(), used=()) -> RaceSummary:
    return RaceSummary(seed=0, docks=(1, 2), winners=winners, rounds=5, finish_round=(None, None),
                       flag_rounds=((), ()), deaths=(), occupancy=b"", upgrades=upgrades,
                       held_option=held, options_used=used)


def test_win_rates_of_holders_and_others_and_cards_used():
    scenario = load_file(STANDARD)
    from dataclasses import replace
    scenario = replace(scenario, rules=replace(scenario.rules, options="played"))
    races = [summary((0,), (True, False), ((5, 1),), (("brakes", 2),)),
             summary((1,), (True, False), (), (("brakes", 1), ("recompile", 1))),
             summary((0,), (True, True), ((5, 1), (5, 1)))]
    use = OptionUse(scenario)
    use.add(races)
    result = use.result()
    assert result["holders"]["robots"] == 4 and result["holders"]["wins"] == 2
    assert result["non_holders"]["robots"] == 2 and result["non_holders"]["wins"] == 1
    assert result["upgrades"] == [{"x": 5, "y": 1, "gains": 3, "per_race": 1.0}]
    assert result["used"] == [["brakes", 3], ["recompile", 1]]
    lo, hi = result["holders"]["ci"]
    assert lo < 0.5 < hi


def test_the_report_has_a_section_on_options(tmp_path):
    result = run(tmp_path, "--options", "played")
    text = markdown(result, charts=False)
    assert "## Options" in text and "held at least one option won" in text
    assert "not what a card is worth on its own" in text        # holders are not a random group
    assert "| (5, 1) |" in text
    counted = markdown(run(tmp_path), charts=False)
    assert "only counted" in counted


def test_card_takes_a_what_if_options_mode(capsys):
    import pytest
    assert main(["card", str(STANDARD), "--races", "8", "--workers", "1",
                 "--options", "played"]) == 0
    assert "(a what-if card: option cards played)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["card", str(STANDARD), "--options", "played", "--store"])
    assert stop.value.code == 2


def test_compare_takes_the_what_if_options_mode_for_both_courses(tmp_path):
    out = tmp_path / "compare.json"
    for args, mode in (((), "counted"), (("--options", "played"), "played")):
        assert main(["compare", str(STANDARD), str(STANDARD), "--races", "8", "--robots", "4",
                     "--workers", "1", "--quiet", "--json", str(out), *args]) == 0
        result = json.loads(out.read_text())
        assert result["old"]["options"]["mode"] == result["new"]["options"]["mode"] == mode
