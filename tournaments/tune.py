"""``mcts-tournament tune``: the driver, its journal and resume, and the confirmation match.

A tune is a loop over the tournament runner: each iteration (an SPSA step or an Optuna
trial) builds an ordinary ``Settings`` for two specs of the engine under test (theta+ and
theta-, or the trial and the baseline), ``K`` colour-swapped pairs over the iteration's
openings, and plays it with ``Tournament`` like any match, every move validated by our
rules.  All of it goes into one journal (JSON lines)::

    {"type": "tune", "settings": {...}}                           what is tuned, and how
    {"type": "tournament", "iteration": 1, "settings": {...}}     iteration 1's match (its engines)
    {"type": "game", "iteration": 1, "id": 0, "pair": 0, ...}     its games, as in any journal
    {"type": "iteration", "iteration": 1, "theta": [...], ...}     its result and the new theta
    ...

Game ids and pair ids run on across iterations, so ``report``, ``--pdn``, ``replay`` and the
GUI's watcher read a tune journal like a match journal.  A killed tune resumes from it with
the same command: the iteration that was cut off continues its match (the games already
journaled are not played again), and SPSA's random draws are seeded per iteration, so the
continued run is the run that would have been.  A journal of another tune is refused.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Callable, Sequence

from mcts_engine.client import EngineError, EngineProcess, EngineSpec

from . import report, stats
from .executors import Executor
from .journal import Journal, JournalError, header_and_games
from .runner import Settings, TimeControl, Tournament
from .tune_defaults import A_RATIO, ALPHA, GAMMA, TUNE_HEADER
from .tune_params import Param, ParamError, from_json, options, starts, to_json, with_engine_types


PLUS, MINUS = "theta+", "theta-"            # SPSA's two engines in every iteration's match
TUNED, START = "tuned", "start"             # the confirmation match's


@dataclass(frozen=True)
class SpsaKnobs:
    """SPSA's schedule constants (fishtest's defaults)."""

    a_ratio: float = A_RATIO
    alpha: float = ALPHA
    gamma: float = GAMMA


@dataclass(frozen=True)
class TuneSettings:
    """Everything a tune is: the engine, its parameters, the optimizer, the budget, the games."""

    game: str
    engine: EngineSpec
    params: tuple[Param, ...]
    optimizer: str = "spsa"
    iterations: int = 100
    pairs: int = 2                                    # colour-swapped game pairs per iteration
    seed: int = 1
    rules: dict = field(default_factory=dict)
    tc: TimeControl = field(default_factory=lambda: TimeControl(movetime=100))
    openings: tuple = ((None, ()),)                   # the pool; iteration k takes the next ``pairs``
    concurrency: int = 1
    max_plies: int = 1000
    resign_score: int | None = None
    draw_score: int | None = None
    spsa: SpsaKnobs = field(default_factory=SpsaKnobs)
    game_timeout: float | None = None                 # wall seconds a game may last (None: the tc's bound)

    def identity(self) -> dict:
        """What a journal must match to be continued (the concurrency may change)."""
        pool = json.dumps([[fen, list(moves)] for fen, moves in self.openings])
        return {"game": self.game, "rules": self.rules, "engine": self.engine.identity(),
                "params": [to_json(p) for p in self.params], "optimizer": self.optimizer,
                "iterations": self.iterations, "pairs": self.pairs, "seed": self.seed, "tc": asdict(self.tc),
                "openings": {"count": len(self.openings), "sha256": hashlib.sha256(pool.encode()).hexdigest()},
                "max_plies": self.max_plies, "resign_score": self.resign_score, "draw_score": self.draw_score,
                "spsa": asdict(self.spsa) if self.optimizer == "spsa" else None,
                **({"game_timeout": self.game_timeout} if self.game_timeout is not None else {})}

    def openings_for(self, k: int) -> list:
        """Iteration ``k``'s openings: the next ``pairs`` of the pool (round and round)."""
        picks = [self.openings[((k - 1) * self.pairs + j) % len(self.openings)] for j in range(self.pairs)]
        return [(fen, list(moves)) for fen, moves in picks]

    def engine_with(self, name: str, values: Sequence[float]) -> EngineSpec:
        """The engine under test called ``name`` playing the parameter ``values``."""
        return replace(self.engine, name=name, options={**self.engine.options, **options(self.params, values)})

    def match(self, k: int, engines: list[EngineSpec]) -> Settings:
        """Iteration ``k``'s match: ``pairs`` colour-swapped pairs, its games numbered after the
        previous iterations'."""
        return Settings(game=self.game, engines=engines, kind="match", games=2 * self.pairs, rules=self.rules,
                        tc=self.tc, openings=self.openings_for(k), concurrency=self.concurrency,
                        max_plies=self.max_plies, resign_score=self.resign_score, draw_score=self.draw_score,
                        first_game=(k - 1) * 2 * self.pairs, first_pair=(k - 1) * self.pairs,
                        game_timeout=self.game_timeout)


