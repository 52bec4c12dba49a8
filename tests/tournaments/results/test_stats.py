"""Match statistics: Elo, intervals, LOS, pentanomial counts, SPRT, reports and tables.

Expected values are derived by hand in the comments (rounded intermediate
values shown; the asserts use the unrounded arithmetic).  z = 1.959963985 is
the two-sided 95 % normal quantile.
"""
import math

import pytest

from tournaments.results.elo import (WDL, elo_estimate, elo_estimate_pentanomial, elo_from_score, elo_interval,
                                     elo_interval_pentanomial, match_estimate, score_from_elo)
from tournaments.results.los import draw_ratio, los
from tournaments.results.pairs import pair_report, pentanomial
from tournaments.results.sprt import SPRT
from tournaments.results.tables import crosstable, rating_table, summary_line

Z95 = 1.959963984540054


# --------------------------------------------------------------------------- Elo <-> score


def test_elo_from_score_known_values():
    assert elo_from_score(0.5) == 0.0
    assert not math.copysign(1.0, elo_from_score(0.5)) < 0  # 0.0, not -0.0
    # 0.75: 1/0.75 - 1 = 1/3, -400 log10(1/3) = 400 * 0.4771213 = 190.8485
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(0.75) == pytest.approx(190.848501887865)
    # 10/11: 1/s - 1 = 0.1, -400 log10(0.1) = 400
    assert elo_from_score(10 / 11) == pytest.approx(400.0)
    assert elo_from_score(1 / 11) == pytest.approx(-400.0)


def test_elo_from_score_extremes_and_domain():
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    for bad in (-0.01, 1.01, math.nan):
        with pytest.raises(ValueError):
            elo_from_score(bad)


def test_score_from_elo_inverts_elo_from_score():
    assert score_from_elo(0) == 0.5
    assert score_from_elo(400) == pytest.approx(10 / 11)  # 1 / (1 + 10^-1)
    assert score_from_elo(-400) == pytest.approx(1 / 11)
    for elo in (-800, -123.4, -1, 0.5, 27.85, 300, 1200):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-9)
    for s in (0.01, 0.3, 0.5, 0.54, 0.99):
        assert score_from_elo(elo_from_score(s)) == pytest.approx(s)


def test_score_from_elo_does_not_overflow():
    assert score_from_elo(math.inf) == 1.0
    assert score_from_elo(-math.inf) == 0.0
    assert score_from_elo(1e6) == 1.0
    assert score_from_elo(-1e6) == 0.0


# --------------------------------------------------------------------------- WDL


def test_wdl_properties():
    r = WDL(6, 5, 3)
    assert r.games == 14
    assert r.points == 8.5  # 6 + 5/2
    assert r.score == pytest.approx(8.5 / 14)
    assert r.mirrored() == WDL(3, 5, 6)
    assert r + WDL(1, 1, 1) == WDL(7, 6, 4)


def test_wdl_no_games_and_validation():
    assert WDL().games == 0
    assert WDL().points == 0
    assert WDL().score == 0.5
    with pytest.raises(ValueError):
        WDL(-1, 0, 0)


# --------------------------------------------------------------------------- trinomial interval


def test_elo_interval_seed_match_54_0_46():
    # N = 100, s = 0.54
    # elo = -400 log10(1/0.54 - 1) = -400 log10(0.8518519) = -400 * -0.0696359 = 27.8544
    # var = 0.54 (1 - 0.54)^2 + 0 + 0.46 (0 - 0.54)^2 = 0.54 * 0.46 * (0.46 + 0.54) = 0.2484
    # se = sqrt(0.2484 / 100) = 0.0498397;  z se = 1.959964 * 0.0498397 = 0.0976841
    # low  score 0.54 - 0.0976841 = 0.4423159: 1/s - 1 = 1.2608289, log10 = 0.1006562  -> -40.2623
    # high score 0.54 + 0.0976841 = 0.6376841: 1/s - 1 = 0.5681746, log10 = -0.2455182 -> 98.2073
    elo, low, high = elo_interval(54, 0, 46)
    assert elo == pytest.approx(27.85437125655782, abs=1e-9)
    assert low == pytest.approx(-40.26228566450894, abs=1e-9)
    assert high == pytest.approx(98.20727932210067, abs=1e-9)
    # cutechess's "+/-" is the half-width: (98.2073 + 40.2623) / 2 = 69.2348
    assert (high - low) / 2 == pytest.approx(69.23478249330480, abs=1e-9)


