"""The MCTS core's pure decisions, table by table (OpenSpiel's mcts_test.py style): the
final-move choice, the reported score, UCB1 selection, solver proofs, backup with and
without virtual loss, root-statistics merging and voting, tree reuse and the search loop."""
from __future__ import annotations

import random
import threading

import pytest

from mcts_engine.mcts.agent import SearchInfo
from mcts_engine.mcts.final import RootChild, final_choice, majority_vote, merge_children, set_score
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.reuse import TreeMemory
from mcts_engine.mcts.searcher import Searcher
from mcts_engine.mcts.selection import Ucb1
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.tree import Budget, Node, Tree, backup, prove
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.rules import get_game
from mcts_engine.rules.base import NO_LIMIT
from support.toy_games import TakeAway, TakeAwayState
from support.trees import SELECTION_CASES, make_node, make_root


# --- the final-move choice ----------------------------------------------------------------

FINAL_CASES = [
    # (children, final move rule, the move chosen)
    ([("a", 10, 6.0), ("b", 30, 12.0), ("c", 20, 15.0)], "robust", "b"),        # most visits
    ([("a", 10, 6.0), ("b", 30, 12.0), ("c", 20, 15.0)], "max", "c"),           # best mean
    ([("a", 30, 10.0), ("b", 30, 20.0)], "robust", "b"),                         # visit tie: mean
    ([("a", 10, 5.0), ("b", 20, 10.0)], "max", "b"),                             # mean tie: visits
    ([("a", 50, 40.0), ("b", 2, 1.0, 0, 1.0, 5), ("c", 1, 1.0, 0, 1.0, 1)], "robust", "c"),  # shortest win
    ([("a", 50, 40.0, 0, 0.0, 1), ("b", 3, 0.5)], "robust", "b"),                # avoid a proven loss
    ([("a", 50, 40.0, 0, 0.0, 1), ("b", 3, 0.5, 0, 0.0, 7)], "robust", "b"),     # all lost: the longest
    ([("a", 10, 9.0), ("b", 12, 6.0, 12, 0.5, 2)], "max", "a"),                  # a proven draw scores 0.5
    ([("a", 10, 4.0), ("b", 12, 6.0, 12, 0.5, 2)], "max", "b"),
]


@pytest.mark.parametrize("children,rule,best", FINAL_CASES)
def test_final_choice(children, rule, best):
    root = make_root(*children)
    assert final_choice(root.children, rule).move == best
    merged = [RootChild(ch.move, ch.n, ch.w, ch.d, ch.proven, ch.proof) for ch in root.children]
    assert final_choice(merged, rule).move == best     # merged statistics choose the same way


def test_final_choice_of_nothing_is_none():
    assert final_choice([]) is None


SCORE_CASES = [
    # (n, w, d, proven, proof) -> (score, mate, wdl)
    ((10, 7.0, 2, None, 0), (0.7, None, (600, 200, 200))),
    ((4, 2.0, 4, None, 0), (0.5, None, (0, 1000, 0))),
    ((5, 5.0, 0, 1.0, 0), (1.0, 1, (1000, 0, 0))),      # the move ends the game: mate 1
    ((5, 5.0, 0, 1.0, 2), (1.0, 2, (1000, 0, 0))),      # win in 3 plies = 2 moves
    ((5, 0.0, 0, 0.0, 1), (0.0, -1, (0, 0, 1000))),     # opponent mates next ply
    ((5, 2.5, 5, 0.5, 3), (0.5, None, (0, 1000, 0))),   # a proven draw is no mate
]


@pytest.mark.parametrize("stats,expected", SCORE_CASES)
def test_score_wdl_and_mate_from_the_chosen_child(stats, expected):
    info = SearchInfo()
    set_score(info, make_node("m", *stats))
    assert (info.score, info.mate, info.wdl) == expected


# --- selection ----------------------------------------------------------------------------

@pytest.mark.parametrize("children,c,best", SELECTION_CASES)
def test_ucb1_selection(children, c, best):
    root = make_root(*children)
    assert Ucb1(c).select(root).move == best


# --- solver proofs ------------------------------------------------------------------------

def test_a_win_for_the_chooser_proves_the_parent_with_the_shortest_proof():
    root = make_root(("a", 5, 2.0), ("b", 5, 2.0))
    prove([root, root.children[1]], 1.0, solver=True)
    # root.mover is 1, the chooser 0: a win for the chooser is a loss for root's mover
    assert (root.proven, root.proof) == (0.0, 1)


