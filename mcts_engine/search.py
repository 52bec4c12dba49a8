"""What every agent (UCT, random, greedy) shares: limits, settings, info and results.

The protocol turns `go` and `setoption` into ``Limits`` and ``Settings``, asks
``make_agent`` for the agent the ``Agent`` option names, and calls
``agent.search(...)`` in its search thread.  Agents know games only through the
rules contract (``rules/base.py``).
"""
from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Hashable

from .playouts import POLICIES
from .rules.base import Game, State


@dataclass
class Limits:
    """When to stop a search.  ``None`` = no limit of that kind; all None and not infinite = 1 s."""

    nodes: int | None = None          # UCT iterations
    movetime: float | None = None     # seconds for this move
    time_left: float | None = None    # the mover's clock, seconds
    increment: float = 0.0            # the mover's increment, seconds
    movestogo: int | None = None      # moves to the next time control
    depth: int | None = None          # stop once the tree reaches this depth
    infinite: bool = False            # until stop (also while pondering)
    searchmoves: list | None = None   # consider only these root moves (legal moves of the state)

    def nodes_only(self) -> bool:
        """Whether only a node count ends the search (no clock, no infinite): the case in
        which a seeded search is reproducible, so its reports follow the count, not the time."""
        return (self.nodes is not None and not self.infinite and self.movetime is None
                and self.time_left is None)


@dataclass
class Settings:
    """Agent parameters, set from engine options."""

    agent: str = "uct"                # uct | random | greedy
    uct_c: float = 1.0                # UCB1 exploration constant (values in [0, 1])
    playout: str = "random"           # random | capture | greedy-eps | mast
    playout_depth: int = 0            # 0 = to the end; N = cut off after N plies and evaluate
    epsilon: float = 0.1              # exploration rate of greedy-eps and mast playouts
    tree_reuse: bool = True
    solver: bool = True
    final_move: str = "robust"        # robust (most visits) | max (best mean)
    seed: int = 0                     # 0 = a fresh random seed per game
    move_overhead: float = 0.03       # seconds kept back per move for I/O
    threads: int = 1                  # searchers: this process + threads-1 worker processes
    parallel: str = "root"            # root (merge separate trees) | tree (one tree, shared playouts)
    merge: str = "visits"             # root mode: visits (summed) | vote (majority of the searchers)


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

    @property
    def nps(self) -> int:
        """Iterations per second."""
        return int(self.nodes / self.time) if self.time > 0 else 0

    @property
    def cp(self) -> int:
        """The score as centipawn-like units: 400 * log10 of the odds, clamped to +-10000."""
        q = min(max(self.score, 1e-4), 1 - 1e-4)
        return max(-10000, min(10000, round(400 * math.log10(q / (1 - q)))))


@dataclass
class SearchResult:
    """The move chosen, a move to ponder on, and the last info."""

    move: object
    ponder: object | None
    info: SearchInfo


InfoCallback = Callable[[SearchInfo], None]


class Agent:
    """Base of every player; subclasses implement ``search``."""

    def __init__(self, game: Game, settings: Settings):
        self.game = game
        self.settings = settings
        self.rng = random.Random(settings.seed or None)

    def new_game(self) -> None:
        """Forget everything learned in the previous game (and reseed)."""
        self.rng = random.Random(self.settings.seed or None)

    def search(self, state: State, limits: Limits, stop: threading.Event,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Choose a move for the side to move in ``state`` (which has a legal move).

        ``history`` identifies the position as (start FEN, move, move, ...), so an
        agent may reuse what it learned when the new position extends the last.
        """
        raise NotImplementedError


class RandomAgent(Agent):
    """The seed articles' "Random" player: a uniformly random legal move."""

    def search(self, state, limits, stop, on_info=None, history=()):
        if limits.searchmoves:
            move = limits.searchmoves[int(self.rng.random() * len(limits.searchmoves))]
        else:
            move = state.random_move(self.rng)
        return SearchResult(move, None, SearchInfo(nodes=1, pv=[move]))


class GreedyAgent(Agent):
    """The seed articles' "Eval" player: the best move by one-ply evaluation, ties at random.

    The evaluation is the game's ``evaluate()`` (score in [0, 1] for the first
    player) after the move, from the mover's point of view; a move that ends the
    game scores its result.
    """

    def search(self, state, limits, stop, on_info=None, history=()):
        mover = state.to_move
        best, best_moves = -1.0, []
        for move in limits.searchmoves or state.legal_moves():
            child = state.copy()
            child.play(move)
            value = child.outcome()
            if value is None:
                value = child.evaluate() if hasattr(child, "evaluate") else 0.5
            if mover == 1:
                value = 1.0 - value
            if value > best + 1e-12:
                best, best_moves = value, [move]
            elif abs(value - best) <= 1e-12:
                best_moves.append(move)
        move = best_moves[int(self.rng.random() * len(best_moves))]
        return SearchResult(move, None, SearchInfo(nodes=len(best_moves), score=best, pv=[move]))


def budget(limits: Limits, overhead: float) -> float | None:
    """Seconds to think for this move: movetime, or a share of the clock; None = no time limit.

    The clock share is the time left over the moves still to play (``movestogo``,
    else an assumed 30), plus most of the increment, never more than half the
    time left, always leaving ``overhead`` for the I/O.
    """
    if limits.infinite:
        return None
    if limits.movetime is not None:
        return max(0.001, limits.movetime - overhead)
    if limits.time_left is not None:
        moves = max(1, min(limits.movestogo or 30, 50))
        share = limits.time_left / moves + 0.8 * limits.increment
        share = min(share, 0.5 * limits.time_left)
        return max(0.001, share - overhead)
    if limits.nodes is not None or limits.depth is not None:
        return None
    return 1.0


def make_agent(game: Game, settings: Settings) -> Agent:
    """The agent named by ``settings.agent`` for ``game``."""
    if settings.agent == "random":
        return RandomAgent(game, settings)
    if settings.agent == "greedy":
        return GreedyAgent(game, settings)
    if settings.agent == "uct" and settings.threads > 1:
        from .parallel import ParallelAgent
        return ParallelAgent(game, settings)
    if settings.agent == "uct":
        from .uct import UctAgent
        return UctAgent(game, settings)
    raise ValueError(f"unknown agent {settings.agent!r}; agents: uct, random, greedy")


AGENTS = ("uct", "random", "greedy")
PLAYOUTS = tuple(POLICIES)
FINAL_MOVES = ("robust", "max")
PARALLEL_MODES = ("root", "tree")
MERGES = ("visits", "vote")


def now() -> float:
    """Monotonic wall-clock seconds (search limits are wall time; benchmarks use CPU time)."""
    return time.perf_counter()
