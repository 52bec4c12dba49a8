"""The dialect-neutral engine session: options, game, position, agent and search thread.

A dialect (``uci.py``, ``hub.py``) reads its commands and calls the session; the
session answers through the ``SessionOutput`` the dialect gives it, with typed
values (``SearchInfo``, ``FinishedSearch``), and never writes protocol text itself.

Searching: ``go`` starts the agent in a background thread while the dialect keeps
reading, so stop, ponderhit, isready and queries are answered during a search.
Exactly one ``FinishedSearch`` follows every ``go`` that started a search, also when
the agent fails (then a legal move is played and an error reported):

* an infinite or ponder search waits for stop (or ponderhit) even if the agent
  finishes early, so the move is never sent before the client asked for it;
* ponderhit turns a ponder search into a normal search with the go's own limits,
  continuing the same tree when ``TreeReuse`` is on (the clock starts at ponderhit).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

from ..agents import make_agent
from ..mcts.agent import Agent, SearchFailed, SearchInfo, SearchResult
from ..mcts.limits import Limits
from ..mcts.settings import Settings
from ..parallel.pool import close_pool, resize_pool
from ..rules import Game, State
from ..rules.base import IllegalMove
from ..echo import short
from .errors import ProtocolError
from .options import OptionChange, OptionValues

ENGINE_NAME = "mcts-engine"
ENGINE_AUTHOR = "mcts-engine developers"
JOIN_TIMEOUT = 10.0       # seconds to wait for a stopped search thread
PLAYERS = ("first player", "second player")
COLOUR_NAMES = {"W": "White", "B": "Black"}

Move = object              # a move as the game's rules represent it (opaque here)
MoveParser = Callable[[State, str], Move]


def side_name(game: Game, player: int, numbered: bool = False) -> str:
    """The side ``player`` (0 = who moves first) in words: ``Black (first player)``.

    ``numbered`` adds the protocol's player name: ``Black (p1, first player)``.
    Shared by ``d`` and by ``mcts-engine play`` so that both name a side alike.
    """
    name = f"p{player + 1}, {PLAYERS[player]}" if numbered else PLAYERS[player]
    colour = game.colours[player] if game.colours else None
    return f"{COLOUR_NAMES.get(colour, colour)} ({name})" if colour else name


def outcome_words(outcome: float) -> str:
    """A finished game's result in words."""
    return {1.0: "the first player has won", 0.0: "the second player has won"}.get(outcome, "it is a draw")


@dataclass(frozen=True)
class Position:
    """The current position and how it was reached: start FEN plus the moves (our notation).

    ``waived`` lists the plies at which a draw of our draw rules was waived because the
    client, the arbiter, played on (``build_position(..., arbiter=True)``).
    ``history()`` identifies the position for tree reuse, whatever dialect set it.
    """

    state: State
    start_fen: str
    moves: tuple[str, ...] = ()
    waived: tuple[int, ...] = ()

    def history(self) -> tuple[str, ...]:
        """(start FEN, move, move, ...); the start marked with the waived draws, if any, so that
        no search resumes a subtree that was searched as a drawn end."""
        start = self.start_fen if not self.waived else f"{self.start_fen} (play on at {self.waived})"
        return (start, *self.moves)


def build_position(start: State, moves: Iterable[str], parse_move: MoveParser | None = None,
                   arbiter: bool = False) -> Position:
    """``start`` (a fresh State, played on in place) after the move texts ``moves``.

    ``parse_move(state, text)`` reads one move (default: the game's notation).
    ``arbiter``: the client judges the end of the game (Hub, DXP): where our draw rules
    call the game drawn and the client plays on, or asks for a move, the draw is waived
    (``State.play_on``).  Raises IllegalMove naming the bad move and its number.
    """
    parse_move = parse_move or (lambda state, text: state.parse_move(text))
    start_fen = start.fen()
    played: list[str] = []
    waived: list[int] = []
    for text in moves:
        if arbiter and start.play_on():
            waived.append(len(played))
        try:
            move = parse_move(start, text)
        except IllegalMove as err:
            raise IllegalMove(f"move {short(text)!r} (number {len(played) + 1}): {err}") from None
        played.append(start.move_str(move))
        start.play(move)
    if arbiter and start.play_on():
        waived.append(len(played))
    return Position(start, start_fen, tuple(played), tuple(waived))


