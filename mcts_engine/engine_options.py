"""How an engine option is declared: once, as metadata on the dataclass field it sets.

A field of ``mcts.settings.Settings`` (or of the protocol's ``SessionOptions``) made with
``engine_field(default, EngineOption(...))`` is an engine option: its protocol name, type,
range or choices, help text and whether a game's measured defaults may set it live here,
and everything else is derived from them: the ``uci`` option lines and Hub ``param`` lines,
the parser from client text into the field's value, the ``Settings`` an engine searches
with, and the option table of docs/protocol.md (a test compares the two).

This module imports nothing of the project but ``echo``, so the search's settings can declare their
options without knowing the protocol that lists them.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .echo import short

KINDS = ("check", "spin", "combo", "string", "real")


class OptionError(ValueError):
    """A bad option name or value; the message names the allowed values or range."""


def real_text(x: float) -> str:
    """A real number as the protocol writes it: positional, never an exponent (``0.00001``), ``0`` for zero."""
    if x == 0:
        return "0"
    text = repr(float(x))
    return text if "e" not in text else format(Decimal(text), "f")


@dataclass(frozen=True)
class EngineOption:
    """One engine option's declaration (the field's default is its default).

    ``kind``: ``check`` (true/false), ``spin`` (an integer in [low, high]), ``combo`` (one of
    ``choices``), ``string``, or ``real`` (a real number in [low, high], high None = no
    bound; listed as a ``string`` option, as UCI has no real type).  ``help`` is the
    option's meaning (markdown: it is docs/protocol.md's text).  ``game_default``: a game's
    measured defaults (``protocol/game_defaults.py``) may set it.  ``per``: the option
    counts in 1/per of the field's unit (``MoveOverhead`` in ms sets seconds).
    ``values_text`` replaces the derived range in the docs table.
    """

    name: str
    kind: str
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    game_default: bool = False
    per: int = 1
    values_text: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "combo" and not self.choices:
            raise ValueError(f"option {self.name}: a combo needs its choices")
        if self.kind == "spin" and (self.low is None or self.high is None):
            raise ValueError(f"option {self.name}: a spin needs low and high")

    @property
    def protocol_type(self) -> str:
        """The type a ``uci`` option line names (a real number is a ``string``)."""
        return "string" if self.kind == "real" else self.kind

    def parse(self, value: str | None) -> Any:
        """The option's value from the text a client sent (bool, int, str or float); raises OptionError."""
        if self.kind == "string":
            return "" if value is None or value == "<empty>" else value
        text = "" if value is None else value
        if self.kind == "real":
            return self._real(text)
        if value is None or value == "":
            raise OptionError(f"option {self.name} needs a value ({self.allowed()})")
        if self.kind == "check":
            if text.lower() not in ("true", "false"):
                raise self._bad(text)
            return text.lower() == "true"
        if self.kind == "spin":
            try:
                number = int(text)
            except ValueError:
                raise self._bad(text) from None
            if not self.low <= number <= self.high:
                raise self._bad(text)
            return number
        for choice in self.choices:   # combo: case-insensitive, answered in the declared spelling
            if choice.lower() == text.lower():
                return choice
        raise self._bad(text)

    def _real(self, text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            x = math.nan
        if not math.isfinite(x) or x < self.low or (self.high is not None and x > self.high):
            raise self._bad(text)
        return x

    def _bad(self, value: str) -> OptionError:
        return OptionError(f"option {self.name} value {short(value)!r} is not {self.allowed()}")

    def allowed(self) -> str:
        """The allowed values, in words (error messages)."""
        if self.kind == "real":
            return (f"a real number >= {self.low:g}" if self.high is None
                    else f"a real number in [{self.low:g}, {self.high:g}]")
        return {"check": "true or false", "spin": f"an integer in [{self.low}, {self.high}]",
                "combo": "one of " + ", ".join(self.choices)}.get(self.kind, "a string")

    def text(self, value: Any) -> str:
        """A value as the protocol writes it (``true``, ``30``, ``0.37``; an empty string stays empty)."""
        if self.kind == "check":
            return "true" if value else "false"
        if self.kind == "real":
            return real_text(value)
        return str(value)

    def to_field(self, value: Any) -> Any:
        """The field's value for an option value (``per``: ms -> seconds)."""
        return value / self.per if self.per != 1 else value

    def from_field(self, value: Any) -> Any:
        """The option value of a field's value (the default the option table lists)."""
        return round(value * self.per) if self.per != 1 else value


def engine_field(default: Any, option: EngineOption) -> Any:
    """A dataclass field with ``default`` that is the engine option ``option``."""
    return dataclasses.field(default=default, metadata={"option": option})


@dataclass(frozen=True)
class DeclaredOption:
    """An engine option as a dataclass declares it: the field it sets, the declaration, its default."""

    field: str
    option: EngineOption
    default: Any

    @property
    def key(self) -> str:
        """The option's name in lower case (option names are case-insensitive)."""
        return self.option.name.lower()


def declared_options(cls: type) -> tuple[DeclaredOption, ...]:
    """The engine options ``cls`` (a dataclass) declares, in field order, with their defaults as option values."""
    out = []
    for f in dataclasses.fields(cls):
        option = f.metadata.get("option")
        if option is not None:
            out.append(DeclaredOption(f.name, option, option.from_field(f.default)))
    return tuple(out)


def choices(cls: type, field_name: str) -> tuple[str, ...]:
    """The choices of the combo option on ``cls``'s field ``field_name`` (for command lines)."""
    return next(d.option.choices for d in declared_options(cls) if d.field == field_name)
