"""Tournaments on a real Dask cluster (``--cluster``): a local cluster of worker processes,
real engine processes, a killed worker, a killed manager, a game over its time limit, an
SPRT stop, and workers that cannot play.  No part of Dask is mocked.

Most tests share one cluster of two worker processes (Nannies, so a killed worker comes
back): ``with-engine`` has a directory on its PATH holding the command
``only-here-engine``; ``without`` lacks it.
"""
import json
import logging
import os
import signal
import stat
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from support import require
from support import FAKES
from support.tournament import PY, fake, games_of, ours, run, tournament_command

from tournaments.results import report
from mcts_engine.client import EngineSpec
from tournaments.play.cluster import ClusterError, ClusterTarget, DaskExecutor
from tournaments.play.conditions import Adjudication, PlayConditions, TimeControl
from tournaments.play.executors import Batch, pair_batches
from tournaments.play.runner import Tournament, TournamentSettings, schedule
from tournaments.results.journal import Journal
from tournaments.results.sprt import SPRT

ONLY_HERE = "only-here-engine"


@dataclass
class Cluster:
    client: object            # distributed.Client
    scheduler: object         # the scheduler (it runs in this process)
    address: str


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    distributed = require("distributed", "the cluster tests run a real Dask cluster (the cluster extra)")
    from distributed import Nanny, Scheduler, SpecCluster
    bin_dir = tmp_path_factory.mktemp("bin")
    script = bin_dir / ONLY_HERE
    script.write_text(f"#!/bin/sh\nexec {PY} {FAKES / 'good.py'}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    workers = {"with-engine": {"cls": Nanny, "options": {"nthreads": 1, "env": {"PATH": path}}},
               "without": {"cls": Nanny, "options": {"nthreads": 1}}}
    spec = SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": {"dashboard_address": ":0"}},
                       silence_logs=logging.CRITICAL)
    client = distributed.Client(spec)
    client.wait_for_workers(2, timeout=60)
    yield Cluster(client, spec.scheduler, spec.scheduler_address)
    client.close()
    spec.close()


def game_tasks(cluster: Cluster) -> list[str]:
    """The scheduler's tasks that play games (ours), finished ones included until released."""
    return [k for k in list(cluster.scheduler.tasks) if str(k).startswith("mcts-games")]


