"""Speed measurements behind ``mcts-engine bench``.

MCTS strength is playouts per second, so these are the numbers we track:
random playouts from the start position (whole games, uniformly random legal
moves, measured in process CPU time), plies per second, and perft leaves per
second.  Benchmarks are run by hand or in CI as information, never as timed tests.

``bench`` alone answers in seconds: ``QUICK_GAME`` on ``QUICK_CORES`` (the engine's default
game on the core it plays with); ``--game`` names games, ``--all`` measures every game on
both cores (minutes).
"""
from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, replace

from .agents import make_agent, search_plan
from .mcts.core import NODE_BYTES
from .mcts.limits import Limits
from .mcts.settings import MAX_ROOT_CHECK, Settings
from .mcts.uct import UctAgent
from .native import StopSignal
from .parallel.pool import WorkerPool
from .protocol.options import OptionError, OptionValues
from .rules import get_game
from .rules.base import Game


GAME_OPTIONS = ("uci_variant", "rules")   # bench chooses games with --game, not with options


def search_settings(options: list[str] | tuple[str, ...], seed: int | None = 1, game: str = "english",
                    defaults: str = "plain") -> Settings:
    """The search settings of engine options given as ``NAME=VALUE`` (bench's ``--option``,
    checked as the engine checks them; ``UCI_Variant`` and ``Rules`` are not search options),
    with ``seed`` (None: the options' ``Seed``), for the game named ``game``; raises
    OptionError naming a bad one.  ``defaults`` is the ``Defaults`` value unless the options
    set one: the speed figures measure plain UCT, the endgame suite each game's defaults."""
    values = OptionValues()
    values.set_game(game)
    values.values["defaults"] = defaults
    for text in options:
        name, sep, value = text.partition("=")
        if not sep:
            raise OptionError(f"option {text!r} is not NAME=VALUE")
        if " ".join(name.split()).lower() in GAME_OPTIONS:
            raise OptionError(f"option {name.strip()} chooses the game: use --game")
        values.apply(values.check(name, value))
    settings = values.settings()
    return settings if seed is None else replace(settings, seed=seed)


CORES = ("native", "python")   # bench --core: the compiled kernel, or the Python rules (the reference)
QUICK_GAME = "english"         # bench alone: the engine's default game (UCI_Variant) ...
QUICK_CORES = ("native",)      # ... on the core it plays with (its Python rules where it has no kernel)


@dataclass(frozen=True)
class BenchSelection:
    """What a speed bench measures: these games, each on these rules cores."""

    games: list[str]
    cores: tuple[str, ...]


def selection(games: list[str], every: bool, cores: tuple[str, ...], all_games: list[str]) -> BenchSelection:
    """The games named (both cores unless ``cores``), every game of ``all_games`` with ``every``
    (``--all``: the whole table, minutes), else the quick default that answers in seconds
    (``QUICK_GAME`` on ``QUICK_CORES`` unless ``cores``)."""
    if games or every:
        return BenchSelection(list(games) or list(all_games), cores or CORES)
    return BenchSelection([QUICK_GAME], cores or QUICK_CORES)


def kernel_playout_rate(game: Game, seconds: float, seed: int = 1) -> dict | None:
    """Random playouts from the start run by the native kernel alone (in C, batches of them,
    native random numbers), for at least ``seconds`` of CPU time: the rules' own speed, as the
    native search runs them; None for a game without the kernel."""
    if not game.native:
        return None
    state = game.new_state()
    playouts = plies = batch = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        batch = min(max(batch * 2, 64), 100_000)
        wins, draws, losses, batch_plies = game.kernel.playouts(state.raw(), batch, seed + playouts)
        playouts += batch
        plies += batch_plies
        elapsed = time.process_time() - start
    return {"playouts": playouts, "plies": plies, "cpu_seconds": elapsed, "playouts_per_sec": playouts / elapsed,
            "plies_per_sec": plies / elapsed}


def playout_rate(game: Game, seconds: float, seed: int = 1) -> dict:
    """Random playouts from the start for at least ``seconds`` of CPU time.

    Each game is the state's ``playout(rng)`` (a game's fast path, or the contract's
    generic ``random_move``/``play`` loop), exactly as the search's random playouts run.
    """
    rng = random.Random(seed)
    playouts = plies = 0
    results = {1.0: 0, 0.5: 0, 0.0: 0}
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_state()
        outcome = state.playout(rng)
        plies += state.ply
        results[outcome] = results.get(outcome, 0) + 1
        playouts += 1
        elapsed = time.process_time() - start
    return {"playouts": playouts, "plies": plies, "cpu_seconds": elapsed,
            "playouts_per_sec": playouts / elapsed, "plies_per_sec": plies / elapsed,
            "mean_plies": plies / playouts,
            "results": {"p1_wins": results[1.0], "p2_wins": results[0.0], "draws": results[0.5]}}