def test_elo_interval_with_draws_and_confidence():
    # 6 W, 2 D, 2 L: s = 7/10 = 0.7, elo = -400 log10(3/7) = 400 * 0.3679768 = 147.1907
    # var = (6 * 0.3^2 + 2 * 0.2^2 + 2 * 0.7^2) / 10 = (0.54 + 0.08 + 0.98) / 10 = 0.16
    # se = sqrt(0.016) = 0.1264911
    elo, low, high = elo_interval(6, 2, 2)
    assert elo == pytest.approx(147.19071411783776)
    se = math.sqrt(0.016)
    assert score_from_elo(low) == pytest.approx(0.7 - Z95 * se)
    assert score_from_elo(high) == pytest.approx(0.7 + Z95 * se)
    # a lower confidence gives a narrower interval around the same estimate
    elo90, low90, high90 = elo_interval(6, 2, 2, confidence=0.90)
    assert elo90 == elo
    assert low < low90 < elo < high90 < high
    with pytest.raises(ValueError):
        elo_interval(6, 2, 2, confidence=1.0)


def test_elo_interval_edge_cases():
    # all wins / all losses: s = 1 (0), var = 0: everything at +inf (-inf), no crash
    assert elo_interval(10, 0, 0) == (math.inf, math.inf, math.inf)
    assert elo_interval(0, 0, 10) == (-math.inf, -math.inf, -math.inf)
    # all draws: s = 0.5, var = 0
    assert elo_interval(0, 10, 0) == (0.0, 0.0, 0.0)
    # no games: no information
    assert elo_interval(0, 0, 0) == (0.0, -math.inf, math.inf)
    # 1 W 1 D: s = 0.75, var = (0.25^2 + 0.25^2)/2 = 0.0625, se = sqrt(0.0625/2) = 0.1767767
    # 0.75 + 1.96 * 0.1768 = 1.0965 > 1 is clamped to 1 -> +inf; low = 0.75 - 0.3465 = 0.4035 -> -67.889
    elo, low, high = elo_interval(1, 1, 0)
    assert elo == pytest.approx(190.848501887865)
    assert low == pytest.approx(-67.88940991190466)
    assert high == math.inf
    # 9 W 1 D: the upper bound is clamped, the rest finite
    elo, low, high = elo_interval(9, 1, 0)
    assert math.isfinite(elo) and math.isfinite(low) and high == math.inf


# --------------------------------------------------------------------------- LOS, draw ratio


def test_los():
    # (54 - 46) / sqrt(2 * 100) = 8 / 14.1421356 = 0.5656854; erf = 0.5762892
    # LOS = 0.5 * (1 + 0.5762892) = 0.7881446
    assert los(54, 46) == pytest.approx(0.7881446014166034, abs=1e-12)
    assert los(46, 54) == pytest.approx(1 - 0.7881446014166034, abs=1e-12)
    assert los(0, 0) == 0.5
    assert los(7, 7) == 0.5
    # 10 wins, no loss: erf(10 / sqrt(20)) = erf(2.236) = 0.99846; LOS = 0.99923
    assert los(10, 0) == pytest.approx(0.5 * (1 + math.erf(10 / math.sqrt(20))))
    assert los(10, 0) > 0.999


def test_draw_ratio():
    assert draw_ratio(3, 2, 5) == 0.2
    assert draw_ratio(0, 7, 0) == 1.0
    assert draw_ratio(54, 0, 46) == 0.0
    assert draw_ratio(0, 0, 0) == 0.0


# --------------------------------------------------------------------------- pentanomial


def test_pentanomial_counts():
    assert pentanomial([]) == [0, 0, 0, 0, 0]
    assert pentanomial([2, 1.5, 1, 1, 0.5, 0, 2, 1.0]) == [1, 1, 3, 1, 2]
    assert pentanomial(iter([1.5, 1.5])) == [0, 0, 0, 2, 0]
    for bad in (2.5, -0.5, 0.25, 3):
        with pytest.raises(ValueError):
            pentanomial([bad])


