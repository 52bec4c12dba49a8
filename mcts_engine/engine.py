"""The engine façade: one searching player behind every protocol, as Stockfish's ``engine.cpp``.

The protocol sessions (ours, Hub, DXP) keep the options, the position and their output; the
``Engine`` owns the rest of a search: the agent the game and settings call for (its threads or
worker processes as ``agents.search_plan`` decides, the pool sized at once), the search job
on a thread of its own, pondering, and the move it gives.  It answers ``stop``, ``ponderhit``
and ``isready`` while a search runs, and guarantees exactly one ``finished`` per ``go``, also
when the agent fails (then its best move so far, or a legal move, and an error):

* an infinite or ponder search waits for stop (or ponderhit) even if the agent finishes
  early, so the move is never sent before the client asked for it;
* ponderhit turns a ponder search into a normal search with the go's own limits,
  continuing the same tree when ``TreeReuse`` is on (the clock starts at ponderhit).

The move comes from the search core's tree, whose moves the rules listed: it is legal by
construction, and nothing checks it again; moves stay move values until a dialect prints them.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Hashable, Protocol

from .agents import SearchPlan, make_agent, search_plan
from .mcts.agent import Agent, SearchFailed, SearchInfo, SearchResult
from .mcts.core import game_parameters
from .mcts.limits import Limits, now
from .mcts.settings import Settings
from .native import StopSignal
from .parallel.pool import close_pool, resize_pool
from .rules.base import Game, State

__all__ = ["Engine", "EngineOutput", "FinishedSearch", "GoRequest", "Limits", "SearchInfo", "Settings"]

JOIN_TIMEOUT = 10.0       # seconds to wait for a stopped search thread (the core stops within an iteration)

Move = object              # a move as the game's rules represent it (opaque here)


@dataclass(frozen=True)
class FinishedSearch:
    """The end of one ``go``: the move to play and what to report with it.

    ``move`` is None only when the position has no legal move (the game is over);
    ``ponder`` is the expected reply (the principal variation's second move); ``info`` is the
    final report when it was not delivered as progress already (deliver it first).
    """

    state: State
    move: Move | None
    ponder: Move | None = None
    info: SearchInfo | None = None

    def line(self) -> list[Move]:
        """The move, then the ponder move if there is one."""
        return [m for m in (self.move, self.ponder) if m is not None]


class EngineOutput(Protocol):
    """What the engine tells the session's dialect, which turns each call into its own text."""

    def info(self, state: State, info: SearchInfo) -> None:
        """A progress report of the search of ``state``."""

    def finished(self, done: FinishedSearch) -> None:
        """The search is over: its move (exactly once per search)."""

    def note(self, text: str) -> None:
        """Something the client should know (not an error)."""

    def error(self, text: str) -> None:
        """Something went wrong; the engine's state is unchanged."""


@dataclass(frozen=True)
class GoRequest:
    """One ``go``: the position (its state and its history, which identifies it for tree
    reuse), the limits, whether it ponders, and a move to play without searching (a single
    ``searchmoves``, a book move) with what to report of it (``forced_info``: a book move's
    score and line, whose second move is the ponder move), all already checked where they
    entered."""

    state: State
    history: tuple[Hashable, ...]
    limits: Limits
    ponder: bool = False
    forced: Move | None = None
    forced_info: SearchInfo | None = None
    ponder_root: State | None = None    # pondering: the position before the guessed move, searched instead


class _Job:
    """One ``go``: its search thread and how it may be interrupted (fields guarded by ``lock``)."""

    def __init__(self, request: GoRequest, agent: Agent):
        self.state = request.state.copy()
        self.request = request
        self.ponder = request.ponder   # pondering now (until ponderhit or stop)
        self.agent = agent
        self.lock = threading.Lock()
        self.stop = StopSignal()
        self.stopped = False           # a real stop: stop, quit, a new position, setoption, ...
        self.hit = False               # ponderhit received
        self.done = False              # move decided (the next go may start)
        self.thread: threading.Thread | None = None
        self.last_info: SearchInfo | None = None
        self.clock_start = now()       # the move's time counts from the go (from ponderhit when pondering)


class Engine:
    """One client's searching player: the agent for the game and settings in use, and at most
    one search."""

    def __init__(self, output: EngineOutput):
        self.output = output
        self.game: Game | None = None
        self.settings = Settings()
        self.plan = SearchPlan()
        self._agent: Agent | None = None
        self._agent_key: tuple | None = None
        self._job: _Job | None = None

    # --- what to search with ------------------------------------------------------------------
    def use(self, game: Game, settings: Settings) -> None:
        """Search ``game`` with ``settings`` from the next ``go`` on; worker processes for its
        ``Threads`` are started (or stopped) now, not at the next ``go``."""
        self.game, self.settings = game, settings
        plan = search_plan(game, settings)
        if plan.workers != self.plan.workers:
            for text in resize_pool(plan.workers):
                self.output.note(text)
        self.plan = plan

    def agent(self) -> Agent:
        """The agent for the game and settings in use (made again when they changed)."""
        key = (id(self.game), self.game.name, self.settings)
        if self._agent is None or self._agent_key != key:
            if self._agent is not None:
                self._agent.close()
            try:
                self._agent = make_agent(self.game, self.settings)
            except Exception as err:  # e.g. a Hash beyond the memory, weights of another board
                self._agent = self.fallback_agent(err)
            self._agent_key = key
            self._agent.on_note = self.output.note
        return self._agent

    def fallback_agent(self, err: Exception) -> Agent:
        """The agent to play with when the settings' one could not be made (``err``, said as an
        error line): the game's fallback parameters where it has them (draughts: the hand-set
        evaluation for weights that do not fit), else random moves."""
        fallback = self.game.search_fallback(game_parameters(self.game, self.settings), err)
        if fallback is not None:
            self.output.error(f"{err}; searching with {fallback.what} instead")
            return make_agent(self.game, replace(self.settings, game_parameters=fallback.parameters))
        why = (f"not enough memory for Hash {self.settings.hash_mb} MB per searcher"
               if isinstance(err, MemoryError) else f"{type(err).__name__}: {err}")
        self.output.error(f"cannot make agent {self.settings.agent}: {why}; playing random moves instead")
        return make_agent(self.game, Settings(agent="random", seed=self.settings.seed))

    def new_game(self) -> None:
        """Stop any search and forget what the agent learned (its tree, its statistics)."""
        self.stop()
        self.agent().new_game()

    # --- searching ----------------------------------------------------------------------------
    def searching(self) -> bool:
        """Whether a search is running (its move not decided yet)."""
        return self._job is not None and not self._job.done

    def go(self, request: GoRequest) -> None:
        """Search in the background; exactly one ``finished`` follows.  The caller checks that
        no search runs and that the position has a move (``Session.go``)."""
        self._join_finished()
        job = _Job(request, self.agent())
        job.thread = threading.Thread(target=self._run, args=(job,), name="search", daemon=True)
        self._job = job
        job.thread.start()

    def stop(self) -> None:
        """End the search now (its move is delivered) and wait for its thread; no search: nothing."""
        job = self._job
        if job is None:
            return
        with job.lock:
            job.stopped = True
            job.stop.set()
        if job.thread is not None:
            job.thread.join(JOIN_TIMEOUT)
        self._job = None

    def ponderhit(self) -> None:
        """The pondered move was played: the ponder search goes on as a normal search."""
        job = self._job
        if job is None:
            return
        with job.lock:
            if job.ponder and not job.hit and not job.done:
                job.hit = True
                job.clock_start = now()
                job.stop.set()

    def close(self) -> None:
        """Stop any search, the agent's threads and the worker processes."""
        self.stop()
        if self._agent is not None:
            self._agent.close()
        close_pool()

    def _join_finished(self) -> None:
        """Forget a finished search whose thread may still be exiting."""
        if self._job is not None:
            if self._job.thread is not None:
                self._job.thread.join(JOIN_TIMEOUT)
            self._job = None

    def _run(self, job: _Job) -> None:
        """The search thread: search (again after a ponderhit), then deliver the move once."""
        try:
            result = self._search(job)
        except SearchFailed as err:   # the error, and the best move the search had found
            result = err.result
            found = (f"playing its best move after {result.info.nodes} iterations" if result is not None
                     else "no iteration finished: playing a legal move")
            self.output.error(f"search failed: {err}; {found}")
        except Exception as err:  # never let a search failure lose the move
            self.output.error(f"search failed: {type(err).__name__}: {err}; playing a legal move")
            result = None
        self._finish(job, result)

    def _search(self, job: _Job) -> SearchResult | None:
        request = job.request
        while True:
            pondering = job.ponder
            with job.lock:
                stop = job.stop
            limits = Limits(infinite=True) if pondering else replace(request.limits, received=job.clock_start)
            if pondering and request.ponder_root is not None:
                # every reply of the position before the guess, no info lines (they would be the
                # opponent's); the next search, the guess's or the played move's, resumes its subtree
                job.agent.search(request.ponder_root.copy(), limits, stop, None, request.history[:-1])
                result = None     # its move is the opponent's: a stopped ponder's move is dropped anyway
            elif request.forced is not None:
                info = request.forced_info or SearchInfo(nodes=0, pv=[request.forced])
                result = SearchResult(request.forced, info.pv[1] if len(info.pv) > 1 else None, info)
            else:
                result = job.agent.search(job.state.copy(), limits, stop, lambda info: self._progress(job, info),
                                          request.history)
            if pondering or limits.infinite:
                stop.wait()       # UCI: no move before stop (or ponderhit) in these modes
            with job.lock:
                if pondering and job.hit and not job.stopped:
                    job.ponder = False
                    job.stop = StopSignal()
                    continue      # ponderhit: a normal search with the go's limits
            return result

    def _progress(self, job: _Job, info: SearchInfo) -> None:
        job.last_info = info
        self.output.info(job.state, info)

    def _finish(self, job: _Job, result: SearchResult | None) -> None:
        """Mark the job done and deliver the move exactly once: the agent's, or where it has
        none (it failed before any iteration) the first legal move."""
        state = job.state
        done = FinishedSearch(state, result.move if result is not None else None)
        if result is None or result.move is None:
            try:
                legal = state.legal_moves()
            except Exception as err:     # the rules fail on this position: no move to give
                self.output.error(f"no legal move can be listed: {type(err).__name__}: {err}")
                legal = []
            done = FinishedSearch(state, legal[0] if legal else None)
        else:
            info = result.info
            fresh = info is not None and (job.last_info is None or (info is not job.last_info
                                                                   and info != job.last_info))
            done = FinishedSearch(state, result.move, result.ponder, info if fresh else None)
        with job.lock:
            job.done = True       # before the move is out: a client may send the next go at once
        try:
            self.output.finished(done)
        except Exception as err:  # a move the dialect cannot write: still answer the go
            self.output.error(f"cannot report the move: {type(err).__name__}: {err}")
            self.output.finished(FinishedSearch(state, None))
