"""The native (compiled) kernel: draughts rules at machine speed, loaded if it was built.

``pip install`` compiles ``src/*.c`` into ``_core`` with the machine's C compiler
(``setup.py``).  Where that failed, or where ``MCTS_ENGINE_NATIVE=0`` is set, ``core`` is None
and everything runs on the Python rules, which are the reference the kernel is checked
against in every test run; ``status()`` says which, for ``id name``, ``info string`` and bench,
and ``warn_if_missing()`` says it once on stderr, so nobody measures the slow path by mistake.
"""
from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

SWITCH = "MCTS_ENGINE_NATIVE"     # set to 0 to run on the Python rules although the kernel is built


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get(SWITCH, "1").strip().lower() in ("0", "no", "off", "false"):
        return None, f"switched off ({SWITCH}=0)"
    try:
        return importlib.import_module(f"{__name__}._core"), "native kernel"
    except ImportError as err:
        return None, f"not built ({err}); reinstall with a C compiler: pip install -e ."


core, reason = _load()
_warned = False


def available() -> bool:
    """Whether the compiled kernel is loaded and on."""
    return core is not None


def status() -> str:
    """One line on the rules' speed path: ``native kernel`` or why the Python rules run."""
    return reason if core is not None else f"python rules: native kernel {reason}"


def warn_if_missing() -> None:
    """Say once on stderr that the engine runs on the slow Python rules, and why (not when
    switched off on purpose)."""
    global _warned
    if core is None and not _warned and not reason.startswith("switched off"):
        _warned = True
        print(f"warning: mcts-engine runs on its Python rules, 20-50 times slower: {status()}", file=sys.stderr)