def test_elo_interval_pentanomial_hand_computed():
    # counts [0, 2, 4, 3, 1]: P = 10 pairs, normalised pair scores 0, .25, .5, .75, 1
    # s = (2*.25 + 4*.5 + 3*.75 + 1*1) / 10 = (0.5 + 2 + 2.25 + 1) / 10 = 0.575
    # var = E[x^2] - s^2 = (2*.0625 + 4*.25 + 3*.5625 + 1) / 10 - 0.575^2
    #     = 0.38125 - 0.330625 = 0.050625
    # se = sqrt(0.050625 / 10) = sqrt(0.0050625) = 0.0711512; z se = 0.1394539
    # elo  = -400 log10(1/0.575 - 1) = -400 log10(0.7391304) = -400 * -0.1312789 = 52.5116
    # low  0.575 - 0.1394539 = 0.4355461: 1/s - 1 = 1.2959681, log10 = 0.1125943 -> -45.0377
    # high 0.575 + 0.1394539 = 0.7144539: 1/s - 1 = 0.3996705, log10 = -0.3982979 -> 159.3192
    elo, low, high = elo_interval_pentanomial([0, 2, 4, 3, 1])
    assert elo == pytest.approx(52.51156585572754, abs=1e-9)
    assert low == pytest.approx(-45.03772697911769, abs=1e-9)
    assert high == pytest.approx(159.3191762347042, abs=1e-9)


def test_elo_interval_pentanomial_edge_cases():
    assert elo_interval_pentanomial([0, 0, 0, 0, 0]) == (0.0, -math.inf, math.inf)
    assert elo_interval_pentanomial([0, 0, 0, 0, 5]) == (math.inf, math.inf, math.inf)
    assert elo_interval_pentanomial([5, 0, 0, 0, 0]) == (-math.inf, -math.inf, -math.inf)
    # every pair 1-1 (a win and a loss, or two draws): s = 0.5, var = 0
    assert elo_interval_pentanomial([0, 0, 7, 0, 0]) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        elo_interval_pentanomial([1, 2, 3])


def test_pentanomial_of_independent_games_matches_trinomial():
    # Games independent with P(W) = 1/2, P(D) = P(L) = 1/4: the pair score is the
    # sum of two such games, out of 16 pairs exactly
    #   2: WW 4;  1.5: WD, DW 2*2*1 = 4;  1: WL, LW 4 + DD 1 = 5;  0.5: DL, LD 2;  0: LL 1
    # These 16 pairs hold 32 games: W = 8+4+4 = 16, D = 4+2+2 = 8, L = 4+2+2 = 8.
    # The pair mean equals the game mean and var(pair/2) = var(game)/2 with half
    # as many units, so the standard errors, intervals and LLRs coincide.
    counts = [1, 2, 5, 4, 4]
    for a, b in zip(elo_interval_pentanomial(counts), elo_interval(16, 8, 8)):
        assert a == pytest.approx(b)
    sprt = SPRT(0, 10)
    # the exact GSPRT works on the outcome distributions, which differ (5 vs 3 bins):
    # the two LLRs agree only approximately ...
    assert sprt.llr_pentanomial(counts) == pytest.approx(sprt.llr(16, 8, 8), rel=0.1)
    # ... and each is pinned (no bin is empty: no regulariser).  Reference values: the
    # constrained maximum-likelihood distributions solved independently, by a bracketing root
    # finder on the Lagrange condition and by direct constrained maximisation (SLSQP), which
    # agree to 1e-12
    assert sprt.llr_pentanomial(counts) == pytest.approx(0.2680234801945991, abs=1e-9)
    assert sprt.llr(16, 8, 8) == pytest.approx(0.2897899474028041, abs=1e-9)


def test_pentanomial_colour_bias_narrows_the_interval():
    # Two openings where whoever is White wins: every pair is 1-1, so the
    # pentanomial variance is 0 while game by game it looks like coin flips.
    assert elo_interval_pentanomial([0, 0, 10, 0, 0]) == (0.0, 0.0, 0.0)
    elo, low, high = elo_interval(10, 0, 10)
    assert elo == 0.0 and low < -100 and high > 100


