"""A tiny game for search tests: take-away with extra turns, solvable exactly.

A pile of ``n`` stones; the player to move takes 1, 2 or 3.  Taking one stone
from a pile that is a multiple of 3 gives the same player another turn (so turns
do not alternate strictly); whoever takes the last stone wins.  Small enough for exact minimax, so the UCT solver's
proofs and its use of ``to_move`` (not depth parity) can be checked.

It implements only the abstract core of the rules contract, so it also shows what a game
gets by default (the generic playout, evaluate 0.5, no Hub notation...).
"""
from __future__ import annotations

import os
import time
from functools import lru_cache

import multiprocess

from mcts_engine.rules.base import NO_LIMIT, Game, IllegalMove, State


class TakeAwayState(State):
    def __init__(self, stones: int, to_move: int = 0, winner: int | None = None, ply: int = 0):
        self.stones, self.to_move, self.winner, self.ply = stones, to_move, winner, ply

    def legal_moves(self):
        return [] if self.winner is not None else [k for k in (1, 2, 3) if k <= self.stones]

    def play(self, move):
        again = extra_turn(self.stones, move)
        self.stones -= move
        if self.stones == 0:
            self.winner = self.to_move
        elif not again:
            self.to_move ^= 1
        self.ply += 1

    def copy(self):
        return TakeAwayState(self.stones, self.to_move, self.winner, self.ply)

    def outcome(self):
        return None if self.winner is None else (1.0 if self.winner == 0 else 0.0)

    def fen(self):
        return f"{self.stones}:{self.to_move}"

    def move_str(self, move):
        return str(move)

    def parse_move(self, text):
        if text.strip() in {str(m) for m in self.legal_moves()}:
            return int(text)
        raise IllegalMove(f"move {text!r} is illegal")

    def key(self):
        return (self.stones, self.to_move, self.winner)


class TakeAway(Game):
    name = "take-away"
    options: dict = {}

    def __init__(self, stones: int = 10):
        self.stones = stones

    def new_state(self):
        return TakeAwayState(self.stones)

    def parse_fen(self, text):
        stones, to_move = text.split(":")
        return TakeAwayState(int(stones), int(to_move))


def extra_turn(stones: int, take: int) -> bool:
    """Whether taking ``take`` from ``stones`` lets the same player move again."""
    return take == 1 and stones % 3 == 0


@lru_cache(maxsize=None)
def wins_for_mover(stones: int) -> bool:
    """Exact: does the player to move win with ``stones`` left (best play)?"""
    for take in (1, 2, 3):
        if take > stones:
            continue
        if take == stones:
            return True
        again = extra_turn(stones, take)
        if again and wins_for_mover(stones - take):
            return True
        if not again and not wins_for_mover(stones - take):
            return True
    return False


def winning_moves(stones: int) -> list[int]:
    """Exact: the moves that keep a forced win for the player to move."""
    out = []
    for take in (1, 2, 3):
        if take > stones:
            continue
        again = extra_turn(stones, take)
        if take == stones or (again and wins_for_mover(stones - take)) or \
                (not again and not wins_for_mover(stones - take)):
            out.append(take)
    return out


class TroubleState(TakeAwayState):
    """A take-away position whose playouts misbehave in a search worker process (never in the
    main process): ``trouble`` is ``"raise"`` (an exception), ``"exit"`` (the process dies,
    exit code 7) or ``"hang"`` (it sleeps for good), from its ``after``-th playout in that
    process on.  A real process misbehaving, for the parallel search's failure paths.  With
    ``marker`` (a file path) the worker creates that file just before it misbehaves, so that a
    test can wait for the trouble to have begun instead of guessing how long that takes."""

    playouts_here = 0      # playouts run in this process so far

    def __init__(self, stones: int, trouble: str, after: int = 0, to_move: int = 0, winner: int | None = None,
                 ply: int = 0, marker: str | None = None):
        super().__init__(stones, to_move, winner, ply)
        self.trouble, self.after, self.marker = trouble, after, marker

    def copy(self):
        """A copy that misbehaves the same way."""
        return TroubleState(self.stones, self.trouble, self.after, self.to_move, self.winner, self.ply, self.marker)

    def playout(self, rng, max_plies=NO_LIMIT):
        """The random playout, or in a worker past its ``after``-th playout the ``trouble``."""
        if multiprocess.current_process().name != "MainProcess":
            TroubleState.playouts_here += 1
            if TroubleState.playouts_here > self.after:
                if self.marker is not None:
                    open(self.marker, "a").close()
                misbehave(self.trouble)
        return super().playout(rng, max_plies)


def misbehave(trouble: str) -> None:
    """Fail in one of the ways a worker can: raise, die or hang."""
    if trouble == "raise":
        raise RuntimeError("a playout failed on purpose")
    if trouble == "exit":
        os._exit(7)
    if trouble == "hang":
        time.sleep(3600)


class Trouble(TakeAway):
    """Take-away from ``stones`` whose worker playouts misbehave (``TroubleState``)."""

    def __init__(self, stones: int, trouble: str, after: int = 0, marker: str | None = None):
        super().__init__(stones)
        self.trouble, self.after, self.marker = trouble, after, marker

    def new_state(self):
        return TroubleState(self.stones, self.trouble, self.after, marker=self.marker)
