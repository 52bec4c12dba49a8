"""The endgame suite (``mcts_engine/endgame_suite.py``) and its runner (``endgames.py``,
``mcts-engine bench --endgames``): the rows are legal, won positions (the exact oracle for
kings against a lone king, pydraughts for the move lists), and the runner plays them out
and scores them for the winning side, deterministically under a seed and a node limit."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import require
from endgame_oracle import plies_to_win, wins_within
from mcts_engine.cli import main
from mcts_engine.endgame_suite import SUITE
from mcts_engine.endgames import convert, select, summary
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.rules import get_game
from test_crosscheck import _our_moves, _pydraughts, _their_moves

QUICK = ["en-3k2k-a", "in-km1m", "ru-km1m"]      # won in a few plies: the fast run plays these


def test_suite_has_twenty_won_positions_in_three_variants():
    names = [row.name for row in SUITE]
    assert len(SUITE) >= 20 and len(set(names)) == len(names)
    assert {row.game for row in SUITE} == {"english", "international", "russian"}
    for row in SUITE:
        game = get_game(row.game)
        state = game.parse_fen(row.fen)
        assert state.outcome() is None and state.legal_moves(), row.name
        kv = game.king_value
        material = [(side & ~state.kings).bit_count() + kv * (side & state.kings).bit_count()
                    for side in (state.own, state.opp)]
        strong_to_move = material[0] > material[1]
        colours = game.colours      # (first player's letter, second's)
        assert row.winner == colours[state.turn if strong_to_move else state.turn ^ 1], row.name


def test_oracle_confirms_the_english_king_rows():
    rows = [row for row in SUITE if row.game == "english" and row.plies is not None]
    assert len(rows) >= 4
    for row in rows:
        assert plies_to_win(row.game, row.fen) == row.plies, row.name
        assert wins_within(row.game, row.fen, 80), row.name      # inside the 40-move rule


def test_oracle_tells_wins_from_draws():
    assert plies_to_win("english", "W:WK14,K18:BK10") == 1              # 14x5: taken at once
    assert plies_to_win("english", "B:WK14,K15:BK10") is None           # 10x19 (or x17): 1 v 1
    assert not wins_within("english", "W:WK10,K11:BK28", 20)            # needs 21 plies
    with pytest.raises(ValueError):
        plies_to_win("english", "W:W14,K18:BK10")                       # a man: not read


def test_every_row_has_pydraughts_move_lists():
    draughts = _pydraughts()
    for row in SUITE:
        game = get_game(row.game)
        state = game.parse_fen(row.fen)
        assert _our_moves(game, state) == _their_moves(draughts, row.game, state.fen()), row.name


def test_quick_rows_convert_deterministically_and_replay_in_pydraughts():
    draughts = _pydraughts()
    settings, limits = Settings(seed=3), Limits(nodes=300)
    for row in select(QUICK):
        first = convert(row, settings, limits)
        assert first.result == "win" and first.plies == len(first.moves) > 0, row.name
        assert convert(row, settings, limits).moves == first.moves, row.name
        game = get_game(row.game)
        state = game.parse_fen(row.fen)
        for text in first.moves:
            assert _our_moves(game, state) == _their_moves(draughts, row.game, state.fen()), row.name
            state.play(state.parse_move(text))
        assert not _their_moves(draughts, row.game, state.fen()), f"{row.name}: the loser still has a move"


def test_a_shuffled_ending_is_scored_a_draw():
    """Two kings against one at 100 iterations a move: plain UCT shuffles (and gives a king
    away) until the 40-move rule draws."""
    conversion = convert(select(["en-2k1k-c"])[0], Settings(seed=1), Limits(nodes=100))
    assert conversion.result == "draw" and conversion.plies >= 80
    assert summary([conversion]) == {"win": 0, "draw": 1, "loss": 0}


def test_select_names_rows_and_rejects_unknown_ones():
    assert [row.name for row in select(["ru-km1m"])] == ["ru-km1m"]
    assert {row.game for row in select(games=["russian"])} == {"russian"}
    with pytest.raises(ValueError, match="nope"):
        select(["nope"])


def test_bench_endgames_command():
    runner = CliRunner()
    result = runner.invoke(main, ["bench", "--endgames", "--ending", "in-km1m", "--nodes", "200",
                                  "--option", "Seed=1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["summary"] == {"win": 1, "draw": 0, "loss": 0} and report["nodes"] == 200
    assert report["endings"][0]["name"] == "in-km1m" and report["endings"][0]["moves"]
    bad = runner.invoke(main, ["bench", "--endgames", "--option", "ProgressWeight=2", "--nodes", "5"])
    assert bad.exit_code == 2 and "ProgressWeight" in bad.output


@pytest.mark.slow
def test_the_whole_suite_plays_out_by_the_rules():
    """Every row at 50 iterations a move with ProgressWeight 0.5 (seeded): each game ends by
    the rules and is scored for the right side (a win: the defender has no move left; a
    draw: the draw rules ended it), and the rows won in a few plies are won."""
    settings, limits = Settings(seed=2, progress_weight=0.5), Limits(nodes=50)
    for row in SUITE:
        conversion = convert(row, settings, limits)
        game = get_game(row.game)
        state = game.parse_fen(row.fen)
        for text in conversion.moves:
            state.play(state.parse_move(text))
        winner = game.colours.index(row.winner)
        expected = {1.0: "win", 0.5: "draw", 0.0: "loss"}[state.outcome() if winner == 0 else 1.0 - state.outcome()]
        assert conversion.result == expected, row.name
        if conversion.result == "draw":
            assert state.drawn, row.name
        if row.name in QUICK:
            assert conversion.result == "win", row.name
