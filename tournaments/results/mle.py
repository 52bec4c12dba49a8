"""The outcome distribution of highest likelihood with a given mean: what the SPRT compares
(``sprt.py``) and what the Elo intervals are tested against (``elo.py``).

A match's outcomes take a few values (a game 0, 1/2 or 1; a colour-swapped pair 0, 1/4, 1/2,
3/4 or 1 of its two games' points) with observed counts.  Among the distributions whose
expectation is a given score, ``constrained_mle`` finds the one that makes the counts most
likely; ``regularize`` gives an empty outcome a tiny count first (as fastchess does), so a
one-sided record (all wins) still has a spread.
"""
from __future__ import annotations

from typing import Sequence

__all__ = ["REGULARIZER", "regularize", "bisect", "constrained_mle", "variance_at"]

REGULARIZER = 1e-3


def regularize(counts: Sequence[float]) -> tuple[float, ...]:
    """Empty outcome bins get a tiny count (as fastchess does), so that a one-sided result
    (say all wins) has a non-zero variance and its LLR grows instead of staying 0."""
    return tuple(c if c > 0 else REGULARIZER for c in counts)


def bisect(f, negative: float, positive: float, iterations: int = 200) -> float:
    """The point between ``negative`` (where ``f <= 0``) and ``positive`` (where ``f > 0``)
    at which ``f`` turns positive, halving the interval until floating point cannot."""
    for _ in range(iterations):
        mid = 0.5 * (negative + positive)
        if mid in (negative, positive):
            break
        if f(mid) > 0:
            positive = mid
        else:
            negative = mid
    return 0.5 * (negative + positive)


def constrained_mle(values: Sequence[float], counts: Sequence[float], mean: float) -> list[float]:
    """The outcome probabilities of highest likelihood for ``counts`` whose expectation is ``mean``.

    Lagrange: ``p_i = f_i / (1 + lam * (x_i - mean))`` with ``f_i`` the observed
    frequencies and ``lam`` the root of ``sum p_i (x_i - mean) = 0``, found by
    bisection on the interval that keeps every ``p_i`` positive.
    """
    total = sum(counts)
    freqs = [c / total for c in counts]
    lo = -1.0 / (max(values) - mean)
    hi = 1.0 / (mean - min(values))

    def slope(lam: float) -> float:  # decreasing in lam
        return sum(f * (x - mean) / (1.0 + lam * (x - mean)) for f, x in zip(freqs, values))

    lam = bisect(slope, hi, lo)
    probs = [f / (1.0 + lam * (x - mean)) for f, x in zip(freqs, values)]
    norm = sum(probs)
    return [p / norm for p in probs]


def variance_at(values: Sequence[float], counts: Sequence[float], mean: float) -> float:
    """The variance of one outcome under ``constrained_mle``'s distribution of expectation
    ``mean`` (``counts`` regularized first); 0 at the end values themselves."""
    if not min(values) < mean < max(values):
        return 0.0
    probs = constrained_mle(values, regularize(counts), mean)
    return sum(p * (x - mean) ** 2 for p, x in zip(probs, values))
