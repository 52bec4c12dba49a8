"""Issue 17's search enhancements, table by table: progressive bias and implicit minimax
backups (``InformedUcb1``, ``Tree(priors=..., minimax=...)``, ``update_minimax``) on hand-built
trees whose best child is knowable, the exact minimax values of a fully expanded toy game,
and the options that switch them on for every agent."""
from __future__ import annotations

import json
import random
import threading
from dataclasses import replace

import pytest

from click.testing import CliRunner

from mcts_engine.bench import search_settings
from mcts_engine.cli import main
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.playouts import make_playout
from mcts_engine.mcts.selection import Grave, InformedUcb1, Rave, Ucb1, make_selection
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.tree import (AMAF_ENTRY_BYTES, AMAF_TABLE_BYTES, LIST_BYTES, MB, NODE_BYTES, RAVE_NODE_BYTES,
                                   SLOT_BYTES, Budget, Node, RaveNode, Tree, backup, update_minimax)
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.protocol.options import OptionError, OptionValues, game_settings
from mcts_engine.rules import get_game, list_games
from mcts_engine.rules.base import State
from mcts_engine.rules.draughts import DraughtsState
from mcts_engine.rules.life import LifeState
from support.trees import SELECTION_CASES, make_node, make_root
from support.toy_games import TakeAway, TakeAwayState, wins_for_mover


def informed_root(*children: tuple) -> Node:
    """A root (player 0 to move) whose children have (move, n, w, prior, v)."""
    root = Node(None, 1, 0)
    root.untried = []
    for move, n, w, prior, v in children:
        child = make_node(move, n, w, parent=root, mover=0)
        child.prior, child.v = prior, v
    root.n = sum(ch.n for ch in root.children)
    return root


# --- selection ----------------------------------------------------------------------------

INFORMED_CASES = [
    # (children (move, n, w, prior, v), c, prior weight, minimax weight, the child entered)
    ([("a", 10, 5.0, 0.0, 0.5), ("b", 10, 5.0, 2.0, 0.5)], 1.0, 1.0, 0.0, "b"),    # prior breaks a tie
    ([("a", 10, 5.0, 0.0, 0.5), ("b", 10, 5.0, 2.0, 0.5)], 1.0, 0.0, 0.0, "a"),    # weight 0: no bias
    ([("a", 100, 60.0, 0.0, 0.5), ("b", 100, 50.0, 1.0, 0.5)], 1.0, 1.0, 0.0, "a"),  # the bias fades...
    ([("a", 2, 1.2, 0.0, 0.5), ("b", 2, 1.0, 1.0, 0.5)], 1.0, 1.0, 0.0, "b"),        # ...but leads early
    ([("a", 10, 6.0, 0.0, 0.5), ("b", 10, 5.0, -1.0, 0.5), ("c", 10, 5.5, 3.0, 0.5)], 0.0, 0.5, 0.0, "c"),
    ([("a", 10, 6.0, 0.0, 0.2), ("b", 10, 5.0, 0.0, 0.9)], 1.0, 0.0, 0.0, "a"),    # minimax off: mean
    ([("a", 10, 6.0, 0.0, 0.2), ("b", 10, 5.0, 0.0, 0.9)], 1.0, 0.0, 0.5, "b"),    # 0.4 vs 0.7
    ([("a", 10, 6.0, 0.0, 0.2), ("b", 10, 5.0, 0.0, 0.9)], 1.0, 0.0, 0.1, "a"),    # 0.56 vs 0.54
    ([("a", 10, 6.0, 0.0, 0.2), ("b", 10, 5.0, 0.0, 0.9)], 0.0, 0.0, 1.0, "b"),    # pure minimax
    ([("a", 10, 5.0, 0.0, 0.6), ("b", 10, 5.0, 1.0, 0.4)], 0.0, 0.5, 0.5, "a"),    # 0.55 vs 0.45+0.045
]


@pytest.mark.parametrize("children,c,prior_weight,minimax_weight,best", INFORMED_CASES)
def test_informed_ucb1_selection(children, c, prior_weight, minimax_weight, best):
    root = informed_root(*children)
    assert InformedUcb1(c, prior_weight, minimax_weight).select(root).move == best


