"""The messages between the engine and its worker processes, one dataclass each.

The transport knows no search: engine -> worker, a ``Task`` (any picklable object with a
job number and ``run``: the search defines its own, ``mcts/root_parallel.py``), ``StopJob``
and ``Quit``; worker -> engine, ``Ready``, ``JobFailed`` and whatever a task sends.

Every task has a number, rising across the pool's life: the engine drops replies of old
jobs, and a stop of job k stops every job up to k.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from ..native import StopSignal


class Task(Protocol):
    """Work a worker runs: ``run(context, stop, send)``.  ``context`` is the worker's own dict,
    kept across tasks (an agent reused from one search to the next); ``stop`` is set when a
    ``StopJob`` covers the task; ``send`` replies to the engine."""

    job: int

    def run(self, context: dict, stop: StopSignal, send: Callable[[Any], None]) -> None:
        """Do the work, replying with ``send``."""


@dataclass(frozen=True)
class StopJob:
    """Stop every job up to and including ``job`` (one that has not started yet, too)."""

    job: int


@dataclass(frozen=True)
class Quit:
    """Exit."""


@dataclass(frozen=True)
class Ready:
    """The worker has started and waits for tasks."""

    index: int


@dataclass(frozen=True)
class JobFailed:
    """A task raised ``error`` in the worker; the worker lives on."""

    job: int
    error: str
