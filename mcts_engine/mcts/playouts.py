"""Playout policies: how a UCT iteration finishes a game from a tree leaf.

A policy is an object with ``run(state, rng) -> float``: it plays moves on
``state`` in place and returns the result for the first player in [0, 1] (a
finished game's outcome, or the game's ``evaluate()`` when the playout is cut
off after ``depth`` plies).  Policies are chosen and parameterised by engine
options (``Playout``, ``PlayoutDepth``, ``Epsilon``), so they can be tuned from
the command line.

* ``random``: uniformly random moves (the game's ``playout``/``random_move`` fast path);
* ``capture``: a random capture when there is one, else a random move (the
  seed articles' "aggressive" player);
* ``greedy-eps``: with probability epsilon a random move, else the best move by
  the game's one-ply ``heuristic(move)``, ties at random;
* ``mast``: Move-Average Sampling Technique: with probability epsilon a random
  move, else the move with the best average result over earlier playouts
  (per player; unseen moves count as wins, so each is tried).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules.base import NO_LIMIT, State

QUIESCENCE = 16   # at most this many capture plies after a cut-off before evaluate()


@dataclass(frozen=True)
class PlayoutRecord:
    """A playout's result for the first player and the moves it played, as
    ``(player, move)`` in order (what RAVE/GRAVE's all-moves-as-first statistics count)."""

    outcome: float
    moves: list


class Playout:
    """Base policy: uniformly random moves, optionally cut off after ``depth`` plies."""

    name = "random"

    def __init__(self, depth: int = 0, epsilon: float = 0.1):
        self.depth = depth
        self.epsilon = epsilon
        self.oracle = None    # the endgame tables' probe, read at a cut-off (set by the agent)

    def run(self, state: State, rng: random.Random) -> float:
        """Play to the end (or the cut-off) in place; the first player's result in [0, 1]."""
        outcome = state.playout(rng, self.depth or NO_LIMIT)
        return outcome if outcome is not None else self._cut_off(state, rng)

    def run_recorded(self, state: State, rng: random.Random) -> PlayoutRecord:
        """As ``run``, keeping the moves played (the game's ``recorded_playout``: its fast
        loop in draughts and Life, else the ``random_move``/``play`` loop; used only when the
        search keeps AMAF statistics)."""
        moves = []
        outcome = state.recorded_playout(rng, moves, self.depth or NO_LIMIT)
        return PlayoutRecord(outcome if outcome is not None else self._cut_off(state, rng, moves), moves)

    def _cut_off(self, state: State, rng: random.Random, moves: list | None = None) -> float:
        """The result of a playout stopped at the depth limit: the endgame tables' verdict
        where they have one (``oracle``), else the game's evaluation, once the position is
        quiet.

        Where captures are compulsory (``state.compulsory_captures``) and the side to move
        has one, random captures are played on, at most ``QUIESCENCE`` plies, so a cut-off
        never scores a position in the middle of an exchange (``moves``, when given,
        records them).
        """
        for _ in range(QUIESCENCE if state.compulsory_captures else 0):
            if state.outcome() is not None:
                break
            legal = state.legal_moves()
            if not legal or not state.is_capture(legal[0]):
                break
            move = legal[int(rng.random() * len(legal))]
            if moves is not None:
                moves.append((state.to_move, move))
            state.play(move)
        outcome = state.outcome()
        if outcome is not None:
            return outcome
        if self.oracle is not None:
            hit = self.oracle(state)
            if hit is not None:
                return hit.result
        return state.evaluate()

    def new_game(self) -> None:
        """Forget statistics learned in the previous game (MAST)."""


class ChoicePlayout(Playout):
    """A policy that picks each move from the list of legal moves with ``choose``."""

    def run(self, state: State, rng: random.Random) -> float:
        return self.run_recorded(state, rng).outcome

    def run_recorded(self, state: State, rng: random.Random) -> PlayoutRecord:
        limit = self.depth or NO_LIMIT
        played = []
        for _ in range(limit):
            moves = state.legal_moves()
            if not moves:
                outcome = state.outcome()
                self.learn(played, outcome)
                return PlayoutRecord(outcome, played)
            move = self.choose(state, moves, rng)
            played.append((state.to_move, move))
            state.play(move)
        outcome = self._cut_off(state, rng, played)
        self.learn(played, outcome)
        return PlayoutRecord(outcome, played)

    def choose(self, state: State, moves: list, rng: random.Random):
        raise NotImplementedError

    def learn(self, played: list, outcome: float) -> None:
        """Hook for policies that learn from finished playouts."""


class CapturePlayout(ChoicePlayout):
    """Prefer captures: a random capture if any, else a random move."""

    name = "capture"

    def choose(self, state, moves, rng):
        captures = [m for m in moves if state.is_capture(m)]
        if captures:
            moves = captures
        return moves[int(rng.random() * len(moves))]


class GreedyEpsilonPlayout(ChoicePlayout):
    """Epsilon-greedy on the game's one-ply ``heuristic(move)``."""

    name = "greedy-eps"

    def choose(self, state, moves, rng):
        heuristic = state.heuristic
        if rng.random() < self.epsilon:
            return moves[int(rng.random() * len(moves))]
        best, best_moves = None, []
        for m in moves:
            h = heuristic(m)
            if best is None or h > best:
                best, best_moves = h, [m]
            elif h == best:
                best_moves.append(m)
        return best_moves[int(rng.random() * len(best_moves))]


class MastPlayout(ChoicePlayout):
    """Move-Average Sampling: epsilon-greedy on each move's average playout result."""

    name = "mast"

    def __init__(self, depth: int = 0, epsilon: float = 0.1):
        super().__init__(depth, epsilon)
        self.table: dict = {}   # (player, move) -> [sum of results for player, count]

    def new_game(self) -> None:
        self.table.clear()

    def choose(self, state, moves, rng):
        if rng.random() < self.epsilon:
            return moves[int(rng.random() * len(moves))]
        player, table = state.to_move, self.table
        best, best_moves = -1.0, []
        for m in moves:
            stats = table.get((player, m))
            value = stats[0] / stats[1] if stats else 1.0
            if value > best:
                best, best_moves = value, [m]
            elif value == best:
                best_moves.append(m)
        return best_moves[int(rng.random() * len(best_moves))]

    def learn(self, played, outcome):
        table = self.table
        for player, move in played:
            stats = table.get((player, move))
            if stats is None:
                stats = table[(player, move)] = [0.0, 0]
            stats[0] += outcome if player == 0 else 1.0 - outcome
            stats[1] += 1


POLICIES = {p.name: p for p in (Playout, CapturePlayout, GreedyEpsilonPlayout, MastPlayout)}


def make_playout(name: str, depth: int = 0, epsilon: float = 0.1) -> Playout:
    """The policy called ``name`` (see ``POLICIES``)."""
    try:
        return POLICIES[name](depth, epsilon)
    except KeyError:
        raise ValueError(f"unknown playout {name!r}; playouts: {', '.join(POLICIES)}") from None
