"""Reference speed measurements from independent draughts implementations.

Measures random-playout and MCTS throughput of OpenSpiel's ``checkers`` game
(C++ core via ``pyspiel``; C++ and Python MCTS bots) and random-playout
throughput of ``pydraughts`` (pure Python, several variants), so that the
numbers of ``mcts-engine`` can be put into perspective.

All timings use process CPU time (``time.process_time()``).  Neither
``open_spiel`` nor ``pydraughts`` is required to import this module: each
function imports its dependency lazily and returns ``None`` when it is
missing.

Run ``python -m mcts_engine.reference --seconds 10`` (add ``--json`` for
machine-readable output).

Notes on what is counted:

* OpenSpiel ``checkers`` (8x8, English-like rules) encodes every single jump
  of a multi-jump as its own action (the same player moves again), so its
  ``plies`` are *actions*, not whole moves; ``turns`` counts changes of the
  player to move (i.e. whole moves).
* pydraughts' ``legal_moves()`` returns whole capture sequences, so one ply is
  one whole move.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any, Callable

__all__ = [
    "openspiel_checkers_playouts",
    "openspiel_checkers_mcts",
    "pydraughts_playouts",
    "main",
]

#: Variants benchmarked by :func:`main` for pydraughts
#: ("standard" is pydraughts' name for international 10x10 draughts).
PYDRAUGHTS_VARIANTS: tuple[str, ...] = ("english", "standard", "russian", "brazilian")

_MISSING_OPEN_SPIEL = "open_spiel is not installed (pip install open_spiel)"
_MISSING_PYDRAUGHTS = "pydraughts is not installed (pip install pydraughts)"


def _rate(count: float, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("nan")


def _load_pyspiel() -> Any | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel


def openspiel_checkers_playouts(seconds: float, seed: int = 0) -> dict | None:
    """Uniformly random playouts of OpenSpiel's ``checkers`` from the start.

    Each playout loops ``state.legal_actions()`` -> uniform choice with
    ``random.Random(seed)`` -> ``state.apply_action(a)`` until
    ``state.is_terminal()``.  Whole games are played until at least
    ``seconds`` of process CPU time have elapsed (the last game is finished,
    so the measured time may slightly exceed ``seconds``).

    Returns ``None`` if open_spiel is not installed, else a dict with keys
    ``playouts``, ``plies`` (actions applied; each jump of a multi-jump is
    one action), ``turns`` (whole moves, i.e. changes of player to move),
    ``cpu_seconds``, ``playouts_per_sec``, ``plies_per_sec``,
    ``turns_per_sec``, ``mean_plies``, ``mean_turns`` and ``returns``
    (wins for player 0 / player 1 / draws).
    """
    pyspiel = _load_pyspiel()
    if pyspiel is None:
        return None
    game = pyspiel.load_game("checkers")
    rng = random.Random(seed)
    choice = rng.choice
    playouts = plies = turns = 0
    wins0 = wins1 = draws = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_initial_state()
        player = state.current_player()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            plies += 1
            current = state.current_player()
            if current != player:
                turns += 1
                player = current
        playouts += 1
        r0 = state.returns()[0]
        if r0 > 0:
            wins0 += 1
        elif r0 < 0:
            wins1 += 1
        else:
            draws += 1
        elapsed = time.process_time() - start
    return {
        "playouts": playouts,
        "plies": plies,
        "turns": turns,
        "cpu_seconds": elapsed,
        "playouts_per_sec": _rate(playouts, elapsed),
        "plies_per_sec": _rate(plies, elapsed),
        "turns_per_sec": _rate(turns, elapsed),
        "mean_plies": plies / playouts,
        "mean_turns": turns / playouts,
        "returns": {"p0_wins": wins0, "p1_wins": wins1, "draws": draws},
    }


def _time_search(
    search: Callable[[int], int], seconds: float, start_sims: int = 50
) -> dict:
    """Time ``search(n) -> simulations actually done`` (one search from the start).

    Calibrates ``n`` by doubling until one search takes >= ~1/4 of the budget
    (or the budget is spent), then repeats searches of that size while CPU
    time remains.  Only the non-calibration searches are used for the rate
    when there are any.
    """
    n = start_sims
    budget_start = time.process_time()
    # Calibration.
    while True:
        t0 = time.process_time()
        done = search(n)
        dt = time.process_time() - t0
        spent = time.process_time() - budget_start
        if dt >= seconds / 4 or spent >= seconds:
            break
        n *= 2
    sims, cpu, searches = done, dt, 1
    measured_sims, measured_cpu, measured_searches = 0, 0.0, 0
    while time.process_time() - budget_start + dt <= seconds * 1.05:
        t0 = time.process_time()
        done = search(n)
        measured_cpu += time.process_time() - t0
        measured_sims += done
        measured_searches += 1
    if measured_searches:
        sims, cpu, searches = measured_sims, measured_cpu, measured_searches
    return {
        "simulations": sims,
        "searches": searches,
        "max_simulations": n,
        "cpu_seconds": cpu,
        "simulations_per_sec": _rate(sims, cpu),
    }


def openspiel_checkers_mcts(seconds: float, seed: int = 0) -> dict | None:
    """MCTS simulations per CPU second on OpenSpiel ``checkers`` (start position).

    Two bots, each with one random rollout per leaf (``RandomRolloutEvaluator``,
    ``n_rollouts=1``), ``uct_c=2``, ``solve=False``, searching once from the
    initial state with ``max_simulations=N`` (N calibrated so that a search
    takes about a quarter of the budget):

    * ``"cpp"``: ``pyspiel.MCTSBot`` (C++ search and rollouts);
    * ``"python"``: ``open_spiel.python.algorithms.mcts.MCTSBot`` (Python
      search over the C++ game).

    The number of simulations done is read from the root's ``explore_count``.
    Each bot gets ``seconds`` of CPU time.  Returns ``None`` if open_spiel is
    not installed, else ``{"cpp": dict | None, "python": dict | None}`` where
    each dict has ``simulations``, ``searches``, ``max_simulations``,
    ``cpu_seconds``, ``simulations_per_sec`` (``None`` if that bot is not
    available).
    """
    pyspiel = _load_pyspiel()
    if pyspiel is None:
        return None
    game = pyspiel.load_game("checkers")
    result: dict[str, dict | None] = {"cpp": None, "python": None}

    if hasattr(pyspiel, "MCTSBot") and hasattr(pyspiel, "RandomRolloutEvaluator"):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)

        def cpp_search(n: int) -> int:
            bot = pyspiel.MCTSBot(
                game, evaluator, 2.0, n, 4000, False, seed, False  # max_memory_mb, solve, seed, verbose
            )
            root = bot.mcts_search(game.new_initial_state())
            return int(root.explore_count)

        result["cpp"] = _time_search(cpp_search, seconds)

    try:
        import numpy as np
        from open_spiel.python.algorithms import mcts as py_mcts  # type: ignore[import-not-found]
    except ImportError:
        py_mcts = None
    if py_mcts is not None:
        rs = np.random.RandomState(seed)

        def py_search(n: int) -> int:
            bot = py_mcts.MCTSBot(
                game,
                uct_c=2.0,
                max_simulations=n,
                evaluator=py_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
                solve=False,
                random_state=rs,
            )
            root = bot.mcts_search(game.new_initial_state())
            return int(root.explore_count)

        result["python"] = _time_search(py_search, seconds, start_sims=10)
    return result


def pydraughts_playouts(variant: str, seconds: float, seed: int = 0) -> dict | None:
    """Uniformly random playouts with pydraughts from the variant's start position.

    Loop: ``board.legal_moves()`` -> uniform choice with
    ``random.Random(seed)`` -> ``board.push(move)`` until ``board.is_over()``.
    pydraughts is slow, so the run stops as soon as ``seconds`` of CPU time
    have passed, even in the middle of a game; only finished games count as
    playouts, but every ply played (including those of the unfinished game)
    counts towards ``plies_per_sec``.

    ``variant`` must be a pydraughts variant name ("standard" = international
    10x10, "english", "russian", "brazilian", "italian", "turkish",
    "frisian", "frysk!", "antidraughts", "breakthrough").  Note pydraughts
    silently treats unknown names as international draughts without its draw
    rules, so a ``ValueError`` is raised here for names it does not know.

    Returns ``None`` if pydraughts is not installed, else a dict with
    ``variant``, ``playouts`` (finished games), ``plies`` (all plies played),
    ``plies_in_finished``, ``unfinished_plies``, ``cpu_seconds``,
    ``playouts_per_sec``, ``plies_per_sec``, ``mean_plies`` (over finished
    games; ``None`` if none finished) and ``results`` (white/black/draw
    counts of finished games).
    """
    known = {"standard", "english", "american", "russian", "brazilian", "italian", "turkish",
             "frisian", "frysk", "frysk!", "antidraughts", "breakthrough", "from position"}
    if variant not in known:
        raise ValueError(f"unknown pydraughts variant {variant!r}; expected one of {sorted(known)}")
    try:
        from draughts import BLACK, WHITE, Board  # type: ignore[import-not-found]
    except ImportError:
        return None
    rng = random.Random(seed)
    choice = rng.choice
    playouts = plies = plies_in_finished = 0
    results = {"white": 0, "black": 0, "draw": 0}
    start = time.process_time()
    elapsed = 0.0
    game_plies = 0
    out_of_time = False
    while not out_of_time:
        board = Board(variant)
        game_plies = 0
        while True:
            if board.is_over():
                playouts += 1
                plies_in_finished += game_plies
                winner = board.winner()
                key = "white" if winner == WHITE else "black" if winner == BLACK else "draw"
                results[key] += 1
                game_plies = 0
                break
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                out_of_time = True
                break
            board.push(choice(board.legal_moves()))
            game_plies += 1
            plies += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            out_of_time = True
    return {
        "variant": variant,
        "playouts": playouts,
        "plies": plies,
        "plies_in_finished": plies_in_finished,
        "unfinished_plies": game_plies,
        "cpu_seconds": elapsed,
        "playouts_per_sec": _rate(playouts, elapsed),
        "plies_per_sec": _rate(plies, elapsed),
        "mean_plies": plies_in_finished / playouts if playouts else None,
        "results": results,
    }


def _fmt(x: Any, spec: str = ",.1f") -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return format(x, spec)
    return str(x)


def main(argv: list[str] | None = None) -> int:
    """Run all reference benchmarks and print a table (or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(
        prog="python -m mcts_engine.reference",
        description="Reference speed of OpenSpiel checkers and pydraughts (CPU time).",
    )
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="CPU seconds per measurement (default: 10)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--variants", default=",".join(PYDRAUGHTS_VARIANTS),
                        help="comma-separated pydraughts variants "
                             f"(default: {','.join(PYDRAUGHTS_VARIANTS)})")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "seconds": args.seconds,
        "seed": args.seed,
    }
    try:
        from importlib.metadata import PackageNotFoundError, version
        for dist in ("open_spiel", "pydraughts"):
            try:
                report[f"{dist}_version"] = version(dist)
            except PackageNotFoundError:
                report[f"{dist}_version"] = None
    except ImportError:  # pragma: no cover
        pass

    report["openspiel_checkers_playouts"] = openspiel_checkers_playouts(args.seconds, args.seed)
    report["openspiel_checkers_mcts"] = openspiel_checkers_mcts(args.seconds, args.seed)
    report["pydraughts_playouts"] = {
        v: pydraughts_playouts(v, args.seconds, args.seed)
        for v in filter(None, (s.strip() for s in args.variants.split(",")))
    }

    if args.json:
        print(json.dumps(report, indent=2))
        return 0

    print(f"Reference benchmarks (CPU seconds per row ~{args.seconds:g}, seed {args.seed}, "
          f"Python {report['python']}, open_spiel {report.get('open_spiel_version')}, "
          f"pydraughts {report.get('pydraughts_version')})")
    header = f"{'engine':<34} {'playouts/s':>11} {'plies/s':>11} {'mean plies':>10} {'games':>7} {'cpu s':>6}"
    print(header)
    print("-" * len(header))
    op = report["openspiel_checkers_playouts"]
    if op is None:
        print(f"{'openspiel checkers (random)':<34} {_MISSING_OPEN_SPIEL}")
    else:
        print(f"{'openspiel checkers (random) [1]':<34} {_fmt(op['playouts_per_sec']):>11} "
              f"{_fmt(op['plies_per_sec'], ',.0f'):>11} {_fmt(op['mean_plies']):>10} "
              f"{op['playouts']:>7} {op['cpu_seconds']:>6.1f}")
    for v, r in report["pydraughts_playouts"].items():
        name = f"pydraughts {v} (random)"
        if r is None:
            print(f"{name:<34} {_MISSING_PYDRAUGHTS}")
        else:
            print(f"{name:<34} {_fmt(r['playouts_per_sec'], ',.2f'):>11} "
                  f"{_fmt(r['plies_per_sec'], ',.0f'):>11} {_fmt(r['mean_plies']):>10} "
                  f"{r['playouts']:>7} {r['cpu_seconds']:>6.1f}")
    print()
    header = f"{'MCTS (1 random rollout/leaf)':<34} {'sims/s':>11} {'N/search':>11} {'searches':>10} {'cpu s':>7}"
    print(header)
    print("-" * len(header))
    m = report["openspiel_checkers_mcts"]
    if m is None:
        print(f"{'openspiel MCTS':<34} {_MISSING_OPEN_SPIEL}")
    else:
        for key, label in (("cpp", "openspiel C++ MCTSBot"), ("python", "openspiel Python MCTSBot")):
            r = m[key]
            if r is None:
                print(f"{label:<34} not available")
            else:
                print(f"{label:<34} {_fmt(r['simulations_per_sec'], ',.0f'):>11} "
                      f"{r['max_simulations']:>11} {r['searches']:>10} {r['cpu_seconds']:>7.1f}")
    if op is not None:
        print()
        print(f"[1] OpenSpiel plies = actions (each jump of a multi-jump is one action); "
              f"whole moves: {_fmt(op['turns_per_sec'], ',.0f')}/s, mean {_fmt(op['mean_turns'])}/game; "
              f"results p0/p1/draw = {op['returns']['p0_wins']}/{op['returns']['p1_wins']}/"
              f"{op['returns']['draws']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
