"""The agreement numbers of the calibration (bench/agreement.py), on small
made-up data whose answers are known."""
from __future__ import annotations

import pytest

from bench.agreement import balanced_accuracy, best_cuts, exact, off_by_two, ranks, spearman

ORDER = ("easy", "medium", "hard", "expert")


def test_exact_and_two_off_count_what_they_say():
    printed = ["short", "medium", "long", "long"]
    called = ["short", "long", "short", "long"]
    assert exact(printed, called) == 2
    assert off_by_two(printed, called, ("short", "medium", "long")) == 1   # long called short


def test_a_constant_guess_gets_one_over_the_classes_whatever_the_majority():
    printed = ["expert"] * 19 + ["easy"] * 3 + ["medium"] * 4 + ["hard"] * 3
    guess = ["expert"] * len(printed)
    assert exact(printed, guess) == 19                       # plain accuracy: 0.66
    assert balanced_accuracy(printed, guess, ORDER) == pytest.approx(0.25)


def test_balanced_accuracy_is_the_mean_of_the_classes_shares():
    printed = ["easy", "easy", "medium", "hard", "hard", "hard", "expert", "expert"]
    called = ["easy", "medium", "medium", "hard", "expert", "expert", "expert", "hard"]
    # easy 1/2, medium 1/1, hard 1/3, expert 1/2
    assert balanced_accuracy(printed, called, ORDER) == pytest.approx((0.5 + 1 + 1 / 3 + 0.5) / 4)


def test_a_class_nobody_printed_is_left_out_of_the_mean():
    assert balanced_accuracy(["easy", "hard"], ["easy", "easy"], ORDER) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        balanced_accuracy([], [], ORDER)


def test_ties_share_the_mean_of_their_ranks():
    assert ranks([10.0, 30.0, 20.0, 30.0]) == [1.0, 3.5, 2.0, 3.5]


def test_spearman_of_known_orders():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # a measure against printed classes with ties: ranks x 1..5, y 1.5 1.5 3 4.5 4.5
    assert spearman([0.1, 0.2, 0.3, 0.4, 0.5], [1, 1, 2, 3, 3]) == pytest.approx(
        0.9486832980505138)
    assert spearman([1, 2, 3], [2, 2, 2]) == 0.0


def test_the_best_cuts_keep_the_classes_in_order_and_ties_together():
    # in order short, medium, short, long: one of the two shorts must be missed
    assert best_cuts([1.0, 2.0, 3.0, 4.0], [0, 1, 0, 2], 3) == 3
    # the same classes in score order are all right
    assert best_cuts([1.0, 3.0, 2.0, 4.0], [0, 1, 0, 2], 3) == 4
    # two courses of one score printed in two classes: only one can be right
    assert best_cuts([5.0, 5.0, 6.0], [0, 1, 1], 2) == 2
    # a class may be left empty
    assert best_cuts([1.0, 2.0], [0, 2], 3) == 2
