"""One rating list from the games of many journals (``mcts-tournament ratings``), as BayesElo
and Ordo give one: every engine's Elo on one scale, with its interval.

*The model.*  An engine ``i`` rated ``r_i`` is expected to score
``e_ij = 1 / (1 + 10 ** (-(r_i - r_j) / 400))`` against ``j`` (logistic Elo, a draw half a
point).  The ratings are the maximum-likelihood ones for the points every engine scored
against every other, found by Hunter's MM iteration for the Bradley-Terry model; a prior of
one drawn game pair between every two engines that met (BayesElo's default of two virtual
draws) keeps perfect and zero scores finite.  The scale is fixed by its mean (0) or by an
anchor engine's rating.

*The intervals.*  From the curvature of the likelihood (Fisher information), each pairing's
games weighted by how much a game tells at its expected score: ``n e^2 (1-e)^2 / v`` with
``v = e (1 - e) - draws / 4`` the variance of a game's points given the pairing's draw
ratio (draws tell less than wins and losses), inverted under the scale's constraint.
Engines in separate groups that never met, directly or through others, have no common
scale; the list says so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .elo import PRIOR_GAMES, WDL, z_quantile

__all__ = ["Rating", "RatingList", "rate", "ratings_text"]

SCALE = 400.0 / math.log(10.0)       # Elo per natural-log unit of the strength ratio
ITERATIONS = 10000
TOLERANCE = 1e-10


@dataclass(frozen=True)
class Rating:
    """One engine in the list: its Elo with the interval's half-width (+/-), and its record."""

    name: str
    elo: float
    error: float
    record: WDL


@dataclass(frozen=True)
class RatingList:
    """The ratings, best first; ``groups`` > 1 when some engines never met the others."""

    ratings: tuple[Rating, ...]
    groups: int
    anchor: str | None
    games: int


def _pair_counts(games: list[dict]) -> tuple[list[str], dict[tuple[int, int], WDL]]:
    """The engines (in order of appearance) and, per ordered pair (i < j), i's W/D/L against j."""
    names: list[str] = []
    index: dict[str, int] = {}
    pairs: dict[tuple[int, int], WDL] = {}
    for g in games:
        a, b = g["players"]
        for n in (a, b):
            if n not in index:
                index[n] = len(names)
                names.append(n)
        score = g["score_first"]
        i, j = index[a], index[b]
        if i > j:
            i, j, score = j, i, 1.0 - score
        pairs[(i, j)] = pairs.get((i, j), WDL()) + WDL.of(score)
    return names, pairs


def _groups(n: int, pairs) -> list[int]:
    """The connected group of each engine (engines linked by games)."""
    group = list(range(n))

    def find(x: int) -> int:
        while group[x] != x:
            group[x] = group[group[x]]
            x = group[x]
        return x
    for i, j in pairs:
        group[find(i)] = find(j)
    return [find(i) for i in range(n)]


def _strengths(n: int, games: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Bradley-Terry strengths (ratios) by Hunter's MM iteration: ``games[i, j]`` games
    between i and j, ``points[i]`` i's points (the prior included)."""
    gamma = np.ones(n)
    for _ in range(ITERATIONS):
        denominators = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = points / denominators
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(gamma))) < TOLERANCE:
            return new
        gamma = new
    return gamma


def rate(games: list[dict], anchor: str | None = None, anchor_elo: float = 0.0,
         confidence: float = 0.95) -> RatingList:
    """The rating list of ``games`` (journal game records); ValueError for an unknown anchor."""
    names, pairs = _pair_counts(games)
    n = len(names)
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor {anchor!r} played no game here (engines: {', '.join(names)})")
    counts = np.zeros((n, n))
    points = np.zeros(n)
    draws = np.zeros((n, n))
    for (i, j), wdl in pairs.items():
        prior = PRIOR_GAMES[1]
        counts[i, j] = counts[j, i] = wdl.games + prior
        points[i] += wdl.points + prior / 2
        points[j] += wdl.losses + wdl.draws / 2 + prior / 2
        draws[i, j] = draws[j, i] = (wdl.draws + prior) / (wdl.games + prior)
    elo = SCALE * np.log(_strengths(n, counts, points)) if n else np.zeros(0)
    errors = _errors(elo, counts, draws, names.index(anchor) if anchor else None, z_quantile(confidence))
    shift = (anchor_elo - elo[names.index(anchor)]) if anchor else -elo.mean() if n else 0.0
    records = {name: WDL() for name in names}
    for (i, j), wdl in pairs.items():
        records[names[i]] = records[names[i]] + wdl
        records[names[j]] = records[names[j]] + wdl.mirrored()
    out = sorted((Rating(name, float(elo[k] + shift), float(errors[k]), records[name]) for k, name in enumerate(names)),
                 key=lambda r: (-r.elo, r.name))
    return RatingList(tuple(out), len(set(_groups(n, pairs))), anchor, len(games))


def _errors(elo: np.ndarray, counts: np.ndarray, draws: np.ndarray, anchor: int | None, z: float) -> np.ndarray:
    """Each rating's +/-: z standard errors from the inverse Fisher information, under the
    constraint that fixes the scale (the mean, or the anchor at its value)."""
    n = len(elo)
    if n < 2:
        return np.zeros(n)
    expected = 1.0 / (1.0 + np.exp(-(elo[:, None] - elo[None, :]) / SCALE))
    spread = expected * (1.0 - expected)
    variance = np.maximum(spread - draws / 4.0, 1e-9)
    weight = counts * spread ** 2 / variance / SCALE ** 2
    np.fill_diagonal(weight, 0.0)
    info = np.diag(weight.sum(axis=1)) - weight
    if anchor is None:
        cov = np.linalg.pinv(info)
    else:
        keep = [k for k in range(n) if k != anchor]
        cov = np.zeros((n, n))
        cov[np.ix_(keep, keep)] = np.linalg.pinv(info[np.ix_(keep, keep)])
    return z * np.sqrt(np.clip(np.diag(cov), 0.0, None))


def ratings_text(rating_list: RatingList) -> str:
    """The list as a table, best first, and a line on what fixes the scale."""
    header = ["Rank", "Name", "Elo", "+/-", "Games", "Points", "Score%", "Draw%"]
    rows = []
    for rank, r in enumerate(rating_list.ratings, 1):
        w = r.record
        rows.append([str(rank), r.name, f"{r.elo:.1f}", f"{r.error:.1f}", str(w.games),
                     f"{w.points:g}", f"{100 * w.score:.1f}", f"{100 * w.draws / w.games if w.games else 0:.1f}"])
    widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
    lines = ["  ".join(c.ljust(wd) if k == 1 else c.rjust(wd) for k, (c, wd) in enumerate(zip(row, widths))).rstrip()
             for row in [header, *rows]]
    scale = f"{rating_list.anchor} is the anchor" if rating_list.anchor else "the mean rating is 0"
    lines.append(f"{rating_list.games} games; {scale}; 95% intervals; prior: one drawn pair between engines that met")
    if rating_list.groups > 1:
        lines.append(f"warning: the engines fall into {rating_list.groups} groups that never met one another: "
                     "ratings of different groups are not comparable")
    return "\n".join(lines)
