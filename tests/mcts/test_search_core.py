"""The native search core (``native/src/search.c``) and its Python side (``mcts/``).

Table by table (OpenSpiel's mcts_test.py style): the final-move choice (the core's one
definition, as a merge of worker processes' statistics reaches it), the reported score, UCB1
selection with progressive bias and implicit minimax, merging and voting.  Then whole
searches, on the draughts kernel's backend and on Python states (the toy take-away game with
extra turns): forced wins and mate scores, solver proofs against exact minimax, backup from
each mover's point of view, minimax values of a fully expanded tree, priors, widening,
seeded searches, tree reuse, limits and stop, the playout policies and their cut-off,
the Hash budget and pruning, a failed search, and threads.
"""
from __future__ import annotations

import math
import random
import threading
import time

import pytest

from mcts_engine import native
from mcts_engine.agents import make_agent
from mcts_engine.mcts.agent import SearchInfo
from mcts_engine.mcts.core import QUIESCENCE, capacity, core_parameters, merged_choice, new_search, position, root_children
from mcts_engine.mcts.report import RootChild, set_score
from mcts_engine.mcts.limits import Limits, TimeBudget, budget, moves_to_go, split_nodes, time_budget
from mcts_engine.mcts.reuse import TreeMemory
from mcts_engine.mcts.settings import PLAYOUTS, Settings
from mcts_engine.mcts import uct as uct_module
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.rules import get_game, list_games
from mcts_engine.native import StopSignal
from mcts_engine.rules.base import NO_LIMIT
from support.negamax import negamax, random_walk
from support.toy_games import TakeAway, TakeAwayState, wins_for_mover, winning_moves

pytestmark = pytest.mark.skipif(native.core is None, reason=native.status())
core = native.core


def params(**overrides) -> dict:
    """The core's parameters for ``Settings`` with ``overrides``."""
    return core_parameters(Settings(**overrides))


def child(n=10, w=5.0, d=0, v=0.5, prior=0.0, proven=None, proof=0, mover=0) -> tuple:
    """A child's statistics as the table functions read them."""
    return (n, w, d, v, prior, proven, proof, mover)


# --- the final-move choice ----------------------------------------------------------------

FINAL_CASES = [
    # (children (n, w, d, proven, proof), final move rule, the index chosen)
    ([(10, 6.0, 0, None, 0), (30, 12.0, 0, None, 0), (20, 15.0, 0, None, 0)], "robust", 1),   # most visits
    ([(10, 6.0, 0, None, 0), (30, 12.0, 0, None, 0), (20, 15.0, 0, None, 0)], "max", 2),      # best mean
    ([(30, 10.0, 0, None, 0), (30, 20.0, 0, None, 0)], "robust", 1),                         # visit tie: mean
    ([(10, 5.0, 0, None, 0), (20, 10.0, 0, None, 0)], "max", 1),                             # mean tie: visits
    ([(50, 40.0, 0, None, 0), (2, 1.0, 0, 1.0, 5), (1, 1.0, 0, 1.0, 1)], "robust", 2),       # shortest win
    ([(50, 40.0, 0, 0.0, 1), (3, 0.5, 0, None, 0)], "robust", 1),                            # avoid a proven loss
    ([(50, 40.0, 0, 0.0, 1), (3, 0.5, 0, 0.0, 7)], "robust", 1),                             # all lost: the longest
    ([(10, 9.0, 0, None, 0), (12, 6.0, 12, 0.5, 2)], "max", 0),                              # a proven draw: 0.5
    ([(10, 4.0, 0, None, 0), (12, 6.0, 12, 0.5, 2)], "max", 1),
]


def choose(children: list[RootChild], rule: str = "robust", votes=None, *more: list[RootChild]):
    """The core's final choice over these searchers' statistics: (merged, the chosen child)."""
    return merged_choice(Settings(final_move=rule), [children, *more], votes)


@pytest.mark.parametrize("children,rule,best", FINAL_CASES)
def test_the_core_final_choice(children, rule, best):
    table = [RootChild(i, n, w, d, proven, proof) for i, (n, w, d, proven, proof) in enumerate(children)]
    assert choose(table, rule)[1].move == best
    assert core.merge_roots(1 if rule == "max" else 0, [[c.as_tuple() for c in table]])[1] == best


def test_final_choice_of_nothing_is_none():
    assert choose([])[1] is None and core.merge_roots(0, [[]]) == ([], None)


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
    set_score(info, RootChild("m", *stats))
    assert (info.score, info.mate, info.wdl) == expected


# --- selection ----------------------------------------------------------------------------

SELECTION_CASES = [
    # (children, c, the child UCB1 enters)
    ([child(10, 6.0), child(10, 5.0)], 1.0, 0),                                # equal visits: best mean
    ([child(100, 60.0), child(2, 0.9)], 1.0, 1),                               # exploration wins
    ([child(100, 60.0), child(2, 0.9)], 0.0, 0),                               # c = 0: greedy
    ([child(100, 90.0), child(1, 0.0, proven=1.0)], 1.0, 1),                   # a proven win at once
    ([child(1, 1.0, proven=0.0), child(100, 10.0)], 5.0, 1),                   # a proven loss never
    ([child(3, 0.0, proven=0.0), child(5, 0.0, proven=0.0)], 1.0, 1),          # all lost: most visited
]


