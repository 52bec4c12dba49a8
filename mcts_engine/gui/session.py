"""One board's game: the rules' position, the moves played, the move being clicked.

``BoardSession`` is plain synchronous state with no I/O, so it is tested directly:
``new_game``, ``load_fen``, ``click``, ``play_text``, ``undo`` change it (each either
succeeds or raises ``RulesError`` / ``SessionError`` and leaves it as it was), and
``snapshot()`` is everything the page draws.  Every legal move, its notation and its
click path come from the rules (``legal_moves``, ``move_str``, ``move_path``); the
session never decides what is legal.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..records import game_record_text
from ..rules import get_game, parse_rule_options
from ..rules.base import Game, RulesError, State
from ..rules.view import MovePath
from .clicks import Candidate, ClickOutcome, Selection

DEFAULT_GAME = "english"
MAX_PLIES = 5_000     # a session keeps at most this many plies (a runaway engine game stops there)


class SessionError(ValueError):
    """A request the session refuses (nothing to undo, the game is over, ...)."""


@dataclass
class Played:
    """A move played: its notation, its click path and captures (the last move is drawn)."""

    move: object
    text: str
    path: MovePath


def result_text(game: Game, outcome: float | None) -> str:
    """``1-0`` / ``0-1`` / ``1/2-1/2`` from the first player's side (with its colour), or ``*``."""
    if outcome is None:
        return "*"
    first, second = game.colours
    if outcome == 0.5:
        return "draw"
    return f"{first if outcome == 1.0 else second} wins ({'first' if outcome == 1.0 else 'second'} player)"


def pv_paths(state: State, pv: list[str], limit: int = 8) -> list[dict]:
    """The click paths of a principal variation's first ``limit`` moves from ``state`` (arrows
    on the board); stops at the first text the rules do not read as a legal move."""
    state, out = state.copy(), []
    for text in pv[:limit]:
        try:
            move = state.parse_move(text)
        except RulesError:
            break
        out.append(state.move_path(move).to_dict())
        state.play(move)
    return out


