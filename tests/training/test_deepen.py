"""Deeper labels (``train-eval --label-depth``, training/deepen.py): every position the endgame
tables do not know is valued by the core's alpha-beta to the depth asked, the same values as the
Python negamax of the evaluation, on one process or several; the tables' verdicts stay."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from mcts_engine import native
from mcts_engine.rules import get_game
from mcts_engine.rules.draughts.state import DraughtsState
from mcts_engine.training.dataset import collect
from mcts_engine.training.deepen import deepen
from mcts_engine.training.selfplay import GameRecord, PlayConfig, play_game, play_settings
from support.negamax import negamax

if not native.available():
    pytest.skip(f"the labels are searched by the native core: {native.status()}", allow_module_level=True)


class Bar:
    """tqdm's part the labeller uses, counting what it is told."""

    def __init__(self, total: int):
        self.total, self.n = total, 0

    def update(self, n: int) -> None:
        self.n += n

    def close(self) -> None:
        assert self.n == self.total


def progress(iterable, total: int, **_):
    return Bar(total)


def games(name: str, count: int) -> list[GameRecord]:
    config = PlayConfig(name, count, 3, 30, 6)
    settings = play_settings(config)
    return [play_game(config, settings, i) for i in range(count)]


@pytest.mark.parametrize("name,depth", [("english", 3), ("international", 2)])
def test_each_label_is_the_negamax_of_the_evaluation_and_the_tables_verdicts_stay(name, depth):
    positions = collect(games(name, 2))
    rows = np.arange(0, len(positions), 7)
    positions = positions.take(rows)
    known = np.zeros(len(positions), dtype=bool)
    known[::5] = True                                   # as if the tables knew these
    positions = replace(positions, table=np.where(known, 1.0, -1.0))
    settings = play_settings(PlayConfig(name, 1, 1, 1, 0, (("Defaults", "plain"),)))   # the rules' evaluate(), no terms
    values = deepen(name, settings, depth, positions, 1, progress)
    game = get_game(name)
    for row in range(len(positions)):
        if known[row]:
            assert values[row] == 1.0
            continue
        own, opp, kings, turn = positions.masks(row)
        state = DraughtsState(game, own, opp, kings, turn)
        assert values[row] == pytest.approx(negamax(state, depth), abs=1e-12), state.fen()


def test_the_labels_do_not_depend_on_the_concurrency():
    positions = collect(games("english", 3))
    settings = play_settings(PlayConfig("english", 1, 1, 1, 0))
    one = deepen("english", settings, 4, positions, 1, progress)
    two = deepen("english", settings, 4, positions, 2, progress)
    assert np.array_equal(one, two) and len(one) > 100