# --------------------------------------------------------------------------- SPRT


def test_sprt_bounds():
    # lower = log(0.05 / 0.95) = log(1/19) = -2.944439; upper = log(0.95 / 0.05) = log(19)
    sprt = SPRT(0, 10)
    assert sprt.lower == pytest.approx(-2.9444389791664403, abs=1e-12)
    assert sprt.upper == pytest.approx(2.9444389791664403, abs=1e-12)
    assert round(sprt.lower, 3) == -2.944 and round(sprt.upper, 3) == 2.944
    # alpha = 0.05, beta = 0.1: lower = log(0.1/0.95) = -2.251292, upper = log(0.9/0.05) = log 18 = 2.890372
    asym = SPRT(0, 5, alpha=0.05, beta=0.1)
    assert asym.lower == pytest.approx(-2.2512917986064953)
    assert asym.upper == pytest.approx(2.8903717578961645)
    for bad in ((0.0, 0.05), (0.05, 1.0), (0.5, 0.5), (0.9, 0.2)):
        with pytest.raises(ValueError, match="alpha"):
            SPRT(0, 10, *bad)


@pytest.mark.parametrize("elo0,elo1", [(0, 0), (10, 0), (0, math.nan), (0, 20000), (-20000, 0), (7000, 8000),
                                       (0, math.inf), (0, 1e-300)])
def test_sprt_refuses_bounds_that_make_no_test(elo0, elo1):
    # equal bounds never decide, swapped ones swap the hypotheses, and bounds whose expected
    # scores round to 0 or 1 (or to each other) would divide by zero in the likelihoods
    with pytest.raises(ValueError, match="SPRT: "):
        SPRT(elo0, elo1)


def test_sprt_takes_any_bounds_it_can_test():
    for elo0, elo1 in ((-6000, 6000), (-5, -1), (0, 0.5), (100, 400)):
        sprt = SPRT(elo0, elo1)
        assert 0 < sprt.s0 < sprt.s1 < 1 and math.isfinite(sprt.llr(3, 1, 2))
        assert math.isfinite(sprt.llr_pentanomial([1, 0, 2, 0, 1]))


def test_sprt_llr_hand_computed():
    # elo0 = 0, elo1 = 10; W 1000, D 1200, L 900
    # s0 = 0.5
    # s1 = 1 / (1 + 10^(-10/400)) = 1 / (1 + 10^-0.025) = 1 / (1 + 0.9440609) = 0.5143872
    # N = 3100, s = (1000 + 600) / 3100 = 0.5161290
    # var = E[x^2] - s^2 = (1000 + 0.25 * 1200) / 3100 - s^2 = 0.4193548 - 0.2663892 = 0.1529657
    # s1 - s0 = 0.0143872;  2s - s0 - s1 = 1.0322581 - 1.0143872 = 0.0178709
    # LLR = N (s1 - s0)(2s - s0 - s1) / (2 var) = 3100 * 0.0143872 * 0.0178709 / 0.3059313
    #     = 3100 * 0.000257112 / 0.3059313 = 2.60531
    sprt = SPRT(0, 10)
    assert sprt.s0 == 0.5
    assert sprt.s1 == pytest.approx(0.5143871841659987, abs=1e-12)
    assert sprt.llr_normal(1000, 1200, 900) == pytest.approx(2.6053105680248776, abs=1e-6)
    # mirrored results: s = 1500/3100 = 0.4838710, same var,
    # 2s - s0 - s1 = 0.9677419 - 1.0143872 = -0.0466453
    # LLR = 3100 * 0.0143872 * -0.0466453 / 0.3059313 = -6.80019 -> H0
    assert sprt.llr_normal(900, 1200, 1000) == pytest.approx(-6.800188740495361, abs=1e-6)
    # The decisions use the exact generalized SPRT, which on a sample this large
    # agrees with the approximation to within 0.3%
    assert sprt.llr(1000, 1200, 900) == pytest.approx(2.6053106, rel=3e-3)
    assert sprt.llr(900, 1200, 1000) == pytest.approx(-6.8001887, rel=3e-3)
    assert sprt.status(sprt.llr(1000, 1200, 900)) is None  # 2.60 < 2.944: go on
    assert sprt.status(sprt.llr(900, 1200, 1000)) == "H0"


