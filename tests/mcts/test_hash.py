"""The engine's memory under ``Hash``: the arena holds Hash MB of 64-byte nodes, fills, prunes
an eighth at a time and the process stays within it, far past the budget."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.drivers import EngineProcess

LINUX = Path("/proc/self/status").exists()


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not LINUX, reason="reads /proc")
@pytest.mark.parametrize("game,nodes", [("english", 20000), ("gauntlet", 6000)])
def test_the_engine_stays_within_its_hash_far_past_the_budget(game, nodes):
    """A 1 MB arena: 16,384 nodes of 64 bytes, or some 6,000 of a game on Python states (each
    node holds its move object); first filled, then searched three times as long."""
    engine = EngineProcess(env={} if game == "english" else {"MCTS_ENGINE_NATIVE": "0"})   # gauntlet on Python rules
    try:
        for line in (f"setoption name UCI_Variant value {game}", "setoption name Hash value 1",
                     "setoption name Seed value 5", "position startpos"):
            engine.send(line)
        engine.send(f"go nodes {nodes}")                 # fills the arena
        engine.until("bestmove", timeout=120)
        engine.send("isready")
        engine.until("readyok")
        before = rss_kb(engine.proc.pid)
        engine.send(f"go nodes {3 * nodes}")             # unbounded, the tree would grow several MB
        lines = engine.until("bestmove", timeout=300)
        after = rss_kb(engine.proc.pid)
        infos = [line for line in lines if line.startswith("info depth")]
        hashfull = [int(line.split(" hashfull ")[1].split()[0]) for line in infos]
        assert infos and f" nodes {3 * nodes} " in infos[-1]
        assert max(hashfull) >= 850, hashfull            # full, pruned an eighth at a time
        assert lines[-1].split()[1] in engine.query("moves").split()
        assert after - before < 2 * 1024, (before, after)  # the 1 MB tree was there already: it did not grow
    finally:
        engine.close()