@pytest.mark.parametrize("children,c,best", SELECTION_CASES)
def test_ucb1_selection(children, c, best):
    visits = sum(ch[0] for ch in children)
    assert core.table_select(params(uct_c=c), visits, children) == best


INFORMED_CASES = [
    # (children (n, w, prior, v), c, prior weight, minimax weight, the child entered)
    ([(10, 5.0, 0.0, 0.5), (10, 5.0, 2.0, 0.5)], 1.0, 1.0, 0.0, 1),      # a prior breaks a tie
    ([(10, 5.0, 0.0, 0.5), (10, 5.0, 2.0, 0.5)], 1.0, 0.0, 0.0, 0),      # weight 0: no bias
    ([(100, 60.0, 0.0, 0.5), (100, 50.0, 1.0, 0.5)], 1.0, 1.0, 0.0, 0),  # the bias fades...
    ([(2, 1.2, 0.0, 0.5), (2, 1.0, 1.0, 0.5)], 1.0, 1.0, 0.0, 1),        # ...but leads early
    ([(10, 6.0, 0.0, 0.5), (10, 5.0, -1.0, 0.5), (10, 5.5, 3.0, 0.5)], 0.0, 0.5, 0.0, 2),
    ([(10, 6.0, 0.0, 0.2), (10, 5.0, 0.0, 0.9)], 1.0, 0.0, 0.0, 0),      # minimax off: the mean
    ([(10, 6.0, 0.0, 0.2), (10, 5.0, 0.0, 0.9)], 1.0, 0.0, 0.5, 1),      # 0.4 against 0.7
    ([(10, 6.0, 0.0, 0.2), (10, 5.0, 0.0, 0.9)], 1.0, 0.0, 0.1, 0),      # 0.56 against 0.54
    ([(10, 6.0, 0.0, 0.2), (10, 5.0, 0.0, 0.9)], 0.0, 0.0, 1.0, 1),      # pure minimax
    ([(10, 5.0, 0.0, 0.6), (10, 5.0, 1.0, 0.4)], 0.0, 0.5, 0.5, 0),      # 0.55 against 0.45 + 0.045
]


@pytest.mark.parametrize("children,c,prior_weight,minimax_weight,best", INFORMED_CASES)
def test_selection_with_progressive_bias_and_implicit_minimax(children, c, prior_weight, minimax_weight, best):
    table = [child(n, w, v=v, prior=prior) for n, w, prior, v in children]
    visits = sum(ch[0] for ch in children)
    assert core.table_select(params(uct_c=c, prior_weight=prior_weight, minimax_weight=minimax_weight),
                             visits, table) == best


def test_a_proven_draw_is_judged_at_half_whatever_its_value():
    table = [child(10, 9.0, v=0.9), child(10, 0.0, v=0.0, proven=0.5)]
    assert core.table_select(params(uct_c=0.0, minimax_weight=0.5), 20, table) == 0
    table = [child(10, 3.0, v=0.1), child(10, 0.0, v=0.0, proven=0.5)]
    assert core.table_select(params(uct_c=0.0, minimax_weight=0.5), 20, table) == 1


# --- merging and voting (root parallel) -------------------------------------------------------

def test_merge_sums_visits_and_keeps_a_proof_from_any_tree():
    a = [RootChild("x", 10, 6.0, 1, None, 0), RootChild("y", 5, 1.0, 0, None, 0)]
    b = [RootChild("y", 7, 2.0, 2, 0.0, 3), RootChild("z", 1, 1.0, 0, None, 0)]
    merged, _ = choose(a, "robust", None, b)
    by_move = {ch.move: ch for ch in merged}
    assert [ch.move for ch in merged] == ["x", "y", "z"]
    assert (by_move["y"].n, by_move["y"].w, by_move["y"].d, by_move["y"].proven, by_move["y"].proof) == (12, 3.0, 2, 0.0, 3)


def test_majority_vote_ties_go_to_visits_and_proofs_override():
    merged = [RootChild("x", 10, 5.0, 0, None, 0), RootChild("y", 30, 15.0, 0, None, 0),
              RootChild("z", 5, 2.0, 0, None, 0)]
    assert choose(merged, "robust", ["x", "x", "y"])[1].move == "x"
    assert choose(merged, "robust", ["x", "y"])[1].move == "y"
    merged[2] = RootChild("z", 5, 5.0, 0, 1.0, 1)
    assert choose(merged, "robust", ["x", "x", "y"])[1].move == "z"


def test_nodes_are_shared_out_evenly():
    assert split_nodes(10, 3) == [4, 3, 3] and split_nodes(None, 2) == [None, None] and sum(split_nodes(7, 4)) == 7


# --- whole searches: the solver ----------------------------------------------------------------

# Positions with exactly one move that forces a win within 5 plies (found by exhaustive
# search).  (game, FEN, the move)
FORCED_WINS = [
    ("english", "B:WK19:B25,K27,K30", "27-23"),
    ("english", "W:WK3,5,K6,27,29:BK14", "6-10"),
    ("english", "W:W8,K13,19,20:BK25", "13-17"),
    ("english", "B:WK7:BK19,K25", "19-15"),
    ("english", "W:W13,17,K28:B6,20", "17-14"),
    ("english", "W:WK1,K2,19,K26,27:BK30", "26-22"),
    ("russian", "W:Wc1,b2,h2,c3,e5:Ba5,h6", "e5-f6"),
    ("russian", "W:Wc1,b2,Ka7:BKh6", "a7-e3"),
    ("russian", "W:We1,g1,f2,h2,e3,d4,Kg7:Ba3", "d4-c5"),
    ("russian", "B:Wh6:Ba3,a5,a7,e7,g7,d8", "g7-f6"),
]


