"""Engine descriptions: ``EngineSpec`` and how to read one (the tournament manager's
``--engine`` and engines files, the GUI's engines).

``parse_engine_arg`` reads the command line form ``name=uct1 cmd=mcts-engine
option.UCT_C=0.7 [protocol=hub|dxp] [host=H port=P] [tc=40/60+0.6 | st=0.1 | nodes=200]`` and ``load_engines_file`` a JSON
or TOML file ``{"engines": [{"name": ..., "cmd": ..., "options": {...}}]}``.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

__all__ = ["EngineSpecError", "EngineSpec", "PROTOCOLS", "check_connection", "parse_engine_arg", "load_engines_file",
           "resolve_cmd", "portable_cmd", "rules_text"]

OUR_ENGINE = "mcts-engine"
PROTOCOLS = ("uci", "hub", "dxp")     # our protocol (UCI-like), Hub (draughts GUIs), DXP (DamExchange)
DXP_PORT = 27531


class EngineSpecError(ValueError):
    """A bad engine description (command line token or engines file)."""


# --- engine descriptions ----------------------------------------------------------------

@dataclass(frozen=True)
class EngineSpec:
    """How to run one engine: a name (unique in a tournament), the command, its options, and
    the protocol it speaks (``uci``: ours; ``hub``; ``dxp``: a follower we connect to at
    ``host``:``port``, started as ``cmd`` if given, where ``{port}`` in ``cmd`` is a free port
    chosen at each start).

    Frozen: it crosses process boundaries (a cluster task gets it pickled) and a
    tournament's identity is made of it, so nobody changes one in place.
    """

    name: str
    cmd: list[str]
    options: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    protocol: str = "uci"
    host: str = "127.0.0.1"
    port: int | None = None
    tc: str | None = None     # the engine's own time control, as the tournament manager reads it

    def identity(self) -> dict:
        """What a journal records of the engine (the new fields only when they are not the default,
        so journals written before they existed still resume)."""
        out = asdict(self)
        for key, default in (("protocol", "uci"), ("host", "127.0.0.1"), ("port", None), ("tc", None)):
            if out[key] == default:
                del out[key]
        return out


def check_connection(spec: EngineSpec, where: str) -> EngineSpec:
    """``spec`` when its protocol, command, host and port fit together; else EngineSpecError."""
    if spec.protocol not in PROTOCOLS:
        raise EngineSpecError(f"{where}: protocol {spec.protocol!r} is not one of {', '.join(PROTOCOLS)}")
    if spec.protocol != "dxp" and (spec.port is not None or spec.host != "127.0.0.1"):
        raise EngineSpecError(f"{where}: host= and port= are for protocol=dxp")
    if not spec.cmd and spec.protocol != "dxp":
        raise EngineSpecError(f"{where}: missing cmd=<command>")
    if spec.port is not None and not 0 < spec.port < 65536:
        raise EngineSpecError(f"{where}: port {spec.port} is not in 1..65535")
    if spec.protocol == "dxp" and spec.port is None and not any("{port}" in c for c in spec.cmd):
        return replace(spec, port=DXP_PORT)
    return spec


def resolve_cmd(cmd: list[str]) -> list[str]:
    """The command with a bare ``mcts-engine`` resolved to our console script.

    Next to ``sys.executable`` first (the running virtualenv), else left to PATH; when
    it is on neither, ``python -m mcts_engine`` with this interpreter.
    """
    cmd = list(cmd)
    if cmd and cmd[0] == OUR_ENGINE:
        script = Path(sys.executable).parent / OUR_ENGINE
        if script.is_file() and os.access(script, os.X_OK):
            cmd[0] = str(script)
        elif shutil.which(OUR_ENGINE) is None:
            cmd[0:1] = [sys.executable, "-m", "mcts_engine"]
    return cmd


def portable_cmd(cmd: list[str]) -> list[str]:
    """The command as another machine should read it: our engine as it was resolved here
    (this interpreter's console script, or ``python -m mcts_engine``) becomes a bare
    ``mcts-engine`` again, which ``resolve_cmd`` on that machine finds next to its own
    Python.  Every other command is returned unchanged (it runs there as written)."""
    cmd = list(cmd)
    ours = resolve_cmd([OUR_ENGINE])
    for form in (ours, [sys.executable, "-m", "mcts_engine"]):
        if cmd[:len(form)] == form:
            return [OUR_ENGINE] + cmd[len(form):]
    return cmd


def rules_text(rules: dict) -> str:
    """Rule options as the ``Rules`` option's text ``key=value,key=value``."""
    return ",".join(f"{k}={_option_text(v)}" for k, v in rules.items())


def _option_text(value) -> str:
    """An option value from a file (bool, number, string) as protocol text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise EngineSpecError(f"option value {value!r} is not a string, number or boolean")


SPEC_KEYS = "name=, cmd=, cwd=, protocol=, host=, port=, tc=, st=, nodes=, option.<Name>="
TIME_KEYS = ("tc", "st", "nodes")     # an engine's own time control: a clock, seconds a move, nodes a move


def time_control_text(key: str, value: str) -> str:
    """A spec's ``tc=``, ``st=`` or ``nodes=`` as the one text ``EngineSpec.tc`` keeps: the clock
    as written (``40/60+0.6``), else ``st=0.1`` or ``nodes=200``."""
    return value if key == "tc" else f"{key}={value}"


def parse_engine_arg(text: str) -> EngineSpec:
    """``name=uct1 cmd=mcts-engine option.UCT_C=0.7 option.Agent=random`` as an EngineSpec.

    Tokens are split with shell rules, so values may be quoted; the ``cmd`` value is
    split again (``cmd="python fake.py --x"``; a path with spaces needs inner quotes:
    ``cmd="'/my dir/engine' --x"``).  Raises EngineSpecError naming the bad token.
    """
    try:
        tokens = shlex.split(text)
    except ValueError as err:
        raise EngineSpecError(f"engine {text!r}: cannot split into tokens: {err}") from None
    name = cmd = cwd = tc = None
    protocol, host, port = "uci", "127.0.0.1", None
    options: dict[str, str] = {}
    seen_options: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise EngineSpecError(f"engine {text!r}: token {token!r} is not key=value (keys: {SPEC_KEYS})")
        lowered = key.lower()
        if lowered == "name":
            if name is not None:
                raise EngineSpecError(f"engine {text!r}: name= given twice (token {token!r})")
            if not value.strip():
                raise EngineSpecError(f"engine {text!r}: empty name in token {token!r}")
            name = value
        elif lowered == "cmd":
            if cmd is not None:
                raise EngineSpecError(f"engine {text!r}: cmd= given twice (token {token!r})")
            try:
                cmd = shlex.split(value)
            except ValueError as err:
                raise EngineSpecError(f"engine {text!r}: token {token!r}: cannot split the command: {err}") from None
            if not cmd:
                raise EngineSpecError(f"engine {text!r}: empty command in token {token!r}")
        elif lowered == "cwd":
            if cwd is not None:
                raise EngineSpecError(f"engine {text!r}: cwd= given twice (token {token!r})")
            cwd = value or None
        elif lowered == "protocol":
            protocol = value.lower()
        elif lowered == "host":
            host = value
        elif lowered == "port":
            if not value.isdigit():
                raise EngineSpecError(f"engine {text!r}: port {value!r} is not a number")
            port = int(value)
        elif lowered in TIME_KEYS:
            if tc is not None:
                raise EngineSpecError(f"engine {text!r}: one time control an engine (tc=, st= or nodes=), "
                                      f"not also {token!r}")
            if not value.strip():
                raise EngineSpecError(f"engine {text!r}: empty {lowered}= in token {token!r}")
            tc = time_control_text(lowered, value)
        elif lowered.startswith("option."):
            opt = key[len("option."):]
            if not opt.strip():
                raise EngineSpecError(f"engine {text!r}: token {token!r} has no option name (option.<Name>=<value>)")
            if opt.lower() in seen_options:
                raise EngineSpecError(f"engine {text!r}: option {opt!r} given twice (token {token!r})")
            seen_options[opt.lower()] = opt
            options[opt] = value
        else:
            raise EngineSpecError(f"engine {text!r}: unknown key {key!r} in token {token!r} (keys: {SPEC_KEYS})")
    if name is None:
        raise EngineSpecError(f"engine {text!r}: missing name=<name>")
    spec = EngineSpec(name=name, cmd=resolve_cmd(cmd or []), options=options, cwd=cwd, protocol=protocol,
                      host=host, port=port, tc=tc)
    return check_connection(spec, f"engine {text!r}")


def load_engines_file(path) -> dict[str, EngineSpec]:
    """Engines from a JSON or TOML file, by name.

    Shape (TOML: ``[[engines]]`` tables with the same keys)::

        {"engines": [{"name": "uct1", "cmd": "mcts-engine", "options": {"UCT_C": "0.7"}},
                     {"name": "fake", "cmd": ["python", "fake.py"], "cwd": "engines"}]}

    ``cmd`` is a string (split with shell rules) or a list; option values may be
    strings, numbers or booleans; a relative ``cwd`` is relative to the file.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise EngineSpecError(f"{path}: cannot read: {err}") from None
    suffix = path.suffix.lower()
    data = None
    if suffix == ".toml":
        data = _load_toml(path, raw)
    elif suffix == ".json":
        data = _load_json(path, raw)
    else:   # guess: JSON, then TOML
        try:
            data = _load_json(path, raw)
        except EngineSpecError:
            data = _load_toml(path, raw)
    if not isinstance(data, dict) or not isinstance(data.get("engines"), list):
        raise EngineSpecError(f"{path}: expected a top-level 'engines' list of tables")
    specs: dict[str, EngineSpec] = {}
    for i, entry in enumerate(data["engines"]):
        where = f"{path}: engines[{i}]"
        if not isinstance(entry, dict):
            raise EngineSpecError(f"{where}: expected a table with name, cmd, options")
        unknown = set(entry) - {"name", "cmd", "options", "cwd", "protocol", "host", "port", *TIME_KEYS}
        if unknown:
            raise EngineSpecError(f"{where}: unknown keys {sorted(unknown)} "
                                  "(keys: name, cmd, options, cwd, protocol, host, port, tc, st, nodes)")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise EngineSpecError(f"{where}: missing or empty name")
        where = f"{path}: engine {name!r}"
        if name in specs:
            raise EngineSpecError(f"{where}: the name is used twice")
        cmd = entry.get("cmd", [] if entry.get("protocol") == "dxp" else None)
        if isinstance(cmd, str):
            try:
                cmd = shlex.split(cmd)
            except ValueError as err:
                raise EngineSpecError(f"{where}: cannot split cmd: {err}") from None
        if not isinstance(cmd, list) or not (cmd or entry.get("protocol") == "dxp") \
                or not all(isinstance(c, str) for c in cmd):
            raise EngineSpecError(f"{where}: cmd must be a non-empty string or list of strings")
        options = entry.get("options", {})
        if not isinstance(options, dict):
            raise EngineSpecError(f"{where}: options must be a table of name = value")
        try:
            options = {str(k): _option_text(v) for k, v in options.items()}
        except EngineSpecError as err:
            raise EngineSpecError(f"{where}: {err}") from None
        cwd = entry.get("cwd")
        if cwd is not None:
            if not isinstance(cwd, str):
                raise EngineSpecError(f"{where}: cwd must be a string")
            cwd = str((path.parent / cwd).resolve()) if not os.path.isabs(cwd) else cwd
        port = entry.get("port")
        if port is not None and (not isinstance(port, int) or isinstance(port, bool)):
            raise EngineSpecError(f"{where}: port must be a number")
        times = [key for key in TIME_KEYS if key in entry]
        if len(times) > 1:
            raise EngineSpecError(f"{where}: one time control an engine, not {' and '.join(times)}")
        spec = EngineSpec(name=name, cmd=resolve_cmd(cmd), options=options, cwd=cwd,
                          protocol=str(entry.get("protocol", "uci")).lower(), host=str(entry.get("host", "127.0.0.1")),
                          port=port, tc=time_control_text(times[0], str(entry[times[0]])) if times else None)
        specs[name] = check_connection(spec, where)
    return specs


def _load_json(path: Path, raw: bytes):
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise EngineSpecError(f"{path}: not valid JSON: {err}") from None


def _load_toml(path: Path, raw: bytes):
    try:
        import tomllib
    except ImportError:   # Python 3.10
        raise EngineSpecError(f"{path}: TOML needs Python 3.11 (tomllib); use JSON") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise EngineSpecError(f"{path}: not valid TOML: {err}") from None
