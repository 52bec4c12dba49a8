"""How client text is quoted back in error lines: cut short, on one line.

Every layer that answers bad client text (the protocol's dialects, the engine options)
quotes it through these two, so an error line stays one bounded line.
"""
from __future__ import annotations

MAX_ECHO = 200            # longest piece of client text quoted back in an error line


def short(text: object, limit: int = MAX_ECHO) -> str:
    """Client text cut to ``limit`` characters for quoting in an error line."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


def one_line(text: object, limit: int = 4 * MAX_ECHO) -> str:
    """A message as one output line of bounded length."""
    return short(" ".join(str(text).split()), limit)
