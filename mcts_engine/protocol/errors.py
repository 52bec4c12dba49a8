"""The protocol's own error, and how client text is quoted back in error lines.

Three kinds of bad input reach a dialect, each from the layer that knows it:
``ProtocolError`` (this module: a malformed or unknown command), ``OptionError``
(``options.py``: a bad option name or value) and the rules' ``RulesError`` (a bad
FEN, an illegal move, a bad rule option).  A dialect answers each with one error
line and leaves the engine's state unchanged.
"""
from __future__ import annotations

MAX_ECHO = 200            # longest piece of client text quoted back in an error line


class ProtocolError(ValueError):
    """A command the protocol cannot read: unknown, malformed, or out of place."""


def short(text: object, limit: int = MAX_ECHO) -> str:
    """Client text cut to ``limit`` characters for quoting in an error line."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


def one_line(text: object, limit: int = 4 * MAX_ECHO) -> str:
    """A message as one output line of bounded length."""
    return short(" ".join(str(text).split()), limit)
