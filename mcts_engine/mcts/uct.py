"""UCT in one process: the agent behind ``Agent uct`` with ``Threads 1``.

One iteration: ``tree.descend`` from the root (UCB1 through fully expanded nodes, one
untried move expanded), a playout from the leaf unless its result is known (a finished
game or a proof), and ``tree.backup``.  ``Searcher`` runs iterations until a limit;
``TreeMemory`` keeps the tree between moves.  Root- and tree-parallel search build on
this agent (``root_parallel.py``, ``tree_parallel.py``).
"""
from __future__ import annotations

import threading
from typing import Hashable

from ..rules.base import Game, State
from .agent import Agent, InfoCallback, SearchInfo, SearchResult
from .final import final_choice
from .limits import Limits
from .playouts import make_playout
from .reuse import TreeMemory
from .searcher import Progress, Searcher
from .selection import make_selection
from .settings import Settings
from .tree import Node, backup, descend


class UctAgent(Agent):
    """UCT with MCTS-Solver and tree reuse, in this process."""

    def __init__(self, game: Game, settings: Settings):
        super().__init__(game, settings)
        self.policy = make_playout(settings.playout, settings.playout_depth, settings.epsilon)
        self.selection = make_selection("ucb1", settings.uct_c)
        self.memory = TreeMemory(settings.tree_reuse)
        self.root: Node | None = None      # the root of the last search

    def new_game(self) -> None:
        super().new_game()
        self.policy.new_game()
        self.memory.clear()
        self.root = None

    def search(self, state: State, limits: Limits, stop: threading.Event,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Search ``state`` within ``limits`` (or until ``stop`` is set) and choose a move."""
        searcher = Searcher(limits, stop, on_info, self.settings)
        root = self.search_root(state, limits, history)
        info = searcher.run(root, lambda progress: self.iterate(root, state, progress))
        return self.result(root, state, info)

    def iterate(self, root: Node, state: State, progress: Progress) -> None:
        """One iteration on a copy of ``state`` (the root's position)."""
        rng = self.rng
        leaf = descend(root, state.copy(), self.selection.select, self.settings.solver, rng)
        result = leaf.result
        if result is None:
            result = self.policy.run(leaf.state, rng)
        backup(leaf.node, result)
        progress.iterations += 1
        progress.descended(leaf.depth)

    def search_root(self, state: State, limits: Limits, history: tuple) -> Node:
        """The root to search: the reused subtree for ``state`` (or a new one); a fresh root
        restricted to ``limits.searchmoves`` when given (not kept for reuse)."""
        if limits.searchmoves:
            root = Node.root_of(state)
            root.untried = [m for m in state.legal_moves() if m in limits.searchmoves]
            self.rng.shuffle(root.untried)
        else:
            root = self.memory.root_for(state, history)
        self.root = root
        return root

    def result(self, root: Node, state: State, info: SearchInfo) -> SearchResult:
        """The move to play from ``root`` and the reply to ponder on; any legal move if no
        iteration ran (stopped at once)."""
        best = final_choice(root.children, self.settings.final_move)
        if best is None:
            return SearchResult(state.random_move(self.rng), None, info)
        ponder = max(best.children, key=lambda n: n.n).move if best.children else None
        return SearchResult(best.move, ponder, info)
