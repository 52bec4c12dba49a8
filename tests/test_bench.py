"""``mcts-engine bench``: engine options into search settings (named when bad), the option
report, the two rules cores side by side, and the tree's memory."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner

from mcts_engine import native
from mcts_engine.bench import memory_per_node, search_settings
from mcts_engine.cli import main
from mcts_engine.mcts.settings import Settings
from mcts_engine.protocol.options import OptionError, game_settings
from mcts_engine.rules import get_game, list_games


def test_bench_options_give_the_search_settings_and_name_a_bad_one():
    settings = search_settings(["Playout=mast", "Epsilon=0.3", " PriorWeight =0.5"], seed=9)
    assert (settings.playout, settings.epsilon, settings.prior_weight, settings.seed) == ("mast", 0.3, 0.5, 9)
    assert search_settings([], seed=3) == Settings(seed=3)           # plain UCT, whatever the game
    tuned = search_settings(["Defaults=game"], seed=3, game="english")
    assert tuned == replace(game_settings("english"), seed=3) and tuned != Settings(seed=3)
    assert search_settings(["Defaults=game", "MinimaxWeight=0"], 3, "english").minimax_weight == 0.0
    for bad, message in (("Playout", "NAME=VALUE"), ("Playout=puct", "puct"), ("Nope=1", "Nope"),
                         ("UCI_Variant=russian", "--game")):
        with pytest.raises(OptionError, match=message):
            search_settings([bad])


def test_bench_takes_options_and_reports_them():
    runner = CliRunner()
    result = runner.invoke(main, ["bench", "--game", "gauntlet", "--seconds", "0.05", "--json",
                                  "--option", "Playout=capture", "--option", "MinimaxWeight=0.2"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["options"] == ["Playout=capture", "MinimaxWeight=0.2"]
    assert report["games"][0]["uct"]["iterations"] > 0
    result = runner.invoke(main, ["bench", "--game", "gauntlet", "--memory", "--option", "PlayoutDepth=-1"])
    assert result.exit_code == 2 and "PlayoutDepth" in result.output


@pytest.mark.skipif(not native.available(), reason=native.status())
def test_bench_shows_both_cores_of_every_game():
    """Every registered game has native rules (issue 35): bench measures each on both cores, the
    native rules' own batch of playouts only on the native one."""
    assert all(get_game(name).native for name in list_games())
    result = CliRunner().invoke(main, ["bench", "--game", "english", "--game", "gauntlet", "--seconds", "0.05",
                                       "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["games"]
    assert [(r["game"], r["core"]) for r in rows] == [("english", "native"), ("english", "python"),
                                                      ("gauntlet", "native"), ("gauntlet", "python")]
    for native_row, python_row in (rows[0:2], rows[2:4]):
        assert native_row["kernel"]["playouts"] > 0 and python_row["kernel"] is None


def test_the_tree_takes_its_nodes_in_the_arena():
    report = memory_per_node(get_game("english"), nodes=2000)
    assert report["bytes_per_node"] == 64 and 2000 < report["nodes"] < report["capacity"]


# --- the quick default and --all (issue 37: `bench` alone took 5 min 18 s) ------------------------

@pytest.fixture
def recorded(monkeypatch):
    """What bench was asked to measure: each measuring function records its games (and cores)
    and measures nothing."""
    from mcts_engine import bench as bench_mod
    calls: dict[str, list] = {}

    def run(names, seconds, seed=1, options=(), cores=("native",)):
        calls["run"] = (list(names), tuple(cores))
        return []

    def run_parallel(names, threads, seconds, seed=1, options=()):
        calls["threads"] = list(names)
        return []

    def memory(game, seed=1, settings=None):
        calls.setdefault("memory", []).append(game.name)
        return {"iterations": 1, "nodes": 1, "bytes_per_node": 64, "capacity": 1, "hash_mb": 1,
                "resident_per_node": 0.0}
    monkeypatch.setattr(bench_mod, "run", run)
    monkeypatch.setattr(bench_mod, "run_parallel", run_parallel)
    monkeypatch.setattr(bench_mod, "memory_per_node", memory)
    return calls


def bench(*args: str):
    return CliRunner().invoke(main, ["bench", *args])


def test_bench_alone_measures_the_default_game_on_the_engine_s_core(recorded):
    from mcts_engine.bench import QUICK_GAME
    assert bench().exit_code == 0
    assert recorded["run"] == ([QUICK_GAME], ("native",))
    assert bench("--core", "python").exit_code == 0 and recorded["run"] == ([QUICK_GAME], ("python",))
    for form in (["--threads", "1"], ["--memory"]):
        assert bench(*form).exit_code == 0
    assert recorded["threads"] == [QUICK_GAME] and recorded["memory"] == [QUICK_GAME]


def test_bench_all_is_the_whole_table_and_a_named_game_as_before(recorded):
    from mcts_engine.rules import list_games
    assert bench("--all").exit_code == 0
    assert recorded["run"] == (list_games(), ("native", "python"))
    assert bench("--game", "life", "--game", "english").exit_code == 0
    assert recorded["run"] == (["life", "english"], ("native", "python"))
    assert bench("--all", "--threads", "1").exit_code == 0 and recorded["threads"] == list_games()
    result = bench("--all", "--game", "english")
    assert result.exit_code == 2 and "--all" in result.output


def test_bench_alone_answers_one_row():
    result = bench("--seconds", "0.05", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["games"]
    assert [row["game"] for row in rows] == ["english"] and rows[0]["uct"]["iterations"] > 0
