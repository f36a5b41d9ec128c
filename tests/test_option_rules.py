"""Each option card's rule case (tests/rules/o2-*, o6-*, o7-*) tells the card
from its absence: with the card named in the file name taken from the
robot that holds it, some check fails."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rallyforge.engine.analysis.scenario_checks import run_checks
from rallyforge.engine.bots import new_race
from rallyforge.engine.cli.main import main
from rallyforge.engine.format.loader import load_dict, read_json
from rallyforge.engine.model.option_cards import OPTION_IDS

RULES = Path(__file__).parent / "rules"
CASES = sorted(RULES.glob("o[267]-*.json"))


# interaction cases whose names do not start with the card they take away
_INTERACTIONS = {"o6-high-power-double-barreled": "double-barreled-laser",
                 "o6-two-weapon-pushes": "pressor-beam"}


def card_of(path: Path) -> str:
    """The option card a case is about: the longest id its name starts with."""
    if path.stem in _INTERACTIONS:
        return _INTERACTIONS[path.stem]
    name = path.stem.split("-", 1)[1]
    return max((c for c in OPTION_IDS if name.startswith(c)), key=len)


def test_every_card_has_a_rule_case():
    assert {card_of(p) for p in CASES if p.name.startswith("o2-")} == set(OPTION_IDS)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_the_case_fails_without_its_card(path):
    data, _ = read_json(path)
    card = card_of(path)
    without = copy.deepcopy(data)
    holders = [r for r in without["robots"] if card in r.get("options", [])]
    assert holders, f"no robot holds {card}"
    for robot in holders:
        robot["options"].remove(card)
    without.setdefault("rules", {})["options"] = "played"
    assert all(r.passed for r in run_checks(load_dict(data)))
    assert not all(r.passed for r in run_checks(load_dict(without)))


def test_run_json_gives_the_cards_each_robot_holds(tmp_path, capsys):
    assert main(["run", str(RULES / "o2-superior-archive-copy.json"), "--json", "--rounds", "1"]) == 0
    robot = json.loads(capsys.readouterr().out)["robots"][0]
    assert (robot["options"], robot["option_cards"]) == (1, ["superior-archive-copy"])
    data, _ = read_json(RULES / "o1-start-options.json")
    data.pop("robots"), data.pop("checks")
    path = tmp_path / "dealt.json"
    path.write_text(json.dumps(data))
    assert main(["run", str(path), "--json", "--rounds", "1", "--robots", "2", "--bot", "random"]) == 0
    robots = json.loads(capsys.readouterr().out)["robots"]
    held = [card for r in robots for card in r["option_cards"]]
    assert [len(r["option_cards"]) for r in robots] == [r["options"] for r in robots]
    assert held and len(set(held)) == len(held) and set(held) <= set(OPTION_IDS)


def test_the_option_deck_is_seeded_by_the_race_and_leaves_the_program_deck_alone():
    data, _ = read_json(RULES / "o1-start-options.json")
    data.pop("robots"), data.pop("checks")
    played = load_dict(data)
    counted = load_dict({**data, "rules": {**data["rules"], "options": "counted"}})

    def race(scenario, seed):
        r = new_race(scenario, seed=seed, robot_count=2, bot="random")
        r.play_round()
        return ([(e.robot, e.card) for e in r.events if e.kind == "option_gained"],
                [e.cards for e in r.events if e.kind == "program"])

    deals = {seed: race(played, seed) for seed in range(6)}
    assert race(played, 3) == deals[3]                          # the seed replays the deal
    assert len({dealt[0] for dealt, _ in deals.values()}) > 1   # seeds deal differently
    assert [robot for robot, _ in deals[3][0]] == ["Robot 1"] * 2 + ["Robot 2"] * 2
    assert race(counted, 3)[1] == deals[3][1]           # the same program cards either way


@pytest.mark.parametrize("expected, words", [
    (["brakes"], "expected option_cards=[brakes], got option_cards=[]"),
    (["ablative-coat", "brakes", "recompile"],
     "expected option_cards=[ablative-coat, brakes, recompile], got option_cards=[]"),
    ([], "option_cards=[] as expected")])
def test_an_option_cards_check_is_told_in_words(tmp_path, capsys, expected, words):
    data, _ = read_json(RULES / "o2-superior-archive-copy.json")
    data["checks"] = [{"round": 1, "register": 1, "robot": "A", "option_cards": expected}]
    data["robots"][0]["options"] = []
    data["rules"]["options"] = "played"
    assert words in run_checks(load_dict(data))[0].describe()
    path = tmp_path / "case.json"
    path.write_text(json.dumps(data))
    assert main(["test", str(path)]) == (1 if expected else 0)       # no traceback
    assert (words.split(", got")[0] in capsys.readouterr().out) is bool(expected)


def test_the_arm_is_used_only_when_it_changes_something():
    """Next to a flag that repairs, with no damage, the arm repairs nothing:
    one use (touching the flag), not one per clean-up."""
    race = new_race(load_dict(read_json(RULES / "o6-mechanical-arm-walls.json")[0]), seed=0)
    race.run()
    uses = [(e.round, e.cause) for e in race.events
            if e.kind == "option_used" and e.card == "mechanical-arm"]
    assert race.round > 10 and uses == [(2, "flag")]


def test_a_script_with_every_form_of_the_option_syntax_runs(capsys):
    """tests/fixtures/options-every-syntax.json: every register form, weapon
    and round choice of docs/format.md, "Option cards in a script", is valid
    and makes its use in a race."""
    from rallyforge.engine.validation.validator import validate_data
    path = Path(__file__).parent / "fixtures" / "options-every-syntax.json"
    data, _ = read_json(path)
    assert validate_data(data) == []
    assert main(["run", str(path), "--rounds", "3"]) == 0
    race = new_race(load_dict(data))
    for _ in range(3):
        race.play_round()
    used = {e.card for e in race.events if e.kind == "option_used"}
    scripted = {card for robot in data["robots"][:2] for card in robot["options"]}
    assert len(scripted) == 16 and scripted <= used
    assert not [e for e in race.events if e.kind == "option_use_ignored"]
