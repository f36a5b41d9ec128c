"""An ordinal fit for the course card's classes: a weighted cumulative-logit
model (proportional odds). A course's score is a weighted sum of its
measures; its class is how many of the fitted edges the score passes:

    score = w . measures        class = number of edges below the score

Each course is weighted by the inverse of its printed class's size, so that
every class counts as much as any other (the fit aims at balanced accuracy:
a large class cannot win it alone). A small ridge on the weights keeps the
fit finite where a measure separates the classes completely.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import minimize
from scipy.special import expit

RIDGE = 0.05


@dataclass(frozen=True)
class Ordinal:
    weights: tuple[float, ...]      # per measure, in the measures' own units
    edges: tuple[float, ...]        # increasing: class k is above k edges

    def scores(self, measures: ArrayLike) -> np.ndarray:
        return np.asarray(measures, float) @ np.asarray(self.weights)

    def classes(self, measures: ArrayLike) -> np.ndarray:
        return (self.scores(measures)[:, None] > np.asarray(self.edges)[None, :]).sum(1)


def fit(measures: ArrayLike, classes: ArrayLike, count: int) -> Ordinal:
    """The model of `count` classes (0 .. count - 1) fitted to the courses'
    `measures` (one row a course) and printed `classes`."""
    x = np.asarray(measures, float)
    y = np.asarray(classes, int)
    n, p = x.shape
    mean, spread = x.mean(0), x.std(0)
    spread[spread == 0] = 1.0
    z = (x - mean) / spread                    # standard units: the ridge treats measures alike
    sizes = np.bincount(y, minlength=count)
    weight = n / (count * sizes[y])

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return theta[:p], np.cumsum(np.concatenate([theta[p:p + 1], np.exp(theta[p + 1:])]))

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        """The weighted negative log-likelihood and its gradient."""
        beta, edges = unpack(theta)
        # the edges around each course's class, -inf and +inf past the ends
        padded = np.concatenate([[-np.inf], edges, [np.inf]])
        upper, lower = padded[y + 1] - z @ beta, padded[y] - z @ beta
        chance = np.clip(expit(upper) - expit(lower), 1e-12, 1.0)
        dense_u = np.where(np.isfinite(upper), expit(upper) * expit(-upper), 0.0)
        dense_l = np.where(np.isfinite(lower), expit(lower) * expit(-lower), 0.0)
        value = float(-(weight * np.log(chance)).sum() + RIDGE * (beta ** 2).sum())
        share = weight / chance
        d_beta = z.T @ (share * (dense_u - dense_l)) + 2 * RIDGE * beta
        d_edges = np.zeros(count + 1)               # over the padded edges
        np.add.at(d_edges, y + 1, -share * dense_u)
        np.add.at(d_edges, y, share * dense_l)
        d_edges = d_edges[1:count]
        # edges = cumsum(first, exp(steps)): each step moves every edge above it
        d_steps = np.exp(theta[p + 1:]) * np.cumsum(d_edges[::-1])[::-1][1:]
        return value, np.concatenate([d_beta, [d_edges.sum()], d_steps])

    start = np.concatenate([np.full(p, 0.5), [-1.0], np.zeros(count - 2)])
    beta, edges = unpack(minimize(loss, start, jac=True, method="L-BFGS-B").x)
    weights = beta / spread                    # back to the measures' own units
    return Ordinal(tuple(float(w) for w in weights),
                   tuple(float(e + mean @ weights) for e in edges))


def left_out(measures: ArrayLike, classes: ArrayLike, count: int) -> np.ndarray:
    """Each course's class predicted by the fit on all the others."""
    x = np.asarray(measures, float)
    y = np.asarray(classes, int)
    out = np.empty(len(y), int)
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        out[i] = fit(x[keep], y[keep], count).classes(x[i:i + 1])[0]
    return out
