"""SPSA as fishtest and OpenBench run it: the gain schedule, the perturbation, the update.

Simultaneous perturbation stochastic approximation moves every parameter at once: each
iteration ``k`` (1, 2, ... N) flips a fair coin per parameter, plays
``theta+ = theta + c_k * flip`` against ``theta- = theta - c_k * flip`` in colour-swapped game
pairs, and moves theta towards the winner::

    theta <- clamp(theta + R_k * c_k * (W - L) * flip)

with ``W - L`` theta+'s wins minus losses over the iteration's games.  The schedule is
fishtest's, with an iteration as the unit as in OpenBench (fishtest's own unit is the game
pair, the same thing with one pair per iteration)::

    A   = int(0.1 * N)                            (the A ratio, 0.1 by default)
    c   = c_end * N ** gamma                      c_k = c / k ** gamma
    a   = r_end * c_end ** 2 * (A + N) ** alpha   a_k = a / (A + k) ** alpha,  R_k = a_k / c_k ** 2

with ``alpha = 0.602`` and ``gamma = 0.101``, so ``c_N = c_end`` and ``R_N = r_end``: the
last iteration perturbs by ``c_end`` and learns at ``r_end``.  An integer parameter's
``c_k`` is at least 0.5 and theta+ and theta- are rounded with the same random ``u``
(OpenBench), so they always differ by at least one.

Against an opponent (``--opponent``) theta+ and theta- each play the iteration's pairs against
it instead of each other, and ``W - L`` is replaced by ``opponent_result``: the difference of
their wins minus losses against it, which ``W - L`` of theta+ against theta- would be on
average (see there), so the update and its gains mean the same.

Every random draw of iteration ``k`` comes from a generator seeded by ``(seed, k)``, so an
iteration is the same whether the run went straight through or was killed and resumed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..results.elo import WDL
from .defaults import A_RATIO, ALPHA, GAMMA
from .params import Param, clamp, round_random

MIN_INT_C = 0.5       # an integer parameter's smallest perturbation (OpenBench)


@dataclass(frozen=True)
class Schedule:
    """The gains of an N-iteration SPSA run, per parameter."""

    iterations: int
    big_a: int                      # fishtest's A
    alpha: float
    gamma: float
    c: tuple[float, ...]            # c_end * N ** gamma
    a: tuple[float, ...]            # r_end * c_end ** 2 * (A + N) ** alpha
    integer: tuple[bool, ...]

    def c_at(self, k: int) -> np.ndarray:
        """The perturbation of iteration ``k`` (1-based), per parameter."""
        c = np.array(self.c) / k ** self.gamma
        return np.where(self.integer, np.maximum(c, MIN_INT_C), c)

    def r_at(self, k: int) -> np.ndarray:
        """The learning rate ``R_k = a_k / c_k ** 2`` of iteration ``k``, per parameter."""
        return np.array(self.a) / (self.big_a + k) ** self.alpha / self.c_at(k) ** 2


def make_schedule(params: Sequence[Param], iterations: int, a_ratio: float = A_RATIO, alpha: float = ALPHA,
                  gamma: float = GAMMA) -> Schedule:
    """fishtest's schedule for ``iterations`` iterations; every parameter needs c_end and r_end."""
    missing = [p.name for p in params if p.c_end is None or p.r_end is None]
    if missing:
        raise ValueError(f"SPSA needs c_end and r_end for {', '.join(missing)} "
                         "(name,start,min,max,c_end,r_end)")
    if iterations < 1:
        raise ValueError("SPSA needs at least one iteration")
    big_a = int(a_ratio * iterations)
    c = tuple(p.c_end * iterations ** gamma for p in params)
    a = tuple(p.r_end * p.c_end ** 2 * (big_a + iterations) ** alpha for p in params)
    return Schedule(iterations, big_a, alpha, gamma, c, a, tuple(bool(p.integer) for p in params))


@dataclass(frozen=True)
class Probe:
    """What iteration ``k`` plays: the flips, the gains, and the two value sets."""

    k: int
    flips: tuple[int, ...]
    c: tuple[float, ...]
    r: tuple[float, ...]
    plus: tuple[float, ...]         # theta + c * flip, rounded (ints) and clamped
    minus: tuple[float, ...]        # theta - c * flip, likewise


def rng_for(seed: int, k: int) -> np.random.Generator:
    """The random stream of iteration ``k``: the same on a resumed run."""
    return np.random.default_rng([seed, k])


def probe(params: Sequence[Param], schedule: Schedule, theta: Sequence[float], k: int, seed: int) -> Probe:
    """Iteration ``k``'s perturbation around ``theta``."""
    rng = rng_for(seed, k)
    n = len(params)
    flips = rng.choice(np.array([-1, 1]), size=n)
    u = rng.random(n)
    c = schedule.c_at(k)
    theta = np.asarray(theta, dtype=float)
    plus = clamp(round_random(theta + c * flips, params, u), params)
    minus = clamp(round_random(theta - c * flips, params, u), params)
    return Probe(k, tuple(int(f) for f in flips), tuple(map(float, c)), tuple(map(float, schedule.r_at(k))),
                 tuple(map(float, plus)), tuple(map(float, minus)))


def update(params: Sequence[Param], theta: Sequence[float], p: Probe, result: float) -> tuple[float, ...]:
    """theta after iteration ``p.k``: ``theta + R_k * c_k * result * flip``, clamped, where
    ``result`` is theta+'s wins minus losses."""
    step = np.array(p.r) * np.array(p.c) * result * np.array(p.flips)
    return tuple(map(float, clamp(np.asarray(theta, dtype=float) + step, params)))


def opponent_result(plus: WDL, minus: WDL) -> int:
    """What ``update`` takes, theta+'s wins minus losses against theta-, from theta+'s and
    theta-'s results against a common opponent over the same openings:
    ``(W+ - L+) - (W- - L-)``.

    ``update`` wants ``W - L`` of ``2K`` games of theta+ against theta-, whose expectation is
    ``2K * (2 s - 1)`` with ``s`` theta+'s expected score.  Near an even score the score is
    linear in Elo, ``s = 1/2 + b * (elo(theta+) - elo(theta-))``; each side's score against
    the opponent is ``s+- = 1/2 + b * (elo(theta+-) - elo(opponent))``, so the opponent's
    Elo cancels in ``s+ - s- = s - 1/2`` (not half of it: the equivalent score of theta+
    against theta- is ``1/2 + (s+ - s-)``).  Over ``2K`` games each,
    ``(W+ - L+) - (W- - L-) = 2 * (points+ - points-)`` has the expectation
    ``2K * 2 * (s+ - s-) = 2K * (2 s - 1)``: the same step on average as self-play for the
    same ``c_end`` and ``r_end``.  It is noisier: the two sides' noises add up (a variance up
    to twice self-play's, less what the shared openings make them share); and against an
    opponent much stronger or weaker than the engine ``b`` is smaller (the logistic's slope
    away from 1/2), and so is the step.
    """
    return (plus.wins - plus.losses) - (minus.wins - minus.losses)
