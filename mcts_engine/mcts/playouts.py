"""Playout policies: how a UCT iteration finishes a game from a tree leaf.

A policy is an object with ``run(state, rng) -> float``: it plays moves on
``state`` in place and returns the result for the first player in [0, 1] (a
finished game's outcome, or the game's ``evaluate()`` when the playout is cut
off after ``depth`` plies).  Policies are chosen and parameterised by engine
options (``Playout``, ``PlayoutDepth``, ``Epsilon``), so they can be tuned from
the command line.  ``make_playout`` (or ``PlayoutSpec.make``) builds one by name.

* ``random``: uniformly random moves (the game's ``playout``/``random_move`` fast path);
* ``capture``: a random capture when there is one, else a random move (the
  seed articles' "aggressive" player);
* ``greedy-eps``: with probability epsilon a random move, else the best move by
  the game's one-ply ``heuristic(move)``, ties at random;
* ``mast``: Move-Average Sampling Technique: with probability epsilon a random
  move, else the move with the best average result over earlier playouts
  (per player; unseen moves count as wins, so each is tried);
* ``nst``: N-gram Selection Technique (Tak, Winands and Björnsson 2012), MAST on move
  pairs: the value of a move is its average result after the opponent's previous move
  (the MAST average where that pair was never seen);
* ``decisive``: decisive and anti-decisive moves (Teytaud and Teytaud 2010): a move
  that wins at once if there is one, else a random move after which the opponent
  cannot win at once, else a random move.

MAST and NST learn from every playout they run and keep their statistics across the
searches of one game (the agent and its policy live from one ``go`` to the next); a new
game (``ucinewgame``, ``new_game``) forgets them unless ``keep_stats`` (engine option
``KeepStats``) keeps them across games too.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules.base import NO_LIMIT, State

QUIESCENCE = 16   # at most this many capture plies after a cut-off before evaluate()


@dataclass(frozen=True)
class PlayoutSpec:
    """Which policy a search plays out with, and its parameters (the engine options
    ``Playout``, ``PlayoutDepth``, ``Epsilon``, ``KeepStats``): what a worker needs to build
    the same policy as the engine (``make``)."""

    name: str = "random"
    depth: int = 0
    epsilon: float = 0.1
    keep_stats: bool = False

    def make(self) -> "Playout":
        """A fresh policy of this kind."""
        return make_playout(self.name, self.depth, self.epsilon, self.keep_stats)


@dataclass(frozen=True)
class PlayoutRecord:
    """A playout's result for the first player and the moves it played, as
    ``(player, move)`` in order (what RAVE/GRAVE's all-moves-as-first statistics count)."""

    outcome: float
    moves: list


class Playout:
    """Base policy: uniformly random moves, optionally cut off after ``depth`` plies."""

    name = "random"

    def __init__(self, depth: int = 0, epsilon: float = 0.1, keep_stats: bool = False):
        self.depth = depth
        self.epsilon = epsilon
        self.keep_stats = keep_stats   # MAST/NST: keep the statistics across games
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
        """A new game starts: forget the statistics learned so far (MAST, NST), unless
        ``keep_stats``."""


class ChoicePlayout(Playout):
    """A policy that picks each move from the list of legal moves with ``choose``, which
    also sees the playout's moves so far (``played``, ``(player, move)`` in order)."""

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
            move = self.choose(state, moves, rng, played)
            played.append((state.to_move, move))
            state.play(move)
        outcome = self._cut_off(state, rng, played)
        self.learn(played, outcome)
        return PlayoutRecord(outcome, played)

    def choose(self, state: State, moves: list, rng: random.Random, played: list | tuple = ()):
        """The move to play among ``moves`` (the legal moves of ``state``, not empty)."""
        raise NotImplementedError

    def learn(self, played: list, outcome: float) -> None:
        """Hook for policies that learn from finished playouts."""


class CapturePlayout(ChoicePlayout):
    """Prefer captures: a random capture if any, else a random move."""

    name = "capture"

    def choose(self, state, moves, rng, played=()):
        captures = [m for m in moves if state.is_capture(m)]
        if captures:
            moves = captures
        return moves[int(rng.random() * len(moves))]


class GreedyEpsilonPlayout(ChoicePlayout):
    """Epsilon-greedy on the game's one-ply ``heuristic(move)``."""

    name = "greedy-eps"

    def choose(self, state, moves, rng, played=()):
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
    """Move-Average Sampling: epsilon-greedy on each move's average playout result.

    ``table`` maps ``(player, move)`` to ``[sum of results for player, count]`` over the
    playouts run so far (their moves only, not the tree's); an unseen move counts as a win
    (1.0), so each is tried.  Kept across the searches of a game; cleared by ``new_game``
    unless ``keep_stats``.
    """

    name = "mast"

    def __init__(self, depth: int = 0, epsilon: float = 0.1, keep_stats: bool = False):
        super().__init__(depth, epsilon, keep_stats)
        self.table: dict = {}   # (player, move) -> [sum of results for player, count]

    def new_game(self) -> None:
        if not self.keep_stats:
            self.table.clear()

    def choose(self, state, moves, rng, played=()):
        """Epsilon-greedy: a random move, else the move with the best average (``stats``)."""
        if rng.random() < self.epsilon:
            return moves[int(rng.random() * len(moves))]
        best, best_moves = -1.0, []
        for m, stats in zip(moves, self.stats(state.to_move, moves, played)):
            value = stats[0] / stats[1] if stats else 1.0
            if value > best:
                best, best_moves = value, [m]
            elif value == best:
                best_moves.append(m)
        return best_moves[int(rng.random() * len(best_moves))]

    def stats(self, player: int, moves: list, played) -> list:
        """Each move's ``[sum of results for player, count]`` (None: unseen, counts as a win)."""
        table = self.table
        return [table.get((player, m)) for m in moves]

    def learn(self, played, outcome):
        table = self.table
        for player, move in played:
            credit(table, (player, move), player, outcome)


def credit(table: dict, key, player: int, outcome: float) -> None:
    """Add one playout's result for ``player`` (``outcome`` is the first player's) to the
    ``[sum, count]`` statistics of ``key`` in ``table``."""
    stats = table.get(key)
    if stats is None:
        stats = table[key] = [0.0, 0]
    stats[0] += outcome if player == 0 else 1.0 - outcome
    stats[1] += 1


def last_move_of(played: list | tuple, player: int):
    """The last move ``player`` made in ``played`` (``(player, move)`` in order), or None."""
    for who, move in reversed(played):
        if who == player:
            return move
    return None


class NstPlayout(MastPlayout):
    """N-gram Selection Technique (Tak, Winands and Björnsson 2012) with 2-grams: MAST on
    move pairs.

    ``pairs`` maps ``(player, previous, move)`` to ``[sum of results for player, count]``,
    ``previous`` being the opponent's last move before ``move`` in the playout (with strictly
    alternating turns, the move just before; after an extra turn, the opponent's move before
    it).  A move's value is its pair's average when the pair was seen, else its MAST
    average (``table``, kept too), else 1.0 (unseen moves are tried); epsilon-greedy on
    that value, ties at random.  The first move of a playout has no previous move in it and
    is judged by MAST alone (the policy sees the playout, not the tree's moves above it).
    """

    name = "nst"

    def __init__(self, depth: int = 0, epsilon: float = 0.1, keep_stats: bool = False):
        super().__init__(depth, epsilon, keep_stats)
        self.pairs: dict = {}   # (player, opponent's previous move, move) -> [sum of results for player, count]

    def new_game(self) -> None:
        if not self.keep_stats:
            self.table.clear()
            self.pairs.clear()

    def stats(self, player: int, moves: list, played) -> list:
        """A move's pair statistics after the opponent's last move, else its MAST ones."""
        previous = last_move_of(played, 1 - player)   # None: no pair is keyed by it, so MAST decides
        table, pairs = self.table, self.pairs
        return [pairs.get((player, previous, m)) or table.get((player, m)) for m in moves]

    def learn(self, played, outcome):
        super().learn(played, outcome)
        pairs, last = self.pairs, [None, None]     # each player's last move so far
        for player, move in played:
            previous = last[1 - player]
            if previous is not None:
                credit(pairs, (player, previous, move), player, outcome)
            last[player] = move


DECISIVE_MAX_MOVES = 40   # more legal moves than this: a decisive playout step is a random move


class DecisivePlayout(ChoicePlayout):
    """Decisive and anti-decisive moves (Teytaud and Teytaud 2010, "On the huge benefit of
    decisive moves in Monte-Carlo tree search algorithms").

    At each step: a move that wins at once, if there is one (the first found); else a
    uniformly random move among the safe ones; else (every move is unsafe) a uniformly
    random move.  A move wins at once when the game is over after it with a win for its
    mover; it is unsafe when the game is over after it with a loss for its mover, or when
    the opponent moves next and has a move that wins at once.  After a move that gives its
    mover another turn (``to_move`` unchanged) the opponent cannot win at once: safe.
    Every verdict is the rules contract's ``outcome()`` on a copy after the move, never the
    policy's own reading of a game's rules.

    Above ``DECISIVE_MAX_MOVES`` legal moves a step is a random move: the look-ahead's cost
    grows with the square of the moves (a Life playout filling the board took seconds, longer
    than a move's time).  Cost: each step plays every legal move on a copy, then every reply
    to the moves it tries for safety, in a random order until one is safe (usually the first): about
    ``2 * moves`` copies and ``outcome()`` calls a ply, against one ``random_move`` for the
    plain policy.
    """

    name = "decisive"

    def choose(self, state, moves, rng, played=()):
        if len(moves) > DECISIVE_MAX_MOVES:       # the look-ahead would cost a move's time: random
            return moves[int(rng.random() * len(moves))]
        mover = state.to_move
        win, loss = 1.0 - mover, float(mover)     # the first player's score when ``mover`` wins / loses
        afters = []
        for m in moves:
            after = state.copy()
            after.play(m)
            result = after.outcome()
            if result == win:
                return m
            afters.append((after, result))
        untested = list(range(len(moves)))     # tested in a random order: the first safe move is uniform
        while untested:
            k = int(rng.random() * len(untested))
            i = untested[k]
            untested[k] = untested[-1]
            untested.pop()
            after, result = afters[i]
            safe = result != loss if result is not None else not opponent_wins_at_once(after, mover)
            if safe:
                return moves[i]
        return moves[int(rng.random() * len(moves))]


def opponent_wins_at_once(state: State, mover: int) -> bool:
    """Whether, in ``state`` (a game that goes on, just after ``mover``'s move), the opponent
    of ``mover`` is to move and has a move after which the game is over with their win
    (``outcome()`` on a copy)."""
    opponent = state.to_move
    if opponent == mover:       # an extra turn: the opponent does not move next
        return False
    win = 1.0 - opponent
    for reply in state.legal_moves():
        after = state.copy()
        after.play(reply)
        if after.outcome() == win:
            return True
    return False


POLICIES = {p.name: p for p in (Playout, CapturePlayout, GreedyEpsilonPlayout, MastPlayout, NstPlayout,
                                 DecisivePlayout)}


def make_playout(name: str, depth: int = 0, epsilon: float = 0.1, keep_stats: bool = False) -> Playout:
    """The policy called ``name`` (see ``POLICIES``): cut off after ``depth`` plies (0 = none),
    exploring at rate ``epsilon`` (greedy-eps, mast, nst), keeping its statistics across games
    with ``keep_stats`` (mast, nst)."""
    try:
        return POLICIES[name](depth, epsilon, keep_stats)
    except KeyError:
        raise ValueError(f"unknown playout {name!r}; playouts: {', '.join(POLICIES)}") from None
