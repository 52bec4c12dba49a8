"""The messages between the engine and its search workers, one dataclass each.

Engine -> worker: ``SearchJob`` (root parallel: grow your own tree), ``PlayoutJob``
(tree parallel: finish these positions), ``StopJob``, ``NewGame``, ``Quit``.
Worker -> engine: ``Ready``, ``SearchReport`` (progress, and the final one with the
move), ``PlayoutResults``, ``JobFailed``.

Every job has a number, rising across the pool's life: a worker ignores nothing, but
the engine drops replies of old jobs, and a stop of job k stops every job up to k.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..mcts.final import RootChild
from ..mcts.limits import Limits
from ..mcts.settings import Settings
from ..rules.base import Game, State


# --- engine -> worker ----------------------------------------------------------------

@dataclass(frozen=True)
class SearchJob:
    """Search ``state`` of ``game`` in your own tree (root parallel) and report its root statistics.

    The game travels with the state (a registered game pickles as its name and options):
    the rules contract gives a state no ``game`` to ask for.
    """

    job: int
    game: Game
    state: State
    limits: Limits
    history: tuple
    settings: Settings


@dataclass(frozen=True)
class PlayoutJob:
    """Play each of ``states`` out with the settings' playout policy, seeded by ``seed``."""

    job: int
    states: list
    seed: int
    settings: Settings


@dataclass(frozen=True)
class StopJob:
    """Stop every job up to and including ``job`` (one that has not started yet, too)."""

    job: int


@dataclass(frozen=True)
class NewGame:
    """Forget the trees and playout statistics of the last game."""


@dataclass(frozen=True)
class Quit:
    """Exit."""


# --- worker -> engine ----------------------------------------------------------------

@dataclass(frozen=True)
class Ready:
    """The worker has started and waits for jobs."""

    index: int


@dataclass(frozen=True)
class SearchReport:
    """A root-parallel searcher's statistics: progress while searching, then the final
    report (``final``) with the move that searcher would play."""

    job: int
    nodes: int
    children: list[RootChild]
    seldepth: int
    pv: list = field(default_factory=list)
    depth: float = 0.0
    move: object = None
    final: bool = False
    hashfull: int | None = None


@dataclass(frozen=True)
class PlayoutResults:
    """The first player's result of each playout of a ``PlayoutJob``, in order; shorter than
    the job's list if it was stopped."""

    job: int
    results: list[float]
    moves: list[list] | None = None   # RAVE/GRAVE (Settings.amaf): each playout's (player, move)s


@dataclass(frozen=True)
class JobFailed:
    """A job raised ``error`` in the worker; the worker lives on."""

    job: int
    error: str
