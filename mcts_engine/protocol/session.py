"""The dialect-neutral engine session: options, game, position, and the engine that searches.

A dialect (``uci.py``, ``hub.py``, ``dxp.py``) reads its commands and calls the session; the
session answers through the ``SessionOutput`` the dialect gives it, with typed values
(``SearchInfo``, ``FinishedSearch``), and never writes protocol text itself.  The search
itself (its thread, threads or worker processes, pondering, the move) is the engine
façade's (``mcts_engine/engine.py``); the session hands it the position and the limits.

Moves enter as client text and are checked once, where they enter (``build_position``,
the dialects' ``searchmoves``); from there on they are the rules' move values, printed only
by the dialects.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from ..book import BookReader
from ..echo import short
from ..engine import Engine, EngineOutput, FinishedSearch, GoRequest, Limits, SearchInfo
from ..rules import Game, State, parse_rule_options
from ..rules.base import IllegalMove
from .errors import ProtocolError
from .options import OptionChange, OptionValues

ENGINE_NAME = "mcts-engine"
ENGINE_AUTHOR = "mcts-engine developers"
PLAYERS = ("first player", "second player")
COLOUR_NAMES = {"W": "White", "B": "Black"}

Move = object              # a move as the game's rules represent it (opaque here)
MoveParser = Callable[[State, str], Move]
_END = object()            # no more moves


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
    """The current position and how it was reached: the start FEN plus the moves played (the
    rules' move values, checked when they entered).

    ``waived`` lists the plies at which a draw of our draw rules was waived because the
    client, the arbiter, played on (``build_position(..., arbiter=True)``).
    ``history()`` identifies the position for tree reuse, whatever dialect set it.
    """

    state: State
    start_fen: str
    moves: tuple[Move, ...] = ()
    waived: tuple[int, ...] = ()

    def history(self) -> tuple:
        """(start FEN, move, move, ...); the start marked with the waived draws, if any, so that
        no search resumes a subtree that was searched as a drawn end."""
        start = self.start_fen if not self.waived else f"{self.start_fen} (play on at {self.waived})"
        return (start, *self.moves)


def build_position(start: State, moves: Iterable[str], parse_move: MoveParser | None = None,
                   arbiter: bool = False) -> Position:
    """``start`` (a fresh State, played on in place) after the client's move texts ``moves``,
    each checked here, where it enters.

    ``parse_move(state, text)`` reads one move (default: the game's notation).
    ``arbiter``: the client judges the end of the game (Hub, DXP): where our draw rules
    call the game drawn and the client plays on, or asks for a move, the draw is waived
    (``State.play_on``).  Raises IllegalMove naming the bad move and its number.
    """
    parse = parse_move or (lambda state, text: state.parse_move(text))

    def parsed():
        for number, text in enumerate(moves, 1):
            try:
                yield parse(start, text)
            except IllegalMove as err:
                raise IllegalMove(f"move {short(text)!r} (number {number}): {err}") from None
    return replay(start, parsed(), arbiter)


def replay(start: State, moves: Iterable[Move], arbiter: bool = False) -> Position:
    """``start`` (a fresh State, played on in place) after ``moves``, each taken (or read, by
    ``build_position``) in the position it is played from; ``arbiter`` as there."""
    start_fen = start.fen()
    played: list = []
    waived: list[int] = []
    pending = iter(moves)
    while True:
        if arbiter and start.play_on():
            waived.append(len(played))
        move = next(pending, _END)
        if move is _END:
            return Position(start, start_fen, tuple(played), tuple(waived))
        played.append(move)
        start.play(move)


def move_texts(state: State, moves: Iterable[Move], notation: Callable[[State, Move], str]) -> list[str]:
    """``moves`` played one after another from ``state`` (on a copy), each written by
    ``notation(position, move)`` in the position it is played from: how every dialect writes
    PVs and ponder moves (the search's lines, legal by construction)."""
    walker, out = state.copy(), []
    for move in moves:
        out.append(notation(walker, move))
        walker.play(move)
    return out


class SessionOutput(EngineOutput):
    """What a session tells its dialect; the dialect turns each call into its own text."""

    def info(self, state: State, info: SearchInfo) -> None:
        """A progress report of the search of ``state``."""

    def finished(self, done: FinishedSearch) -> None:
        """The search is over: its move (exactly once per search)."""

    def note(self, text: str) -> None:
        """Something the client should know (not an error)."""

    def error(self, text: str) -> None:
        """Something went wrong; the session's state is unchanged."""


class Session:
    """One client's engine: option values, game, position, and the engine that searches."""

    def __init__(self, output: SessionOutput):
        self.output = output
        self.options = OptionValues()
        self.game: Game = self.options.game()
        self.position = self.start_position()
        self.engine = Engine(output)
        self.engine.use(self.game, self.options.settings())
        self.book = BookReader()
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
        """Stop any search, then apply a checked change; a new game resets the position to its
        start.  The engine takes the new settings at once (worker processes for ``Threads`` on a
        game on its Python rules start now)."""
        self.stop()
        self.options.apply(change)
        if change.game is not None:
            self.game = change.game
            self.position = self.start_position()
        self.engine.use(self.game, self.options.settings())

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
        self.engine.new_game()
        self.position = self.start_position()

    def game_over(self) -> str | None:
        """Why the current position cannot be searched (the game is over), or None."""
        outcome = self.state.outcome()
        if outcome is None:
            return None
        return f"the game is over ({outcome_words(outcome)}): no move to search"

    def prepare(self) -> None:
        """Make the searching player now (its tree's memory), not at the first ``go``."""
        self.engine.agent()

    # --- searching ---------------------------------------------------------------------------
    def searching(self) -> bool:
        """Whether a search is running (its move not decided yet)."""
        return self.engine.searching()

    def check_idle(self) -> None:
        """Raise ProtocolError if a search is running (a go must wait for its move)."""
        if self.searching():
            raise ProtocolError("already searching; send stop first (go ignored)")

    def go(self, limits: Limits, ponder: bool = False, forced: Move | None = None) -> None:
        """Search the current position in the background; exactly one ``finished`` follows.

        ``forced`` is played without a search, and so is the opening book's move under
        ``OwnBook`` (``book_move``); on a finished game the answer is at once a note saying
        why and a move-less ``finished``, and so it is (with an error) on a position the
        rules cannot judge.  Raises ProtocolError while a search runs.
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
        book = self.book_move() if forced is None and not limits.searchmoves else None
        if book is not None:
            self.output.note("book move")
        searched = ponder and book is None and forced is None and not limits.searchmoves
        self.engine.go(GoRequest(self.state, self.position.history(), limits, ponder,
                                 book.pv[0] if book else forced, book,
                                 self.ponder_root() if searched else None))

    def ponder_root(self) -> State | None:
        """Where a ``go ponder`` searches: the position before the guessed move (the last one),
        so that the tree holds every reply and a wrong guess keeps the subtree of the move the
        opponent played, as a search without pondering would have kept it.  None where that
        cannot help (``TreeReuse`` off, no move, a waived draw on the way, a start the game
        cannot read back): the ponder search then searches the guessed position itself."""
        position = self.position
        if not position.moves or position.waived or not self.options.settings().tree_reuse:
            return None
        try:
            parent = replay(self.game.parse_fen(position.start_fen), position.moves[:-1]).state
            guessed = parent.copy()
            guessed.play(position.moves[-1])
        except Exception:       # the start or the moves do not read back: ponder the guess itself
            return None
        return parent if guessed.key() == self.state.key() else None

    def book_move(self) -> SearchInfo | None:
        """Under ``OwnBook``, the book's move in the current position as a report (its line
        the move and the expected reply, the book's score); None when the option is off or
        the position is not in the book (a book that cannot be used is an error line)."""
        values = self.options.effective()
        if not values["ownbook"]:
            return None
        found = self.book.find(values["bookfile"], self.game, parse_rule_options(values["rules"]), self.state,
                               self.output.error)
        if found is None:
            return None
        entry = found.entry
        return SearchInfo(nodes=0, score=entry.score, wdl=entry.wdl,
                          pv=[found.move] + ([found.ponder] if found.ponder is not None else []))

    def stop(self) -> None:
        """End the search now (its move is delivered); no search: nothing."""
        self.engine.stop()

    def ponderhit(self) -> None:
        """The pondered move was played: the ponder search goes on as a normal search."""
        self.engine.ponderhit()

    def shutdown(self) -> None:
        """Stop any search and the worker processes; the session is closed."""
        self.closed = True
        self.engine.close()
