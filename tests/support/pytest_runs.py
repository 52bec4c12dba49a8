"""Test files run by pytest in fresh interpreters, for the tests that rerun other tests: on a
sanitized build of the extension (support/sanitized.py) or with the kernel switched off.

Given several groups of files, one interpreter per group, all started at once: the test run
itself keeps one core busy, and such a rerun is most of a minute in one interpreter.

Every rerun ends and says why: each test in it has the plain suite's limit (pyproject.toml's
``timeout``, which the rerun's pytest reads too), watched from a thread of its own that prints
every thread's stack and ends the interpreter (a search stuck in C never returns to the main
thread, where pytest's default watchdog runs), and the groups share one deadline, past which they
are killed and what they printed so far is returned, so the failing test names the file and the
test that hung instead of a bare timeout.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def loader(library: Path, pytest_args: list[str]) -> str:
    """A ``python -c`` program: load ``library`` as ``mcts_engine.native._core``, then run pytest."""
    return (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('mcts_engine.native._core', {str(library)!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        "sys.modules['mcts_engine.native._core'] = module\n"
        "import mcts_engine.native as n; assert n.core is module, n.status()\n"
        "import pytest\n"
        f"sys.exit(pytest.main({pytest_args!r}))\n"
    )


def run_groups(groups: list[list[str]], pytest_args: list[str], env: dict, cwd: Path, timeout: float,
               library: Path | None = None) -> list[subprocess.CompletedProcess]:
    """Each group of test files run by pytest (``pytest_args`` first) in its own interpreter, all
    at once, on ``library`` if given (``loader``); their completed processes, in the groups' order.
    All must end within ``timeout`` seconds: one still running then is killed, and its completed
    process says so in its stderr and holds what it printed (return code -9)."""
    args = [*pytest_args, "--timeout-method=thread"]

    def command(files: list[str]) -> list[str]:
        if library is None:
            return [sys.executable, "-m", "pytest", *args, *files]
        return [sys.executable, "-c", loader(library, [*args, *files])]

    deadline = time.monotonic() + timeout
    procs = [subprocess.Popen(command(files), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for files in groups]
    done = []
    try:
        for proc in procs:
            try:
                out, err = proc.communicate(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
                err += f"\n[killed: the group was still running {timeout:.0f} s after the groups started]\n"
            done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return done
