"""Playing a tune's iterations: each one's match through the tournament runner, its results,
and the engine's pre-flight (its declarations decide the parameters' types)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from mcts_engine.client import EngineError, EngineProcess, EngineSpec

from ..play.executors import Executor
from ..play.runner import Tournament
from ..results.elo import WDL
from ..results.pairs import pair_report
from ..results.report import score_for
from .journal import TuneJournal
from .params import ParamError, with_engine_types
from .settings import TuneSettings

__all__ = ["PairResults", "results_of", "play_iteration", "check_engine"]


@dataclass(frozen=True)
class PairResults(WDL):
    """The first engine's results in an iteration's match: its W/D/L (``games``, ``points``)
    and the pentanomial counts of its game pairs."""

    pentanomial: tuple[int, ...] = (0, 0, 0, 0, 0)


def results_of(games: list[dict], first: str, second: str) -> PairResults:
    """The W/D/L and pentanomial counts of ``first`` against ``second`` in ``games``."""
    ps = pair_report(first, second, [(g["pair"], score_for(g, first))
                                           for g in sorted(games, key=lambda g: g["id"])])
    return PairResults(ps.wins, ps.draws, ps.losses, tuple(ps.pentanomial))


def play_iteration(tune: TuneSettings, journal: TuneJournal, k: int, engines: list[EngineSpec],
                   on_game: Callable[[dict], None] | None = None, executor: Executor | None = None) -> PairResults:
    """Play (or finish) iteration ``k``'s match through the tournament runner (on ``executor``:
    local threads by default, or a Dask cluster's workers)."""
    tournament = Tournament(tune.match(k, engines), journal.iteration(k), on_game=on_game, executor=executor)
    todo, done = tournament.prepare()
    games = tournament.run(todo, done)
    return results_of(games, engines[0].name, engines[1].name)


def check_engine(tune: TuneSettings, startup_timeout: float = 10.0) -> TuneSettings:
    """The tune with its parameters' types decided by the engine's declarations, once the
    engine has accepted every parameter at its min and at its max (so no game is lost to a
    value the engine refuses).  Raises ParamError naming the parameter."""
    clash = [p.name for p in tune.params if p.name.lower() in {o.lower() for o in tune.engine.options}]
    if clash:
        raise ParamError(f"--engine sets {', '.join(clash)}, which the tune varies: leave "
                         f"option.{clash[0]}=... out of the spec")
    spec = tune.engine
    if spec.protocol != "uci":
        raise ParamError(f"engine {spec.name} speaks protocol={spec.protocol}: the tuner sets options through "
                         "our protocol (uci), whose engines declare them")
    try:
        with EngineProcess(spec, startup_timeout, game=tune.conditions.game, rules=tune.conditions.rules) as engine:
            declared = dict(engine.options_declared)
    except EngineError as err:
        raise ParamError(f"engine {spec.name} did not start: {err}") from None
    params = with_engine_types(tune.params, declared, spec.name)
    tune = replace(tune, params=params)
    for end, values in (("min", [p.low for p in params]), ("max", [p.high for p in params])):
        try:
            with EngineProcess(tune.engine_with(spec.name, values), startup_timeout, game=tune.conditions.game,
                               rules=tune.conditions.rules):
                pass
        except EngineError as err:
            raise ParamError(f"engine {spec.name} refuses the parameters at their {end}: {err}") from None
    return tune
