"""Option cards in the editor: the log's words for option events, the race
panel's cards with their spent charges, the scenario panel's starting cards,
and new courses that play options."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.events import Event
from engine.loader import dumps, load_file, parse_json
from engine.race import Race
from editor.new_dialog import new_scenario
from editor.preview.race_panel import options_html
from editor.preview.timeline import describe, option_charges
from editor.scenario_panel import options_text, parse_options


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


def test_a_used_up_coat_is_told_after_its_last_point():
    race = Race(load_file(Path(__file__).parent / "rules" / "o2-ablative-coat.json"), seed=1)
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
    assert text.startswith("Mini Howitzer") and "Brakes" in text
    assert text.count("●") == 5 and "#bbb'>●●<" in text        # two of five shots spent
    assert "Brakes: Each time the robot plays Move 1" in tip
    assert options_html((), {}, 3) == ("3", "3 options (counted, not played)")


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


def test_new_courses_play_options():
    assert new_scenario(12, 12).rules.options == "played"
    # a course without option features would be counted: the file says played
    assert parse_json(dumps(new_scenario(12, 12)))[0]["rules"] == {"options": "played"}
