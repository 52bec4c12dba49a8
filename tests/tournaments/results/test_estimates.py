"""The reports' Elo: finite for perfect and zero scores (a drawn pair as the prior), the
normal interval on large matches, the same figures in match, report and tune; the rating
list of many journals; the SPRT docs' figures."""
from __future__ import annotations

import json
import math
import random
import re

import pytest
from click.testing import CliRunner

from support import ROOT
from tournaments.cli import main
from tournaments.results.elo import (WDL, elo_estimate, elo_estimate_pentanomial, elo_from_score, elo_interval,
                                     elo_interval_pentanomial, match_estimate, z_quantile)
from tournaments.results.mle import variance_at
from tournaments.results.ratings import rate
from tournaments.results.sprt import SPRT
from tournaments.results.journal import Journal


@pytest.mark.parametrize("counts", [(100, 0, 0), (1, 0, 0), (7, 3, 0), (0, 0, 50), (0, 12, 0), (3, 0, 1)])
def test_every_estimate_is_finite_and_holds_its_estimate(counts):
    e = elo_estimate(*counts)
    assert all(math.isfinite(x) for x in (e.elo, e.low, e.high)) and e.low < e.elo < e.high
    mirror = elo_estimate(*counts[::-1])
    assert mirror.elo == pytest.approx(-e.elo) and (mirror.low, mirror.high) == pytest.approx((-e.high, -e.low))


def test_a_perfect_score_gets_one_drawn_pair_as_its_prior():
    # 100-0 and a drawn pair: (100 + 1) / 102 -> about +802; the interval from the score test
    e = elo_estimate(100, 0, 0)
    assert e.elo == pytest.approx(elo_from_score(101 / 102))
    assert 450 < e.low < e.elo < e.high < 1100
    p = elo_estimate_pentanomial([0, 0, 0, 0, 50])
    assert p.elo == pytest.approx(elo_from_score(50.5 / 51)) and math.isfinite(p.high)


def test_the_interval_is_the_score_test_s():
    """At each end of the interval the normal test at that score is just not rejected:
    N (s - p)^2 = z^2 var(p)."""
    counts, n, s = (20, 10, 30), 60, (10 * 0.5 + 30) / 60
    e = elo_estimate(30, 10, 20)
    z = z_quantile(0.95)
    for end in (e.low, e.high):
        p = 1 / (1 + 10 ** (-end / 400))
        assert n * (s - p) ** 2 == pytest.approx(z * z * variance_at((0, 0.5, 1), counts, p), rel=1e-6)


@pytest.mark.parametrize("counts", [(540, 0, 460), (3000, 4000, 3000), (612, 250, 138)])
def test_on_large_matches_it_is_cutechess_s_interval(counts):
    e, (elo, low, high) = elo_estimate(*counts), elo_interval(*counts)
    assert e.elo == elo and abs(e.low - low) < 0.02 * (high - low) and abs(e.high - high) < 0.02 * (high - low)
    penta = [30, 120, 400, 300, 150]
    ours, (_, plow, phigh) = elo_estimate_pentanomial(penta), elo_interval_pentanomial(penta)
    assert abs(ours.low - plow) < 0.02 * (phigh - plow) and abs(ours.high - phigh) < 0.02 * (phigh - plow)


def test_a_match_counts_pairs_once_there_are_some():
    assert match_estimate(WDL(3, 0, 1), [0, 0, 0, 0, 0]) == elo_estimate(3, 0, 1)
    assert match_estimate(WDL(3, 0, 1), [0, 0, 1, 0, 1]) == elo_estimate_pentanomial([0, 0, 1, 0, 1])


def write_match(path, names, results):
    journal = Journal(str(path))
    journal.append({"type": "tournament", "settings": {"kind": "match", "game": "english",
                                                       "engines": [{"name": n} for n in names]}})
    for i, (first, second, score) in enumerate(results):
        journal.append({"type": "game", "id": i, "pair": i // 2, "game": "english", "players": [first, second],
                        "score_first": score, "reason": "first player wins by the rules"})


def test_report_of_a_clean_sweep_is_finite_and_tune_agrees(tmp_path):
    path = tmp_path / "sweep.jsonl"
    write_match(path, ["A", "B"], [("A", "B", 1.0) if i % 2 == 0 else ("B", "A", 0.0) for i in range(100)])
    out = json.loads(CliRunner().invoke(main, ["report", str(path), "--json"]).output)
    pair = out["pairs"][0]
    assert all(math.isfinite(pair[k]) for k in ("elo", "elo_low", "elo_high"))
    text = CliRunner().invoke(main, ["report", str(path)]).output
    assert "inf" not in text
    from tournaments.tune.confirm import confirmation_of
    header, games = Journal(str(path)).load()
    c = confirmation_of(games, header, str(path), None)
    assert (c.elo, c.elo_low, c.elo_high) == (pair["elo"], pair["elo_low"], pair["elo_high"])


