"""UCT: Monte Carlo tree search with UCB1, MCTS-Solver and tree reuse.

One iteration: from the root, descend by UCB1 through fully expanded nodes,
expand one untried move, finish the game from there with the playout policy,
and back the result up.  Every node stores its statistics from the point of
view of the player who made the move into it (``mover``); whose turn it is
comes from the state's ``to_move``, never from depth parity, so games whose
turns do not alternate strictly work too.

MCTS-Solver: a node whose game is over is proven; a node with a proven win for
the player to move there is a proven win, one whose children are all proven
is proven at the best of them (wins, draws and losses).  Selection takes proven
wins and avoids proven losses; the final move prefers a proven win (the
shortest) and avoids proven losses (taking the longest).
"""
from __future__ import annotations

import math
import threading
from typing import Hashable

from .playouts import make_playout
from .rules.base import Game, State
from .search import Agent, InfoCallback, Limits, SearchInfo, SearchResult, Settings, budget, now


class Node:
    """One position in the tree, reached by ``move`` from ``parent``."""

    __slots__ = ("move", "parent", "children", "untried", "n", "w", "d", "mover", "to_move",
                 "proven", "proof")

    def __init__(self, move, parent: "Node | None", mover: int, to_move: int):
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        self.untried: list | None = None   # legal moves not expanded yet; None = not listed yet
        self.n = 0                         # visits
        self.w = 0.0                       # sum of results for ``mover``
        self.d = 0                         # playouts that ended in a draw
        self.mover = mover                 # the player who made ``move``
        self.to_move = to_move             # the player to move in this node's position
        self.proven: float | None = None   # proven result for ``mover`` (1, 0.5, 0) or None
        self.proof = 0                     # plies to the end along the proof

    def mean(self) -> float:
        """Average result for the mover (0.5 before any visit)."""
        return self.w / self.n if self.n else 0.5


