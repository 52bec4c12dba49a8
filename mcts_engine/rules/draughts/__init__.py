"""The draughts family: every national draughts game as one row of a variant table.

* ``variants.py``: the table (``Variant``, ``VARIANTS``, ``ALIASES``) and the endgame counts;
* ``generator.py``: the one move generator every row compiles into (``MoveGenerator``);
* ``game.py``: a compiled row (``DraughtsGame``): board layout, notation, start, draw rules;
* ``state.py``: a position with its draw counters (``DraughtsState``), the rules contract.
"""
from __future__ import annotations

from .game import DraughtsGame, make_game
from .generator import Move, MoveGenerator
from .state import DraughtsState
from .variants import ALIASES, VARIANTS, Variant, schema, variant_with_options

__all__ = ["ALIASES", "VARIANTS", "DraughtsGame", "DraughtsState", "Move", "MoveGenerator", "Variant",
           "make_game", "schema", "variant_with_options"]
