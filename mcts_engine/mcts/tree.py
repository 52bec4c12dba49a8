"""The search tree: nodes, the descent (with or without virtual loss), backup, solver
proofs, and the tree's memory budget.

Every node stores its statistics from the point of view of the player who made the
move into it (``mover``); whose turn it is comes from the state's ``to_move``, never
from depth parity, so games whose turns do not alternate strictly work too.

One iteration is ``Tree.descend`` (select through fully expanded nodes, expand one
untried move) then, if the leaf's result is not known, a playout, then ``backup``.
Every agent calls these same functions: the one-process agent counts a visit when it
backs the result up; tree-parallel search counts it on the way down (``virtual_loss``),
so that the next descent of the same batch looks elsewhere, and takes it back with
``undo_virtual_loss`` if the playout never ran.

Nodes keep no parent pointer: a descent returns its path from the root, and backup,
proofs and undo walk that path.  So a tree has no reference cycles, and a tree that is
dropped (a new game, a position outside tree reuse) is freed at once.

MCTS-Solver (``prove``): a node whose game is over is proven, and so is one the endgame
tables settle (``oracle``); a node with a proven win for the player to move there is a
proven win, one whose children are all proven is proven at the best of them (wins, draws
and losses).  A root proven won goes on expanding its untried moves, so that the final
choice takes the shortest of the wins.

Memory (``Budget``, engine option ``Hash``): the tree keeps an estimate of its own size,
updated as nodes are made and moves listed.  When it reaches the budget, ``prune`` drops
the subtrees below the least visited nodes (an eighth of the budget: the nodes far from
the principal variation), and the search goes on growing where it matters.  A
pruned node keeps its own statistics and its proof, and the root and its children are
never pruned, so root statistics and proofs are never lost.  Should pruning ever free
too little (a tree of root children only), the descent stops expanding and refines the
tree it has; the root itself is always expanded.

Progressive widening (``widening`` w > 0, engine option ``Widening``): a node lists its
moves ordered by the game's ``heuristic(move)`` (best first, ties in the shuffled order)
and takes in the next one only while it has fewer children than
``considered(w, visits)`` = ``max(1, ceil(w * sqrt(visits)))``, so a node with many moves
(Life, Rithmomachia) spends its first visits on its best-looking moves (Coulom 2007,
Chaslot et al. 2008).  With w = 0 the descent is the plain one.
"""
from __future__ import annotations

import math
import random
import sys
from collections import Counter
from typing import Callable, Protocol

from ..rules.base import State

NO_CHILDREN = ()          # ``children`` of a node that has none yet (a list from the first child)
EXHAUSTED = ()            # ``untried`` once every move was expanded (None = not listed yet)
NO_MOVES = ()             # a leaf's playout moves before (or without) a recorded playout
MB = 1 << 20
PRUNE_SHARE = 8           # a full tree prunes 1/PRUNE_SHARE of its budget


class Node:
    """One position in the tree, reached by ``move``."""

    __slots__ = ("move", "children", "untried", "n", "w", "d", "mover", "to_move", "proven", "proof",
                 "prior", "v", "amaf")

    def __init__(self, move, mover: int, to_move: int):
        self.move = move
        self.children: list[Node] | tuple = NO_CHILDREN
        self.untried: list | tuple | None = None   # moves not expanded yet; None = not listed yet
        self.n = 0                         # visits
        self.w = 0.0                       # sum of results for ``mover``
        self.d = 0                         # playouts that ended in a draw
        self.mover = mover                 # the player who made ``move``
        self.to_move = to_move             # the player to move in this node's position
        self.proven: float | None = None   # proven result for ``mover`` (1, 0.5, 0) or None
        self.proof = 0                     # plies to the end along the proof
        self.prior = 0.0                   # heuristic(move) in the parent's position (progressive bias)
        self.v = 0.5                       # implicit minimax value of evaluate() for the mover
        self.amaf: tuple | None = None     # GRAVE: its AMAF table, if it keeps one: a dict per player,
                                           # move -> [results for that player, count]

    @classmethod
    def root_of(cls, state: State) -> "Node":
        """A fresh root for ``state`` (its mover is the other player)."""
        return cls(None, 1 - state.to_move, state.to_move)

    def mean(self) -> float:
        """Average result for the mover (0.5 before any visit)."""
        return self.w / self.n if self.n else 0.5

    def fully_expanded(self) -> bool:
        """Whether every legal move here has a child (a finished game's node counts too)."""
        return self.untried is not None and not self.untried

    def add_child(self, child: "Node") -> None:
        """Append ``child`` (the children list is made at the first one)."""
        if self.children:
            self.children.append(child)
        else:
            self.children = [child]


