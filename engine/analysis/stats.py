"""Statistics for balance runs: pure functions of counts, no I/O.

- ``wilson``: the Wilson score interval of a proportion.
- ``chi2_sf`` / ``chi2_isf``: the chi-square distribution's upper tail and
  its inverse (scipy.special).
- ``chi_square_gof``: Pearson's goodness-of-fit test.
- ``kaplan_meier`` / ``km_quantiles``: the product-limit survival curve with
  right-censoring, and its quantiles, of times counted (``counted``).
- ``t_quantile``: Student's t distribution's quantile (scipy.special).
- ``paired_interval``: the mean of per-pair differences with a t interval
  that uses the pairing.
- ``dock_races_needed``: how many decided races per dock would likely
  settle a fairness question that the races so far leave open.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType


Z95 = 1.959963984540054          # two-sided 95% normal quantile
# Survival times counted: (time, event) -> subjects; an event False is a
# censored time. Counts, not lists, so that a balance run's memory does not
# grow with its races.
Timed = Mapping[tuple[float, bool], int]


def _special() -> ModuleType:
    """scipy.special, imported on first use (0.2 s), for the chi-square and t
    distributions (the routines scipy.stats calls). scipy.stats itself is not
    imported: it takes 0.5 to 0.8 s, which every balance run and the editor's
    first card estimate would pay for a product-limit curve of a few lines."""
    from scipy import special
    return special


def prepare() -> None:
    """Import scipy.special now rather than at the first chi-square: for a
    caller waiting on other processes, e.g. worker processes starting or
    playing."""
    _special()


# ---------------------------------------------------------------- proportions

def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for `successes` out of `n` (0 <= successes <= n).
    With n == 0 nothing is known: (0, 1)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


# ---------------------------------------------------------------- chi-square

def chi2_sf(x: float, df: float) -> float:
    """P(X >= x) for X chi-square with `df` degrees of freedom."""
    if df <= 0:
        return 1.0 if x <= 0 else 0.0
    return float(_special().chdtrc(df, x))


def chi2_isf(p: float, df: float) -> float:
    """The x with chi2_sf(x, df) == p (0 < p < 1)."""
    return float(_special().chdtri(df, p))


def chi_square_gof(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's goodness-of-fit: (statistic, degrees of freedom, p-value).
    Categories with no expected count are left out; df = categories - 1.
    With fewer than two categories there is nothing to test: (0, 0, 1)."""
    pairs = [(o, e) for o, e in zip(observed, expected) if e > 0]
    if len(pairs) < 2:
        return 0.0, 0, 1.0
    stat = sum((o - e) ** 2 / e for o, e in pairs)
    df = len(pairs) - 1
    return stat, df, chi2_sf(stat, df)


def noncentral_chi2_sf(x: float, df: float, lam: float) -> float:
    """Upper tail of the noncentral chi-square, by Patnaik's two-moment
    approximation (a scaled central chi-square); good enough for planning."""
    if lam <= 0:
        return chi2_sf(x, df)
    c = (df + 2 * lam) / (df + lam)
    f = (df + lam) ** 2 / (df + 2 * lam)
    return chi2_sf(x / c, f)


# ---------------------------------------------------------------- survival

def counted(times: Iterable[float], events: Iterable[bool]) -> Timed:
    """Times and their events (False: censored) as the survival functions
    read them: how many subjects had each (time, event)."""
    return Counter(zip(times, events))


def kaplan_meier(timed: Timed) -> list[tuple[float, float]]:
    """The Kaplan-Meier curve as (time, survival just after it) at each event
    time, in increasing order. An event False is a censored time (the
    subject was still going then). At a tie, events come before censorings:
    a subject censored at t was at risk at t."""
    at_risk = sum(timed.values())
    survival = 1.0
    curve = []
    for t in sorted({t for t, _ in timed}):
        deaths = timed.get((t, True), 0)
        if deaths:
            survival *= 1.0 - deaths / at_risk
            curve.append((t, survival))
        at_risk -= deaths + timed.get((t, False), 0)
    return curve


def km_quantile(curve: list[tuple[float, float]], q: float) -> float | None:
    """The q-quantile of the time (q = 0.5: the median): the first event time
    at which the share that has had its event reaches q, i.e. survival <= 1 - q.
    None when the curve never gets there (too much censoring)."""
    target = 1.0 - q + 1e-12
    for t, s in curve:
        if s <= target:
            return t
    return None


def km_quantile_interpolated(curve: list[tuple[float, float]], q: float) -> float | None:
    """The q-quantile of a time counted in whole units (rounds), read between
    them: unit t stands for the stretch from t - 0.5 to t + 0.5, over which
    the share that has had its event grows evenly. So a median of 4 where 15%
    are done before round 4 and 57% by its end reads 4.33, not 4: a change in
    the spread shows. None when the curve never gets there."""
    done_before = 0.0
    for t, s in curve:
        done = 1.0 - s
        if done >= q - 1e-12:
            return t - 0.5 + (q - done_before) / (done - done_before)
        done_before = done
    return None


def km_quantiles(timed: Timed, qs: Sequence[float] = (0.25, 0.5, 0.75)) -> list[float | None]:
    curve = kaplan_meier(timed)
    return [km_quantile(curve, q) for q in qs]


# ---------------------------------------------------------------- Student's t

