"""py-draughts' virtual environment: where it is, and how to make it.

py-draughts imports as ``draughts``, as pydraughts (our test dependency) does, so the two
cannot share an environment.  The ``pydraughts-*`` adapters run in ours and start their
worker (``pydraughts_worker.py``, which needs only py-draughts) under the Python of a
virtual environment of py-draughts' own:

* ``--python PATH`` on the command line, else
* ``$MCTS_PYDRAUGHTS_PYTHON``, else
* ``<cache>/mcts-engine/py-draughts/bin/python`` (``$XDG_CACHE_HOME`` or ``~/.cache``), the
  environment ``mcts-engine reference-engine setup-pydraughts`` makes.
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

#: the py-draughts release the adapters were written and measured against
PYDRAUGHTS_REQUIREMENT = "py-draughts==1.10.1"
PYTHON_VARIABLE = "MCTS_PYDRAUGHTS_PYTHON"


def default_venv() -> Path:
    """``<cache>/mcts-engine/py-draughts``."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "mcts-engine" / "py-draughts"


def venv_python(venv: Path) -> Path:
    """The Python executable of a virtual environment."""
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def find_python(python: str | None = None) -> Path:
    """The Python to run the worker with (see the module's docstring for the order)."""
    if python:
        return Path(python)
    if os.environ.get(PYTHON_VARIABLE):
        return Path(os.environ[PYTHON_VARIABLE])
    return venv_python(default_venv())


@dataclass(frozen=True)
class SetupResult:
    """What ``setup`` did: the environment, its Python, and the version of py-draughts in it."""

    venv: Path
    python: Path
    version: str


class SetupError(RuntimeError):
    """The environment could not be made (no venv module, pip failed, no network...)."""


def setup(venv: Path, requirement: str = PYDRAUGHTS_REQUIREMENT,
          log: Callable[[str], None] = lambda line: None) -> SetupResult:
    """Make (or reuse) a virtual environment at ``venv`` with py-draughts installed; checks
    that its ``draughts`` is py-draughts.  Raises SetupError with the failing step's output."""
    python = venv_python(venv)
    if not python.exists():
        log(f"creating the virtual environment {venv}")
        _run([sys.executable, "-m", "venv", str(venv)], "python -m venv")
    version = installed_version(python)
    if version is None or f"=={version}" not in requirement:
        log(f"installing {requirement} into {venv}")
        _run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", requirement],
             "pip install")
        version = installed_version(python)
        if version is None:
            raise SetupError(f"{python} cannot import py-draughts after the install")
    return SetupResult(venv, python, version)


def installed_version(python: Path) -> str | None:
    """py-draughts' version under ``python``, or None when its ``draughts`` is not py-draughts."""
    if not python.exists():
        return None
    code = "import draughts; assert hasattr(draughts, 'TurboEngine'); print(draughts.__version__)"
    try:
        done = subprocess.run([str(python), "-I", "-c", code], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def _run(command: list[str], what: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise SetupError(f"{what} failed: {err}") from None
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise SetupError(f"{what} failed (status {done.returncode}):\n{tail}")
