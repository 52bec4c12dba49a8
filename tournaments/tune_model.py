"""Models of Elo over the tuned parameters, fitted to a tune's game results.

Games measure Elo only between two parameter sets, and noisily.  A tune asks two questions
the raw results answer badly:

* How much stronger is SPSA's theta than the start?  It never plays the start; its
  iterations measure differences ``elo(theta+) - elo(theta-)``.  A quadratic

      elo(x) = b . z + sum_{i <= j} q_ij z_i z_j,     z = (x - min) / (max - min)

  fitted to those differences by least squares gives Elo along the whole path.
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

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .stats import elo_from_score
from .tune_params import Param


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


@dataclass(frozen=True)
class Quadratic:
    """A fitted Elo model; ``elo(x)`` is defined up to a constant: compare two points."""

    low: tuple[float, ...]
    span: tuple[float, ...]
    coef: tuple[float, ...]

    def elo(self, x: Sequence[float]) -> float:
        """The model's Elo at ``x`` (up to a constant)."""
        z = (np.asarray(x, dtype=float)[None, :] - np.array(self.low)) / np.array(self.span)
        return float((_features(z) @ np.array(self.coef))[0])

    def gain(self, x: Sequence[float], start: Sequence[float]) -> float:
        """How many Elo ``x`` is better than ``start``."""
        return self.elo(x) - self.elo(start)


def _scaled(points: Sequence[Sequence[float]], params: Sequence[Param]) -> np.ndarray:
    low = np.array([p.low for p in params])
    span = np.array([p.high - p.low for p in params])
    return (np.asarray(points, dtype=float).reshape(-1, len(params)) - low) / span


def _solve(rows: np.ndarray, y: np.ndarray) -> np.ndarray:
    coef, *_ = np.linalg.lstsq(rows, y, rcond=None)
    return coef


def _model(params: Sequence[Param], coef: np.ndarray) -> Quadratic:
    return Quadratic(tuple(p.low for p in params), tuple(p.high - p.low for p in params), tuple(map(float, coef)))


def fit_differences(params: Sequence[Param], plus: Sequence[Sequence[float]], minus: Sequence[Sequence[float]],
                    elo: Sequence[float]) -> Quadratic:
    """The model from measured ``elo(plus[i]) - elo(minus[i])`` (SPSA's iterations)."""
    rows = _features(_scaled(plus, params)) - _features(_scaled(minus, params))
    return _model(params, _solve(rows, np.asarray(elo, dtype=float)))


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
