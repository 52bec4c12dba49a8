"""What a tune is: ``TuneSettings`` (the engine under test, its parameters, the optimizer and
its budget, and the ``PlayConditions`` its games are played under) and the files next to
its journal."""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Sequence

from mcts_engine.client import EngineSpec

from ..play.conditions import Opening, PlayConditions
from ..play.runner import TournamentSettings
from .defaults import A_RATIO, ALPHA, GAMMA
from .params import Param, options, to_json

__all__ = ["SpsaKnobs", "TuneSettings", "TunePaths", "paths", "PLUS", "MINUS", "TUNED", "START"]

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
    """Everything a tune is: the engine, its parameters, the optimizer, the budget, and how its
    games are played (``conditions``, whose openings are the pool the iterations draw from)."""

    engine: EngineSpec
    params: tuple[Param, ...]
    conditions: PlayConditions
    optimizer: str = "spsa"
    iterations: int = 100
    pairs: int = 2                                    # colour-swapped game pairs per iteration
    seed: int = 1
    spsa: SpsaKnobs = field(default_factory=SpsaKnobs)

    def identity(self) -> dict:
        """What a journal must match to be continued (the concurrency may change)."""
        c = self.conditions
        pool = json.dumps(c.openings_identity())
        return {"game": c.game, "rules": c.rules, "engine": self.engine.identity(),
                "params": [to_json(p) for p in self.params], "optimizer": self.optimizer,
                "iterations": self.iterations, "pairs": self.pairs, "seed": self.seed, "tc": c.tc_identity(),
                "openings": {"count": len(c.openings), "sha256": hashlib.sha256(pool.encode()).hexdigest()},
                "max_plies": c.adjudication.max_plies, "resign_score": c.adjudication.resign_score,
                "draw_score": c.adjudication.draw_score,
                "spsa": asdict(self.spsa) if self.optimizer == "spsa" else None,
                **({"game_timeout": c.game_timeout} if c.game_timeout is not None else {})}

    def openings_for(self, k: int) -> tuple[Opening, ...]:
        """Iteration ``k``'s openings: the next ``pairs`` of the pool (round and round)."""
        pool = self.conditions.openings
        return tuple(pool[((k - 1) * self.pairs + j) % len(pool)] for j in range(self.pairs))

    def engine_with(self, name: str, values: Sequence[float]) -> EngineSpec:
        """The engine under test called ``name`` playing the parameter ``values``."""
        return replace(self.engine, name=name, options={**self.engine.options, **options(self.params, values)})

    def match(self, k: int, engines: list[EngineSpec]) -> TournamentSettings:
        """Iteration ``k``'s match: ``pairs`` colour-swapped pairs, its games numbered after the
        previous iterations'."""
        return TournamentSettings(replace(self.conditions, openings=self.openings_for(k)), tuple(engines),
                                  kind="match", games=2 * self.pairs, first_game=(k - 1) * 2 * self.pairs,
                                  first_pair=(k - 1) * self.pairs)


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