@pytest.mark.parametrize("children,c,best", SELECTION_CASES)
def test_informed_ucb1_without_weights_chooses_as_ucb1(children, c, best):
    # proofs too: a proven win at once, never a proven loss, all lost: the most visited
    root = make_root(*children)
    assert InformedUcb1(c).select(root).move == Ucb1(c).select(root).move == best


def test_a_proven_child_is_judged_by_its_proof_not_its_value():
    root = informed_root(("a", 10, 6.0, 5.0, 1.0), ("b", 10, 4.0, 0.0, 0.4))
    root.children[0].proven = 0.0
    assert InformedUcb1(1.0, 1.0, 1.0).select(root).move == "b"


SETTINGS_CASES = [
    # (selection, prior weight, minimax weight) -> (rule class, priors, minimax, RAVE counts,
    # GRAVE reference)
    (("ucb1", 0.0, 0.0), (Ucb1, False, False, False, None)),
    (("ucb1", 0.5, 0.0), (InformedUcb1, True, False, False, None)),
    (("ucb1", 0.0, 0.3), (InformedUcb1, False, True, False, None)),
    (("ucb1", 2.0, 1.0), (InformedUcb1, True, True, False, None)),
    (("rave", 0.0, 0.0), (Rave, False, False, True, None)),
    (("grave", 0.0, 0.0), (Grave, False, False, False, 70)),
    (("rave", 0.5, 0.0), (Rave, True, False, True, None)),     # the weights apply under RAVE/GRAVE too
    (("grave", 0.0, 0.3), (Grave, False, True, False, 70)),
    (("grave", 1.0, 0.2), (Grave, True, True, False, 70)),
]


@pytest.mark.parametrize("choice,expected", SETTINGS_CASES)
def test_the_settings_choose_the_rule_and_what_the_tree_keeps(choice, expected):
    selection, prior, minimax = choice
    rule = make_selection(Settings(uct_c=0.7, selection=selection, prior_weight=prior, minimax_weight=minimax,
                                   grave_ref=70))
    assert (type(rule), rule.needs_priors, rule.needs_minimax, rule.rave, rule.reference) == expected
    assert rule.c == 0.7
    if selection != "ucb1":
        assert (rule.prior_weight, rule.minimax_weight) == (prior, minimax)


def test_an_unknown_selection_rule_is_named():
    with pytest.raises(ValueError, match="'puct'"):
        make_selection(Settings(selection="puct"))


# --- implicit minimax backups -------------------------------------------------------------

def test_minimax_takes_the_best_child_for_the_player_to_move_in_the_mover_s_view():
    root = informed_root(("a", 1, 0.0, 0.0, 0.3), ("b", 1, 0.0, 0.0, 0.8))
    mid = root.children[0]                      # player 1 moves next below a
    low = make_node("x", 1, 0.0, parent=mid, mover=1)
    high = make_node("y", 1, 0.0, parent=mid, mover=1)
    low.v, high.v = 0.1, 0.6                    # for player 1
    update_minimax([root, mid])
    assert mid.v == pytest.approx(0.4)          # player 1 picks y (0.6): 0.4 for a's mover
    assert root.v == pytest.approx(1 - 0.8)     # player 0 picks b (0.8): 0.2 for root's mover (1)


def test_minimax_with_an_extra_turn_keeps_the_view():
    root = Node(None, 0, 0)                      # player 0 moved here and moves again
    child = make_node("a", 1, 0.0, parent=root, mover=0)
    child.v = 0.7
    update_minimax([root])
    assert root.v == 0.7


def test_minimax_stops_where_a_value_does_not_change():
    root = informed_root(("a", 1, 0.0, 0.0, 0.9), ("b", 1, 0.0, 0.0, 0.25))
    root.v = 0.123                              # stale on purpose: a's unchanged value must not reach it
    mid = root.children[1]
    only = make_node("x", 1, 0.0, parent=mid, mover=1)
    only.v, mid.v = 0.75, 0.25                  # b's value is already 1 - 0.75
    update_minimax([root, mid])
    assert root.v == 0.123


