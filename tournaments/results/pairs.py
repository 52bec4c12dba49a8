"""A two-engine match's statistics from engine A's side: W/D/L, Elo with its interval, LOS, draw
ratio and the pentanomial counts of its colour-swapped game pairs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable

from .elo import WDL, EloEstimate, match_estimate
from .los import draw_ratio, los

__all__ = ["pentanomial", "PairCounts", "pair_counts", "PairStats", "pair_report"]


def pentanomial(pair_scores: Iterable[float]) -> list[int]:
    """Counts of game-pair scores ``[#0, #0.5, #1, #1.5, #2]``.

    A pair is two games over one opening with colours swapped, scored for the
    same engine.  Raises ``ValueError`` for a score that is not one of the five.
    """
    counts = [0] * 5
    for x in pair_scores:
        k = round(2 * x)
        if not 0 <= k <= 4 or abs(2 * x - k) > 1e-9:
            raise ValueError(f"a game pair scores 0, 0.5, 1, 1.5 or 2, got {x!r}")
        counts[k] += 1
    return counts


@dataclass
class PairStats:
    """Statistics of a two-engine match, from engine A's point of view.

    The Elo is ``elo.match_estimate``'s (from the complete game pairs once there are some);
    ``elo_error`` is half the width of ``[elo_low, elo_high]`` (cutechess's
    "+/-"); ``los`` and ``draw_ratio`` are fractions in [0, 1];
    ``pentanomial`` counts only complete game pairs, ``unpaired`` the games
    that are not part of one.
    """

    name_a: str
    name_b: str
    wins: int
    draws: int
    losses: int
    score: float
    elo: float
    elo_low: float
    elo_high: float
    elo_error: float
    los: float
    draw_ratio: float
    pentanomial: list[int]
    unpaired: int

    @property
    def games(self) -> int:
        """Number of games played."""
        return self.wins + self.draws + self.losses

    @property
    def wdl(self) -> WDL:
        """A's wins, draws and losses."""
        return WDL(self.wins, self.draws, self.losses)

    @property
    def estimate(self) -> EloEstimate:
        """A's Elo and its interval as one value (what every report prints)."""
        return EloEstimate(self.elo, self.elo_low, self.elo_high)


@dataclass(frozen=True)
class PairCounts:
    """A match's counts from engine A's side: its W/D/L, the pentanomial counts of its complete
    colour-swapped pairs, and the games outside one."""

    wdl: tuple[int, int, int]
    pentanomial: list[int]
    unpaired: int


def pair_counts(results: list[tuple[Hashable | None, float]]) -> PairCounts:
    """The counts of ``results`` (``pair_report``'s argument); ValueError for a game score
    other than 0, 0.5 and 1, or a pair of more than two games."""
    wins = draws = losses = 0
    pairs: dict[Hashable, list[float]] = {}
    unpaired = 0
    for index, score in results:
        if score == 1:
            wins += 1
        elif score == 0.5:
            draws += 1
        elif score == 0:
            losses += 1
        else:
            raise ValueError(f"a game scores 0, 0.5 or 1, got {score!r}")
        if index is None:
            unpaired += 1
        else:
            pairs.setdefault(index, []).append(score)
    complete = []
    for index, scores in pairs.items():
        if len(scores) > 2:
            raise ValueError(f"game pair {index!r} has {len(scores)} games")
        if len(scores) == 2:
            complete.append(scores[0] + scores[1])
        else:
            unpaired += 1
    return PairCounts((wins, draws, losses), pentanomial(complete), unpaired)


def pair_report(name_a: str, name_b: str, results: list[tuple[int | None, float]]) -> PairStats:
    """Statistics of a match of A against B.

    ``results`` holds one ``(pair_index, score for A)`` per game, the score 0,
    0.5 or 1; games sharing a pair index are the two colour-swapped games over
    one opening, ``None`` marks a game outside any pair.  A pair index with
    only one game so far is an incomplete pair and does not count in the
    pentanomial; one with more than two games raises ``ValueError``.
    """
    counts = pair_counts(results)
    wins, draws, losses = counts.wdl
    estimate = match_estimate(WDL(wins, draws, losses), counts.pentanomial)
    games = wins + draws + losses
    return PairStats(
        name_a=name_a,
        name_b=name_b,
        wins=wins,
        draws=draws,
        losses=losses,
        score=(wins + 0.5 * draws) / games if games else 0.5,
        elo=estimate.elo,
        elo_low=estimate.low,
        elo_high=estimate.high,
        elo_error=estimate.error,
        los=los(wins, losses),
        draw_ratio=draw_ratio(wins, draws, losses),
        pentanomial=counts.pentanomial,
        unpaired=counts.unpaired,
    )
