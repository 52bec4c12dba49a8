"""The `mcts-engine` command line: perft, bench, games, and clear errors on bad input."""
import json

from click.testing import CliRunner

from mcts_engine.cli import main


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


def test_bench_json_has_every_measure():
    result = run("bench", "--game", "english", "--seconds", "0.05", "--json")
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)["games"][0]
    assert row["game"] == "english"
    assert row["playouts"]["playouts"] >= 1 and row["playouts"]["plies_per_sec"] > 0
    assert row["perft"]["leaves"] > 0
    assert row["uct"]["iterations"] >= 1 and row["uct"]["iterations_per_sec"] > 0


def test_games_lists_every_variant():
    names = run("games").output.split()
    for name in ("english", "international", "turkish", "frisian", "thai"):
        assert name in names