def test_a_parent_is_proven_only_when_every_child_is_and_nothing_is_untried():
    root = make_root(("a", 5, 2.0), ("b", 5, 2.0))
    prove([root, root.children[0]], 0.0, solver=True)
    assert root.proven is None                     # b is still open
    root.untried = [7]
    prove([root, root.children[1]], 0.5, solver=True)
    assert root.proven is None                     # a move is still untried
    root.untried = []
    prove([root, root.children[1]], 0.5, solver=True)
    assert (root.proven, root.proof) == (0.5, 1)   # the best of a loss and a draw


def test_all_children_lost_proves_a_win_for_the_other_side_by_the_longest_line():
    root = make_root(("a", 5, 2.0), ("b", 5, 2.0))
    prove([root, root.children[0]], 0.0, solver=True)
    root.children[1].proven, root.children[1].proof = 0.0, 4
    prove([root, root.children[0]], 0.0, solver=True)
    assert (root.proven, root.proof) == (1.0, 5)


def test_extra_turns_keep_the_chooser_s_point_of_view():
    # the chooser at the root is player 0, and so is the root's mover (player 0 moves twice)
    root = Node(None, 0, 0)
    root.untried = []
    child = make_node("a", 5, 2.0, parent=root, mover=0)
    prove([root, child], 1.0, solver=True)
    assert root.proven == 1.0


def test_without_the_solver_only_the_finished_node_is_marked():
    root = make_root(("a", 5, 2.0))
    prove([root, root.children[0]], 1.0, solver=False)
    assert root.children[0].proven == 1.0 and root.proven is None


# --- backup and virtual loss --------------------------------------------------------------

def test_backup_adds_each_mover_s_view_and_counts_draws():
    root = make_root(("a", 0, 0.0))
    leaf = make_node("x", 0, 0.0, parent=root.children[0], mover=1)
    path = [root, root.children[0], leaf]
    backup(path, 1.0)
    backup(path, 0.5)
    assert [(nd.n, nd.w, nd.d) for nd in (leaf, root.children[0], root)] == \
        [(2, 0.5, 1), (2, 1.5, 1), (2, 0.5, 1)]


def test_virtual_loss_counts_on_the_way_down_and_undo_restores_the_tree():
    game = TakeAway(7)
    state = game.new_state()
    root = Node.root_of(state)
    tree = Tree(root, Ucb1(1.0).select, True, Budget.megabytes(1))
    rng = random.Random(1)
    for _ in range(6):                      # a small tree, the plain way
        leaf = tree.descend(state.copy(), rng)
        backup(leaf.path, leaf.result if leaf.result is not None else 0.5)
    before = _snapshot(root)
    leaf = tree.descend(state.copy(), rng, virtual_loss=True)
    assert leaf.node.n == 1 and root.n == before[0][1] + 1
    tree.undo_virtual_loss(leaf.path)
    after = _snapshot(root)
    assert sorted(after) == sorted(before)  # the new leaf is gone and its move untried again


def _snapshot(root: Node) -> list:
    out, stack = [], [(root, ())]
    while stack:
        node, path = stack.pop()
        out.append((path, node.n, node.w, tuple(sorted(node.untried or []))))
        stack.extend((ch, path + (ch.move,)) for ch in node.children)
    return out


# --- merging root statistics --------------------------------------------------------------

MERGE_CASES = [
    # (reports, merged (move, n, w, d, proven, proof) in order)
    ([[("x", 1, 1.0, 0, None, 0)]], [("x", 1, 1.0, 0, None, 0)]),
    ([[("x", 1, 1.0, 0, None, 0)], [("x", 2, 0.5, 1, None, 0), ("y", 3, 3.0, 0, 1.0, 2)]],
     [("x", 3, 1.5, 1, None, 0), ("y", 3, 3.0, 0, 1.0, 2)]),
    ([[("y", 1, 0.0, 0, 0.0, 1)], [("y", 4, 2.0, 0, None, 0)]], [("y", 5, 2.0, 0, 0.0, 1)]),
]


@pytest.mark.parametrize("reports,merged", MERGE_CASES)
def test_merge_children(reports, merged):
    result = merge_children([[RootChild(*r) for r in report] for report in reports])
    assert [(m.move, m.n, m.w, m.d, m.proven, m.proof) for m in result] == merged


VOTE_CASES = [
    # (choices, merged root children, the move played)
    (["a", "b", "b"], [("a", 50, 25.0, 0, None, 0), ("b", 20, 9.0, 0, None, 0)], "b"),   # majority
    (["a", "b"], [("a", 20, 9.0, 0, None, 0), ("b", 50, 25.0, 0, None, 0)], "b"),        # tie: visits
    (["a", "a"], [("a", 20, 9.0, 0, None, 0), ("b", 1, 1.0, 0, 1.0, 0)], "b"),           # proven win
    (["a", "a", "b"], [("a", 20, 9.0, 0, 0.0, 1), ("b", 5, 1.0, 0, None, 0)], "b"),      # no lost move
    (["zz"], [("a", 20, 9.0, 0, None, 0), ("b", 5, 1.0, 0, None, 0)], "a"),              # no valid vote
]


