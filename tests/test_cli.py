"""The `mcts-engine` command line: perft, bench, games, and clear errors on bad input."""
import json
import random

import click
import pytest
from click.testing import CliRunner
from support.perft import PERFT

from mcts_engine.cli import main
from mcts_engine.rules import get_game


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_perft_last_line_is_nodes():
    result = run("perft", "english", "4")
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    assert lines[-1] == "nodes 1469"
    assert "leaves/s" in lines[-2]


def test_perft_divide_lists_each_root_move():
    result = run("perft", "international", "3", "--divide")
    lines = result.output.strip().splitlines()
    root = dict(line.split() for line in lines[:-2])
    assert len(root) == 9 and sum(map(int, root.values())) == 658
    assert lines[-1] == "nodes 658"


def test_perft_from_fen_and_rules():
    result = run("perft", "russian", "1", "--fen", "W:Wh2:Ba7,b4,e5,e7,g3,g5,g7")
    assert result.output.strip().splitlines()[-1] == "nodes 3"
    result = run("perft", "thai", "5", "--rules", "men_rows=3")
    assert result.output.strip().splitlines()[-1] == "nodes 7361"


def test_bad_input_is_one_clear_error():
    result = run("perft", "nosuchgame", "3")
    assert result.exit_code == 2 and "nosuchgame" in result.output and "Traceback" not in result.output
    result = run("perft", "english", "3", "--fen", "W:W99:B1")
    assert result.exit_code == 2 and "99" in result.output
    result = run("perft", "english", "3", "--rules", "promotion=sideways")
    assert result.exit_code == 2 and "sideways" in result.output
    result = run("play", "english", "--rules", "repetition=4294967297")     # a C int would read it as 1
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "english rule option repetition='4294967297' is not a whole number from 0 to 2147483647" in result.output


def replay_playouts(game, count: int, seed: int) -> tuple[int, dict]:
    """The plies and results of ``count`` random playouts from the start, seeded as bench seeds them."""
    rng = random.Random(seed)
    plies, results = 0, {"p1_wins": 0, "p2_wins": 0, "draws": 0}
    for _ in range(count):
        state = game.new_state()
        outcome = state.playout(rng)
        plies += state.ply
        results[{1.0: "p1_wins", 0.0: "p2_wins", 0.5: "draws"}[outcome]] += 1
    return plies, results


def test_bench_json_has_every_measure():
    result = run("bench", "--game", "english", "--seconds", "0.05", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)["games"][0]
    assert row["game"] == "english"
    playouts = row["playouts"]
    n = playouts["playouts"]
    # the counts are those of the same seeded playouts replayed here, and the rates follow from them
    assert n >= 1 and replay_playouts(get_game("english"), n, 3) == (playouts["plies"], playouts["results"])
    assert playouts["mean_plies"] == pytest.approx(playouts["plies"] / n)
    assert playouts["playouts_per_sec"] == pytest.approx(n / playouts["cpu_seconds"])
    assert playouts["plies_per_sec"] == pytest.approx(playouts["plies"] / playouts["cpu_seconds"])
    perft = row["perft"]
    assert perft["leaves"] == PERFT["english"][1][perft["depth"] - 1]
    assert perft["leaves_per_sec"] == pytest.approx(perft["leaves"] / perft["cpu_seconds"])
    alphabeta = row["alphabeta"]
    assert alphabeta["depth"] >= 1 and alphabeta["nodes"] >= 7          # English's start has 7 moves
    assert alphabeta["nodes_per_sec"] == pytest.approx(alphabeta["nodes"] / alphabeta["cpu_seconds"])
    uct = row["uct"]
    assert uct["iterations"] >= 1
    assert uct["iterations_per_sec"] == pytest.approx(uct["iterations"] / uct["cpu_seconds"])


def test_games_lists_every_variant():
    names = run("games").output.split()
    for name in ("english", "international", "turkish", "frisian", "thai"):
        assert name in names



@pytest.mark.parametrize("command", [["dxp"], ["bench", "--endgames"]])
@pytest.mark.parametrize("option", ["--nodes", "--movetime"])
def test_a_node_count_or_movetime_past_what_the_search_holds_is_refused_by_name(command, option):
    """Issue 37: 2^63 iterations overflowed the native core's count inside the search.  Only
    the command line is parsed (``make_context``): the command itself is not run."""
    with pytest.raises(click.BadParameter) as refused:
        main.commands[command[0]].make_context(command[0], command[1:] + [option, str(1 << 63)])
    assert option in refused.value.format_message() and "range" in refused.value.format_message()
