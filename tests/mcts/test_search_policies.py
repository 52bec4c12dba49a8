"""Issue 17's playout policies and progressive widening: decisive and anti-decisive playouts
(``DecisivePlayout``) on small English, Life and take-away positions whose verdicts come from
the rules, NST's pair statistics (``NstPlayout``), MAST/NST statistics across moves and games
(``KeepStats``), and progressive widening (``Widening``): how many moves a node considers
against its visits, in the heuristic's order, and the plain search unchanged when it is off."""
from __future__ import annotations

import random
import threading

import pytest

from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.playouts import (DecisivePlayout, MastPlayout, NstPlayout, PlayoutSpec, last_move_of,
                                       make_playout, opponent_wins_at_once)
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.tree import EXHAUSTED, Node, considered
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.protocol.options import OptionError, OptionValues
from mcts_engine.rules import get_game
from support.toy_games import TakeAway, TakeAwayState

LIFE7 = {"size": 7, "opening": "Bc3,d3,e3,c4:We5,e6,f5,d5"}     # any opening: the FENs set the stones

# --- decisive and anti-decisive playouts ------------------------------------------------------

DECISIVE_CASES = [
    # (game, rule options, position, the moves the policy may pick)
    # a move wins at once: the king's double capture takes White's last two men (of 2 moves)
    ("english", {}, "B:W26,27:B8,13,16,20,21,24,K30", {"30x32"}),
    # the one drop of 35 after which Black has no stone left
    ("life", LIFE7, "W:Bb2,a3,a6:Wc2,d2,e2,f4,d5,f5,f6,d7,e7", {"@c3"}),
    # no win; 1-6 lets Black's king capture White's last piece at once
    ("english", {}, "W:WK1:BK2,11", {"1-5"}),
    # no win; the one drop of 31 after which White cannot wipe Black out at once
    ("life", LIFE7, "B:Be1,b2,g2,b4:We5,e7,f7,g7", {"@b3"}),
    # every move lets Black win at once: a random one, each of them
    ("english", {}, "W:WK30:BK21,22,K29", {"30-25", "30-26"}),
]


def _picks(policy, state, seeds: int = 40) -> set:
    return {state.move_str(policy.choose(state, state.legal_moves(), random.Random(seed), []))
            for seed in range(seeds)}


@pytest.mark.parametrize("name,options,fen,allowed", DECISIVE_CASES)
def test_decisive_playouts_win_at_once_else_block_the_opponent_s_win(name, options, fen, allowed):
    state = get_game(name, **options).parse_fen(fen)
    before = state.key()
    assert _picks(DecisivePlayout(), state) == allowed
    assert state.key() == before                          # the position was only copied
    if len(allowed) < len(state.legal_moves()):            # a random choice strays: the table can fail
        assert not _picks(make_playout("capture"), state, 60) <= allowed


TAKE_AWAY_CASES = [
    # (stones, the moves the policy may pick): take 1 to 3, the last stone wins; taking 1 from
    # a multiple of 3 gives the mover another turn
    (3, {3}),             # the last stones: a win at once
    (5, {1}),             # 2 and 3 leave 3 or 2 stones: the opponent takes them all
    (6, {1, 2}),          # 1: an extra turn, the opponent does not move next; 3 leaves 3
    (4, {1, 2, 3}),       # every move leaves 3 or fewer: random
]


@pytest.mark.parametrize("stones,allowed", TAKE_AWAY_CASES)
def test_decisive_playouts_follow_whose_turn_it_is(stones, allowed):
    for to_move in (0, 1):
        state = TakeAwayState(stones, to_move)
        assert {DecisivePlayout().choose(state, state.legal_moves(), random.Random(seed), [])
                for seed in range(30)} == allowed


def test_the_opponent_s_win_at_once_is_asked_of_the_player_to_move():
    two_left = TakeAwayState(2, to_move=0)
    assert opponent_wins_at_once(two_left, mover=1)        # player 0 moves next and takes both
    assert not opponent_wins_at_once(two_left, mover=0)    # player 0 moved and moves again
    assert not opponent_wins_at_once(TakeAwayState(5, to_move=0), mover=1)


