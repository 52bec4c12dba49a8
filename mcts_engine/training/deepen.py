"""Deeper labels: each training position valued by the search core's alpha-beta to a fixed depth.

The self-play search's own value of a position (a few thousand UCT iterations) is a label as
shallow as the evaluation that made it.  ``--label-depth D`` values every position the endgame
tables do not know by the core's alpha-beta (``Search.alphabeta``: the negamax of ``LeafDepth``
and ``RootCheck``, captures played out after ``D`` plies, over the evaluation the engine's
options choose), so that the fit learns what a search ``D`` plies deep sees from the position:
the shots, the men that are lost a few moves later.  Positions are valued in chunks by worker
processes; the values do not depend on how many (the alpha-beta is exact, its table only saves
work).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from ..mcts.core import new_search, position
from ..mcts.settings import Settings
from ..parallel.pool import ordered_map
from ..rules import get_game
from ..rules.draughts.state import DraughtsState
from .dataset import Positions

CHUNK = 512                  # positions a worker values at a time


@dataclass(frozen=True)
class DeepenJob:
    """``positions`` of ``game`` to value by the alpha-beta to ``depth`` plies under the engine
    ``settings``."""

    game: str
    settings: Settings
    depth: int
    positions: Positions


_SEARCHES: dict[tuple[str, Settings], object] = {}


def _search(game, settings: Settings):
    """One search per process and settings (its alpha-beta's table is kept between chunks)."""
    key = (game.name, settings)
    if key not in _SEARCHES:
        _SEARCHES[key] = new_search(game, settings, [1], random.Random(1), None)
    return _SEARCHES[key]


def value_chunk(job: DeepenJob) -> np.ndarray:
    """The alpha-beta's value of each of ``job``'s positions for its side to move."""
    game = get_game(job.game)
    search = _search(game, job.settings)
    out = np.empty(len(job.positions))
    for row in range(len(job.positions)):
        state = DraughtsState(game, *job.positions.masks(row))
        search.set_root(position(search, state))
        out[row] = search.alphabeta(job.depth)
    return out


def _jobs(game: str, settings: Settings, depth: int, positions: Positions) -> Iterator[DeepenJob]:
    for start in range(0, len(positions), CHUNK):
        rows = np.arange(start, min(start + CHUNK, len(positions)))
        yield DeepenJob(game, settings, depth, positions.take(rows))


def deepen(game: str, settings: Settings, depth: int, positions: Positions, concurrency: int,
           progress: Callable) -> np.ndarray:
    """The alpha-beta's value to ``depth`` plies of every position the tables do not know (the
    tables' verdict where they do), for its side to move; ``concurrency`` worker processes.
    ``progress(iterable, total=..., unit=..., desc=...)`` wraps the loop (tqdm)."""
    unknown = np.flatnonzero(positions.table < 0)
    values = positions.table.astype(np.float64).copy()
    jobs = _jobs(game, settings, depth, positions.take(unknown))
    bar = progress(None, total=len(unknown), unit="position", desc=f"depth {depth}")
    done = 0
    for part in ordered_map(value_chunk, jobs, concurrency):
        values[unknown[done:done + len(part)]] = part
        done += len(part)
        bar.update(len(part))
    bar.close()
    return values