def uct_rate(game: Game, seconds: float, seed: int = 1, settings: Settings | None = None) -> dict:
    """UCT iterations per CPU-second from the start position (one process; default settings,
    random playouts, unless ``settings`` are given)."""
    agent = UctAgent(game, settings or Settings(seed=seed))
    start = time.process_time()
    result = agent.search(game.new_state(), Limits(movetime=seconds), StopSignal())
    elapsed = time.process_time() - start
    return {"iterations": result.info.nodes, "cpu_seconds": elapsed,
            "iterations_per_sec": result.info.nodes / elapsed if elapsed else 0.0}


def alphabeta_rate(game: Game, seconds: float, settings: Settings) -> dict:
    """The core's alpha-beta (the root check's: ``RootCheck`` d, margin 0, under a node limit so
    that it always reaches d) from the start at increasing depth until one depth takes
    ``seconds / 4`` of CPU time: its nodes a CPU-second there, with the engine's options
    (``AlphaBetaPrune`` among them), as Stockfish's bench counts nodes to a depth."""
    depth, nodes, elapsed = 0, 0, 0.0
    while elapsed < seconds / 4 and depth < MAX_ROOT_CHECK:
        agent = UctAgent(game, replace(settings, root_check=depth + 1, root_margin=0.0))
        start = time.process_time()
        agent.search(game.new_state(), Limits(nodes=1), StopSignal())
        stats = agent.core.stats()
        agent.close()
        if stats["check_depth"] <= depth:      # one move at the root: nothing to check
            break
        depth, nodes, elapsed = stats["check_depth"], stats["check_nodes"], time.process_time() - start
    return {"depth": depth, "nodes": nodes, "cpu_seconds": elapsed,
            "nodes_per_sec": nodes / elapsed if elapsed else 0.0}


def resident_bytes() -> int:
    """This process's resident memory (Linux: /proc/self/statm; elsewhere 0)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def memory_per_node(game: Game, nodes: int = 30000, seed: int = 1, settings: Settings | None = None) -> dict:
    """The search tree's memory after a ``nodes``-iteration search from the start: the nodes
    in the arena (each listed move is a node), its bytes per node (``NODE_BYTES``, fixed), how
    many nodes ``Hash`` holds, and what the process's resident memory grew by (the arena's
    pages are taken as they are first used, so this is the tree's real cost).  ``settings``:
    the search's (default settings unless given)."""
    settings = settings or Settings(seed=seed)
    before = resident_bytes()
    agent = UctAgent(game, settings)
    agent.search(game.new_state(), Limits(nodes=nodes), StopSignal())
    grown = resident_bytes() - before
    stats = agent.core.stats(0)
    agent.close()
    return {"iterations": stats["iterations"], "nodes": stats["used"], "bytes_per_node": NODE_BYTES,
            "capacity": stats["capacity"], "hash_mb": settings.hash_mb,
            "resident_per_node": grown / stats["used"] if stats["used"] else 0.0}


def memory_table(rows: list[dict]) -> str:
    """The search tree's memory per game, as a text table."""
    head = (f"{'game':<14} {'iterations':>10} {'nodes':>9} {'bytes/node':>10} {'resident/node':>13} "
            f"{'Hash MB':>7} {'holds nodes':>12}")
    lines = [head, "-" * len(head)]
    for r in rows:
        m = r["memory"]
        lines.append(f"{r['game']:<14} {m['iterations']:>10,} {m['nodes']:>9,} {m['bytes_per_node']:>10} "
                     f"{m['resident_per_node']:>13,.1f} {m['hash_mb']:>7} {m['capacity']:>12,}")
    return "\n".join(lines)


def parallel_rate(game: Game, threads: int, seconds: float, seed: int = 1, pool=None,
                  settings: Settings | None = None) -> dict:
    """UCT iterations per WALL-second from the start with ``threads`` searchers.

    Parallel search turns cores into iterations, so this is the one wall-clock
    benchmark: OS threads where the game's rules are native, worker processes (started in
    ``pool``, or a private one, before the clock starts) where they are Python; one search of
    ``seconds`` is timed, after a short warm-up.
    """
    settings = replace(settings or Settings(seed=seed), threads=threads, move_overhead=0.0)
    mode = "processes" if search_plan(game, settings).workers else "threads"
    own = threads > 1 and pool is None
    if own:
        pool = WorkerPool()
    agent = make_agent(game, settings, pool)
    try:
        agent.search(game.new_state(), Limits(movetime=min(0.2, seconds)), StopSignal())  # warm-up
        agent.new_game()
        start = time.perf_counter()
        result = agent.search(game.new_state(), Limits(movetime=seconds), StopSignal())
        elapsed = time.perf_counter() - start
    finally:
        agent.close()
        if own:
            pool.close()
    return {"threads": threads, "mode": mode, "iterations": result.info.nodes, "wall_seconds": elapsed,
            "iterations_per_sec": result.info.nodes / elapsed if elapsed else 0.0}


