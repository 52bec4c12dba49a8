"""The build of the native kernel, ``mcts_engine.native._core`` (everything else is in pyproject.toml).

A C extension compiled by the machine's C compiler on ``pip install``.  It is optional: where
no compiler works the install goes on and the engine runs on its Python rules, saying so
(``mcts_engine/native/__init__.py``).
"""
import platform
from pathlib import Path

from setuptools import Extension, setup

SOURCE_DIR = Path("mcts_engine/native/src")
SOURCES = sorted(str(p) for p in SOURCE_DIR.glob("*.c"))
HEADERS = sorted(str(p) for p in SOURCE_DIR.glob("*.h"))

# -ffp-contract=off: no fused multiply-add, so evaluate() rounds exactly as the Python reference
FLAGS = ["-std=c11", "-O2", "-ffp-contract=off", "-fno-strict-aliasing"]
if platform.machine().lower() in ("x86_64", "amd64"):
    FLAGS.append("-mpopcnt")     # every x86-64 CPU since 2008; the module checks the CPU when it loads

setup(ext_modules=[Extension("mcts_engine.native._core",
                             sources=SOURCES, depends=HEADERS,
                             extra_compile_args=FLAGS, optional=True)])
