"""The fit of the card's classes to the publisher's printed classes
(bench/calibrate.py) and the card's constants it gave."""
from __future__ import annotations

from pathlib import Path

import pytest

from bench import calibrate
from bench.calibrate import Course, courses, fit, fitted_edges, least_squares, read_measures
from rallyforge.engine.analysis.balance import course_card
from rallyforge.engine.analysis.card import build, timemodel
from rallyforge.engine.bots import DEFAULT_BOT


def test_least_squares_finds_the_line_and_the_plane():
    assert least_squares([[0.0], [1.0], [2.0]], [1.0, 3.0, 5.0]) == pytest.approx([1.0, 2.0])
    rows = [[0.0, 1.0], [1.0, 0.0], [2.0, 5.0], [3.0, 1.0]]
    ys = [4 - x + 0.5 * z for x, z in rows]
    assert least_squares(rows, ys) == pytest.approx([4.0, -1.0, 0.5])


def test_leave_one_out_predicts_each_from_the_others():
    # in-sample the flat line says 2 for all; each left out, the other three
    # tilt the line their way (the last: 1, 2, 3 on a line says 4, clipped to 3)
    coef, inside, loo = fit([[0.0], [1.0], [2.0], [3.0]], [1, 2, 3, 1], 1, 3)
    assert coef == pytest.approx([1.6, 0.1])
    assert inside == [2, 2, 2, 2]
    assert loo == [3, 2, 1, 3]


def test_the_readme_table_is_read(tmp_path):
    (tmp_path / "README.md").write_text(
        "| file | printed length | printed difficulty (ordinal) | players |\n"
        "|---|---|---|---|\n"
        "| a.json | short | beginner, easy (1) | 6 |\n"
        "| b.json | long | expert, the hardest group (5) | 4 |\n")
    assert courses(tmp_path) == [Course("a.json", "short", 1, 6), Course("b.json", "long", 5, 4)]


def test_the_cards_classes_are_the_fit_on_the_kept_measures():
    cs, measures = read_measures(calibrate.MEASURES)
    assert len(cs) == 7
    assert {m["bot"] for m in measures} == {build.CALIBRATED_BOT} == {DEFAULT_BOT}
    (short, long_), deaths = fitted_edges(cs, measures)
    assert (timemodel.SHORT_UNDER, timemodel.LONG_OVER) == (round(short), round(long_))
    assert course_card.DEATHS_UNDER == tuple(round(d, 2) for d in deaths)
    assert calibrate.CARD_DIFFICULTY == course_card.DIFFICULTY
    assert calibrate.LENGTHS == timemodel.CLASSES
    # the card's classes on the measures: as docs/rules.md reports them
    lengths = [timemodel.length_class(m["minutes"]) for m in measures]
    assert sum(p == c.length for p, c in zip(lengths, cs)) == 6
    difficulty = [course_card.DIFFICULTY[course_card._band(m["deaths"], course_card.DEATHS_UNDER)]
                  for m in measures]
    printed = [calibrate.DIFFICULTY_OF_LEVEL[c.level] for c in cs]
    assert sum(p == q for p, q in zip(difficulty, printed)) == 4
    assert all(abs(course_card.DIFFICULTY.index(p) - course_card.DIFFICULTY.index(q)) <= 1
               for p, q in zip(difficulty, printed))


def test_the_calibration_set_is_the_29_rated_published_courses():
    cs = calibrate.published()
    assert len(cs) == 29
    by_name = {Path(c.file).stem: c for c in cs}
    assert by_name["death-trap"] == Course(by_name["death-trap"].file, "short", 3, 4)
    assert by_name["checkmate"].players == 6 and by_name["checkmate"].level == 1
    assert sum(c.level == 4 for c in cs) == 19 and sum(c.length == "medium" for c in cs) == 15
    assert "interference" in by_name             # rated, and raced by its players' robots
    scenario, why = calibrate.readable(Path(by_name["interference"].file))
    assert why is None and scenario.rules.victory == "player"
    scenario, why = calibrate.readable(Path(by_name["island-hop"].file))
    assert why is None and scenario.name == "Island Hop"


def test_the_agreement_lines_judge_as_a_constant_guess_cannot_pass():
    cs = [Course("a", "short", 1, 4), Course("b", "medium", 4, 4), Course("c", "long", 4, 4),
          Course("d", "medium", 3, 4)]
    measures = [{"minutes": 30, "deaths": 0.1}, {"minutes": 60, "deaths": 0.5},
                {"minutes": 130, "deaths": 0.4}, {"minutes": 70, "deaths": 0.3}]
    lines = calibrate.judged("test", cs, measures, ["short", "medium", "short", "medium"],
                             ["expert", "expert", "expert", "expert"])
    assert lines[0] == "Agreement, test, 4 courses:"
    assert "3/4 exact, 1 two off" in lines[1]
    assert "Spearman of minutes with the printed length 0.95" in lines[1]
    # a constant "expert": 2 of 4 exact, but balanced accuracy 1/3 over easy, hard, expert
    assert "2/4 exact, balanced accuracy 0.33 (a constant guess: 0.33), 1 two off" in lines[2]
    assert "printed difficulty 0.95" in lines[2]
