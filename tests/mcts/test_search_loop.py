"""The search loop the core owns (``native/src/run.c``): one call runs a search until its limit,
and every search stops.

A random playout that never ends (Antidraughts and International on every square with the
no-progress rule off: kings shuffle for ever) is cut off at ``PLAYOUT_CAP`` plies and gives
up where it stands once the stop flag is set (it looks every ``HALT_CHECK`` plies); a search
of such a game answers its ``go`` and its ``stop``; a ``go`` crosses into the core a handful
of times, not once per slice; the threads tests run once more on a ThreadSanitizer build
(slow); a search stopped before its first iteration still answers a considered move.
"""
from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path

import pytest

from mcts_engine import native
from mcts_engine.agents import make_agent
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.core import QUIESCENCE, new_search
from mcts_engine.mcts.settings import PLAYOUTS, Settings
from mcts_engine.protocol import UciProtocol
from mcts_engine.native import StopSignal
from mcts_engine.rules import get_game
from support import pytest_runs, sanitized
from support.drivers import InProcessEngine

pytestmark = pytest.mark.skipif(not native.available(), reason=native.status())

PLAYOUT_CAP = 10_000      # game.h
HALT_CHECK = 64
ENDLESS = [("antidraughts", {"squares": "all"}), ("international", {"squares": "all", "no_progress": 0}),
           ("russian", {"squares": "all", "no_progress": 0})]


def playout_plies(game, settings: Settings, count: int, stop=None) -> list[int]:
    """The plies of ``count`` playouts of the core's policy from the start (the kernel's raw ply)."""
    search = new_search(game, settings, [1], random.Random(1), None)
    return [search.simulate(game.new_state().raw(), stop)[1][4] for _ in range(count)]


@pytest.mark.parametrize("name,rules", ENDLESS[:2])
def test_every_playout_has_a_cap(name, rules):
    plies = playout_plies(get_game(name, **rules), Settings(), 30)
    assert max(plies) >= PLAYOUT_CAP                              # some never end by the rules ...
    assert all(p <= PLAYOUT_CAP + QUIESCENCE for p in plies)      # ... and each stops at the cap


def test_the_kernels_bench_playouts_end_too():
    """bench's batch of random playouts ran for ever on a game whose random play never ends."""
    game = get_game("antidraughts", squares="all")
    wins, draws, losses, plies = game.kernel.playouts(game.new_state().raw(), 20, 1)
    assert wins + draws + losses == 20 and plies <= 20 * PLAYOUT_CAP and draws > 0


@pytest.mark.parametrize("policy", PLAYOUTS)
def test_a_playout_sees_the_stop_flag_where_it_stands(policy):
    """A stop set before the playout is seen at its first look: the position is scored there
    (after the pending captures a cut-off plays)."""
    stop = native.core.StopFlag()
    stop.set()
    game = get_game("international", squares="all", no_progress=0)
    plies = playout_plies(game, Settings(playout=policy), 10, stop)
    assert all(HALT_CHECK - 1 <= p <= HALT_CHECK - 1 + QUIESCENCE for p in plies), plies


@pytest.mark.parametrize("name,rules", ENDLESS)
def test_a_search_of_a_game_that_never_ends_answers_go_and_stop(name, rules):
    """Before: no bestmove, a stop blocked 10 s and left a search thread running on the tree the
    next go shared.  Generous time-outs: this checks that the search ends, not how fast."""
    engine = InProcessEngine()
    try:
        engine.ask(f"setoption name UCI_Variant value {name}")
        engine.ask("setoption name Rules value " + ",".join(f"{k}={v}" for k, v in rules.items()))
        engine.ask("setoption name Seed value 1")
        engine.ask("setoption name PlayoutDepth value 0")
        engine.ask("position startpos")
        _, move = engine.go("movetime 300", timeout=30)
        assert move in engine.query("moves").split()
        engine.send("go infinite")
        engine.sync()
        engine.send("stop")
        lines = engine.until("bestmove", timeout=30)
        assert lines[-1].split()[1] in engine.query("moves").split()
        _, again = engine.go("nodes 50", timeout=60)          # the next search has the tree to itself
        assert again in engine.query("moves").split()
    finally:
        engine.close()


