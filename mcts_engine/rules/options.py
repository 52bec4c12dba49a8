"""Rule options: one schema per game and one parser for all of them.

A game declares its rule options as a ``Schema``: a tuple of ``Option`` rows (name,
kind, default, allowed values, a one-line doc).  ``Schema.parse`` turns the options a
caller gives (strings from the protocol's ``Rules key=value,...`` option, or Python
values from keyword arguments) into typed values, so every game reads the same
true/false words and reports a bad option in the same words::

    english has no rule option 'foo'; options: size, squares, ...
    english rule option king_range='far' is not one of: short, flying

Kinds: ``bool`` (true/false, yes/no, on/off, 1/0, any case), ``int`` and ``real``
(with an optional range), ``choice`` (one of the listed values, matched by their
text in any case; the values may be ints) and ``text`` (kept as given; the game
checks it when it builds itself).  ``aliases`` map other spellings to a value
(``none`` -> None, ``17`` -> ``british``).  A schema may offer ``presets``: the
option ``preset`` names a set of values applied before the options given explicitly.

Cross-option rules (Life's standard opening needs a board of 15 or more) stay with
the game; it reports them with ``option_error`` in the same shape.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from .errors import BadOption

KINDS = ("bool", "int", "real", "choice", "text")
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Option:
    """One rule option: its name, kind, default, allowed values and what it means."""

    name: str
    kind: str                      # one of KINDS
    default: Any
    doc: str = ""
    choices: tuple = ()            # choice: the allowed values
    low: float | None = None       # int / real: the smallest allowed value
    high: float | None = None      # int / real: the largest allowed value
    aliases: Mapping[str, Any] = field(default_factory=dict)   # other spellings (lower case) -> value

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option {self.name}: a choice needs its choices")

    def allowed(self) -> str:
        """The allowed values in words, for error messages and documentation."""
        if self.kind == "bool":
            return "true or false (also yes/no, on/off, 1/0)"
        if self.kind == "choice":
            return "one of: " + ", ".join(str(c) for c in self.choices)
        if self.kind == "text":
            return "a text"
        what = "a whole number" if self.kind == "int" else "a number"
        if self.low is not None and self.high is not None:
            what += f" from {_number(self.low)} to {_number(self.high)}"
        elif self.low is not None:
            what += f" >= {_number(self.low)}"
        elif self.high is not None:
            what += f" <= {_number(self.high)}"
        named = [k for k in self.aliases if k]
        return what + (f" (or {', '.join(named)})" if named else "")

    def parse(self, raw: Any, game: str) -> Any:
        """The typed value of ``raw`` (a string or a Python value); BadOption if it is not allowed."""
        if self.kind == "text":
            return str(raw)
        text = str(raw).strip()
        if text.lower() in self.aliases:
            return self.aliases[text.lower()]
        value = _READERS[self.kind](self, raw, text)
        if value is _BAD:
            raise option_error(game, self.name, raw, "is not " + self.allowed())
        return value


_BAD = object()   # a reader's answer for a value it cannot accept


def _read_bool(option: Option, raw: Any, text: str) -> Any:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    word = text.lower()
    return True if word in TRUE_WORDS else False if word in FALSE_WORDS else _BAD


def _read_number(option: Option, raw: Any, text: str) -> Any:
    if isinstance(raw, bool):
        return _BAD
    try:
        value = int(text) if option.kind == "int" else float(text)
    except ValueError:
        return _BAD
    if (option.low is not None and value < option.low) or (option.high is not None and value > option.high):
        return _BAD
    return value


def _read_choice(option: Option, raw: Any, text: str) -> Any:
    word = text.lower()
    for choice in option.choices:
        if str(choice).lower() == word:
            return choice
    return _BAD


_READERS = {"bool": _read_bool, "int": _read_number, "real": _read_number, "choice": _read_choice}


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def option_error(game: str, key: str, value: Any, why: str) -> BadOption:
    """The one shape of a bad-value error: ``<game> rule option <key>=<value> <why>``."""
    return BadOption(f"{game} rule option {key}={value!r} {why}")


def option_key(key: Any) -> str:
    """An option name as the schemas spell it: lower case, ``_`` for ``-``."""
    return str(key).strip().lower().replace("-", "_")


@dataclass(frozen=True)
class Schema:
    """The rule options of one game (in the order ``game.options`` lists them)."""

    game: str
    options: tuple[Option, ...] = ()
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)   # preset -> option values

    def __getitem__(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    def names(self) -> list[str]:
        """The option names, in order."""
        return [o.name for o in self.options]

    def defaults(self) -> dict[str, Any]:
        """Every option at its default."""
        return {o.name: o.default for o in self.options}

    def only(self, names: tuple[str, ...] | list[str]) -> "Schema":
        """The schema restricted to the options ``names`` (kept in schema order)."""
        return replace(self, options=tuple(o for o in self.options if o.name in names))

    def parse(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value: the defaults, then the preset's values (if any), then ``given``.

        Raises BadOption naming an unknown option (with the known ones) or a bad value
        (with the allowed ones).
        """
        values = self.defaults()
        wanted: dict[str, Any] = {}
        for key, raw in given.items():
            name = option_key(key)
            if name not in values:
                raise BadOption(f"{self.game} has no rule option {str(key)!r}; options: "
                                + ", ".join(self.names()))
            wanted[name] = raw
        if self.presets:
            preset = self["preset"].parse(wanted.pop("preset", values["preset"]), self.game)
            values.update(self.presets[preset])
            values["preset"] = preset
        for name, raw in wanted.items():
            values[name] = self[name].parse(raw, self.game)
        return values


def option_field(default: Any, doc: str, *, choices: tuple = (), low: float | None = 0,
                 high: float | None = None, aliases: Mapping[str, Any] | None = None) -> Any:
    """A dataclass field that is also a rule option, declared once with its doc (see ``schema_of``).

    The kind follows from the default and ``choices``: bool, choice, int (>= ``low``,
    0 unless said), real, or text.
    """
    if isinstance(default, bool):
        kind = "bool"
    elif choices:
        kind = "choice"
    else:
        kind = {int: "int", float: "real"}.get(type(default), "text")
    option = Option("", kind, default, doc, tuple(choices), low if kind in ("int", "real") else None, high,
                    dict(aliases or {}))
    return field(default=default, metadata={"option": option})


def schema_of(cls: type, game: str, row: Any = None) -> Schema:
    """The rule options of a dataclass of rule parameters: its ``option_field`` fields, in
    order, with the values of ``row`` (an instance: a variant's row) as defaults."""
    options = []
    for f in fields(cls):
        option = f.metadata.get("option")
        if option is not None:
            default = getattr(row, f.name) if row is not None else option.default
            options.append(replace(option, name=f.name, default=default))
    return Schema(game, tuple(options))


def parse_rule_options(text: str) -> dict[str, str]:
    """Read the protocol's ``Rules`` string ``key=value,key=value`` into a dict of strings.

    Keys are spelled as the schemas spell them (``no-progress`` -> ``no_progress``); values
    stay strings for ``Schema.parse``.  Raises BadOption naming a piece without ``=``.
    """
    options: dict[str, str] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BadOption(f"rule option {part!r} is not key=value")
        options[option_key(key)] = value.strip()
    return options