def wait_until(what, timeout: float = 30.0, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out waiting for {what}")


def settings(engines: list[str], games: int, tc: TimeControl = TimeControl(movetime=100),
             max_plies: int = 1000) -> TournamentSettings:
    """Tournament settings of engine SPEC texts (the command line's form)."""
    from mcts_engine.client import parse_engine_arg
    conditions = PlayConditions("english", tc=tc, adjudication=Adjudication(max_plies))
    return TournamentSettings(conditions, tuple(parse_engine_arg(e) for e in engines), games=games)


# --- the same games, the same journal --------------------------------------------------------

SAME = ["--game", "english", "--engine", ours("A", "Agent=random", "Seed=1"), "--engine", ours("B", "Seed=2"),
        "--nodes", "5", "--games", "6", "--opening-plies", "2", "--quiet"]


def test_a_cluster_match_plays_the_games_of_a_local_one_into_the_same_journal(tmp_path):
    """--cluster local:2 (a LocalCluster the command starts): the same schedule, the same
    deterministic games move for move, the same header and record format (plus the worker),
    and the report counts the two workers that took part."""
    require("distributed", "the cluster tests run a real Dask cluster (the cluster extra)")
    local, remote = tmp_path / "local.jsonl", tmp_path / "cluster.jsonl"
    run("match", *SAME, "--concurrency", "2", "--journal", str(local))
    out = json.loads(run("match", *SAME, "--cluster", "local:2", "--journal", str(remote), "--json").stdout)
    assert out["games"] == 6 and out["workers"] == 2
    (lh, lg), (ch, cg) = Journal(str(local)).load(), Journal(str(remote)).load()
    assert lh["settings"] == ch["settings"]
    lg, cg = sorted(lg, key=lambda g: g["id"]), sorted(cg, key=lambda g: g["id"])
    assert [g["id"] for g in cg] == list(range(6))
    for a, b in zip(lg, cg):
        assert set(b) == set(a) | {"worker"} and b["worker"].startswith("tcp://")
        for key in ("id", "pair", "players", "opening", "start_fen", "moves", "score_first", "reason", "plies"):
            assert a[key] == b[key], key
    assert len({g["worker"] for g in cg}) == 2
    assert json.loads(run("report", str(remote), "--json").stdout) == out


# --- faults ---------------------------------------------------------------------------------------

SLOW = ["--game", "english", "--engine", fake("A", "clock.py", "Seed=1", "ThinkMs=15"),
        "--engine", fake("B", "clock.py", "Seed=2", "ThinkMs=15"), "--movetime", "1000", "--max-plies", "16"]


def test_the_manager_killed_and_rerun_resumes_against_the_cluster(tmp_path, cluster):
    journal = tmp_path / "j.jsonl"
    args = ["match", *SLOW, "--games", "10", "--cluster", cluster.address, "--journal", str(journal), "--quiet"]
    manager = subprocess.Popen(tournament_command() + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: len(games_of(journal)) >= 2, timeout=60)
    finally:
        os.kill(manager.pid, signal.SIGKILL)
        manager.wait()
    before = games_of(journal)
    assert 2 <= len(before) < 10
    run(*args, timeout=120)
    after = games_of(journal)
    assert sorted(g["id"] for g in after) == list(range(10))                 # every game, each once
    assert [g for g in after if g["id"] in {b["id"] for b in before}] == before


def test_a_worker_killed_mid_match_loses_no_game_and_repeats_none(tmp_path, cluster):
    """SIGKILL to the worker process playing a pair: the scheduler gives the task to a
    worker again, which replays the pair from its start; the journal has every game once."""
    pids = cluster.client.run(os.getpid)
    killed = {}

    def kill_a_busy_worker(record: dict) -> None:
        if killed:
            return
        busy = {w: keys for w, keys in cluster.client.processing().items()
                if any(str(k).startswith("mcts-games") for k in keys)}
        worker, keys = next(iter(busy.items()))
        killed.update(worker=worker, first_ids={int(str(k).split("-")[2]) for k in keys})
        os.kill(pids[worker], signal.SIGKILL)

    journal = Journal(str(tmp_path / "j.jsonl"))
    s = settings([fake("A", "clock.py", "Seed=1", "ThinkMs=15"), fake("B", "clock.py", "Seed=2", "ThinkMs=15")],
                 8, tc=TimeControl(movetime=1000), max_plies=16)
    executor = DaskExecutor(cluster.client)
    tournament = Tournament(s, journal, on_game=kill_a_busy_worker, executor=executor)
    results = tournament.run(*tournament.prepare())
    assert killed
    games = Journal(journal.path).load()[1]
    assert sorted(g["id"] for g in games) == list(range(8)) and len(results) == 8
    replayed = [g for g in games if g["id"] in killed["first_ids"]]
    assert replayed and all(g["worker"] != killed["worker"] for g in replayed)   # played again elsewhere
    cluster.client.wait_for_workers(2, timeout=60)                              # the Nanny restarted it


def test_a_game_over_its_time_limit_is_ended_inside_its_task(tmp_path, cluster):
    """A node-limited move may take 30 s, but --game-timeout 1.5 ends each game of the
    silent engine (and its child, by process group) inside the task, which then returns.
    The reason is the same either way (the game's limit has passed when the 30 s run out),
    so the time tells: the pair is one task, its two games played in turn, and waiting out
    the 30 s instead would take twice that; half of it leaves a loaded machine its slack."""
    journal = tmp_path / "j.jsonl"
    hangs = 2 * TimeControl(nodes=5).hang          # the two games waiting out their 30 s
    start = time.monotonic()
    run("match", "--game", "english", "--engine", fake("good", "good.py"),
        "--engine", fake("silent", "hang.py", "HangAfter=1", "HangChild=1"), "--nodes", "5", "--games", "2",
        "--game-timeout", "1.5", "--cluster", cluster.address, "--recover", "--journal", str(journal), "--quiet",
        timeout=300)
    assert time.monotonic() - start < hangs / 2
    games = sorted(games_of(journal), key=lambda g: g["id"])
    assert [(g["reason"], g["score_first"]) for g in games] == [
        ("silent exceeded the game time limit (1.5 s)", 1.0), ("silent exceeded the game time limit (1.5 s)", 0.0)]
    assert running(FAKES / "hang.py") == []


def running(script: Path) -> list[int]:
    """The live processes running ``script`` (from /proc)."""
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(script) in (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode():
                out.append(int(proc.name))
        except (OSError, UnicodeDecodeError):
            pass
    return out


def test_an_sprt_stop_cancels_the_queued_tasks(tmp_path, cluster):
    """The good engine (thinking 0.2 s a move) wins every game, the cheat's first move being
    illegal: SPRT 0 50 decides after 23 pairs of the 100 submitted (some 10 s
    of play on two workers); the driver cancels the rest, which never run."""
    journal = Journal(str(tmp_path / "j.jsonl"))
    s = settings([fake("good", "clock.py", "ThinkMs=200"), fake("cheat", "illegal.py", "LegalMoves=0")], 200,
                 tc=TimeControl(movetime=1000))
    sprt = SPRT(0, 50, 0.05, 0.05)
    tournament = Tournament(s, journal, executor=DaskExecutor(cluster.client))
    todo, done = tournament.prepare()
    header = journal.load()[0]
    tournament.should_stop = lambda games: report.sprt_verdict(games, header, sprt)["status"] is not None
    from distributed import get_task_stream
    with get_task_stream(cluster.client) as stream:
        results = tournament.run(todo, done)
        wait_until(lambda: not game_tasks(cluster), timeout=20)      # nothing of ours left on the scheduler
    assert report.build(results, header, sprt)["sprt"]["status"] == "H1"
    assert 20 <= len(results) < 60 and len(games_of(journal.path)) == len(results)
    played = [t for t in stream.data if str(t["key"]).startswith("mcts-games")]
    assert len(played) <= len(results) // 2 + 2           # the journaled pairs, and not the cancelled 80-odd
    wait_until(lambda: not running(FAKES / "illegal.py"), timeout=10)   # the workers' idle engines were ended


# --- workers that cannot play -------------------------------------------------------------------

def test_a_worker_lacking_an_engine_command_is_one_clear_error_naming_it(tmp_path, cluster):
    journal = tmp_path / "j.jsonl"
    proc = run("match", "--game", "english", "--engine", f"name=here cmd={ONLY_HERE}",
               "--engine", fake("good", "good.py"), "--games", "2", "--cluster", cluster.address,
               "--journal", str(journal), "--quiet", check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    problems = [line for line in proc.stderr.splitlines() if line.strip().startswith("worker ")]
    assert len(problems) == 1, proc.stderr                     # only the worker without it
    assert problems[0].strip().startswith("worker without (tcp://")
    assert f"cannot start engine 'here' (cmd: {ONLY_HERE})" in problems[0]
    assert games_of(journal) == []


def test_a_worker_of_another_project_version_is_refused(cluster):
    lineup = settings([fake("A", "good.py"), fake("B", "good.py")], 2).lineup()
    assert lineup.conditions.tc == TimeControl(movetime=100)
    executor = DaskExecutor(cluster.client, fingerprint="0.0.1 (sources 000000000000)")
    with pytest.raises(ClusterError) as err:
        executor.play(lineup, pair_batches(schedule(settings([fake("A", "good.py"), fake("B", "good.py")], 2))))
    lines = [line.strip() for line in str(err.value).splitlines()[1:]]
    assert len(lines) == 2 and all("the manager 0.0.1 (sources 000000000000): install the same version" in line
                                   for line in lines)
    assert {line.split()[1] for line in lines} == {"with-engine", "without"}


# --- the command line -----------------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("local:2", ClusterTarget(local_workers=2)),
    ("tcp://10.0.0.5:8786", ClusterTarget(address="tcp://10.0.0.5:8786")),
    ("tls://sched.lan:8786", ClusterTarget(address="tls://sched.lan:8786")),
    ("10.0.0.5:8786", ClusterTarget(address="10.0.0.5:8786")),
])
def test_cluster_addresses(text, expected):
    assert ClusterTarget.parse(text) == expected


@pytest.mark.parametrize("args,words", [
    (["--cluster", "local:0"], "at least one worker"),
    (["--cluster", "somewhere"], "expected a scheduler address"),
    (["--cluster", "local:2", "--concurrency", "2"], "--concurrency is for local runs"),
])
def test_bad_cluster_options_are_one_clear_error(tmp_path, args, words):
    proc = run("match", "--game", "english", "--engine", fake("A", "good.py"), "--engine", fake("B", "good.py"),
               *args, "--journal", str(tmp_path / "j.jsonl"), check=False)
    assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "j.jsonl").exists()


