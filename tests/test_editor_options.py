"""Option cards in the editor: the log's words for option events, the race
panel's cards with their spent charges, the scenario panel's starting cards,
and new courses that play options."""
from __future__ import annotations

from pathlib import Path

import pytest

from rallyforge.engine.bots import new_race
from rallyforge.engine.format.loader import dumps, load_file, parse_json
from rallyforge.engine.model.events import Event
from rallyforge.editor.new_dialog import new_scenario
from rallyforge.editor.preview.race_tables import options_html
from rallyforge.engine.analysis.narration import describe, last_option_uses
from rallyforge.engine.analysis.replay import option_charges
from rallyforge.editor.scenario_panel import options_text, parse_options

RULES = Path(__file__).parent / "rules"


def ev(kind: str, **fields) -> Event:
    return Event(1, 2, "lasers", kind, "Robot 2", **fields)


def test_option_events_in_words():
    assert describe(ev("option_used", card="pressor-beam", target="Robot 4", cause="pushed",
                       dst=(5, 8))) == "Robot 2 fires the Pressor Beam: Robot 4 pushed to (5,8)"
    assert describe(ev("option_used", card="tractor-beam", target="Robot 4",
                       cause="blocked")) == "Robot 2 fires the Tractor Beam: Robot 4 does not move"
    assert describe(ev("option_gained", card="brakes", cause="upgrade")) == \
        "Robot 2 gains the Brakes on an upgrade square"
    assert describe(ev("option_lost", card="recompile", cause="destroyed")) == \
        "Robot 2 discards the Recompile (destroyed)"
    assert describe(ev("option_use_ignored", card="scrambler", cause="register 5")) == \
        "Robot 2 cannot use the Scrambler: register 5"
    assert describe(ev("damage_prevented", card="ablative-coat", amount=1)) == \
        "The Ablative Coat takes 1 damage for Robot 2"
    assert describe(ev("damage_prevented", card="brakes", amount=1)) == \
        "Robot 2 gives up the Brakes instead of 1 damage"
    assert describe(ev("register_locked", card="fire-control", amount=3)) == \
        "Robot 2's register 3 is locked by Fire Control"


def test_the_printed_cards_events_in_words():
    fire = dict(card="fire-control", target="Robot 4")
    assert describe(ev("option_used", cause="lock", **fire)) == \
        "Robot 2 fires the Fire Control at Robot 4 to lock its lowest unlocked register"
    assert describe(ev("option_used", cause="lock register 3", **fire)) == \
        "Robot 2 fires the Fire Control at Robot 4 to lock its register 3"
    assert describe(ev("option_used", cause="option", **fire)) == \
        "Robot 2 fires the Fire Control at Robot 4 to destroy its most recent option"
    assert describe(ev("option_used", cause="option brakes", **fire)) == \
        "Robot 2 fires the Fire Control at Robot 4 to destroy its Brakes"
    assert describe(ev("option_lost", card="brakes", cause="fire control")) == \
        "Robot 2's Brakes is destroyed by Fire Control"
    assert describe(ev("option_use_ignored", card="fire-control",
                       cause="register 3 already locked")) == \
        "Robot 2 cannot use the Fire Control: register 3 already locked"
    assert describe(ev("option_used", card="dual-processor", cause="moves 0, then turns left")) \
        == "Robot 2 uses the Dual Processor (moves 0, then turns left)"
    assert describe(ev("option_used", card="flywheel", cause="takes back move3:800")) == \
        "Robot 2 uses the Flywheel (takes back move3:800)"
    assert describe(ev("option_used", card="superior-archive-copy",
                       cause="re-enters with 0 damage")) == \
        "Robot 2 uses the Superior Archive Copy (re-enters with 0 damage)"


def test_a_cards_tooltip_tells_what_it_last_did():
    race = new_race(load_file(RULES / "o7-superior-archive-copy-not-forced.json"))
    race.play_round()
    race.play_round()
    events = list(race.events)
    last = last_option_uses(events, len(events))
    assert last == {"A": {"superior-archive-copy":
                          "2·clean: A uses the Superior Archive Copy (re-enters with 0 damage)"}}
    _, tip = options_html(("superior-archive-copy",), {}, 1, last["A"])
    assert tip == ("Superior Archive Copy: A robot destroyed while holding it re-enters with 0 "
                   "damage.\n    Last: 2·clean: A uses the Superior Archive Copy (re-enters "
                   "with 0 damage)")


