"""Games against OpenSpiel, ended where OpenSpiel's own rules end them and adjudicated by material.

OpenSpiel's checkers call a game drawn after 40 plies without a capture; our English rules
play on (80 plies without a man move or a capture).  ``mcts-tournament`` plays every game
to the end by our rules (past that point the ``openspiel-mcts`` adapter has no OpenSpiel
move and plays its fallback, a random legal move, until a capture revives OpenSpiel's
game).  Issue 27 measures such games where OpenSpiel's rule ends them, adjudicated by
material: ``adjudicate_journal`` replays each game with our rules from its start, finds
the first position after ``limit`` plies in a row without a capture (OpenSpiel counts every
ply from the start, the opening's included), and scores it by material there:

* men count 1, kings ``king_value`` (default 1.5); a side ahead by at least ``margin``
  (default 1: a man) wins, else it is a draw;
* a game our rules ended before that point keeps its result.

The output is a journal of the same tournament with those results (reason ``adjudicated:
OpenSpiel's 40-ply rule at ply N, material a-b``), so ``mcts-tournament report`` computes
W/D/L and Elo with their intervals from it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..rules import State, get_game

OPENSPIEL_LIMIT = 40


@dataclass(frozen=True)
class MaterialAdjudication:
    """What happened to one game: its raw result, and where and how it was adjudicated (if it was)."""

    id: int
    raw: float | None
    score_first: float | None
    ply: int | None = None
    material: tuple[float, float] | None = None


def adjudicate_game(record: dict, limit: int = OPENSPIEL_LIMIT, king_value: float = 1.5,
                    margin: float = 1.0) -> MaterialAdjudication:
    """One journal game record, adjudicated at the first run of ``limit`` plies without a capture."""
    game = get_game(record["game"], **record.get("rules", {}))
    opening = record["opening"]
    state = game.new_state() if opening["fen"] is None else game.parse_fen(opening["fen"])
    quiet = 0
    for ply, text in enumerate(opening["moves"] + record["moves"], 1):
        move = state.parse_move(text)
        quiet = 0 if state.is_capture(move) else quiet + 1
        state.play(move)
        if state.outcome() is not None:
            break
        if quiet >= limit:
            first, second = material(state, game, king_value)
            score = 1.0 if first - second >= margin else 0.0 if second - first >= margin else 0.5
            return MaterialAdjudication(record["id"], record.get("score_first"), score, ply, (first, second))
    return MaterialAdjudication(record["id"], record.get("score_first"), record.get("score_first"))


def material(state: State, game, king_value: float) -> tuple[float, float]:
    """(first player's, second player's) material from the FEN: men 1, kings ``king_value``."""
    side, *lists = state.fen().split(":")
    count = {}
    for part in lists:
        squares = [s for s in part[1:].split(",") if s]
        count[part[0]] = sum(king_value if s.startswith("K") else 1.0 for s in squares)
    first, second = game.colours
    return count.get(first, 0.0), count.get(second, 0.0)


def adjudicate_journal(source: Path, target: Path, limit: int = OPENSPIEL_LIMIT, king_value: float = 1.5,
                       margin: float = 1.0) -> list[MaterialAdjudication]:
    """Write ``target``: ``source``'s records, each game adjudicated by ``adjudicate_game``."""
    out, done = [], []
    for line in source.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        if record.get("type") == "game":
            result = adjudicate_game(record, limit, king_value, margin)
            done.append(result)
            if result.ply is not None:
                a, b = result.material
                record = dict(record, score_first=result.score_first,
                              reason=f"adjudicated: OpenSpiel's {limit}-ply rule at ply {result.ply}, "
                                     f"material {a:g}-{b:g} (raw: {record.get('reason')})")
        out.append(json.dumps(record, separators=(",", ":")))
    target.write_text("\n".join(out) + "\n", encoding="utf-8")
    return done
