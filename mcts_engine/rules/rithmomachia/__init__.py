"""Rithmomachia, the "Battle of Numbers": a subpackage of four modules.

* ``game.py``: the game and the state: movement, FEN, notation, the drawing;
* ``captures.py``: the capture rules and their incremental resolution after a move;
* ``glory.py``: the glorious victories (progressions in enemy territory);
* ``options.py``: the rule options, their presets and the set-ups.
"""
from .game import RithmomachiaGame, RithmomachiaState, make_game, piece_text, piece_total
from .options import BLACK, WHITE

__all__ = ["RithmomachiaGame", "RithmomachiaState", "make_game", "piece_text", "piece_total", "BLACK", "WHITE"]
