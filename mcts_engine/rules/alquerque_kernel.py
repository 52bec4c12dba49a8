"""The bridge to the Alquerque family's native rules: a compiled game handed to C as numbers.

``native_rules(game)`` gives the ``AlquerqueRules`` of an ``AlquerqueGame`` (None where the
native core is missing or switched off, ``MCTS_ENGINE_NATIVE=0``): ``rules_spec`` reads the
line masks, step and jump plans and rule parameters the Python game compiled from its row, so
the C code (``native/src/alquerque*.c``) derives no rule of its own, and both run on the same
bit layout (``geometry.LineBoard``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import native

if TYPE_CHECKING:
    from .alquerque import AlquerqueGame

CHAIN = {"compulsory": 0, "optional": 1, "single": 2}    # the chain option as the C enum (alquerque.h)
PROMOTION = {"none": 0, "stop": 1, "pass": 2}             # the promotion option as the C enum


def rules_spec(game: "AlquerqueGame") -> dict[str, Any]:
    """Everything the native rules need of ``game``, as ints, floats and tuples of them, each
    table in the order the Python generator walks it (the moves come out in the same order)."""
    r = game.rules
    return {
        "name": game.name, "wide": int(game.points.bit_length() > 64), "points": game.points,
        "lines": tuple((d, mask, game.jline[d]) for d, mask in game.line.items()),
        "step_up": tuple(tuple(plan) for plan in game.step_up),
        "step_down": tuple(tuple(plan) for plan in game.step_down),
        "jump_up": tuple(tuple(plan) for plan in game.jump_up),
        "jump_down": tuple(tuple(plan) for plan in game.jump_down),
        "promo": tuple(game.promo),
        "hunt": int(game.hunt), "compulsory": int(game.compulsory), "immediate": int(game.immediate),
        "chain": CHAIN[game.chain], "promotion": PROMOTION[game.promotion], "king_reverse": int(game.king_reverse),
        "huff": int(game.huff), "choice_max": int(r.choice == "max"),
        "crown_is_progress": int(game.crown_is_progress), "repetition": game.repetition,
        "no_progress": game.no_progress, "max_plies": game.max_plies,
        "flock": game.flock, "king_value": game.king_value,
    }


def native_rules(game: "AlquerqueGame"):
    """The native rules of ``game``, or None where the native core is not available."""
    if not native.available():
        return None
    return native.core.AlquerqueRules(rules_spec(game))
