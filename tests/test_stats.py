"""rallyforge.engine.analysis.stats against values worked out by hand or by closed forms."""
import json
import math
from pathlib import Path

import pytest

from rallyforge.engine.analysis import stats


def test_wilson_known_values():
    lo, hi = stats.wilson(40, 100)
    assert lo == pytest.approx(0.3094, abs=5e-5)
    assert hi == pytest.approx(0.4980, abs=5e-5)
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=5e-5)
    lo, hi = stats.wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=5e-5)
    assert stats.wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("x", [0.1, 1.0, 3.84, 7.5, 20.0, 60.0])
def test_chi2_sf_matches_closed_forms(x):
    # df = 1: erfc(sqrt(x/2)); df = 2: exp(-x/2); df = 3: erfc + sqrt(2x/pi) exp(-x/2)
    assert stats.chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=1e-300)
    assert stats.chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)
    df3 = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    assert stats.chi2_sf(x, 3) == pytest.approx(df3, rel=1e-10)


def test_chi2_critical_values():
    assert stats.chi2_isf(0.05, 1) == pytest.approx(3.841459, abs=1e-5)
    assert stats.chi2_isf(0.05, 3) == pytest.approx(7.814728, abs=1e-5)
    assert stats.chi2_isf(0.01, 7) == pytest.approx(18.475307, abs=1e-5)


def test_chi_square_goodness_of_fit_tables():
    # 10, 20, 30, 40 against 25 each: X2 = (225 + 25 + 25 + 225) / 25 = 20 on 3 df
    stat, df, p = stats.chi_square_gof([10, 20, 30, 40], [25, 25, 25, 25])
    assert stat == pytest.approx(20.0) and df == 3
    assert p == pytest.approx(0.000169742, rel=1e-5)
    # a fair die: 60 throws, 8 9 10 11 12 10 -> X2 = 1.0 on 5 df, p = 0.962566
    stat, df, p = stats.chi_square_gof([8, 9, 10, 11, 12, 10], [10] * 6)
    assert stat == pytest.approx(1.0) and df == 5
    assert p == pytest.approx(0.9625657, rel=1e-6)
    assert stats.chi_square_gof([5], [5]) == (0.0, 0, 1.0)


def test_kaplan_meier_with_censoring_by_hand():
    # times 1 2+ 3 4 5+ (+ = censored)
    # t=1: 5 at risk, 1 event -> S = 4/5 = 0.8
    # t=3: 3 at risk (2 censored before), 1 event -> S = 0.8 * 2/3 = 0.5333
    # t=4: 2 at risk, 1 event -> S = 0.5333 * 1/2 = 0.2667; 5 is censored
    curve = stats.kaplan_meier(stats.counted([1, 2, 3, 4, 5], [True, False, True, True, False]))
    assert [t for t, _ in curve] == [1, 3, 4]
    assert [s for _, s in curve] == pytest.approx([0.8, 0.8 * 2 / 3, 0.8 * 2 / 3 / 2])
    # quantile q: first time with S <= 1 - q
    assert stats.km_quantiles(stats.counted([1, 2, 3, 4, 5], [True, False, True, True, False])) == [3, 4, None]


def test_kaplan_meier_without_censoring_is_the_plain_median():
    times = [7, 3, 5, 9, 11]
    assert stats.km_quantiles(stats.counted(times, [True] * 5), (0.5,)) == [7]
    # ties: censored at the same time as events still count as at risk then
    curve = stats.kaplan_meier(stats.counted([2, 2, 2, 4], [True, False, True, True]))
    assert curve[0] == (2, pytest.approx(0.5))
    assert curve[1] == (4, pytest.approx(0.0))


def test_t_quantile_matches_the_tables():
    # two-sided 95% quantiles of Student's t, from printed tables
    for df, t in ((1, 12.706), (2, 4.303), (3, 3.182), (9, 2.262), (30, 2.042)):
        assert stats.t_quantile(0.975, df) == pytest.approx(t, abs=5e-4)
    assert stats.t_quantile(0.95, 10) == pytest.approx(1.812, abs=5e-4)
    assert stats.t_quantile(0.975, 10 ** 6) == pytest.approx(stats.Z95, abs=1e-5)


def test_paired_interval():
    mean, (lo, hi) = stats.paired_interval([0, 1, 0, 0], [1, 0, 1, 1])
    # differences 1, -1, 1, 1: mean 0.5, sd = 1 (sample), half = t(0.975, 3 df) * 1 / 2
    assert mean == 0.5
    assert lo == pytest.approx(0.5 - 3.1824 / 2, abs=1e-4)
    assert hi == pytest.approx(0.5 + 3.1824 / 2, abs=1e-4)
    # kept within the range the differences can take
    assert stats.paired_interval([0, 1, 0, 0], [1, 0, 1, 1], (-1, 1)) == (0.5, (-1, 1))