def search(game, state, seed=1, settings=None, history=(), **limits):
    agent = make_agent(game, settings or Settings(seed=seed))
    return agent, agent.search(state, Limits(**limits), StopSignal(), None, history)


@pytest.mark.parametrize("name,fen,best", FORCED_WINS)
@pytest.mark.parametrize("rules", ["native", "python"])
def test_the_only_forced_win_is_found_and_reported_as_mate(name, fen, best, rules):
    game = get_game(name, native=rules == "native")
    for seed in (1, 2):
        state = game.parse_fen(fen)
        _, result = search(game, state, seed=seed, nodes=3000)
        assert state.move_str(result.move) == best
        assert result.info.mate is not None and 0 < result.info.mate <= 3


def test_a_lost_position_is_reported_as_negative_mate():
    game = get_game("english")
    state = game.parse_fen("B:WK7,17,23,24,29:B10")    # Black's last man: White wins within 4 plies
    _, result = search(game, state, nodes=5000)
    assert result.info.mate is not None and result.info.mate < 0 and result.info.wdl == (0, 0, 1000)


@pytest.mark.parametrize("stones", range(1, 19))
def test_solver_proofs_match_exact_minimax_with_extra_turns(stones):
    """The toy game lets a player move twice in a row: proofs follow whose turn it is."""
    game = TakeAway(stones)
    state = game.new_state()
    agent = UctAgent(game, Settings(seed=3))
    result = agent.search(state, Limits(nodes=20000), StopSignal())
    root = agent.core.dump(1)
    assert root["proven"] is not None
    assert (root["proven"] == (1.0 if root["mover"] == state.to_move else 0.0)) == wins_for_mover(stones)
    if wins_for_mover(stones):
        assert result.move in winning_moves(stones) and result.info.mate > 0
    else:
        assert result.info.mate < 0


def check_counts(node: dict, root: bool = True) -> None:
    """Every node's visits are its children's plus its own expansion playout (none at the root,
    none below a finished game); a finished game's node holds only wins for its mover."""
    below = sum(ch["n"] for ch in node["children"])
    assert all(ch["n"] > 0 for ch in node["children"])
    if node["proven"] is not None:
        assert not node["children"] and node["w"] == node["n"] * node["proven"]
    else:
        assert node["n"] == below + (0 if root else 1), (node["move"], node["n"], below)
    for ch in node["children"]:
        check_counts(ch, root=False)


def test_backup_is_from_each_movers_point_of_view():
    game = TakeAway(9)
    agent = UctAgent(game, Settings(seed=5, solver=False))
    agent.search(game.new_state(), Limits(nodes=3000), StopSignal())
    root = agent.core.dump(100000)
    assert root["n"] == sum(ch["n"] for ch in root["children"]) == 3000
    check_counts(root)
    # the root's mover is player 1: every result it holds is the complement of its children's
    assert root["w"] == pytest.approx(sum(ch["n"] - ch["w"] for ch in root["children"]))
    for ch in root["children"]:
        assert ch["mover"] == 0
        for grandchild in ch["children"]:
            assert grandchild["mover"] == (0 if ch["move"] == 1 else 1)   # taking 1 from 9: another turn
    # 9 -> 3 -> 6 (player 1) -> 3 -> 3 (player 0) -> 3: player 0 took the last stone
    lost_before = next(c for c in next(c for c in root["children"] if c["move"] == 3)["children"] if c["move"] == 3)
    won = next(c for c in lost_before["children"] if c["move"] == 3)
    assert won["mover"] == 0 and won["proven"] == 1.0 and won["w"] == won["n"] > 0
    assert lost_before["mover"] == 1 and lost_before["w"] <= lost_before["n"] - won["n"]


class Exact(TakeAwayState):
    """Take-away whose evaluate() is the exact game value (1: the first player wins)."""

    def copy(self):
        return Exact(self.stones, self.to_move, self.winner, self.ply)

    def evaluate(self):
        mover_wins = wins_for_mover(self.stones)
        return 1.0 if mover_wins == (self.to_move == 0) else 0.0

    def heuristic(self, move):
        return float(move)


class ExactGame(TakeAway):
    def new_state(self):
        return Exact(self.stones)


@pytest.mark.parametrize("stones", [5, 7, 8, 9])
def test_implicit_minimax_backs_up_the_exact_game_values(stones):
    """With evaluate() exact at every new node, each node's minimax value is the exact one."""
    game = ExactGame(stones)
    agent = UctAgent(game, Settings(seed=1, minimax_weight=0.5, solver=False))
    agent.search(game.new_state(), Limits(nodes=4000), StopSignal())
    root = agent.core.dump(100000)

    def complete(node):      # every move below expanded (or the game over there)
        return node["proven"] is not None or (node["untried"] == 0 and all(map(complete, node["children"])))

    checked = []

    def check(node, stones_left, to_move):
        if node["children"] and complete(node):
            first = 1.0 if wins_for_mover(stones_left) == (to_move == 0) else 0.0
            assert node["v"] == pytest.approx(first if node["mover"] == 0 else 1.0 - first)
            checked.append(stones_left)
        for ch in node["children"]:
            if stones_left - ch["move"] > 0:
                check(ch, stones_left - ch["move"], ch["to_move"])
    check(root, stones, 0)
    assert checked and (stones in checked) == complete(root)
    if complete(root):
        assert root["v"] == pytest.approx(0.0 if wins_for_mover(stones) else 1.0)   # the root's mover is player 1