@dataclass(frozen=True)
class TunePaths:
    """The files next to a tune journal ``X.jsonl``: ``X.confirm.jsonl`` (the confirmation
    match), ``X.optuna.log`` (Optuna's storage), ``X.params.png`` and ``X.elo.png``."""

    confirm: str
    optuna: str
    params_png: str
    elo_png: str


def paths(journal: str) -> TunePaths:
    """The files next to the tune journal ``journal``."""
    stem = journal[:-len(".jsonl")] if journal.endswith(".jsonl") else journal
    return TunePaths(f"{stem}.confirm.jsonl", f"{stem}.optuna.log", f"{stem}.params.png", f"{stem}.elo.png")


# --- the journal ---------------------------------------------------------------------------------

class IterationJournal(Journal):
    """One iteration's part of a tune journal, as its ``Tournament`` sees it: its own header and
    games (each line it writes is tagged with the iteration)."""

    def __init__(self, path: str, iteration: int):
        super().__init__(path)
        self.iteration = iteration

    def load(self) -> tuple[dict | None, list[dict]]:
        """(this iteration's tournament header or None, this iteration's games)."""
        return header_and_games(r for r in self.records() if r.get("iteration") == self.iteration)

    def append(self, record: dict) -> None:
        """Write the record tagged with this iteration."""
        super().append({**record, "iteration": self.iteration})


@dataclass(frozen=True)
class TuneRecords:
    """A tune journal read back: its header, its finished iterations (in order), its games."""

    header: dict | None
    iterations: list[dict]
    games: list[dict]


class TuneJournal:
    """The tune's journal file."""

    def __init__(self, path: str):
        self.path = path
        self.file = Journal(path)

    def load(self) -> TuneRecords:
        """Everything in the file; an iteration line twice or out of order is an error."""
        header, iterations, games = None, [], []
        for record in self.file.records():
            kind = record.get("type")
            if kind == TUNE_HEADER:
                header = record
            elif kind == "iteration":
                if record.get("iteration") != len(iterations) + 1:
                    raise JournalError(f"journal {self.path}: iteration {record.get('iteration')} follows "
                                       f"iteration {len(iterations)}")
                iterations.append(record)
            elif kind == "game":
                games.append(record)
        return TuneRecords(header, iterations, games)

    def start(self, tune: TuneSettings) -> TuneRecords:
        """The journal's records for ``tune``: a new journal gets its header; one of another
        tune (or of a match) is refused."""
        records = self.load()
        if records.header is None:
            if self.file.records():
                raise JournalError(f"journal {self.path} is not a tune journal (it has no tune header); "
                                   "use another --journal")
            self.file.append({"type": TUNE_HEADER, "settings": tune.identity(),
                              "started": time.strftime("%Y-%m-%dT%H:%M:%S")})
            return self.load()
        if records.header.get("settings") != tune.identity():
            raise JournalError(f"journal {self.path} was written for a different tune (engine, parameters, "
                               "optimizer, budget, seed, time control or openings differ); use another "
                               "--journal or the same settings")
        return records

    def iteration(self, k: int) -> IterationJournal:
        """Iteration ``k``'s view of the journal, for its ``Tournament``."""
        return IterationJournal(self.path, k)

    def finish(self, record: dict) -> None:
        """Journal a finished iteration."""
        self.file.append({"type": "iteration", **record})