def run_parallel(games: list[str], threads: list[int], seconds: float, seed: int = 1,
                 options: tuple[str, ...] = ()) -> list[dict]:
    """For each game, UCT iterations per wall-second at each thread count, and the speed-up
    over the first count; ``options``: engine options (``search_settings``)."""
    pool = WorkerPool()
    rows = []
    try:
        pool.ensure(max(threads) - 1)
        for name in games:
            game = get_game(name)
            settings = search_settings(options, seed, name)
            rates = [parallel_rate(game, t, seconds, seed, pool, settings) for t in threads]
            base = rates[0]["iterations_per_sec"] or 1.0
            for r in rates:
                r["speedup"] = r["iterations_per_sec"] / base
            rows.append({"game": name, "mode": rates[0]["mode"], "rates": rates})
    finally:
        pool.close()
    return rows


def parallel_table(rows: list[dict], reference: dict | None = None) -> str:
    """The parallel bench rows as a text table: it/s (wall) per thread count, and speed-up."""
    counts = [r["threads"] for r in rows[0]["rates"]] if rows else []
    head = f"{'game':<14} {'mode':<9}" + "".join(f" {f'{t} thr it/s':>12}" for t in counts) + \
        "".join(f" {f'x{t}':>6}" for t in counts[1:])
    lines = [head, "-" * len(head)]
    for row in rows:
        rates = row["rates"]
        lines.append(f"{row['game']:<14} {row['mode']:<9}"
                     + "".join(f" {r['iterations_per_sec']:>12,.0f}" for r in rates)
                     + "".join(f" {r['speedup']:>6.2f}" for r in rates[1:]))
    if reference:
        lines.append("")
        lines.append("reference (same run, one process):")
        for name, r in reference.items():
            lines.append(f"  {name}: " + ("not installed" if r is None
                                          else f"{r['simulations_per_sec']:,.0f} simulations/s"))
    return "\n".join(lines)


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


def run(games: list[str], seconds: float, seed: int = 1, options: tuple[str, ...] = (),
        cores: tuple[str, ...] = ("native",)) -> list[dict]:
    """Bench every game on each of ``cores`` (``native`` where the game has the kernel,
    ``python``): playouts, UCT (with the engine ``options``, ``search_settings``) and perft,
    about ``seconds`` of CPU time for each; a game without the kernel is measured once, as
    ``python``; the alpha-beta's nodes to a depth (``alphabeta_rate``) likewise."""
    rows = []
    for name in games:
        done = set()
        for core in cores:
            game = get_game(name, native=core == "native")
            core = "native" if game.native else "python"
            if core in done:
                continue
            done.add(core)
            settings = search_settings(options, seed, name)
            rows.append({"game": name, "core": core, "playouts": playout_rate(game, seconds, seed),
                         "kernel": kernel_playout_rate(game, seconds, seed),
                         "uct": uct_rate(game, seconds, seed, settings),
                         "alphabeta": alphabeta_rate(game, seconds, settings),
                         "perft": perft_rate(game, seconds)})
    return rows


def table(rows: list[dict], reference: dict | None = None) -> str:
    """The bench rows as an aligned text table for people: ``playouts/s`` are playouts called
    from Python (``state.playout``, as the search calls them), ``kernel/s`` the kernel's own
    batches in C."""
    head = (f"{'game':<14} {'core':<6} {'playouts/s':>11} {'kernel/s':>9} {'plies/s':>11} {'plies/game':>10} "
            f"{'uct it/s':>9} {'ab nodes/s':>11} {'depth':>5} {'perft leaves/s':>15} {'depth':>5}")
    lines = [head, "-" * len(head)]
    for r in rows:
        p, f, k, ab = r["playouts"], r["perft"], r["kernel"], r["alphabeta"]
        kernel = f"{k['playouts_per_sec']:>9,.0f}" if k else f"{'-':>9}"
        lines.append(f"{r['game']:<14} {r['core']:<6} {p['playouts_per_sec']:>11,.0f} {kernel} "
                     f"{(k or p)['plies_per_sec']:>11,.0f} {p['mean_plies']:>10.1f} "
                     f"{r['uct']['iterations_per_sec']:>9,.0f} {ab['nodes_per_sec']:>11,.0f} {ab['depth']:>5} "
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
