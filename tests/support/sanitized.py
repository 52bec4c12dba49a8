"""The native extension built with a sanitizer, for the sanitizer tests
(tests/native/test_native_draughts.py: ASan and UBSan; tests/mcts/test_search_loop.py: TSan),
which run test files on it (support/pytest_runs.py).

The build compiles each C file on its own, one compiler per core, then links them: the same
flags on every file as one ``gcc`` call over all of them, in half the wall time on two cores.
"""
from __future__ import annotations

import os
import subprocess
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mcts_engine import native

SOURCES = Path(native.__file__).parent / "src"


SANITIZED_RUN = "MCTS_SANITIZED_RUN"      # set in the environment of the test files run on a sanitized build


def examples(count: int) -> int:
    """Hypothesis examples for a check of the kernel against the Python rules: ``count`` in the
    plain run, a quarter of it on a sanitized build, where each example costs three to five times
    as much and the sanitizers look for memory errors, which every variant's first examples reach
    as well as its last (the plain run keeps the breadth)."""
    return max(10, count // 4) if os.environ.get(SANITIZED_RUN) else count


def sanitizer_runtime(name: str) -> str | None:
    """gcc's runtime library ``name`` (``libasan.so``, ``libtsan.so``), or None where it has none."""
    found = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
    return found if os.path.isabs(found) and os.path.exists(found) else None


def build(folder: Path, flags: list[str], libraries: list[str]) -> Path:
    """``_core`` built in ``folder`` from every C source with ``flags`` (compiled in parallel,
    one process per core), linked with ``libraries``; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    library = folder / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    compile_ = ["gcc", "-fPIC", "-std=c11", *flags, f"-I{sysconfig.get_paths()['include']}"]
    sources = sorted(SOURCES.glob("*.c"))

    def one(source: Path) -> Path:
        target = folder / (source.stem + ".o")
        subprocess.run([*compile_, "-c", str(source), "-o", str(target)], check=True, capture_output=True, text=True)
        return target

    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        objects = list(pool.map(one, sources))
    subprocess.run(["gcc", "-shared", *flags, "-o", str(library), *map(str, objects), *libraries], check=True,
                   capture_output=True, text=True)
    return library