@pytest.mark.parametrize("policy", ["decisive", "nst"])
def test_the_new_policies_record_their_moves_with_extra_turns(policy):
    for seed in range(5):
        start = TakeAwayState(15)
        record = make_playout(policy).run_recorded(start.copy(), random.Random(seed))
        replay = start.copy()
        for player, move in record.moves:
            assert replay.to_move == player
            replay.play(move)
        assert replay.outcome() == record.outcome


def test_decisive_playouts_take_the_cut_off_and_score_it_by_evaluate():
    game = get_game("life")
    for seed in range(3):
        state = game.new_state()
        assert make_playout("decisive", 3).run(state, random.Random(seed)) == state.evaluate()
        assert state.ply == 3


def test_a_decisive_playout_wins_what_a_random_one_may_lose():
    # White to move wins at once with @c3; random playouts from here lose some games
    state = get_game("life", **LIFE7).parse_fen("W:Bb2,a3,a6:Wc2,d2,e2,f4,d5,f5,f6,d7,e7")
    decisive = {make_playout("decisive").run(state.copy(), random.Random(s)) for s in range(5)}
    plain = {make_playout("random").run(state.copy(), random.Random(s)) for s in range(40)}
    assert decisive == {0.0} and 1.0 in plain


# --- NST ----------------------------------------------------------------------------------------

def test_nst_counts_each_move_after_the_opponent_s_last_one():
    nst = NstPlayout()
    # player 1 moves twice in a row (an extra turn): both its moves follow player 0's "a"
    nst.learn([(0, "a"), (1, "b"), (1, "c"), (0, "d"), (1, "b")], 1.0)
    assert nst.pairs == {(1, "a", "b"): [0.0, 1], (1, "a", "c"): [0.0, 1], (0, "c", "d"): [1.0, 1],
                         (1, "d", "b"): [0.0, 1]}
    assert nst.table == {(0, "a"): [1.0, 1], (1, "b"): [0.0, 2], (1, "c"): [0.0, 1], (0, "d"): [1.0, 1]}
    nst.learn([(0, "a"), (1, "b")], 0.5)
    assert nst.pairs[(1, "a", "b")] == [0.5, 2] and nst.table[(1, "b")] == [0.5, 3]


def test_last_move_of_a_player():
    played = [(0, "a"), (1, "b"), (1, "c")]
    assert (last_move_of(played, 0), last_move_of(played, 1), last_move_of([], 0)) == ("a", "c", None)


# MAST averages for player 0 (to move in the positions below): 1 -> 0.9, 2 -> 0.5, 3 -> 0.2;
# pairs after player 1's 2: 1 -> 0.0, 3 -> 1.0
MAST_TABLE = {(0, 1): [0.9, 1], (0, 2): [0.5, 1], (0, 3): [0.4, 2]}
PAIRS = {(0, 2, 1): [0.0, 1], (0, 2, 3): [3.0, 3]}

NST_CASES = [
    # (the playout so far, MAST table, NST's pick, MAST's pick)
    ([(1, 2)], MAST_TABLE, 3, 1),                  # the pair 2 -> 3 is best
    ([(1, 3)], MAST_TABLE, 1, 1),                  # no pair after 3: the MAST averages
    ([], MAST_TABLE, 1, 1),                        # nothing before: MAST
    ([(1, 2), (0, 1)], MAST_TABLE, 3, 1),          # player 0 moved again: the pair follows the opponent's 2, not 1
    ([(1, 3)], {(0, 1): [0.9, 1], (0, 3): [0.2, 1]}, 2, 2),   # an unseen move counts as a win
]