def test_new_children_store_their_prior():
    game = ExactGame(10)
    agent = UctAgent(game, Settings(seed=1, prior_weight=1.0))
    agent.search(game.new_state(), Limits(nodes=50), StopSignal())
    root = agent.core.dump(1000)
    assert {ch["move"]: ch["prior"] for ch in root["children"]} == {1: 1.0, 2: 2.0, 3: 3.0}


# --- widening --------------------------------------------------------------------------------

@pytest.mark.parametrize("widening", [0.5, 1.0])
def test_a_widening_search_considers_its_best_moves_as_its_visits_allow(widening):
    game = get_game("life")
    agent = UctAgent(game, Settings(seed=2, widening=widening, playout_depth=2))
    state = game.new_state()
    agent.search(state, Limits(nodes=400), StopSignal())
    root = agent.core.dump(100000)
    open_children = root["children"]
    assert len(open_children) <= max(1, math.ceil(widening * math.sqrt(root["n"]))) + 1
    assert root["untried"] > 0
    best_first = sorted((state.heuristic(m) for m in state.legal_moves()), reverse=True)
    assert [ch["prior"] for ch in open_children] == pytest.approx(best_first[:len(open_children)])


# --- seeds, reuse, limits, stop ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["international", "fanorona"])
def test_same_seed_and_nodes_give_the_same_search(name):
    game = get_game(name)
    runs = []
    for _ in range(2):
        lines = []
        agent = make_agent(game, Settings(seed=11, playout_depth=4, minimax_weight=0.4))
        result = agent.search(game.new_state(), Limits(nodes=2500), StopSignal(),
                              lambda info: lines.append((info.nodes, info.seldepth, round(info.depth, 6),
                                                         info.score, info.wdl, tuple(info.pv))))
        runs.append((result.move, result.ponder, lines))
    assert runs[0] == runs[1] and len(runs[0][2]) >= 2


def test_tree_reuse_keeps_the_subtree_of_the_moves_played():
    game = get_game("english")
    agent = make_agent(game, Settings(seed=2))
    state = game.new_state()
    start = state.fen()
    first = agent.search(state, Limits(nodes=3000), StopSignal(), None, (start,))
    reply = first.ponder
    kept = next(c for c in agent.core.dump(10 ** 6)["children"] if c["move"] == first.move)
    kept = next(c for c in kept["children"] if c["move"] == reply)
    history = (start, first.move, reply)        # moves as the rules' values, as the protocol keeps them
    state.play(first.move)
    state.play(reply)
    agent.search(state, Limits(nodes=500), StopSignal(), None, history)
    root = agent.core.dump(10 ** 6)
    assert root["n"] == kept["n"] + 500
    assert agent.core.stats(0)["iterations"] == 500


def test_tree_reuse_off_or_an_unrelated_position_starts_afresh():
    game = get_game("english")
    state = game.new_state()
    agent = make_agent(game, Settings(seed=2, tree_reuse=False))
    for _ in range(2):
        agent.search(state, Limits(nodes=300), StopSignal(), None, (state.fen(),))
    assert agent.core.dump(1)["n"] == 300
    agent = make_agent(game, Settings(seed=2))
    agent.search(state, Limits(nodes=300), StopSignal(), None, (state.fen(),))
    other = game.parse_fen("W:W21,22:B1,2")
    agent.search(other, Limits(nodes=100), StopSignal(), None, (other.fen(),))
    assert agent.core.dump(1)["n"] == 100


def test_tree_memory_walks_the_moves_played_and_forgets_otherwise():
    game = get_game("english")
    memory, state = TreeMemory(), game.new_state()
    memory.remember(state, ("start",))
    after = state.copy()
    moves = after.legal_moves()[:1]
    after.play(moves[0])
    assert memory.walk(after, ("start", moves[0])) == moves
    assert memory.walk(after, ("other", moves[0])) is None
    assert memory.walk(state, ("start", moves[0])) is None    # not where the moves lead
    assert TreeMemory(enabled=False).walk(after, ("start",)) is None


def search_in_thread(agent, state, limits: Limits, stop: StopSignal) -> tuple[threading.Thread, list]:
    """Start ``agent.search`` in a thread; (the thread, a list that receives the result with the
    thread's CPU clock, ``time.thread_time()``, read just before and just after the search)."""
    done: list = []

    def search() -> None:
        cpu = time.thread_time()
        result = agent.search(state, limits, stop)
        done.append((result, cpu, time.thread_time()))

    thread = threading.Thread(target=search, daemon=True)
    thread.start()
    return thread, done


ENDS_BY_ITSELF = 60.0     # seconds to wait for a search that must end on its own (it takes 0.3 s)


