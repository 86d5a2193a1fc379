"""The linear SVM For you trains on the marked papers (store.interest.ranking), without scikit-learn.

It is the model scikit-learn's `LinearSVC(C, class_weight="balanced")` fits, on a few labelled papers, as liblinear
solves it there (`dual="auto"`: fewer papers than terms): an L2-regularised squared-hinge SVM with an intercept
regularised as a feature of value 1, each paper's C its class's balancing weight (the classes' weighted counts
evened out) times its sample weight times `C`. Its solution is unique: this one is found more exactly than liblinear's
default tolerance finds it (weights within ~5e-6 of LinearSVC's, relative: the For-you orders are the same but for
near ties far down; bench/ranking.py's quality tables came out identical). Importing scikit-learn for it cost ~0.55 s
of CPU a call (it imports scipy.stats and more); this takes a few milliseconds for a few hundred marks (~0.1 s at
1,000, growing as its cube: a linear system of the papers inside the margin), over their Gram matrix (`gram`: the
papers' vectors' dot products, all the problem needs of them). More marks than `ranking.SMALL_FIT` are left to
LinearSVC (liblinear grows with the papers: 4,000 marked papers take it 0.05 s, this 3.7 s).
"""
from __future__ import annotations

import numpy as np

MOST_STEPS = 100
"""Newton steps at most (a few are taken: each one's papers inside the margin are mostly the last one's)."""


def dual(gram: np.ndarray, positive: np.ndarray, weight: np.ndarray, c: float) -> np.ndarray:
    """β with the SVM's weights w = Σ β_i x_i (the intercept's left out) of papers i labelled `positive` (else negative),
    weighed by `weight`, whose vectors' dot products are `gram`.

    Solved as Keerthi and DeCoste's finite Newton method (JMLR 2005), over β: with the papers inside the margin
    (y·score < 1) taken as those the loss counts, the optimum is a linear system's solution; a step towards it (exact
    line search over the piecewise quadratic objective) finds other papers inside, until the solution is where it is."""
    y = np.where(positive, 1.0, -1.0)
    weight = np.asarray(weight, np.float64)
    total = weight.sum()
    cost = c * weight * np.where(positive, total / (2 * weight[positive].sum()), total / (2 * weight[~positive].sum()))
    kernel = np.asarray(gram, np.float64) + 1.0  # (+1: the intercept's feature)
    beta, scores = np.zeros(len(y)), np.zeros(len(y))
    inside = np.ones(len(y), bool)
    for _ in range(MOST_STEPS):
        target = np.zeros(len(y))
        system = kernel[np.ix_(inside, inside)] + np.diag(0.5 / cost[inside])
        target[inside] = np.linalg.solve(system, y[inside])
        direction = target - beta
        if np.abs(direction).max() <= 1e-12 * np.abs(target).max():
            break  # (the papers inside are those of the optimum: it is there)
        along = kernel @ direction
        step = _step(direction, kernel @ beta, along, scores, y, cost)
        beta, scores = beta + step * direction, scores + step * along
        inside = y * scores < 1
    return beta


def _step(direction: np.ndarray, k_beta: np.ndarray, along: np.ndarray, scores: np.ndarray,
          y: np.ndarray, cost: np.ndarray) -> float:
    """The t in [0, 1] minimising the objective at beta + t·direction: its derivative (piecewise linear, increasing)
    is 0 there, or negative at 1."""
    curve, start = direction @ along, direction @ k_beta

    def slope(t: float) -> float:
        margin = 1 - y * (scores + t * along)
        counted = margin > 0
        return start + t * curve - 2 * float(np.sum((cost * y * along * margin)[counted]))

    if slope(1.0) <= 0:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if slope(middle) < 0 else (low, middle)
    return (low + high) / 2
