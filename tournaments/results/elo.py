"""Elo from match results, in the manner of cutechess and fastchess: the logistic curve, and
intervals from single games (trinomial) and from colour-swapped game pairs (pentanomial).

*Logistic Elo.*  A player scoring a fraction ``s`` of the points is ``D`` Elo
stronger than its opponent where ``s = 1 / (1 + 10 ** (-D / 400))``, i.e.
``D = -400 * log10(1/s - 1)``: the logistic curve of Elo's rating system as
used by cutechess, fastchess and fishtest.  A score of 1 (0) is +inf (-inf) Elo.

*Trinomial model (single games).*  Each game scores 1, 1/2 or 0 for the
player; the game scores are taken to be independent draws from one
distribution.  With ``N`` games the mean score is ``s`` and the per-game
variance ``var = (W (1-s)^2 + D (1/2-s)^2 + L (0-s)^2) / N``.  By the central
limit theorem the mean is roughly normal with standard error
``sqrt(var / N)``; the confidence interval ``s -+ z * se`` (``z`` the two-sided
normal quantile) is mapped through the logistic curve to an Elo interval,
which is therefore not symmetric around the Elo estimate.  This is the
computation of cutechess's ``Elo`` class (its "+/-" is half the width of the
mapped interval).

*Pentanomial model (game pairs).*  Our manager plays every opening twice with
colours swapped.  The two games of such a pair are correlated (an unbalanced
opening favours whoever has the good side), so fastchess and fishtest treat a
pair as the unit of sampling: its score 0, 1/2, 1, 3/2 or 2 falls in one of
five classes (hence "pentanomial").  Normalised to ``x = pair score / 2`` in
[0, 1] it has the same expectation as a single game's score; the mean ``s``
and variance ``var`` of ``x`` are taken over the ``P`` complete pairs and the
standard error is ``sqrt(var / P)``.  Unpaired games are not used.

*What the reports show* (``EloEstimate``, from ``elo_estimate`` and
``elo_estimate_pentanomial``).  The two intervals above are cutechess's and fastchess's
normal approximations, kept as the reference; they say ``+inf`` for a clean sweep and
``+0 +/- 0`` for a run of draws.  The reports invert the normal test instead (the score
test, Wilson's interval generalised to draws and to pairs): the interval holds every
score ``p`` that the test at ``p`` does not reject, ``N (s - p)^2 <= z^2 var(p)``, where
``var(p)`` is the outcome variance of the most likely distribution of expectation ``p``
(``mle.variance_at``, the distribution the SPRT tests against).  On large matches it is the
normal interval; near 0% and 100% it stays inside them.  A perfect or zero score (``s``
at 0 or 1) has no finite estimate, so it gets a prior, as BayesElo and Ordo do: one drawn
game pair (BayesElo's default prior of two virtual draws) is added to the counts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

from .mle import bisect, variance_at

__all__ = ["elo_from_score", "score_from_elo", "WDL", "elo_interval", "elo_interval_pentanomial", "z_quantile",
           "check_counts", "half_width", "PAIR_VALUES", "pair_moments", "EloEstimate", "elo_estimate",
           "elo_estimate_pentanomial", "match_estimate", "GAME_VALUES", "PRIOR_GAMES", "PRIOR_PAIRS", "signed",
           "interval_text"]

#: The normalised pair scores of the five pentanomial classes (pair score / 2).
PAIR_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: A game's scores: a loss, a draw, a win (the order of trinomial counts here).
GAME_VALUES = (0.0, 0.5, 1.0)
#: The prior a perfect or zero score gets: one drawn game pair, as two drawn games ...
PRIOR_GAMES = (0, 2, 0)
#: ... and as one pair scoring 1-1.
PRIOR_PAIRS = (0, 0, 1, 0, 0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in [0, 1]: ``-400 * log10(1/score - 1)``.

    Returns ``math.inf`` for a score of 1 and ``-math.inf`` for 0; raises
    ``ValueError`` outside [0, 1] (or for NaN).
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must lie in [0, 1], got {score!r}")
    if score == 1.0:
        return math.inf
    if score == 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: 0.5 gives 0.0, not -0.0


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger: ``1 / (1 + 10 ** (-elo / 400))``.

    Computed without overflow for any float, including +-inf (1.0 and 0.0).
    """
    if math.isnan(elo):
        raise ValueError("elo must not be NaN")
    x = elo * math.log(10.0) / 400.0
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def z_quantile(confidence: float) -> float:
    """Two-sided standard normal quantile for a confidence level in (0, 1)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def check_counts(**counts: int) -> None:
    """ValueError naming the first of ``counts`` (name=value) that is not a non-negative integer."""
    for name, value in counts.items():
        if value < 0 or value != int(value):
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def score_interval(mean: float, var: float, n: int, confidence: float) -> tuple[float, float, float]:
    """Normal interval ``mean -+ z sqrt(var / n)`` on the score scale, mapped to Elo.

    The score bounds are clamped to [0, 1], so a bound at or beyond an end maps
    to -inf / +inf Elo instead of raising.
    """
    z = z_quantile(confidence)
    se = math.sqrt(var / n)
    low = min(max(mean - z * se, 0.0), 1.0)
    high = min(max(mean + z * se, 0.0), 1.0)
    return elo_from_score(mean), elo_from_score(low), elo_from_score(high)


def half_width(low: float, high: float) -> float:
    """The "+/-" of an Elo interval: half its width (inf if a bound is infinite)."""
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2.0


@dataclass(frozen=True)
class WDL:
    """Wins, draws and losses of one player (against one opponent or a field)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __post_init__(self) -> None:
        check_counts(wins=self.wins, draws=self.draws, losses=self.losses)

    @property
    def games(self) -> int:
        """Number of games played."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Points: one per win, a half per draw."""
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        """Points per game; 0.5 (no evidence either way) when no game was played."""
        return self.points / self.games if self.games else 0.5

    @classmethod
    def of(cls, score: float) -> WDL:
        """One game scoring ``score`` (1, 0.5 or 0) as a W/D/L."""
        return cls(1, 0, 0) if score == 1.0 else cls(0, 1, 0) if score == 0.5 else cls(0, 0, 1)

    def mirrored(self) -> WDL:
        """The same games seen from the opponent's side (wins and losses swapped)."""
        return WDL(self.losses, self.draws, self.wins)

    def __add__(self, other: WDL) -> WDL:
        return WDL(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)


