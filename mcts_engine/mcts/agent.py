"""What the protocol sees of any player: the ``Agent`` interface and what a search returns.

The protocol turns ``go`` into ``Limits`` and the engine options into ``Settings``,
asks ``agents.make_agent`` for the agent the ``Agent`` option names, and calls
``agent.search(...)`` in its search thread.  Agents know games only through the
rules contract (``rules/base.py``).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable, Hashable

from ..native import StopSignal
from ..rules.base import Game, State
from .limits import Limits
from .settings import Settings


@dataclass
class SearchInfo:
    """A progress report; the protocol prints it as an ``info`` line."""

    nodes: int = 0                    # iterations so far
    time: float = 0.0                 # seconds since the search started
    depth: float = 0.0                # mean depth of the tree part of the iterations
    seldepth: int = 0                 # deepest tree node reached
    score: float = 0.5                # expected result for the side to move, in [0, 1]
    mate: int | None = None           # proven: moves to the end (negative = side to move loses)
    wdl: tuple[int, int, int] = (0, 1000, 0)  # per mille, side to move's view
    pv: list = field(default_factory=list)     # principal variation, as moves
    hashfull: int | None = None       # per mille of the tree's memory budget in use (None: no tree)

    @property
    def nps(self) -> int:
        """Iterations per second."""
        return int(self.nodes / self.time) if self.time > 0 else 0

    @property
    def cp(self) -> int:
        """The score as centipawn-like units: 400 * log10 of the odds, clamped to +-10000."""
        q = min(max(self.score, 1e-4), 1 - 1e-4)
        return max(-10000, min(10000, round(400 * math.log10(q / (1 - q)))))

    def same_report(self, other: "SearchInfo") -> bool:
        """Whether two reports say the same (all but the time)."""
        return (self.nodes, self.score, self.mate, self.wdl, self.pv, self.seldepth, self.hashfull) == \
            (other.nodes, other.score, other.mate, other.wdl, other.pv, other.seldepth, other.hashfull)


@dataclass
class SearchResult:
    """The move chosen, a move to ponder on, and the last info."""

    move: object
    ponder: object | None
    info: SearchInfo


class SearchFailed(RuntimeError):
    """A search that failed part-way (``error``: what went wrong), with the best move it had found
    by then (``result``; None when no iteration had finished)."""

    def __init__(self, error: BaseException, result: SearchResult | None):
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error
        self.result = result


def one_ply_choice(state: State, moves: list, rng: random.Random) -> tuple[object, float, int]:
    """The best of ``moves`` by one-ply evaluation, ties at random: (the move, its value for the
    side to move, how many moves tied).  A move that ends the game scores its result, any other
    the game's ``evaluate()`` after it (the first player's chance, turned to the mover's)."""
    mover = state.to_move
    best, best_moves = -1.0, []
    for move in moves:
        child = state.copy()
        child.play(move)
        value = child.outcome()
        if value is None:
            value = child.evaluate()
        if mover == 1:
            value = 1.0 - value
        if value > best + 1e-12:
            best, best_moves = value, [move]
        elif abs(value - best) <= 1e-12:
            best_moves.append(move)
    return best_moves[int(rng.random() * len(best_moves))], best, len(best_moves)


InfoCallback = Callable[[SearchInfo], None]
NoteCallback = Callable[[str], None]


class Agent:
    """Base of every player; subclasses implement ``search``.

    ``on_note`` receives free-text notes (a worker that died, say), which the protocol
    prints as ``info string`` lines; None = nobody listens.
    """

    def __init__(self, game: Game, settings: Settings):
        self.game = game
        self.settings = settings
        self.rng = random.Random(settings.seed or None)
        self.on_note: NoteCallback | None = None

    def new_game(self) -> None:
        """Forget everything learned in the previous game (and reseed)."""
        self.rng = random.Random(self.settings.seed or None)

    def note(self, text: str) -> None:
        """Pass a note on to whoever listens (``on_note``)."""
        if self.on_note is not None:
            self.on_note(text)

    def close(self) -> None:
        """Release what the agent holds beyond this process (worker processes); default none."""

    def search(self, state: State, limits: Limits, stop: StopSignal,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Choose a move for the side to move in ``state`` (which has a legal move).

        ``history`` identifies the position as (start FEN, move, move, ...), so an
        agent may reuse what it learned when the new position extends the last.
        """
        raise NotImplementedError
