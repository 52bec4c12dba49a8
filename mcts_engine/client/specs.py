"""Engine descriptions: ``EngineSpec`` and how to read one (the tournament manager's
``--engine`` and engines files, the GUI's engines).

``parse_engine_arg`` reads the command line form ``name=uct1 cmd=mcts-engine
option.UCT_C=0.7 [protocol=hub|dxp] [host=H port=P] [tc=40/60+0.6 | st=0.1 | nodes=200] [ponder]``
(cutechess-cli's ``dir=`` and ``proto=`` too), ``with_fields`` lays such keys over a spec
(cutechess's ``-each``, and ``conf=NAME key=value ...``); engines files are
``engines_file.py``'s.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

__all__ = ["EngineSpecError", "EngineSpec", "PROTOCOLS", "check_connection", "spec_fields", "parse_engine_arg",
           "with_fields", "resolve_cmd", "portable_cmd", "rules_text", "option_text", "time_control_text",
           "TIME_KEYS"]

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
    ponder: bool = False      # think on the opponent's time (cutechess's ponder; not over DXP)

    def identity(self) -> dict:
        """What a journal records of the engine (the new fields only when they are not the default,
        so journals written before they existed still resume)."""
        out = asdict(self)
        for key, default in (("protocol", "uci"), ("host", "127.0.0.1"), ("port", None), ("tc", None),
                             ("ponder", False)):
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
    if spec.ponder and spec.protocol == "dxp":
        raise EngineSpecError(f"{where}: DXP has no pondering (no ponder search, no ponder hit in its messages): "
                              "ponder is for protocol=uci and protocol=hub")
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
    return ",".join(f"{k}={option_text(v)}" for k, v in rules.items())


def option_text(value) -> str:
    """An option value from a file (bool, number, string) as protocol text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise EngineSpecError(f"option value {value!r} is not a string, number or boolean")


SPEC_KEYS = "name=, cmd=, cwd= (dir=), protocol= (proto=), host=, port=, tc=, st=, nodes=, ponder, option.<Name>="
PONDER_VALUES = {"true": True, "on": True, "yes": True, "1": True, "false": False, "off": False, "no": False,
                 "0": False}
TIME_KEYS = ("tc", "st", "nodes")     # an engine's own time control: a clock, seconds a move, nodes a move
ALIASES = {"dir": "cwd", "proto": "protocol"}     # cutechess-cli's names of the same keys
# cutechess-cli's engine keys that have no meaning here, and what to use instead
NOT_HERE = {"timemargin": "the manager's --margin MS applies to every engine",
            "restart": "an engine is restarted only after a crash or a forfeit (--recover)",
            "whitepov": "engines must score from the mover's side, as our protocol says",
            "book": "give the openings with --openings (plies=N to cut them)",
            "bookdepth": "give the openings with --openings (plies=N to cut them)",
            "initstr": "the manager sends no init strings; set options with option.<Name>=",
            "arg": "put the arguments in cmd=",
            "trust": "every move is checked by our rules; no claim is trusted",
            "tscale": "the manager's timeouts are --margin MS and --game-timeout S",
            "stderr": "--log FILE keeps every engine's stderr",
            "depth": "limit an engine by nodes= or st=",
            "conf": "conf=NAME names an engine of the engines file only in --engine"}


def time_control_text(key: str, value: str) -> str:
    """A spec's ``tc=``, ``st=`` or ``nodes=`` as the one text ``EngineSpec.tc`` keeps: the clock
    as written (``40/60+0.6``), else ``st=0.1`` or ``nodes=200``."""
    return value if key == "tc" else f"{key}={value}"


