"""Every module of the package imports alone, in a fresh interpreter: no import cycle
(a cycle hidden by import order in one process shows up as an ImportError here); and the
test dependencies are hard requirements in CI (``support.require``)."""
from __future__ import annotations

import json
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


#: Run by ``python -c``: import each named module of ours in a child forked from an interpreter
#: that holds none of them; report the ones that fail.  The interpreter first loads what our
#: modules need from outside the package (numpy, click, ...; another interpreter lists them),
#: so a child only imports our modules: a second or two in all, where an interpreter started
#: per module spent most of its half a minute starting Python and loading numpy 160 times.
#: (Only modules outside the package are shared: each child starts with none of ours, so a
#: cycle among them fails there as in a fresh interpreter.)
FORKED_IMPORTS = r"""
import json, os, subprocess, sys
ours = ("mcts_engine", "tournaments")
names = json.loads(sys.argv[1])
arguments = sys.argv[1:]
del sys.argv[1:]                 # each child as ``python -c "import name"`` (mcts_engine.__main__ reads them)
lister = ("import json, sys\n"
          "for name in json.loads(sys.argv[1]):\n"
          "    try: __import__(name)\n"
          "    except BaseException: pass\n"
          "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
outside = json.loads(subprocess.run([sys.executable, "-c", lister, *arguments], capture_output=True, text=True,
                                    check=True).stdout)
for name in outside:
    if name not in ours and name != "__main__":
        try:
            __import__(name)
        except BaseException:
            pass
assert not [m for m in sys.modules if m.split(".")[0] in ours]
failures, running = {}, {}
def reap():
    pid, status = os.wait()
    if status != 0:
        failures[running[pid]] = status
    del running[pid]
for name in names:
    if len(running) >= (os.cpu_count() or 1):
        reap()
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            __import__(name)
        except SystemExit as err:        # exits as the interpreter would
            code = err.code if err.code is None or isinstance(err.code, int) else 1
            if code:
                print(f"{name}: exits with {err.code!r}", file=sys.stderr, flush=True)
            os._exit(code or 0)
        except BaseException as err:
            print(f"{name}: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
            os._exit(1)
        os._exit(0)
    running[pid] = name
while running:
    reap()
print(json.dumps(sorted(failures)))
"""


def test_every_module_imports_alone_in_a_fresh_interpreter():
    modules = all_modules()
    assert "mcts_engine.engine" in modules and "mcts_engine.parallel.worker" in modules
    done = subprocess.run([sys.executable, "-c", FORKED_IMPORTS, json.dumps(modules)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [], done.stderr[-3000:]


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
