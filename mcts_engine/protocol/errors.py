"""The protocol's own error.

Three kinds of bad input reach a dialect, each from the layer that knows it:
``ProtocolError`` (this module: a malformed or unknown command), ``OptionError``
(``engine_options.py``: a bad option name or value) and the rules' ``RulesError`` (a bad
FEN, an illegal move, a bad rule option).  A dialect answers each with one error
line and leaves the engine's state unchanged (client text quoted by ``echo.py``).
"""
from __future__ import annotations


class ProtocolError(ValueError):
    """A command the protocol cannot read: unknown, malformed, or out of place."""
