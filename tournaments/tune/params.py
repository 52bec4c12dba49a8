"""The parameters a tune varies: how they are written, checked against the engine, rounded,
clamped and printed.

A parameter is a numeric engine option with a start value, bounds and, for SPSA, the two
step sizes of fishtest at the end of the run: ``c_end`` (how far theta+ and theta- lie from
theta) and ``r_end`` (the learning rate).  Written as:

* **lines** (fishtest): ``name,start,min,max,c_end,r_end``, one parameter a line; blank
  lines and ``#`` comments are skipped;
* **lines with a type** (OpenBench): ``name,int,start,min,max,c_end,r_end`` (or ``float``);
* ``c_end,r_end`` may be left off (``name,start,min,max``) for the Optuna optimizers, which
  do not use them;
* **TOML** (``.toml``): ``[params.UCT_C]`` tables with ``start``, ``min``, ``max`` and
  optionally ``c_end``, ``r_end``, ``type``; **JSON** (``.json``): the same as
  ``{"params": {"UCT_C": {...}}}``;
* **the command line**: ``--param "UCT_C,4.0,0,8,0.4,0.1"``, the line format.

A parameter whose type is not written is an ``int`` when the engine declares the option as
``type spin`` and a ``float`` otherwise (``with_engine_types``).  Integer values are rounded
at random between their neighbours (OpenBench: ``floor(x + u)``, ``u`` uniform in [0, 1)),
so on average an integer parameter plays at its real-valued theta; every value is clamped to
its bounds.
"""
from __future__ import annotations

import json
import math
import re
import shlex
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from mcts_engine.client.process import AdvertisedOption

TYPES = ("int", "float")


class ParamError(ValueError):
    """A bad parameter description; the message names the file and line (or the argument)."""


@dataclass(frozen=True)
class Param:
    """One tuned engine option: start, bounds, SPSA's end step sizes, and its type."""

    name: str
    start: float
    low: float
    high: float
    c_end: float | None = None        # SPSA: the perturbation at the last iteration
    r_end: float | None = None        # SPSA: the learning rate at the last iteration
    integer: bool | None = None       # None: not written; the engine's declaration decides

    @property
    def kind(self) -> str:
        """``int``, ``float`` or ``?`` (not decided yet)."""
        return "?" if self.integer is None else ("int" if self.integer else "float")


# --- reading ----------------------------------------------------------------------------------

def parse_line(text: str, where: str) -> Param:
    """One parameter in the line format (fishtest's, or OpenBench's with a type column)."""
    fields = [f.strip() for f in text.split(",")]
    typed = len(fields) > 1 and fields[1].lower() in TYPES
    numbers = fields[2:] if typed else fields[1:]
    if len(numbers) not in (3, 5):
        raise ParamError(f"{where}: expected name,start,min,max,c_end,r_end "
                         f"(or name,int|float,start,min,max,c_end,r_end; c_end,r_end may be left off), "
                         f"got {len(fields)} fields")
    keys = ("start", "min", "max", "c_end", "r_end")
    values = {key: _number(value, key, where) for key, value in zip(keys, numbers)}
    integer = fields[1].lower() == "int" if typed else None
    return checked(Param(fields[0], values["start"], values["min"], values["max"], values.get("c_end"),
                         values.get("r_end"), integer), where)


def parse_lines(lines: Iterable[str], where: str) -> list[Param]:
    """Parameters in the line format, one a line; blank lines and ``#`` comments skipped."""
    out = []
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append(parse_line(line, f"{where}:{number}"))
    return out


