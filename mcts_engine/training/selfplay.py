"""The training games: the engine against itself at a fixed number of iterations a move.

Each game is seeded from the run's seed and its number (``game_seed``): its opening (a few
uniformly random plies, so that the games spread over many positions) and the searches (the
engine's ``Seed`` with a node limit: the same moves every run).  So the same run plays the same
games on one process or several, in the same order.  Every position after the opening is
recorded with the search's value for its side to move and, where the endgame tables reach it,
their verdict.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Iterator

from ..agents import make_agent
from ..mcts.limits import Limits
from ..mcts.settings import Settings
from ..native import StopSignal
from ..parallel.pool import ordered_map
from ..protocol.options import OptionValues
from ..rules import get_game
from ..tables import TableSet, opened_tables

HASH_MB = 16             # each search's tree: ample for the few thousand iterations of a training move
MAX_PLIES = 1000         # a game still running after this many plies counts as a draw


@dataclass(frozen=True)
class PlayConfig:
    """What games to play: ``games`` of ``game``, from ``seed``, ``nodes`` iterations a move after
    ``opening_plies`` random plies, the engine set by ``options`` (name, value pairs, over the
    game's measured defaults); ``tables``: the endgame tables' directory for the labels ("" = none);
    ``concurrency``: processes playing at once (the games and their order do not depend on it)."""

    game: str
    games: int
    seed: int
    nodes: int
    opening_plies: int
    options: tuple[tuple[str, str], ...] = ()
    tables: str = ""
    concurrency: int = 1


@dataclass
class GameRecord:
    """One game's positions (the side to move's pieces ``own``, the other's ``opp``, the kings,
    who moves), each with the search's value for its side to move (``search``) and the tables'
    (``table``: the side to move's result, -1 where they do not know), and the first player's
    ``result``."""

    own: list[int] = field(default_factory=list)
    opp: list[int] = field(default_factory=list)
    kings: list[int] = field(default_factory=list)
    turn: list[int] = field(default_factory=list)
    search: list[float] = field(default_factory=list)
    table: list[float] = field(default_factory=list)
    result: float = 0.5


def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s seed in a run of ``seed`` (never 0, which the engine reads as fresh)."""
    return random.Random(f"train-eval {seed} {index}").getrandbits(31) or 1


def play_settings(config: PlayConfig) -> Settings:
    """The engine's settings for the training games: the game's measured defaults, then
    ``config.options``; one searcher, a small tree (OptionError on a bad option)."""
    values = OptionValues()
    values.set_game(config.game)
    for name, value in config.options:
        values.apply(values.check(name, value))
    return replace(values.settings(), hash_mb=HASH_MB, threads=1)


def _tables(game, directory: str) -> TableSet | None:
    """The endgame tables of ``game`` under ``directory`` (None: none), the process's agents'
    own (``opened_tables``), read whole before a search probes them: a search that found a table
    one run and not the next, as the background reader had or had not reached it, played
    other games from the same seed."""
    tables = opened_tables(game, directory) if directory and game.endgame_tables else None
    if tables is not None:
        tables.load()
    return tables


def play_game(config: PlayConfig, settings: Settings, index: int) -> GameRecord:
    """Training game number ``index`` of the run."""
    game = get_game(config.game)
    seed = game_seed(config.seed, index)
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(config.opening_plies):
        if state.outcome() is not None:
            break
        state.play(state.random_move(rng))
    _tables(game, settings.endgame_tables)            # the agent's own, read before it searches
    tables = _tables(game, config.tables)
    agent = make_agent(game, replace(settings, seed=seed))
    record = GameRecord()
    try:
        while state.outcome() is None and state.ply < MAX_PLIES:
            found = agent.search(state, Limits(nodes=config.nodes), StopSignal())
            hit = tables.probe(state) if tables is not None else None
            record.own.append(state.own)
            record.opp.append(state.opp)
            record.kings.append(state.kings)
            record.turn.append(state.turn)
            record.search.append(float(found.info.score))
            record.table.append(-1.0 if hit is None else (hit.result if state.turn == 0 else 1.0 - hit.result))
            state.play(found.move)
    finally:
        agent.close()
    outcome = state.outcome()
    record.result = 0.5 if outcome is None else float(outcome)
    return record


def _play_one(job: tuple[PlayConfig, Settings, int]) -> GameRecord:
    return play_game(*job)


def play_games(config: PlayConfig) -> Iterator[GameRecord]:
    """The run's games in order, played ``config.concurrency`` at a time (worker processes)."""
    settings = play_settings(config)
    jobs = ((config, settings, i) for i in range(config.games))
    yield from ordered_map(_play_one, jobs, config.concurrency)
