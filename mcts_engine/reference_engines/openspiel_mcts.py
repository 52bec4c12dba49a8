"""``openspiel-mcts``: OpenSpiel's C++ MCTS on English checkers, as an engine of our protocol.

The search is ``pyspiel.MCTSBot`` (UCT with random rollouts, MCTS-Solver) on OpenSpiel's
``checkers`` game, run in ``openspiel_worker.py`` under the same Python (``open_spiel`` is
our test dependency).  OpenSpiel's checkers are English checkers: its player 0 (``o``,
drawn at the bottom) is our Black, the first player, and its squares are file+rank seen
from that side, which is the PDN diagram turned through 180 degrees (PDN 12 = a3, 16 = b4,
1 = g1, 32 = b8; pinned down by ``tests/test_crosscheck.py``).

Options beside the common ones (``adapter.common_options``):

* ``Iterations``: simulations a move, whatever the ``go`` says (0 = the go's limits: ``nodes``
  = simulations, ``movetime`` and the clocks = OpenSpiel's wall-clock limit);
* ``UCT_C`` (default 2, as OpenSpiel's examples), ``Rollouts`` (random rollouts a leaf,
  default 1), ``Solve`` (MCTS-Solver, default true), ``MaxMemory`` (MB of tree, default 1000).

OpenSpiel cannot be set up from a FEN: a ``position fen`` other than the start is refused.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..mcts.limits import Limits
from ..rules import Game, State
from ..engine_options import DeclaredOption
from .adapter import Budget, ReferenceEngine, declare
from .moves import SquareMap

FILES = "abcdefgh"


def openspiel_squares() -> dict[str, str]:
    """English PDN number -> OpenSpiel's square name (the PDN diagram turned 180 degrees)."""
    out = {}
    for n in range(1, 33):
        row_from_top = (n - 1) // 4                 # in the PDN diagram, drawn from White's side
        white_rank = 8 - row_from_top
        white_file = 2 * ((n - 1) % 4) + (1 if row_from_top % 2 == 0 else 0)
        out[str(n)] = f"{FILES[7 - white_file]}{9 - white_rank}"
    return out


class OpenSpielMcts(ReferenceEngine):
    """OpenSpiel's C++ MCTSBot with random rollouts on English checkers."""

    name = "openspiel-mcts"
    games = ("english",)

    def options(self) -> tuple[DeclaredOption, ...]:
        """Iterations, UCT_C, Rollouts, Solve, MaxMemory."""
        return (
            declare("Iterations", "spin", 0, "simulations a move, whatever the go says; 0 = the go's limits",
                    low=0, high=2_000_000_000),
            declare("UCT_C", "real", 2.0, "OpenSpiel's UCT exploration constant, a real number >= 0", low=0.0),
            declare("Rollouts", "spin", 1, "random rollouts to the end per evaluated leaf", low=1, high=1000),
            declare("Solve", "check", True, "OpenSpiel's MCTS-Solver (proven wins and losses back up)"),
            declare("MaxMemory", "spin", 1000, "MB of search tree before OpenSpiel prunes it", low=1, high=65536),
        )

    def worker_command(self) -> list[str]:
        """This Python, isolated, running the worker script."""
        return [sys.executable, "-I", str(Path(__file__).with_name("openspiel_worker.py"))]

    def squares(self, game: Game) -> SquareMap:
        """PDN numbers -> OpenSpiel's file+rank names."""
        return SquareMap(openspiel_squares())

    def params(self, values: dict) -> dict:
        """MCTSBot's parameters."""
        return {"uct_c": float(values["UCT_C"]), "rollouts": values["Rollouts"], "solve": values["Solve"],
                "max_memory_mb": values["MaxMemory"]}

    def budget(self, values: dict, limits: Limits, notes: list[str]) -> Budget:
        """``Iterations`` when set, else the common rule (``MoveTime``, then the go's limits)."""
        if values["Iterations"] > 0:
            return Budget(nodes=values["Iterations"])
        return super().budget(values, limits, notes)

    def their_fen(self, game: Game, state: State) -> str:
        """Refused: OpenSpiel's checkers start only from the start position."""
        return super().their_fen(game, state)