def move_texts(state: State, moves: Iterable[Move], notation: Callable[[State, Move], str]) -> list[str]:
    """``moves`` played one after another from ``state`` (on a copy), each written by
    ``notation(position, move)`` in the position it is played from; stops at the first
    move that is not legal there.  Every dialect writes PVs and ponder moves this way."""
    walker, out = state.copy(), []
    for move in moves:
        if move not in walker.legal_moves():
            break
        out.append(notation(walker, move))
        walker.play(move)
    return out


@dataclass(frozen=True)
class FinishedSearch:
    """The end of one ``go``: the move to play and what to report with it.

    ``move`` is None only when the position has no legal move (the game is over);
    ``ponder`` is the expected reply, legal after ``move``; ``info`` is the final
    report when it was not delivered as progress already (deliver it first).
    """

    state: State
    move: Move | None
    ponder: Move | None = None
    info: SearchInfo | None = None

    def line(self) -> list[Move]:
        """The move, then the ponder move if there is one."""
        return [m for m in (self.move, self.ponder) if m is not None]


class SessionOutput(Protocol):
    """What a session tells its dialect; the dialect turns each call into its own text."""

    def info(self, state: State, info: SearchInfo) -> None:
        """A progress report of the search of ``state``."""

    def finished(self, done: FinishedSearch) -> None:
        """The search is over: its move (exactly once per search)."""

    def note(self, text: str) -> None:
        """Something the client should know (not an error)."""

    def error(self, text: str) -> None:
        """Something went wrong; the session's state is unchanged."""


class _Job:
    """One ``go``: its search thread and how it may be interrupted (fields guarded by ``lock``)."""

    def __init__(self, position: Position, limits: Limits, ponder: bool, forced: Move | None, agent: Agent):
        self.state = position.state.copy()
        self.history = position.history()
        self.limits = limits
        self.ponder = ponder          # pondering now (until ponderhit or stop)
        self.forced = forced          # a move to play without searching (single searchmoves)
        self.agent = agent
        self.lock = threading.Lock()
        self.stop_event = threading.Event()
        self.stopped = False          # a real stop: stop, quit, a new position, setoption, ...
        self.hit = False              # ponderhit received
        self.done = False             # move decided (the next go may start)
        self.thread: threading.Thread | None = None
        self.last_info: SearchInfo | None = None