def test_a_match_shows_one_estimate_and_one_interval_everywhere(tmp_path):
    """A 100-0 match in colour-swapped pairs: the report's pair line, its rating table, the JSON
    (pairs and ratings), the live Elo line and docs/tournaments.md say the same Elo and interval,
    the pairs' (pentanomial)."""
    from tournaments.play.progress import elo_line
    path = tmp_path / "sweep.jsonl"
    write_match(path, ["A", "B"], [("A", "B", 1.0) if i % 2 == 0 else ("B", "A", 0.0) for i in range(100)])
    e = elo_estimate_pentanomial([0, 0, 0, 0, 50])
    shown = f"{e.elo:+.1f} [{e.low:+.1f}, {e.high:+.1f}]"
    out = json.loads(CliRunner().invoke(main, ["report", str(path), "--json"]).output)
    assert (out["pairs"][0]["elo"], out["pairs"][0]["elo_low"], out["pairs"][0]["elo_high"]) == (e.elo, e.low, e.high)
    a = out["ratings"]["A"]
    assert (a["elo"], a["elo_low"], a["elo_high"]) == (e.elo, e.low, e.high)
    b = out["ratings"]["B"]
    assert (b["elo"], b["elo_low"], b["elo_high"]) == pytest.approx((-e.elo, -e.high, -e.low))
    text = CliRunner().invoke(main, ["report", str(path)]).output
    assert f"Elo {shown}" in text
    row = next(line for line in text.splitlines() if line.split()[:2] == ["1", "A"])
    assert f"{e.elo:+.1f}  [{e.low:+.1f}, {e.high:+.1f}]" in row
    assert f"{e.elo:+.1f} +/- {e.error:.1f} [{e.low:+.1f}, {e.high:+.1f}]" in elo_line("A", "B", Journal(str(path)).load()[1])
    docs = " ".join((ROOT / "docs" / "tournaments.md").read_text().split())
    assert f"A 100-0 match reads `Elo {shown}`" in docs


def test_a_round_robin_rates_each_engine_on_its_pairs_against_the_field(tmp_path):
    """Each engine's rating is ``match_estimate`` of its pairs against everyone (pair ids of
    different pairings told apart by their players)."""
    journal = Journal(str(tmp_path / "rr.jsonl"))
    journal.append({"type": "tournament", "settings": {"kind": "round-robin", "game": "english",
                                                       "engines": [{"name": n} for n in "ABC"]}})
    games = [("A", "B", 1.0, 0), ("B", "A", 0.5, 0), ("A", "C", 1.0, 0), ("C", "A", 0.0, 0),
             ("B", "C", 0.5, 1), ("C", "B", 0.5, 1)]
    for i, (first, second, score, pair) in enumerate(games):
        journal.append({"type": "game", "id": i, "pair": pair, "game": "english", "players": [first, second],
                        "score_first": score, "reason": "x"})
    out = json.loads(CliRunner().invoke(main, ["report", journal.path, "--json"]).output)
    a = elo_estimate_pentanomial([0, 0, 0, 1, 1])          # A: pairs 1.5 (against B) and 2 (against C)
    assert (out["ratings"]["A"]["elo"], out["ratings"]["A"]["elo_low"]) == (a.elo, a.low)


def test_ratings_recover_known_strengths_and_merge_journals(tmp_path):
    rng, truth = random.Random(3), {"A": 150, "B": 0, "C": -150}
    parts = {}
    for pair in (("A", "B"), ("B", "C"), ("A", "C")):
        games = []
        for k in range(600):
            first, second = pair if k % 2 == 0 else pair[::-1]
            e = 1 / (1 + 10 ** (-(truth[first] - truth[second]) / 400))
            x = rng.random()
            games.append((first, second, 1.0 if x < e - 0.1 else 0.5 if x < e + 0.1 else 0.0))
        parts[pair] = tmp_path / f"{pair[0]}{pair[1]}.jsonl"
        write_match(parts[pair], list(pair), games)
    result = CliRunner().invoke(main, ["ratings", *map(str, parts.values()), "--anchor", "B", "--json"])
    assert result.exit_code == 0, result.output
    listed = {r["name"]: r for r in json.loads(result.output)["ratings"]}
    assert listed["B"]["elo"] == 0 and listed["A"]["games"] == 1200
    for name, elo in truth.items():
        assert abs(listed[name]["elo"] - elo) <= max(25, 1.5 * listed[name]["error"]), (name, listed[name])
    text = CliRunner().invoke(main, ["ratings", *map(str, parts.values())]).output
    assert text.splitlines()[0].split() == ["Rank", "Name", "Elo", "+/-", "Games", "Points", "Score%", "Draw%"]
    assert [line.split()[1] for line in text.splitlines()[1:4]] == ["A", "B", "C"]
    bad = CliRunner().invoke(main, ["ratings", str(parts[("A", "B")]), "--anchor", "Z"])
    assert bad.exit_code == 2 and "anchor 'Z'" in bad.output


def test_ratings_of_a_perfect_score_and_of_groups_that_never_met():
    games = [{"players": ["X", "Y"], "score_first": 1.0}] * 20 + [{"players": ["P", "Q"], "score_first": 0.5}] * 4
    listed = rate(games)
    by = {r.name: r for r in listed.ratings}
    assert math.isfinite(by["X"].elo) and by["X"].elo > by["Y"].elo and listed.groups == 2


def test_the_sprt_docs_tell_the_truth():
    """docs/tournaments.md says after how many game pairs all wins reach H1 for 0 50."""
    text = " ".join((ROOT / "docs" / "tournaments.md").read_text().split())
    match = re.search(r"all wins reach H1 for `0 50` after (\d+) game pairs \((\d+) games\)", text)
    assert match, "the SPRT example is gone from docs/tournaments.md"
    sprt = SPRT(0, 50, 0.05, 0.05)
    pairs = next(k for k in range(1, 200) if sprt.status(sprt.llr_pentanomial([0, 0, 0, 0, k])) == "H1")
    assert (int(match.group(1)), int(match.group(2))) == (pairs, 2 * pairs)
