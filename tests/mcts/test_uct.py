"""UCT search, the solver, tree reuse, limits, agents and playout policies."""
import random
import threading
import time

import pytest

from mcts_engine.agents import make_agent
from mcts_engine.mcts.limits import Limits, budget
from mcts_engine.mcts.playouts import POLICIES, QUIESCENCE, make_playout
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.rules import get_game
from mcts_engine.rules.base import NO_LIMIT
from support.toy_games import TakeAway, TakeAwayState, wins_for_mover, winning_moves

# Positions with exactly one move that forces a win within 5 plies (found by
# exhaustive search; see the README's testing notes).  (game, FEN, the move)
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


def search(game, state, seed=1, **limits):
    agent = make_agent(game, Settings(seed=seed))
    return agent, agent.search(state, Limits(**limits), threading.Event())


@pytest.mark.parametrize("name,fen,best", FORCED_WINS)
def test_uct_finds_the_only_forced_win_and_reports_mate(name, fen, best):
    game = get_game(name)
    for seed in (1, 2):
        state = game.parse_fen(fen)
        _, result = search(game, state, seed=seed, nodes=3000)
        assert state.move_str(result.move) == best
        assert result.info.mate is not None and 0 < result.info.mate <= 3


def test_solver_reports_a_lost_position_as_negative_mate():
    game = get_game("english")
    # Black's last man has two moves, and White wins within 4 plies after either
    state = game.parse_fen("B:WK7,17,23,24,29:B10")
    _, result = search(game, state, nodes=5000)
    assert result.info.mate is not None and result.info.mate < 0
    assert result.info.wdl == (0, 0, 1000)


@pytest.mark.parametrize("stones", range(1, 19))
def test_solver_proofs_match_exact_minimax_with_extra_turns(stones):
    # the toy game lets a player move twice in a row: backup must follow to_move
    game = TakeAway(stones)
    state = game.new_state()
    agent = UctAgent(game, Settings(seed=3))
    result = agent.search(state, Limits(nodes=20000), threading.Event())
    assert agent.root.proven is not None
    root_wins = agent.root.proven == (1.0 if agent.root.mover == state.to_move else 0.0)
    assert root_wins == wins_for_mover(stones)
    if wins_for_mover(stones):
        assert result.move in winning_moves(stones)
        assert result.info.mate > 0
    else:
        assert result.info.mate < 0


def check_tree_counts(node, root: bool = True) -> None:
    """Every node's visits are its children's plus its own expansion playout (none at the
    root, none below a finished game); every child was visited; a finished game's node
    holds only wins for its mover (whoever takes the last stone wins)."""
    below = sum(ch.n for ch in node.children)
    assert all(ch.n > 0 for ch in node.children)
    if node.proven is not None:
        assert not node.children and node.w == node.n * node.proven
    else:
        assert node.n == below + (0 if root else 1), (node.move, node.n, below)
    for child in node.children:
        check_tree_counts(child, root=False)


def test_backup_is_from_each_movers_point_of_view():
    game = TakeAway(9)
    agent = UctAgent(game, Settings(seed=5, solver=False))
    agent.search(game.new_state(), Limits(nodes=3000), threading.Event())
    root = agent.root
    assert root.n == sum(ch.n for ch in root.children) == 3000
    check_tree_counts(root)
    # the root's mover is player 1: every result it holds is the complement of its children's
    assert root.w == pytest.approx(sum(ch.n - ch.w for ch in root.children))
    for child in root.children:
        assert child.mover == 0
        for grandchild in child.children:
            # taking 1 from 9 gives player 0 another turn
            assert grandchild.mover == (0 if child.move == 1 else 1)
    # 9 -> take 3 -> 6 (player 1) -> take 3 -> 3 (player 0) -> take 3: player 0 took the
    # last stone, a won terminal node for player 0, reached through 6 -> 3 by player 1
    lost_before = next(ch for ch in root.children if ch.move == 3)
    lost_before = next(ch for ch in lost_before.children if ch.move == 3)
    won = next(ch for ch in lost_before.children if ch.move == 3)
    assert won.mover == 0 and won.proven == 1.0 and won.n > 0 and won.mean() == 1.0
    # player 1 left 3 stones to player 0: every visit through the win is a loss there
    assert lost_before.mover == 1 and lost_before.w <= lost_before.n - won.n