def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) == p (t_quantile(0.975, 9) is about 2.262): the
    normal quantile's place for small samples."""
    return float(_special().stdtrit(df, p))


# ---------------------------------------------------------------- pairs

def paired_interval(old: Sequence[float], new: Sequence[float],
                    limits: tuple[float, float] = (-math.inf, math.inf),
                    level: float = 0.95) -> tuple[float, tuple[float, float]]:
    """Mean of the per-pair differences new - old with a t interval (mean +-
    t * sd / sqrt(n), t on n - 1 degrees of freedom), kept within `limits`,
    the range the differences can take. The pairing is in the data: each
    pair compares the two versions on one seed, so what the seeds share
    cancels out.

    Pairs that all differ alike (in a small run, often all by zero) show no
    spread, which does not make the mean certain: then the spread of the
    outcomes themselves stands in (the unpaired interval, wider than the
    paired one whenever pairing helps). Only outcomes without spread give a
    zero-width interval; a single pair, or pairs that all differ by one
    non-zero amount, leave the whole of `limits`."""
    n = len(old)
    diffs = [b - a for a, b in zip(old, new)]
    mean = math.fsum(diffs) / n if n else 0.0
    var = _variance(diffs)
    if var <= 0:
        var = _variance(old) + _variance(new)
    if var <= 0:
        if n == 1 or any(diffs):
            return mean, limits
        return mean, (mean, mean)
    half = t_quantile((1 + level) / 2, n - 1) * math.sqrt(var / n)
    return mean, (max(limits[0], mean - half), min(limits[1], mean + half))


def _variance(values: Sequence[float]) -> float:
    """The sample variance; 0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.fsum((v - mean) ** 2 for v in values) / (n - 1)


# ---------------------------------------------------------------- planning

def dock_races_needed(shares: Sequence[float], k: int, margin: float = 0.05,
                      alpha: float = 0.05, power: float = 0.8, z: float = Z95,
                      fairs: Sequence[float] | None = None) -> float | None:
    """Decided races per dock that would likely settle the fairness verdict,
    if the docks kept the shares (win rates among decided races) seen so far.
    A dock's fair share is 1/k, or its own in `fairs` (a seat that races
    with different numbers of robots: balance/aggregate.py).

    Two ways to settle it, and the nearer one counts:
    - unfair: the chi-square test reaches p < alpha with the given power. Its
      noncentrality grows with the races per dock n:
      lam = n * sum((p - f)^2 / f), f the fair share (1/k) (Patnaik's approximation for the power);
    - fair: every dock's Wilson interval fits in 1/k +- margin, which needs
      |p - 1/k| + z * sqrt(p (1 - p) / n) <= margin for each dock.
    None when neither can happen (no measurable effect, and a dock already
    off by the margin or more).
    """
    if len(shares) < 2 or k < 1:
        return None
    fairs = list(fairs) if fairs is not None else [1.0 / k] * len(shares)
    options = []
    need = 0.0
    for p, fair in zip(shares, fairs):                 # fair route
        gap = margin - abs(p - fair)
        if gap <= 0:
            need = math.inf
            break
        need = max(need, (z * math.sqrt(max(p * (1 - p), 1e-9)) / gap) ** 2)
    options.append(need)
    effect = sum((p - fair) ** 2 / fair for p, fair in zip(shares, fairs))  # unfair route
    if effect > 1e-12:
        df = len(shares) - 1
        crit = chi2_isf(alpha, df)
        lo, hi = 0.0, 1.0
        while noncentral_chi2_sf(crit, df, hi * effect) < power and hi < 1e12:
            hi *= 2.0
        for _ in range(100):
            mid = (lo + hi) / 2.0
            if noncentral_chi2_sf(crit, df, mid * effect) < power:
                lo = mid
            else:
                hi = mid
        options.append(hi)
    best = min(options)
    return None if math.isinf(best) else best


# ---------------------------------------------------------------- intervals for the course card

def km_median_interval(timed: Timed, z: float = Z95,
                       quantile: Callable[[list[tuple[float, float]], float], float | None]
                       = km_quantile) -> tuple[float | None, float | None]:
    """A 95% interval for the Kaplan-Meier median: the quantiles at
    0.5 -+ z * sqrt(0.25 / n), n the subjects (the order-statistic interval
    of the median, read on the curve so that censored times count as far as
    they go), read by `quantile` (``km_quantile_interpolated`` for one that
    does not shrink to one value while the times disagree). None at an end
    the curve never reaches."""
    n = sum(timed.values())
    if not n:
        return None, None
    half = z * math.sqrt(0.25 / n)
    curve = kaplan_meier(timed)
    return quantile(curve, max(0.5 - half, 1e-9)), quantile(curve, min(0.5 + half, 1.0))


def poisson_rate_interval(count: int, exposure: float, alpha: float = 0.05) -> tuple[float, float]:
    """Garwood's exact interval for a rate: `count` events over `exposure`
    (for deaths per robot: deaths over robots). (0, inf) with no exposure."""
    if exposure <= 0:
        return 0.0, math.inf
    lo = chi2_isf(1 - alpha / 2, 2 * count) / 2 if count > 0 else 0.0
    hi = chi2_isf(alpha / 2, 2 * count + 2) / 2
    return lo / exposure, hi / exposure
