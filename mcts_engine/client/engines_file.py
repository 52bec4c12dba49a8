"""Engines files: a JSON or TOML file of engine descriptions, read into ``EngineSpec``s by name.

Two shapes are read (``load_engines_file``):

* ours: ``{"engines": [{"name": ..., "cmd": ..., "options": {...}}]}`` (TOML: ``[[engines]]``
  tables with the same keys: ``name``, ``cmd``, ``options``, ``cwd``, ``protocol``, ``host``,
  ``port``, ``tc``/``st``/``nodes``, ``ponder``);
* cutechess-cli's own ``engines.json`` (its manual page cutechess-engines.json(5), and what
  its GUI writes): a top-level list of objects with ``name``, ``command``, ``protocol`` and
  optionally ``workingDirectory``, ``stderrFile``, ``initStrings``, ``whitepov``, ``ponder``,
  ``restart``, ``validateClaims``, ``debug``, ``variants``, ``timeoutScale`` and ``options``
  (a list of ``{"name", "value"}`` objects, with ``type``, ``default``, ``min``, ``max``,
  ``choices``, ``alias`` as cutechess writes them; a ``{name: value}`` object works too).
  What the manager does the same way is read; a setting it cannot honour (an ``xboard``
  engine, init strings, scores from White's side, a stderr file, a restart after every game, a
  button option) is an error naming the engine, the key and what to do instead, never silently
  dropped; ``ponder`` is honoured (the manager lets the engine ponder, as ``-pondering``).  ``validateClaims`` and ``variants`` are accepted and change
  nothing: our rules check every move and end every game, and the game is ``--game``.

A relative ``cwd`` (``workingDirectory``) is relative to the file; ``cmd`` (``command``) is a
string split with shell rules, or (ours) a list.
"""
from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from .specs import TIME_KEYS, EngineSpec, EngineSpecError, check_connection, option_text, resolve_cmd, time_control_text

__all__ = ["load_engines_file", "CUTECHESS_KEYS"]

OUR_KEYS = ("name", "cmd", "options", "cwd", "protocol", "host", "port", "ponder", *TIME_KEYS)
CUTECHESS_KEYS = ("name", "command", "workingDirectory", "stderrFile", "protocol", "initStrings", "whitepov",
                  "ponder", "restart", "validateClaims", "debug", "variants", "timeoutScale", "options")
# cutechess settings the manager cannot honour: the value it may have, and why not
_CUTECHESS_ONLY = {"stderrFile": ("", "--log FILE keeps every engine's stderr"),
                   "initStrings": ([], "the manager sends no init strings; set options instead"),
                   "whitepov": (False, "engines must score from the mover's side"),
                   "debug": (False, "--log FILE keeps every line to and from each engine"),
                   "timeoutScale": (1, "the manager's timeouts are --margin MS and --game-timeout S")}


