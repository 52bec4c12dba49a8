"""Playing the endgame suite out: does the engine convert a won ending?

``convert`` plays one ``Endgame`` (``endgame_suite.py``) from its position to the end,
the winning side against the same engine (same settings, a tree of its own) defending,
each move searched within the same ``Limits``, as two engines in a match would; it
passes each agent the game's history, so tree reuse works as in play.  The result is
scored for the winning side: a win, a draw (a no-progress or endgame-count draw, or a
repetition) or a loss.  ``run_suite`` plays every row, ``suite_table`` prints the
figures ``mcts-engine bench --endgames`` shows; ``build_tables`` builds the endgame tables
the rows start in first.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from .agents import make_agent
from .endgame_suite import SUITE, Endgame
from .mcts.limits import Limits
from .native import StopSignal
from .mcts.settings import Settings
from .rules import get_game
from .tables import Material, TableSet

MAX_PLIES = 1000     # a safety stop: every suite game ends far sooner by its draw rules
TABLE_PIECES = 4     # the suite's rows of this many pieces or fewer start in an endgame table


@dataclass(frozen=True)
class Conversion:
    """How one ending went: ``result`` for the winning side (win, draw or loss), the plies
    played, the moves (in the game's notation) and the seconds the game took."""

    endgame: Endgame
    result: str
    plies: int
    moves: tuple[str, ...]
    seconds: float


def _side(game, endgame: Endgame) -> int:
    """The player number (0 moves first) of ``endgame``'s winning colour letter."""
    if endgame.winner not in game.colours:
        raise ValueError(f"endgame {endgame.name}: winner {endgame.winner!r} is not one of {game.colours}")
    return game.colours.index(endgame.winner)


def convert(endgame: Endgame, settings: Settings, limits: Limits) -> Conversion:
    """Play ``endgame`` out: the winning side and the defender are two agents built from
    ``settings``, each searching every move within ``limits``."""
    game = get_game(endgame.game)
    winner = _side(game, endgame)
    state = game.parse_fen(endgame.fen)
    agents = (make_agent(game, settings), make_agent(game, settings))
    for agent in agents:
        agent.new_game()
    history: tuple = (endgame.fen,)
    moves: list[str] = []
    start = time.monotonic()
    try:
        while state.outcome() is None and len(moves) < MAX_PLIES:
            agent = agents[0] if state.to_move == winner else agents[1]
            found = agent.search(state.copy(), limits, StopSignal(), None, history)
            moves.append(state.move_str(found.move))
            state.play(found.move)
            history += (found.move,)
    finally:
        for agent in agents:
            agent.close()
    outcome = state.outcome()
    value = 0.5 if outcome is None else (outcome if winner == 0 else 1.0 - outcome)
    result = {1.0: "win", 0.5: "draw", 0.0: "loss"}[value]
    return Conversion(endgame, result, len(moves), tuple(moves), time.monotonic() - start)


def select(names: list[str] | None = None, games: list[str] | None = None) -> list[Endgame]:
    """The suite's rows, all or those named (``names``) or of the given games; ValueError
    naming an unknown row."""
    rows = list(SUITE)
    if names:
        known = {row.name: row for row in rows}
        missing = [n for n in names if n not in known]
        if missing:
            raise ValueError(f"unknown endgame(s) {', '.join(missing)}; the suite has: "
                             + ", ".join(known))
        rows = [known[n] for n in names]
    if games:
        rows = [row for row in rows if row.game in games]
    return rows


def run_suite(rows: list[Endgame], settings_for: Callable[[str], Settings], limits: Limits,
              on_result=None) -> list[Conversion]:
    """``convert`` each row in turn with ``settings_for(row.game)`` (each game its own
    defaults), calling ``on_result(conversion)`` after each, for progress."""
    done = []
    for row in rows:
        conversion = convert(row, settings_for(row.game), limits)
        done.append(conversion)
        if on_result is not None:
            on_result(conversion)
    return done


def build_tables(rows: list[Endgame], settings_for: Callable[[str], Settings],
                 report: Callable[[str], None] | None = None) -> None:
    """Build the endgame tables the rows start in (``TABLE_PIECES`` pieces or fewer) where
    ``settings_for(row.game)`` probes tables, so that no timed move waits for a build."""
    for row in rows:
        directory = settings_for(row.game).endgame_tables
        game = get_game(row.game)
        if not directory or not game.endgame_tables:
            continue
        state = game.parse_fen(row.fen)
        if (state.own | state.opp).bit_count() <= TABLE_PIECES:
            TableSet(game, directory).build(Material.of(state.own, state.opp, state.kings, state.turn), report)


def summary(conversions: list[Conversion]) -> dict[str, int]:
    """Wins, draws and losses of the winning side over ``conversions``."""
    counts = {"win": 0, "draw": 0, "loss": 0}
    for conversion in conversions:
        counts[conversion.result] += 1
    return counts


def row_text(conversion: Conversion) -> str:
    """One line of the table: name, game, result, plies, seconds."""
    row = conversion.endgame
    return f"{row.name:24} {row.game:14} {conversion.result:5} {conversion.plies:5} {conversion.seconds:8.1f}"


def suite_table(conversions: list[Conversion]) -> str:
    """The figures as text: a line per ending and the totals."""
    head = f"{'ending':24} {'game':14} {'won?':5} {'plies':>5} {'seconds':>8}"
    counts = summary(conversions)
    total = f"converted {counts['win']} of {len(conversions)} (draws {counts['draw']}, losses {counts['loss']})"
    return "\n".join([head] + [row_text(c) for c in conversions] + [total])
