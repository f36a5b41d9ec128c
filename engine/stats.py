"""Statistics for balance runs: pure functions of counts, no I/O, no numpy needed.

- ``wilson``: the Wilson score interval of a proportion.
- ``chi2_sf`` / ``chi2_isf``: the chi-square distribution's upper tail and its
  inverse, from the regularized upper incomplete gamma function (series and
  continued fraction, as in Numerical Recipes), so no scipy is needed.
- ``chi_square_gof``: Pearson's goodness-of-fit test.
- ``kaplan_meier`` / ``km_quantiles``: the product-limit survival curve with
  right-censoring, and its quantiles.
- ``t_quantile``: Student's t distribution's quantile, from the regularized
  incomplete beta function (continued fraction, as in Numerical Recipes).
- ``paired_interval``: the mean of per-pair differences with a t interval
  that uses the pairing.
- ``dock_races_needed``: how many decided races per dock would likely
  settle a fairness question that the races so far leave open.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

Z95 = 1.959963984540054          # two-sided 95% normal quantile


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

def gammaincc(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a)."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_series(a, x))
    return _gamma_fraction(a, x)


def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its series; converges fast for x < a + 1."""
    term = total = 1.0 / a
    ap = a
    for _ in range(10000):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz); for x >= a + 1."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: float) -> float:
    """P(X >= x) for X chi-square with `df` degrees of freedom."""
    if df <= 0:
        return 1.0 if x <= 0 else 0.0
    return gammaincc(df / 2.0, x / 2.0)


def chi2_isf(p: float, df: float) -> float:
    """The x with chi2_sf(x, df) == p (0 < p < 1), by bisection."""
    lo, hi = 0.0, max(1.0, df)
    while chi2_sf(hi, df) > p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if chi2_sf(mid, df) > p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


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

def kaplan_meier(times: Sequence[float], events: Sequence[bool]) -> list[tuple[float, float]]:
    """The Kaplan-Meier curve as (time, survival just after it) at each event
    time, in increasing order. `events[i]` is False for a censored time (the
    subject was still going then). At a tie, events come before censorings:
    a subject censored at t was at risk at t."""
    data = sorted(zip(times, events))
    n_at_risk = len(data)
    survival = 1.0
    curve = []
    i = 0
    while i < len(data):
        t = data[i][0]
        deaths = censored = 0
        while i < len(data) and data[i][0] == t:
            if data[i][1]:
                deaths += 1
            else:
                censored += 1
            i += 1
        if deaths:
            survival *= 1.0 - deaths / n_at_risk
            curve.append((t, survival))
        n_at_risk -= deaths + censored
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


def km_quantiles(times: Sequence[float], events: Sequence[bool],
                 qs: Sequence[float] = (0.25, 0.5, 0.75)) -> list[float | None]:
    curve = kaplan_meier(times, events)
    return [km_quantile(curve, q) for q in qs]


# ---------------------------------------------------------------- Student's t

def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        for an in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + an * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + an / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def t_sf(t: float, df: float) -> float:
    """P(T >= t) for T Student's t with `df` degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) == p (0.5 <= p < 1; t_quantile(0.975, 9) is about
    2.262), by bisection; the normal quantile's place for small samples."""
    lo, hi = 0.0, 1.0
    while t_sf(hi, df) > 1.0 - p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_sf(mid, df) > 1.0 - p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2.0


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
                      alpha: float = 0.05, power: float = 0.8, z: float = Z95) -> float | None:
    """Decided races per dock that would likely settle the fairness verdict,
    if the docks kept the shares (win rates among decided races) seen so far.

    Two ways to settle it, and the nearer one counts:
    - unfair: the chi-square test reaches p < alpha with the given power. Its
      noncentrality grows with the races per dock n:
      lam = n * k * sum((p - 1/k)^2) (Patnaik's approximation for the power);
    - fair: every dock's Wilson interval fits in 1/k +- margin, which needs
      |p - 1/k| + z * sqrt(p (1 - p) / n) <= margin for each dock.
    None when neither can happen (no measurable effect, and a dock already
    off by the margin or more).
    """
    if len(shares) < 2 or k < 1:
        return None
    fair = 1.0 / k
    options = []
    need = 0.0
    for p in shares:                                   # fair route
        gap = margin - abs(p - fair)
        if gap <= 0:
            need = math.inf
            break
        need = max(need, (z * math.sqrt(max(p * (1 - p), 1e-9)) / gap) ** 2)
    options.append(need)
    effect = k * sum((p - fair) ** 2 for p in shares)  # unfair route
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

def km_median_interval(times: Sequence[float], events: Sequence[bool], z: float = Z95,
                       quantile: Callable[[list[tuple[float, float]], float], float | None]
                       = km_quantile) -> tuple[float | None, float | None]:
    """A 95% interval for the Kaplan-Meier median: the quantiles at
    0.5 -+ z * sqrt(0.25 / n), n the subjects (the order-statistic interval
    of the median, read on the curve so that censored times count as far as
    they go), read by `quantile` (``km_quantile_interpolated`` for one that
    does not shrink to one value while the times disagree). None at an end
    the curve never reaches."""
    n = len(times)
    if not n:
        return None, None
    half = z * math.sqrt(0.25 / n)
    curve = kaplan_meier(times, events)
    return quantile(curve, max(0.5 - half, 1e-9)), quantile(curve, min(0.5 + half, 1.0))


def poisson_rate_interval(count: int, exposure: float, alpha: float = 0.05) -> tuple[float, float]:
    """Garwood's exact interval for a rate: `count` events over `exposure`
    (for deaths per robot: deaths over robots). (0, inf) with no exposure."""
    if exposure <= 0:
        return 0.0, math.inf
    lo = chi2_isf(1 - alpha / 2, 2 * count) / 2 if count > 0 else 0.0
    hi = chi2_isf(alpha / 2, 2 * count + 2) / 2
    return lo / exposure, hi / exposure