def test_sprt_constrained_mle_is_a_distribution_with_the_hypothesis_mean():
    from tournaments.results.sprt import constrained_mle as _constrained_mle
    for counts in ((900, 1200, 1000), (3, 0.001, 7), (0.001, 0.001, 12)):
        for mean in (0.5, 0.5143871841659987, 0.6):
            p = _constrained_mle((0.0, 0.5, 1.0), counts, mean)
            assert sum(p) == pytest.approx(1.0) and all(x > 0 for x in p)
            assert 0.5 * p[1] + p[2] == pytest.approx(mean, abs=1e-9)


def test_sprt_llr_pentanomial_hand_computed():
    # counts [0, 2, 4, 3, 1] (see the pentanomial interval test): P = 10, s = 0.575, var = 0.050625
    # s1 - s0 = 0.0143872;  2s - s0 - s1 = 1.15 - 1.0143872 = 0.1356128
    # LLR = 10 * 0.0143872 * 0.1356128 / (2 * 0.050625) = 0.0195109 / 0.10125 = 0.19270
    sprt = SPRT(0, 10)
    # the normal approximation above; the exact GSPRT on 10 pairs is close to it
    assert sprt.llr_pentanomial([0, 2, 4, 3, 1]) == pytest.approx(0.19269990683194485, rel=0.1)
    # The exact value, pinned.  The empty bin (no 0-2 pair) counts as REGULARIZER = 1e-3 pairs;
    # solved independently (see test_pentanomial_of_independent_games_matches_trinomial) the
    # LLR is 0.2016485806 with it, 0.2021333188 with 1e-6 and 0.0330944649 with 1: the pin
    # tells a regulariser 1000 times smaller or larger apart
    assert sprt.llr_pentanomial([0, 2, 4, 3, 1]) == pytest.approx(0.20164858056843785, abs=1e-9)


def test_sprt_llr_degenerate():
    sprt = SPRT(0, 10)
    assert sprt.llr(0, 0, 0) == 0.0
    assert sprt.llr_pentanomial([0, 0, 0, 0, 0]) == 0.0
    # one-sided results (zero variance) still carry evidence, a bounded amount per
    # game: about log(s1 / s0) per win, so no single game decides
    per_win = math.log(sprt.s1 / sprt.s0)
    assert sprt.llr(5, 0, 0) == pytest.approx(5 * per_win, rel=0.02)
    assert sprt.status(sprt.llr(1, 0, 0)) is None
    strong = SPRT(0, 50)
    decided = next(n for n in range(1, 100) if strong.status(strong.llr(n, 0, 0)) == "H1")
    assert 20 <= decided <= 30
    # all draws sit at s0 = 0.5: evidence for H0, never for H1
    assert sprt.llr(0, 8, 0) < 0 and sprt.llr_pentanomial([0, 0, 9, 0, 0]) < 0
    # the midpoint score (s0 + s1) / 2 carries no evidence either way: there the
    # LLR changes sign
    assert sprt.llr(10, 0, 10) < 0 < sprt.llr(11, 0, 9)


def test_sprt_status_transitions():
    sprt = SPRT(0, 10)
    assert sprt.status(0.0) is None
    assert sprt.status(sprt.upper) == "H1"
    assert sprt.status(sprt.lower) == "H0"
    assert sprt.status(sprt.upper - 1e-9) is None
    assert sprt.status(sprt.lower + 1e-9) is None
    # Results growing in the proportion W:D:L = 10:12:9 keep the frequencies fixed,
    # so the LLR grows linearly: per block about 2.602 / 100 = 0.02602; the upper
    # bound 2.9444390 is crossed after 2.9444390 / 0.02602 = 113.2 blocks.
    seen = []
    for k in range(1, 200):
        status = sprt.status(sprt.llr(10 * k, 12 * k, 9 * k))
        if not seen or seen[-1][1] != status:
            seen.append((k, status))
    assert seen == [(1, None), (114, "H1")]
    # the mirrored stream is accepted as H0, much sooner
    seen = []
    for k in range(1, 200):
        status = sprt.status(sprt.llr(9 * k, 12 * k, 10 * k))
        if not seen or seen[-1][1] != status:
            seen.append((k, status))
    # per block -6.8001887 / 100 = -0.0680019; -2.9444390 / -0.0680019 = 43.30 -> block 44
    assert seen == [(1, None), (44, "H0")]