def read_params(path: str | Path) -> list[Param]:
    """The parameters of a file: TOML (``.toml``), JSON (``.json``) or the line format."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ParamError(f"{path}: cannot read: {err}") from None
    suffix = path.suffix.lower()
    if suffix == ".toml":
        import tomllib
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise ParamError(f"{path}: not valid TOML: {err}") from None
        return _from_tables(data, str(path))
    if suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ParamError(f"{path}: not valid JSON: {err}") from None
        return _from_tables(data, str(path))
    return parse_lines(text.splitlines(), str(path))


def load_params(path: str | None, lines: Sequence[str]) -> tuple[Param, ...]:
    """The parameters of ``--params FILE`` and of each ``--param LINE``; at least one, names unique."""
    params = read_params(path) if path else []
    params += [parse_line(line, f"--param {line!r}") for line in lines]
    if not params:
        raise ParamError("no parameters to tune: give --params FILE or --param name,start,min,max,c_end,r_end")
    seen: dict[str, str] = {}
    for p in params:
        if p.name.lower() in seen:
            raise ParamError(f"parameter {p.name!r} is given twice")
        seen[p.name.lower()] = p.name
    return tuple(params)


_TABLE_KEYS = {"start", "min", "max", "c_end", "r_end", "type"}


def _from_tables(data, where: str) -> list[Param]:
    """``{"params": {name: {start, min, max[, c_end, r_end][, type]}}}`` (TOML or JSON)."""
    if not isinstance(data, dict) or not isinstance(data.get("params"), dict) or not data["params"]:
        raise ParamError(f"{where}: expected a 'params' table of parameters, e.g. "
                         "[params.UCT_C] start = 1.0, min = 0.0, max = 4.0, c_end = 0.3, r_end = 0.1")
    out = []
    for name, table in data["params"].items():
        here = f"{where}: parameter {name!r}"
        if not isinstance(table, dict):
            raise ParamError(f"{here}: expected a table with start, min, max, c_end, r_end, type")
        unknown = set(table) - _TABLE_KEYS
        if unknown:
            raise ParamError(f"{here}: unknown keys {sorted(unknown)} (keys: {', '.join(sorted(_TABLE_KEYS))})")
        missing = [k for k in ("start", "min", "max") if k not in table]
        if missing:
            raise ParamError(f"{here}: missing {', '.join(missing)}")
        kind = table.get("type")
        if kind is not None and kind not in TYPES:
            raise ParamError(f"{here}: type {kind!r} is not int or float")
        values = {k: _number(table[k], k, here) for k in ("start", "min", "max", "c_end", "r_end") if k in table}
        if ("c_end" in values) != ("r_end" in values):
            raise ParamError(f"{here}: give both c_end and r_end, or neither")
        out.append(checked(Param(str(name), values["start"], values["min"], values["max"], values.get("c_end"),
                                 values.get("r_end"), None if kind is None else kind == "int"), here))
    return out


def _number(value, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ParamError(f"{where}: {key} {value!r} is not a number")
    try:
        number = float(value)
    except ValueError:
        raise ParamError(f"{where}: {key} {value!r} is not a number") from None
    if not math.isfinite(number):
        raise ParamError(f"{where}: {key} {value!r} is not a finite number")
    return number


def checked(p: Param, where: str) -> Param:
    """The parameter if it makes sense (a name, min < max, start within, positive step sizes,
    whole numbers for an int); else ParamError naming ``where``."""
    if not p.name or not re.fullmatch(r"[^\s=,#][^=,#]*", p.name) or p.name != p.name.strip():
        raise ParamError(f"{where}: bad option name {p.name!r} (no '=', ',' or '#', no spaces at the ends)")
    if not p.low < p.high:
        raise ParamError(f"{where}: {p.name}: min {p.low:g} must be less than max {p.high:g}")
    if not p.low <= p.start <= p.high:
        raise ParamError(f"{where}: {p.name}: start {p.start:g} is outside [{p.low:g}, {p.high:g}]")
    if p.c_end is not None and not p.c_end > 0:
        raise ParamError(f"{where}: {p.name}: c_end {p.c_end:g} must be positive")
    if p.r_end is not None and not p.r_end > 0:
        raise ParamError(f"{where}: {p.name}: r_end {p.r_end:g} must be positive")
    if p.integer:
        for key, value in (("start", p.start), ("min", p.low), ("max", p.high)):
            if value != int(value):
                raise ParamError(f"{where}: {p.name} is an int parameter but its {key} is {value:g}")
    return p


# --- the engine's declarations ------------------------------------------------------------------

def with_engine_types(params: Sequence[Param], declared: dict[str, AdvertisedOption],
                      engine: str) -> tuple[Param, ...]:
    """The parameters with their types decided and checked against the engine's declarations.

    ``declared`` maps each option name the engine declares to its declaration (its ``option
    name ...`` line, read).  A parameter must name a declared option of type ``spin`` (an
    int, within its declared min and max) or ``string`` (a real number the engine parses
    itself); a float parameter cannot tune a spin option.
    """
    by_lower = {name.lower(): option for name, option in declared.items()}
    out = []
    for p in params:
        if p.name.lower() not in by_lower:
            raise ParamError(f"parameter {p.name!r}: engine {engine} declares no such option "
                             f"(its options: {', '.join(declared)})")
        option = by_lower[p.name.lower()]
        if option.type == "spin":
            if p.integer is False:
                raise ParamError(f"parameter {p.name!r} is a float but {engine} declares {option.name} as an "
                                 "integer (type spin): make it int")
            p = checked(replace(p, integer=True), f"parameter {p.name!r}")
            low, high = option.low, option.high
            if low is not None and high is not None and not (low <= p.low and p.high <= high):
                raise ParamError(f"parameter {p.name!r}: [{p.low:g}, {p.high:g}] is outside the engine's "
                                 f"range for {option.name}, [{low:g}, {high:g}]")
        elif option.type == "string":
            p = replace(p, integer=bool(p.integer))
        else:
            raise ParamError(f"parameter {p.name!r}: {engine} declares {option.name} as type {option.type}, not a "
                             "number (spin or string)")
        out.append(p)
    return tuple(out)


# --- values --------------------------------------------------------------------------------------

def starts(params: Sequence[Param]) -> np.ndarray:
    """The start values as a vector."""
    return np.array([p.start for p in params], dtype=float)


def clamp(values: np.ndarray, params: Sequence[Param]) -> np.ndarray:
    """Every value within its parameter's bounds."""
    return np.clip(values, [p.low for p in params], [p.high for p in params])


