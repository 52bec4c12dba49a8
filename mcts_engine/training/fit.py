"""The fit: logistic regression of the labels on the learned evaluation's features, with numpy.

The model's logit for the side to move is ``phase * (full weights' sum) + (1 - phase) * (empty
board weights' sum)``, over the regions' patterns and the scalar features (learned.py); the loss
is the cross-entropy against the labels (a texel-style fit: soft labels in [0, 1]) plus ``l2``
times the squared pattern weights (a pattern seen in few positions stays near 0).  It runs full
batch Adam for ``steps`` steps, its step size falling linearly to 0: every sum in a fixed order
(``np.bincount``), so the same data gives the same weights.  Whole games are held out (their
positions are too alike to be split), and the held-out loss is reported.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..rules.draughts.learned import KING_BITS, MAX_WEIGHT, PATTERN_SIZE, SCALARS, LearnedWeights, PatternLayout
from .features import Features, scalar_count

EPSILON = 1e-12
UNIT = 1000              # integer weights per unit of logit


@dataclass(frozen=True)
class FitConfig:
    """How to fit: ``steps`` of full-batch Adam at ``learning_rate`` (falling linearly to 0),
    ``l2`` on the pattern weights; ``holdout``: the share of games held out, drawn with ``seed``."""

    steps: int = 300
    learning_rate: float = 0.05
    l2: float = 1e-6
    holdout: float = 0.1
    seed: int = 1


@dataclass
class Model:
    """Float weights: ``patterns`` (regions * PATTERN_SIZE, 2) and ``scalars`` (one row per
    scalar column of the features: ``SCALARS``, then the king squares), each row (full board,
    empty board), in units of logit."""

    patterns: np.ndarray
    scalars: np.ndarray

    @classmethod
    def zeros(cls, layout: PatternLayout) -> "Model":
        """The model that says 0.5 everywhere."""
        return cls(np.zeros((len(layout.regions) * PATTERN_SIZE, 2)), np.zeros((scalar_count(layout), 2)))

    def logits(self, f: Features) -> np.ndarray:
        """The side to move's logit of each position."""
        full = self.patterns[f.columns, 0].sum(axis=1) + f.scalars @ self.scalars[:, 0]
        empty = self.patterns[f.columns, 1].sum(axis=1) + f.scalars @ self.scalars[:, 1]
        return f.phase * full + (1.0 - f.phase) * empty

    def chances(self, f: Features) -> np.ndarray:
        """The side to move's winning chance of each position."""
        return sigmoid(self.logits(f))


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -700.0, 700.0)))


def cross_entropy(chances: np.ndarray, targets: np.ndarray) -> float:
    """The mean cross-entropy of ``chances`` against ``targets`` (both in [0, 1])."""
    if not len(targets):
        return float("nan")
    p = np.clip(chances, EPSILON, 1.0 - EPSILON)
    return float(-np.mean(targets * np.log(p) + (1.0 - targets) * np.log(1.0 - p)))


def held_out_games(games: np.ndarray, share: float, seed: int) -> np.ndarray:
    """A boolean mask of the positions whose game is held out (``share`` of the games, drawn
    with ``seed``; none when there are fewer than two games)."""
    numbers = np.unique(games)
    count = int(round(share * len(numbers))) if len(numbers) > 1 else 0
    chosen = np.random.default_rng(seed).permutation(numbers)[:count]
    return np.isin(games, chosen)


def _gradient(model: Model, f: Features, targets: np.ndarray, l2: float) -> tuple[np.ndarray, np.ndarray]:
    error = (model.chances(f) - targets) / len(targets)
    regions = f.columns.shape[1]
    flat = f.columns.ravel()
    size = model.patterns.shape[0]
    g_patterns = np.stack([np.bincount(flat, weights=np.repeat(error * f.phase, regions), minlength=size),
                           np.bincount(flat, weights=np.repeat(error * (1.0 - f.phase), regions), minlength=size)],
                          axis=1)
    g_patterns += 2.0 * l2 * model.patterns
    g_scalars = np.stack([f.scalars.T @ (error * f.phase), f.scalars.T @ (error * (1.0 - f.phase))], axis=1)
    return g_patterns, g_scalars


def fit(f: Features, targets: np.ndarray, layout: PatternLayout, config: FitConfig,
        on_step: Callable[[int, float], None] | None = None) -> Model:
    """The model fitted to ``targets`` (the side to move's, in [0, 1]) on features ``f``;
    ``on_step(step, training loss)`` after each step (a progress bar)."""
    model = Model.zeros(layout)
    moments = [[np.zeros_like(p), np.zeros_like(p)] for p in (model.patterns, model.scalars)]
    beta1, beta2 = 0.9, 0.999
    for step in range(1, config.steps + 1):
        grads = _gradient(model, f, targets, config.l2)
        rate = config.learning_rate * (1.0 - (step - 1) / config.steps)
        for param, grad, (m, v) in zip((model.patterns, model.scalars), grads, moments):
            m *= beta1
            m += (1.0 - beta1) * grad
            v *= beta2
            v += (1.0 - beta2) * grad * grad
            param -= rate * (m / (1.0 - beta1 ** step)) / (np.sqrt(v / (1.0 - beta2 ** step)) + 1e-8)
        if on_step is not None:
            on_step(step, cross_entropy(model.chances(f), targets) if step == config.steps or step % 25 == 0
                    else float("nan"))
    return model


def integer_weights(model: Model, layout: PatternLayout, variant: str, header: tuple[str, ...]) -> LearnedWeights:
    """The model as a weights file holds it: integers, ``UNIT`` per unit of logit."""
    def whole(x: np.ndarray) -> np.ndarray:
        return np.clip(np.rint(x * UNIT), -MAX_WEIGHT, MAX_WEIGHT).astype(np.int64)
    patterns = whole(model.patterns).reshape(len(layout.regions), PATTERN_SIZE, 2).astype(np.int32)
    rows = whole(model.scalars)
    scalars = tuple((int(a), int(b)) for a, b in rows[:len(SCALARS)])
    kings = np.zeros((KING_BITS, 2), dtype=np.int32)
    kings[:layout.top_bit + 1] = rows[len(SCALARS):]
    return LearnedWeights(variant, layout.signature, UNIT, scalars, patterns, header, kings)


def integer_model(weights: LearnedWeights, layout: PatternLayout) -> Model:
    """The float model an integer file gives (to score it on the held-out positions)."""
    rows = np.concatenate([np.array(weights.scalars, dtype=np.float64), weights.kings[:layout.top_bit + 1]])
    return Model(weights.patterns.reshape(-1, 2).astype(np.float64) / weights.unit, rows / weights.unit)