def test_a_used_up_coat_is_told_after_its_last_point():
    race = new_race(load_file(RULES / "o2-ablative-coat.json"), seed=1)
    race.play_round()
    events = list(race.events)
    told = [describe(e) for e in events if e.card == "ablative-coat"]
    assert told == ["A gains the Ablative Coat at the start"] + \
        ["The Ablative Coat takes 1 damage for A"] * 3 + ["A discards the Ablative Coat (used up)"]
    assert option_charges(events, len(events)).get("A") == {}      # nothing spent on a card gone


def test_spent_charges_and_the_cards_column():
    events = [ev("option_gained", card="mini-howitzer"), ev("option_used", card="mini-howitzer"),
              ev("option_used", card="mini-howitzer"), ev("damage_prevented", card="ablative-coat")]
    spent = option_charges(events, len(events))
    assert spent == {"Robot 2": {"mini-howitzer": 2, "ablative-coat": 1}}
    assert option_charges(events + [ev("option_lost", card="mini-howitzer")], 5) == \
        {"Robot 2": {"ablative-coat": 1}}
    text, tip = options_html(("mini-howitzer", "brakes"), spent["Robot 2"], 2)
    assert text.startswith("Mini&nbsp;Howitzer") and "Brakes" in text     # lines break between cards
    assert text.count("●") == 5 and "#bbb'>●●<" in text        # two of five shots spent
    assert "Brakes: Each time the robot plays Move 1" in tip
    assert options_html((), {}, 3) == ("3", "3 options (counted, not played)")
    # shortened for a narrow column: the charges left as a number, the names whole in the tip
    short, tip = options_html(("mini-howitzer", "reverse-gears"), spent["Robot 2"], 2, short=(2, 1))
    assert short == "MH&nbsp;3/5, R.&nbsp;Gears"
    assert tip.startswith("Mini Howitzer: ") and "\nReverse Gears: " in tip


def test_starting_cards_as_the_scenario_panel_edits_them():
    assert parse_options("Crab Legs, fourth-gear, mini howitzer") == (
        "crab-legs", "fourth-gear", "mini-howitzer")
    assert parse_options(" 2 ") == 2 and parse_options("") is None
    for typed, said in (("Crab Legs, jetpack", "'jetpack' is not an option card"),
                        ("Mini Howizter", "did you mean Mini Howitzer?"),
                        ("brakes, Brakes", "Brakes is listed twice"),
                        ("27", "there are 26 option cards")):
        with pytest.raises(ValueError, match=said):
            parse_options(typed)
    assert options_text(("crab-legs", "brakes")) == "Crab Legs, Brakes"
    assert options_text(0) == "0" and options_text(None) == ""


def test_the_model_knows_a_card_by_its_id_or_its_printed_name():
    from rallyforge.engine.model.option_cards import card_id
    for words in ("mini-howitzer", "Mini Howitzer", " mini howitzer ", "MINI-HOWITZER"):
        assert card_id(words) == "mini-howitzer"
    assert card_id("Double-Barreled Laser") == "double-barreled-laser"
    assert card_id("Mini Howizter") is None and card_id("") is None


def test_rule_changes_are_worded_from_the_loaded_schema(monkeypatch):
    """An undo label reads no file: the schema is loaded once, with the engine."""
    import importlib.resources
    from rallyforge.editor.scenario_panel import rule_change_text

    def no_reading(*args, **kwargs):
        raise AssertionError("the schema file was read again for an undo label")
    monkeypatch.setattr(importlib.resources, "files", no_reading)
    assert rule_change_text("robot_lasers", True) == "Turn on robot lasers"
    assert rule_change_text("robot_lasers", False) == "Turn off robot lasers"


def test_new_courses_play_options():
    assert new_scenario(12, 12).rules.options == "played"
    # a course without option features would be counted: the file says played
    assert parse_json(dumps(new_scenario(12, 12)))[0]["rules"] == {"options": "played"}
