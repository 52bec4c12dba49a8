"""The Optuna optimizers of ``mcts-tournament tune`` (``pip install 'mcts-engine[tune]'``).

Each trial is one iteration: Optuna proposes values, the trial engine plays ``K``
colour-swapped pairs against the baseline (the engine at the start values), or against the
opponent when the tune has one, through the tournament runner, and the trial's score is its
logistic Elo against it (kept half a game from a clean sweep).  ``optuna-tpe`` is the
tree-structured Parzen estimator, ``optuna-cmaes`` CMA-ES (the ``cmaes`` package),
``optuna-gp`` Gaussian-process Bayesian optimization (needs PyTorch and SciPy, which the
``tune`` extra leaves out).

Optuna keeps its own study in a JournalStorage file next to our journal
(``tune.optuna.log`` beside ``tune.jsonl``).  Our journal is written first (the trial's
games, then its iteration line), then the trial is told to Optuna, so after a kill the two
are reconciled on the rerun: a trial Optuna still thinks running either has its iteration
line (it is told now) or is the cut-off iteration, whose match continues with the same
values.  The sampler is made afresh for every trial with a seed from ``(seed, iteration)``,
so a resumed study proposes what the unbroken one would have.
"""
from __future__ import annotations

import importlib.util
from typing import Callable

import numpy as np

from ..play.executors import Executor
from .iterations import play_iteration
from .journal import TuneJournal
from .model import clamped_elo
from .params import ParamError, starts
from .settings import BASELINE, TRIAL, TuneSettings

STUDY = "tune"


def missing_dependency(optimizer: str) -> str | None:
    """Why ``optimizer`` cannot run here (a missing package, and how to get it), or None."""
    needs = {"optuna-tpe": ["optuna"], "optuna-cmaes": ["optuna", "cmaes"],
             "optuna-gp": ["optuna", "torch", "scipy"]}[optimizer]
    missing = [name for name in needs if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    how = "pip install 'mcts-engine[tune]'" + (" torch scipy" if optimizer == "optuna-gp" else "")
    return f"--optimizer {optimizer} needs {', '.join(missing)}: {how}"


def _sampler(optimizer: str, seed: int, iterations: int):
    import optuna
    if optimizer == "optuna-tpe":
        return optuna.samplers.TPESampler(seed=seed, n_startup_trials=max(2, min(10, iterations // 5)))
    if optimizer == "optuna-cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False)
    if optimizer == "optuna-gp":
        return optuna.samplers.GPSampler(seed=seed, deterministic_objective=False)
    raise ValueError(f"unknown optimizer {optimizer!r}")


def _distributions(tune: TuneSettings) -> dict:
    from optuna.distributions import FloatDistribution, IntDistribution
    return {p.name: IntDistribution(int(p.low), int(p.high)) if p.integer else FloatDistribution(p.low, p.high)
            for p in tune.params}


def _trial_seed(seed: int, k: int) -> int:
    return int(np.random.SeedSequence([seed, k]).generate_state(1)[0])


def study_for(tune: TuneSettings, storage_path: str):
    """The tune's Optuna study in its JournalStorage file (created, or loaded to continue)."""
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = JournalStorage(JournalFileBackend(storage_path))
    return optuna.create_study(study_name=STUDY, storage=storage, direction="maximize", load_if_exists=True,
                               sampler=_sampler(tune.optimizer, tune.seed, tune.iterations))


def run_optuna(tune: TuneSettings, journal: TuneJournal, storage_path: str,
               on_game: Callable[[dict], None] | None = None,
               on_iteration: Callable[[dict], None] | None = None, executor: Executor | None = None) -> list[dict]:
    """Run (or continue) an Optuna tune to its last trial (each trial's games on ``executor``);
    every iteration's record."""
    from optuna.trial import TrialState
    problem = missing_dependency(tune.optimizer)
    if problem:
        raise ParamError(problem)
    done = journal.start(tune).iterations
    study = study_for(tune, storage_path)
    names = [p.name for p in tune.params]
    pending = _reconcile(study, done, names, journal.path, storage_path)
    # in self-play the trial plays the start values; with an opponent, the opponent alone
    baseline = [] if tune.opponent is not None else [tune.engine_with(BASELINE, starts(tune.params))]
    for k in range(len(done) + 1, tune.iterations + 1):
        if pending is None:
            study.sampler = _sampler(tune.optimizer, _trial_seed(tune.seed, k), tune.iterations)
            trial = study.ask(_distributions(tune))
            number, params = trial.number, trial.params
        else:
            number, params = pending.number, pending.params
            pending = None
        values = [float(params[n]) for n in names]
        (result,) = play_iteration(tune, journal, k, [tune.engine_with(TRIAL, values), *baseline], on_game, executor)
        elo = clamped_elo(result.points, result.games)
        record = {"iteration": k, "trial": number, "values": values, "elo": elo, **result.fields()}
        journal.finish(record)
        study.tell(number, elo, state=TrialState.COMPLETE)
        done.append({"type": "iteration", **record})
        if on_iteration is not None:
            on_iteration(done[-1])
    return done


def _reconcile(study, done: list[dict], names: list[str], journal_path: str, storage_path: str):
    """Bring the Optuna study level with our journal after a kill; the cut-off trial to
    continue (a FrozenTrial), or None."""
    from optuna.trial import TrialState
    trials = study.get_trials(deepcopy=False)
    told = {r["trial"]: r for r in done}
    pending = None
    for t in trials:
        if t.number in told:
            if t.state == TrialState.RUNNING:       # killed between our line and the tell
                study.tell(t.number, told[t.number]["elo"], state=TrialState.COMPLETE)
            continue
        if t.state == TrialState.RUNNING and pending is None and set(t.params) == set(names):
            pending = t                             # the trial the kill cut off: finish its match
        elif t.state == TrialState.RUNNING:
            study.tell(t.number, state=TrialState.FAIL)   # killed before its values were drawn
        elif t.state == TrialState.COMPLETE:
            raise ParamError(f"Optuna storage {storage_path} has trial {t.number}, which journal "
                             f"{journal_path} does not: the two files belong to different runs")
    missing = set(told) - {t.number for t in trials}
    if missing:
        raise ParamError(f"Optuna storage {storage_path} lacks trials {sorted(missing)} of journal "
                         f"{journal_path}: keep the two files together (or start a new --journal)")
    return pending

