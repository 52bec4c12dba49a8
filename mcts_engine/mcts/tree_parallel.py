"""Tree-parallel UCT (``Parallel tree``): one tree here, playouts farmed out to the workers.

Each step of the search loop is a batch: this process descends ``Tree.descend`` with
virtual loss (the visit counted on the way down, so the next descent of the batch looks
elsewhere) once per leaf, sends each worker its share as a ``PlayoutJob`` as soon as it
is selected (so selecting the next share overlaps the workers' playouts), runs its own
share, then backs every result up.  Leaves whose playout never ran (a stop, a dead
worker) are undone deepest-first.  Worth it where a playout costs much more than the
tree work (Life, Rithmomachia).

Batches aim at ``BATCH_SECONDS`` of playouts; under a pure node limit they have a fixed
size (``BATCH_LEAVES`` per searcher) and each batch's playouts are seeded from the seed
and the batch number, so a seeded search is reproducible.
"""
from __future__ import annotations

import random
import threading
from typing import Hashable

from ..parallel.messages import JobFailed, PlayoutJob, PlayoutResults, StopJob
from ..parallel.pool import Worker
from ..rules.base import State
from .agent import InfoCallback, SearchResult
from .limits import Limits, now, split_nodes
from .parallel_agent import ParallelAgent
from .searcher import Progress, Searcher
from .tree import Leaf, Tree, backup

BATCH_LEAVES = 8         # leaves per searcher in a batch (the start, and always under a node limit)
MAX_BATCH_LEAVES = 64
BATCH_SECONDS = 0.02     # adaptive batches aim at this much playout time
PLAYOUT_WAIT = 60.0      # seconds a worker may take for a batch before it is given up


class TreeParallelAgent(ParallelAgent):
    """Tree parallel search: this process's tree, every searcher's playouts."""

    def search(self, state: State, limits: Limits, stop: threading.Event,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Search in batches until a limit."""
        self.start_job()
        self.local.warm_tables(state)
        searcher = Searcher(limits, stop, on_info, self.settings)
        tree = self.local.search_tree(state, limits, history)
        batches = _Batches(adaptive=not limits.nodes_only())

        def step(progress: Progress) -> None:
            self._batch(tree, state, searcher.remaining(), batches, stop, progress)

        try:
            info = searcher.run(tree, step)
        except BaseException:
            self.local.forget_tree()
            raise
        return self.local.result(tree, state, info)

    def _batch(self, tree: Tree, state: State, remaining: int | None, batches: "_Batches",
               stop: threading.Event, progress: Progress) -> None:
        """One batch: select, play out (here and on the workers), back up."""
        workers = [w for w in self.pool.live() if w.index not in batches.given_up]
        sizes = [batches.per_searcher] * (1 + len(workers))
        if remaining is not None:
            sizes = split_nodes(min(sum(sizes), remaining), len(sizes))
        t0 = now()
        leaves = self._select_and_play(tree, state, sizes, workers, batches, stop)
        amaf = self.settings.amaf
        for leaf in reversed(leaves):   # deepest first, so a dropped leaf's parent can go too
            if leaf.result is None:
                tree.undo_virtual_loss(leaf.path)
        for leaf in leaves:
            progress.descended(leaf.depth)
            if leaf.result is not None:
                backup(leaf.path, leaf.result, counted=True)
                if amaf:
                    tree.backup_amaf(leaf.path, leaf.moves, leaf.result)
                progress.iterations += 1
        batches.done(now() - t0)

    def _select_and_play(self, tree: Tree, state: State, sizes: list[int], workers: list[Worker],
                         batches: "_Batches", stop: threading.Event) -> list[Leaf]:
        """Select ``sizes[i]`` leaves for searcher i (0 = this process), each worker's share
        sent as soon as it is selected; run this share; gather the workers'.  Returns the
        leaves, whose result is None where a playout did not run (after ``stop``, or a
        worker died or failed the batch: such a worker is given up for this search)."""
        local = self.local
        rng = local.rng
        base = self.settings.seed or self.rng.randrange(1, 2147483647)
        seeds = [hash((base, batches.number, i)) & 0x7FFFFFFF for i in range(len(sizes))]
        leaves, sent = [], []
        for i in list(range(1, len(sizes))) + [0]:
            share = [tree.descend(state.copy(), rng, virtual_loss=True) for _ in range(sizes[i])]
            leaves.extend(share)
            pending = [leaf for leaf in share if leaf.result is None]
            if not pending:
                continue
            if i == 0:
                policy, local_rng = local.policy, random.Random(seeds[0])
                for leaf in pending:
                    if stop.is_set():
                        break
                    if self.settings.amaf:
                        record = policy.run_recorded(leaf.state, local_rng)
                        leaf.result, leaf.moves = record.outcome, record.moves
                    else:
                        leaf.result = policy.run(leaf.state, local_rng)
            elif workers[i - 1].send(PlayoutJob(self.job, [leaf.state for leaf in pending], seeds[i],
                                                self.settings)):
                sent.append((workers[i - 1], pending))
            else:
                self.died(workers[i - 1])
        if stop.is_set():
            for w, _ in sent:
                w.send(StopJob(self.job))
        for w, pending in sent:
            answer = self._await_playouts(w)
            if answer is None:
                batches.given_up.add(w.index)
                continue
            for leaf, result in zip(pending, answer.results):
                leaf.result = result
            if answer.moves is not None:
                for leaf, moves in zip(pending, answer.moves):
                    leaf.moves = moves
        return leaves

    def _await_playouts(self, w: Worker) -> PlayoutResults | None:
        """The worker's results for this job's batch (none if it died or hangs; None if it
        failed the batch: it lives, but gets no more of this search's batches)."""
        deadline = now() + PLAYOUT_WAIT
        while True:
            try:
                msg = w.recv(max(0.0, deadline - now()))
            except EOFError:
                self.died(w)
                return PlayoutResults(self.job, [])
            if msg is None:
                self.silent(w)
                return PlayoutResults(self.job, [])
            if isinstance(msg, PlayoutResults) and msg.job == self.job:
                return msg
            if isinstance(msg, JobFailed) and msg.job == self.job:
                self.note(f"search worker {w.index} failed: {msg.error}; the search goes on without it")
                return None


class _Batches:
    """The batch size and number of one tree-parallel search, and the workers it gave up."""

    def __init__(self, adaptive: bool):
        self.adaptive = adaptive
        self.per_searcher = BATCH_LEAVES
        self.number = 0
        self.given_up: set[int] = set()    # indices of workers that failed a batch of this search

    def done(self, seconds: float) -> None:
        """A batch took ``seconds``: count it, and (adaptive) size the next for BATCH_SECONDS."""
        self.number += 1
        if self.adaptive:
            scaled = int(self.per_searcher * BATCH_SECONDS / seconds) if seconds > 0 else MAX_BATCH_LEAVES
            self.per_searcher = max(1, min(MAX_BATCH_LEAVES, scaled))