@pytest.mark.parametrize("name", ["english", "fanorona"])
def test_movetime_and_stop_are_honoured(name):
    """A search that ignores movetime or stop never ends (neither has a node limit), so waiting
    a minute for it tells, however loaded the machine.  That it ends promptly is read from the
    CPU time of the searching thread, not the wall clock: a thread cannot run longer than the
    time that passes, so a core that looks at the deadline and the stop flag after every
    iteration (and inside its playouts) spends at most its movetime, plus one iteration and
    the setup, before it returns, and next to nothing after a stop; a slow or loaded machine
    only makes those figures smaller (one tree: the core searches on the calling thread)."""
    game = get_game(name)
    agent = make_agent(game, Settings(seed=1))
    t = time.perf_counter()
    thread, done = search_in_thread(agent, game.new_state(), Limits(movetime=0.3), StopSignal())
    thread.join(ENDS_BY_ITSELF)
    assert done, "the search ignored its movetime"
    assert time.perf_counter() - t >= 0.3 - 0.05          # it waited its movetime (the overhead, 30 ms, comes off)
    result, cpu_start, cpu_end = done[0]
    assert cpu_end - cpu_start < 0.3 + 1.0 and result.info.nodes > 0     # ... and searched no longer
    stop = StopSignal()
    t = time.perf_counter()
    thread, done = search_in_thread(agent, game.new_state(), Limits(infinite=True), stop)
    time.sleep(0.2)
    before_stop = time.perf_counter() - t      # at least the CPU time the search had spent by then
    stop.set()
    thread.join(ENDS_BY_ITSELF)
    assert done, "the search ignored the stop"
    result, cpu_start, cpu_end = done[0]
    assert (cpu_end - cpu_start) - before_stop < 1.0 and result.info.nodes > 0   # next to none after it


def test_the_node_limit_is_exact_and_reports_follow_the_count():
    game = get_game("international")
    reports = []
    agent = make_agent(game, Settings(seed=4))
    result = agent.search(game.new_state(), Limits(nodes=8000), StopSignal(), reports.append)
    assert result.info.nodes == 8000 and [r.nodes for r in reports] == [1000 * k for k in range(1, 8)] + [8000]


CLOCK_CASES = [
    # (elapsed, soft, hard, iterations a second, best, second, moves) -> stop?
    ((0.01, 1.0, 3.0, 1000, 5, 0, 1), True),        # one move: nothing to decide
    ((0.1, 1.0, 3.0, 1000, 900, 10, 20), False),    # the second could still catch up (900 iterations left)
    ((0.5, 1.0, 3.0, 1000, 900, 10, 20), True),     # ... and now it cannot (500 left)
    ((1.5, 1.0, 3.0, 1000, 500, 400, 20), False),   # past the time aimed at, unclear: go on
    ((1.5, 1.0, 3.0, 1000, 800, 400, 20), True),    # ... clear (twice the second's visits): stop
]


@pytest.mark.parametrize("figures,stop", CLOCK_CASES)
def test_the_clock_rule_stops_a_clear_choice_early_and_gives_an_unclear_one_longer(figures, stop):
    assert core.table_clock(*figures) is stop


def test_a_move_with_no_choice_takes_no_time_under_a_clock():
    game = get_game("english")
    state = game.parse_fen("W:W21,23,25,26,27,28,30,31,32:B1,2,3,4,6,7,8,12,17,20")      # one legal move
    _, result = search(game, state, time_left=600.0)       # a 20 s share; a movetime would be spent whole
    assert state.move_str(result.move) == "21x14" and result.info.nodes < 2000


def test_the_depth_limit_ends_the_search_when_the_tree_reaches_it():
    game = get_game("english")
    _, result = search(game, game.new_state(), depth=3)
    assert 3 <= result.info.seldepth <= 4


def test_a_stop_set_before_the_search_runs_no_iteration():
    game = get_game("english")
    stop = StopSignal()
    stop.set()
    result = make_agent(game, Settings(seed=1)).search(game.new_state(), Limits(nodes=1000), stop)
    assert result.info.nodes == 0 and result.move in game.new_state().legal_moves()


def test_a_proven_root_ends_a_node_search_early():
    game = get_game("english")
    state = game.parse_fen("B:WK19:B25,K27,K30")
    _, result = search(game, state, nodes=10 ** 6)
    assert result.info.nodes < 10 ** 6 and result.info.mate is not None


def test_time_manager_budgets():
    assert time_budget(Limits(movetime=1.0), 0.03) == TimeBudget(pytest.approx(0.97), pytest.approx(0.97))
    clock = time_budget(Limits(time_left=60.0, increment=1.0), 0.03)    # an unclear move may take 3 shares
    assert (clock.optimum, clock.maximum) == (pytest.approx(60 / 30 + 0.8 - 0.03), pytest.approx(3 * 2.8 - 0.03))
    assert time_budget(Limits(time_left=10.0, movestogo=1), 0.03).maximum == pytest.approx(5.0 - 0.03)
    assert budget(Limits(movetime=1.0), 0.03) == pytest.approx(0.97)
    assert budget(Limits(time_left=60.0, increment=1.0), 0.03) == pytest.approx(60 / 30 + 0.8 - 0.03)
    assert budget(Limits(time_left=10.0, movestogo=1), 0.03) == pytest.approx(5.0 - 0.03)
    assert budget(Limits(nodes=100), 0.03) is None
    assert budget(Limits(infinite=True, movetime=1.0), 0.03) is None
    assert budget(Limits(), 0.03) == 1.0


def test_the_clock_is_shared_over_fewer_moves_as_the_game_goes_on():
    clock = Limits(time_left=60.0)
    assert [moves_to_go(clock, played) for played in (0, 2, 3, 30, 60, 500, -4)] == [30, 30, 29, 20, 10, 10, 30]
    assert moves_to_go(Limits(time_left=60.0, movestogo=40), 30) == 40       # the protocol's count wins
    assert moves_to_go(Limits(time_left=60.0, movestogo=400), 30) == 50
    assert time_budget(clock, 0.0, moves_played=30).optimum == pytest.approx(60 / 20)
    assert time_budget(clock, 0.0).optimum == pytest.approx(60 / 30)


