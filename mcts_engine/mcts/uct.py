"""UCT in one process: the agent behind ``Agent uct`` with ``Threads 1``.

One iteration: ``Tree.descend`` from the root (UCB1 through fully expanded nodes, one
untried move expanded), a playout from the leaf unless its result is known (a finished
game or a proof), and ``backup``.  ``Searcher`` runs iterations until a limit;
``TreeMemory`` keeps the tree between moves.  Root- and tree-parallel search build on
this agent (``root_parallel.py``, ``tree_parallel.py``).
"""
from __future__ import annotations

import threading
from typing import Hashable

from ..rules.base import Game, State
from ..tables import TableSet
from .agent import Agent, InfoCallback, SearchInfo, SearchResult
from .final import final_choice
from .limits import Limits
from .reuse import TreeMemory
from .searcher import Progress, Searcher
from .selection import make_selection
from .settings import Settings
from .tree import Budget, Node, Oracle, Tree, backup, best_last


def open_tables(game: Game, directory: str) -> TableSet | None:
    """``game``'s endgame tables under ``directory`` ("" = none), or None where the game has
    no tables or none is built (so a search without them pays nothing)."""
    if not directory or not game.endgame_tables:
        return None
    tables = TableSet(game, directory)
    return tables if tables.max_pieces else None


class UctAgent(Agent):
    """UCT with MCTS-Solver and tree reuse, in this process."""

    def __init__(self, game: Game, settings: Settings):
        super().__init__(game, settings)
        self.policy = settings.playout_spec.make()
        self.selection = make_selection(settings)
        self.memory = TreeMemory(settings.tree_reuse, settings.hash_mb)
        self.tree: Tree | None = None      # the tree of the last search
        # a leaf's result: the playout's, or with ProgressWeight mixed with progress()
        self.simulate = self.policy.run if not settings.progress_weight else self.progress_playout
        self.tables = open_tables(game, settings.endgame_tables)
        self.oracle: Oracle | None = self.tables.probe if self.tables is not None else None
        self.policy.oracle = self.oracle

    def progress_playout(self, state: State, rng) -> float:
        """``ProgressWeight`` w: ``w * state.progress() + (1 - w) * playout`` for the first
        player (w = 1: no playout at all).  In a won ending nearly every random playout
        wins, so the means tie and the search shuffles; the leaf's progress (enemy pieces
        gone, a lone king with fewer safe squares) gives it a direction to win in."""
        weight = self.settings.progress_weight
        ahead = state.progress()
        if weight >= 1.0:
            return ahead
        return weight * ahead + (1.0 - weight) * self.policy.run(state, rng)

    def new_game(self) -> None:
        super().new_game()
        self.policy.new_game()
        self.memory.clear()
        self.tree = None

    @property
    def root(self) -> Node | None:
        """The root of the last search's tree."""
        return self.tree.root if self.tree is not None else None

    def search(self, state: State, limits: Limits, stop: threading.Event,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Search ``state`` within ``limits`` (or until ``stop`` is set) and choose a move."""
        self.warm_tables(state)
        searcher = Searcher(limits, stop, on_info, self.settings)
        tree = self.search_tree(state, limits, history)
        try:
            info = searcher.run(tree, lambda progress: self.iterate(tree, state, progress))
        except BaseException:
            self.forget_tree()
            raise
        return self.result(tree, state, info)

    def warm_tables(self, state: State) -> None:
        """Load the endgame tables before the clock starts once ``state`` nears them."""
        if self.tables is not None:
            self.tables.warm(state)

    def forget_tree(self) -> None:
        """Drop the tree: a search that failed part-way (a playout raised between a descent
        and its backup) leaves a new node without a visit, which the next search must not
        inherit through tree reuse."""
        self.memory.clear()
        self.tree = None

    def iterate(self, tree: Tree, state: State, progress: Progress) -> None:
        """One iteration on a copy of ``state`` (the root's position)."""
        rng = self.rng
        leaf = tree.descend(state.copy(), rng)
        result = leaf.result
        if not tree.amaf:
            if result is None:
                result = self.simulate(leaf.state, rng)
            backup(leaf.path, result)
        else:                        # RAVE/GRAVE: the playout's moves feed the AMAF statistics
            moves = []
            if result is None:
                record = self.policy.run_recorded(leaf.state, rng)
                result, moves = record.outcome, record.moves
            backup(leaf.path, result)
            tree.backup_amaf(leaf.path, moves, result)
        progress.iterations += 1
        progress.descended(leaf.depth)

    def search_tree(self, state: State, limits: Limits, history: tuple) -> Tree:
        """The tree to search: the reused subtree for ``state`` (or a new one); a fresh root
        restricted to ``limits.searchmoves`` when given (not kept for reuse)."""
        if limits.searchmoves:
            root = Node.root_of(state)
            root.untried = [m for m in state.legal_moves() if m in limits.searchmoves]
            self.rng.shuffle(root.untried)
            if self.settings.widening:
                best_last(state, root.untried)
            budget = Budget.megabytes(self.settings.hash_mb)
            budget.listed(root.untried)
        else:
            root = self.memory.root_for(state, history)
            budget = self.memory.budget
        rule = self.selection
        self.tree = Tree(root, rule.select, self.settings.solver, budget, priors=rule.needs_priors,
                         minimax=rule.needs_minimax, rave=rule.rave, reference=rule.reference,
                         oracle=self.oracle, widening=self.settings.widening)
        return self.tree

    def result(self, tree: Tree, state: State, info: SearchInfo) -> SearchResult:
        """The move to play from the tree's root and the reply to ponder on; any legal move
        if no iteration ran (stopped at once)."""
        root = tree.root
        best = final_choice(root.children, self.settings.final_move)
        if best is None:
            return SearchResult(state.random_move(self.rng), None, info)
        ponder = max(best.children, key=lambda n: n.n).move if best.children else None
        return SearchResult(best.move, ponder, info)
