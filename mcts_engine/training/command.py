"""One training run, as ``mcts-engine train-eval`` asks for it: play (or read back) the games,
label and featurize their positions, fit, report the held-out loss, write the weights file.

The file's header names the command that made it (every setting that changes the weights,
written out in full) and the data it learned from, so that the same command gives the same file
again (tests/training/test_train_eval.py checks it on a tiny run).
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import numpy as np

from .. import __version__
from ..rules import get_game
from ..rules.draughts import evaluation
from ..rules.draughts.learned import pattern_layout
from ..rules.draughts.weights import weights_identity, weights_path, write_weights
from ..tables import default_directory
from .dataset import KeptGames, Positions, collect, join, labels, load_kept, load_positions, save_positions
from .deepen import deepen
from .features import features
from .fit import FitConfig, cross_entropy, fit, held_out_games, integer_model, integer_weights
from .selfplay import PlayConfig, play_games, play_settings

Report = Callable[[str], None]


@dataclass(frozen=True)
class TrainConfig:
    """A training run: the games (``play``), the fit, the labels' blend (``label_mix``: the
    game's result's share, the search's value the rest), that value's source (``label_depth``: 0,
    the self-play search's; D, the alpha-beta's to D plies, ``deepen.py``), where the weights go
    (``out``), where the games are kept between runs (``data``, "" = nowhere), the games other
    runs kept that the fit adds to these (``add_data``: their ``data`` files, an earlier
    generation's games) and the layout's ``pattern_stride`` (learned.STRIDES)."""

    play: PlayConfig
    fit: FitConfig
    label_mix: float = 0.5
    out: str = ""
    data: str = ""
    label_depth: int = 0
    pattern_stride: int = 2
    add_data: tuple[str, ...] = ()


def command_line(config: TrainConfig) -> str:
    """The command that makes these weights, every setting that changes them written out."""
    p, f = config.play, config.fit
    words = ["mcts-engine", "train-eval", "--game", p.game, "--games", str(p.games), "--seed", str(p.seed),
             "--nodes", str(p.nodes), "--opening-plies", str(p.opening_plies)]
    for name, value in p.options:
        words += ["--option", f"{name}={value}"]
    if not p.tables:
        words.append("--no-tables")
    elif p.tables != str(default_directory()):
        words += ["--table-path", p.tables]
    if config.label_depth:
        words += ["--label-depth", str(config.label_depth)]
    if config.pattern_stride != 2:
        words += ["--pattern-stride", str(config.pattern_stride)]
    for path in config.add_data:
        words += ["--add-data", Path(path).name]
    words += ["--label-mix", repr(config.label_mix), "--steps", str(f.steps), "--learning-rate", repr(f.learning_rate),
              "--l2", repr(f.l2), "--holdout", repr(f.holdout)]
    return shlex.join(words)


def positions_of(config: TrainConfig, progress) -> Positions:
    """The games' positions: read back from ``config.data`` where it exists, else played (and
    kept there when it is named)."""
    if config.data and Path(config.data).exists():
        return load_positions(config.data, config.play)
    games = progress(play_games(config.play), total=config.play.games, unit="game", desc="self-play")
    positions = collect(games)
    if config.data:
        save_positions(config.data, positions, config.play)
    return positions


def added_games(config: TrainConfig) -> list[KeptGames]:
    """The games of ``config.add_data``, read before any game is played (a bad file is refused
    at once); ValueError for a file named twice, or named as ``config.data`` too (its games
    would count twice)."""
    seen = {Path(config.data).resolve()} if config.data else set()
    for path in config.add_data:
        if Path(path).resolve() in seen:
            raise ValueError(f"training data {path}: named twice (--data, --add-data); its games would count twice")
        seen.add(Path(path).resolve())
    return [load_kept(path, config.play.game) for path in config.add_data]


def handset_chances(game_name: str, positions: Positions) -> np.ndarray:
    """The hand-set evaluation's winning chance of each position for its side to move."""
    game = get_game(game_name)
    out = np.empty(len(positions))
    for row in range(len(positions)):
        own, opp, kings, turn = positions.masks(row)
        first = (game.kernel.evaluate(own, opp, kings, turn) if game.kernel is not None
                 else evaluation.evaluate(game, own, opp, kings, turn))
        out[row] = first if turn == 0 else 1.0 - first
    return out