def test_a_one_minute_game_of_58_moves_spends_most_of_the_clock():
    """Each move spending two thirds of its share (clear moves end early), a 58-move game of
    International draughts at one minute leaves less than a fifth of the clock unused (a fixed
    30 moves to go left 28%: 39 s of 60 used against Scan, docs/strength.md)."""
    left = 60.0
    for played in range(58):
        left -= 2 / 3 * time_budget(Limits(time_left=left), 0.0, played).optimum
    assert left < 0.2 * 60.0
    assert 2 / 3 * time_budget(Limits(time_left=left), 0.0, 58).optimum > 0.004 * 60.0   # the ending still has time


def test_the_search_budgets_the_clock_by_the_moves_played(monkeypatch):
    seen = []

    def recording(limits, overhead, moves_played=0):
        seen.append(moves_played)
        return time_budget(limits, overhead, moves_played)

    monkeypatch.setattr(uct_module, "time_budget", recording)
    game = get_game("english")
    state = game.new_state()
    for move in ("11-15", "23-19", "8-11", "22-17", "9-13"):
        state.play(state.parse_move(move))
    agent = UctAgent(game, Settings(seed=3))
    agent.search(state, Limits(time_left=0.5, nodes=200), StopSignal())
    assert seen == [2]        # White to move after five plies: its third move, two played


def test_searchmoves_restrict_the_root():
    game = get_game("english")
    state = game.new_state()
    allowed = [m for m in state.legal_moves() if state.move_str(m) in ("9-13", "12-16")]
    for agent_name in ("uct", "random", "greedy"):
        agent = make_agent(game, Settings(agent=agent_name, seed=3))
        for _ in range(5):
            result = agent.search(state, Limits(nodes=200, searchmoves=allowed), StopSignal())
            assert result.move in allowed


class Failing(TakeAwayState):
    """Take-away whose 40th playout raises."""

    playouts = 0

    def copy(self):
        return Failing(self.stones, self.to_move, self.winner, self.ply)

    def playout(self, rng, max_plies=NO_LIMIT):
        Failing.playouts += 1
        if Failing.playouts == 40:
            raise RuntimeError("a playout failed on purpose")
        return super().playout(rng, max_plies)


def test_a_search_that_failed_part_way_leaves_nothing_to_the_next():
    game = TakeAway(30)
    agent = UctAgent(game, Settings(seed=2, solver=False))
    with pytest.raises(RuntimeError, match="on purpose"):
        agent.search(Failing(30), Limits(nodes=200), StopSignal(), None, ("30",))
    assert agent.core.dump(1) is None            # forgotten: no node without its visit survives
    result = agent.search(Failing(30), Limits(nodes=200), StopSignal(), None, ("30",))
    assert result.info.nodes == 200
    check_counts(agent.core.dump(10 ** 6))


# --- playouts ------------------------------------------------------------------------------------

def simulate(search, state) -> float:
    """One playout of the search's policy from ``state``, played on it in place; its result."""
    result, after = search.simulate(position(search, state))
    if after is not state:
        state.set_raw(after)
    return result


@pytest.mark.parametrize("policy", PLAYOUTS)
@pytest.mark.parametrize("depth", [0, 4])
@pytest.mark.parametrize("name", ["english", "fanorona"])
def test_every_playout_policy_plays_legal_games_to_its_cut_off(policy, depth, name):
    game = get_game(name)
    settings = Settings(playout=policy, playout_depth=depth, epsilon=0.2)
    tree = new_search(game, settings, [4], random.Random(4), None)
    for _ in range(10):
        state = game.new_state()
        result = simulate(tree, state)
        assert 0.0 <= result <= 1.0
        if depth == 0:
            assert state.outcome() == result
        else:   # the cut-off, then captures until the position is quiet (where they are compulsory)
            assert state.ply <= depth + QUIESCENCE or state.outcome() is not None
    assert (tree.stats()["mast"] > 0) == (policy == "mast")


class Capturing(TakeAwayState):
    """Take-away where taking 3 is the "capture", and evaluate() says whether the last move was one."""

    def __init__(self, stones, to_move=0, winner=None, ply=0, last=None):
        super().__init__(stones, to_move, winner, ply)
        self.last = last

    def copy(self):
        return Capturing(self.stones, self.to_move, self.winner, self.ply, self.last)

    def play(self, move):
        super().play(move)
        self.last = move

    def is_capture(self, move):
        return move == 3

    def heuristic(self, move):
        return float(move == 2)

    def evaluate(self):
        return 1.0 if self.last == 3 else 0.0


class CapturingGame(TakeAway):
    def new_state(self):
        return Capturing(self.stones)


@pytest.mark.parametrize("policy,move", [("capture", 3), ("greedy-eps", 2)])
def test_capture_and_greedy_playouts_take_their_preferred_move(policy, move):
    game = CapturingGame(20)
    tree = new_search(game, Settings(playout=policy, playout_depth=1, epsilon=0.0), [1], random.Random(1), None)
    for _ in range(10):
        state = game.new_state()
        simulate(tree, state)
        assert state.last == move and state.ply == 1


