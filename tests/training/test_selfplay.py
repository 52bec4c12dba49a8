"""Training's self-play games (``training/selfplay.py``) with endgame tables on disk: the games
the seed decides may not depend on when the background reader reached a table."""
from __future__ import annotations

import time

import pytest

from mcts_engine import native
from mcts_engine.rules import get_game
from mcts_engine.tables import Material, TableSet
from mcts_engine.training import selfplay

if not native.available():
    pytest.skip(f"the self-play games search on the native kernel: {native.status()}", allow_module_level=True)


def test_every_table_is_read_before_the_first_search(tmp_path, monkeypatch):
    """With the tables read slowly (as International's 243 MB are), the agent of a training game
    has them all before it searches; the same seed once played other games, as a probe found a
    table in one run and not in the next."""
    from mcts_engine.tables import store
    TableSet(get_game("english"), tmp_path).build(Material(2, 0, 1, 0))
    real = store.read_table

    def slow_read(path, game, material):
        time.sleep(0.2)
        return real(path, game, material)

    monkeypatch.setattr(store, "read_table", slow_read)
    seen: list[bool] = []
    make = selfplay.make_agent

    def make_and_look(game, settings):
        agent = make(game, settings)
        seen.append(len(agent.tables.loaded()) == len(agent.tables.on_disk()) > 1)
        return agent

    monkeypatch.setattr(selfplay, "make_agent", make_and_look)
    config = selfplay.PlayConfig("english", 1, 7, 20, 4, (("TablePath", str(tmp_path)),), str(tmp_path))
    record = selfplay.play_game(config, selfplay.play_settings(config), 0)
    assert seen == [True] and len(record.own) > 0
