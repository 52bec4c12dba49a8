"""When the referee ends a game before the rules do, as cutechess adjudicates.

* ``--max-plies N``: a draw after N plies.
* ``--resign movecount=N score=CP [twosided=true]`` (or ``--resign CP``): a side whose
  engine scores at least CP centipawns below zero for N consecutive moves of its own loses;
  with ``twosided`` only when its opponent's engine agrees (at least +CP for its last N
  moves).
* ``--draw movenumber=M movecount=N score=CP`` (or ``--draw CP``): a draw once M full moves
  were played and both engines scored within CP of zero for N consecutive moves each.
* ``--tb-adjudicate``: a position our endgame tables settle (``mcts_engine.tables``: built by
  ``mcts-engine tables GAME``) is a win, loss or draw at once, as the tables say.

``Adjudication`` is the settings (frozen, part of ``PlayConditions``); ``Adjudicator`` is one
game's counters.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass

__all__ = ["Adjudication", "Adjudicator", "parse_resign", "parse_draw"]


@dataclass(frozen=True)
class Adjudication:
    """When the referee ends a game before the rules do (module notes)."""

    max_plies: int = 1000              # a draw after this many plies
    resign_score: int | None = None    # cp: a side scoring below -this for resign_moves moves resigns
    resign_moves: int = 3
    resign_twosided: bool = False      # ... only when the other side scores above +this as long
    draw_score: int | None = None      # cp: both |score| <= this for draw_moves moves each: draw
    draw_moves: int = 8
    draw_movenumber: int = 20          # ... once this many full moves were played
    tablebases: str | None = None      # the endgame tables' directory: adjudicate by them (None: no)


def _fields(text: str, option: str, keys: dict[str, type]) -> dict:
    """``key=value`` words (or a bare number: the score) as typed fields; ValueError naming them."""
    words = shlex.split(text)
    if len(words) == 1 and "=" not in words[0]:
        words = [f"score={words[0]}"]
    out: dict = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in keys:
            raise ValueError(f"{option} {text!r}: {word!r} is not one of {', '.join(k + '=' for k in keys)}")
        kind = keys[key]
        if kind is bool:
            if value.lower() not in ("true", "false"):
                raise ValueError(f"{option}: {key}={value} is not true or false")
            out[key] = value.lower() == "true"
        elif not value.isdigit() or (key != "score" and int(value) < 1):
            raise ValueError(f"{option}: {key}={value} is not a whole number" + ("" if key == "score" else " from 1"))
        else:
            out[key] = int(value)
    if "score" not in out:
        raise ValueError(f"{option} {text!r}: score= is missing")
    return out


def parse_resign(text: str) -> dict:
    """``--resign``'s text (``movecount=3 score=500 twosided=true``, or ``500``) as Adjudication fields."""
    f = _fields(text, "--resign", {"movecount": int, "score": int, "twosided": bool})
    if f["score"] < 1:
        raise ValueError("--resign: score= must be at least 1")
    return {"resign_score": f["score"], "resign_moves": f.get("movecount", 3), "resign_twosided": f.get("twosided", False)}


def parse_draw(text: str) -> dict:
    """``--draw``'s text (``movenumber=40 movecount=8 score=10``, or ``10``) as Adjudication fields."""
    f = _fields(text, "--draw", {"movenumber": int, "movecount": int, "score": int})
    return {"draw_score": f["score"], "draw_moves": f.get("movecount", 8), "draw_movenumber": f.get("movenumber", 20)}


class Adjudicator:
    """One game's adjudication: the score counters, and the endgame tables (a
    ``mcts_engine.tables.TableSet``, or None)."""

    def __init__(self, adjudication: Adjudication, tables=None):
        self.a = adjudication
        self.tables = tables
        self.losing = [0, 0]          # consecutive own moves scored <= -resign_score
        self.winning = [0, 0]         # ... >= +resign_score
        self.quiet = 0                # consecutive plies scored within draw_score of 0

    def after_move(self, p: int, cp: int | None, plies: int) -> tuple[float, str] | None:
        """Player ``p`` moved (game ply ``plies``), its engine scoring ``cp`` (None: no score):
        (the first player's score, why) when the scores end the game."""
        a = self.a
        if a.resign_score is not None:
            self.losing[p] = self.losing[p] + 1 if cp is not None and cp <= -a.resign_score else 0
            self.winning[p] = self.winning[p] + 1 if cp is not None and cp >= a.resign_score else 0
            for side in (p, 1 - p):
                if self.losing[side] >= a.resign_moves and (not a.resign_twosided
                                                             or self.winning[1 - side] >= a.resign_moves):
                    return (0.0 if side == 0 else 1.0), "adjudicated: resign by score"
        if a.draw_score is not None:
            self.quiet = self.quiet + 1 if cp is not None and abs(cp) <= a.draw_score else 0
            if plies >= 2 * a.draw_movenumber and self.quiet >= 2 * a.draw_moves:
                return 0.5, "adjudicated: draw by score"
        return None

    def by_tables(self, state) -> tuple[float, str] | None:
        """The tables' verdict on ``state`` as a result, if they settle it."""
        if self.tables is None:
            return None
        hit = self.tables.probe(state)
        if hit is None:
            return None
        if hit.result == 0.5:
            return 0.5, "adjudicated: endgame tables: a draw"
        winner = "first" if hit.result == 1.0 else "second"
        return hit.result, f"adjudicated: endgame tables: the {winner} player wins in {hit.plies} plies"