def test_threads_report_while_they_search_and_stop_together():
    """Reports read every tree while the others search (each under its lock); a stop from
    another thread ends both threads' trees."""
    game = get_game("international")
    agent = make_agent(game, Settings(seed=3, threads=2))
    reports: list = []
    result = agent.search(game.new_state(), Limits(nodes=12_000), StopSignal(), reports.append)
    counts = [r.nodes for r in reports]
    assert result.info.nodes == 12_000 and len(counts) >= 3 and counts == sorted(counts) and counts[-1] == 12_000
    stop, seen = StopSignal(), threading.Event()
    done: list = []
    thread = threading.Thread(target=lambda: done.append(agent.search(
        game.new_state(), Limits(infinite=True), stop, lambda info: seen.set())), daemon=True)
    thread.start()
    assert seen.wait(60)
    stop.set()
    thread.join(60)
    assert done and done[0].move in game.new_state().legal_moves()
    agent.close()


class Counting:
    """The core's Search object, counting every call Python makes into it."""

    def __init__(self, search):
        self._search = search
        self.calls: list[str] = []

    def __getattr__(self, name):
        value = getattr(self._search, name)
        if not callable(value):
            return value

        def counted(*args, **kwargs):
            self.calls.append(name)
            return value(*args, **kwargs)
        return counted


def test_a_go_movetime_crosses_into_the_core_a_few_times():
    """One ``go movetime 1000``: the search is set up, run by one call that reports by calling
    back, and read, instead of 340 calls a second into 10 ms slices."""
    lines: list[str] = []
    protocol = UciProtocol(lines.append)
    session = protocol.session
    try:
        protocol.handle("setoption name UCI_Variant value international")
        agent = session.engine.agent()
        agent.core = counter = Counting(agent.core)
        protocol.handle("position startpos")
        protocol.handle("go movetime 1000")
        deadline = time.monotonic() + 60
        while not any(line.startswith("bestmove") for line in lines) and time.monotonic() < deadline:
            time.sleep(0.05)
        infos = [line for line in lines if line.startswith("info depth")]
        seconds = int(infos[-1].split(" time ")[1].split()[0]) / 1000
        assert len(infos) >= 2 and 2 <= len(counter.calls) <= 20 * max(1.0, seconds), counter.calls
        assert counter.calls.count("run") == 1
    finally:
        session.shutdown()


# --- ThreadSanitizer ---------------------------------------------------------------------------

THREAD_TESTS = [[str(Path(__file__).parent / "test_search_core.py")], [str(Path(__file__))]]   # two interpreters, side by side


@pytest.mark.slow
@pytest.mark.timeout(1000)       # a run of test files on a sanitized build (900 s at most), not one test
def test_the_threads_tests_pass_under_thread_sanitizer(tmp_path):
    """The extension built with ThreadSanitizer (every report fails the run), then the tests of
    searches on OS threads (several trees, the stop flag set from another thread) on it."""
    found = sanitized.sanitizer_runtime("libtsan.so")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("gcc has no ThreadSanitizer runtime (libtsan.so)")
        pytest.skip("gcc has no ThreadSanitizer runtime")
    library = sanitized.build(tmp_path, ["-O1", "-g", "-fno-omit-frame-pointer", "-ffp-contract=off",
                                         "-fsanitize=thread"], ["-lm", "-lpthread"])
    env = dict(os.environ, LD_PRELOAD=found, TSAN_OPTIONS="halt_on_error=1:exitcode=66:report_signal_unsafe=0",
               MCTS_ENGINE_NATIVE="1")
    runs = pytest_runs.run_groups(THREAD_TESTS, ["-q", "-x", "-p", "no:cacheprovider", "-m", "not slow", "-k",
                                                 "thread or stop or never"], env, Path(__file__).parent,
                                  timeout=900, library=library)
    for done in runs:
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
        assert "passed" in done.stdout and "WARNING: ThreadSanitizer" not in done.stderr


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_search_stopped_before_its_first_iteration_plays_the_best_move_by_one_ply(seed):
    """No iteration ran (a stop before the first, as an engine reading large endgame tables
    when its quit came): the agent answers the one-ply best move, not a random one. Here only
    26-30 crowns, and the other four moves leave the material as it was."""
    game = get_game("english")
    state = game.parse_fen("B:W31,K1:B26,K14")
    stop = StopSignal()
    stop.set()
    result = make_agent(game, Settings(seed=seed)).search(state, Limits(infinite=True), stop)
    assert result.info.nodes == 0 and state.move_str(result.move) == "26-30"