class RaveNode(Node):
    """A node of a RAVE tree: also its move's all-moves-as-first statistics in its parent
    (Gelly and Silver 2007): ``an`` simulations through the parent in which the parent's
    player to move made this move at some later point, ``aw`` their results for that player.
    RAVE reads, at a node, only its children's moves, so the counts live on the children (two
    numbers a node) rather than in a table per node."""

    __slots__ = ("aw", "an")

    def __init__(self, move, mover: int, to_move: int):
        super().__init__(move, mover, to_move)
        self.aw = 0.0                      # sum of AMAF results for ``mover``
        self.an = 0                        # AMAF count


SLOT_BYTES = 8                     # one reference in a list
# a node: the object, its value sum, and its slot in the parent's children list (held
# beside the parent's list of untried moves until the last of them is expanded); a RAVE
# node adds its AMAF result sum.  Each class holds its size, for the budget.
NODE_BYTES = sys.getsizeof(Node(None, 0, 0)) + sys.getsizeof(0.5) + SLOT_BYTES
RAVE_NODE_BYTES = sys.getsizeof(RaveNode(None, 0, 0)) + 2 * sys.getsizeof(0.5) + SLOT_BYTES
Node.BYTES = NODE_BYTES
RaveNode.BYTES = RAVE_NODE_BYTES
LIST_BYTES = sys.getsizeof([])
# GRAVE: a node's AMAF table (a pair of dicts, one per player), and each entry in it (its
# [results, count] list with a float, and the dict's share: hash, key and value slots,
# over-allocated about 1.5 times)
AMAF_TABLE_BYTES = sys.getsizeof(({}, {})) + 2 * sys.getsizeof({})
AMAF_ENTRY_BYTES = sys.getsizeof([0.5, 1]) + sys.getsizeof(0.5) + 5 * SLOT_BYTES


def move_bytes(move) -> int:
    """The memory one move takes (a tuple with its items, or a single object)."""
    if isinstance(move, tuple):
        return sys.getsizeof(move) + sum(sys.getsizeof(item) for item in move)
    return sys.getsizeof(move)


