"""Models of Elo over the tuned parameters, fitted to a tune's game results.

Games measure Elo only between two parameter sets, and noisily.  A tune asks two questions
the raw results answer badly:

* How much stronger is SPSA's theta than the start?  It never plays the start; its
  iterations measure differences ``elo(theta+) - elo(theta-)``.  A quadratic

      elo(x) = b . z + sum_{i <= j} q_ij z_i z_j,     z = (x - min) / (max - min)

  fitted to those differences values each step of the path.  The fit is Bayesian linear
  regression: each iteration's difference is weighted by its noise (from the pooled variance
  of the game-pair scores), and every coefficient has a normal prior of mean 0 and standard
  deviation ``PRIOR_SD`` (Elo across a parameter's range).  SPSA steps where its own noisy
  results point, so a model fitted to all iterations finds every step uphill even on a flat
  landscape; the path is therefore cross-fitted: the odd iterations' steps are valued by the
  model of the even iterations and the even ones' by the model of the odd, which makes a
  flat, noisy run estimate a gain near 0 with a wide error, and the estimate comes with its
  standard deviation.
* Which Optuna trial is really best?  The trial with the best score is mostly the luckiest
  (the winner's curse), and against a weak baseline many trials win every game.  Each trial
  measures ``elo(trial) - elo(baseline)``; a Gaussian-kernel smoother (Nadaraya-Watson, in
  ``z`` coordinates, shrunk towards the mean, its bandwidth and shrinkage chosen by
  leave-one-out cross-validation) averages each trial with its neighbours, and the trial
  with the best smoothed Elo is the answer.

Each iteration's or trial's Elo is the logistic Elo of its score, the score kept half a game
from 0 and 1 so that a clean sweep is a large finite number.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..results.elo import elo_from_score
from .params import Param


def clamped_elo(points: float, games: int) -> float:
    """The Elo of scoring ``points`` out of ``games``, the score kept half a game from 0 and 1."""
    if games <= 0:
        return 0.0
    half = 0.5 / games
    return elo_from_score(min(max(points / games, half), 1.0 - half))


def _features(z: np.ndarray) -> np.ndarray:
    """Rows of ``z`` (points in [0, 1]^n) as [z_1..z_n, z_i z_j for i <= j]."""
    n = z.shape[1]
    quad = [z[:, i] * z[:, j] for i in range(n) for j in range(i, n)]
    return np.column_stack([z] + quad)


ELO_PER_SCORE = 400.0 / (math.log(10.0) * 0.25)   # the slope of logistic Elo at a score of 1/2
PRIOR_SD = 2000.0        # a coefficient's prior standard deviation, in Elo across a parameter's range: weak
MIN_PAIR_VARIANCE = 0.01  # the floor of the pooled variance of a pair's score (half its points)


@dataclass(frozen=True)
class Quadratic:
    """A fitted Elo model with its uncertainty; ``elo(x)`` is defined up to a constant, so
    models answer how much better one point is than another."""

    low: tuple[float, ...]
    span: tuple[float, ...]
    coef: tuple[float, ...]
    cov: tuple[tuple[float, ...], ...]

    def _features(self, x: Sequence[float]) -> np.ndarray:
        z = (np.asarray(x, dtype=float)[None, :] - np.array(self.low)) / np.array(self.span)
        return _features(z)[0]

    def delta(self, x: Sequence[float], start: Sequence[float]) -> np.ndarray:
        """The features of ``x`` less those of ``start``: the gain is their dot product with
        the coefficients."""
        return self._features(x) - self._features(start)

    def gain(self, x: Sequence[float], start: Sequence[float]) -> float:
        """How many Elo ``x`` is better than ``start``."""
        return float(self.delta(x, start) @ np.array(self.coef))

    def gain_sd(self, x: Sequence[float], start: Sequence[float]) -> float:
        """The standard deviation of ``gain(x, start)``."""
        f = self.delta(x, start)
        return float(math.sqrt(max(0.0, f @ np.array(self.cov) @ f)))


def _scaled(points: Sequence[Sequence[float]], params: Sequence[Param]) -> np.ndarray:
    low = np.array([p.low for p in params])
    span = np.array([p.high - p.low for p in params])
    return (np.asarray(points, dtype=float).reshape(-1, len(params)) - low) / span


def elo_noise(pentanomials: Sequence[Sequence[int]]) -> list[float]:
    """Each match's Elo standard error from its pair count and the pooled variance of a pair's
    score (half its points) over all the matches."""
    values = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    squares, freedom = 0.0, 0
    for counts in pentanomials:
        counts = np.asarray(counts, dtype=float)
        n = counts.sum()
        if n > 1:
            mean = counts @ values / n
            squares += float(counts @ (values - mean) ** 2)
            freedom += int(n) - 1
    pooled = max(squares / freedom if freedom else 0.0, MIN_PAIR_VARIANCE)
    return [ELO_PER_SCORE * math.sqrt(pooled / max(1, sum(c))) for c in pentanomials]


def fit_differences(params: Sequence[Param], plus: Sequence[Sequence[float]], minus: Sequence[Sequence[float]],
                    elo: Sequence[float], noise: Sequence[float]) -> Quadratic:
    """The model from measured ``elo(plus[i]) - elo(minus[i])`` (SPSA's iterations), each with
    standard error ``noise[i]``: the posterior mean and covariance of the coefficients."""
    rows = _features(_scaled(plus, params)) - _features(_scaled(minus, params))
    weights = 1.0 / np.asarray(noise, dtype=float) ** 2
    precision = rows.T @ (rows * weights[:, None]) + np.eye(rows.shape[1]) / PRIOR_SD ** 2
    cov = np.linalg.inv(precision)
    coef = cov @ (rows.T @ (weights * np.asarray(elo, dtype=float)))
    return Quadratic(tuple(p.low for p in params), tuple(p.high - p.low for p in params), tuple(map(float, coef)),
                     tuple(tuple(map(float, row)) for row in cov))


@dataclass(frozen=True)
class PathEstimate:
    """The estimated Elo of each point of SPSA's path over its start, with standard deviations."""

    elo: tuple[float, ...]
    sd: tuple[float, ...]


def path_elo(params: Sequence[Param], plus: Sequence[Sequence[float]], minus: Sequence[Sequence[float]],
             elo: Sequence[float], noise: Sequence[float], path: Sequence[Sequence[float]]) -> PathEstimate | None:
    """The Elo over ``path[0]`` (the start) of ``path[k]``, theta after iteration ``k``, each
    step valued by the model fitted to the other iterations' parity (cross-fitting); None
    with fewer than two iterations."""
    if len(plus) < 2:
        return None
    folds = [[i for i in range(len(plus)) if i % 2 == parity] for parity in (0, 1)]
    models = [fit_differences(params, [plus[i] for i in f], [minus[i] for i in f], [elo[i] for i in f],
                              [noise[i] for i in f]) for f in folds]
    sums = [np.zeros(len(models[0].coef)), np.zeros(len(models[1].coef))]
    gain, out_elo, out_sd = 0.0, [], []
    for i in range(len(plus)):
        other = 1 - i % 2                               # iteration i + 1's step, by the other parity's model
        step = models[other].delta(path[i + 1], path[i])
        sums[other] += step
        gain += float(step @ np.array(models[other].coef))
        var = sum(float(s_ @ np.array(m.cov) @ s_) for s_, m in zip(sums, models))
        out_elo.append(gain)
        out_sd.append(math.sqrt(max(0.0, var)))
    return PathEstimate(tuple(out_elo), tuple(out_sd))


BANDWIDTHS = (0.03, 0.05, 0.08, 0.12, 0.2, 0.3, 0.5)   # the smoother's candidates, in z units
PRIORS = (0.5, 1.0, 2.0, 4.0)                         # ... and of the mean's weight, in trials


@dataclass(frozen=True)
class Smoothed:
    """The smoothed Elo of each trial, with the bandwidth and prior weight cross-validation chose."""

    bandwidth: float
    prior: float
    elo: tuple[float, ...]


def _kernel_weights(z: np.ndarray, h: float) -> np.ndarray:
    d2 = ((z[:, None, :] - z[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-0.5 * d2 / h ** 2)


def smooth_values(params: Sequence[Param], points: Sequence[Sequence[float]], elo: Sequence[float]) -> Smoothed:
    """Each point's Elo averaged with its neighbours' (Gaussian weights in ``z``, bandwidth
    ``h``) and with the mean of all points counted as ``m`` more points, so a lone lucky
    trial is pulled back towards the mean and a trial among good neighbours is not; ``h`` and
    ``m`` are those of ``BANDWIDTHS`` x ``PRIORS`` that predict each point best from the
    others (leave-one-out)."""
    z = _scaled(points, params)
    y = np.asarray(elo, dtype=float)
    mean = float(y.mean())
    best = None
    for h in BANDWIDTHS:
        w = _kernel_weights(z, h)
        loo = w - np.diag(np.diag(w))
        for m in PRIORS:
            error = float(np.mean(((loo @ y + m * mean) / (loo.sum(axis=1) + m) - y) ** 2))
            if best is None or error < best[0]:
                best = (error, h, m)
    _, h, m = best
    w = _kernel_weights(z, h)
    return Smoothed(h, m, tuple(map(float, (w @ y + m * mean) / (w.sum(axis=1) + m))))
