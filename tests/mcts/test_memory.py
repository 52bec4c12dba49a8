"""The search tree's memory budget (engine option ``Hash``): the tree stops growing at its
budget and the search goes on within it, proofs kept; ``hashfull`` reports it; a dropped
tree is freed at once (the tree has no reference cycles)."""
from __future__ import annotations

import gc
import random
import threading
import tracemalloc
from pathlib import Path

import pytest

from support.drivers import EngineProcess
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.reuse import TreeMemory
from mcts_engine.mcts.selection import Ucb1
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.final import final_choice
from mcts_engine.mcts.tree import MB, NODE_BYTES, Budget, Node, Tree, backup, principal_variation
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.rules import get_game
from support.toy_games import TakeAway

LINUX = Path("/proc/self/status").exists()


def count_nodes(root: Node) -> int:
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count


def grow(tree: Tree, state, iterations: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(iterations):
        leaf = tree.descend(state.copy(), rng)
        result = leaf.result if leaf.result is not None else rng.choice((0.0, 0.5, 1.0))
        backup(leaf.path, result)


def test_a_full_tree_prunes_the_least_visited_and_stays_within_its_budget():
    game = get_game("english")
    state = game.new_state()
    budget = Budget(300 * NODE_BYTES)
    tree = Tree(Node.root_of(state), Ucb1(1.0).select, True, budget)
    grow(tree, state, 3000)
    grow(tree, state, 6000, seed=2)
    assert budget.used < budget.limit + 2 * NODE_BYTES + 1000     # at most one expansion past it
    assert not budget.frozen
    root = tree.root
    assert len(root.children) == len(state.legal_moves())          # root children are never pruned
    assert root.n == 9000 == sum(ch.n for ch in root.children)     # nor their statistics
    assert budget.hashfull() >= 850                                # pruned an eighth at a time, then regrown
    incremental = budget.used
    budget.measure(root)
    assert abs(budget.used - incremental) <= incremental // 50     # the incremental count was right


def test_pruning_drops_the_least_visited_subtrees_and_keeps_their_roots():
    game = get_game("english")
    state = game.new_state()
    tree = Tree(Node.root_of(state), Ucb1(1.0).select, True, Budget(10 ** 9))
    grow(tree, state, 3000)
    nodes = count_nodes(tree.root)
    stats = {id(ch): (ch.n, ch.w) for ch in tree.root.children}
    heavy = max(tree.root.children, key=lambda ch: ch.n)
    heavy_line = principal_variation(heavy)
    tree.budget.limit = tree.budget.used            # just full
    tree.prune()
    assert tree.budget.used <= tree.budget.limit * 7 // 8 and not tree.budget.frozen
    after = count_nodes(tree.root)
    assert nodes * 0.60 <= after <= nodes * 0.95                   # the least visited went
    assert {id(ch): (ch.n, ch.w) for ch in tree.root.children} == stats
    assert principal_variation(heavy)[:3] == heavy_line[:3]       # the principal line stays
    light = [node for node in _walk(tree.root) if node.untried is None and node.n > 1]
    assert light and all(not node.children for node in light)    # pruned nodes: leaves again


def _walk(root: Node):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def test_the_root_is_expanded_even_with_no_budget_at_all():
    game = get_game("international")
    state = game.new_state()
    tree = Tree(Node.root_of(state), Ucb1(1.0).select, True, Budget(0))
    grow(tree, state, 40)
    assert len(tree.root.children) == len(state.legal_moves())
    assert all(not ch.children for ch in tree.root.children)


def test_proofs_are_found_in_a_tree_much_larger_than_its_budget():
    game = TakeAway(16)          # the whole tree is tens of thousands of nodes
    agent = UctAgent(game, Settings(seed=3))
    agent.memory.budget_mb = 300 * NODE_BYTES / MB
    agent.search(game.new_state(), Limits(nodes=20000), threading.Event())
    assert agent.root.proven is not None                # pruning lets the solver finish
    assert agent.tree.budget.used <= agent.tree.budget.limit + 2 * NODE_BYTES + 1000


def test_the_estimate_errs_high_and_close():
    game = get_game("english")
    agent = UctAgent(game, Settings(seed=2))
    agent.search(game.new_state(), Limits(nodes=300), threading.Event())   # warm the rules' caches
    agent.new_game()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        agent.search(game.new_state(), Limits(nodes=1000), threading.Event())
        gc.collect()
        allocated = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    ratio = agent.tree.budget.used / allocated
    assert 1.0 <= ratio < 1.6, ratio


def test_a_dropped_tree_is_freed_at_once_without_the_cycle_collector():
    game = get_game("english")
    state = game.new_state()
    gc.collect()
    gc.disable()                                             # only reference counting frees
    tracemalloc.start()
    try:
        memory = TreeMemory(budget_mb=64)
        start = tracemalloc.get_traced_memory()[0]
        tree = Tree(memory.root_for(state, ("start",)), Ucb1(1.0).select, True, memory.budget)
        grow(tree, state, 2000)
        del tree
        grown = tracemalloc.get_traced_memory()[0] - start
        memory.root_for(state, ("another start",))          # outside reuse: the old tree goes
        left = tracemalloc.get_traced_memory()[0] - start
        in_cycles = gc.collect()
    finally:
        tracemalloc.stop()
        gc.enable()
    assert grown > 2000 * NODE_BYTES
    assert in_cycles == 0                                    # nothing was waiting for the collector
    assert left < grown / 4, (grown, left)                   # what is left: the interpreter's free lists
    assert memory.budget.used == 0


def test_reuse_measures_the_kept_subtree():
    game = get_game("english")
    state = game.new_state()
    agent = UctAgent(game, Settings(seed=4))
    history = (state.fen(),)
    agent.search(state, Limits(nodes=3000), threading.Event(), None, history)
    whole = agent.tree.budget.used
    move = max(agent.root.children, key=lambda ch: ch.n).move
    after = state.copy()
    after.play(move)
    agent.search(after, Limits(nodes=1), threading.Event(), None, history + (state.move_str(move),))
    kept = agent.tree.budget.used
    assert 0 < kept < whole


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_the_engine_stays_within_its_hash_far_past_the_budget():
    engine = EngineProcess()
    try:
        for line in ("setoption name Hash value 1", "setoption name Seed value 5", "position startpos"):
            engine.send(line)
        engine.send("go nodes 3000")                     # fills the 1 MB budget (about 2,000 nodes)
        engine.until("bestmove")
        engine.send("isready")
        engine.until("readyok")
        before = rss_kb(engine.proc.pid)
        engine.send("go nodes 16000")                    # unbounded, the tree would grow by ~7 MB
        lines = engine.until("bestmove")
        after = rss_kb(engine.proc.pid)
        infos = [line for line in lines if line.startswith("info depth")]
        hashfull = [int(line.split(" hashfull ")[1].split()[0]) for line in infos]
        assert infos and " nodes 16000 " in infos[-1]
        assert min(hashfull) >= 800 and max(hashfull) >= 900, hashfull   # full, pruned an eighth at a time
        move = lines[-1].split()[1]
        assert move in engine.query("moves").split()
        assert after - before < 3 * 1024, (before, after)  # the 1 MB tree plus a little, not 7 MB
    finally:
        engine.close()