def test_a_cut_off_at_the_start_scores_the_evaluation():
    game = get_game("english")
    tree = new_search(game, Settings(playout_depth=1), [1], random.Random(1), None)
    assert {simulate(tree, game.new_state()) for _ in range(30)} == {0.5}   # no capture after one ply


def test_a_cut_off_plays_pending_captures_before_it_evaluates():
    game = get_game("english")
    tree = new_search(game, Settings(playout_depth=3), [5], random.Random(5), None)
    plies, results = set(), set()
    for _ in range(60):
        state = game.new_state()
        result = simulate(tree, state)
        assert not state.is_capture(state.legal_moves()[0])   # quiet where it was scored
        assert result == state.evaluate()
        plies.add(state.ply)
        results.add(result)
    assert {3, 4} <= plies and max(plies) <= 3 + QUIESCENCE and len(results) > 1   # exchanges played out


def test_a_cut_off_stops_at_its_depth_where_captures_are_not_compulsory():
    game = get_game("life")
    tree = new_search(game, Settings(playout_depth=3), [1], random.Random(1), None)
    for _ in range(10):
        state = game.new_state()
        assert simulate(tree, state) == state.evaluate() and state.ply == 3


@pytest.mark.parametrize("keep", [False, True])
def test_mast_statistics_last_the_game_and_with_keep_stats_the_next(keep):
    game = get_game("english")
    agent = UctAgent(game, Settings(seed=1, playout="mast", keep_stats=keep))
    agent.search(game.new_state(), Limits(nodes=300), StopSignal())
    learned = agent.core.stats(0)["mast"]
    agent.search(game.new_state(), Limits(nodes=300), StopSignal())
    assert agent.core.stats(0)["mast"] >= learned > 0
    agent.new_game()
    assert (agent.core.stats(0)["mast"] > 0) == keep


# --- memory --------------------------------------------------------------------------------------

def test_hash_gives_the_arena_its_nodes():
    assert capacity(64) == 64 * 16384 >= 1_000_000


@pytest.mark.parametrize("name", ["english", "fanorona"])
def test_a_full_tree_prunes_and_stays_within_its_budget(name):
    game = get_game(name)
    agent = UctAgent(game, Settings(seed=1, hash_mb=0.25, playout_depth=2))
    result = agent.search(game.new_state(), Limits(nodes=20000), StopSignal())
    stats = agent.core.stats(0)
    assert result.info.nodes == 20000 and stats["used"] <= stats["capacity"] and result.info.hashfull <= 1000
    root = agent.core.dump(10 ** 6)
    assert sum(ch["n"] for ch in root["children"]) == root["n"] == 20000   # the root's children are never pruned


def test_proofs_are_found_in_a_tree_much_larger_than_its_budget():
    game = TakeAway(16)          # the whole tree is tens of thousands of nodes; the arena holds 4,096
    agent = UctAgent(game, Settings(seed=3, hash_mb=0.1))
    result = agent.search(game.new_state(), Limits(nodes=20000), StopSignal())
    stats = agent.core.stats(0)
    assert stats["capacity"] == 4096 and stats["used"] <= stats["capacity"]
    assert result.info.mate is not None and (result.info.mate > 0) == wins_for_mover(16)   # pruning lets it finish


# --- threads -----------------------------------------------------------------------------------------

@pytest.mark.skipif(not native.available(), reason="threads are processes where the rules are Python")
def test_threads_search_side_by_side_and_count_every_tree():
    game = get_game("international")
    agent = make_agent(game, Settings(seed=1, threads=2))
    assert isinstance(agent, UctAgent) and agent.core.trees == 2
    result = agent.search(game.new_state(), Limits(nodes=3001), StopSignal())
    assert [agent.core.stats(k)["iterations"] for k in range(2)] == [1501, 1500] and result.info.nodes == 3001
    assert sum(c.n for c in root_children(agent.core)) == 3001
    agent.close()


@pytest.mark.parametrize("merge", ["visits", "vote"])
def test_threads_give_the_same_search_twice_under_a_node_limit(merge):
    game = get_game("english")
    runs = []
    for _ in range(2):
        agent = make_agent(game, Settings(seed=5, threads=2, merge=merge))
        result = agent.search(game.new_state(), Limits(nodes=4000), StopSignal())
        runs.append((result.move, result.info.nodes, result.info.score))
        agent.close()
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", [n for n in list_games() if get_game(n).native])
def test_every_native_game_searches_with_two_threads(name):
    game = get_game(name)
    agent = make_agent(game, Settings(seed=2, threads=2, playout_depth=4, minimax_weight=0.4))
    state = game.new_state()
    result = agent.search(state, Limits(nodes=400), StopSignal())
    assert result.move in state.legal_moves()
    agent.close()


@pytest.mark.skipif(not native.available(), reason="the quiescence search is the native kernel's")
def test_quiescence_search_values_a_cut_off_by_its_capture_lines():
    game = get_game("international")
    tree = new_search(game, Settings(playout_depth=2, qsearch=True), [3], random.Random(3), None)
    rng, results = random.Random(3), set()
    for _ in range(40):
        state = game.new_state()
        for _ in range(20):                            # a middle game, where exchanges are on
            state.play(state.random_move(rng))
        result = simulate(tree, state)
        assert state.ply == 22                         # the position is scored where the playout stopped
        assert result == game.kernel.quiesce(state.raw())
        results.add(result)
    assert len(results) > 1
    agent = UctAgent(game, Settings(seed=2, playout_depth=4, minimax_weight=0.5, qsearch=True))
    assert agent.search(game.new_state(), Limits(nodes=2000), StopSignal()).info.nodes == 2000