def test_pairs_without_spread_fall_back_on_the_outcomes_spread():
    # a dock that won 4 of 8 races on both courses, in the same races: the
    # pairs differ by nothing, the outcomes vary (variance 2/7 on each course)
    mean, (lo, hi) = stats.paired_interval([1, 0] * 4, [1, 0] * 4, (-1, 1))
    half = 2.3646 * math.sqrt((2 / 7 + 2 / 7) / 8)
    assert mean == 0 and (lo, hi) == (pytest.approx(-half, abs=1e-4), pytest.approx(half, abs=1e-4))
    # outcomes without spread (never won on either course): exactly nothing changed
    assert stats.paired_interval([0, 0, 0], [0, 0, 0], (-1, 1)) == (0.0, (0.0, 0.0))


@pytest.mark.parametrize("old, new", [([0], [1]), ([1], [0]), ([0], [0]), ([0, 0, 0], [1, 1, 1])])
def test_an_unknowable_spread_leaves_the_whole_range(old, new):
    # a single pair, or pairs all differing by one non-zero amount with
    # outcomes that do not vary: nothing says how far the mean may be
    mean, interval = stats.paired_interval(old, new, (-1, 1))
    assert interval == (-1, 1)


def test_dock_races_needed():
    # a dead-even course: only the "fair" route; 0.25 +- 0.05 needs
    # n >= (1.96 * sqrt(0.25 * 0.75) / 0.05)^2 = 288.1 decided races per dock
    assert stats.dock_races_needed([0.25] * 4, 4) == pytest.approx(288.1, abs=0.1)
    # a strong bias is settled sooner by the chi-square route than a small one
    strong = stats.dock_races_needed([0.4, 0.2, 0.2, 0.2], 4)
    weak = stats.dock_races_needed([0.3, 0.25, 0.25, 0.2], 4)
    assert strong < weak
    # a dock off by more than the margin, with no effect at all, cannot happen,
    # but a dock off by the margin exactly has only the chi-square route
    # (two docks: the chi-square test has 1 degree of freedom, and power 0.8 at
    # alpha 0.05 needs a noncentrality of (1.96 + 0.84)^2 = 7.85, which
    # Patnaik's approximation meets within a few percent; the effect per race
    # is 2 * (0.2^2 + 0.3^2) = 0.26)
    assert stats.dock_races_needed([0.30, 0.20], 2, margin=0.05) == pytest.approx(7.85 / 0.26,
                                                                                  rel=0.05)


# The statistics were worked out by hand-written code (incomplete gamma and
# beta functions, bisection) before they came from scipy.stats; its outputs
# on a spread of inputs are kept in fixtures/stats_reference.json, and the
# figures must not move in the fourth decimal.
REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "stats_reference.json").read_text())


def _same(got, expected):
    if expected is None or got is None:
        return got is expected
    return got == pytest.approx(expected, rel=1e-4, abs=1e-4)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_the_figures_are_those_of_the_hand_written_statistics(name):
    function = getattr(stats, name)
    for *args, expected in REFERENCE[name]:
        if name in ("kaplan_meier", "km_median_interval"):     # (times, events) as counted
            args = [stats.counted(*args)]
        got = function(*args)
        if name == "kaplan_meier":
            assert [t for t, _ in got] == [t for t, _ in expected], args
            assert [p for _, p in got] == pytest.approx([p for _, p in expected], abs=1e-4), args
        elif name == "paired_interval":
            mean, (lo, hi) = got
            assert _same([mean, lo, hi], expected), args
        elif isinstance(expected, list):
            assert len(got) == len(expected) and all(map(_same, got, expected)), (args, got)
        else:
            assert _same(got, expected), (args, got)


def test_a_median_read_between_rounds_shows_the_spread():
    # 15% of the races end before round 4 and 57% by its end: the median is
    # round 4, and a third of the way into it
    times = [3] * 45 + [4] * 127 + [5] * 81 + [6] * 47
    events = [True] * len(times)
    timed = stats.counted(times, events)
    curve = stats.kaplan_meier(timed)
    assert stats.km_quantile(curve, 0.5) == 4
    assert stats.km_quantile_interpolated(curve, 0.5) == pytest.approx(3.5 + 0.35 / (127 / 300))
    assert stats.km_median_interval(timed) == (4, 4)          # collapsed
    lo, hi = stats.km_median_interval(timed, quantile=stats.km_quantile_interpolated)
    assert 3.5 < lo < stats.km_quantile_interpolated(curve, 0.5) < hi < 4.5
    # all alike: the median is the round itself; never reached: None
    assert stats.km_quantile_interpolated(stats.kaplan_meier(stats.counted([4] * 10, [True] * 10)), 0.5) == 4
    assert stats.km_quantile_interpolated(stats.kaplan_meier(stats.counted([4] * 10, [False] * 10)), 0.5) is None
