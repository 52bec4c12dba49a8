"""The likelihood of superiority and the draw ratio of a match.

*Likelihood of superiority.*  ``LOS = 1/2 (1 + erf((W - L) / sqrt(2 (W + L))))``
is the probability that the player is the stronger one, given only decisive
games (a normal approximation to the binomial of wins among decisive games);
the formula used by cutechess.
"""
from __future__ import annotations

import math

from .elo import check_counts

__all__ = ["los", "draw_ratio"]


def los(w: int, l: int) -> float:
    """Likelihood of superiority in [0, 1]: ``0.5 * (1 + erf((w - l) / sqrt(2 (w + l))))``.

    0.5 when there is no decisive game.
    """
    check_counts(wins=w, losses=l)
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


def draw_ratio(w: int, d: int, l: int) -> float:
    """Fraction of the games that were drawn (0 when no game was played)."""
    check_counts(wins=w, draws=d, losses=l)
    n = w + d + l
    return d / n if n else 0.0