# --- alpha-beta leaves (LeafDepth) ------------------------------------------------------------------

@pytest.mark.parametrize("name,depth", [("english", 1), ("english", 2), ("english", 5), ("international", 2),
                                        ("international", 4), ("life", 1)])
def test_an_alpha_beta_leaf_is_the_negamax_of_the_evaluation(name, depth):
    """Also deep enough for transpositions: the draughts kernel's transposition table, kept
    from leaf to leaf, answers only a search to the depth it stored, so the value stays the
    negamax's."""
    game = get_game(name)
    tree = new_search(game, Settings(leaf_depth=depth), [1], random.Random(1), None)
    rng = random.Random(5)
    for _ in range(6):
        state = random_walk(game, rng, rng.randrange(4, 16))
        if state.outcome() is not None:
            continue
        value = negamax(state, depth)
        expected = value if state.to_move == 0 else 1.0 - value
        assert simulate(tree, state.copy()) == pytest.approx(expected, abs=1e-12), state.fen()


@pytest.mark.parametrize("name,depth", [("english", 2), ("english", 4), ("international", 3), ("life", 1)])
def test_the_alpha_beta_of_a_root_is_the_negamax_of_the_evaluation(name, depth):
    """``Search.alphabeta``, the deeper label of training (training/deepen.py): the root's value
    for its side to move, the negamax's, with the table kept from root to root."""
    game = get_game(name)
    search = new_search(game, Settings(), [1], random.Random(1), None)
    rng = random.Random(9)
    for _ in range(5):
        state = random_walk(game, rng, rng.randrange(4, 16))
        if state.outcome() is not None:
            continue
        search.set_root(position(search, state))
        assert search.alphabeta(depth) == pytest.approx(negamax(state, depth), abs=1e-12), state.fen()


def test_a_forced_reply_costs_the_alpha_beta_no_depth():
    """A position with one legal move (a capture, mostly) is searched without using up a ply,
    so a shot of sacrifices and forced recaptures is seen at a depth that counts the choices.
    After 24-20 here (game 17 of a match against GuiCheckers), 14-17 21x14 18-23 27x18 12-16 20x11
    8x29 wins Black a man: ten plies, three of them forced, which a negamax to depth 5 without
    the extension values at 0.553 for Black."""
    game = get_game("english")
    search = new_search(game, Settings(), [1], random.Random(1), None)
    state = game.parse_fen("W:W13,21,24,25,27,28,30,31,32:B1,2,4,5,6,8,12,14,18")
    state.play(state.parse_move("24-20"))
    search.set_root(position(search, state))
    assert search.alphabeta(5) == pytest.approx(0.723, abs=0.001)
    assert negamax(state, 5, ext=0) == pytest.approx(0.553, abs=0.001)


def test_the_alpha_beta_of_a_root_refuses_a_bad_depth_or_no_root():
    game = get_game("english")
    search = new_search(game, Settings(), [1], random.Random(1), None)
    with pytest.raises(RuntimeError, match="before set_root"):
        search.alphabeta(3)
    search.set_root(position(search, game.new_state()))
    for depth in (0, 33):
        with pytest.raises(ValueError, match=f"depth {depth} is not in 1..32"):
            search.alphabeta(depth)


def test_alpha_beta_leaves_search_and_stop():
    game = get_game("international")
    agent = make_agent(game, Settings(seed=2, leaf_depth=3, minimax_weight=0.3))
    result = agent.search(game.new_state(), Limits(nodes=300), StopSignal())
    assert result.info.nodes == 300 and result.move in game.new_state().legal_moves()
    stop = StopSignal()
    stop.set()
    assert agent.search(game.new_state(), Limits(infinite=True), stop).move in game.new_state().legal_moves()


class Verdict:
    """An oracle's answer, as the endgame tables' probe gives it."""

    def __init__(self, result: float, plies: int):
        self.result, self.plies = result, plies


class SmallPilesOracle:
    """Take-away's exact results where three stones or fewer are left (an endgame table)."""

    def probe(self, state):
        if state.winner is not None or state.stones > 3:
            return None
        mover_wins = wins_for_mover(state.stones)
        return Verdict(1.0 if mover_wins == (state.to_move == 0) else 0.0, state.stones)


def test_a_reused_root_the_oracle_proved_is_searched_and_plays_its_proof():
    """Tree reuse onto a node whose proof came from the oracle when it was expanded (its moves
    never listed): the search lists them and plays the win, instead of ending at once with no
    move (which played a random one: an International ending was drawn that way)."""
    game = TakeAway(8)
    search = new_search(game, Settings(seed=1), [1], random.Random(1), SmallPilesOracle())
    state = game.new_state()
    search.set_root(state)
    search.run([20])
    root = search.dump(10 ** 6)
    path = next([a["move"], b["move"]] for a in root["children"] for b in a["children"]
                if b["proven"] is not None and b["untried"] == -1)       # proven at expansion, never listed
    for move in path:
        state.play(move)
    assert search.set_root(state, path)                                # the subtree is kept
    search.run([50])
    report = search.result()
    assert report.move in state.legal_moves() and report.iterations > 0
    assert search.dump(1)["untried"] >= 0                              # the root's moves are listed now
