"""``mcts-tournament tune`` end to end: a fake engine with a known best option value
(tests/fake_engines/tunable.py: UCT_C best at 0.7, Width at 24), SPSA and Optuna finding
it, kill -9 and resume, the journal, the report and the errors."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import FAKES, require
from tournaments.results.journal import Journal

FAKE = FAKES / "tunable.py"
BEST_C = 0.7
GAMES = ["--game", "english", "--opening-plies", "4", "--max-plies", "100"]


def tournament_command() -> list[str]:
    script = Path(sys.executable).parent / "mcts-tournament"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tournaments"]


def run(*args, timeout=180, check=True):
    proc = subprocess.run(tournament_command() + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout)
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def fake(*options, name="fake"):
    return " ".join([f"name={name}", f'cmd="{sys.executable} {FAKE}"'] + [f"option.{o}" for o in options])


def lines(journal, kind):
    return [r for r in Journal(str(journal)).records() if r["type"] == kind]


def tune(journal, *args):
    return ["tune", *GAMES, "--journal", journal, "--quiet", *args]


# --- finding the optimum ----------------------------------------------------------------------------

def test_spsa_moves_a_far_start_to_the_optimum_and_confirms_the_gain(tmp_path):
    journal = tmp_path / "tune.jsonl"
    out = run(*tune(journal, "--engine", fake("Width=24"), "--param", "UCT_C,4.0,0,8,0.4,0.3", "--iterations", 20,
                    "--pairs-per-iteration", 3, "--concurrency", 2, "--confirm", 10)).stdout
    fragment = out.strip().splitlines()[-1]
    assert fragment.startswith("option.UCT_C=")
    tuned = float(fragment.split("=")[1])
    assert abs(tuned - BEST_C) < 0.35, out                     # 3.3 away at the start
    iterations = lines(journal, "iteration")
    assert [r["iteration"] for r in iterations] == list(range(1, 21))
    assert iterations[-1]["theta"][0] == pytest.approx(tuned, abs=0.005)
    games = lines(journal, "game")
    assert sorted(g["id"] for g in games) == list(range(120))  # ids and pairs run on across iterations
    for k in range(1, 21):
        mine = sorted((g for g in games if g["iteration"] == k), key=lambda g: g["id"])
        assert len(mine) == 6 and {g["pair"] for g in mine} == {3 * (k - 1) + j for j in range(3)}
        for a, b in zip(mine[::2], mine[1::2]):                # colour-swapped pairs over one opening
            assert a["players"] == b["players"][::-1] and a["opening"] == b["opening"]
            assert set(a["players"]) == {"theta+", "theta-"}
    assert "confirmation (" in out and "tuned vs start" in out
    confirm = Journal(str(tmp_path / "tune.confirm.jsonl")).load()[1]
    assert len(confirm) == 10
    summary = json.loads(run("tune-report", journal, "--json").stdout)
    assert summary["spec"] == fragment and summary["options"] == {"UCT_C": fragment.split("=")[1]}
    assert summary["confirmation"]["wins"] > summary["confirmation"]["losses"]
    assert summary["elo_gain"] > 100 and summary["plots"] == [str(tmp_path / "tune.params.png"),
                                                              str(tmp_path / "tune.elo.png")]
    assert all(Path(p).stat().st_size > 1000 for p in summary["plots"])
    report = json.loads(run("report", journal, "--json").stdout)     # a tune journal is a journal
    assert report["games"] == 120 and report["tune"]["spec"] == fragment


def test_optuna_tpe_finds_the_optimum(tmp_path):
    require("optuna", "Optuna is not installed (pip install 'mcts-engine[tune]')")
    journal = tmp_path / "tpe.jsonl"
    out = run(*tune(journal, "--engine", fake("Width=24"), "--param", "UCT_C,2.0,0,8", "--optimizer", "optuna-tpe",
                    "--iterations", 20, "--pairs-per-iteration", 3, "--concurrency", 2, "--no-plots")).stdout
    tuned = float(out.strip().splitlines()[-1].split("=")[1])
    assert abs(tuned - BEST_C) < 0.8, out                     # within ~40 Elo of the best (see tunable.py)
    trials = lines(journal, "iteration")
    assert [r["trial"] for r in trials] == list(range(20))
    assert (tmp_path / "tpe.optuna.log").stat().st_size > 0     # Optuna's own storage, next to ours


@pytest.mark.slow
def test_optuna_cmaes_finds_the_optimum(tmp_path):
    require("optuna", "Optuna is not installed (pip install 'mcts-engine[tune]')")
    require("cmaes", "cmaes is not installed (pip install 'mcts-engine[tune]')")
    journal = tmp_path / "cma.jsonl"
    out = run(*tune(journal, "--engine", fake("Width=24"), "--param", "UCT_C,2.0,0,8", "--optimizer",
                    "optuna-cmaes", "--iterations", 20, "--pairs-per-iteration", 3, "--concurrency", 2,
                    "--no-plots")).stdout
    tuned = float(out.strip().splitlines()[-1].split("=")[1])
    assert abs(tuned - BEST_C) < 0.8, out


def test_optuna_gp_runs_or_says_what_it_needs(tmp_path):
    """GP needs PyTorch, which the tune extra leaves out: without it the command names it."""
    require("optuna", "Optuna is not installed (pip install 'mcts-engine[tune]')")
    import importlib.util
    journal = tmp_path / "gp.jsonl"
    proc = run(*tune(journal, "--engine", fake("Width=24"), "--param", "UCT_C,2.0,0,8", "--optimizer", "optuna-gp",
                     "--iterations", 6, "--pairs-per-iteration", 1, "--no-plots"), check=False)
    if importlib.util.find_spec("torch") is None:
        assert proc.returncode == 2 and "--optimizer optuna-gp needs torch" in proc.stderr, proc.stderr
        assert not journal.exists()
    else:
        assert proc.returncode == 0, proc.stderr
        assert len(lines(journal, "iteration")) == 6


# --- kill -9 and resume -------------------------------------------------------------------------------

def kill_after_games(args, journal, games):
    manager = subprocess.Popen(tournament_command() + [str(a) for a in args], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and manager.poll() is None and len(lines(journal, "game")) < games:
        time.sleep(0.02)
    os.kill(manager.pid, signal.SIGKILL)
    manager.wait()
    return lines(journal, "game")


@pytest.mark.parametrize("optimizer, param", [
    ("spsa", "UCT_C,4.0,0,8,0.4,0.3"),
    ("optuna-tpe", "UCT_C,4.0,0,8"),
])
def test_a_killed_tune_resumes_with_no_iteration_lost_or_doubled(tmp_path, optimizer, param):
    """Killed mid-iteration and run again, a tune ends exactly as the same tune run straight
    through: the same iterations (values, flips, results), every game once, the games played
    before the kill kept as they were."""
    if optimizer != "spsa":
        require("optuna", "Optuna is not installed (pip install 'mcts-engine[tune]')")

    def args(journal):
        return tune(journal, "--engine", fake(), "--param", param, "--param", "Width,10,0,40,3,0.3",
                    "--optimizer", optimizer, "--iterations", 5, "--pairs-per-iteration", 1, "--concurrency", 1,
                    "--no-plots")

    straight = tmp_path / "straight.jsonl"
    run(*args(straight))
    killed = tmp_path / "killed.jsonl"
    before = kill_after_games(args(killed), killed, 3)
    assert 3 <= len(before) < 10 and len(lines(killed, "iteration")) < 5
    run(*args(killed))
    assert sorted(g["id"] for g in lines(killed, "game")) == list(range(10))
    assert [g for g in lines(killed, "game") if g["id"] in {b["id"] for b in before}] == before
    assert lines(killed, "iteration") == lines(straight, "iteration")
    for record in lines(killed, "iteration"):
        values = record["plus"] + record["minus"] if optimizer == "spsa" else record["values"]
        assert all(v == int(v) for v in values[1::2])          # Width is an int: played as one


def test_a_journal_of_another_tune_or_of_a_match_is_refused(tmp_path):
    journal = tmp_path / "t.jsonl"
    base = tune(journal, "--engine", fake("Width=24"), "--param", "UCT_C,4.0,0,8,0.4,0.3", "--iterations", 1,
                "--pairs-per-iteration", 1, "--no-plots")
    run(*base)
    proc = run(*base, "--seed", 2, check=False)
    assert proc.returncode == 2 and "was written for a different tune" in proc.stderr
    match = tmp_path / "m.jsonl"
    run("match", *GAMES, "--engine", fake(name="A"), "--engine", fake(name="B"), "--games", 2, "--journal", match,
        "--quiet")
    proc = run("tune", *GAMES, "--journal", match, "--quiet", "--engine", fake("Width=24"), "--param",
               "UCT_C,4.0,0,8,0.4,0.3", "--iterations", 1, check=False)
    assert proc.returncode == 2 and "is not a tune journal" in proc.stderr
    proc = run("tune-report", match, check=False)
    assert proc.returncode == 2 and "is not a tune journal" in proc.stderr


@pytest.mark.parametrize("args, words", [
    (["--param", "UCT_C,4.0,0,8,0.4"], "--param 'UCT_C,4.0,0,8,0.4': expected name,start,min,max,c_end,r_end"),
    (["--param", "UCT_C,4.0,0,8"], "SPSA needs c_end and r_end for UCT_C"),
    (["--param", "Depth,4,0,8,1,0.1"], "parameter 'Depth': engine fake declares no such option"),
    (["--param", "Width,10,0,50,2,0.1"], "[0, 50] is outside the engine's range for Width, [0, 40]"),
    (["--param", "UCT_C,4.0,-1,8,0.4,0.3"], "engine fake refuses the parameters at their min"),
    (["--param", "Width,10,0,40,2,0.1", "--engine-option", "Width=3"], "--engine sets Width, which the tune varies"),
])
def test_bad_parameters_are_one_clear_error_before_any_game(tmp_path, args, words):
    journal = tmp_path / "t.jsonl"
    engine = fake("Width=3") if "--engine-option" in args else fake()
    args = [a for a in args if a not in ("--engine-option", "Width=3")]
    proc = run(*tune(journal, "--engine", engine, *args, "--iterations", 2), check=False)
    assert proc.returncode == 2 and words in proc.stderr, proc.stderr
    assert not journal.exists()


def test_only_engines_of_our_protocol_can_be_tuned():
    from mcts_engine.client import parse_engine_arg
    from tournaments.play.conditions import PlayConditions
    from tournaments.tune.iterations import check_engine
    from tournaments.tune.params import Param, ParamError
    from tournaments.tune.settings import TuneSettings
    spec = parse_engine_arg(f'name=scan protocol=hub cmd="{sys.executable} {FAKE}"')
    with pytest.raises(ParamError, match="speaks protocol=hub: the tuner sets options through our protocol"):
        check_engine(TuneSettings(spec, (Param("UCT_C", 1, 0, 4, 0.3, 0.1),), PlayConditions("english")))
