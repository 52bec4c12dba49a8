"""``mcts-tournament tune --opponent SPEC``: the engine under test (the fake of
tests/fake_engines/tunable.py) tuned against an independent engine (ours with fixed options
at 8 UCT iterations a move) instead of itself.  SPSA's theta+ and theta- each play the
iteration's pairs against the opponent on the same openings, an Optuna trial plays its pairs
against it; the records, the identity, resuming, the report, and the errors."""
import json
import shutil
import sys

import numpy as np
import pytest

from support import FAKES, require
from support.tournament import run as run_manager
from tournaments.play.conditions import Opening, PlayConditions
from tournaments.play.runner import schedule
from tournaments.results.journal import Journal
from tournaments.results.report import score_for
from tournaments.tune.iterations import results_of
from tournaments.tune.model import clamped_elo
from tournaments.tune.params import Param, ParamError, clamp
from tournaments.tune.settings import TuneSettings
from tournaments.tune.spsa import opponent_result


FAKE = FAKES / "tunable.py"
GAMES = ["--game", "english", "--opening-plies", "4", "--max-plies", "100", "--nodes", "8", "--concurrency", "2"]
OPPONENT = "name=opp cmd=mcts-engine option.Seed=3"
ITERATIONS, PAIRS = 3, 2


def run(*args, check=True):
    return run_manager(*map(str, args), timeout=180, check=check)


def lines(journal, kind):
    return [r for r in Journal(str(journal)).records() if r["type"] == kind]


def fake(*options, name="fake"):
    return " ".join([f"name={name}", f'cmd="{sys.executable} {FAKE}"'] + [f"option.{o}" for o in options])


def spsa_args(journal, opponent=OPPONENT):
    return ["tune", *GAMES, "--journal", journal, "--quiet", "--no-plots", "--engine", fake("Width=24"),
            "--param", "UCT_C,2.0,0,8,0.4,0.3", "--iterations", ITERATIONS, "--pairs-per-iteration", PAIRS,
            *(["--opponent", opponent] if opponent is not None else [])]


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    """An SPSA tune against the opponent, run straight through (the tests copy its journal)."""
    journal = tmp_path_factory.mktemp("opponent") / "spsa.jsonl"
    run(*spsa_args(journal))
    return journal


def wdl_of(games, name):
    """``name``'s results against the opponent in ``games``, as an iteration record's fields."""
    r = results_of([g for g in games if name in g["players"]], name, "opp")
    return {"wins": r.wins, "draws": r.draws, "losses": r.losses, "pentanomial": list(r.pentanomial)}


# --- SPSA ----------------------------------------------------------------------------------------------

def test_theta_plus_and_minus_each_play_the_opponent_on_the_same_openings(straight):
    games = lines(straight, "game")
    per = 4 * PAIRS                                            # K pairs for theta+, K for theta-
    assert sorted(g["id"] for g in games) == list(range(ITERATIONS * per))
    for k in range(1, ITERATIONS + 1):
        mine = sorted((g for g in games if g["iteration"] == k), key=lambda g: g["id"])
        assert len(mine) == per and {g["pair"] for g in mine} == {2 * PAIRS * (k - 1) + j for j in range(2 * PAIRS)}
        openings = {}
        for a, b in zip(mine[::2], mine[1::2]):                # colour-swapped pairs over one opening
            assert a["pair"] == b["pair"] and a["players"] == b["players"][::-1] and a["opening"] == b["opening"]
            [side] = set(a["players"]) - {"opp"}
            assert "opp" in a["players"] and side in ("theta+", "theta-")
            openings.setdefault(side, []).append(a["opening"])
        assert openings["theta+"] == openings["theta-"] and len(openings["theta+"]) == PAIRS