def load_header_params(header: dict) -> tuple[Param, ...]:
    """The parameters a tune journal's header describes."""
    return tuple(from_json(d) for d in header["settings"]["params"])


# --- playing ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PairResults(stats.WDL):
    """The first engine's results in an iteration's match: its W/D/L (``games``, ``points``)
    and the pentanomial counts of its game pairs."""

    pentanomial: tuple[int, ...] = (0, 0, 0, 0, 0)


def results_of(games: list[dict], first: str, second: str) -> PairResults:
    """The W/D/L and pentanomial counts of ``first`` against ``second`` in ``games``."""
    ps = stats.pair_report(first, second, [(g["pair"], report.score_for(g, first))
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
        with EngineProcess(spec, startup_timeout, game=tune.game, rules=tune.rules) as engine:
            declared = dict(engine.options_declared)
    except EngineError as err:
        raise ParamError(f"engine {spec.name} did not start: {err}") from None
    params = with_engine_types(tune.params, declared, spec.name)
    tune = replace(tune, params=params)
    for end, values in (("min", [p.low for p in params]), ("max", [p.high for p in params])):
        try:
            with EngineProcess(tune.engine_with(spec.name, values), startup_timeout, game=tune.game,
                               rules=tune.rules):
                pass
        except EngineError as err:
            raise ParamError(f"engine {spec.name} refuses the parameters at their {end}: {err}") from None
    return tune


# --- the confirmation match ---------------------------------------------------------------------------

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


def confirm(tune: TuneSettings, values: Sequence[float], games: int, path: str, openings: list,
            against: EngineSpec | None = None, sprt: stats.SPRT | None = None,
            on_game: Callable[[dict], None] | None = None, executor: Executor | None = None) -> Confirmation:
    """Play the tuned ``values`` against the start values (or ``against``) for ``games`` games
    in colour-swapped pairs, journaled in ``path`` (rerun: continued), stopping early when
    the SPRT decides."""
    base = against if against is not None else tune.engine_with(START, starts(tune.params))
    if base.name == TUNED:
        raise ValueError(f"the confirmation's baseline cannot be called {TUNED!r}: give it another name=")
    settings = Settings(game=tune.game, engines=[tune.engine_with(TUNED, values), base], kind="match",
                        games=games, rules=tune.rules, tc=tune.tc, openings=openings,
                        concurrency=tune.concurrency, max_plies=tune.max_plies,
                        resign_score=tune.resign_score, draw_score=tune.draw_score, game_timeout=tune.game_timeout)
    journal = Journal(path)
    header = None

    def should_stop(played: list[dict]) -> bool:
        return sprt is not None and report.build(played, header, sprt)["sprt"]["status"] is not None

    tournament = Tournament(settings, journal, on_game=on_game, should_stop=should_stop, executor=executor)
    todo, done = tournament.prepare()
    header, _ = journal.load()
    if sprt is not None and done and should_stop(done):
        todo = []
    return confirmation_of(tournament.run(todo, done), header, path, sprt)


def confirmation_of(games: list[dict], header: dict | None, path: str, sprt: stats.SPRT | None) -> Confirmation:
    """The confirmation's statistics from its journaled games."""
    names = report.engine_names(games, header)
    results = results_of(games, names[0], names[1])
    elo, low, high = stats.elo_interval_pentanomial(results.pentanomial)
    verdict = None
    if sprt is not None:
        llr = sprt.llr_pentanomial(results.pentanomial) if sum(results.pentanomial) else \
            sprt.llr(results.wins, results.draws, results.losses)
        verdict = SprtVerdict(sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, sprt.lower, sprt.upper,
                              sprt.status(llr))
    return Confirmation(names[1], path, results, elo, low, high, verdict)


def load_confirmation(path: str, sprt: stats.SPRT | None) -> Confirmation | None:
    """The confirmation match journaled at ``path``, if it has games."""
    if not os.path.exists(path):
        return None
    header, games = Journal(path).load()
    return confirmation_of(games, header, path, sprt) if games else None