# --------------------------------------------------------------------------- two-engine report


def test_pair_report_seed_match():
    # 50 pairs: 10 x (1, 1) = 2, 34 x (1, 0) = 1, 6 x (0, 0) = 0
    # -> wins 20 + 34 = 54, losses 34 + 12 = 46, pentanomial [6, 0, 34, 0, 10]
    results = []
    pair = 0
    for scores, times in (((1, 1), 10), ((1, 0), 34), ((0, 0), 6)):
        for _ in range(times):
            results += [(pair, scores[0]), (pair, scores[1])]
            pair += 1
    stats = pair_report("A", "B", results)
    assert (stats.wins, stats.draws, stats.losses) == (54, 0, 46)
    assert stats.wdl == WDL(54, 0, 46)
    assert stats.games == 100
    assert stats.score == 0.54
    # the Elo of the complete pairs (pentanomial [6, 0, 34, 0, 10]), as the reports give it
    estimate = elo_estimate_pentanomial([6, 0, 34, 0, 10])
    assert (stats.elo, stats.elo_low, stats.elo_high) == (estimate.elo, estimate.low, estimate.high)
    assert stats.elo == pytest.approx(27.85437125655782) and stats.elo_error == pytest.approx(estimate.error)
    assert stats.los == pytest.approx(0.7881446014166034)
    assert stats.draw_ratio == 0.0
    assert stats.pentanomial == [6, 0, 34, 0, 10]
    assert stats.unpaired == 0
    assert summary_line(stats.name_a, stats.name_b, stats.wins, stats.losses, stats.draws) == (
        'Final results: Player 1 "A", wins = 54. Player 2 "B", wins = 46. Draws = 0. 100 game(s) played'
    )


def test_pair_report_counts_only_complete_pairs():
    results = [
        (0, 1.0), (0, 0.5),   # pair 0: 1.5
        (1, 0.5), (1, 0.5),   # pair 1: 1
        (2, 0.0),             # pair 2: incomplete (its second game not played yet)
        (None, 1.0),          # an unpaired game
        (3, 0.0), (3, 0.5),   # pair 3: 0.5
    ]
    stats = pair_report("X", "Y", results)
    # W: 1 + 1 = 2; D: 0.5, 0.5, 0.5, 0.5 = 4; L: 0 (pair 2), 0 (pair 3) = 2
    assert (stats.wins, stats.draws, stats.losses) == (2, 4, 2)
    assert stats.score == 0.5
    assert stats.draw_ratio == 0.5
    assert stats.pentanomial == [0, 1, 1, 1, 0]
    assert stats.unpaired == 2
    assert stats.los == 0.5


