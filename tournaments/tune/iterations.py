"""Playing a tune's iterations: each one's tournament through the tournament runner (a match
in self-play, a gauntlet of the opponent against the engines under test), its results, and
the pre-flight (the engine's declarations decide the parameters' types; the opponent must
start)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from mcts_engine.client import EngineError, EngineProcess, EngineSpec

from ..play.executors import Executor
from ..play.preflight import EngineCheckError, check_engines
from ..play.referee import Lineup
from ..play.runner import Tournament
from ..results.elo import WDL
from ..results.pairs import pair_report
from ..results.report import score_for
from .journal import TuneJournal
from .params import ParamError, with_engine_types
from .settings import TuneSettings

__all__ = ["PairResults", "results_of", "iteration_results", "play_iteration", "check_engine"]


@dataclass(frozen=True)
class PairResults(WDL):
    """One engine's results against another: its W/D/L (``games``, ``points``) and the
    pentanomial counts of its game pairs."""

    pentanomial: tuple[int, ...] = (0, 0, 0, 0, 0)

    def fields(self) -> dict:
        """The results as an iteration record's fields: wins, draws, losses, pentanomial."""
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses, "pentanomial": list(self.pentanomial)}


def results_of(games: list[dict], first: str, second: str) -> PairResults:
    """The W/D/L and pentanomial counts of ``first`` against ``second`` in ``games``."""
    ps = pair_report(first, second, [(g["pair"], score_for(g, first))
                                           for g in sorted(games, key=lambda g: g["id"])])
    return PairResults(ps.wins, ps.draws, ps.losses, tuple(ps.pentanomial))


def iteration_results(tune: TuneSettings, games: list[dict], tested: Sequence[EngineSpec]) -> tuple[PairResults, ...]:
    """An iteration's results, one per pairing, each an engine under test's: with an opponent,
    each engine of ``tested`` against it (in order); in self-play, the first against the second."""
    if tune.opponent is None:
        return (results_of(games, tested[0].name, tested[1].name),)
    return tuple(results_of([g for g in games if spec.name in g["players"]], spec.name, tune.opponent.name)
                 for spec in tested)


def play_iteration(tune: TuneSettings, journal: TuneJournal, k: int, tested: Sequence[EngineSpec],
                   on_game: Callable[[dict], None] | None = None,
                   executor: Executor | None = None) -> tuple[PairResults, ...]:
    """Play (or finish) iteration ``k``'s tournament of the engines under test ``tested``
    (against the opponent, or the two against each other) through the tournament runner (on
    ``executor``: local threads by default, or a Dask cluster's workers); its
    ``iteration_results``."""
    tournament = Tournament(tune.match(k, tested), journal.iteration(k), on_game=on_game, executor=executor)
    todo, done = tournament.prepare()
    return iteration_results(tune, tournament.run(todo, done), tested)


def check_engine(tune: TuneSettings, startup_timeout: float = 10.0) -> TuneSettings:
    """The tune with its parameters' types decided by the engine's declarations, once the
    engine has accepted every parameter at its min and at its max (so no game is lost to a
    value the engine refuses) and the opponent, if any, has started once.  Raises ParamError
    naming the parameter, or the opponent."""
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
    check_opponent(tune, startup_timeout)
    return tune


def check_opponent(tune: TuneSettings, startup_timeout: float = 10.0) -> None:
    """Start the tune's opponent (any protocol) once and quit it; ParamError naming it, its
    command and its stderr when it does not start.  Nothing to do in self-play."""
    if tune.opponent is None:
        return
    try:
        check_engines(Lineup(tune.conditions, (tune.opponent,)), startup_timeout)
    except EngineCheckError as err:
        raise ParamError(f"the opponent (--opponent) did not start: {err}") from None