def test_the_iteration_records_and_the_step_follow_from_the_games(straight):
    games = lines(straight, "game")
    records = lines(straight, "iteration")
    assert [r["iteration"] for r in records] == list(range(1, ITERATIONS + 1))
    param = Param("UCT_C", 2.0, 0, 8, 0.4, 0.3, False)
    theta = [2.0]
    for r in records:
        mine = [g for g in games if g["iteration"] == r["iteration"]]
        plus, minus = wdl_of(mine, "theta+"), wdl_of(mine, "theta-")
        assert r["vs_opponent"] == {"plus": plus, "minus": minus}
        assert r["result"] == (plus["wins"] - plus["losses"]) - (minus["wins"] - minus["losses"])
        assert "wins" not in r                                 # no theta+ vs theta- result: they never met
        assert r["theta_before"] == theta
        step = r["r"][0] * r["c"][0] * r["result"] * r["flips"][0]
        theta = list(clamp(np.array(theta) + step, [param]))
        assert r["theta"] == pytest.approx(theta)
        theta = r["theta"]
    for header in (t for t in Journal(str(straight)).records() if t["type"] == "tournament"):
        opp, *tested = header["settings"]["engines"]           # the opponent first: a gauntlet
        assert header["settings"]["kind"] == "gauntlet" and [e["name"] for e in tested] == ["theta+", "theta-"]
        assert opp["name"] == "opp" and opp["options"] == {"Seed": "3"}    # never told the tuned options
        assert all(set(e["options"]) == {"Width", "UCT_C"} for e in tested)


def test_the_report_says_whom_the_games_were_against(straight):
    assert lines(straight, "tune")[0]["settings"]["opponent"]["name"] == "opp"
    text = run("tune-report", straight, "--no-plots").stdout
    assert f"{4 * PAIRS * ITERATIONS} games against opp" in text.splitlines()[0]
    summary = json.loads(run("tune-report", straight, "--json", "--no-plots").stdout)
    assert summary["opponent"] == "opp" and summary["elo_over"] == "over the start values"
    assert summary["spec"].startswith("option.UCT_C=") and len(summary["trajectory"]) == ITERATIONS
    report = json.loads(run("report", straight, "--json").stdout)        # a tune journal is a journal
    assert report["games"] == 4 * PAIRS * ITERATIONS and report["tune"]["opponent"] == "opp"


def test_a_journal_of_another_opponent_or_of_self_play_is_not_continued(straight, tmp_path):
    journal = tmp_path / "copy.jsonl"
    shutil.copy(straight, journal)
    for opponent in ("name=opp cmd=mcts-engine option.Seed=4", "name=other cmd=mcts-engine option.Seed=3", None):
        proc = run(*spsa_args(journal, opponent), check=False)
        assert proc.returncode == 2 and "was written for a different tune (engine, opponent" in proc.stderr
    assert journal.read_bytes() == straight.read_bytes()
    run(*spsa_args(journal))                                   # the same opponent: finished, nothing to play
    assert journal.read_bytes() == straight.read_bytes()


def test_a_tune_cut_off_mid_iteration_resumes_as_the_straight_run(straight, tmp_path):
    """The journal as a kill in iteration 2 leaves it (its first games journaled, no iteration
    line), run again: the same iterations, every game once, the kept games as they were."""
    text = straight.read_text().splitlines(keepends=True)
    cut = [i for i, line in enumerate(text) if json.loads(line)["type"] == "game"][4 * PAIRS + 3]
    journal = tmp_path / "cut.jsonl"
    journal.write_text("".join(text[:cut]))
    before = lines(journal, "game")
    assert len(lines(journal, "iteration")) == 1 and len(before) == 4 * PAIRS + 3
    run(*spsa_args(journal))
    assert sorted(g["id"] for g in lines(journal, "game")) == list(range(4 * PAIRS * ITERATIONS))
    assert [g for g in lines(journal, "game") if g["id"] in {b["id"] for b in before}] == before
    assert lines(journal, "iteration") == lines(straight, "iteration")


# --- Optuna --------------------------------------------------------------------------------------------

def test_an_optuna_trial_plays_the_opponent_and_scores_its_elo_against_it(tmp_path):
    require("optuna", "Optuna is not installed (pip install 'mcts-engine[tune]')")
    journal = tmp_path / "tpe.jsonl"
    run("tune", *GAMES, "--journal", journal, "--quiet", "--no-plots", "--engine", fake("Width=24"),
        "--param", "UCT_C,2.0,0,8", "--optimizer", "optuna-tpe", "--iterations", 3, "--pairs-per-iteration", 1,
        "--opponent", OPPONENT)
    games = lines(journal, "game")
    assert sorted(g["id"] for g in games) == list(range(6))
    assert all(sorted(g["players"]) == ["opp", "trial"] for g in games)
    for r in lines(journal, "iteration"):
        mine = [g for g in games if g["iteration"] == r["iteration"]]
        wdl = wdl_of(mine, "trial")
        assert {k: r[k] for k in wdl} == wdl
        assert r["elo"] == pytest.approx(clamped_elo(sum(score_for(g, "trial") for g in mine), len(mine)))
    summary = json.loads(run("tune-report", journal, "--json", "--no-plots").stdout)
    assert summary["opponent"] == "opp" and summary["elo_over"] == "against opp"
    assert "against opp" in summary["elo_gain_source"]