def spec_fields(text: str, where: str) -> dict:
    """The keys a SPEC text gives, as ``EngineSpec`` field values (``options`` a dict; ``conf``
    the engines file entry it names, for ``--engine conf=NAME ...``): ``name=uct1
    cmd=mcts-engine option.UCT_C=0.7``; cutechess's ``dir=`` and ``proto=`` are ``cwd=`` and
    ``protocol=``.

    Tokens are split with shell rules, so values may be quoted; the ``cmd`` value is split
    again (``cmd="python fake.py --x"``; a path with spaces needs inner quotes:
    ``cmd="'/my dir/engine' --x"``).  Raises EngineSpecError naming ``where`` and the bad token
    (cutechess's keys that mean nothing here say what to use instead).
    """
    try:
        tokens = shlex.split(text)
    except ValueError as err:
        raise EngineSpecError(f"{where}: cannot split into tokens: {err}") from None
    fields: dict = {}
    options: dict[str, str] = {}
    seen_options: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if key.lower() == "ponder" and not sep:
            sep, value = "=", "true"             # cutechess's bare ``ponder``
        if not sep or not key:
            raise EngineSpecError(f"{where}: token {token!r} is not key=value (keys: {SPEC_KEYS})")
        lowered = ALIASES.get(key.lower(), key.lower())
        if lowered.startswith("option."):
            opt = key[len("option."):]
            if not opt.strip():
                raise EngineSpecError(f"{where}: token {token!r} has no option name (option.<Name>=<value>)")
            if opt.lower() in seen_options:
                raise EngineSpecError(f"{where}: option {opt!r} given twice (token {token!r})")
            seen_options[opt.lower()] = opt
            options[opt] = value
            continue
        field_name = "tc" if lowered in TIME_KEYS else lowered
        if field_name in fields:
            what = "one time control an engine (tc=, st= or nodes=), not also" if field_name == "tc" else \
                f"{lowered}= given twice:"
            raise EngineSpecError(f"{where}: {what} {token!r}")
        fields[field_name] = _field_value(lowered, value, token, where)
    if options:
        fields["options"] = options
    return fields


def _field_value(key: str, value: str, token: str, where: str):
    """One key's value as the EngineSpec field takes it; EngineSpecError naming the token."""
    if key in ("name", "conf"):
        if not value.strip():
            raise EngineSpecError(f"{where}: empty {key} in token {token!r}")
        return value
    if key == "cmd":
        try:
            cmd = shlex.split(value)
        except ValueError as err:
            raise EngineSpecError(f"{where}: token {token!r}: cannot split the command: {err}") from None
        if not cmd:
            raise EngineSpecError(f"{where}: empty command in token {token!r}")
        return cmd
    if key == "cwd":
        return value or None
    if key == "protocol":
        return value.lower()
    if key == "host":
        return value
    if key == "ponder":
        if value.lower() not in PONDER_VALUES:
            raise EngineSpecError(f"{where}: ponder={value!r} is not true or false (or a bare ponder)")
        return PONDER_VALUES[value.lower()]
    if key == "port":
        if not value.isdigit():
            raise EngineSpecError(f"{where}: port {value!r} is not a number")
        return int(value)
    if key in TIME_KEYS:
        if not value.strip():
            raise EngineSpecError(f"{where}: empty {key}= in token {token!r}")
        return time_control_text(key, value)
    hint = f" ({NOT_HERE[key]})" if key in NOT_HERE else f" (keys: {SPEC_KEYS})"
    raise EngineSpecError(f"{where}: unknown key {token.partition('=')[0]!r} in token {token!r}{hint}")


def parse_engine_arg(text: str) -> EngineSpec:
    """``name=uct1 cmd=mcts-engine option.UCT_C=0.7 option.Agent=random`` as an EngineSpec
    (``spec_fields``'s keys; ``conf=`` is for the command line's engines file).  Raises
    EngineSpecError naming the bad token."""
    where = f"engine {text!r}"
    fields = spec_fields(text, where)
    if "conf" in fields:
        raise EngineSpecError(f"{where}: conf={fields['conf']} names an engine of an engines file, which there is "
                              "none of here")
    if "name" not in fields:
        raise EngineSpecError(f"{where}: missing name=<name>")
    cmd = fields.pop("cmd", [])
    spec = EngineSpec(cmd=resolve_cmd(cmd), **fields)
    return check_connection(spec, where)


def with_fields(spec: EngineSpec, text: str, where: str) -> EngineSpec:
    """``spec`` with the keys of the SPEC text ``text`` laid over it, as cutechess-cli lays
    ``-each`` (and the keys after ``conf=NAME``) over an engine: a key given replaces the
    spec's, an option given replaces the spec's option of that name (any case) and the others
    stay.  EngineSpecError naming ``where``."""
    fields = spec_fields(text, where)
    fields.pop("conf", None)
    options = dict(spec.options)
    for name, value in fields.pop("options", {}).items():
        for old in [o for o in options if o.lower() == name.lower()]:
            del options[old]
        options[name] = value
    if "cmd" in fields:
        fields["cmd"] = resolve_cmd(fields["cmd"])
    if fields.get("protocol", "dxp") != "dxp" and spec.protocol == "dxp":
        fields.setdefault("port", None)             # DXP's address goes with DXP
        fields.setdefault("host", "127.0.0.1")
    return check_connection(replace(spec, **fields, options=options), where)


