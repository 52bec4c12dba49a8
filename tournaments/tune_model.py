"""A quadratic model of Elo over the tuned parameters, fitted to a tune's game results.

Games measure Elo only between two parameter sets, and noisily.  A tune asks two questions
the raw results answer badly: how much stronger is SPSA's current theta than the start (it
never plays the start), and which Optuna trial is really best (the trial with the best
score is mostly the luckiest; the winner's curse).  Both get the same answer here: fit

    elo(x) = b . z + sum_{i <= j} q_ij z_i z_j,     z = (x - min) / (max - min)

by least squares to every measurement, then read the model.  SPSA's iterations measure
differences, ``elo(theta+) - elo(theta-)``; Optuna's trials measure ``elo(trial) -
elo(baseline)``.  Each iteration's or trial's Elo is the logistic Elo of its score, the score
kept half a game from 0 and 1 so that a clean sweep is a large finite number.
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


def fit_values(params: Sequence[Param], points: Sequence[Sequence[float]], elo: Sequence[float]) -> Quadratic:
    """The model from measured ``elo(points[i]) - elo(baseline)`` (Optuna's trials)."""
    feats = _features(_scaled(points, params))
    rows = np.column_stack([np.ones(len(feats)), feats])
    coef = _solve(rows, np.asarray(elo, dtype=float))
    return _model(params, coef[1:])


def unknowns(n: int) -> int:
    """How many coefficients a model of ``n`` parameters has (without the constant)."""
    return n + n * (n + 1) // 2
