"""``mcts-engine play``: a human against the engine in the terminal.

The board is drawn as text (the state's ``board_text()``), then its FEN; the human
types moves in the game's notation; a bad move gets the rules' own message and the
list of legal moves, and the prompt comes back.  ``moves`` lists the legal moves,
``help`` explains, ``quit`` (or end of input) resigns the session.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from .agents import make_agent
from .mcts.limits import Limits
from .native import StopSignal
from .protocol.options import game_settings
from .protocol.session import side_name
from .rules.base import AmbiguousMove, Game, IllegalMove, State


def show(state: State, echo: Callable[[str], None]) -> None:
    """The board as text, then the FEN."""
    echo(state.board_text())
    echo(f"FEN {state.fen()}")


def _natural(text: str) -> list:
    """Sort key reading the numbers in a move as numbers: 9-13 before 10-14."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def ask_move(state: State, game: Game, human: int, ask: Callable[[str], str],
             echo: Callable[[str], None]):
    """Prompt until the human types a legal move; None when they quit (or input ends)."""
    legal = sorted((state.move_str(m) for m in state.legal_moves()), key=_natural)
    while True:
        try:
            text = ask(f"your move ({side_name(game, human)}): ").strip()
        except (EOFError, KeyboardInterrupt):
            echo("")
            return None
        if not text:
            continue
        word = text.lower()
        if word in ("quit", "exit", "resign"):
            return None
        if word in ("moves", "help", "?"):
            if word != "moves":
                echo("Type a move in the game's notation (steps like 11-15, captures like 15x24 or "
                     "the full route 15x24x31), 'moves' for the legal moves, 'quit' to stop.")
            echo("legal moves: " + " ".join(legal))
            continue
        try:
            return state.parse_move(text)
        except AmbiguousMove as err:
            echo(f"{err}; write the full route: {' '.join(err.candidates)}")
        except IllegalMove as err:
            echo(f"{err}")
            echo("legal moves: " + " ".join(legal))


def play(game: Game, human_first: bool = True, movetime: float = 1.0, agent: str = "uct", seed: int = 0,
         ask: Callable[[str], str] = input, echo: Callable[[str], None] = print) -> int:
    """Play one game, human against engine; returns the exit status (0)."""
    engine = make_agent(game, replace(game_settings(game.name), agent=agent, seed=seed))
    engine.new_game()
    state = game.new_state()
    start_fen = state.fen()
    played: list[str] = []
    human = 0 if human_first else 1
    echo(f"{game.name}: you play {side_name(game, human)}, the engine ({agent}) plays "
         f"{side_name(game, 1 - human)}. Type a move, 'moves', 'help' or 'quit'.")
    while state.outcome() is None:
        echo("")
        show(state, echo)
        if state.to_move == human:
            move = ask_move(state, game, human, ask, echo)
            if move is None:
                echo("game abandoned")
                return 0
        else:
            echo("engine thinking...")
            result = engine.search(state.copy(), Limits(movetime=movetime), StopSignal(), None,
                                   (start_fen, *played))
            move = result.move
            info = result.info
            note = f" (score {info.cp} cp, {info.nodes} iterations)" if info.nodes > 1 else ""
            echo(f"engine plays {state.move_str(move)}{note}")
        played.append(state.move_str(move))
        state.play(move)
    echo("")
    show(state, echo)
    outcome = state.outcome()
    if outcome == 0.5:
        verdict = "a draw"
    else:
        winner = 0 if outcome == 1.0 else 1
        verdict = f"{side_name(game, winner)} wins: " + ("you win!" if winner == human else "the engine wins")
    echo(f"game over after {len(played)} plies: {verdict}")
    return 0
