"""``mcts-engine train-eval`` end to end on tiny runs: the same command and seed give the same
weights file, byte for byte (the games, the held-out split and the fit are all seeded); the
games kept with ``--data`` give the same file again without playing; the file names the command
that made it and reads back as the learned evaluation; bad input is one clear error."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from mcts_engine import native
from mcts_engine.cli import main
from mcts_engine.rules import get_game
from mcts_engine.rules.draughts.learned import pattern_layout
from mcts_engine.rules.draughts.weights import read_weights, weights_path

if not native.available():
    pytest.skip(f"the self-play games search on the native kernel: {native.status()}", allow_module_level=True)

TINY = ("--game", "english", "--games", "4", "--nodes", "40", "--steps", "12", "--holdout", "0.25", "--no-tables")


def run(*args: str):
    return CliRunner().invoke(main, ["train-eval", *TINY, *args])


def test_the_same_command_and_seed_give_the_same_weights_file(tmp_path):
    first, second, other = tmp_path / "a.weights", tmp_path / "b.weights", tmp_path / "c.weights"
    for out, seed in ((first, "5"), (second, "5"), (other, "6")):
        result = run("--seed", seed, "--out", str(out))
        assert result.exit_code == 0, result.output
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()


def test_the_kept_games_give_the_same_file_without_playing_again(tmp_path):
    data = tmp_path / "games.npz"
    played, reread = tmp_path / "played.weights", tmp_path / "reread.weights"
    assert run("--seed", "5", "--data", str(data), "--out", str(played)).exit_code == 0
    result = run("--seed", "5", "--data", str(data), "--out", str(reread))
    assert result.exit_code == 0, result.output
    assert "self-play:" not in result.output and played.read_bytes() == reread.read_bytes()


def test_the_file_names_its_command_and_the_output_its_held_out_loss(tmp_path):
    out = tmp_path / "english.weights"
    result = run("--seed", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "held out" in result.output and f"weights written to {out}" in result.output
    weights = read_weights(out)
    command = next(line for line in weights.header if line.startswith("command: "))
    assert command.startswith("command: mcts-engine train-eval --game english --games 4 --seed 5 --nodes 40")
    assert "--no-tables" in command and weights.variant == "english"


def test_games_played_with_learned_weights_name_the_file_and_its_checksum(tmp_path):
    """A next generation's games play with the weights before it: the data line says which."""
    out = tmp_path / "english.weights"
    result = run("--seed", "5", "--option", "Evaluation=learned", "--option", "EvalWeights=english.v1.weights",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    shipped = weights_path("english", 1).read_text().rstrip("\n").rsplit("\n", 1)[-1]
    data = next(line for line in read_weights(out).header if line.startswith("data: "))
    assert f"Evaluation learned (english.v1.weights, {shipped})" in data and shipped.startswith("checksum ")


def test_games_played_otherwise_are_refused_naming_the_file(tmp_path):
    data = tmp_path / "games.npz"
    assert run("--seed", "5", "--data", str(data), "--out", str(tmp_path / "a.weights")).exit_code == 0
    result = run("--seed", "6", "--data", str(data), "--out", str(tmp_path / "b.weights"))
    assert result.exit_code != 0 and f"training data {data}: played with" in result.output


@pytest.mark.parametrize("args, message", [
    (("--game", "fanorona"), "draughts family only"),
    (("--game", "nosuchgame"), "nosuchgame"),
    (("--option", "NoSuchOption=1"), "NoSuchOption"),
    (("--option", "novalue"), "NAME=VALUE"),
    (("--pattern-stride", "3"), "--pattern-stride"),
])
def test_bad_input_is_one_clear_error(args, message):
    result = CliRunner().invoke(main, ["train-eval", "--game", "english", "--games", "1", *args])
    assert result.exit_code != 0 and message.lower() in result.output.lower(), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_the_games_do_not_depend_on_the_concurrency(tmp_path):
    """Each game is seeded from the run's seed and its number: two worker processes play the
    same games, in the same order, as one."""
    one, two = tmp_path / "one.weights", tmp_path / "two.weights"
    assert run("--seed", "5", "--out", str(one)).exit_code == 0
    result = run("--seed", "5", "--concurrency", "2", "--out", str(two))
    assert result.exit_code == 0, result.output
    assert one.read_bytes() == two.read_bytes()


def test_deeper_labels_name_their_depth_and_do_not_depend_on_the_concurrency(tmp_path):
    """``--label-depth``: the search share of each label is the alpha-beta's value (other weights
    than the self-play search's value give), the file says so, and two processes label alike."""
    shallow, deep, deep_two = tmp_path / "shallow.weights", tmp_path / "deep.weights", tmp_path / "two.weights"
    assert run("--seed", "5", "--out", str(shallow)).exit_code == 0
    for out, more in ((deep, ()), (deep_two, ("--concurrency", "2"))):
        result = run("--seed", "5", "--label-depth", "3", *more, "--out", str(out))
        assert result.exit_code == 0, result.output
    assert deep.read_bytes() == deep_two.read_bytes() != shallow.read_bytes()
    header = read_weights(deep).header
    assert any(line.startswith("command: ") and "--label-depth 3" in line for line in header)
    assert "labels: 0.5 x the game's result + 0.5 x the alpha-beta's value to 3 plies; " in "\n".join(header)


def test_the_dense_layout_is_named_in_the_command_and_the_file(tmp_path):
    """``--pattern-stride 1``: a window every row and column; the file's layout says so and the
    command line names it (the default, 2, is not written: older files' commands stay true)."""
    dense, sparse = tmp_path / "d.weights", tmp_path / "s.weights"
    for out, more in ((dense, ("--pattern-stride", "1")), (sparse, ())):
        result = run("--seed", "5", *more, "--out", str(out))
        assert result.exit_code == 0, result.output
    game = get_game("english")
    weights, plain = read_weights(dense), read_weights(sparse)
    assert weights.layout == pattern_layout(game, 1).signature and plain.layout == pattern_layout(game, 2).signature
    assert "--pattern-stride 1" in weights.header[1] and "--pattern-stride" not in plain.header[1]
    assert weights.patterns.shape[0] == 25


def test_added_games_join_the_fit_and_are_named(tmp_path):
    """``--add-data``: the games another run kept (an earlier generation's) join this run's in the
    fit; the command names the file, the data line says whose games they are, and the same
    command gives the same file again."""
    earlier, data = tmp_path / "earlier.npz", tmp_path / "now.npz"
    first = run("--seed", "5", "--data", str(earlier), "--out", str(tmp_path / "earlier.weights"))
    alone = run("--seed", "6", "--data", str(data), "--out", str(tmp_path / "alone.weights"))
    assert first.exit_code == 0 and alone.exit_code == 0, first.output + alone.output
    both = [tmp_path / "both.weights", tmp_path / "again.weights"]
    for out in both:
        result = run("--seed", "6", "--data", str(data), "--add-data", str(earlier), "--out", str(out))
        assert result.exit_code == 0, result.output

    def positions(output: str) -> int:
        return int(output.split(" positions (")[0].rsplit(" ", 1)[1])
    assert positions(result.output) == positions(first.output) + positions(alone.output)
    assert "8 games, " in result.output
    assert both[0].read_bytes() == both[1].read_bytes() != (tmp_path / "alone.weights").read_bytes()
    header = read_weights(both[0]).header
    assert "--add-data earlier.npz" in header[1]
    assert "; and 4 games of earlier.npz (seed 5, 40 iterations a move after 4 random plies); " in header[2]


def test_added_games_of_another_variant_are_refused_naming_the_file(tmp_path):
    russian = tmp_path / "russian.npz"
    made = run("--game", "russian", "--games", "1", "--seed", "5", "--data", str(russian),
               "--out", str(tmp_path / "r.weights"))
    assert made.exit_code == 0, made.output
    result = run("--seed", "5", "--add-data", str(russian), "--out", str(tmp_path / "e.weights"))
    assert result.exit_code != 0 and f"training data {russian}: games of russian, not english" in result.output
    assert not (tmp_path / "e.weights").exists()


def test_a_file_named_twice_is_refused(tmp_path):
    """Its games would count twice, and the held-out games would be trained on."""
    data = tmp_path / "games.npz"
    assert run("--seed", "5", "--data", str(data), "--out", str(tmp_path / "a.weights")).exit_code == 0
    for more in (("--data", str(data)), ("--add-data", str(data))):
        result = run("--seed", "5", *more, "--add-data", str(data), "--out", str(tmp_path / "b.weights"))
        assert result.exit_code != 0 and f"training data {data}: named twice" in result.output, result.output