def load_engines_file(path) -> dict[str, EngineSpec]:
    """Engines from a JSON or TOML file (ours, or cutechess's ``engines.json``), by name.

    Ours (TOML: ``[[engines]]`` tables with the same keys)::

        {"engines": [{"name": "uct1", "cmd": "mcts-engine", "options": {"UCT_C": "0.7"}},
                     {"name": "fake", "cmd": ["python", "fake.py"], "cwd": "engines"}]}

    cutechess's::

        [{"name": "uct1", "command": "mcts-engine", "protocol": "uci",
          "options": [{"name": "UCT_C", "value": 0.7}]}]

    Option values may be strings, numbers or booleans.  EngineSpecError names the file, the
    engine and what is wrong.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise EngineSpecError(f"{path}: cannot read: {err}") from None
    suffix = path.suffix.lower()
    if suffix == ".toml":
        data = _load_toml(path, raw)
    elif suffix == ".json":
        data = _load_json(path, raw)
    else:   # guess: JSON, then TOML
        try:
            data = _load_json(path, raw)
        except EngineSpecError:
            data = _load_toml(path, raw)
    if isinstance(data, list):
        return _named(path, data, _cutechess_entry)
    if not isinstance(data, dict) or not isinstance(data.get("engines"), list):
        raise EngineSpecError(f"{path}: expected a top-level 'engines' list of tables (ours) or a list of "
                              "engine objects (cutechess's engines.json)")
    return _named(path, data["engines"], _our_entry)


def _named(path: Path, entries: list, read) -> dict[str, EngineSpec]:
    """Each entry read by ``read(path, entry, where)``, by name; a name twice is an error."""
    specs: dict[str, EngineSpec] = {}
    for i, entry in enumerate(entries):
        where = f"{path}: engines[{i}]"
        if not isinstance(entry, dict):
            raise EngineSpecError(f"{where}: expected an object with name and cmd (or command)")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise EngineSpecError(f"{where}: missing or empty name")
        where = f"{path}: engine {name!r}"
        if name in specs:
            raise EngineSpecError(f"{where}: the name is used twice")
        specs[name] = check_connection(read(path, entry, where), where)
    return specs


def _our_entry(path: Path, entry: dict, where: str) -> EngineSpec:
    """One entry of our own shape."""
    unknown = set(entry) - set(OUR_KEYS)
    if unknown:
        raise EngineSpecError(f"{where}: unknown keys {sorted(unknown)} (keys: {', '.join(OUR_KEYS)})")
    protocol = str(entry.get("protocol", "uci")).lower()
    cmd = _command(entry.get("cmd", [] if protocol == "dxp" else None), protocol, where, "cmd")
    options = entry.get("options", {})
    if not isinstance(options, dict):
        raise EngineSpecError(f"{where}: options must be a table of name = value")
    port = entry.get("port")
    if port is not None and (not isinstance(port, int) or isinstance(port, bool)):
        raise EngineSpecError(f"{where}: port must be a number")
    times = [key for key in TIME_KEYS if key in entry]
    if len(times) > 1:
        raise EngineSpecError(f"{where}: one time control an engine, not {' and '.join(times)}")
    return EngineSpec(name=entry["name"], cmd=cmd, options=_options(options.items(), where),
                      cwd=_directory(path, entry.get("cwd"), where, "cwd"), protocol=protocol,
                      host=str(entry.get("host", "127.0.0.1")), port=port,
                      tc=time_control_text(times[0], str(entry[times[0]])) if times else None,
                      ponder=_ponder(entry, where))


def _cutechess_entry(path: Path, entry: dict, where: str) -> EngineSpec:
    """One engine of cutechess's engines.json; what the manager cannot honour is an error."""
    unknown = set(entry) - set(CUTECHESS_KEYS)
    if unknown:
        raise EngineSpecError(f"{where}: unknown keys {sorted(unknown)} (cutechess's keys: "
                              f"{', '.join(CUTECHESS_KEYS)})")
    protocol = entry.get("protocol")
    if not isinstance(protocol, str) or not protocol:
        raise EngineSpecError(f"{where}: missing protocol (cutechess's engines.json needs one: \"uci\")")
    if protocol.lower() == "xboard":
        raise EngineSpecError(f"{where}: protocol \"xboard\" (CECP) is not spoken here: the manager drives engines "
                              "of our protocol (\"uci\": UCI's words), Hub and DXP")
    for key, (fine, why) in _CUTECHESS_ONLY.items():
        if key in entry and entry[key] not in (fine, None) and not (key == "stderrFile" and not entry[key]):
            raise EngineSpecError(f"{where}: {key} {json.dumps(entry[key])} cannot be honoured: {why}")
    if entry.get("restart", "auto") not in ("auto", "off"):
        raise EngineSpecError(f"{where}: restart {json.dumps(entry['restart'])} cannot be honoured: an engine is "
                              "restarted only after a crash or a forfeit (\"auto\" and \"off\" are what it does)")
    return EngineSpec(name=entry["name"], cmd=_command(entry.get("command"), protocol.lower(), where, "command"),
                      options=_cutechess_options(entry.get("options", []), where),
                      cwd=_directory(path, entry.get("workingDirectory") or None, where, "workingDirectory"),
                      protocol=protocol.lower(), ponder=_ponder(entry, where))


def _ponder(entry: dict, where: str) -> bool:
    """The entry's ``ponder`` (a boolean; absent: off)."""
    value = entry.get("ponder", False)
    if not isinstance(value, bool):
        raise EngineSpecError(f"{where}: ponder must be true or false, not {json.dumps(value)}")
    return value


def _cutechess_options(options, where: str) -> dict[str, str]:
    """cutechess's option list (``[{"name": ..., "value": ...}]``, as it writes them with their
    type, default, bounds) or a ``{name: value}`` object, as protocol texts."""
    if isinstance(options, dict):
        return _options(options.items(), where)
    if not isinstance(options, list):
        raise EngineSpecError(f"{where}: options must be a list of {{\"name\": ..., \"value\": ...}} objects")
    pairs = []
    for i, option in enumerate(options):
        if not isinstance(option, dict) or not isinstance(option.get("name"), str) or not option["name"]:
            raise EngineSpecError(f"{where}: options[{i}] is not an object with a name")
        if option.get("type") == "button":
            raise EngineSpecError(f"{where}: option {option['name']!r} is a button, which cannot be set before a game")
        if "value" not in option:
            raise EngineSpecError(f"{where}: option {option['name']!r} has no value")
        pairs.append((option["name"], option["value"]))
    return _options(pairs, where)


def _options(pairs, where: str) -> dict[str, str]:
    """Option names and values (strings, numbers, booleans) as protocol texts."""
    try:
        return {str(name): option_text(value) for name, value in pairs}
    except EngineSpecError as err:
        raise EngineSpecError(f"{where}: {err}") from None


def _command(cmd, protocol: str, where: str, key: str) -> list[str]:
    """The command as a word list: a string split with shell rules, or a list of strings."""
    if isinstance(cmd, str):
        try:
            cmd = shlex.split(cmd)
        except ValueError as err:
            raise EngineSpecError(f"{where}: cannot split {key}: {err}") from None
    if not isinstance(cmd, list) or not (cmd or protocol == "dxp") or not all(isinstance(c, str) for c in cmd):
        raise EngineSpecError(f"{where}: {key} must be a non-empty string or list of strings")
    return resolve_cmd(cmd)


def _directory(path: Path, cwd, where: str, key: str) -> str | None:
    """The working directory, a relative one taken from the file's directory."""
    if cwd is None:
        return None
    if not isinstance(cwd, str):
        raise EngineSpecError(f"{where}: {key} must be a string")
    return cwd if os.path.isabs(cwd) else str((path.parent / cwd).resolve())


def _load_json(path: Path, raw: bytes):
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise EngineSpecError(f"{path}: not valid JSON: {err}") from None


def _load_toml(path: Path, raw: bytes):
    import tomllib
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise EngineSpecError(f"{path}: not valid TOML: {err}") from None
