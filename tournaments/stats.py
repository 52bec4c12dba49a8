"""Match statistics for the tournament manager, in the manner of cutechess and fastchess.

Models
------
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

*Likelihood of superiority.*  ``LOS = 1/2 (1 + erf((W - L) / sqrt(2 (W + L))))``
is the probability that the player is the stronger one, given only decisive
games (a normal approximation to the binomial of wins among decisive games);
the formula used by cutechess.

*SPRT.*  Wald's sequential probability ratio test of H0: Elo = elo0 against
H1: Elo = elo1, stopping when the log-likelihood ratio leaves
``(log(beta/(1-alpha)), log((1-beta)/alpha))``.  The LLR is the normal
approximation of the generalised SPRT (Michel Van den Bergh's derivation, as
fishtest's simplified form and fastchess's "logistic" model compute it): with
the expected scores ``s0``, ``s1`` of the two hypotheses (through the logistic
curve) and the sample mean ``s`` and variance ``var`` per sampling unit,
``LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)``, ``N`` being the number of
units: games in the trinomial case, pairs (with the normalised pair score
``x`` above) in the pentanomial case.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Iterable, Sequence

__all__ = [
    "elo_from_score",
    "score_from_elo",
    "WDL",
    "elo_interval",
    "los",
    "draw_ratio",
    "pentanomial",
    "elo_interval_pentanomial",
    "SPRT",
    "PairStats",
    "pair_report",
    "summary_line",
    "rating_table",
    "crosstable",
]

#: The normalised pair scores of the five pentanomial classes (pair score / 2).
_PAIR_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)


# --------------------------------------------------------------------------- Elo


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


def _z(confidence: float) -> float:
    """Two-sided standard normal quantile for a confidence level in (0, 1)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def _check_counts(**counts: int) -> None:
    for name, value in counts.items():
        if value < 0 or value != int(value):
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def _interval(mean: float, var: float, n: int, confidence: float) -> tuple[float, float, float]:
    """Normal interval ``mean -+ z sqrt(var / n)`` on the score scale, mapped to Elo.

    The score bounds are clamped to [0, 1], so a bound at or beyond an end maps
    to -inf / +inf Elo instead of raising.
    """
    z = _z(confidence)
    se = math.sqrt(var / n)
    low = min(max(mean - z * se, 0.0), 1.0)
    high = min(max(mean + z * se, 0.0), 1.0)
    return elo_from_score(mean), elo_from_score(low), elo_from_score(high)


def _half_width(low: float, high: float) -> float:
    """The "+/-" of an Elo interval: half its width (inf if a bound is infinite)."""
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2.0


# --------------------------------------------------------------------------- W/D/L


