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
from rallyforge.engine.analysis.course_card.build import lines
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


def test_compare_gives_seats_by_number_and_by_square(tmp_path, capsys):
    """Docks 2 and 3 renumbered: seats 2 and 3 change squares (one worse,
    one better, as players see them), while each square, whatever its
    number now, wins as it did."""
    from rallyforge.engine.analysis.suggest.edits import Edit, apply_all
    from rallyforge.engine.cli.main import main
    from rallyforge.engine.format.loader import save_file
    swapped = tmp_path / "swapped.json"
    save_file(apply_all(load_file(PLANTED), (Edit("swap_docks", (2, 3)),)), str(swapped))
    out = tmp_path / "compare.json"
    assert main(["compare", str(PLANTED), str(swapped), "--races", "400", "--workers", "1",
                 "--quiet", "--json", str(out)]) == 0
    import json
    result = json.loads(out.read_text())
    seat2, seat3 = result["docks"][1], result["docks"][2]
    assert (seat2["old_square"], seat2["new_square"]) == ([7, 10], [1, 10])
    assert seat2["ci"][1] < 0 < seat3["ci"][0]          # by number: worse and better
    by_square = {(q["x"], q["y"]): q for q in result["squares"]}
    ahead = by_square[(7, 10)]                          # the planted square, now dock 3
    assert (ahead["old_dock"], ahead["new_dock"]) == (2, 3)
    for q in result["squares"]:
        assert q["ci"][0] <= 0 <= q["ci"][1]            # by square: no clear change
    printed = capsys.readouterr().out
    assert "as the game seats 4 players" in printed
    assert "- Seat 2 at (7, 10) -> (1, 10): " in printed and "(it starts on another square)" in printed
    assert "- (7, 10), dock 2 -> 3: " in printed


def test_a_run_of_several_player_counts_has_a_verdict_for_each_and_one_pooled():
    course = load_file(PLANTED)
    result = balance(course, 60, (2, 3, 4), "search", workers=1, trials=0)
    card = result["card"]
    assert card["players"] == [2, 3, 4] and card["robots"] == 4
    assert [v["robots"] for v in card["fairness"]["by_players"]] == [2, 3, 4]
    assert [v["fair_share"] for v in card["fairness"]["by_players"]] == [0.5, 0.333, 0.25]
    text = lines(card)
    assert "60 races of 2 to 4 `search` robots on docks 1-k for k players" in text[0]
    assert [line.split(":")[0] for line in text if line.startswith("Fairness")] == [
        "Fairness", "Fairness of 2 players", "Fairness of 3 players", "Fairness of 4 players"]
