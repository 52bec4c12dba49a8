"""The confirmation match of a tune: the tuned values against the start values (or another
engine), with its Elo and SPRT."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from mcts_engine.client import EngineSpec

from ..play.conditions import Opening
from ..play.executors import Executor
from ..play.runner import Tournament, TournamentSettings
from ..results.elo import match_estimate
from ..results.journal import Journal
from ..results.report import engine_names, sprt_verdict
from ..results.sprt import SPRT
from .iterations import PairResults, results_of
from .params import starts
from .settings import START, TUNED, TuneSettings

__all__ = ["SprtVerdict", "Confirmation", "confirm", "confirmation_of", "load_confirmation"]


@dataclass(frozen=True)
class SprtVerdict:
    """The confirmation's SPRT: its bounds, the log-likelihood ratio, and H0, H1 or None."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float
    status: str | None


@dataclass(frozen=True)
class Confirmation:
    """The tuned values against the baseline: results, Elo with its 95% interval (game pairs),
    the SPRT's verdict."""

    against: str
    path: str
    results: PairResults
    elo: float
    elo_low: float
    elo_high: float
    sprt: SprtVerdict | None


def confirm(tune: TuneSettings, values: Sequence[float], games: int, path: str, openings: tuple[Opening, ...],
            against: EngineSpec | None = None, sprt: SPRT | None = None,
            on_game: Callable[[dict], None] | None = None, executor: Executor | None = None) -> Confirmation:
    """Play the tuned ``values`` against the start values (or ``against``) for ``games`` games
    in colour-swapped pairs, journaled in ``path`` (rerun: continued), stopping early when
    the SPRT decides."""
    base = against if against is not None else tune.engine_with(START, starts(tune.params))
    if base.name == TUNED:
        raise ValueError(f"the confirmation's baseline cannot be called {TUNED!r}: give it another name=")
    settings = TournamentSettings(replace(tune.conditions, openings=openings), (tune.engine_with(TUNED, values), base),
                                  kind="match", games=games)
    journal = Journal(path)
    header = None

    def should_stop(played: list[dict]) -> bool:
        return sprt is not None and sprt_verdict(played, header, sprt)["status"] is not None

    tournament = Tournament(settings, journal, on_game=on_game, should_stop=should_stop, executor=executor)
    todo, done = tournament.prepare()
    header, _ = journal.load()
    if sprt is not None and done and should_stop(done):
        todo = []
    return confirmation_of(tournament.run(todo, done), header, path, sprt)


def confirmation_of(games: list[dict], header: dict | None, path: str, sprt: SPRT | None) -> Confirmation:
    """The confirmation's statistics from its journaled games."""
    names = engine_names(games, header)
    results = results_of(games, names[0], names[1])
    estimate = match_estimate(results, results.pentanomial)
    verdict = None
    if sprt is not None:
        llr = sprt.llr_pentanomial(results.pentanomial) if sum(results.pentanomial) else \
            sprt.llr(results.wins, results.draws, results.losses)
        verdict = SprtVerdict(sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, sprt.lower, sprt.upper,
                              sprt.status(llr))
    return Confirmation(names[1], path, results, estimate.elo, estimate.low, estimate.high, verdict)


def load_confirmation(path: str, sprt: SPRT | None) -> Confirmation | None:
    """The confirmation match journaled at ``path``, if it has games."""
    if not os.path.exists(path):
        return None
    header, games = Journal(path).load()
    return confirmation_of(games, header, path, sprt) if games else None
