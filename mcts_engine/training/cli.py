"""``mcts-engine train-eval``: the command line of a training run (``command.train``)."""
from __future__ import annotations

import sys

import click

from ..engine_options import OptionError
from ..rules import get_game
from ..rules.base import RulesError
from ..rules.draughts import DraughtsGame
from ..rules.draughts.learned import STRIDES
from ..tables import default_directory
from .command import TrainConfig, train
from .dataset import DataError
from .fit import FitConfig
from .selfplay import PlayConfig, play_settings


def _options(texts: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{text!r} is not NAME=VALUE", param_hint="--option")
        pairs.append((name.strip(), value.strip()))
    return tuple(pairs)


@click.command("train-eval")
@click.option("--game", required=True, help="the draughts variant whose evaluation to train")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=2000, show_default=True,
              help="self-play games to learn from")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=1, show_default=True,
              help="the run's seed: the same command and seed give the same weights file")
@click.option("--nodes", type=click.IntRange(1, 10_000_000), default=300, show_default=True,
              help="UCT iterations a move of the self-play games")
@click.option("--opening-plies", type=click.IntRange(0, 100), default=4, show_default=True,
              help="uniformly random plies at the start of each game (spreads the games)")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="an engine option of the self-play games (repeatable; over the game's measured defaults)")
@click.option("--tables/--no-tables", default=True, show_default=True,
              help="label the positions the endgame tables know by them (`mcts-engine tables` builds them)")
@click.option("--table-path", type=click.Path(file_okay=False), default="",
              help="the endgame tables' directory [default: the user's cache, as the engine option TablePath]")
@click.option("--label-mix", type=click.FloatRange(0.0, 1.0), default=0.5, show_default=True,
              help="each label's share of the game's result (the search's value for the side to move the rest)")
@click.option("--label-depth", type=click.IntRange(0, 32), default=0, show_default=True,
              help="value the positions by the core's alpha-beta to this many plies for the labels' search share "
                   "(0: the self-play search's own value)")
@click.option("--pattern-stride", type=click.Choice([str(s) for s in STRIDES]), default="2", show_default=True,
              help="a pattern window every this many rows and columns (1: about three times the regions, "
                   "a slower evaluation)")
@click.option("--steps", type=click.IntRange(1, 100_000), default=300, show_default=True,
              help="full-batch Adam steps of the fit")
@click.option("--learning-rate", type=click.FloatRange(0.0, 10.0, min_open=True), default=0.05, show_default=True)
@click.option("--l2", type=click.FloatRange(0.0, 1.0), default=1e-6, show_default=True,
              help="the penalty on the squared pattern weights")
@click.option("--holdout", type=click.FloatRange(0.0, 0.9), default=0.1, show_default=True,
              help="the share of the games held out of the fit, to report its loss on")
@click.option("--concurrency", type=click.IntRange(1, 256), default=1, show_default=True,
              help="games played at once (processes); the games do not depend on it")
@click.option("--data", type=click.Path(dir_okay=False), default="",
              help="keep the played games in this .npz file, or read them back from it when it exists")
@click.option("--add-data", type=click.Path(dir_okay=False, exists=True), multiple=True,
              help="games another run kept (its --data file: an earlier generation's), added to this run's "
                   "for the fit (repeatable)")
@click.option("--out", type=click.Path(dir_okay=False), default="",
              help="the weights file to write [default: GAME.v1.weights here]")
def train_eval(game: str, games: int, seed: int, nodes: int, opening_plies: int, options: tuple[str, ...],
               tables: bool, table_path: str, label_mix: float, label_depth: int, pattern_stride: str,
               steps: int, learning_rate: float, l2: float, holdout: float, concurrency: int, data: str, add_data: tuple[str, ...],
               out: str) -> None:
    """Train the learned draughts evaluation of GAME (the engine option Evaluation learned) on the
    engine's own games: self-play at NODES iterations a move, each position labelled by the
    game's result, the search's value (or an alpha-beta's, --label-depth) and the endgame
    tables; a logistic fit with numpy, its held-out loss printed; the weights written to a file
    (docs/search.md#the-learned-evaluation)."""
    from tqdm import tqdm

    try:
        g = get_game(game)
    except RulesError as err:
        raise click.UsageError(str(err)) from None
    if not isinstance(g, DraughtsGame):
        raise click.UsageError(f"{g.name}: the learned evaluation is for the draughts family only")
    play = PlayConfig(g.name, games, seed, nodes, opening_plies, _options(options),
                      (table_path or str(default_directory())) if tables else "", concurrency)
    try:
        play_settings(play)
    except (OptionError, RulesError) as err:
        raise click.BadParameter(str(err), param_hint="--option") from None
    config = TrainConfig(play, FitConfig(steps, learning_rate, l2, holdout, seed), label_mix, out, data, label_depth,
                         int(pattern_stride), add_data)

    def progress(iterable, **kwargs):
        return tqdm(iterable, file=sys.stderr, **kwargs)
    try:
        train(config, click.echo, progress)
    except (DataError, ValueError, OSError) as err:
        raise click.ClickException(str(err)) from None
