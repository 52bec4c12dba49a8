"""The root check (RootCheck, rootcheck.c): before the tree searches, an iterative-deepening
alpha-beta values every root move, and the moves valued below the best by more than
RootCheckMargin are dropped from the root.  Checked against a Python negamax of the same
evaluation (the reference), with the root restriction it uses on a root the tree already
searched, and under the search's stop and deadline.
"""
from __future__ import annotations

import random
import threading

import pytest

from mcts_engine.mcts.core import root_children
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.uct import UctAgent
from mcts_engine.native import StopSignal
from mcts_engine.rules import get_game
from support.negamax import negamax, played, random_walk


def random_position(game, rng: random.Random):
    """A position a few random moves from the start, with more than one move to choose from."""
    while True:
        state = random_walk(game, rng, rng.randrange(6, 20))
        if state.outcome() is None and len(state.legal_moves()) > 1:
            return state


@pytest.mark.parametrize("name,depth,margin", [("english", 2, 0.05), ("english", 3, 0.02), ("english", 5, 0.05),
                                                ("international", 2, 0.05), ("international", 4, 0.05),
                                                ("life", 1, 0.05)])
def test_the_root_keeps_the_moves_the_negamax_values_within_the_margin(name, depth, margin):
    game = get_game(name)
    rng = random.Random(7)
    dropped_somewhere = False
    for trial in range(4):
        state = random_position(game, rng)
        values = {move: 1.0 - negamax(played(state, move), depth - 1) for move in state.legal_moves()}
        best = max(values.values())
        if any(abs(v - (best - margin)) < 1e-9 for v in values.values()):
            continue                     # a value on the boundary: rounding decides, not the rule
        agent = UctAgent(game, Settings(seed=trial, root_check=depth, root_margin=margin, solver=False))
        agent.search(state.copy(), Limits(nodes=400), StopSignal())
        kept = {child.move for child in root_children(agent.core)}
        expected = {move for move, v in values.items() if v > best - margin}
        assert kept == expected, state.fen()
        stats = agent.core.stats()
        assert stats["check_depth"] == depth and stats["check_dropped"] == len(values) - len(expected)
        dropped_somewhere |= len(expected) < len(values)
    assert dropped_somewhere           # the positions tried exercise a drop


@pytest.mark.parametrize("name", ["english", "international"])
def test_the_transposition_table_saves_nodes_and_changes_no_verdict(name):
    """The native draughts kernel hashes its positions, so its alpha-beta keeps a transposition
    table; the same game on its Python rules hashes none and searches without one.  Both
    check to the same depth and keep the same moves (the table answers only a search to the
    depth it stored), and the table's search visits fewer nodes."""
    depth = 5 if name == "english" else 4
    rng = random.Random(13)
    saved = 0
    for trial in range(3):
        state = random_position(get_game(name), rng)
        found = []
        for native in (True, False):
            game = get_game(name, native=native)
            start = game.parse_fen(state.fen())
            agent = UctAgent(game, Settings(seed=trial, root_check=depth, root_margin=0.05, solver=False))
            agent.search(start.copy(), Limits(nodes=400), StopSignal())
            stats = agent.core.stats()
            kept = sorted(start.move_str(child.move) for child in root_children(agent.core))
            found.append((stats["check_depth"], kept, stats["check_nodes"]))
        (native_depth, native_kept, native_nodes), (python_depth, python_kept, python_nodes) = found
        assert native_depth == python_depth == depth and native_kept == python_kept, state.fen()
        assert native_nodes <= python_nodes
        saved += python_nodes - native_nodes
    assert saved > 0


def test_a_root_the_tree_has_searched_keeps_its_statistics_for_the_moves_it_keeps():
    """tree_restrict_root on an expanded root (the root check after tree reuse): the kept
    children keep their visits, the dropped ones leave, and the search goes on over the rest."""
    game = get_game("english")
    state = random_position(game, random.Random(3))
    agent = UctAgent(game, Settings(seed=1))
    agent.search(state.copy(), Limits(nodes=2000), StopSignal())
    before = {child.move: child.n for child in root_children(agent.core)}
    assert len(before) > 2
    keep = sorted(before, key=before.get)[::2]           # every other child, least visited first
    agent.core.restrict_root(keep)
    after = {child.move: child.n for child in root_children(agent.core)}
    assert after == {move: before[move] for move in keep}
    agent.core.run([500])
    grown = {child.move: child.n for child in root_children(agent.core)}
    assert set(grown) == set(keep) and sum(grown.values()) == sum(after.values()) + 500
    assert agent.core.result().move in keep


