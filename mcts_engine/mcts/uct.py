"""UCT in this process: the agent behind ``Agent uct``, on the native search core.

Each search runs ``SearchTree``s (``core.py``) in slices under ``Searcher``: one tree, or
with ``Threads N`` on a game with native rules, N trees on N OS threads (root parallel:
each in its own arena, their root statistics merged for the final choice).  A game on its
Python rules searches one tree here; its ``Threads N`` runs in worker processes
(``root_parallel.py``).  ``TreeMemory`` says which moves lead from the last root to the
new one, and each tree keeps that subtree (tree reuse).
"""
from __future__ import annotations

import threading
from typing import Hashable

from ..rules.base import Game, State
from ..tables import TableSet
from .agent import Agent, InfoCallback, SearchFailed, SearchInfo, SearchResult
from .core import feed_tables, new_tree
from .final import final_choice, majority_vote
from .limits import Limits, now
from .reuse import TreeMemory
from .searcher import Searcher, TreeGroup
from .settings import Settings


def open_tables(game: Game, directory: str) -> TableSet | None:
    """``game``'s endgame tables under ``directory`` ("" = none), or None where the game has
    no tables or none is built (so a search without them pays nothing)."""
    if not directory or not game.endgame_tables:
        return None
    tables = TableSet(game, directory)
    return tables if tables.max_pieces else None


def tree_count(game: Game, settings: Settings) -> int:
    """How many trees a search here runs: one per thread where the rules are native."""
    return max(1, settings.threads) if game.native else 1


class UctAgent(Agent):
    """UCT with MCTS-Solver, tree reuse and the endgame tables, in this process."""

    def __init__(self, game: Game, settings: Settings):
        super().__init__(game, settings)
        self.tables = open_tables(game, settings.endgame_tables)
        self.memory = TreeMemory(settings.tree_reuse)
        self.trees = [new_tree(game, settings, self.rng.getrandbits(64), self.rng, self.tables)
                      for _ in range(tree_count(game, settings))]
        self.group = TreeGroup(self.trees)

    def close(self) -> None:
        """Stop the search threads."""
        self.group.close()

    def new_game(self) -> None:
        """Forget the trees (and the MAST statistics, unless ``KeepStats``) and reseed (the same
        generator: a tree over Python states draws its playouts from it)."""
        self.rng.seed(self.settings.seed or None)
        self.memory.clear()
        for tree in self.trees:
            tree.clear()
            tree.reseed(self.rng.getrandbits(64))
            if not self.settings.keep_stats:
                tree.clear_stats()

    def search(self, state: State, limits: Limits, stop: threading.Event,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Search ``state`` within ``limits`` (or until ``stop`` is set) and choose a move."""
        self.start_trees(state, limits, history)
        searcher = Searcher(limits, stop, on_info, self.settings)
        try:
            info = searcher.run(self.group)
        except Exception as err:
            found = self.salvage(state, searcher)       # read the trees before they are dropped
            self.forget_tree()
            raise SearchFailed(err, found) from err
        except BaseException:
            self.forget_tree()
            raise
        return self.result(state, info)

    def salvage(self, state: State, searcher: Searcher) -> SearchResult | None:
        """After a failed search: the move its finished iterations chose (the root's statistics
        are backed-up results only: a descent cut short never reached them), or None."""
        try:
            progress = self.group.progress()
            if not progress.iterations:
                return None
            return self.result(state, searcher.info(self.group, progress, now()))
        except Exception:
            return None

    def start_trees(self, state: State, limits: Limits, history: tuple) -> None:
        """Root every tree at ``state``: the subtree tree reuse keeps, or a fresh root (restricted
        to ``limits.searchmoves`` when given: such a tree is not kept for reuse); the endgame
        tables loaded and handed over before the clock starts (an unreadable one noted once,
        and searched without)."""
        walk = None if limits.searchmoves else self.memory.walk(state, history)
        for tree in self.trees:
            feed_tables(tree, self.game, self.tables, state)
            tree.set_root(state, walk)
            if limits.searchmoves:
                tree.restrict_root(limits.searchmoves)
            tree.reset_stats()
        if limits.searchmoves:
            self.memory.clear()
        else:
            self.memory.remember(state, history)
        for text in self.tables.reports() if self.tables is not None else ():
            self.note(text)

    def forget_tree(self) -> None:
        """Drop the trees: a search that failed part-way (a rules callback raised between a
        descent and its backup) leaves a node without its visit, which the next search must
        not inherit through tree reuse."""
        self.memory.clear()
        for tree in self.trees:
            tree.clear()

    def result(self, state: State, info: SearchInfo) -> SearchResult:
        """The move to play and the reply to ponder on; any legal move if no iteration ran."""
        merged = self.group.children()
        best = final_choice(merged, self.settings.final_move)
        if best is not None and self.settings.merge == "vote" and len(self.trees) > 1:
            votes = [tree.root_children()[tree.final_index()][0] for tree in self.trees
                     if tree.final_index() is not None]
            best = majority_vote(votes, merged)
        if best is None:
            return SearchResult(state.random_move(self.rng), None, info)
        line = info.pv if info.pv and info.pv[0] == best.move else self.group.pv(best.move)
        return SearchResult(best.move, line[1] if len(line) > 1 else None, info)
