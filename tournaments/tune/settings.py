"""What a tune is: ``TuneSettings`` (the engine under test, its parameters, the optimizer and
its budget, the opponent if its games are not self-play, and the ``PlayConditions`` its
games are played under) and the files next to its journal."""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Sequence

from mcts_engine.client import EngineSpec

from ..play.conditions import Opening, PlayConditions
from ..play.runner import TournamentSettings
from .defaults import A_RATIO, ALPHA, GAMMA
from .params import Param, ParamError, options, to_json

__all__ = ["SpsaKnobs", "TuneSettings", "TunePaths", "paths", "PLUS", "MINUS", "BASELINE", "TRIAL", "TUNED",
           "START", "TESTED_NAMES"]

PLUS, MINUS = "theta+", "theta-"            # SPSA's two engines in every iteration's match
BASELINE, TRIAL = "base", "trial"           # an Optuna trial's engine and (in self-play) its baseline
TUNED, START = "tuned", "start"             # the confirmation match's
TESTED_NAMES = (PLUS, MINUS, BASELINE, TRIAL)   # the names an iteration's own engines play under


@dataclass(frozen=True)
class SpsaKnobs:
    """SPSA's schedule constants (fishtest's defaults)."""

    a_ratio: float = A_RATIO
    alpha: float = ALPHA
    gamma: float = GAMMA


@dataclass(frozen=True)
class TuneSettings:
    """Everything a tune is: the engine, its parameters, the optimizer, the budget, how its
    games are played (``conditions``, whose openings are the pool the iterations draw from),
    and the ``opponent``: None for self-play (theta+ against theta-, a trial against the
    start values), or an engine of any protocol that every iteration's engines play instead
    (it is never told the tuned options)."""

    engine: EngineSpec
    params: tuple[Param, ...]
    conditions: PlayConditions
    optimizer: str = "spsa"
    iterations: int = 100
    pairs: int = 2                                    # colour-swapped game pairs per iteration
    seed: int = 1
    spsa: SpsaKnobs = field(default_factory=SpsaKnobs)
    opponent: EngineSpec | None = None

    def __post_init__(self) -> None:
        if self.opponent is not None and self.opponent.name in TESTED_NAMES:
            raise ParamError(f"the opponent cannot be called {self.opponent.name!r}: the tune's own engines play "
                             f"as {', '.join(TESTED_NAMES)}; give it another name=")

    @property
    def pairings(self) -> int:
        """The pairings of an iteration's tournament: two when SPSA's theta+ and theta- each play
        the opponent, else one (theta+ against theta-, a trial against the start values or
        against the opponent)."""
        return 2 if self.opponent is not None and self.optimizer == "spsa" else 1

    @property
    def games_per_iteration(self) -> int:
        """Games an iteration plays: ``pairs`` colour-swapped pairs per pairing."""
        return 2 * self.pairs * self.pairings

    def identity(self) -> dict:
        """What a journal must match to be continued (the concurrency may change); the opponent
        only when there is one, so self-play journals written before it existed continue."""
        c = self.conditions
        pool = json.dumps(c.openings_identity())
        return {"game": c.game, "rules": c.rules, "engine": self.engine.identity(),
                "params": [to_json(p) for p in self.params], "optimizer": self.optimizer,
                "iterations": self.iterations, "pairs": self.pairs, "seed": self.seed, "tc": c.tc_identity(),
                "openings": {"count": len(c.openings), "sha256": hashlib.sha256(pool.encode()).hexdigest()},
                "max_plies": c.adjudication.max_plies, "resign_score": c.adjudication.resign_score,
                "draw_score": c.adjudication.draw_score,
                "spsa": asdict(self.spsa) if self.optimizer == "spsa" else None,
                **({"game_timeout": c.game_timeout} if c.game_timeout is not None else {}),
                **({"opponent": self.opponent.identity()} if self.opponent is not None else {})}

    def openings_for(self, k: int) -> tuple[Opening, ...]:
        """Iteration ``k``'s openings: the next ``pairs`` of the pool (round and round)."""
        pool = self.conditions.openings
        return tuple(pool[((k - 1) * self.pairs + j) % len(pool)] for j in range(self.pairs))

    def engine_with(self, name: str, values: Sequence[float]) -> EngineSpec:
        """The engine under test called ``name`` playing the parameter ``values``."""
        return replace(self.engine, name=name, options={**self.engine.options, **options(self.params, values)})

    def match(self, k: int, tested: Sequence[EngineSpec]) -> TournamentSettings:
        """Iteration ``k``'s tournament of the engines under test ``tested``: a gauntlet of the
        opponent against each of them, or in self-play a match of the two; ``pairs``
        colour-swapped pairs per pairing over the iteration's openings (the same ones for every
        pairing), its games and pairs numbered after the previous iterations'."""
        engines = (self.opponent, *tested) if self.opponent is not None else tuple(tested)
        if len(engines) - 1 != self.pairings:
            raise ValueError(f"an iteration of this tune has {self.pairings} pairing(s), not {len(engines) - 1}")
        return TournamentSettings(replace(self.conditions, openings=self.openings_for(k)), engines,
                                  kind="gauntlet" if self.opponent is not None else "match", games=2 * self.pairs,
                                  first_game=(k - 1) * self.games_per_iteration,
                                  first_pair=(k - 1) * self.pairs * self.pairings)


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
