"""``pydraughts-turbo`` and ``pydraughts-simple``: py-draughts' alpha-beta engines as engines of
our protocol.

* ``TurboEngine``: iterative-deepening PVS with aspiration windows, a transposition table,
  LMR, quiescence over the capture chains and a trained pattern evaluation; it refuses every
  board but py-draughts' 10x10 ``StandardBoard``.  ``pydraughts-turbo`` plays International.
* ``SimpleEngine``: negamax alpha-beta with quiescence and a material + square-table
  evaluation, for any py-draughts board.  ``pydraughts-simple`` plays International, English,
  Russian and Brazilian.

``BOARDS`` is the one table of what plays where: a row per game of ours that py-draughts
has a board for, with py-draughts' board, where its square 1 lies, and the engines offered
(none, with the reason, where py-draughts' rules or engines differ from ours: the rows stay
for the tests, which compare py-draughts' legal moves with ours along random games).
Squares: every py-draughts board numbers its playing squares 1..N row by row from the far
left corner as its White sees the board, and its White moves first; so its square n is the
n-th name of our ``Game.square_numbering(corner)`` with ``corner`` the row's (``top-left``
everywhere: found, not assumed, as the only corner whose numbering makes both rules' legal
moves agree along random games), and its White is our first player (English: our Black, so
there its square n is our 33 - n).

The worker (``pydraughts_worker.py``) runs under the Python of py-draughts' own virtual
environment (``pydraughts_env.py``).

Options beside the common ones: ``Depth`` (0 = the engine's own: Turbo 12, Simple 6): the
deepest iteration; with a time limit the time usually ends the search first.  A ``go
nodes`` is no limit of these engines: they then search to ``Depth`` (said in an ``info
string``).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..mcts.limits import Limits
from ..rules import Game, State
from ..engine_options import DeclaredOption
from .adapter import Budget, ReferenceEngine, declare
from .moves import SquareMap
from .pydraughts_env import find_python


@dataclass(frozen=True)
class Board:
    """One of our games on one of py-draughts' boards."""

    #: py-draughts' board class (the worker's ``variant``)
    board: str
    #: the engines offered on it (``turbo``, ``simple``); none: ``why_not`` says why
    engines: tuple[str, ...] = ()
    #: where py-draughts' square 1 lies, as our first player sees the board (its numbers then
    #: run row by row as ``Game.square_numbering(corner)``)
    corner: str = "top-left"
    why_not: str = ""


#: our game -> py-draughts' board (the first game of an engine is its default ``UCI_Variant``)
BOARDS: dict[str, Board] = {
    "international": Board("StandardBoard", ("turbo", "simple")),
    "english": Board("AmericanBoard", ("simple",)),
    "russian": Board("RussianBoard", ("simple",)),
    "brazilian": Board("BrazilianBoard", ("simple",)),
    "frisian": Board("FrisianBoard", why_not=(
        "py-draughts 1.10.1 does not enforce Frisian's limit of three king moves in a row while "
        "the player has men (draughts.md 3.2), so its engine plays moves our rules forbid")),
    "frysk": Board("FryskBoard", why_not="as frisian: py-draughts' Frysk! is its Frisian board with five men a side"),
    "antidraughts": Board("AntidraughtsBoard", why_not=(
        "SimpleEngine plays International's aim on it (a side without a move loses, material "
        "counts): in W:W28:B19 it plays 28-22, where 28-23 wins at once")),
    "breakthrough": Board("BreakthroughBoard", why_not=(
        "SimpleEngine does not know that the first king wins: its search plays on past a "
        "crowning and counts the king as material")),
}

#: engine -> the games it plays
KINDS: dict[str, tuple[str, ...]] = {
    kind: tuple(game for game, row in BOARDS.items() if kind in row.engines) for kind in ("turbo", "simple")}


def pydraughts_squares(game: Game) -> SquareMap:
    """Our square names -> py-draughts' numbers on the board of ``game`` (a row of BOARDS)."""
    corner = BOARDS[game.name].corner
    return SquareMap({ours: str(n) for n, ours in enumerate(game.square_numbering(corner), 1)})


def pydraughts_fen(game: Game, state: State) -> str:
    """Our position as py-draughts' FEN: its squares, its White our first player."""
    squares = pydraughts_squares(game).ours_to_theirs
    first = game.colours[0]
    side, *lists = state.fen().split(":")
    pieces: dict[str, list[str]] = {"W": [], "B": []}
    for part in lists:
        colour = "W" if part[0] == first else "B"
        for square in (s for s in part[1:].split(",") if s):
            king = square.startswith("K")
            pieces[colour].append(("K" if king else "") + squares[square[1:] if king else square])
    turn = "W" if side == first else "B"
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
        """The row of ``game`` in BOARDS (International: PDN on both sides; English: n <-> 33 - n;
        Russian, Brazilian: b8 = 1, d8 = 2, ... g1 = 32)."""
        return pydraughts_squares(game)

    def variant(self, game: Game) -> str:
        """py-draughts' board class of the game."""
        return BOARDS[game.name].board

    def their_fen(self, game: Game, state: State) -> str:
        """Our FEN in py-draughts' squares and colours."""
        return pydraughts_fen(game, state)

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