def test_a_batch_is_a_colour_swapped_pair():
    engines = [EngineSpec(n, ["x"], {}) for n in "ab"]
    games = schedule(TournamentSettings(PlayConditions("english"), tuple(engines), games=5))
    batches = pair_batches(games[1:])            # game 0 already journaled: its partner alone
    assert [[g.id for g in b.games] for b in batches] == [[1], [2, 3], [4]]
    assert all(isinstance(b, Batch) for b in batches)


# --- tuning on the cluster --------------------------------------------------------------------------

def test_a_tune_plays_its_iterations_on_the_cluster(tmp_path, cluster):
    """``tune --cluster``: each SPSA iteration's pairs are tasks on the workers, journaled by the
    manager into the tune's journal like a local tune's, and the answer is printed."""
    tunable = FAKES / "tunable.py"
    engine = f'name=fake cmd="{PY} {tunable}" option.Width=24'
    journal = tmp_path / "tune.jsonl"
    out = run("tune", "--game", "english", "--opening-plies", "2", "--max-plies", "60", "--engine", engine,
              "--param", "UCT_C,4.0,0,8,0.4,0.3", "--iterations", "3", "--pairs-per-iteration", "2",
              "--cluster", cluster.address, "--journal", str(journal), "--quiet", "--no-plots").stdout
    assert out.strip().splitlines()[-1].startswith("option.UCT_C=")
    lines = Journal(str(journal)).records()
    assert [r["iteration"] for r in lines if r["type"] == "iteration"] == [1, 2, 3]
    games = [r for r in lines if r["type"] == "game"]
    assert sorted(g["id"] for g in games) == list(range(12))
    assert all(g["worker"].startswith("tcp://") for g in games)