class Budget:
    """The tree's memory: an estimate in bytes, kept up as it grows, against a limit.

    The estimate counts each node (``NODE_BYTES``), each list of moves or children, and
    each listed move (a list slot plus the move itself, sized from the first move the
    tree lists).  It errs high, since moves often share their parts (1.2 to 1.5 times
    what the process allocates for the tree; ``mcts-engine bench --memory`` measures
    both), so a tree stays within its budget.
    """

    __slots__ = ("limit", "used", "per_move", "frozen")

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self.per_move = 0      # bytes per listed move, set when the first moves are listed
        self.frozen = False    # pruning freed too little: stop expanding instead

    @classmethod
    def megabytes(cls, mb: float) -> "Budget":
        """A budget of ``mb`` megabytes."""
        return cls(int(mb * MB))

    def full(self) -> bool:
        """Whether the tree has reached its budget (stop expanding)."""
        return self.used >= self.limit

    def hashfull(self) -> int:
        """The share of the budget in use, per mille (UCI's ``hashfull``)."""
        return min(1000, self.used * 1000 // self.limit) if self.limit > 0 else 1000

    def listed(self, moves: list) -> None:
        """A node listed ``moves`` (not empty) as its untried moves."""
        if not self.per_move:
            self.per_move = SLOT_BYTES + move_bytes(moves[0])
        self.used += LIST_BYTES + len(moves) * self.per_move

    def measure(self, root: Node) -> None:
        """Set ``used`` to the estimate for the tree below ``root`` (after tree reuse)."""
        used, stack = 0, [root]
        per_move = self.per_move or SLOT_BYTES
        while stack:
            node = stack.pop()
            used += node.BYTES + per_move
            if node.children:
                used += LIST_BYTES
                stack.extend(node.children)
            if node.untried:
                used += LIST_BYTES + len(node.untried) * per_move
            if node.amaf is not None:
                used += AMAF_TABLE_BYTES + sum(map(len, node.amaf)) * (AMAF_ENTRY_BYTES + per_move)
        self.used = used
        self.frozen = False

    def amaf_grew(self, tables: int, entries: int) -> None:
        """GRAVE statistics made ``tables`` new AMAF tables and ``entries`` new entries (each
        keeps its move: sized as a listed move)."""
        self.used += tables * AMAF_TABLE_BYTES + entries * (AMAF_ENTRY_BYTES + (self.per_move or SLOT_BYTES))


class Leaf:
    """Where a descent ended: the path from the root to the leaf node, the state there, the
    depth, and the first player's result if it is already known (a finished game or a
    proof), else None (a playout is due); ``moves``: the playout's ``(player, move)``s once it
    ran, where the search keeps AMAF statistics (tree-parallel search, RAVE/GRAVE)."""

    __slots__ = ("path", "state", "depth", "result", "moves")

    def __init__(self, path: list[Node], state: State, depth: int, result: float | None):
        self.path = path
        self.state = state
        self.depth = depth
        self.result = result
        self.moves: list | tuple = NO_MOVES

    @property
    def node(self) -> Node:
        """The node the descent ended at."""
        return self.path[-1]


Select = Callable[[Node], Node]


class Verdict(Protocol):
    """What an oracle knows of a position: the first player's ``result`` and the ``plies`` to
    the end of the game along best play (``tables.TableHit``)."""

    result: float
    plies: int


Oracle = Callable[[State], "Verdict | None"]


def considered(widening: float, visits: int) -> int:
    """Progressive widening: how many of its moves a node with ``visits`` visits considers,
    ``max(1, ceil(widening * sqrt(visits)))`` (``widening`` > 0)."""
    return max(1, math.ceil(widening * math.sqrt(visits)))


def best_last(state: State, moves: list) -> None:
    """Order a node's untried ``moves`` (shuffled) in place for progressive widening: by the
    mover's ``heuristic(move)`` in ``state``, the best last (expansion pops from the end),
    ties kept in their shuffled order (the sort is stable)."""
    moves.sort(key=state.heuristic)


class Tree:
    """One search tree: its root, the selection rule and solver setting its descents use,
    and its memory budget.

    ``priors``: each new child stores its move's ``heuristic(move)`` (progressive bias);
    ``minimax``: each new child is scored by ``evaluate()`` and the minimax of those scores
    is backed up the path at once (implicit minimax backups).  Both cost a call per
    expansion, so they are on only when the selection rule reads them.
    ``oracle``: the endgame tables' probe (``tables.TableSet.probe``); a new child it settles
    is proven at once, with its distance to the end as the proof's length.
    ``widening`` (> 0; 0 = off): progressive widening, see ``widens``; a node's moves are
    listed best first by ``heuristic(move)`` (``best_last``).

    All-moves-as-first statistics, fed by ``backup_amaf`` (``amaf``: whether the tree keeps
    any, so iterations must record their playouts' moves):

    * ``rave``: RAVE; each child keeps its move's AMAF counts in its parent (``RaveNode``),
      and the rule reads them from the children: ``select(node)``.
    * ``reference`` (GRAVE, None otherwise): AMAF tables are kept only where they are read,
      at the root and at the nodes with more than ``reference`` visits (made when a node
      crosses it); the descent passes the rule the table of the closest such node on the
      path: ``select(node, table)``.
    """

    def __init__(self, root: Node, select: Select, solver: bool, budget: Budget,
                 priors: bool = False, minimax: bool = False, rave: bool = False,
                 reference: int | None = None, oracle: Oracle | None = None, widening: float = 0.0):
        self.root = root
        self.widening = widening
        self.oracle = oracle
        self.select = select
        self.solver = solver
        self.budget = budget
        self.priors = priors
        self.minimax = minimax
        self.rave = rave
        self.reference = reference
        self.amaf = rave or reference is not None
        self.node_type = RaveNode if rave else Node

    def descend(self, state: State, rng: random.Random, virtual_loss: bool = False) -> Leaf:
        """Walk from the root (``state`` is a copy of its position, changed in place) by the
        selection rule through fully expanded nodes and expand one untried move; with the
        budget full, stop at the first node that is not fully expanded instead.

        With ``virtual_loss`` every node on the path, the new leaf included, counts its
        visit now (``backup(..., counted=True)`` must follow, or ``undo_virtual_loss``).
        """
        node, budget, widening = self.root, self.budget, self.widening
        if budget.used >= budget.limit and not budget.frozen:
            self.prune()
        path = [node]
        if virtual_loss:
            node.n += 1
        reference, table = self.reference, node.amaf
        while True:
            if node.proven is not None and (len(path) > 1 or not node.untried):
                return Leaf(path, state, len(path) - 1, node.proven if node.mover == 0 else 1.0 - node.proven)
            untried = node.untried
            if untried is None:
                if budget.used >= budget.limit and len(path) > 1:
                    return Leaf(path, state, len(path) - 1, None)   # full: play out from here
                untried = node.untried = state.legal_moves()
                if not untried:  # the game is over here
                    node.untried = EXHAUSTED
                    result = state.outcome()
                    prove(path, result if node.mover == 0 else 1.0 - result, self.solver)
                    return Leaf(path, state, len(path) - 1, result)
                rng.shuffle(untried)
                if widening:
                    best_last(state, untried)
                budget.listed(untried)
            if untried and (budget.used < budget.limit or len(path) == 1) and (not widening or self.widens(node)):
                return self._expand(path, node, state, virtual_loss)
            if not node.children:       # full, and nothing expanded here: play out from here
                return Leaf(path, state, len(path) - 1, None)
            if reference is None:
                node = self.select(node)
            else:
                if node.n > reference and node.amaf is not None:
                    table = node.amaf      # (a table is made at the backup that crosses the reference)
                node = self.select(node, table)
            if virtual_loss:
                node.n += 1
            state.play(node.move)
            path.append(node)

    def widens(self, node: Node) -> bool:
        """Progressive widening: whether ``node`` (with untried moves) takes in its next move
        now: while it has fewer children than ``considered(widening, node.n)``, or when every
        child it has is a proven loss for its player to move (the next move is then the only
        hope, and visits to known losses would teach nothing)."""
        children = node.children
        if len(children) < considered(self.widening, node.n):
            return True
        return children[0].proven == 0.0 and all(ch.proven == 0.0 for ch in children)

    def _expand(self, path: list[Node], node: Node, state: State, virtual_loss: bool) -> Leaf:
        """Expand one untried move of ``node`` (the end of ``path``) into a new leaf."""
        move = node.untried.pop()
        if not node.untried:
            node.untried = EXHAUSTED
            self.budget.used -= LIST_BYTES
        prior = state.heuristic(move) if self.priors else 0.0
        state.play(move)
        child = self.node_type(move, node.to_move, state.to_move)
        child.prior = prior
        if virtual_loss:
            child.n = 1
        if not node.children:
            self.budget.used += LIST_BYTES
        node.add_child(child)
        self.budget.used += child.BYTES
        path.append(child)
        result = state.outcome()
        if result is not None:
            prove(path, result if child.mover == 0 else 1.0 - result, self.solver)
        elif self.oracle is not None:
            hit = self.oracle(state)
            if hit is not None:
                result = hit.result
                prove(path, result if child.mover == 0 else 1.0 - result, self.solver, hit.plies)
        if self.minimax:
            first = result if result is not None else state.evaluate()
            child.v = first if child.mover == 0 else 1.0 - first
            update_minimax(path[:-1])
        return Leaf(path, state, len(path) - 1, result)

    def backup_amaf(self, path: list[Node], playout: list | tuple, result: float) -> None:
        """Add the first player's ``result`` to the all-moves-as-first statistics along
        ``path``: a node counts each move its player to move made at any later point of this
        simulation (in the tree below it, then in the ``playout``, a list of ``(player,
        move)``), once per simulation, with the result for that player.  RAVE: the counts of
        each path node's children whose move is among them.  GRAVE: the tables of the path's
        nodes above the reference (and the root), which count the later moves of both
        players, each with its mover's result; the tables and entries made count in the
        budget."""
        simulation = [(node.mover, node.move) for node in path[1:]]
        simulation.extend(playout)
        gains = (result, 1.0 - result)
        if self.rave:
            last = ({}, {})           # per player: move -> its last index in the simulation
            for i, (player, move) in enumerate(simulation):
                last[player][move] = i
            for i, node in enumerate(path):
                later, gain = last[node.to_move], gains[node.to_move]
                for child in node.children:
                    j = later.get(child.move)
                    if j is not None and j >= i:
                        child.an += 1
                        child.aw += gain
            return
        last = {}                     # (player, move) -> its last index in the simulation
        for i, key in enumerate(simulation):
            last[key] = i
        reference, tables, entries = self.reference, 0, 0
        for i, node in enumerate(path):
            if node.n <= reference and i:      # visits fall along a path: no table below here
                break
            table = node.amaf
            if table is None:
                table = node.amaf = ({}, {})
                tables += 1
            for (player, move), j in last.items():
                if j < i:
                    continue
                stats = table[player].get(move)
                if stats is None:
                    table[player][move] = [gains[player], 1]
                    entries += 1
                else:
                    stats[0] += gains[player]
                    stats[1] += 1
        self.budget.amaf_grew(tables, entries)

    def undo_virtual_loss(self, path: list[Node]) -> None:
        """Take back the visits of a path whose playout never ran; drop an unvisited new leaf
        (its move goes back to the untried moves)."""
        for node in path:
            node.n -= 1
        leaf = path[-1]
        if leaf.n == 0 and len(path) > 1 and not leaf.children and leaf in path[-2].children:
            parent = path[-2]
            parent.children.remove(leaf)
            self.budget.used -= leaf.BYTES
            if self.minimax and parent.children:
                update_minimax(path[:-1])
            if parent.untried:
                parent.untried.append(leaf.move)
            else:
                parent.untried = [leaf.move]
                self.budget.used += LIST_BYTES

    def hashfull(self) -> int:
        """The share of the memory budget in use, per mille."""
        return self.budget.hashfull()

    def prune(self) -> None:
        """Make room: drop the subtrees below the least visited nodes, an eighth of the
        budget, keeping those nodes themselves (their visits, values and proofs); never the
        root's children.  If that frees too little, the tree stops expanding instead."""
        threshold = self._prune_threshold()
        if threshold is not None:
            stack = list(self.root.children)
            while stack:
                node = stack.pop()
                if node.n <= threshold:
                    node.children, node.untried = NO_CHILDREN, None   # re-listed if visited again
                else:
                    stack.extend(node.children)
        self.budget.measure(self.root)
        budget = self.budget
        budget.frozen = budget.used > budget.limit - budget.limit // (2 * PRUNE_SHARE)

    def _prune_threshold(self) -> int | None:
        """The visit count at or below which a node's subtree goes: the smallest that frees
        1/PRUNE_SHARE of the budget (None: nothing to free)."""
        per_move = self.budget.per_move or SLOT_BYTES
        below: Counter = Counter()     # a node's visits -> bytes of the nodes hanging below such nodes
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            if node.children:    # pruning ``node`` frees its children and their subtrees...
                below[node.n] += LIST_BYTES + len(node.children) * (node.children[0].BYTES + per_move)
                stack.extend(node.children)
            if node.untried:     # ...and its list of untried moves (listed again if visited)
                below[node.n] += LIST_BYTES + len(node.untried) * per_move
        target, freed = self.budget.limit // PRUNE_SHARE, 0
        for visits in sorted(below):
            freed += below[visits]
            if freed >= target:
                return visits
        return None


def backup(path: list[Node], result: float, counted: bool = False) -> None:
    """Add the first player's ``result`` to every node of ``path``, from each mover's point of
    view; ``counted``: the visits were already counted on the way down."""
    draw = result == 0.5
    for node in path:
        if not counted:
            node.n += 1
        node.w += result if node.mover == 0 else 1.0 - result
        if draw:
            node.d += 1


def update_minimax(path: list[Node]) -> None:
    """Back the implicit minimax values up ``path`` (root first), from its last node: each
    node with children takes the best child value for the player to move there, turned to
    its own mover's view; stops at the first node whose value does not change."""
    for node in reversed(path):
        if not node.children:
            return
        best = max(ch.v for ch in node.children)    # children's mover == node.to_move
        value = best if node.mover == node.to_move else 1.0 - best
        if value == node.v:
            return
        node.v = value


def prove(path: list[Node], value: float, solver: bool, plies: int = 0) -> None:
    """Mark a finished game (or one the tables settle, ``plies`` from its end) at the end of
    ``path`` (``value`` for its mover) and, with ``solver``, propagate proofs up the path: a
    proven win for the chooser proves the parent (shortest proof), and a parent whose
    children are all proven takes the best of them."""
    node = path[-1]
    node.proven, node.proof = value, plies
    if not solver:
        return
    for parent in reversed(path[:-1]):
        chooser = parent.to_move            # == child.mover for every child
        if node.proven == 1.0:
            wins = [ch.proof for ch in parent.children if ch.proven == 1.0]
            best, proof = 1.0, min(wins) + 1
        elif parent.fully_expanded() and all(ch.proven is not None for ch in parent.children):
            best = max(ch.proven for ch in parent.children)
            proof = max(ch.proof for ch in parent.children if ch.proven == best) + 1
        else:
            return
        if parent.proven is not None:
            return
        parent.proven = best if parent.mover == chooser else 1.0 - best
        parent.proof = proof
        node = parent


def principal_variation(first: Node) -> list:
    """``first``'s move, then the most visited child's move at each level below it."""
    node, pv = first, [first.move]
    while node.children:
        node = max(node.children, key=lambda ch: ch.n)
        pv.append(node.move)
    return pv
