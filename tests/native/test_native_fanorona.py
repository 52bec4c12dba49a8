"""Fanorona's capture chains compiled (``native/src/fanorona.c``) against the Python rules'
``extend``, the reference: the same moves, the same tuples, in the same order, in every chain
mode, on the positions of seeded random games; bad arguments are errors naming them; with the
kernel switched off (``MCTS_ENGINE_NATIVE=0``) Fanorona runs its Python chains.  The sanitizer
build (tests/native/test_native_draughts.py) runs this file too.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from mcts_engine import native
from mcts_engine.rules import fanorona as F
from mcts_engine.rules import get_game

MODES = (F.OPTIONAL, F.COMPULSORY, F.SINGLE)


def compiled():
    chains = F.compiled_chains()
    if chains is None:
        pytest.skip(f"no compiled chains: {native.status()}")
    return chains


def positions(games: int, seed: int):
    """(own, opp, capturers) of every position with a capture in ``games`` seeded random games."""
    game, rng = get_game("fanorona"), random.Random(seed)
    for _ in range(games):
        state = game.new_state()
        while state.outcome() is None:
            starters = F.capturers(state.own, state.opp)
            if starters:
                yield state.own, state.opp, starters
            state.play(rng.choice(state.legal_moves()))


def test_the_compiled_chains_list_the_python_rules_moves_in_their_order():
    chains, game = compiled(), get_game("fanorona")
    checked = 0
    for own, opp, starters in positions(40, seed=7):
        for mode in MODES:
            assert chains(own, opp, starters, mode) == game.python_chains(own, opp, starters, mode), (own, opp, mode)
            checked += 1
    assert checked > 1000


def test_no_compiled_chain_comes_back_to_its_start():
    """fanorona.md §4 rule 2 (Example 4): the start point counts as visited, so no chain ends
    where it began (d3 or d2 back to c3 would approach b3); compiled and Python alike."""
    chains, game = compiled(), get_game("fanorona")
    state = game.parse_fen("9/1B7/1BW6/9/3B5 w 0 10")          # White c3; Black b3, b4, d1
    starters = F.capturers(state.own, state.opp)
    for mode in MODES:
        moves = chains(state.own, state.opp, starters, mode)
        assert moves == game.python_chains(state.own, state.opp, starters, mode)
        assert moves and all(m[0] not in [step >> 1 for step in m[3:]] for m in moves), mode
    assert sorted(state.move_str(m) for m in state.legal_moves()) == [
        "c3-d2(W)", "c3-d2(W)-d3(W)", "c3-d3(W)", "c3-d3(W)-d2(A)"]


@pytest.mark.slow
def test_the_compiled_chains_agree_over_many_games():
    chains, game = compiled(), get_game("fanorona")
    for own, opp, starters in positions(400, seed=8):
        for mode in MODES:
            assert chains(own, opp, starters, mode) == game.python_chains(own, opp, starters, mode), (own, opp, mode)


@pytest.mark.parametrize("options", [{}, {"chain": "compulsory"}, {"first_turn_single_capture": "true"}])
def test_games_use_them_and_play_as_on_the_python_rules(options):
    """A game with each chain rule lists the moves the Python chains list, from the start on."""
    compiled()
    game, rng = get_game("fanorona", **options), random.Random(3)
    assert game.compiled is not None
    state = game.new_state()
    for _ in range(60):
        if state.outcome() is not None:
            break
        starters = F.capturers(state.own, state.opp)
        mode = F.SINGLE if game.first_turn_single and state.ply < 2 else game.mode
        expected = game.python_chains(state.own, state.opp, starters, mode) if starters else None
        moves = state.legal_moves()
        if expected is not None:
            assert moves == expected
        state.play(rng.choice(moves))


def test_dagaz_removal_is_compiled_too():
    """Dagaz's removal (only each line's first stone leaves during the chain) runs in the native
    rules as well: the same moves as the Python ``extend_dagaz``, in every chain mode."""
    compiled()
    game = get_game("fanorona", removal="dagaz")
    assert game.compiled is not None
    checked = 0
    for own, opp, starters in positions(20, seed=9):
        for mode in MODES:
            assert game.compiled(own, opp, starters, mode) == game.python_chains(own, opp, starters, mode)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("args, words", [
    ((1, 1, 1, 0), "overlapping"),
    ((1 << 63, 0, 0, 0), "off the board"),
    ((F.START_WHITE, F.START_BLACK, F.START_BLACK, 0), "starters not own"),
    ((F.START_WHITE, F.START_BLACK, 0, 7), "chain mode 7"),
])
def test_bad_arguments_are_errors_naming_them(args, words):
    with pytest.raises(ValueError, match=words):
        compiled()(*args)


def test_switched_off_fanorona_runs_its_python_chains():
    code = "from mcts_engine.rules import get_game; print(get_game('fanorona').compiled)"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, MCTS_ENGINE_NATIVE="0"),
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "None", out.stderr
