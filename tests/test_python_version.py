"""pyproject's ``requires-python`` admits no Python the code cannot run on: every standard
module the sources import exists in the oldest Python it admits (``tomllib``, which reads the
engines and tuning files in TOML, came with 3.11)."""
from __future__ import annotations

import ast
import re

from support import ROOT

# standard modules newer than the oldest Python anyone here would ask for, and their version
NEW_STANDARD_MODULES = {"tomllib": (3, 11)}


def oldest_python() -> tuple[int, int]:
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r'^requires-python\s*=\s*">=\s*(\d+)\.(\d+)"', text, re.M)
    assert match, "pyproject.toml has no requires-python lower bound"
    return int(match.group(1)), int(match.group(2))


def imported_modules(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return out


def test_requires_python_admits_only_pythons_with_every_standard_module_imported():
    oldest = oldest_python()
    for package in ("mcts_engine", "tournaments"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for module in imported_modules(path) & set(NEW_STANDARD_MODULES):
                assert NEW_STANDARD_MODULES[module] <= oldest, (
                    f"{path.relative_to(ROOT)} imports {module}, new in Python "
                    f"{'.'.join(map(str, NEW_STANDARD_MODULES[module]))}, but pyproject.toml admits "
                    f"Python {'.'.join(map(str, oldest))}")