def test_same_seed_and_nodes_give_the_same_search():
    game = get_game("international")
    runs = []
    for _ in range(2):
        lines = []
        agent = make_agent(game, Settings(seed=11))
        result = agent.search(game.new_state(), Limits(nodes=2500), threading.Event(),
                              lambda info: lines.append((info.nodes, info.seldepth, round(info.depth, 6),
                                                         info.score, info.wdl, tuple(info.pv))))
        runs.append((result.move, result.ponder, lines))
    assert runs[0] == runs[1] and len(runs[0][2]) >= 2


def test_tree_reuse_keeps_the_subtree_of_the_moves_played():
    game = get_game("english")
    agent = make_agent(game, Settings(seed=2))
    state = game.new_state()
    start = state.fen()
    first = agent.search(state, Limits(nodes=3000), threading.Event(), None, (start,))
    reply = first.ponder
    kept = next(ch for ch in agent.root.children if ch.move == first.move)
    kept = next(ch for ch in kept.children if ch.move == reply)
    visits_before = kept.n
    assert visits_before > 0
    history = (start, state.move_str(first.move))
    state.play(first.move)
    history += (state.move_str(reply),)
    state.play(reply)
    agent.search(state, Limits(nodes=500), threading.Event(), None, history)
    assert agent.root is kept
    assert agent.root.n == visits_before + 500


def test_tree_reuse_off_or_unrelated_position_starts_afresh():
    game = get_game("english")
    agent = make_agent(game, Settings(seed=2, tree_reuse=False))
    state = game.new_state()
    agent.search(state, Limits(nodes=300), threading.Event(), None, (state.fen(),))
    agent.search(state, Limits(nodes=300), threading.Event(), None, (state.fen(),))
    assert agent.root.n == 300
    agent = make_agent(game, Settings(seed=2))
    agent.search(state, Limits(nodes=300), threading.Event(), None, (state.fen(),))
    other = game.parse_fen("W:W21,22:B1,2")
    agent.search(other, Limits(nodes=100), threading.Event(), None, (other.fen(),))
    assert agent.root.n == 100


def search_in_thread(agent, state, limits: Limits, stop: threading.Event) -> tuple[threading.Thread, list]:
    """Start ``agent.search`` in a thread; (the thread, a list that receives the result)."""
    done: list = []
    thread = threading.Thread(target=lambda: done.append(agent.search(state, limits, stop)), daemon=True)
    thread.start()
    return thread, done


def test_movetime_and_stop_are_honoured():
    """Wall-clock bounds with margins a loaded CI machine cannot break: a search that ignores
    movetime or stop never ends, so a second is plenty to tell (the exact check that stop is
    read after every iteration is the next test)."""
    game = get_game("english")
    agent = make_agent(game, Settings(seed=1))
    t = time.perf_counter()
    thread, done = search_in_thread(agent, game.new_state(), Limits(movetime=0.3), threading.Event())
    thread.join(10.0)
    assert done and 0.3 - 0.05 <= time.perf_counter() - t < 2.0     # the move overhead (30 ms) comes off
    stop = threading.Event()
    thread, done = search_in_thread(agent, game.new_state(), Limits(infinite=True), stop)
    time.sleep(0.2)
    t = time.perf_counter()
    stop.set()
    thread.join(10.0)
    assert done and time.perf_counter() - t < 1.0


def test_stop_ends_the_search_after_the_iteration_under_way():
    """The stop flag is read after every iteration: set during the 50th playout, the search
    ends with exactly 50 iterations (not at its next report, 1000 iterations or 0.5 s on)."""
    stop = threading.Event()

    class Stopping(TakeAwayState):
        playouts = 0

        def copy(self):
            return Stopping(self.stones, self.to_move, self.winner, self.ply)

        def playout(self, rng, max_plies=NO_LIMIT):
            Stopping.playouts += 1
            if Stopping.playouts == 50:
                stop.set()
            return super().playout(rng, max_plies)

    agent = UctAgent(TakeAway(60), Settings(seed=2, solver=False))
    result = agent.search(Stopping(60), Limits(infinite=True), stop, lambda info: None)
    assert result.info.nodes == 50 == agent.root.n and Stopping.playouts == 50


def test_time_manager_budgets():
    assert budget(Limits(movetime=1.0), 0.03) == pytest.approx(0.97)
    assert budget(Limits(time_left=60.0, increment=1.0), 0.03) == pytest.approx(60 / 30 + 0.8 - 0.03)
    assert budget(Limits(time_left=10.0, movestogo=1), 0.03) == pytest.approx(5.0 - 0.03)
    assert budget(Limits(nodes=100), 0.03) is None
    assert budget(Limits(infinite=True, movetime=1.0), 0.03) is None
    assert budget(Limits(), 0.03) == 1.0