def test_a_root_check_deeper_than_the_time_ends_with_the_move_time():
    game = get_game("international")
    agent = UctAgent(game, Settings(seed=2, root_check=32))
    result = agent.search(game.new_state(), Limits(movetime=0.05), StopSignal())
    assert result.move in game.new_state().legal_moves()
    assert agent.core.stats()["check_depth"] < 32      # the deadline ended the deepening (how far it got depends on the machine)


def test_stop_ends_a_root_check_of_an_infinite_search():
    game = get_game("international")
    agent = UctAgent(game, Settings(seed=2, root_check=32))
    stop = StopSignal()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        result = agent.search(game.new_state(), Limits(infinite=True), stop)
    finally:
        timer.cancel()
    assert result.move in game.new_state().legal_moves()
    assert agent.core.stats()["check_depth"] < 32


def test_root_check_pieces_keeps_the_check_to_endings():
    """``RootCheckPieces 8``: no check with 24 pieces on the board, the whole check with six."""
    game = get_game("english")
    for fen, depth in ((game.new_state().fen(), 0), ("W:WK14,K16,31:BK7,K23,K25", 4)):
        agent = UctAgent(game, Settings(seed=1, root_check=4, root_pieces=8, solver=False))
        agent.search(game.parse_fen(fen), Limits(nodes=300), StopSignal())
        assert agent.core.stats()["check_depth"] == depth, fen
    with pytest.raises(ValueError, match="root_check 33"):
        agent.core.run([10], root_check=33)


def test_a_seeded_search_with_the_root_check_plays_the_same_move():
    game = get_game("english")
    state = random_position(game, random.Random(11))
    moves = set()
    for _ in range(2):
        agent = UctAgent(game, Settings(seed=5, root_check=4))
        moves.add(agent.search(state.copy(), Limits(nodes=3000), StopSignal()).move)
    assert len(moves) == 1


def test_a_search_with_the_root_check_says_what_it_did():
    game = get_game("english")
    state = random_position(game, random.Random(11))
    for root_check in (0, 3):
        agent = UctAgent(game, Settings(seed=5, root_check=root_check))
        notes = []
        agent.on_note = notes.append
        agent.search(state.copy(), Limits(nodes=200), StopSignal())
        stats = agent.core.stats()
        if root_check:
            assert notes == [f"root check: depth 3 of 3, {stats['check_dropped']} moves dropped, "
                             f"{stats['check_nodes']} alpha-beta nodes"] and stats["check_nodes"] > 0
        else:
            assert notes == [] and stats["check_depth"] == stats["check_nodes"] == 0


# --- forward pruning (AlphaBetaPrune) ---------------------------------------------------------------

def checked(game, state, depth: int, prune: float):
    """The moves a root check to ``depth`` (margin 0: only its best) keeps, and its nodes."""
    agent = UctAgent(game, Settings(seed=1, root_check=depth, root_margin=0.0, solver=False, ab_prune=prune))
    agent.search(state.copy(), Limits(nodes=1), StopSignal())
    stats = agent.core.stats()
    assert stats["check_depth"] == depth
    return [state.move_str(child.move) for child in root_children(agent.core)], stats["check_nodes"]


@pytest.mark.parametrize("fen,best", [("B:W14,18,19,22,26,28,31:B1,3,5,7,8,9,24", "7-10"),
                                      ("B:W7,20,21,24,29,31,32:B1,4,8,12,14,15,22", "14-18"),
                                      ("W:W17,21,23,24,27,28,29,30,31,32:B1,2,3,4,7,9,10,11,12,20", "23-19")])
def test_forward_pruning_finds_the_best_move_in_a_fraction_of_the_nodes(fen, best):
    """Positions from games against GuiCheckers: to depth 10, the pruned search keeps the move
    the whole search keeps, and visits under half its nodes (GuiCheckers prunes likewise)."""
    game = get_game("english")
    state = game.parse_fen(fen)
    whole, whole_nodes = checked(game, state, 10, 0.0)
    pruned, pruned_nodes = checked(game, state, 10, 0.03)
    assert whole == pruned == [best]
    assert pruned_nodes < whole_nodes / 2


def test_forward_pruning_still_sees_a_shot():
    """The shot of test_search_core's forced-reply test (14-17 and three forced recaptures win
    Black a man): the pruned search finds it at every depth, in fewer nodes the deeper it is."""
    game = get_game("english")
    state = game.parse_fen("W:W13,21,24,25,27,28,30,31,32:B1,2,4,5,6,8,12,14,18")
    state.play(state.parse_move("24-20"))
    for depth in (5, 7, 9):
        whole, whole_nodes = checked(game, state, depth, 0.0)
        pruned, pruned_nodes = checked(game, state, depth, 0.03)
        assert whole == pruned == ["14-17"]
        assert pruned_nodes < whole_nodes
