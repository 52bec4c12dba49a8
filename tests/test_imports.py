"""Every module of the package imports alone, in a fresh interpreter: no import cycle
(a cycle hidden by import order in one process shows up as an ImportError here); and the
test dependencies are hard requirements in CI (``support.require``)."""
from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest
from support import ROOT, in_ci, require

import mcts_engine
import tournaments



def all_modules() -> list[str]:
    names = []
    for package in (mcts_engine, tournaments):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return sorted(names)


def test_every_module_imports_alone_in_a_fresh_interpreter():
    modules = all_modules()
    assert "mcts_engine.engine" in modules and "mcts_engine.parallel.worker" in modules
    # one interpreter per module, but all started at once: a few seconds in all
    procs = {name: subprocess.Popen([sys.executable, "-c", f"import {name}"], cwd=ROOT,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in modules}
    failures = {}
    for name, proc in procs.items():
        _, err = proc.communicate(timeout=120)
        if proc.returncode != 0:
            failures[name] = err.strip().splitlines()[-1:]
    assert not failures, failures


def test_no_module_imports_the_package_from_inside_a_function():
    # a local import is how a cycle hides; the package needs none, but for the command lines,
    # which load each subcommand's modules when it runs (the engine starts faster; the
    # tournament commands do without the tuner's numpy and matplotlib), and reference.py,
    # whose dependencies (open_spiel, pydraughts) are optional
    allowed = {"mcts_engine/cli.py", "tournaments/cli.py", "mcts_engine/reference.py"}
    offenders = []
    for path in sorted((ROOT / "mcts_engine").rglob("*.py")) + sorted((ROOT / "tournaments").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in allowed:
            continue
        type_only = False               # inside ``if TYPE_CHECKING:``: never run, so no cycle at run time
        for number, line in enumerate(path.read_text().splitlines(), 1):
            stripped = line.strip()
            if stripped and not line.startswith((" ", "\t")):
                type_only = stripped == "if TYPE_CHECKING:"
            if line.startswith((" ", "\t")) and not type_only and stripped.startswith((
                    "from .", "from mcts_engine", "import mcts_engine", "from tournaments", "from ..")):
                offenders.append(f"{rel}:{number}: {stripped}")
    assert not offenders, offenders


@pytest.mark.parametrize("ci,skips", [("true", False), ("1", False), ("", True), ("false", True), (None, True)])
def test_a_missing_test_dependency_skips_locally_and_fails_in_ci(monkeypatch, ci, skips):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert in_ci() is not skips
    outcome = pytest.skip.Exception if skips else pytest.fail.Exception
    with pytest.raises(outcome, match="no_such_module_for_tests"):
        require("no_such_module_for_tests", "not installed")
    with pytest.raises(outcome, match="no 'NoSuchName'"):
        require("random", "the wrong package", attribute="NoSuchName")
    assert require("random", "always there", attribute="Random") is __import__("random")