@pytest.mark.parametrize("played,table,nst_pick,mast_pick", NST_CASES)
def test_nst_picks_by_pairs_then_by_mast(played, table, nst_pick, mast_pick):
    state = TakeAwayState(7, to_move=0)
    nst, mast = NstPlayout(epsilon=0.0), MastPlayout(epsilon=0.0)
    nst.table, nst.pairs, mast.table = dict(table), dict(PAIRS), dict(table)
    assert nst.choose(state, [1, 2, 3], random.Random(1), played) == nst_pick
    assert mast.choose(state, [1, 2, 3], random.Random(1), played) == mast_pick


# --- statistics across moves and games ----------------------------------------------------------

@pytest.mark.parametrize("playout", ["mast", "nst"])
@pytest.mark.parametrize("keep", [False, True])
def test_statistics_last_the_game_and_with_keep_stats_the_next_games(playout, keep):
    game = get_game("english")
    agent = UctAgent(game, Settings(seed=3, playout=playout, keep_stats=keep))
    policy = agent.policy
    assert policy.keep_stats is keep
    state = game.new_state()
    agent.search(state, Limits(nodes=60), threading.Event())
    first = sum(count for _, count in policy.table.values())
    state.play(state.legal_moves()[0])
    agent.search(state, Limits(nodes=60), threading.Event())       # the next move of the game
    assert sum(count for _, count in policy.table.values()) > first > 0
    if playout == "nst":
        assert policy.pairs
    agent.new_game()
    assert bool(policy.table) is keep
    if playout == "nst":
        assert bool(policy.pairs) is keep


def test_the_options_set_the_policy_a_worker_builds_too():
    values = OptionValues()
    for name, text in (("Defaults", "plain"), ("Playout", "NST"), ("KeepStats", "true"), ("Epsilon", "0.2"),
                       ("Widening", "0.75")):
        values.apply(values.check(name, text))
    settings = values.settings()
    assert (settings.playout, settings.keep_stats, settings.widening) == ("nst", True, 0.75)
    spec = settings.playout_spec
    assert spec == PlayoutSpec("nst", 0, 0.2, True)
    policy = spec.make()
    assert type(policy) is NstPlayout and policy.keep_stats and policy.epsilon == 0.2
    plain = OptionValues()
    plain.apply(plain.check("Defaults", "plain"))
    assert (plain.settings().widening, plain.settings().keep_stats) == (0.0, False)
    for name, text in (("Widening", "-0.5"), ("Widening", "x"), ("KeepStats", "yes"), ("Playout", "ngram")):
        with pytest.raises(OptionError, match=name):
            values.check(name, text)


# --- progressive widening -------------------------------------------------------------------

@pytest.mark.parametrize("widening,visits,count", [
    (1.0, 0, 1), (1.0, 1, 1), (1.0, 2, 2), (1.0, 4, 2), (1.0, 5, 3), (0.5, 16, 2), (0.5, 17, 3),
    (0.25, 1, 1), (2.0, 10, 7), (0.1, 10000, 10)])
def test_considered_moves_grow_with_the_square_root_of_the_visits(widening, visits, count):
    assert considered(widening, visits) == count


def _nodes_and_states(root: Node, state):
    stack = [(root, state)]
    while stack:
        node, here = stack.pop()
        yield node, here
        for child in node.children:
            after = here.copy()
            after.play(child.move)
            stack.append((child, after))


@pytest.mark.parametrize("widening", [0.5, 1.0])
def test_a_widening_search_considers_its_best_moves_as_its_visits_allow(widening):
    game = get_game("life")
    state = game.new_state()
    agent = UctAgent(game, Settings(seed=7, widening=widening))
    agent.search(state, Limits(nodes=400), threading.Event())
    root, checked = agent.root, 0
    assert root.n == 400 and len(root.children) == considered(widening, 399) < len(state.legal_moves())
    for node, here in _nodes_and_states(root, state):
        if node.n < 2 or node.proven is not None or any(ch.proven is not None for ch in node.children):
            continue
        # every visit but the first passed through the node and took in a move while it could
        assert len(node.children) == considered(widening, node.n - 1)
        assert node.untried is not EXHAUSTED
        taken = [here.heuristic(ch.move) for ch in node.children]
        assert taken == sorted(taken, reverse=True)                  # best first...
        assert max(map(here.heuristic, node.untried)) <= taken[-1]   # ...and none left is better
        checked += 1
    assert checked > 20


