"""Helpers the tests share: seeded random games and the invariants every game keeps, the
engine drivers (``drivers.py``), the toy games (``toy_games.py``), ``require`` for the
optional test dependencies, and where things are (``ROOT``, ``FAKES``).

Plain functions (test modules import them: ``from support import random_game``), so a
game's test file only says what is particular to its game.
"""
from __future__ import annotations

import importlib
import math
import os
import random
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]          # the repository
FAKES = ROOT / "tests" / "fake_engines"             # engines that misbehave on purpose, for the manager


def in_ci() -> bool:
    """Whether the tests run in CI (the ``CI`` environment variable is set, as ``.ci/run``
    and every CI service set it; empty, ``0`` and ``false`` mean no)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require(module: str, reason: str, attribute: str | None = None):
    """Import a test dependency (the ``test`` extra: pydraughts, open_spiel) and return it.

    Missing (or not the package meant: ``attribute`` absent), the test skips on a
    developer's machine but fails in CI, where a green run must mean the cross-checks ran:
    ``pytest.importorskip`` would turn a broken install into skips and a green CI.
    """
    try:
        found = importlib.import_module(module)
        problem = None if attribute is None or hasattr(found, attribute) else \
            f"the installed {module!r} module has no {attribute!r}"
    except ImportError as err:
        found, problem = None, f"cannot import {module!r}: {err}"
    if problem is None:
        return found
    if in_ci():
        pytest.fail(f"{reason}: {problem} (CI is set: a missing test dependency fails the run)", pytrace=False)
    pytest.skip(f"{reason}: {problem}")


def random_game(game, seed: int, start=None, max_plies: int = 1000) -> list:
    """The states of a seeded random game (copies; the final one included) from ``start``
    (default: the start position).  Fails if the game has not ended after ``max_plies`` plies."""
    rng = random.Random(seed)
    state = game.new_state() if start is None else start.copy()
    states = []
    for _ in range(max_plies):
        states.append(state.copy())
        move = state.random_move(rng)
        if move is None:
            return states
        state.play(move)
    raise AssertionError(f"{game.name}: random game {seed} did not end in {max_plies} plies")


def check_fen_round_trip(game, state):
    """The FEN reads back as the same position (same key, same FEN); returns the state read."""
    fen = state.fen()
    again = game.parse_fen(fen)
    assert again.key() == state.key(), fen
    assert again.fen() == fen
    return again


def check_moves_read_back(state, legal: list) -> list[str]:
    """Every legal move is listed once, and its text (without spaces) reads back as the same
    move; the texts differ.  Returns the texts, in the order of ``legal``."""
    assert len(set(legal)) == len(legal), "duplicate moves"
    texts = [state.move_str(move) for move in legal]
    for move, text in zip(legal, texts):
        assert " " not in text and state.parse_move(text) == move, (state.fen(), text)
    assert len(set(texts)) == len(texts)
    return texts


def check_random_move(state, legal: list, rng) -> None:
    """``random_move`` picks a legal move, or None when there is none."""
    pick = state.random_move(rng)
    assert (pick in legal) if legal else pick is None, state.fen()


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable with ``dof`` degrees of freedom."""
    s, z = dof / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    # regularised lower incomplete gamma by its series, then the complement
    term = total = 1.0 / s
    n = 1
    while term > total * 1e-15:
        term *= z / (s + n)
        total += term
        n += 1
    lower = total * math.exp(-z + s * math.log(z) - math.lgamma(s))
    return max(0.0, 1.0 - lower)


def check_random_move_uniform(state, draws: int, seed: int, p_min: float = 1e-4) -> dict:
    """``draws`` seeded ``random_move`` draws hit only legal moves, each about equally often:
    a chi-square test of uniformity must not reject at ``p_min``.  Returns the counts."""
    legal = state.legal_moves()
    rng = random.Random(seed)
    counts = dict.fromkeys(legal, 0)
    for _ in range(draws):
        move = state.random_move(rng)
        assert move in counts, state.fen()
        counts[move] += 1
    expected = draws / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    p = chi2_sf(chi2, len(legal) - 1)
    assert p > p_min, (counts, chi2, p)
    return counts


def check_copy_is_independent(state, move) -> None:
    """Playing ``move`` on a copy changes the copy's key and leaves ``state`` as it was."""
    before = (state.key(), state.fen(), state.outcome(), state.legal_moves())
    twin = state.copy()
    twin.play(move)
    assert twin.key() != state.key()
    assert (state.key(), state.fen(), state.outcome(), state.legal_moves()) == before


def check_playout_matches_loop(start, seed: int) -> float:
    """``playout`` from a copy of ``start`` plays exactly the ``random_move``/``play`` loop of the
    same seed: the same final position, ply count and result.  Returns the result."""
    fast = start.copy()
    result = fast.playout(random.Random(seed))
    slow = start.copy()
    rng = random.Random(seed)
    while (move := slow.random_move(rng)) is not None:
        slow.play(move)
    assert fast.key() == slow.key() and fast.fen() == slow.fen() and fast.ply == slow.ply
    assert result == slow.outcome() == fast.outcome() and result in (0.0, 0.5, 1.0)
    return result


def check_playout_cut_off(start, plies: int) -> None:
    """A playout limited to ``plies`` plies of a game that lasts longer stops there and returns None."""
    state = start.copy()
    assert state.playout(random.Random(1), max_plies=plies) is None
    assert state.ply == start.ply + plies and state.outcome() is None


def legal_strs(state) -> set[str]:
    """The legal moves of ``state`` in notation (and no two moves print the same)."""
    texts = [state.move_str(m) for m in state.legal_moves()]
    assert len(set(texts)) == len(texts)
    return set(texts)


def play_strs(state, *moves: str):
    """A copy of ``state`` after the moves given in notation."""
    state = state.copy()
    for text in moves:
        state.play(state.parse_move(text))
    return state
