"""The fit of the card's classes to the publisher's printed classes
(bench/calibrate.py) and the card's constants it gave."""
from __future__ import annotations

import pytest

from bench import calibrate
from bench.calibrate import Course, courses, fit, fitted_edges, least_squares, read_measures
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
    assert build.DEATHS_UNDER == tuple(round(d, 2) for d in deaths)
    assert calibrate.CARD_DIFFICULTY == build.DIFFICULTY and calibrate.LENGTHS == timemodel.CLASSES
    # the card's classes on the measures: as docs/rules.md reports them
    lengths = [timemodel.length_class(m["minutes"]) for m in measures]
    assert sum(p == c.length for p, c in zip(lengths, cs)) == 6
    difficulty = [build.DIFFICULTY[build._band(m["deaths"], build.DEATHS_UNDER)] for m in measures]
    printed = [calibrate.DIFFICULTY_OF_LEVEL[c.level] for c in cs]
    assert sum(p == q for p, q in zip(difficulty, printed)) == 4
    assert all(abs(build.DIFFICULTY.index(p) - build.DIFFICULTY.index(q)) <= 1
               for p, q in zip(difficulty, printed))


def test_the_benches_name_no_folder_outside_the_project(capsys, tmp_path):
    """`make bench` without the calibration courses says how to give them,
    never a path beside the repository."""
    from pathlib import Path

    from bench import bench_calibration
    outside = str(Path(calibrate.__file__).resolve().parents[2])     # the folder holding it
    bench_calibration.main([])
    calibrate.main([])
    out = capsys.readouterr().out
    assert out.count("skipped: the calibration courses are not part of the project; "
                     "name their folder with --dir DIR") == 2
    assert outside not in out and ".." not in out
    bench_calibration.main(["--dir", str(tmp_path)])
    assert capsys.readouterr().out == (f"bench_calibration: {tmp_path} holds no calibration "
                                       "courses (no README.md); skipped\n")
