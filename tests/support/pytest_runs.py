"""Test files run by pytest in fresh interpreters, for the tests that rerun other tests: on a
sanitized build of the extension (support/sanitized.py) or with the kernel switched off.

Given several groups of files, one interpreter per group, all started at once: the test run
itself keeps one core busy, and such a rerun is most of a minute in one interpreter.
"""
from __future__ import annotations

import subprocess
import sys
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
    A test of a group may take the group's whole ``timeout``, not the plain suite's 300 s a test:
    a sanitized build runs searches 5 to 15 times slower, and on a slow machine one ThreadSanitizer
    test took more than 300 s."""
    args = [*pytest_args, f"--timeout={int(timeout)}"]

    def command(files: list[str]) -> list[str]:
        if library is None:
            return [sys.executable, "-m", "pytest", *args, *files]
        return [sys.executable, "-c", loader(library, [*args, *files])]

    procs = [subprocess.Popen(command(files), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for files in groups]
    done = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=timeout)
            done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return done