def elo_interval(w: int, d: int, l: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """Elo estimate and confidence interval ``(elo, low, high)`` from W/D/L, trinomial model.

    As cutechess: score ``s = (w + d/2) / N``, per-game variance
    ``(w (1-s)^2 + d (1/2-s)^2 + l s^2) / N``, standard error ``sqrt(var/N)``,
    score interval ``s -+ z se`` clamped to [0, 1] and mapped through
    :func:`elo_from_score`.  All wins give ``(inf, inf, inf)``, all losses the
    negative, all draws ``(0, 0, 0)``; no games give ``(0, -inf, inf)``.
    """
    check_counts(wins=w, draws=d, losses=l)
    z_quantile(confidence)
    n = w + d + l
    if n == 0:
        return 0.0, -math.inf, math.inf
    s = (w + 0.5 * d) / n
    var = (w * (1.0 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    return score_interval(s, var, n, confidence)


def pair_moments(counts: Sequence[float]) -> tuple[float, float, float]:
    """Number of pairs, mean and variance of the normalised pair score ``pair score / 2``."""
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts have 5 entries, got {len(counts)}")
    if any(c < 0 for c in counts):
        check_counts(**{f"counts[{i}]": c for i, c in enumerate(counts)})
    n = sum(counts)
    if n == 0:
        return 0, 0.5, 0.0
    s = sum(c * x for c, x in zip(counts, PAIR_VALUES)) / n
    var = sum(c * (x - s) ** 2 for c, x in zip(counts, PAIR_VALUES)) / n
    return n, s, var


def elo_interval_pentanomial(counts: Sequence[int], confidence: float = 0.95) -> tuple[float, float, float]:
    """Elo estimate and confidence interval ``(elo, low, high)`` from pentanomial counts.

    As fastchess: the mean of the per-pair score / 2, its variance over the
    ``P`` pairs, standard error ``sqrt(var / P)``, and the score interval
    mapped through :func:`elo_from_score` (clamped as in :func:`elo_interval`).
    No pairs give ``(0, -inf, inf)``.
    """
    z_quantile(confidence)
    n, s, var = pair_moments(counts)
    if n == 0:
        return 0.0, -math.inf, math.inf
    return score_interval(s, var, n, confidence)


# --- the reports' estimate ----------------------------------------------------------------------

@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its interval, as the reports give it: finite unless there were
    no games (see the module's notes)."""

    elo: float
    low: float
    high: float

    @property
    def error(self) -> float:
        """The "+/-": half the interval's width."""
        return half_width(self.low, self.high)

    def text(self) -> str:
        """``+801.7 [+426.3, +1104.1]``: the estimate and its interval as every report prints them."""
        return f"{signed(self.elo)} {interval_text(self)}"


def signed(value: float) -> str:
    """An Elo figure as the reports print it: one decimal with its sign (``+inf``/``-inf`` unbounded)."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"


def interval_text(estimate: "EloEstimate") -> str:
    """``[+426.3, +1104.1]``: an estimate's interval as every report prints it."""
    return f"[{signed(estimate.low)}, {signed(estimate.high)}]"


def score_test_estimate(values: Sequence[float], counts: Sequence[float], prior: Sequence[float],
                        confidence: float = 0.95) -> EloEstimate:
    """The Elo of the mean outcome of ``counts`` (over ``values``, scores in [0, 1]) and the
    score test's interval (module notes); ``prior`` is added to counts whose mean lies at an
    end of the values.  No outcomes: ``(0, -inf, inf)``."""
    z = z_quantile(confidence)
    if sum(counts) == 0:
        return EloEstimate(0.0, -math.inf, math.inf)
    mean = sum(c * x for c, x in zip(counts, values)) / sum(counts)
    if not min(values) < mean < max(values):
        counts = [c + p for c, p in zip(counts, prior)]
        mean = sum(c * x for c, x in zip(counts, values)) / sum(counts)
    n = sum(counts)

    def excess(p: float) -> float:
        return n * (mean - p) ** 2 - z * z * variance_at(values, counts, p)

    low = bisect(excess, mean, min(values), 60)
    high = bisect(excess, mean, max(values), 60)
    return EloEstimate(elo_from_score(mean), elo_from_score(low), elo_from_score(high))


def elo_estimate(w: int, d: int, l: int, confidence: float = 0.95) -> EloEstimate:
    """The reports' Elo from single games (W/D/L): the score test's interval, a drawn pair as
    the prior of a perfect or zero score."""
    check_counts(wins=w, draws=d, losses=l)
    return score_test_estimate(GAME_VALUES, (l, d, w), PRIOR_GAMES, confidence)


def elo_estimate_pentanomial(counts: Sequence[int], confidence: float = 0.95) -> EloEstimate:
    """The reports' Elo from colour-swapped game pairs (pentanomial counts), as ``elo_estimate``."""
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts have 5 entries, got {len(counts)}")
    check_counts(**{f"counts[{i}]": c for i, c in enumerate(counts)})
    return score_test_estimate(PAIR_VALUES, counts, PRIOR_PAIRS, confidence)


def match_estimate(wdl: WDL, pentanomial: Sequence[int], confidence: float = 0.95) -> EloEstimate:
    """A match's Elo as every report gives it (``match``, ``report``, ``tune``'s confirmation):
    from its complete colour-swapped pairs once there are some, else from its games, as the
    SPRT counts them."""
    if sum(pentanomial):
        return elo_estimate_pentanomial(pentanomial, confidence)
    return elo_estimate(wdl.wins, wdl.draws, wdl.losses, confidence)