def round_random(values: np.ndarray, params: Sequence[Param], u: np.ndarray) -> np.ndarray:
    """Integer parameters rounded at random between their neighbours: ``floor(x + u)`` with
    ``u`` uniform in [0, 1), so the expected value is ``x``; floats unchanged."""
    integer = np.array([bool(p.integer) for p in params])
    return np.where(integer, np.floor(values + u), values)


def decimals(p: Param) -> int:
    """How many decimals a float parameter is shown with: one below its resolution (``c_end``,
    else a hundredth of its range)."""
    resolution = p.c_end if p.c_end is not None else (p.high - p.low) / 100
    return max(0, 1 - math.floor(math.log10(resolution)))


def value_text(p: Param, x: float, full: bool = False) -> str:
    """A value as option text: an int rounded to the nearest; a float to ``decimals`` (or six
    significant digits with ``full``, as sent to the engines during the tune)."""
    if p.integer:
        return str(int(round(x)))
    text = f"{x:.6g}" if full else f"{x:.{decimals(p)}f}"
    if "." in text and "e" not in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def options(params: Sequence[Param], values: Sequence[float], full: bool = True) -> dict[str, str]:
    """The engine options that play ``values``."""
    return {p.name: value_text(p, x, full) for p, x in zip(params, values)}


def spec_fragment(params: Sequence[Param], values: Sequence[float]) -> str:
    """The values as an engine SPEC fragment: ``option.UCT_C=0.83 option.Epsilon=0.07``."""
    return " ".join(shlex.quote(f"option.{name}={text}") for name, text in options(params, values, False).items())


def to_json(p: Param) -> dict:
    """A parameter as the tune journal keeps it."""
    return {"name": p.name, "start": p.start, "min": p.low, "max": p.high, "c_end": p.c_end,
            "r_end": p.r_end, "type": p.kind}


def from_json(d: dict) -> Param:
    """A parameter from the tune journal."""
    return Param(d["name"], d["start"], d["min"], d["max"], d["c_end"], d["r_end"],
                 None if d["type"] == "?" else d["type"] == "int")
