"""The reference for the search core's alpha-beta (native/src/alphabeta.c: alpha-beta leaves
and the root check): a plain negamax of the Python rules' evaluate()."""
from __future__ import annotations

AB_QUIESCENCE = 4          # native/src/search_internal.h: capture plies searched past the depth


def random_walk(game, rng, plies: int):
    """The position ``plies`` uniformly random moves from ``game``'s start (fewer where the game
    ends first)."""
    state = game.new_state()
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    return state


def played(state, move):
    """A copy of ``state`` after ``move``."""
    child = state.copy()
    child.play(move)
    return child


def negamax(state, depth: int, ext: int | None = None) -> float:
    """The value of ``state`` for the side to move: negamax of evaluate() ``depth`` plies
    deep, then the pending (compulsory) captures at most AB_QUIESCENCE plies more; a position
    with a single move (within the depth) costs no ply, ``ext`` times at most (default: ``depth``)."""
    ext = depth if ext is None else ext
    outcome = state.outcome()
    mover = state.to_move
    if outcome is not None:
        return outcome if mover == 0 else 1.0 - outcome
    stand = state.evaluate() if mover == 0 else 1.0 - state.evaluate()
    if depth <= 0 and (not state.compulsory_captures or depth <= -AB_QUIESCENCE):
        return stand
    moves = state.legal_moves()
    if not moves:
        return 0.5
    if depth <= 0 and not state.is_capture(moves[0]):
        return stand
    if depth > 0 and len(moves) == 1 and ext > 0:
        return 1.0 - negamax(played(state, moves[0]), depth, ext - 1)
    return max(1.0 - negamax(played(state, move), depth - 1, ext) for move in moves)