def test_a_restricted_root_is_widened_in_the_heuristic_s_order_too():
    game = get_game("life")
    state = game.new_state()
    top = max(map(state.heuristic, state.legal_moves()))
    allowed = [m for m in state.legal_moves() if state.heuristic(m) < top]     # not the best drops
    agent = UctAgent(game, Settings(seed=4, widening=0.5))
    agent.search(state, Limits(nodes=100, searchmoves=allowed), threading.Event())
    root = agent.root
    taken = [state.heuristic(ch.move) for ch in root.children]
    assert len(taken) == considered(0.5, 99) and {ch.move for ch in root.children} <= set(allowed)
    assert taken == sorted(taken, reverse=True) and max(map(state.heuristic, root.untried)) <= taken[-1]
    assert max(map(state.heuristic, allowed)) == taken[0] < top


def test_widening_tries_the_next_move_when_every_child_is_a_proven_loss():
    # take-away from 5 stones: taking 2 or 3 loses at once (the opponent takes the rest), and
    # the heuristic puts them first; widening must not stop at them while 1 wins
    class Greedy(TakeAwayState):
        def copy(self):
            return Greedy(self.stones, self.to_move, self.winner, self.ply)

        def heuristic(self, move):
            return float(move)

    agent = UctAgent(TakeAway(5), Settings(seed=2, widening=0.1))
    result = agent.search(Greedy(5), Limits(nodes=200), threading.Event())
    assert result.move == 1 and len(agent.root.children) == 3


# the plain search before these options existed (commit b3e437f's parent): a seeded search's
# move, tree size and root visits, with Widening 0 set through the option table
PLAIN = [
    ("english", 600, "11-15", 601, [("10-14", 66), ("10-15", 95), ("11-15", 124), ("11-16", 101),
                                    ("12-16", 60), ("9-13", 87), ("9-14", 67)]),
    ("life", 300, "@k11", 301, {"@k11": 7, "@c6": 7, "@o5": 6, "@c2": 5, "@b3": 4, "@l11": 2}),
]


@pytest.mark.parametrize("name,nodes,move,size,visits", PLAIN)
def test_with_widening_off_the_search_is_the_plain_one(name, nodes, move, size, visits):
    values = OptionValues()
    for option, text in (("UCI_Variant", name), ("Defaults", "plain"), ("Seed", "11"), ("Widening", "0")):
        values.apply(values.check(option, text))
    settings = values.settings()
    assert settings == Settings(seed=11)
    game, state = get_game(name), get_game(name).new_state()
    agent = UctAgent(game, settings)
    result = agent.search(state, Limits(nodes=nodes), threading.Event())
    assert state.move_str(result.move) == move
    assert sum(1 for _ in _nodes_and_states(agent.root, state)) == size
    seen = {state.move_str(ch.move): ch.n for ch in agent.root.children}
    if isinstance(visits, list):
        assert sorted(seen.items()) == visits
    else:
        assert len(seen) == len(state.legal_moves()) and {m: seen[m] for m in visits} == visits


def test_decisive_playouts_step_at_random_where_the_look_ahead_would_cost_too_much():
    """Above ``DECISIVE_MAX_MOVES`` legal moves (Life's open board) a step is a random move,
    drawn as the plain choice draws it, so a playout cannot outlast a move's time."""
    from mcts_engine.mcts.playouts import DECISIVE_MAX_MOVES
    state = get_game("life").new_state()
    moves = state.legal_moves()
    assert len(moves) > DECISIVE_MAX_MOVES
    for seed in range(10):
        expected = moves[int(random.Random(seed).random() * len(moves))]
        assert DecisivePlayout().choose(state, moves, random.Random(seed), []) == expected
