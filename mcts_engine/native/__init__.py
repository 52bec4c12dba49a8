"""The native (compiled) core: the search loop for every game, and the draughts rules kernel.

``pip install`` compiles ``src/*.c`` into ``_core`` with the machine's C compiler
(``setup.py``); ``core`` is that module, or None where the build failed.  The search core
(``Search``) needs it: without it the engine still speaks its protocols and plays the
random and greedy agents, and a search says how to mend the install (``require_core``).

The draughts rules kernel (``DraughtsKernel``) is the fast path of the draughts family, and
``FanoronaRules``, ``DablotRules``, ``LifeRules``, ``GauntletRules`` and ``RithmomachiaRules``
those games' whole rules; the Python rules stay the reference they are checked against in every
test run. ``MCTS_ENGINE_NATIVE=0`` switches them off (the search then calls those games' Python
rules back, as it does for every game without native rules).
``available()`` says whether the kernel is on, ``status()`` says
which rules run, for ``id name``, bench and the warning ``warn_if_missing()`` prints once on
stderr, so nobody measures the slow path by mistake.  ``StopSignal`` is how any thread
stops a running search (the core's ``StopFlag``, seen inside its loop and playouts).
"""
from __future__ import annotations

import importlib
import os
import sys
import threading
from types import ModuleType

SWITCH = "MCTS_ENGINE_NATIVE"     # set to 0 to run the native games on their Python rules


def _load() -> tuple[ModuleType | None, str]:
    try:
        return importlib.import_module(f"{__name__}._core"), ""
    except ImportError as err:
        return None, f"not built ({err}); reinstall with a C compiler: pip install -e ."


core, build_problem = _load()
switched_off = os.environ.get(SWITCH, "1").strip().lower() in ("0", "no", "off", "false")
reason = build_problem or (f"switched off ({SWITCH}=0)" if switched_off else "native kernel")
_warned = False


class CoreMissing(RuntimeError):
    """The native extension, which holds the search core, was not built."""


def available() -> bool:
    """Whether the draughts rules kernel is built and on."""
    return core is not None and not switched_off


def require_core() -> ModuleType:
    """The compiled module, for the search core; CoreMissing saying how to build it."""
    if core is None:
        raise CoreMissing(f"the search core is compiled and was {build_problem}")
    return core


def status() -> str:
    """One line on the rules' speed path: ``native kernel`` or why the Python rules run."""
    return reason if available() else f"python rules: native kernel {reason}"


def warn_if_missing() -> None:
    """Say once on stderr that the extension is missing (not when the kernel is switched off
    on purpose): the search cannot run, and the rules are 20-50 times slower."""
    global _warned
    if core is None and not _warned:
        _warned = True
        print(f"warning: mcts-engine's native core is {build_problem}", file=sys.stderr)


class StopSignal:
    """How a running search is told to stop: ``set()`` from any thread (the protocol's, a
    worker's listener).  The native core watches ``flag`` (a ``StopFlag``, None without the
    core) inside its loop and its playouts; Python code asks ``is_set()`` or ``wait``s."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.flag = core.StopFlag() if core is not None else None

    def set(self) -> None:
        """Stop the search (the core sees it within an iteration)."""
        if self.flag is not None:
            self.flag.set()
        self._event.set()

    def is_set(self) -> bool:
        """Whether ``set`` was called."""
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until ``set`` (or ``timeout`` seconds); whether it was set."""
        return self._event.wait(timeout)
