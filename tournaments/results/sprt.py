"""The sequential probability ratio test of a match (generalised SPRT, as fastchess and fishtest).

*SPRT.*  Wald's sequential probability ratio test of H0: Elo = elo0 against
H1: Elo = elo1, stopping when the log-likelihood ratio leaves
``(log(beta/(1-alpha)), log((1-beta)/alpha))``.  The LLR is the normal
approximation of the generalised SPRT (Michel Van den Bergh's derivation, as
fishtest's simplified form and fastchess's "logistic" model compute it): with
the expected scores ``s0``, ``s1`` of the two hypotheses (through the logistic
curve) and the sample mean ``s`` and variance ``var`` per sampling unit,
``LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)``, ``N`` being the number of
units: games in the trinomial case, pairs (with the normalised pair score
``x = pair score / 2`` of ``elo.py``) in the pentanomial case.
"""
from __future__ import annotations

import math
from typing import Sequence

from .elo import PAIR_VALUES, check_counts, score_from_elo
from .mle import REGULARIZER, constrained_mle, regularize

__all__ = ["SPRT", "REGULARIZER", "regularize", "constrained_mle"]


class SPRT:
    """Sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo = ``elo1``.

    ``alpha`` is the probability of accepting H1 when H0 holds, ``beta`` that
    of accepting H0 when H1 holds.  The test stops at ``llr <= lower`` (H0)
    or ``llr >= upper`` (H1), Wald's bounds.

    Raises ``ValueError`` for bounds that make no test: ``elo0 >= elo1`` (equal bounds
    never decide; swapped ones would silently swap the hypotheses), Elo so large that the
    expected scores are not strictly between 0 and 1 in floating point (about 6000 and
    more), or ``alpha``, ``beta`` outside (0, 1) or with ``alpha + beta >= 1`` (Wald's
    bounds would not enclose 0).
    """

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> None:
        if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
            raise ValueError(f"SPRT: alpha and beta must lie in (0, 1) with alpha + beta < 1, "
                             f"got {alpha:g} and {beta:g}")
        if not elo0 < elo1:
            raise ValueError(f"SPRT: elo0 must be less than elo1 (H0: Elo = elo0 against H1: Elo = elo1), "
                             f"got {elo0:g} and {elo1:g}")
        self.elo0 = elo0
        self.elo1 = elo1
        self.alpha = alpha
        self.beta = beta
        self.lower = math.log(beta / (1.0 - alpha))
        self.upper = math.log((1.0 - beta) / alpha)
        self.s0 = score_from_elo(elo0)
        self.s1 = score_from_elo(elo1)
        # |Elo| past about 6380 has an expected score of 1.0 (or its mirror) in floating point
        if not (self.s0 < self.s1 and score_from_elo(abs(elo0)) < 1.0 and score_from_elo(abs(elo1)) < 1.0):
            raise ValueError(f"SPRT: Elo {elo0:g} and {elo1:g} are too extreme: their expected scores "
                             f"({self.s0!r}, {self.s1!r}) must differ and lie strictly between 0 and 1")

    def __repr__(self) -> str:
        return f"SPRT(elo0={self.elo0!r}, elo1={self.elo1!r}, alpha={self.alpha!r}, beta={self.beta!r})"

    def llr(self, w: int, d: int, l: int) -> float:
        """Log-likelihood ratio of H1 over H0 from W/D/L (trinomial, games as units).

        The generalized SPRT: ``sum(c_i * log(p1_i / p0_i))`` over the outcomes
        (loss, draw, win = 0, 1/2, 1) where ``p0``/``p1`` are the maximum-likelihood
        outcome probabilities whose expected score is ``s0``/``s1`` (``constrained_mle``);
        empty bins get a count of 1e-3 (as fastchess does).  0 with no games.
        """
        check_counts(wins=w, draws=d, losses=l)
        if w + d + l == 0:
            return 0.0
        return self._gsprt((0.0, 0.5, 1.0), (l, d, w))

    def llr_pentanomial(self, counts: Sequence[int]) -> float:
        """Log-likelihood ratio of H1 over H0 from pentanomial counts (pairs as units).

        As ``llr`` with a pair as the unit and its outcome ``pair score / 2`` in
        {0, 1/4, 1/2, 3/4, 1}, whose expectation is the per-game score.  0 with no pairs.
        """
        if len(counts) != 5:
            raise ValueError(f"pentanomial counts have 5 entries, got {len(counts)}")
        check_counts(**{f"counts[{i}]": c for i, c in enumerate(counts)})
        if sum(counts) == 0:
            return 0.0
        return self._gsprt(PAIR_VALUES, tuple(counts))

    def llr_normal(self, w: int, d: int, l: int) -> float:
        """The textbook normal approximation of the LLR (fishtest's simplified formula).

        ``N (s1 - s0) (2 s - s0 - s1) / (2 var)`` with ``s``, ``var`` the sample
        mean and variance of the game score; 0 when the variance is 0.  Close to
        ``llr`` on large samples; kept as the hand-checkable reference.
        """
        n = w + d + l
        if n == 0:
            return 0.0
        s = (w + 0.5 * d) / n
        var = (w * (1.0 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
        if var == 0.0:
            return 0.0
        return n * (self.s1 - self.s0) * (2.0 * s - self.s0 - self.s1) / (2.0 * var)

    def _gsprt(self, values: Sequence[float], counts: Sequence[int]) -> float:
        counts = regularize(counts)
        p0 = constrained_mle(values, counts, self.s0)
        p1 = constrained_mle(values, counts, self.s1)
        return sum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0))

    def status(self, llr: float) -> str | None:
        """``"H0"`` if ``llr <= lower``, ``"H1"`` if ``llr >= upper``, else ``None`` (continue)."""
        if llr <= self.lower:
            return "H0"
        if llr >= self.upper:
            return "H1"
        return None