@pytest.mark.parametrize("choices,merged,best", VOTE_CASES)
def test_majority_vote(choices, merged, best):
    assert majority_vote(choices, [RootChild(*m) for m in merged]).move == best


# --- tree reuse ---------------------------------------------------------------------------

def test_tree_memory_walks_the_moves_played_and_forgets_otherwise():
    game = get_game("english")
    start = game.new_state()
    fen = start.fen()
    memory = TreeMemory()
    root = memory.root_for(start, (fen,))
    first = make_node(start.legal_moves()[0], 3, 1.0, parent=root, mover=start.to_move)
    after = start.copy()
    after.play(first.move)
    assert memory.root_for(after, (fen, start.move_str(first.move))) is first
    other = start.copy()
    other.play(start.legal_moves()[1])
    assert memory.root_for(other, ("another start", "x")) is not first      # unrelated history
    assert not TreeMemory(enabled=False).root_for(start, (fen,)).children


def test_a_searchmoves_root_is_not_left_to_the_next_search():
    game = get_game("english")
    state = game.new_state()
    moves = state.legal_moves()
    agent = UctAgent(game, Settings(seed=3))
    history = (state.fen(),)
    agent.search(state, Limits(nodes=50, searchmoves=moves[:2]), threading.Event(), None, history)
    agent.search(state, Limits(nodes=200), threading.Event(), None, history)
    assert len(agent.root.children) == len(moves)


# --- the search loop ----------------------------------------------------------------------

def _run(limits: Limits, stop: threading.Event | None = None, reports: list | None = None):
    game = get_game("english")
    agent = UctAgent(game, Settings(seed=1))
    state = game.new_state()
    on_info = reports.append if reports is not None else None
    searcher = Searcher(limits, stop or threading.Event(), on_info, agent.settings)
    tree = agent.search_tree(state, limits, ())
    info = searcher.run(tree, lambda progress: agent.iterate(tree, state, progress))
    return tree.root, info


def test_the_node_limit_is_exact_and_reports_follow_the_count():
    reports: list[SearchInfo] = []
    root, info = _run(Limits(nodes=2500), reports=reports)
    assert info.nodes == root.n == 2500
    assert [r.nodes for r in reports] == [1000, 2000, 2500]   # every max(1000, nodes/8), then final
    assert reports[-1] is info


def test_the_depth_limit_ends_the_search_when_the_tree_reaches_it():
    _, info = _run(Limits(depth=3))
    assert info.seldepth == 3


def test_a_stop_set_before_the_search_runs_no_iteration():
    stop = threading.Event()
    stop.set()
    root, info = _run(Limits(infinite=True), stop=stop)
    assert info.nodes == 0 and root.n == 0


def test_a_proven_root_ends_a_node_search_early():
    game = TakeAway(3)
    agent = UctAgent(game, Settings(seed=1))
    result = agent.search(game.new_state(), Limits(nodes=100000), threading.Event())
    assert agent.root.proven is not None and result.info.nodes < 100


class _FailingPlayouts(TakeAwayState):
    """Take-away whose ``fail_at``-th playout (counted over all copies) raises."""

    count, fail_at = 0, 30

    def copy(self):
        return _FailingPlayouts(self.stones, self.to_move, self.winner, self.ply)

    def playout(self, rng, max_plies=NO_LIMIT):
        _FailingPlayouts.count += 1
        if _FailingPlayouts.count == self.fail_at:
            raise RuntimeError("a playout failed on purpose")
        return super().playout(rng, max_plies)


def test_a_search_that_failed_part_way_leaves_no_unvisited_node_to_the_next():
    # the failure comes between a descent (a new node) and its backup; tree reuse must not
    # hand that visit-less node to the next search (UCB1 would divide by its zero visits)
    _FailingPlayouts.count = 0
    agent = UctAgent(TakeAway(40), Settings(seed=1))
    state = _FailingPlayouts(40)
    history = ("start",)   # the same position again: its tree is reused
    with pytest.raises(RuntimeError):
        agent.search(state, Limits(nodes=200), threading.Event(), history=history)
    result = agent.search(state, Limits(nodes=200), threading.Event(), history=history)
    assert result.info.nodes == agent.root.n == 200
    stack = [agent.root]
    while stack:
        node = stack.pop()
        assert node.n > 0
        stack.extend(node.children)
