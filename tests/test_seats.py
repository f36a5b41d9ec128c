"""Seats as the game seats players, and a verdict that names the right one.

The game seats k players on docks 1..k; a balance run races them there
(engine/analysis/balance/plan.py), and its fairness verdict names the seat
furthest from a fair share only when that seat's interval leaves the fair
share out (engine/analysis/balance/aggregate.py ``fairness``). The plant:
the tutorial course with dock 2 one square nearer the flag than its mirror,
dock 1 (tests/fixtures/planted-seat-tutorial.json)."""
from __future__ import annotations

from pathlib import Path

from rallyforge.engine.analysis.balance import balance
from rallyforge.engine.analysis.card.build import lines
from rallyforge.engine.format.loader import load_file

ROOT = Path(__file__).resolve().parent.parent
PLANTED = ROOT / "tests" / "fixtures" / "planted-seat-tutorial.json"
TUTORIAL = ROOT / "scenarios" / "tutorial.json"


def test_the_card_names_the_planted_seat_on_1000_races_and_not_on_50():
    planted = load_file(PLANTED)
    many = balance(planted, 1000, 4, "search", workers=1)
    fair = many["card"]["fairness"]
    assert (fair["verdict"], fair["favoured_dock"], fair["dock"]) == ("unfair", 2, 2)
    assert fair["share_ci"][0] > fair["fair_share"] == 0.25
    assert lines(many["card"])[3].startswith("Fairness: unfair, seat 2 wins ")
    few = balance(planted, 50, 4, "search", workers=1)
    assert few["card"]["fairness"]["favoured_dock"] is None
    assert "seat 2 wins" not in lines(few["card"])[3]
    again = balance(planted, 50, 4, "search", workers=2)     # the same seed, the same races
    assert again["docks"] == few["docks"] and again["fairness"] == few["fairness"]


def test_the_rotation_is_a_labelled_what_if():
    course = load_file(TUTORIAL)
    game = balance(course, 8, 2, "search", workers=1, trials=0)
    rotated = balance(course, 8, 2, "search", seating="rotate", workers=1, trials=0)
    assert [d["dock"] for d in game["docks"]] == [1, 2]
    assert [d["races"] for d in rotated["docks"]] == [4, 4, 4, 4]
    assert "as the game seats 2 players" in lines(game["card"])[0]
    assert "a what-if: any dock, any company" in lines(rotated["card"])[0]