def settings_text(config: PlayConfig) -> str:
    """The self-play engine's search settings, in words (the header's data line)."""
    s = play_settings(config)
    parts = [f"PlayoutDepth {s.playout_depth}", f"MinimaxWeight {s.minimax_weight:g}", f"LeafDepth {s.leaf_depth}",
             f"Playout {s.playout}"]
    if s.game_parameters is not None:
        parts.append(f"Evaluation {s.game_parameters.evaluation}")
        if s.game_parameters.evaluation == "learned":
            # which generation of weights played the games
            parts[-1] += f" ({weights_identity(s.game_parameters.weights_file or weights_path(config.game))})"
    return ", ".join(parts)


def value_source(config: TrainConfig) -> str:
    """Where the labels' search value comes from, in words (the header's labels line)."""
    if config.label_depth:
        return f"the alpha-beta's value to {config.label_depth} plies"
    return "the search's value"


def train(config: TrainConfig, report: Report, progress) -> None:
    """Run ``config`` to its weights file, reporting each stage's figures through ``report``
    (``progress(iterable, total=..., unit=..., desc=...)`` wraps the long loops: tqdm)."""
    p = config.play
    game = get_game(p.game)
    layout = pattern_layout(game, config.pattern_stride)
    added = added_games(config)
    positions = positions_of(config, progress)
    if added:
        positions = join([positions, *(kept.positions for kept in added)])
    if not len(positions):
        raise ValueError("the games gave no position to learn from (more --games?)")
    known = int((positions.table >= 0).sum())
    games = p.games + sum(kept.play.games for kept in added)
    report(f"{games} games, {len(positions)} positions ({known} labelled by the endgame tables)")
    if config.label_depth:
        positions = replace(positions, search=deepen(p.game, play_settings(p), config.label_depth, positions,
                                                     p.concurrency, progress))
    f = features(layout, positions)
    targets = labels(positions, config.label_mix)
    held = held_out_games(positions.game, config.fit.holdout, config.fit.seed)
    train_f, train_y = f.take(~held), targets[~held]
    bar = progress(None, total=config.fit.steps, unit="step", desc="fit")
    model = fit(train_f, train_y, layout, config.fit,
                on_step=lambda step, loss: _tick(bar, loss))
    bar.close()
    weights = integer_weights(model, layout, p.game, ())
    shipped = integer_model(weights, layout)          # the weights as the file holds them, integers
    test, test_f = positions.take(held), f.take(held)
    losses = {
        "learned": cross_entropy(shipped.chances(test_f), test.result),
        "hand-set": cross_entropy(handset_chances(p.game, test), test.result) if len(test) else float("nan"),
        "constant 0.5": cross_entropy(np.full(len(test), 0.5), test.result),
    }
    fitted = cross_entropy(shipped.chances(train_f), train_y)
    held_label = cross_entropy(shipped.chances(test_f), targets[held])
    more = "".join(f"; and {kept.describe()}" for kept in added)
    header = (
        f"mcts-engine {__version__}: the learned evaluation of {p.game} (docs/search.md#the-learned-evaluation)",
        f"command: {command_line(config)}",
        f"data: {p.games} self-play games at {p.nodes} iterations a move ({settings_text(p)}) after "
        f"{p.opening_plies} random plies{more}; "
        f"{len(positions)} positions, {int(held.sum())} of them in the "
        f"{config.fit.holdout:g} of the games held out",
        f"labels: {config.label_mix:g} x the game's result + {1 - config.label_mix:g} x {value_source(config)}; "
        f"{known} positions by the endgame tables",
        f"loss (cross-entropy) on the labels: training {fitted:.4f}, held out {held_label:.4f}",
        "held-out loss against the game results: " + ", ".join(f"{k} {v:.4f}" for k, v in losses.items()),
    )
    weights = replace(weights, header=header)
    for line in header[2:]:
        report(line)
    out = config.out or f"{p.game}.v1.weights"
    write_weights(out, weights)
    report(f"weights written to {out}")


def _tick(bar, loss: float) -> None:
    bar.update(1)
    if loss == loss:
        bar.set_postfix(loss=f"{loss:.4f}")