def test_greedy_takes_the_most_material_and_random_is_legal():
    game = get_game("russian")
    state = game.parse_fen("W:Wh2:Ba7,b4,e5,e7,g3,g5,g7")  # free choice: 5 or 6 pieces
    greedy = make_agent(game, Settings(agent="greedy", seed=1))
    result = greedy.search(state, Limits(), threading.Event())
    assert state.move_str(result.move) == "h2:a5"
    rnd = make_agent(game, Settings(agent="random", seed=1))
    seen = {rnd.search(state, Limits(), threading.Event()).move for _ in range(60)}
    assert seen == set(state.legal_moves())


@pytest.mark.parametrize("name", sorted(POLICIES))
@pytest.mark.parametrize("depth", [0, 4])
def test_playout_policies_play_legal_games(name, depth):
    game = get_game("english")
    policy = make_playout(name, depth, 0.2)
    rng = random.Random(4)
    for _ in range(20):
        state = game.new_state()
        result = policy.run(state, rng)
        assert 0.0 <= result <= 1.0
        if depth == 0:
            assert state.outcome() == result
        else:   # the cut-off, then captures until the position is quiet
            assert state.ply <= depth + QUIESCENCE or state.outcome() is not None
    if name == "mast":
        assert policy.table
        policy.new_game()
        assert not policy.table


def test_capture_playout_prefers_captures():
    # in draughts captures are compulsory, so use the toy game with "take 3" as the capture
    class Greedy(TakeAway(10).new_state().__class__):
        def is_capture(self, move):
            return move == 3

        def evaluate(self):  # lets the cut-off stop after one ply
            return 0.5
    policy = make_playout("capture", 1)
    for seed in range(20):
        state = Greedy(10)
        policy.run(state, random.Random(seed))
        assert state.stones == 7


def test_cut_off_playouts_use_the_evaluation():
    game = get_game("english")
    policy = make_playout("random", 1)
    results = {policy.run(game.new_state(), random.Random(s)) for s in range(30)}
    assert results == {0.5}  # no capture is possible after one ply from the start


def test_a_cut_off_plays_pending_captures_before_it_evaluates():
    game = get_game("english")
    policy = make_playout("random", 3)
    plies, results = set(), set()
    for seed in range(40):
        state = game.new_state()
        result = policy.run(state, random.Random(seed))
        assert not state.is_capture(state.legal_moves()[0])   # quiet where it was scored
        assert result == state.evaluate()
        plies.add(state.ply)
        results.add(result)
    assert plies == {3, 4, 5} and len(results) > 1   # an exchange after ply 3 was played out


def test_a_cut_off_stops_at_its_depth_where_captures_are_not_compulsory():
    game = get_game("life")
    assert not game.new_state().compulsory_captures and get_game("english").new_state().compulsory_captures
    policy = make_playout("random", 3)
    for seed in range(20):
        state = game.new_state()
        assert policy.run(state, random.Random(seed)) == state.evaluate()
        assert state.ply == 3


@pytest.mark.slow
def test_uct_2000_iterations_beats_random_in_19_of_20_english_games():
    game = get_game("english")
    score = 0.0
    for i in range(20):
        uct = make_agent(game, Settings(seed=100 + i))
        rnd = make_agent(game, Settings(agent="random", seed=200 + i))
        uct_player = i % 2
        state = game.new_state()
        history = (state.fen(),)
        while state.outcome() is None:
            agent = uct if state.to_move == uct_player else rnd
            move = agent.search(state, Limits(nodes=2000), threading.Event(), None, history).move
            history += (state.move_str(move),)
            state.play(move)
        outcome = state.outcome()
        score += outcome if uct_player == 0 else 1.0 - outcome
    assert score >= 19


def test_searchmoves_restrict_the_root():
    game = get_game("english")
    state = game.new_state()
    allowed = [m for m in state.legal_moves() if state.move_str(m) in ("9-13", "12-16")]
    for agent_name in ("uct", "random", "greedy"):
        agent = make_agent(game, Settings(agent=agent_name, seed=3))
        for _ in range(5):
            result = agent.search(state, Limits(nodes=200, searchmoves=allowed), threading.Event())
            assert result.move in allowed
