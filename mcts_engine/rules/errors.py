"""The errors of the rules layer (``base.py`` re-exports them with the contract).

Every one is a ``ValueError`` (a bad input), so callers that only care whether an
input was acceptable catch ``RulesError``; the message names the input and what is wrong.
"""
from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error raised by the rules layer."""


class UnknownGame(RulesError):
    """A game or variant name that is not registered."""


class BadOption(RulesError):
    """A rule option that the game does not have, or a value it does not allow."""


class BadPosition(RulesError):
    """A FEN (position text) that cannot be read or describes an impossible position."""


class IllegalMove(RulesError):
    """A move text that is malformed or not legal in the position."""


class AmbiguousMove(IllegalMove):
    """A short move text that matches several legal moves; ``candidates`` lists them."""

    def __init__(self, message: str, candidates: list[str]):
        super().__init__(message)
        self.candidates = candidates
