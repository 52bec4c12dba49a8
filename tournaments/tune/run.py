"""Running a tune: the optimizer checked, then SPSA's loop or Optuna's (``optuna_tuner``).

SPSA's loop: per iteration, the probe of ``spsa`` (seeded by the iteration), theta+ and
theta- played against each other (or each against the opponent) through
``iterations.play_iteration``, the update, and the iteration's line in the tune journal,
which is what a resumed run continues from.
"""
from __future__ import annotations

from typing import Callable

from ..play.executors import Executor
from .optuna_tuner import missing_dependency, run_optuna
from .spsa import make_schedule, opponent_result, probe, update
from .iterations import PairResults, play_iteration
from .journal import TuneJournal
from .settings import MINUS, PLUS, TuneSettings, paths
from .defaults import OPTIMIZERS
from .params import starts


def check_optimizer(tune: TuneSettings) -> None:
    """ValueError naming the problem when the optimizer cannot run: SPSA without c_end and
    r_end, an Optuna optimizer whose packages are missing."""
    if tune.optimizer not in OPTIMIZERS:
        raise ValueError(f"unknown optimizer {tune.optimizer!r} (one of {', '.join(OPTIMIZERS)})")
    if tune.optimizer == "spsa":
        make_schedule(tune.params, tune.iterations, tune.spsa.a_ratio, tune.spsa.alpha, tune.spsa.gamma)
        return
    problem = missing_dependency(tune.optimizer)
    if problem:
        raise ValueError(problem)


def run_spsa(tune: TuneSettings, journal: TuneJournal, on_game: Callable[[dict], None] | None = None,
             on_iteration: Callable[[dict], None] | None = None, executor: Executor | None = None) -> list[dict]:
    """Run (or continue) an SPSA tune to its last iteration; every iteration's record."""
    done = journal.start(tune).iterations
    schedule = make_schedule(tune.params, tune.iterations, tune.spsa.a_ratio, tune.spsa.alpha, tune.spsa.gamma)
    theta = tuple(done[-1]["theta"]) if done else tuple(map(float, starts(tune.params)))
    for k in range(len(done) + 1, tune.iterations + 1):
        p = probe(tune.params, schedule, theta, k, tune.seed)
        results = play_iteration(tune, journal, k, [tune.engine_with(PLUS, p.plus), tune.engine_with(MINUS, p.minus)],
                                 on_game, executor)
        result, fields = spsa_result(results)
        before, theta = theta, update(tune.params, theta, p, result)
        record = {"iteration": k, "theta_before": list(before), "theta": list(theta), "flips": list(p.flips),
                  "c": list(p.c), "r": list(p.r), "plus": list(p.plus), "minus": list(p.minus), **fields}
        journal.finish(record)
        done.append({"type": "iteration", **record})
        if on_iteration is not None:
            on_iteration(done[-1])
    return done


def spsa_result(results: tuple[PairResults, ...]) -> tuple[int, dict]:
    """The result ``spsa.update`` takes and the iteration record's fields of an iteration's
    results: theta+ against theta- (one pairing), its W - L and W/D/L; or theta+ and theta-
    each against the opponent (two), ``spsa.opponent_result`` as ``result`` and both sides'
    W/D/L under ``vs_opponent``."""
    if len(results) == 1:
        return results[0].wins - results[0].losses, results[0].fields()
    plus, minus = results
    result = opponent_result(plus, minus)
    return result, {"result": result, "vs_opponent": {"plus": plus.fields(), "minus": minus.fields()}}


def run(tune: TuneSettings, journal: TuneJournal, on_game: Callable[[dict], None] | None = None,
        on_iteration: Callable[[dict], None] | None = None, executor: Executor | None = None) -> list[dict]:
    """Run (or continue) the tune with its optimizer; every iteration's record.  Each
    iteration's games run on ``executor`` (local threads by default, or a Dask cluster)."""
    try:
        if tune.optimizer == "spsa":
            return run_spsa(tune, journal, on_game, on_iteration, executor)
        return run_optuna(tune, journal, paths(journal.path).optuna, on_game, on_iteration, executor)
    finally:
        journal.close()