@dataclass(frozen=True)
class WDL:
    """Wins, draws and losses of one player (against one opponent or a field)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __post_init__(self) -> None:
        _check_counts(wins=self.wins, draws=self.draws, losses=self.losses)

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
    _check_counts(wins=w, draws=d, losses=l)
    _z(confidence)
    n = w + d + l
    if n == 0:
        return 0.0, -math.inf, math.inf
    s = (w + 0.5 * d) / n
    var = (w * (1.0 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    return _interval(s, var, n, confidence)


def los(w: int, l: int) -> float:
    """Likelihood of superiority in [0, 1]: ``0.5 * (1 + erf((w - l) / sqrt(2 (w + l))))``.

    0.5 when there is no decisive game.
    """
    _check_counts(wins=w, losses=l)
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


def draw_ratio(w: int, d: int, l: int) -> float:
    """Fraction of the games that were drawn (0 when no game was played)."""
    _check_counts(wins=w, draws=d, losses=l)
    n = w + d + l
    return d / n if n else 0.0


# --------------------------------------------------------------------------- game pairs


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


REGULARIZER = 1e-3


def _regularize(counts: Sequence[float]) -> tuple[float, ...]:
    """Empty outcome bins get a tiny count (as fastchess does), so that a one-sided result
    (say all wins) has a non-zero variance and its LLR grows instead of staying 0."""
    return tuple(c if c > 0 else REGULARIZER for c in counts)


def _constrained_mle(values: Sequence[float], counts: Sequence[float], mean: float) -> list[float]:
    """The outcome probabilities of highest likelihood for ``counts`` whose expectation is ``mean``.

    Lagrange: ``p_i = f_i / (1 + lam * (x_i - mean))`` with ``f_i`` the observed
    frequencies and ``lam`` the root of ``sum p_i (x_i - mean) = 0``, found by
    bisection on the interval that keeps every ``p_i`` positive.
    """
    total = sum(counts)
    freqs = [c / total for c in counts]
    lo = -1.0 / (max(values) - mean)
    hi = 1.0 / (mean - min(values))

    def slope(lam: float) -> float:  # decreasing in lam
        return sum(f * (x - mean) / (1.0 + lam * (x - mean)) for f, x in zip(freqs, values))

    a, b = lo, hi
    for _ in range(200):
        mid = 0.5 * (a + b)
        if mid in (a, b):
            break
        if slope(mid) > 0:
            a = mid
        else:
            b = mid
    lam = 0.5 * (a + b)
    probs = [f / (1.0 + lam * (x - mean)) for f, x in zip(freqs, values)]
    norm = sum(probs)
    return [p / norm for p in probs]


def _pair_moments(counts: Sequence[float]) -> tuple[float, float, float]:
    """Number of pairs, mean and variance of the normalised pair score ``pair score / 2``."""
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts have 5 entries, got {len(counts)}")
    if any(c < 0 for c in counts):
        _check_counts(**{f"counts[{i}]": c for i, c in enumerate(counts)})
    n = sum(counts)
    if n == 0:
        return 0, 0.5, 0.0
    s = sum(c * x for c, x in zip(counts, _PAIR_VALUES)) / n
    var = sum(c * (x - s) ** 2 for c, x in zip(counts, _PAIR_VALUES)) / n
    return n, s, var


def elo_interval_pentanomial(counts: Sequence[int], confidence: float = 0.95) -> tuple[float, float, float]:
    """Elo estimate and confidence interval ``(elo, low, high)`` from pentanomial counts.

    As fastchess: the mean of the per-pair score / 2, its variance over the
    ``P`` pairs, standard error ``sqrt(var / P)``, and the score interval
    mapped through :func:`elo_from_score` (clamped as in :func:`elo_interval`).
    No pairs give ``(0, -inf, inf)``.
    """
    _z(confidence)
    n, s, var = _pair_moments(counts)
    if n == 0:
        return 0.0, -math.inf, math.inf
    return _interval(s, var, n, confidence)


# --------------------------------------------------------------------------- SPRT


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
        outcome probabilities whose expected score is ``s0``/``s1`` (``_constrained_mle``);
        empty bins get a count of 1e-3 (as fastchess does).  0 with no games.
        """
        _check_counts(wins=w, draws=d, losses=l)
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
        _check_counts(**{f"counts[{i}]": c for i, c in enumerate(counts)})
        if sum(counts) == 0:
            return 0.0
        return self._gsprt(_PAIR_VALUES, tuple(counts))

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
        counts = _regularize(counts)
        p0 = _constrained_mle(values, counts, self.s0)
        p1 = _constrained_mle(values, counts, self.s1)
        return sum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0))

    def status(self, llr: float) -> str | None:
        """``"H0"`` if ``llr <= lower``, ``"H1"`` if ``llr >= upper``, else ``None`` (continue)."""
        if llr <= self.lower:
            return "H0"
        if llr >= self.upper:
            return "H1"
        return None


# --------------------------------------------------------------------------- two-engine report


