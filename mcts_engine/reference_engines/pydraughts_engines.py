"""``pydraughts-turbo`` and ``pydraughts-simple``: py-draughts' alpha-beta engines as engines of
our protocol.

* ``TurboEngine``: iterative-deepening PVS with aspiration windows, a transposition table,
  LMR, quiescence over the capture chains and a trained pattern evaluation; International
  (10x10) only.  ``pydraughts-turbo`` plays International.
* ``SimpleEngine``: negamax alpha-beta with quiescence and a material + square-table
  evaluation, for any py-draughts board.  ``pydraughts-simple`` plays International and
  English (py-draughts' ``american`` board).

The worker (``pydraughts_worker.py``) runs under the Python of py-draughts' own virtual
environment (``pydraughts_env.py``).  Square names: International as PDN (1-50, the same
for both).  English: py-draughts' ``american`` board numbers from the first player's side
and calls the first player White, so its square n is our 33 - n, its White our Black.

Options beside the common ones: ``Depth`` (0 = the engine's own: Turbo 12, Simple 6): the
deepest iteration; with a time limit the time usually ends the search first.  A ``go
nodes`` is no limit of these engines: they then search to ``Depth`` (said in an ``info
string``).
"""
from __future__ import annotations

from pathlib import Path

from ..mcts.limits import Limits
from ..rules import Game, State
from ..engine_options import DeclaredOption
from .adapter import Budget, ReferenceEngine, declare
from .moves import SquareMap, identity_map
from .pydraughts_env import find_python

KINDS = {"turbo": ("international",), "simple": ("international", "english")}


def american_squares() -> dict[str, str]:
    """English PDN number -> py-draughts' ``american`` number (33 - n)."""
    return {str(n): str(33 - n) for n in range(1, 33)}


def american_fen(state: State) -> str:
    """Our English position as py-draughts' ``american`` FEN (squares 33 - n, colours swapped)."""
    side, *lists = state.fen().split(":")
    pieces = {"W": [], "B": []}
    for part in lists:
        colour, squares = part[0], [s for s in part[1:].split(",") if s]
        for square in squares:
            king = square.startswith("K")
            number = 33 - int(square.lstrip("K"))
            pieces["B" if colour == "W" else "W"].append(f"{'K' if king else ''}{number}")
    turn = "W" if side == "B" else "B"
    return f"{turn}:W{','.join(pieces['W'])}:B{','.join(pieces['B'])}"


class PyDraughtsEngine(ReferenceEngine):
    """One of py-draughts' engines (``turbo`` or ``simple``) through its worker."""

    def __init__(self, kind: str, python: str | None = None):
        if kind not in KINDS:
            raise ValueError(f"unknown py-draughts engine {kind!r}: {', '.join(KINDS)}")
        self.kind = kind
        self.name = f"pydraughts-{kind}"
        self.games = KINDS[kind]
        self.python = find_python(python)

    def options(self) -> tuple[DeclaredOption, ...]:
        """Depth."""
        return (declare("Depth", "spin", 0, "deepest iteration of the engine's search; 0 = its own "
                        "(Turbo 12, Simple 6)", low=0, high=64),)

    def worker_command(self) -> list[str]:
        """py-draughts' Python, isolated (neither our package nor pydraughts on its path)."""
        return [str(self.python), "-I", str(Path(__file__).with_name("pydraughts_worker.py"))]

    def squares(self, game: Game) -> SquareMap:
        """International: PDN on both sides; English: n <-> 33 - n."""
        if game.name == "english":
            return SquareMap(american_squares())
        return identity_map(str(n) for n in range(1, 51))

    def their_fen(self, game: Game, state: State) -> str:
        """Our FEN in py-draughts' terms (International's is PDN's, as ours)."""
        return american_fen(state) if game.name == "english" else state.fen()

    def params(self, values: dict) -> dict:
        """The engine and its depth."""
        return {"engine": self.kind, "depth": values["Depth"] or None}

    def budget(self, values: dict, limits: Limits, notes: list[str]) -> Budget:
        """The common rule; a nodes limit becomes a depth-limited search (said in a note)."""
        plan = super().budget(values, limits, notes)
        if plan.nodes is not None and plan.seconds is None:
            notes.append("nodes is no limit of py-draughts' engines: searched to its depth "
                         f"({values['Depth'] or 'the engine default'})")
            return Budget(depth=plan.depth or values["Depth"] or None)
        return Budget(seconds=plan.seconds, depth=plan.depth, infinite=plan.infinite)
