"""The fit of the card's classes to the publisher's printed classes
(bench/calibrate.py) and the card's constants it gave."""
from __future__ import annotations

from pathlib import Path

import pytest

import numpy as np

from bench import calibrate
from bench.calibrate import Course, courses, read_measures
from bench.ordinal import Ordinal, fit, left_out
from rallyforge.engine.analysis.balance import course_card
from rallyforge.engine.analysis.course_card import build, calibration, timemodel
from rallyforge.engine.bots import DEFAULT_BOT
from rallyforge.engine.editing.published_courses import RULE_WORDS
from rallyforge.engine.model.scenario import COURSE_RULES


def test_the_ordinal_fit_finds_the_classes_bands_and_their_order():
    # three classes along one measure, one course of the middle class among them
    x = [[0.0], [1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]
    y = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    model = fit(x, y, 3)
    assert model.classes(x).tolist() == y
    assert model.weights[0] > 0 and model.edges[0] < model.edges[1]
    assert 2.0 < model.edges[0] / model.weights[0] < 3.0 < 5.0 < model.edges[1] / model.weights[0] < 6.0
    # turned around, the weight turns negative: the order comes from the data
    assert fit([[-v] for (v,) in x], y, 3).classes([[-v] for (v,) in x]).tolist() == y


def test_every_class_weighs_alike_so_a_large_class_cannot_win_alone():
    # three of class 0 at the low end, twelve of class 1 over the whole
    # measure, two of them among the three: counting courses alike, the fit
    # gives the large class the low end's top too; weighted, the low end is 0
    x = [[0.0], [1.0], [2.0]] + [[v] for v in (0.5, 1.5, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
    y = [0, 0, 0] + [1] * 12
    assert fit(x, y, 2).classes([[0.0], [1.0], [2.0], [5.0]]).tolist() == [0, 0, 0, 1]


def test_leave_one_out_predicts_each_from_the_others():
    # a lone course of class 1 among class 0: left out, nothing says it is 1
    x = [[0.0], [1.0], [2.0], [3.0], [10.0], [11.0], [12.0]]
    y = [0, 0, 0, 1, 2, 2, 2]
    assert fit(x, y, 3).classes(x).tolist() == y
    assert left_out(x, y, 3)[3] != 1


def test_scores_and_classes_of_a_kept_model():
    model = Ordinal((2.0, -1.0), (0.0, 3.0))
    assert model.scores([[1.0, 1.0], [3.0, 0.0]]).tolist() == [1.0, 6.0]
    assert model.classes([[0.0, 1.0], [1.0, 1.0], [3.0, 0.0]]).tolist() == [0, 1, 2]


def test_the_readme_table_is_read(tmp_path):
    (tmp_path / "README.md").write_text(
        "| file | printed length | printed difficulty (ordinal) | players |\n"
        "|---|---|---|---|\n"
        "| a.json | short | beginner, easy (1) | 6 |\n"
        "| b.json | long | expert, the hardest group (5) | 4 |\n")
    assert courses(tmp_path) == [Course("a.json", "short", 1, 6), Course("b.json", "long", 5, 4)]


@pytest.fixture(scope="module")
def kept():
    """The kept courses and measures, and the fits of each step (the last
    step's are the card's): fitted once, as leave-one-out fits 29 times."""
    cs, measures = read_measures(calibrate.MEASURES)
    return cs, measures, (
        [calibrate.length_fit(cs, measures, used) for _, used in calibrate.LENGTH_STEPS],
        [calibrate.difficulty_fit(cs, measures, used) for _, used in calibrate.DIFFICULTY_STEPS])


def test_the_cards_classes_are_the_fit_on_the_kept_measures(kept):
    cs, measures, (length_steps, difficulty_steps) = kept
    length, difficulty = length_steps[-1], difficulty_steps[-1]
    assert len(cs) == 29
    assert {m["bot"] for m in measures} == {build.CALIBRATED_BOT} == {DEFAULT_BOT}
    assert calibration.LENGTH_WEIGHTS == pytest.approx(length.model.weights, abs=1e-4)
    assert calibration.LENGTH_EDGES == pytest.approx(length.model.edges, abs=1e-4)
    assert calibration.DIFFICULTY_WEIGHTS == pytest.approx(difficulty.model.weights, abs=1e-4)
    assert calibration.DIFFICULTY_EDGES == pytest.approx(difficulty.model.edges, abs=1e-4)
    assert calibrate.CARD_DIFFICULTY == course_card.DIFFICULTY and calibrate.LENGTHS == timemodel.CLASSES
    # the card's classes on the kept measures, and left out: as docs/rules.md reports them
    printed_l = [c.length for c in cs]
    printed_d = [calibrate.DIFFICULTY_OF_LEVEL[c.level] for c in cs]
    card_l, card_d = calibrate.card_classes(cs, measures)
    assert [calibrate.LENGTHS[v] for v in length.inside] == card_l
    assert [calibrate.CARD_DIFFICULTY[v] for v in difficulty.inside] == card_d
    loo_l = [calibrate.LENGTHS[v] for v in length.left_out]
    loo_d = [calibrate.CARD_DIFFICULTY[v] for v in difficulty.left_out]
    assert calibrate.exact(printed_l, loo_l) == 18
    assert calibrate.off_by_two(printed_l, loo_l, calibrate.LENGTHS) == 0
    assert calibrate.exact(printed_d, loo_d) == 20
    assert round(calibrate.balanced_accuracy(printed_d, loo_d, calibrate.CARD_DIFFICULTY), 2) == 0.57


def test_each_kept_measure_improves_the_courses_left_out(kept):
    cs, _, (length_steps, difficulty_steps) = kept

    def agreement(fitted, printed, order):
        p, q = [order[v] for v in printed], [order[v] for v in fitted.left_out]
        return calibrate.balanced_accuracy(p, q, order), calibrate.exact(p, q)

    printed_l = [calibrate.LENGTHS.index(c.length) for c in cs]
    steps = [agreement(f, printed_l, calibrate.LENGTHS) for f in length_steps]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    printed_d = [calibrate.printed_difficulty(c) for c in cs]
    steps = [agreement(f, printed_d, calibrate.CARD_DIFFICULTY) for f in difficulty_steps]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)


def test_the_kept_static_measures_are_the_courses_own():
    cs, measures = read_measures(calibrate.MEASURES)
    from rallyforge.engine.analysis.course_card.flags import flag_path
    from rallyforge.engine.model.scenario import course_rules
    for c, m in zip(cs, measures):
        scenario, why = calibrate.readable(calibrate.ROOT / c.file)
        assert why is None, c.file
        assert m["flag_path"] == flag_path(scenario, c.players)
        assert m["special_rules"] == len(course_rules(scenario.rules))


def test_the_published_list_words_every_course_rule():
    assert set(RULE_WORDS) == set(COURSE_RULES)


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
    # the flag paths in the minutes' order, no special rules, one flag score:
    # the scores rank as the minutes and the deaths
    measures = [{"minutes": m, "flag_path": m / 2, "deaths": d, "special_rules": 0,
                 "flag_score": 4.0}
                for m, d in ((30, 0.1), (60, 0.5), (130, 0.4), (70, 0.3))]
    lines = calibrate.judged("test", cs, measures, ["short", "medium", "short", "medium"],
                             ["expert", "expert", "expert", "expert"])
    assert lines[0] == "Agreement, test, 4 courses:"
    assert "3/4 exact, 1 two off" in lines[1]
    assert "Spearman of the card's length score with the printed length 0.95" in lines[1]
    # a constant "expert": 2 of 4 exact, but balanced accuracy 1/3 over easy, hard, expert
    assert "2/4 exact, balanced accuracy 0.33 (a constant guess: 0.33), 1 two off" in lines[2]
    assert "printed difficulty 0.95" in lines[2]


def test_the_ceiling_weighs_two_measures_together():
    # the class is whether x + y is above 0: neither measure alone orders it
    rows = [[0, -1], [1, -3], [-1, 0], [1, 1], [-1, 3], [3, -1]]
    printed = [0, 0, 0, 1, 1, 1]
    assert calibrate.ceiling(rows, printed, 2) == 6
    assert calibrate.ceiling([[x] for x, _ in rows], printed, 2) < 6
    assert calibrate.ceiling([[y] for _, y in rows], printed, 2) < 6
    # a measure that falls as the class rises: its weight may be negative
    assert calibrate.ceiling([[-x - y] for x, y in rows], printed, 2) == 6


def test_no_fit_of_the_length_measures_passes_their_ceiling(kept):
    """The ceiling docs/rules.md reports: at most 22 of 29 for the card's two
    length measures (19 for ln minutes alone), above what the fit gets."""
    cs, measures, (length_steps, _) = kept
    printed = [calibrate.LENGTHS.index(c.length) for c in cs]
    tops = [calibrate.ceiling([calibrate.length_measures(m)[:used] for m in measures], printed, 3)
            for _, used in calibrate.LENGTH_STEPS]
    assert tops == [19, 22]
    for fitted, top in zip(length_steps, tops):
        assert sum(a == b for a, b in zip(fitted.inside, printed)) <= top