def test_pair_report_edge_cases():
    empty = pair_report("A", "B", [])
    assert (empty.wins, empty.draws, empty.losses) == (0, 0, 0)
    assert empty.score == 0.5 and empty.los == 0.5 and empty.draw_ratio == 0.0
    assert (empty.elo, empty.elo_low, empty.elo_high, empty.elo_error) == (0.0, -math.inf, math.inf, math.inf)
    assert empty.pentanomial == [0, 0, 0, 0, 0]
    sweep = pair_report("A", "B", [(i // 2, 1.0) for i in range(8)])
    # a clean sweep is finite: the prior of one drawn pair, (4 * 1 + 0.5) / 5 = 0.9
    assert sweep.elo == pytest.approx(elo_from_score(0.9)) and math.isfinite(sweep.elo_high)
    assert sweep.elo_low > 0 and sweep.pentanomial == [0, 0, 0, 0, 4]
    draws = pair_report("A", "B", [(i // 2, 0.5) for i in range(6)])
    assert (draws.elo, draws.draw_ratio) == (0.0, 1.0) and 0 < draws.elo_error < 400
    assert draws.pentanomial == [0, 0, 3, 0, 0]
    with pytest.raises(ValueError):
        pair_report("A", "B", [(0, 1.0), (0, 0.0), (0, 1.0)])  # three games in one pair
    with pytest.raises(ValueError):
        pair_report("A", "B", [(0, 0.25)])


def test_summary_line_exact():
    assert summary_line("A", "B", 54, 46, 0) == (
        'Final results: Player 1 "A", wins = 54. Player 2 "B", wins = 46. Draws = 0. 100 game(s) played'
    )
    line = summary_line("mcts-engine 0.1", "random", 3, 1, 6)
    assert line == (
        'Final results: Player 1 "mcts-engine 0.1", wins = 3. Player 2 "random", wins = 1. Draws = 6. 10 game(s) played'
    )
    assert not line.endswith(".")
    assert summary_line("A", "B", 0, 0, 0).endswith("Draws = 0. 0 game(s) played")


# --------------------------------------------------------------------------- tables


def table_rows(table: str) -> tuple[list[str], list[list[str]]]:
    """A rating table's header words and its rows' cells (the interval ``[low, high]`` one cell)."""
    lines = table.splitlines()
    rows = []
    for line in lines[1:]:
        head, _, rest = line.partition("[")
        interval, _, tail = rest.partition("]")
        rows.append(head.split() + [f"[{interval}]"] + tail.split())
    return lines[0].split(), rows


def test_rating_table_shape_and_order():
    scores = {"Beta": WDL(2, 2, 6), "Alpha": WDL(6, 2, 2), "Gamma": WDL(4, 4, 2)}
    lines = rating_table(scores).splitlines()
    assert len(lines) == 1 + len(scores)
    header, rows = table_rows(rating_table(scores))
    assert header == ["Rank", "Name", "Games", "Points", "Score%", "Elo", "95%", "interval", "Draw%"]
    assert [r[1] for r in rows] == ["Alpha", "Gamma", "Beta"]  # 70 %, 60 %, 30 %
    assert [r[0] for r in rows] == ["1", "2", "3"]
    # Alpha: 10 games, 7 points, 70.0 %, Elo +147.2 (see the 6-2-2 interval test) and the interval
    # of elo_estimate (no pairs given: its games); draws 2/10 = 20.0 %
    e = elo_estimate(6, 2, 2)
    assert rows[0] == ["1", "Alpha", "10", "7", "70.0", "+147.2", f"[{e.low:+.1f}, {e.high:+.1f}]", "20.0"]
    assert rows[2][2:6] == ["10", "3", "30.0", "-147.2"]
    assert rows[1][3] == "6"  # 4 + 4/2
    # columns are aligned: every line has the same width up to trailing blanks
    assert len({len(line) for line in lines}) == 1


def test_rating_table_shows_the_estimates_it_is_given():
    """The report hands each engine's estimate (its pairs'); the table prints it as given."""
    pairs = elo_estimate_pentanomial([0, 0, 0, 0, 5])
    _, rows = table_rows(rating_table({"A": WDL(10, 0, 0), "B": WDL(0, 0, 10)}, {"A": pairs}))
    assert rows[0][5:7] == [f"{pairs.elo:+.1f}", f"[{pairs.low:+.1f}, {pairs.high:+.1f}]"]
    assert rows[1][5] == f"{elo_estimate(0, 0, 10).elo:+.1f}"          # not given: its games'


def test_rating_table_edge_cases():
    _, rows = table_rows(rating_table({"Sweeper": WDL(5, 0, 0), "Idle": WDL(), "Drawish": WDL(0, 4, 0)}))
    assert len(rows) == 3
    rows = {r[1]: r for r in rows}
    assert rows["Sweeper"][0] == "1"
    e = elo_estimate(5, 0, 0)
    assert rows["Sweeper"][5:7] == [f"{e.elo:+.1f}", f"[{e.low:+.1f}, {e.high:+.1f}]"]
    assert rows["Drawish"][5] == "+0.0" and rows["Drawish"][7] == "100.0" and rows["Drawish"][6] != "[+0.0, +0.0]"
    assert rows["Idle"][2:8] == ["0", "0", "50.0", "+0.0", "[-inf, +inf]", "0.0"]
    assert rating_table({}).splitlines() == [rating_table({}).splitlines()[0]]  # header only
    # score ties are broken by points: 2/4 ahead of 1/2
    tied = rating_table({"Short": WDL(1, 0, 1), "Long": WDL(2, 0, 2)}).splitlines()
    assert [line.split()[1] for line in tied[1:]] == ["Long", "Short"]


def _cells(table: str):
    lines = table.splitlines()
    return lines, [line.split() for line in lines]


def test_crosstable_shape_and_values():
    names = ["Alpha", "Beta", "Gamma"]
    results = {
        ("Alpha", "Beta"): WDL(3, 2, 0),   # Alpha 4/5 against Beta, Beta 1/5
        ("Gamma", "Alpha"): WDL(2, 2, 1),  # Gamma 3/5 against Alpha, Alpha 2/5
        ("Beta", "Gamma"): WDL(1, 2, 2),   # Beta 2/5 against Gamma, Gamma 3/5
    }
    lines, cells = _cells(crosstable(names, results))
    assert len(lines) == 1 + len(names)
    assert cells[0] == [*names, "Total"]
    assert cells[1] == ["Alpha", "-", "4/5", "2/5", "6/10"]
    assert cells[2] == ["Beta", "1/5", "-", "2/5", "3/10"]
    assert cells[3] == ["Gamma", "3/5", "3/5", "-", "6/10"]
    # symmetric in game counts, and the two sides' points add up to the games
    grid = {(cells[i + 1][0], names[j]): cells[i + 1][j + 1] for i in range(3) for j in range(3)}
    for a in names:
        assert grid[(a, a)] == "-"
        for b in names:
            if a != b:
                pa, na = grid[(a, b)].split("/")
                pb, nb = grid[(b, a)].split("/")
                assert na == nb
                assert float(pa) + float(pb) == int(na)


def test_crosstable_half_points_both_orders_and_missing_pairs():
    names = ["P", "Q", "R"]
    results = {
        ("P", "Q"): WDL(5, 3, 2),  # 6.5/10 for P, 3.5/10 for Q
        ("Q", "P"): WDL(2, 3, 5),  # the same games, given again as a mirror image
    }
    lines, cells = _cells(crosstable(names, results))
    assert cells[1] == ["P", "-", "6.5/10", "0/0", "6.5/10"]
    assert cells[2] == ["Q", "3.5/10", "-", "0/0", "3.5/10"]
    assert cells[3] == ["R", "0/0", "0/0", "-", "0/0"]
    with pytest.raises(ValueError):
        crosstable(names, {("P", "Q"): WDL(5, 3, 2), ("Q", "P"): WDL(5, 3, 2)})
    with pytest.raises(ValueError):
        crosstable(names, {("P", "Z"): WDL(1, 0, 0)})
    with pytest.raises(ValueError):
        crosstable(["P", "P"], {})


def test_the_endings_line_counts_reasons_by_kind():
    """Reasons that differ only in their numbers and parenthesised details (the adjudicator's
    ply and material, a timeout's seconds) are one kind: 57 adjudicated games made 57 entries."""
    from tournaments.results.report import ending_kinds
    reasons = {"adjudicated: OpenSpiel's 40-ply rule at ply 89, material 6-1.5 (raw: first player wins by the rules)": 2,
               "adjudicated: OpenSpiel's 40-ply rule at ply 127, material 7-3 (raw: second player wins by the rules)": 1,
               "first player wins by the rules": 2,
               "B timeout: engine 'B': no bestmove within 1.3 s (+0.5 s after stop) for 'go movetime 300'": 1,
               "B timeout: engine 'B': no bestmove within 2.2 s (+0.5 s after stop) for 'go movetime 1200'": 1}
    assert ending_kinds(reasons) == [("adjudicated: OpenSpiel's N-ply rule at ply N, material N-N", 3),
                                     ("B timeout: engine 'B': no bestmove within N s for 'go movetime N'", 2),
                                     ("first player wins by the rules", 2)]
