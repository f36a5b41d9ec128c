"""How well predicted classes agree with printed ones: the numbers the
calibration reports (bench/calibrate.py), judged so that a constant guess
cannot pass: exact matches, balanced accuracy (the mean over the classes of
the share of that class called right), how many are two or more classes off,
and Spearman's rank correlation of a measure with the printed class; and
the ceiling of a measure: the most courses any cuts of it could class right."""
from __future__ import annotations

from collections.abc import Sequence


def exact(printed: Sequence[str], predicted: Sequence[str]) -> int:
    return sum(p == q for p, q in zip(printed, predicted, strict=True))


def off_by_two(printed: Sequence[str], predicted: Sequence[str], order: Sequence[str]) -> int:
    """How many predictions are two or more classes from the printed one."""
    return sum(abs(order.index(p) - order.index(q)) >= 2
               for p, q in zip(printed, predicted, strict=True))


def balanced_accuracy(printed: Sequence[str], predicted: Sequence[str],
                      classes: Sequence[str]) -> float:
    """The mean over `classes` of the share of the courses printed in that class
    that were called right; a class nobody printed is left out of the mean
    (its share is undefined). A constant guess scores 1 / (classes printed)."""
    shares = []
    for c in classes:
        called = [q for p, q in zip(printed, predicted, strict=True) if p == c]
        if called:
            shares.append(sum(q == c for q in called) / len(called))
    if not shares:
        raise ValueError("no printed class to judge")
    return sum(shares) / len(shares)


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's on the ranks (ties averaged), so
    that many courses printed in one class are handled right."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("two lists of the same length, at least two values")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return 0.0          # one of them constant: no ranking to agree with
    return cov / (vx * vy) ** 0.5


def best_cuts(scores: Sequence[float], printed: Sequence[int], count: int) -> int:
    """The most courses that cuts of `scores` into `count` ordered classes
    (class 0 below the first cut) put in their printed class, the cuts chosen
    knowing every printed class: a ceiling no fit of this score can pass.
    Courses of the same score fall on the same side of every cut."""
    groups: dict[float, list[int]] = {}
    for score, cls in zip(scores, printed, strict=True):
        groups.setdefault(score, [0] * count)[cls] += 1
    # best[k]: the most right so far with the last group in class k or below
    best = [0] * count
    for score in sorted(groups):
        here = groups[score]
        best = [best[k] + here[k] for k in range(count)]
        for k in range(1, count):
            best[k] = max(best[k], best[k - 1])
    return best[-1]