@dataclass
class PairStats:
    """Statistics of a two-engine match, from engine A's point of view.

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


def pair_report(name_a: str, name_b: str, results: list[tuple[int | None, float]]) -> PairStats:
    """Statistics of a match of A against B.

    ``results`` holds one ``(pair_index, score for A)`` per game, the score 0,
    0.5 or 1; games sharing a pair index are the two colour-swapped games over
    one opening, ``None`` marks a game outside any pair.  A pair index with
    only one game so far is an incomplete pair and does not count in the
    pentanomial; one with more than two games raises ``ValueError``.
    """
    wins = draws = losses = 0
    pairs: dict[int, list[float]] = {}
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
    elo, low, high = elo_interval(wins, draws, losses)
    games = wins + draws + losses
    return PairStats(
        name_a=name_a,
        name_b=name_b,
        wins=wins,
        draws=draws,
        losses=losses,
        score=(wins + 0.5 * draws) / games if games else 0.5,
        elo=elo,
        elo_low=low,
        elo_high=high,
        elo_error=_half_width(low, high),
        los=los(wins, losses),
        draw_ratio=draw_ratio(wins, draws, losses),
        pentanomial=pentanomial(complete),
        unpaired=unpaired,
    )


def summary_line(name_a: str, name_b: str, wins_a: int, wins_b: int, draws: int) -> str:
    """The final summary line of a two-engine match, exactly as the seed articles print it.

    ``Final results: Player 1 "A", wins = 54. Player 2 "B", wins = 46. Draws = 0. 100 game(s) played``
    """
    games = wins_a + wins_b + draws
    return (
        f'Final results: Player 1 "{name_a}", wins = {wins_a}. '
        f'Player 2 "{name_b}", wins = {wins_b}. '
        f"Draws = {draws}. {games} game(s) played"
    )


# --------------------------------------------------------------------------- tables


def _fmt_points(points: float) -> str:
    """Points as ``6`` or ``6.5`` (they are always multiples of a half)."""
    return f"{points:.0f}" if points == int(points) else f"{points:.1f}"


def _fmt_elo(value: float) -> str:
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.2f}"


def _render(header: list[str], rows: list[list[str]], left: set[int]) -> str:
    """Align columns: those in ``left`` to the left, the others to the right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join(line(r) for r in [header, *rows])


def rating_table(scores: dict[str, WDL]) -> str:
    """A text table of engines against the field, best score first.

    Columns: rank, name, games, points, score %, Elo (``elo_from_score`` of the
    score), "+/-" (half-width of the 95 % interval of :func:`elo_interval`),
    draws %.  Ties in score are broken by points, then name.  One header line
    and one line per engine.
    """
    order = sorted(scores.items(), key=lambda item: (-item[1].score, -item[1].points, item[0]))
    header = ["Rank", "Name", "Games", "Points", "Score%", "Elo", "+/-", "Draw%"]
    rows = []
    for rank, (name, r) in enumerate(order, 1):
        elo, low, high = elo_interval(r.wins, r.draws, r.losses)
        rows.append([
            str(rank),
            name,
            str(r.games),
            _fmt_points(r.points),
            f"{100 * r.score:.1f}",
            _fmt_elo(elo),
            _fmt_elo(_half_width(low, high)),
            f"{100 * draw_ratio(r.wins, r.draws, r.losses):.1f}",
        ])
    return _render(header, rows, left={1})


def crosstable(names: list[str], results: dict[tuple[str, str], WDL]) -> str:
    """A square round-robin table: each cell the row engine's points against the column engine.

    ``results[(a, b)]`` is a's W/D/L against b.  Each unordered pair may be
    given under either order, or under both as mirror images of each other
    (anything else raises ``ValueError``); a missing pair counts as no games.
    Cells read ``p/n`` (e.g. ``6.5/10``), ``-`` on the diagonal, and a final
    ``Total`` column sums the row.  One header line and one line per engine,
    in the order of ``names``.
    """
    if len(set(names)) != len(names):
        raise ValueError("engine names must be distinct")
    known = set(names)
    for a, b in results:
        if a not in known or b not in known:
            raise ValueError(f"result for unknown engine pair {(a, b)!r}")
        if a == b:
            raise ValueError(f"an engine does not play itself: {a!r}")

    def against(a: str, b: str) -> WDL:
        direct, reverse = results.get((a, b)), results.get((b, a))
        if direct is not None and reverse is not None:
            if reverse.mirrored() != direct:
                raise ValueError(f"results for {a!r} v {b!r} and {b!r} v {a!r} disagree")
            return direct
        if direct is not None:
            return direct
        if reverse is not None:
            return reverse.mirrored()
        return WDL()

    header = ["", *names, "Total"]
    rows = []
    for a in names:
        total = WDL()
        cells = [a]
        for b in names:
            if a == b:
                cells.append("-")
                continue
            r = against(a, b)
            total = total + r
            cells.append(f"{_fmt_points(r.points)}/{r.games}")
        cells.append(f"{_fmt_points(total.points)}/{total.games}")
        rows.append(cells)
    return _render(header, rows, left={0})