# --- errors, before any game ---------------------------------------------------------------------------

@pytest.mark.parametrize("opponent, words", [
    (f"name=broken cmd={FAKES / 'no-such-engine'}", "the opponent (--opponent) did not start: engine 'broken'"),
    (f"name=quitter cmd=\"{sys.executable} -c 'import sys; sys.exit(3)'\"",
     "the opponent (--opponent) did not start: engine 'quitter'"),
    ("name=theta- cmd=mcts-engine", "the opponent cannot be called 'theta-'"),
    ("name=base cmd=mcts-engine", "the opponent cannot be called 'base'"),
    ("name=trial cmd=mcts-engine", "the opponent cannot be called 'trial'"),
    ("  ", "--opponent needs an engine SPEC"),
    ("cmd=mcts-engine", "--opponent: engine 'cmd=mcts-engine': missing name=<name>"),
])
def test_a_bad_opponent_is_one_clear_error_before_any_game(tmp_path, opponent, words):
    journal = tmp_path / "t.jsonl"
    proc = run(*spsa_args(journal, opponent), check=False)
    assert proc.returncode == 2 and words in proc.stderr, proc.stderr
    assert not journal.exists()


# --- the pieces ----------------------------------------------------------------------------------------

def test_the_gauntlet_numbers_its_games_after_the_previous_iterations():
    from mcts_engine.client import parse_engine_arg
    openings = tuple(Opening(None, (m,)) for m in ("9-13", "10-14", "11-15", "11-16", "12-16"))
    tune = TuneSettings(parse_engine_arg(fake()), (Param("UCT_C", 1, 0, 4, 0.3, 0.1),),
                        PlayConditions("english", openings=openings), pairs=2,
                        opponent=parse_engine_arg(OPPONENT))
    assert (tune.pairings, tune.games_per_iteration) == (2, 8)
    plus, minus = tune.engine_with("theta+", [1.3]), tune.engine_with("theta-", [0.7])
    games = schedule(tune.match(3, [plus, minus]))
    assert [g.id for g in games] == list(range(16, 24)) and [g.pair for g in games] == [8, 8, 9, 9, 10, 10, 11, 11]
    assert [(g.first, g.second) for g in games[:2]] == [("opp", "theta+"), ("theta+", "opp")]
    assert [g.opening for g in games[:4]] == [g.opening for g in games[4:]] == [0, 0, 1, 1]
    with pytest.raises(ValueError, match="2 pairing"):
        tune.match(1, [plus])
    assert "opponent" not in TuneSettings(tune.engine, tune.params, tune.conditions).identity()  # old journals
    with pytest.raises(ParamError, match="cannot be called 'theta\\+'"):
        TuneSettings(tune.engine, tune.params, tune.conditions, opponent=parse_engine_arg("name=theta+ cmd=x"))


def test_the_opponent_result_is_the_self_play_result_it_stands_for():
    from tournaments.results.elo import WDL
    assert opponent_result(WDL(3, 1, 0), WDL(1, 1, 2)) == 3 - (1 - 2)
    assert opponent_result(WDL(1, 2, 1), WDL(1, 2, 1)) == 0
    # theta+ +20 Elo and theta- -20 Elo against the opponent: theta+ against theta- is +40, and
    # the result's expectation is what 2K games of theta+ against theta- would give
    expected = lambda elo: 1 / (1 + 10 ** (-elo / 400))                         # noqa: E731
    games = 100
    plus, minus = expected(20), expected(-20)
    as_opponent = games * ((2 * plus - 1) - (2 * minus - 1))
    self_play = games * (2 * expected(40) - 1)
    assert as_opponent == pytest.approx(self_play, rel=0.01)
