"""The bridge to the native kernel: a compiled variant handed to C as numbers, never as text.

``native_kernel(game)`` gives the ``DraughtsKernel`` of a ``DraughtsGame`` (None where the
kernel is missing or switched off): it reads the direction tables, scan plans and draw
parameters the Python generator compiled from the variant's row, so the C code derives no
rule of its own, and both run on the same bit layout (``geometry.DarkGrid``).
"""
from __future__ import annotations

from typing import Any

from ... import native
from .generator import MoveGenerator
from .evaluation import EVAL_ADVANCE, EVAL_SCALE, NO_TERMS, EvalTerms

_PROMOTION = {"stop": 0, "pass": 1, "fly": 2}
_LANDING = {"any": 0, "next": 1, "killer": 2}
_CHOICE = {"free": 0, "max": 1, "max-kings": 2, "italian": 3, "frisian": 4, "king-first": 5}
_GOAL = {"block": 0, "lose": 1, "crown": 2}
_COUNTS = {"none": 0, "fmjd": 1, "russian": 2, "frisian": 3, "turkish": 4}


def _c_int(name: str, value: int) -> int:
    """``value`` as the kernel's C ``int`` field ``name`` takes it; ValueError if it does not fit
    (the rule options are bounded where they are parsed: a variant built past them lands here)."""
    if not -2**31 <= value < 2**31:
        raise ValueError(f"kernel spec {name}={value} does not fit a C int")
    return value


def kernel_spec(game: MoveGenerator, terms: EvalTerms = NO_TERMS) -> dict[str, Any]:
    """Everything the kernel needs of ``game`` (evaluating with the positional ``terms``), as
    ints, floats and tuples of them."""
    v = game.variant
    masks = game.eval_masks
    return {
        "wide": int(game.points.bit_length() > 64),
        "points": game.points, "promo": tuple(game.promo), "far_half": tuple(game.far_half),
        "long_diagonal": game.long_diagonal,
        "plans": tuple(tuple(tuple(group for group in case) for case in cases) for cases in game.plans),
        "king_step_up": game.king_step_up, "king_step_down": game.king_step_down,
        "king_jump": game.king_jump, "king_jump_equals_step": int(game.king_jump == game.king_step),
        "man_jump": tuple(game.man_jump),
        "king_only": None if game.king_only_jumps is None else
        (tuple(d for d, _ in game.king_only_jumps[0]), tuple(d for d, _ in game.king_only_jumps[1])),
        "flying": int(game.flying), "man_takes_king": int(game.man_takes_king),
        "king_reverse": int(game.king_reverse), "immediate": int(game.immediate),
        "promotion": _PROMOTION[game.promotion], "landing": _LANDING[game.king_landing],
        "choice": _CHOICE[v.choice], "goal": _GOAL[v.goal],
        "repetition": _c_int("repetition", game.repetition), "no_progress": game.no_progress,
        "quiet_on_man_move": int(game.quiet_on_man_move), "men_sideways": int(game.men_sideways),
        "king_move_limit": _c_int("king_move_limit", game.king_move_limit), "extra_rules": int(game.extra_rules),
        "endgame": _COUNTS[v.endgame], "endgame_max": game.endgame_max, "endgame_floor": game.endgame_floor,
        "stuck_score": tuple(game.stuck_score), "king_value": game.king_value,
        "eval_scale": EVAL_SCALE, "eval_advance": EVAL_ADVANCE, "start_pieces": game.start_pieces,
        "man_step": tuple(tuple(d) for d in game.man_step),
        "eval_terms": terms.weights(),
        "back_rank": masks.back_rank, "centre": masks.centre, "near_crown": masks.near_crown, "edge": masks.edge,
        "guard": masks.guard, "tempo_bits": masks.tempo_bits,
    }


def native_kernel(game: MoveGenerator, terms: EvalTerms = NO_TERMS):
    """The compiled kernel of ``game`` (evaluating with ``terms``), or None where the native
    kernel is not available."""
    if not native.available():
        return None
    return native.core.DraughtsKernel(kernel_spec(game, terms))