class BoardSession:
    """The game on one board and the move being entered on it."""

    def __init__(self, game: str = DEFAULT_GAME, rules: str = "", fen: str | None = None):
        self.new_game(game, rules, fen)

    # --- setting up ------------------------------------------------------------------------
    def new_game(self, name: str, rules: str = "", fen: str | None = None) -> None:
        """A new game (rule options ``key=value,...``; a FEN or the start position).
        Raises RulesError naming a bad game, option or FEN; the session is then unchanged."""
        options = parse_rule_options(rules) if rules.strip() else {}
        game = get_game(name, **options)
        start = game.parse_fen(fen) if fen else game.new_state()
        self.game, self.rule_options, self.rules_text = game, options, rules.strip()
        self.start_fen = start.fen()
        self.states: list[State] = [start]
        self.played: list[Played] = []
        self._positions()

    def load_fen(self, fen: str) -> None:
        """Start the current game from a FEN; RulesError (BadPosition) leaves everything as it was."""
        self.new_game(self.game.name, self.rules_text, fen)

    def _positions(self) -> None:
        """Recompute what depends on the current position: the candidates and the selection."""
        state = self.state
        candidates = [Candidate(m, state.move_str(m), state.move_path(m)) for m in state.legal_moves()]
        self.selection = Selection(candidates, explain=self._explain)

    def _explain(self, points: list[str]) -> str:
        """The rules' message for a clicked path that is no legal move (a drop, or from-to)."""
        text = points[0] if len(points) == 1 else "-".join(points)
        try:
            self.state.parse_move(text)
        except RulesError as err:
            return str(err)
        return ""

    # --- the game ---------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current position."""
        return self.states[-1]

    @property
    def outcome(self) -> float | None:
        """None while the game runs, else the first player's score."""
        return self.state.outcome()

    @property
    def move_texts(self) -> list[str]:
        """The moves played, in notation."""
        return [p.text for p in self.played]

    def click(self, point: str) -> ClickOutcome:
        """A click on a point: the selection changes, or a move is played, or it is refused."""
        if self.outcome is not None:
            return ClickOutcome("refused", message=f"the game is over: {result_text(self.game, self.outcome)}")
        outcome = self.selection.click(point)
        if outcome.kind == "move":
            self.play(outcome.chosen)
        return outcome

    def cancel(self) -> None:
        """Drop the move being entered."""
        self.selection.clear()

    def play_text(self, text: str) -> Candidate:
        """Play the move named in notation (RulesError names an illegal or ambiguous move)."""
        if self.outcome is not None:
            raise SessionError(f"the game is over: {result_text(self.game, self.outcome)}")
        move = self.state.parse_move(text)
        chosen = next(c for c in self.selection.candidates if c.move == move)
        self.play(chosen)
        return chosen

    def play(self, candidate: Candidate) -> None:
        """Play a legal move (a candidate of the current position)."""
        if len(self.played) >= MAX_PLIES:
            raise SessionError(f"this board keeps at most {MAX_PLIES} plies")
        child = self.state.copy()
        child.play(candidate.move)
        self.states.append(child)
        self.played.append(Played(candidate.move, candidate.text, candidate.path))
        self._positions()

    def replay(self, texts: list[str]) -> str:
        """Play the moves ``texts`` from the current position (the game a reconnecting page puts
        back); stops at the first one the rules refuse and says why ("" when all were played)."""
        state, why = self.state, ""
        for number, text in enumerate(texts, 1):
            if len(self.played) >= MAX_PLIES:
                why = f"this board keeps at most {MAX_PLIES} plies"
            elif state.outcome() is not None:
                why = f"the game is over: {result_text(self.game, state.outcome())}"
            else:
                try:
                    move = state.parse_move(text)
                except RulesError as err:
                    why = f"move {number} ({text!r}): {err}"
            if why:
                break
            child = state.copy()
            child.play(move)
            self.states.append(child)
            self.played.append(Played(move, state.move_str(move), state.move_path(move)))
            state = child
        self._positions()
        return why

    def undo(self, plies: int = 1) -> None:
        """Take back ``plies`` plies (SessionError when there are not so many)."""
        if plies < 1 or plies > len(self.played):
            raise SessionError("nothing to undo" if not self.played else f"only {len(self.played)} plies to undo")
        del self.states[-plies:]
        del self.played[-plies:]
        self._positions()

    # --- for the page and for the engine -----------------------------------------------------
    def snapshot(self) -> dict:
        """Everything the page draws: the game, the board, the selection, the moves, the result."""
        state, game = self.state, self.game
        last = self.played[-1] if self.played else None
        outcome = self.outcome
        return {
            "game": game.name, "rules": self.rules_text, "colours": list(game.colours),
            "options": [{"name": o.name, "allowed": o.allowed(), "default": str(o.default), "doc": o.doc}
                        for o in game.schema.options],
            "fen": state.fen(), "start_fen": self.start_fen, "to_move": state.to_move, "ply": len(self.played),
            "view": state.board_view().to_dict(),
            "selection": self.selection.to_dict(),
            "legal": [c.text for c in self.selection.candidates],
            "moves": self.move_texts,
            "last": last.path.to_dict() if last else None,
            "outcome": outcome, "result": result_text(game, outcome) if outcome is not None else "",
        }

    def pv_paths(self, pv: list[str], limit: int = 8) -> list[dict]:
        """The click paths of a principal variation's first moves (arrows on the board)."""
        return pv_paths(self.state, pv, limit)

    def record_text(self, players: tuple[str, str], event: str = "mcts-engine gui") -> str:
        """The game as PDN (draughts) or PGN-like text (``mcts_engine.records``, as the manager writes its games)."""
        outcome = self.outcome
        record = {"game": self.game.name, "rules": dict(self.rule_options), "players": list(players), "id": 0,
                  "event": event, "start_fen": self.start_fen, "moves": self.move_texts, "score_first": outcome,
                  "reason": "" if outcome is None else "game over"}
        return game_record_text(record)
