"""What root- and tree-parallel search share: this process's ``UctAgent``, the worker
pool, job numbers, the workers' settings and seeds, and notes about dead workers.

``Threads N`` = this process plus N-1 worker processes (``parallel.pool``).  With
``Seed`` set, worker i searches with ``Seed + i * SEED_STRIDE``; without, each worker
gets a fresh seed from this agent's generator.
"""
from __future__ import annotations

from dataclasses import replace

from ..parallel.messages import NewGame
from ..parallel.pool import Worker, WorkerPool, is_shared, shared_pool
from ..rules.base import Game
from .agent import Agent
from .settings import Settings
from .uct import UctAgent

SEED_STRIDE = 7919       # worker i searches with seed + i * SEED_STRIDE


class ParallelAgent(Agent):
    """Base of the parallel agents: ``local`` searches here, the pool's workers elsewhere."""

    def __init__(self, game: Game, settings: Settings, pool: WorkerPool | None = None):
        super().__init__(game, settings)
        self.local = UctAgent(game, settings)
        self.pool = pool or shared_pool()
        self.job = 0
        self.notes(self.pool.ensure(settings.threads - 1))
        self.pool.broadcast(NewGame())   # workers forget trees and reseed, as a new agent does

    def notes(self, texts: list[str]) -> None:
        """Pass the pool's notes on (as info strings in the engine)."""
        for text in texts:
            self.note(text)

    def new_game(self) -> None:
        super().new_game()
        self.local.new_game()
        self.pool.broadcast(NewGame())

    def close(self) -> None:
        """Stop the workers of a private pool (the shared pool lives until ``close_pool``)."""
        if not is_shared(self.pool):
            self.pool.close()

    def start_job(self) -> list[Worker]:
        """Before a search: replace dead workers, take a new job number; the live workers."""
        self.notes(self.pool.ensure(self.settings.threads - 1))
        self.job = self.pool.next_job()
        return self.pool.live()

    def worker_settings(self, worker: Worker) -> Settings:
        """The settings a worker searches with: ours, with its own seed and one thread."""
        seed = self.settings.seed
        if seed:
            seed = (seed + worker.index * SEED_STRIDE) % 2147483647 or 1
        else:
            seed = self.rng.randrange(1, 2147483647)
        return replace(self.settings, seed=seed, threads=1)

    def died(self, worker: Worker) -> None:
        """Report a worker that died during this search (it is replaced at the next one)."""
        self.note(worker.describe_death() + "; the search goes on without it")
        worker.dead = True

    def silent(self, worker: Worker) -> None:
        """Give up a worker that does not answer (it is killed now, replaced later)."""
        self.note(f"search worker {worker.index} (pid {worker.pid}) is not answering; searching without it")
        worker.stop(0.1)