class UctAgent(Agent):
    """The UCT player behind ``Agent uct``."""

    def __init__(self, game: Game, settings: Settings):
        super().__init__(game, settings)
        self.policy = make_playout(settings.playout, settings.playout_depth, settings.epsilon)
        self.root: Node | None = None
        self.root_history: tuple = ()
        self._root_state: State | None = None   # the position of ``root``, to walk played moves

    def new_game(self) -> None:
        super().new_game()
        self.policy.new_game()
        self.root, self.root_history, self._root_state = None, (), None

    # --- the search ----------------------------------------------------------------------
    def search(self, state: State, limits: Limits, stop: threading.Event,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Search ``state`` within ``limits`` (or until ``stop`` is set) and choose a move."""
        start = now()
        root = self.search_root(state, limits, history)
        seconds = budget(limits, self.settings.move_overhead)
        deadline = None if seconds is None else start + seconds
        c = self.settings.uct_c
        solver = self.settings.solver
        rng, policy = self.rng, self.policy
        iterations = depth_sum = seldepth = 0
        by_nodes = limits.nodes_only()
        report_every = max(1000, (limits.nodes or 0) // 8) if by_nodes else 0
        next_report = start + 0.5
        while not stop.is_set():
            if limits.nodes is not None and iterations >= limits.nodes:
                break
            if root.proven is not None and not limits.infinite:
                break
            if root.proven is not None:  # solved, but `go infinite` waits for stop
                stop.wait(0.01)
                continue
            depth = self._iterate(root, state.copy(), c, solver, rng, policy)
            iterations += 1
            depth_sum += depth
            if depth > seldepth:
                seldepth = depth
            if limits.depth is not None and seldepth >= limits.depth:
                break
            t = now()
            if deadline is not None and t >= deadline:
                break
            if on_info is not None:
                if by_nodes:
                    if iterations % report_every == 0 and iterations < limits.nodes:
                        on_info(self._info(root, state, iterations, t - start, depth_sum, seldepth))
                elif t >= next_report:
                    next_report = t + 0.5
                    on_info(self._info(root, state, iterations, t - start, depth_sum, seldepth))
        info = self._info(root, state, iterations, now() - start, depth_sum, seldepth)
        if on_info is not None:
            on_info(info)
        return self.result(root, state, info)

    def search_root(self, state: State, limits: Limits, history: tuple) -> Node:
        """The root to search: the reused subtree for ``state`` (or a new one); a fresh root
        restricted to ``limits.searchmoves`` when given (not kept for reuse)."""
        root = self._root_for(state, history)
        if limits.searchmoves:
            root = self.root = Node(None, None, 1 - state.to_move, state.to_move)
            root.untried = [m for m in state.legal_moves() if m in limits.searchmoves]
            self.rng.shuffle(root.untried)
        return root

    def result(self, root: Node, state: State, info: SearchInfo) -> SearchResult:
        """The move to play from ``root`` and the reply to ponder on; any legal move if no
        iteration ran (stopped at once)."""
        best = self._final_child(root)
        if best is None:
            return SearchResult(state.random_move(self.rng), None, info)
        ponder = max(best.children, key=lambda n: n.n).move if best.children else None
        return SearchResult(best.move, ponder, info)

    def _iterate(self, root: Node, state: State, c: float, solver: bool, rng, policy) -> int:
        """One iteration on a copy of the root state; returns the depth reached in the tree."""
        node, depth = root, 0
        while True:
            if node.proven is not None:
                result = node.proven if node.mover == 0 else 1.0 - node.proven
                break
            if node.untried is None:
                node.untried = state.legal_moves()
                rng.shuffle(node.untried)
                if not node.untried:  # the game is over here
                    result = state.outcome()
                    self._prove(node, result if node.mover == 0 else 1.0 - result, solver)
                    break
            if node.untried:
                move = node.untried.pop()
                state.play(move)
                child = Node(move, node, node.to_move, state.to_move)
                node.children.append(child)
                node, depth = child, depth + 1
                result = state.outcome()
                if result is not None:
                    self._prove(node, result if node.mover == 0 else 1.0 - result, solver)
                else:
                    result = policy.run(state, rng)
                break
            node = self._select(node, c)
            state.play(node.move)
            depth += 1
        # back up the first player's result, from each mover's point of view
        draw = result == 0.5
        while node is not None:
            node.n += 1
            node.w += result if node.mover == 0 else 1.0 - result
            if draw:
                node.d += 1
            node = node.parent
        return depth

    @staticmethod
    def _select(node: Node, c: float) -> Node:
        """UCB1 among the children, taking a proven win and skipping proven losses."""
        log_n = math.log(node.n)
        best, best_score = None, -1.0
        for child in node.children:
            proven = child.proven
            if proven is not None:
                if proven == 1.0:
                    return child
                if proven == 0.0:
                    continue
                score = 0.5 + c * math.sqrt(log_n / child.n)
            else:
                score = child.w / child.n + c * math.sqrt(log_n / child.n)
            if score > best_score:
                best, best_score = child, score
        if best is None:  # every child is a proven loss (the node is proven; keep it safe)
            best = max(node.children, key=lambda n: n.n)
        return best

    @staticmethod
    def _prove(node: Node, value: float, solver: bool) -> None:
        """Mark a finished game at ``node`` (value for its mover) and propagate proofs upward."""
        node.proven, node.proof = value, 0
        if not solver:
            return
        while node.parent is not None:
            parent = node.parent
            chooser = parent.to_move            # == child.mover for every child
            if node.proven == 1.0:
                wins = [ch.proof for ch in parent.children if ch.proven == 1.0]
                best, proof = 1.0, min(wins) + 1
            elif parent.untried == [] and all(ch.proven is not None for ch in parent.children):
                best = max(ch.proven for ch in parent.children)
                proof = max(ch.proof for ch in parent.children if ch.proven == best) + 1
            else:
                return
            if parent.proven is not None:
                return
            parent.proven = best if parent.mover == chooser else 1.0 - best
            parent.proof = proof
            node = parent

    # --- choosing and reporting ---------------------------------------------------------
    def _final_child(self, root: Node) -> Node | None:
        """The root child to play (see ``final_choice``)."""
        return final_choice(root.children, self.settings.final_move)

    def _info(self, root: Node, state: State, iterations: int, elapsed: float,
              depth_sum: int, seldepth: int) -> SearchInfo:
        """The search's progress, from the side to move's point of view."""
        best = self._final_child(root)
        info = SearchInfo(nodes=iterations, time=elapsed, seldepth=seldepth,
                          depth=depth_sum / iterations if iterations else 0.0)
        if best is None:
            return info
        set_score(info, best)
        node, pv = best, [best.move]
        while node.children:
            node = max(node.children, key=lambda ch: ch.n)
            pv.append(node.move)
        info.pv = pv
        return info

    # --- tree reuse -------------------------------------------------------------------------
    def _root_for(self, state: State, history: tuple) -> Node:
        """The old tree's node for ``state`` when ``history`` extends the last search's, else a new root."""
        old, old_history = self.root, self.root_history
        self.root_history = tuple(history)
        if self.settings.tree_reuse and old is not None and history and old_history \
                and tuple(history[:len(old_history)]) == old_history and old_history[0] == history[0]:
            node = old
            walker = self._root_state.copy() if self._root_state is not None else None
            try:
                for text in history[len(old_history):]:
                    if walker is None:
                        raise KeyError
                    move = walker.parse_move(text)
                    node = next(ch for ch in node.children if ch.move == move)
                    walker.play(move)
            except (StopIteration, KeyError, ValueError):
                node = None
            if node is not None and walker.key() == state.key() and node.to_move == state.to_move:
                node.parent = None
                self.root = node
                self._root_state = state.copy()
                return node
        self.root = Node(None, None, 1 - state.to_move, state.to_move)
        self._root_state = state.copy()
        return self.root


# --- shared with parallel search (which merges root statistics of several trees) -----------

def final_choice(children: list, final_move: str = "robust"):
    """The root child to play among ``children`` (Nodes, or anything with move/n/w/d/proven/proof):
    a proven win (the shortest), else the most visited (``robust``) or best mean (``max``) child
    that is not a proven loss, else the proven loss that lasts longest.  None if there is none."""
    if not children:
        return None
    wins = [ch for ch in children if ch.proven == 1.0]
    if wins:
        return min(wins, key=lambda ch: ch.proof)
    alive = [ch for ch in children if ch.proven != 0.0]
    if not alive:
        return max(children, key=lambda ch: ch.proof)
    if final_move == "max":
        return max(alive, key=lambda ch: (ch.proven if ch.proven is not None else ch.mean(), ch.n))
    return max(alive, key=lambda ch: (ch.n, ch.mean()))


def set_score(info: SearchInfo, best) -> None:
    """Fill ``info``'s score, wdl and mate from the statistics of the chosen root child."""
    info.score = best.proven if best.proven is not None else best.mean()
    if best.n:
        win = (best.w - 0.5 * best.d) / best.n
        draw = best.d / best.n
        w, d = round(1000 * win), round(1000 * draw)
        info.wdl = (w, d, max(0, 1000 - w - d))
    if best.proven is not None:
        moves = (best.proof + 2) // 2
        info.mate = {1.0: moves, 0.0: -moves}.get(best.proven)
        info.wdl = {1.0: (1000, 0, 0), 0.5: (0, 1000, 0), 0.0: (0, 0, 1000)}[best.proven]
