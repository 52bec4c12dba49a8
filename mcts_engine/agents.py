"""``make_agent``: the engine options' ``Settings`` -> the player that searches.

``Agent uct`` is MCTS (``mcts/``, on the native search core): with ``Threads`` > 1 root
parallel, on OS threads for a game with native rules, over worker processes for a game on
its Python rules; ``search_plan`` is the one place that decides which.  ``random`` and
``greedy`` are the seed articles' "Random" and "Eval" players, so they are this same engine
with another option.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

from .engine_options import choices
from .mcts.agent import Agent, InfoCallback, SearchInfo, SearchResult, one_ply_choice
from .native import StopSignal
from .mcts.limits import Limits
from .mcts.root_parallel import RootParallelAgent
from .mcts.settings import Settings
from .mcts.uct import UctAgent
from .parallel.pool import WorkerPool
from .rules.base import Game, State

AGENTS = choices(Settings, "agent")    # uct, random, greedy


class RandomAgent(Agent):
    """The seed articles' "Random" player: a uniformly random legal move."""

    def search(self, state: State, limits: Limits, stop: StopSignal,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """A random move (among ``searchmoves`` when given)."""
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

    def search(self, state: State, limits: Limits, stop: StopSignal,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """The best move by one-ply evaluation."""
        move, best, ties = one_ply_choice(state, limits.searchmoves or state.legal_moves(), self.rng)
        return SearchResult(move, None, SearchInfo(nodes=ties, score=best, pv=[move]))


@dataclass(frozen=True)
class SearchPlan:
    """Where a search's ``Threads`` run: ``trees`` searchers on OS threads of this process (a
    game with native rules), plus ``workers`` worker processes (a game on its Python rules,
    whose callbacks hold the GIL)."""

    trees: int = 1
    workers: int = 0


def search_plan(game: Game, settings: Settings) -> SearchPlan:
    """The one decision between threads and processes for ``Threads`` on ``game``."""
    threads = max(1, settings.threads) if settings.agent == "uct" else 1
    return SearchPlan(trees=threads) if game.native else SearchPlan(workers=threads - 1)


def make_agent(game: Game, settings: Settings, pool: WorkerPool | None = None) -> Agent:
    """The agent named by ``settings.agent`` for ``game``, its searchers where ``search_plan``
    puts them; worker processes come from ``pool`` (default: this process's shared pool)."""
    if settings.agent == "random":
        return RandomAgent(game, settings)
    if settings.agent == "greedy":
        return GreedyAgent(game, settings)
    if settings.agent != "uct":
        raise ValueError(f"unknown agent {settings.agent!r}; agents: {', '.join(AGENTS)}")
    plan = search_plan(game, settings)
    if plan.workers:
        return RootParallelAgent(game, settings, plan.workers, pool)
    return UctAgent(game, settings, plan.trees)