class Session:
    """One client's engine: option values, game, position, agent and at most one search."""

    def __init__(self, output: SessionOutput):
        self.output = output
        self.options = OptionValues()
        self.game: Game = self.options.game()
        self.position = self.start_position()
        self.agent: Agent | None = None
        self._agent_key: tuple | None = None
        self._job: _Job | None = None
        self.closed = False

    @property
    def state(self) -> State:
        """The current position's state (do not play on it: copy first)."""
        return self.position.state

    # --- options -------------------------------------------------------------------------
    def check_option(self, name: str, value: str | None) -> OptionChange:
        """Validate an option change; raises OptionError and changes nothing (not even a search)."""
        return self.options.check(name, value)

    def apply_option(self, change: OptionChange) -> None:
        """Stop any search, then apply a checked change; a new game resets the position to its start."""
        self.stop()
        self.options.apply(change)
        if change.game is not None:
            self.game = change.game
            self.position = self.start_position()
            self.agent = None
        if change.key == "threads" or change.game is not None:
            self.sync_workers()

    def sync_workers(self) -> None:
        """Start (or stop) the worker processes now, not at the next go: Threads - 1 of them for
        a game on its Python rules, none for a game whose rules are native (its threads are OS
        threads of this process)."""
        threads = self.options.values["threads"]
        for text in resize_pool(0 if self.game.native else threads - 1):
            self.output.note(text)

    def set_option(self, name: str, value: str | None) -> None:
        """Check, then apply an option change."""
        self.apply_option(self.check_option(name, value))

    # --- position and game ---------------------------------------------------------------
    def start_position(self) -> Position:
        """The game's start position with no moves."""
        state = self.game.new_state()
        return Position(state, state.fen())

    def set_position(self, position: Position) -> None:
        """Stop any search, then make ``position`` current (built by ``build_position``)."""
        self.stop()
        self.position = position

    def new_game(self) -> None:
        """Stop any search, forget the search tree and history; back to the start position."""
        self.stop()
        self.get_agent().new_game()
        self.position = self.start_position()

    def game_over(self) -> str | None:
        """Why the current position cannot be searched (the game is over), or None."""
        outcome = self.state.outcome()
        if outcome is None:
            return None
        return f"the game is over ({outcome_words(outcome)}): no move to search"

    # --- the agent -------------------------------------------------------------------------
    def get_agent(self) -> Agent:
        """The agent for the current game and options (rebuilt when they changed)."""
        settings = self.options.settings()
        key = (id(self.game), self.game.name, settings)
        if self.agent is None or self._agent_key != key:
            try:
                self.agent = make_agent(self.game, settings)
            except Exception as err:  # e.g. an agent module that cannot be imported, a Hash beyond the memory
                why = (f"not enough memory for Hash {settings.hash_mb} MB per searcher" if isinstance(err, MemoryError)
                       else f"{type(err).__name__}: {err}")
                self.output.error(f"cannot make agent {settings.agent}: {why}; playing random moves instead")
                self.agent = make_agent(self.game, Settings(agent="random", seed=settings.seed))
            self._agent_key = key
            self.agent.on_note = self.output.note
        return self.agent

    # --- searching ---------------------------------------------------------------------------
    def searching(self) -> bool:
        """Whether a search is running (its move not decided yet)."""
        return self._job is not None and not self._job.done

    def check_idle(self) -> None:
        """Raise ProtocolError if a search is running (a go must wait for its move)."""
        if self.searching():
            raise ProtocolError("already searching; send stop first (go ignored)")

    def go(self, limits: Limits, ponder: bool = False, forced: Move | None = None) -> None:
        """Search the current position in the background; exactly one ``finished`` follows.

        ``forced`` is played without a search; on a finished game the answer is at
        once a note saying why and a move-less ``finished``, and so it is (with an error)
        on a position the rules cannot judge.  Raises ProtocolError while a search runs.
        """
        self.check_idle()
        try:
            why = self.game_over()
        except Exception as err:     # a position the rules cannot judge (rule options they took but cannot play)
            self.output.error(f"the position cannot be searched: {type(err).__name__}: {err}")
            self.output.finished(FinishedSearch(self.state, None))
            return
        if why is not None:
            self.output.note(why)
            self.output.finished(FinishedSearch(self.state, None))
            return
        self._join_finished()
        job = _Job(self.position, limits, ponder, forced, self.get_agent())
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
            job.stop_event.set()
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
                job.stop_event.set()

    def shutdown(self) -> None:
        """Stop any search and the worker processes; the session is closed."""
        self.closed = True
        self.stop()
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

    def _search(self, job: _Job) -> SearchResult:
        while True:
            pondering = job.ponder
            with job.lock:
                event = job.stop_event
            limits = Limits(infinite=True) if pondering else job.limits
            if job.forced is not None:
                result = SearchResult(job.forced, None, SearchInfo(nodes=0, pv=[job.forced]))
            else:
                result = job.agent.search(job.state.copy(), limits, event,
                                          lambda info: self._progress(job, info), job.history)
            if pondering or limits.infinite:
                event.wait()      # UCI: no move before stop (or ponderhit) in these modes
            with job.lock:
                if pondering and job.hit and not job.stopped:
                    job.ponder = False
                    job.stop_event = threading.Event()
                    continue      # ponderhit: a normal search with the go's limits
            return result

    def _progress(self, job: _Job, info: SearchInfo) -> None:
        job.last_info = info
        self.output.info(job.state, info)

    def _finish(self, job: _Job, result: SearchResult | None) -> None:
        """Check the agent's move, mark the job done, and deliver the move exactly once."""
        state = job.state
        try:
            legal = state.legal_moves()
        except Exception as err:     # the rules fail on this position: no move to give
            self.output.error(f"no legal move can be listed: {type(err).__name__}: {err}")
            legal, result = [], None
        move = result.move if result is not None else None
        if move not in legal:
            if result is not None:
                self.output.error(f"search returned an illegal move {move!r}; playing a legal one")
            move = legal[0] if legal else None
        done = FinishedSearch(state, move)
        if result is not None and move is not None:
            info = result.info
            fresh = info is not None and (job.last_info is None or (info is not job.last_info
                                                                   and info != job.last_info))
            ponder = None
            if result.ponder is not None:
                after = state.copy()
                after.play(move)
                if result.ponder in after.legal_moves():
                    ponder = result.ponder
            done = FinishedSearch(state, move, ponder, info if fresh else None)
        with job.lock:
            job.done = True       # before the move is out: a client may send the next go at once
        try:
            self.output.finished(done)
        except Exception as err:  # a move the dialect cannot write: still answer the go
            self.output.error(f"cannot report the move: {type(err).__name__}: {err}")
            self.output.finished(FinishedSearch(state, None))