class ScoredTakeAway(TakeAwayState):
    """Take-away with knowledge: a move's heuristic is the stones it takes, and a position's
    evaluation for the first player is a fixed function of the pile and the side to move."""

    def copy(self):
        return ScoredTakeAway(self.stones, self.to_move, self.winner, self.ply)

    def heuristic(self, move) -> float:
        return float(move)

    def evaluate(self) -> float:
        return (self.stones % 5) / 10 + (0.3 if self.to_move == 0 else 0.1)


def _grow(tree: Tree, state, iterations: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(iterations):
        leaf = tree.descend(state.copy(), rng)
        backup(leaf.path, leaf.result if leaf.result is not None else 0.5)


def test_new_children_store_their_prior_and_evaluation():
    state = ScoredTakeAway(9)
    root = Node.root_of(state)
    tree = Tree(root, Ucb1(1.0).select, False, Budget.megabytes(1), priors=True, minimax=True)
    _grow(tree, state, 3)                        # the root's three moves
    for child in root.children:
        after = state.copy()
        after.play(child.move)
        first = after.evaluate()
        assert child.prior == child.move
        assert child.v == pytest.approx(first if child.mover == 0 else 1 - first)
    best = max(ch.v for ch in root.children)
    assert root.v == pytest.approx(1 - best)     # root's mover is player 1


def test_plain_trees_pay_for_neither():
    state = ScoredTakeAway(9)
    root = Node.root_of(state)
    _grow(Tree(root, Ucb1(1.0).select, False, Budget.megabytes(1)), state, 3)
    assert [(ch.prior, ch.v) for ch in root.children] == [(0.0, 0.5)] * 3


def least_visited(node: Node) -> Node:
    """A selection that visits every open child in turn."""
    return min(node.children, key=lambda ch: (ch.proven is not None, ch.n))


@pytest.mark.parametrize("stones", [5, 7, 8, 9])
def test_a_fully_expanded_tree_backs_up_the_exact_game_values(stones):
    # every leaf of a fully grown take-away tree is a finished game, so the implicit minimax
    # of its outcomes is the exact value: a win for the player to move iff wins_for_mover
    state = TakeAway(stones).new_state()
    root = Node.root_of(state)
    # UCB1 enters a finished win at once and would leave its siblings unexpanded, so the tree
    # is grown breadth-first: the least visited child that is not a finished game
    tree = Tree(root, least_visited, False, Budget.megabytes(8), minimax=True)
    _grow(tree, state, 20000)
    stack = [(root, state)]
    while stack:
        node, here = stack.pop()
        if not here.stones:                      # the mover took the last stone and won
            assert node.v == 1.0
            continue
        assert node.fully_expanded()
        expected = 1.0 if wins_for_mover(here.stones) else 0.0     # for the player to move
        assert node.v == (expected if node.mover == here.to_move else 1.0 - expected)
        for child in node.children:
            after = here.copy()
            after.play(child.move)
            stack.append((child, after))


def test_undoing_a_virtual_loss_backs_the_parent_s_value_up_again():
    state = ScoredTakeAway(11)
    root = Node.root_of(state)
    tree = Tree(root, Ucb1(1.0).select, True, Budget.megabytes(1), minimax=True)
    _grow(tree, state, 8)
    before = _values(root)
    leaf = tree.descend(state.copy(), random.Random(5), virtual_loss=True)
    assert leaf.depth >= 2                       # below a node that has other children
    tree.undo_virtual_loss(leaf.path)
    assert _values(root) == before


def _values(root: Node) -> dict:
    out, stack = {}, [(root, ())]
    while stack:
        node, path = stack.pop()
        out[path] = (node.n, node.v)
        stack.extend((ch, path + (ch.move,)) for ch in node.children)
    return out


# --- the options, through the agent -------------------------------------------------------

def test_options_set_the_weights_and_reject_bad_values():
    values = OptionValues()
    for name, text in (("PriorWeight", "1.5"), ("MinimaxWeight", "0.25"), ("Selection", "GRAVE"),
                       ("RaveBias", "0.001"), ("GraveRef", "20")):
        values.apply(values.check(name, text))
    settings = values.settings()
    assert (settings.prior_weight, settings.minimax_weight) == (1.5, 0.25)
    assert (settings.selection, settings.rave_bias, settings.grave_ref) == ("grave", 0.001, 20)
    plain = OptionValues()                       # the option table's defaults: all off
    plain.apply(plain.check("Defaults", "plain"))
    default = plain.settings()
    assert (default.selection, default.prior_weight, default.minimax_weight) == ("ucb1", 0.0, 0.0)
    for name, text in (("PriorWeight", "-1"), ("MinimaxWeight", "1.5"), ("MinimaxWeight", "x"),
                       ("Selection", "puct"), ("RaveBias", "-0.1"), ("GraveRef", "-1")):
        with pytest.raises(OptionError, match=name):
            values.check(name, text)


def _position_with_a_capture():
    """An English position reached by seeded random moves where the side to move captures."""
    state, rng = get_game("english").new_state(), random.Random(2)
    while not any(state.is_capture(m) for m in state.legal_moves()):
        state.play(state.random_move(rng))
    return state


@pytest.mark.parametrize("selection", ["ucb1", "rave", "grave"])
def test_an_informed_search_is_exact_in_nodes_and_reproducible(selection):
    game = get_game("english")
    state = _position_with_a_capture()
    settings = Settings(seed=4, prior_weight=1.0, minimax_weight=0.3, selection=selection, grave_ref=10)
    results = []
    for _ in range(2):
        agent = UctAgent(game, settings)
        result = agent.search(state, Limits(nodes=400), threading.Event())
        root = agent.root
        assert agent.tree.priors and agent.tree.minimax and root.n == 400
        assert root.v == 1.0 - max(ch.v for ch in root.children)
        results.append((result.move, result.info.score, [(ch.prior, ch.v) for ch in root.children]))
    assert results[0] == results[1]
    assert any(prior > 0 for prior, _ in results[0][2])      # the capture's material


# --- RAVE / GRAVE -------------------------------------------------------------------------

def _amaf_path(node_type=Node, visits=(0, 0, 0)):
    """root (player 0 to move) -a-> x (player 1 to move) -b-> y (player 0 to move), each with
    siblings or children that a simulation may or may not play later."""
    def add(parent, move, mover):
        child = node_type(move, mover, 1 - mover)
        parent.add_child(child)
        return child
    root = Node(None, 1, 0)
    x = add(root, "a", 0)
    add(root, "c", 0), add(root, "z", 0)
    y = add(x, "b", 1)
    add(x, "d", 1), add(x, "a", 1)
    add(y, "c", 0), add(y, "a", 0), add(y, "e", 0)
    for node, n in zip((root, x, y), visits):
        node.n = n
    return [root, x, y]


# the tree part a (player 0), b (player 1), then this playout: player 0's a comes only first
PLAYOUT = [(0, "c"), (1, "a"), (0, "e"), (0, "c"), (1, "d")]


def _amaf_counts(path):
    return [{ch.move: (ch.aw, ch.an) for ch in node.children} for node in path]


def test_rave_counts_each_later_move_of_the_player_to_move_on_the_child_once():
    path = _amaf_path(RaveNode)
    tree = Tree(path[0], Rave().select, True, Budget.megabytes(1), rave=True)
    tree.backup_amaf(path, PLAYOUT, 1.0)              # the first player won
    assert _amaf_counts(path) == [
        {"a": (1.0, 1), "c": (1.0, 1), "z": (0.0, 0)},     # a (the tree), c twice: once
        {"b": (0.0, 1), "d": (0.0, 1), "a": (0.0, 1)},     # player 1's moves, lost
        {"c": (1.0, 1), "a": (0.0, 0), "e": (1.0, 1)}]     # a came before y: not counted
    assert tree.budget.used == 0 and all(node.amaf is None for node in path)     # no tables
    tree.backup_amaf(path, [(1, "d")], 0.5)
    assert _amaf_counts(path)[0] == {"a": (1.5, 2), "c": (1.0, 1), "z": (0.0, 0)}
    assert _amaf_counts(path)[1]["d"] == (0.5, 2)
    tree.budget.measure(path[0])                      # a RAVE node is counted at its own size
    assert tree.budget.used == NODE_BYTES + 9 * RAVE_NODE_BYTES + 10 * SLOT_BYTES + 3 * LIST_BYTES


def test_grave_keeps_tables_of_both_players_only_above_the_reference_and_at_the_root():
    path = _amaf_path(Node, visits=(10, 3, 3))
    root, x, y = path
    tree = Tree(root, Grave().select, True, Budget.megabytes(1), reference=3)
    tree.backup_amaf(path, PLAYOUT, 1.0)
    assert root.amaf == ({"a": [1.0, 1], "c": [1.0, 1], "e": [1.0, 1]},
                         {"b": [0.0, 1], "a": [0.0, 1], "d": [0.0, 1]})
    assert x.amaf is None and y.amaf is None          # 3 visits: not above the reference
    x.n = y.n = 4                                     # both cross it: their tables start now
    tree.backup_amaf(path, [(1, "d")], 0.5)
    assert root.amaf[0]["a"] == [1.5, 2] and root.amaf[1]["d"] == [0.5, 2] and root.amaf[1]["b"] == [0.5, 2]
    assert x.amaf == ({}, {"b": [0.5, 1], "d": [0.5, 1]}) and y.amaf == ({}, {"d": [0.5, 1]})
    grown = tree.budget.used
    assert grown == 3 * AMAF_TABLE_BYTES + 9 * (AMAF_ENTRY_BYTES + SLOT_BYTES)
    tree.budget.measure(root)                         # measuring counts them the same way
    assert tree.budget.used == 10 * (NODE_BYTES + SLOT_BYTES) + 3 * LIST_BYTES + grown


def test_a_reused_root_gets_a_table_below_the_reference():
    path = _amaf_path(Node, visits=(1, 1, 1))
    tree = Tree(path[0], Grave().select, True, Budget.megabytes(1), reference=50)
    tree.backup_amaf(path, PLAYOUT, 0.0)
    assert path[0].amaf[1]["d"] == [1.0, 1] and path[1].amaf is None


def mine(entries: dict) -> tuple:
    """A GRAVE table with ``entries`` for player 0 (the test roots' player to move)."""
    return entries, {}


GRAVE_CASES = [
    # (children (move, n, w), AMAF table, c, bias, the child entered)
    ([("a", 10, 6.0), ("b", 10, 5.0)], None, 0.0, 1e-5, "a"),                      # no table: the mean
    ([("a", 10, 6.0), ("b", 10, 5.0)], mine({"b": [90.0, 100]}), 0.0, 1e-5, "b"),         # AMAF says b
    ([("a", 10, 6.0), ("b", 10, 5.0)], mine({"c": [90.0, 100]}), 0.0, 1e-5, "a"),         # no entry for b
    ([("a", 10, 6.0), ("b", 10, 5.0)], mine({"b": [90.0, 100]}), 0.0, 1.0, "a"),          # big bias: beta small
    ([("a", 1000, 600.0), ("b", 1000, 500.0)], mine({"b": [9.0, 10]}), 0.0, 1e-5, "a"),   # n >> m: the mean
    ([("a", 10, 9.0, 0, 0.0, 1), ("b", 10, 1.0)], mine({"a": [100.0, 100]}), 0.0, 1e-5, "b"),  # proven loss
]


@pytest.mark.parametrize("children,table,c,bias,best", GRAVE_CASES)
def test_grave_selection(children, table, c, bias, best):
    root = make_root(*children)
    assert Grave(c, bias).select(root, table).move == best


INFORMED_GRAVE_CASES = [
    # (children (move, n, w, prior, v), AMAF table, prior weight, minimax weight, the child
    # entered); c 0, bias 1e-5; AMAF {"b": [9, 10]} for player 0 makes b's mean ~0.7 (beta ~0.5)
    ([("a", 10, 6.0, 0.0, 0.5), ("b", 10, 5.0, 0.0, 0.5)], mine({"b": [9.0, 10]}), 0.0, 0.0, "b"),  # 0.6 vs 0.7
    # the minimax share mixes the RAVE mean, not the raw one: 0.55 vs 0.6 (raw: 0.5)
    ([("a", 10, 6.0, 0.0, 0.5), ("b", 10, 5.0, 0.0, 0.5)], mine({"b": [9.0, 10]}), 0.0, 0.5, "b"),
    ([("a", 10, 6.0, 0.0, 0.7), ("b", 10, 5.0, 0.0, 0.3)], mine({"b": [9.0, 10]}), 0.0, 0.5, "a"),  # 0.65 vs 0.5
    ([("a", 10, 6.0, 0.0, 0.7), ("b", 10, 5.0, 0.0, 0.3)], mine({"b": [9.0, 10]}), 0.0, 1.0, "a"),  # pure minimax
    ([("a", 10, 6.0, 0.0, 0.5), ("b", 10, 5.0, 2.0, 0.5)], None, 1.0, 0.0, "b"),     # 0.6 vs 0.5 + 2/11
    ([("a", 10, 6.0, 0.0, 0.5), ("b", 10, 5.0, 2.0, 0.5)], None, 0.0, 0.0, "a"),     # weight 0: no bias
    # AMAF lifts a (~0.8) above b's bias at weight 1 (0.68), not at weight 3 (1.05)
    ([("a", 10, 6.0, 0.0, 0.5), ("b", 10, 5.0, 2.0, 0.5)], mine({"a": [10.0, 10]}), 1.0, 0.0, "a"),
    ([("a", 10, 6.0, 0.0, 0.5), ("b", 10, 5.0, 2.0, 0.5)], mine({"a": [10.0, 10]}), 3.0, 0.0, "b"),
    ([("a", 10, 5.0, 0.0, 0.6), ("b", 10, 5.0, 1.0, 0.4)], None, 0.5, 0.5, "a"),     # 0.55 vs 0.45 + 0.045
]


@pytest.mark.parametrize("children,table,prior_weight,minimax_weight,best", INFORMED_GRAVE_CASES)
def test_grave_with_priors_and_minimax(children, table, prior_weight, minimax_weight, best):
    root = informed_root(*children)
    assert Grave(0.0, 1e-5, 0, prior_weight, minimax_weight).select(root, table).move == best


@pytest.mark.parametrize("children,c,prior_weight,minimax_weight,best", INFORMED_CASES)
def test_grave_without_amaf_statistics_chooses_as_informed_ucb1(children, c, prior_weight, minimax_weight, best):
    # one formula: with no AMAF entry for any child, GRAVE is InformedUcb1 exactly
    root = informed_root(*children)
    assert Grave(c, 1e-5, 0, prior_weight, minimax_weight).select(root, mine({"zz": [1.0, 1]})).move == best


def test_grave_judges_a_proven_draw_at_half_plus_its_bias():
    root = informed_root(("a", 10, 5.0, 3.0, 0.9), ("b", 10, 5.5, 0.0, 0.6))
    root.children[0].proven = 0.5
    assert Grave(0.0, 1e-5, 0, 1.0, 0.0).select(root, None).move == "a"     # 0.5 + 3/11 = 0.77 vs 0.55
    assert Grave(0.0, 1e-5, 0, 0.0, 1.0).select(root, None).move == "b"     # a's v 0.9 ignored: 0.5 vs 0.6


def rave_root(children: list, table: tuple | None) -> Node:
    """``make_root``'s tree with RAVE children carrying the AMAF statistics of ``table``."""
    root = make_root(*children)
    stats = table[0] if table else {}
    rave = []
    for old in root.children:
        child = RaveNode(old.move, old.mover, old.to_move)
        child.n, child.w, child.proven, child.prior, child.v = old.n, old.w, old.proven, old.prior, old.v
        child.aw, child.an = stats.get(old.move, (0.0, 0))
        rave.append(child)
    root.children = rave
    return root


@pytest.mark.parametrize("children,table,c,bias,best", GRAVE_CASES)
def test_rave_reads_the_same_statistics_on_the_children(children, table, c, bias, best):
    assert Rave(c, bias).select(rave_root(children, table)).move == best


@pytest.mark.parametrize("children,table,prior_weight,minimax_weight,best", INFORMED_GRAVE_CASES)
def test_rave_with_priors_and_minimax(children, table, prior_weight, minimax_weight, best):
    root = informed_root(*children)
    root = rave_root([(ch.move, ch.n, ch.w) for ch in root.children], table)
    for child, (_, _, _, prior, v) in zip(root.children, children):
        child.prior, child.v = prior, v
    assert Rave(0.0, 1e-5, prior_weight, minimax_weight).select(root).move == best


def test_grave_without_a_table_chooses_as_ucb1():
    for children, c, best in SELECTION_CASES:
        assert Grave(c).select(make_root(*children), None).move == best


def test_the_descent_hands_grave_the_table_of_the_closest_node_above_the_reference():
    seen = []

    def select(node, table):
        seen.append(table)
        return node.children[0]

    root = make_root(("a", 30, 15.0))            # 30 visits, then a: 30, x: 5
    root.amaf = mine({"a": [1.0, 1]})
    mid = root.children[0]
    mid.amaf = mine({"x": [2.0, 2]})
    low = make_node("x", 5, 2.0, parent=mid, mover=1)
    low.amaf = mine({"y": [3.0, 3]})
    make_node("y", 1, 1.0, parent=low, mover=0).untried = []
    tables = root.amaf, mid.amaf, low.amaf
    for reference, expected, mid_table in ((10, [root.amaf, mid.amaf, mid.amaf], True),
                                           (0, [root.amaf, mid.amaf, low.amaf], True),
                                           (100, [root.amaf] * 3, True),
                                           # above the reference, its table not made yet (tree
                                           # parallel counts visits on the way down): the root's
                                           (10, [root.amaf] * 3, False)):
        mid.amaf = tables[1] if mid_table else None
        seen.clear()
        state = ScoredTakeAway(30)               # any state: y is a leaf with nothing to expand
        state.play = lambda move: None
        state.legal_moves = lambda: [1]
        tree = Tree(root, select, True, Budget.megabytes(1), reference=reference)
        leaf = tree.descend(state, random.Random(1))
        assert seen == expected and leaf.node.move == "y"


@pytest.mark.parametrize("policy", ["random", "mast", "greedy-eps"])
def test_a_recorded_playout_keeps_the_moves_it_played(policy):
    start = TakeAway(12).new_state()
    record = make_playout(policy).run_recorded(start.copy(), random.Random(7))
    replay = start.copy()
    for player, move in record.moves:
        assert replay.to_move == player
        replay.play(move)
    assert replay.outcome() == record.outcome


def _nodes(root: Node) -> list[Node]:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


FAST_RECORDING = [name for name in list_games() if isinstance(get_game(name).new_state(), (DraughtsState, LifeState))]


def test_the_draughts_family_and_life_record_in_their_fast_playout():
    assert {"english", "international", "russian", "frisian", "life"} <= set(FAST_RECORDING)
    for name in FAST_RECORDING:
        assert type(get_game(name).new_state()).recorded_playout is not State.recorded_playout


@pytest.mark.parametrize("name", FAST_RECORDING)
def test_a_fast_recorded_playout_plays_and_draws_as_the_generic_loop_and_the_plain_playout(name):
    # the same moves, outcome, final position and random draws as the contract's
    # random_move/play loop; and recording changes nothing of the plain fast playout
    game = get_game(name)
    for seed in range(4):
        start, rng = game.new_state(), random.Random(100 + seed)
        for _ in range(seed * 7):              # from the start and from later positions
            move = start.random_move(rng)
            if move is None:
                break
            start.play(move)
        for limit in (10_000, 15):             # to the end, and cut off
            runs = []
            for play in ("fast", "generic", "plain"):
                state, rng, moves = start.copy(), random.Random(seed), []
                if play == "fast":
                    outcome = state.recorded_playout(rng, moves, limit)
                elif play == "generic":
                    outcome = State.recorded_playout(state, rng, moves, limit)
                else:
                    outcome, moves = state.playout(rng, limit), None
                runs.append((outcome, state.key(), state.ply, rng.random(), moves))
            fast, generic, plain = runs
            assert fast == generic and fast[:4] == plain[:4]
            assert len(fast[4]) == min(limit, fast[2] - start.ply)


@pytest.mark.parametrize("selection", ["rave", "grave"])
def test_a_rave_search_keeps_amaf_statistics_where_they_are_read_and_is_exact_in_nodes(selection):
    game = get_game("english")
    settings = Settings(seed=5, selection=selection, grave_ref=20)
    outcomes = []
    for _ in range(2):
        agent = UctAgent(game, settings)
        result = agent.search(game.new_state(), Limits(nodes=300), threading.Event())
        root, nodes = agent.root, _nodes(agent.root)
        assert root.n == 300 and agent.tree.amaf
        if selection == "rave":       # counts on the children, no table anywhere
            assert all(type(node) is RaveNode and node.amaf is None for node in nodes[1:])
            amaf = [(ch.move, ch.aw, ch.an) for ch in root.children]
        else:                         # tables at the root and above 20 visits only
            assert [node for node in nodes if node.amaf is not None] == \
                [node for node in nodes if node is root or node.n > 20]
            assert not any(type(node) is RaveNode for node in nodes)
            amaf = [(ch.move, *root.amaf[0][ch.move]) for ch in root.children]
        # every root move was played first by the root's player in each simulation through it,
        # and later in some others
        assert all(an >= ch.n for (_, _, an), ch in zip(amaf, root.children))
        assert sum(an for _, _, an in amaf) > root.n
        outcomes.append((result.move, amaf))
    assert outcomes[0] == outcomes[1]


def test_a_grave_tree_counts_its_amaf_tables_in_its_budget():
    game = get_game("english")
    agent = UctAgent(game, Settings(seed=2, selection="grave", grave_ref=5))
    agent.memory.budget_mb = 300_000 / MB       # small: the tree prunes, then freezes
    agent.search(game.new_state(), Limits(nodes=1500), threading.Event())
    budget = agent.tree.budget
    used = budget.used
    assert used > budget.limit and budget.frozen  # the tables alone outgrow it (see search.md)
    budget.measure(agent.root)                  # the running count agrees with a recount
    assert budget.used == used


# --- bench --option -----------------------------------------------------------------------

def test_bench_options_give_the_search_settings_and_name_a_bad_one():
    settings = search_settings(["Selection=GRAVE", "GraveRef=7", " PriorWeight =0.5"], seed=9)
    assert (settings.selection, settings.grave_ref, settings.prior_weight, settings.seed) == ("grave", 7, 0.5, 9)
    assert search_settings([], seed=3) == Settings(seed=3)           # plain UCT, whatever the game
    tuned = search_settings(["Defaults=game"], seed=3, game="english")
    assert tuned == replace(game_settings("english"), seed=3) and tuned != Settings(seed=3)
    assert search_settings(["Defaults=game", "MinimaxWeight=0"], 3, "english").minimax_weight == 0.0
    for bad, message in (("Selection", "NAME=VALUE"), ("Selection=puct", "puct"), ("Nope=1", "Nope"),
                         ("UCI_Variant=russian", "--game")):
        with pytest.raises(OptionError, match=message):
            search_settings([bad])


def test_bench_takes_options_and_reports_them():
    runner = CliRunner()
    result = runner.invoke(main, ["bench", "--game", "gauntlet", "--seconds", "0.05", "--json",
                                  "--option", "Selection=rave", "--option", "MinimaxWeight=0.2"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["options"] == ["Selection=rave", "MinimaxWeight=0.2"]
    assert report["games"][0]["uct"]["iterations"] > 0
    result = runner.invoke(main, ["bench", "--game", "gauntlet", "--memory", "--option", "GraveRef=-1"])
    assert result.exit_code == 2 and "GraveRef" in result.output
