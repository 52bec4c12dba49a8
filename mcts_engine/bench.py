"""Speed measurements behind ``mcts-engine bench``.

MCTS strength is playouts per second, so these are the numbers we track:
random playouts from the start position (whole games, uniformly random legal
moves, measured in process CPU time), plies per second, and perft leaves per
second.  Benchmarks are run by hand or in CI as information, never as timed tests.
"""
from __future__ import annotations

import random
import time

from .rules import get_game
from .rules.base import Game


def playout_rate(game: Game, seconds: float, seed: int = 1) -> dict:
    """Random playouts from the start for at least ``seconds`` of CPU time.

    Uses the state's ``playout(rng)`` fast path when it has one, else the
    ``random_move``/``play`` loop.
    """
    rng = random.Random(seed)
    playouts = plies = 0
    results = {1.0: 0, 0.5: 0, 0.0: 0}
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_state()
        if hasattr(state, "playout"):
            outcome = state.playout(rng)
            plies += getattr(state, "ply", 0)
        else:
            while (move := state.random_move(rng)) is not None:
                state.play(move)
                plies += 1
            outcome = state.outcome()
        results[outcome] = results.get(outcome, 0) + 1
        playouts += 1
        elapsed = time.process_time() - start
    return {"playouts": playouts, "plies": plies, "cpu_seconds": elapsed,
            "playouts_per_sec": playouts / elapsed, "plies_per_sec": plies / elapsed,
            "mean_plies": plies / playouts,
            "results": {"p1_wins": results[1.0], "p2_wins": results[0.0], "draws": results[0.5]}}


def uct_rate(game: Game, seconds: float, seed: int = 1) -> dict:
    """UCT iterations per CPU-second from the start position (one process, random playouts)."""
    import threading

    from .search import Limits, Settings
    from .uct import UctAgent

    agent = UctAgent(game, Settings(seed=seed))
    start = time.process_time()
    result = agent.search(game.new_state(), Limits(movetime=seconds), threading.Event())
    elapsed = time.process_time() - start
    return {"iterations": result.info.nodes, "cpu_seconds": elapsed,
            "iterations_per_sec": result.info.nodes / elapsed if elapsed else 0.0}


def perft_rate(game: Game, seconds: float) -> dict:
    """Perft from the start at increasing depth until one depth takes ``seconds / 4`` of CPU time."""
    state = game.new_state()
    depth, leaves, elapsed = 0, 0, 0.0
    while elapsed < seconds / 4 and depth < 30:
        depth += 1
        start = time.process_time()
        leaves = game.perft(state, depth)
        elapsed = time.process_time() - start
    return {"depth": depth, "leaves": leaves, "cpu_seconds": elapsed,
            "leaves_per_sec": leaves / elapsed if elapsed else 0.0}


def run(games: list[str], seconds: float, seed: int = 1) -> list[dict]:
    """Bench every game: playouts, UCT and perft, about ``seconds`` of CPU time for each."""
    rows = []
    for name in games:
        game = get_game(name)
        rows.append({"game": name, "playouts": playout_rate(game, seconds, seed),
                     "uct": uct_rate(game, seconds, seed), "perft": perft_rate(game, seconds)})
    return rows


def table(rows: list[dict], reference: dict | None = None) -> str:
    """The bench rows as an aligned text table for people."""
    head = (f"{'game':<14} {'playouts/s':>11} {'plies/s':>10} {'plies/game':>10} {'uct it/s':>9} "
            f"{'perft leaves/s':>15} {'depth':>5}")
    lines = [head, "-" * len(head)]
    for r in rows:
        p, f = r["playouts"], r["perft"]
        lines.append(f"{r['game']:<14} {p['playouts_per_sec']:>11,.0f} {p['plies_per_sec']:>10,.0f} "
                     f"{p['mean_plies']:>10.1f} {r['uct']['iterations_per_sec']:>9,.0f} "
                     f"{f['leaves_per_sec']:>15,.0f} {f['depth']:>5}")
    if reference:
        lines.append("")
        lines.append("reference (same run, CPU time):")
        for name, r in reference.items():
            if r is None:
                lines.append(f"  {name}: not installed")
            else:
                lines.append(f"  {name}: {r['playouts_per_sec']:,.0f} playouts/s, "
                             f"{r.get('turns_per_sec', r['plies_per_sec']):,.0f} moves/s, "
                             f"{r.get('mean_turns', r['mean_plies']):.1f} moves/game")
    return "\n".join(lines)
