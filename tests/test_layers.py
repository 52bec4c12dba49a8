"""The import graph runs one way: each package imports only the layers below its own; nothing
under mcts_engine/ imports the tournament manager; no private name crosses a module boundary;
no module imports itself back through others; no module outside rules/ passes 600 lines.

Read from the sources (``ast``), module-level imports only: the command lines' imports inside
functions (which keep the engine's start fast) are held to the same layers all the same.
"""
from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest
from support import ROOT

PACKAGES = ("mcts_engine", "tournaments")
MAX_LINES = 600           # a module outside rules/ that grows past this holds two concerns

# bottom to top: a module may import its own package and the layers below it
LAYERS = (
    ("mcts_engine.native",),
    ("mcts_engine.echo",),
    ("mcts_engine.engine_options",),
    ("mcts_engine", "mcts_engine.rules"),
    ("mcts_engine.tables", "mcts_engine.records", "mcts_engine.journal_format", "mcts_engine.book"),
    ("mcts_engine.parallel",),
    ("mcts_engine.mcts",),
    ("mcts_engine.agents", "mcts_engine.endgame_suite"),
    ("mcts_engine.engine",),
    ("mcts_engine.protocol", "mcts_engine.endgames"),
    ("mcts_engine.client", "mcts_engine.play", "mcts_engine.bench", "mcts_engine.reference",
     "mcts_engine.reference_engines", "mcts_engine.training"),
    ("mcts_engine.gui",),
    ("mcts_engine.cli",),
    ("mcts_engine.__main__",),
    ("tournaments", "tournaments.results"),
    ("tournaments.play",),
    ("tournaments.tune", "tournaments.book"),
    ("tournaments.cli",),
    ("tournaments.__main__",),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


MODULES = project_modules()


def imports(name: str, nested: bool = False) -> list[tuple[str, str, int]]:
    """(imported module, imported name or "", line) of each project import in module ``name``
    (module level only unless ``nested``)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = ast.walk(tree) if nested else tree.body
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = []
    for node in nodes:
        if isinstance(node, ast.Import):
            out += [(a.name, "", node.lineno) for a in node.names if a.name.split(".")[0] in PACKAGES]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if target.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.append((sub, "", node.lineno) if sub in MODULES else (target, alias.name, node.lineno))
    return out


def layer_of(module: str) -> tuple[int, str]:
    """(layer index, the package of the layer table) of a module: its longest listed prefix (a
    top-level package's own ``__init__`` only by its name, so a new subpackage must be listed)."""
    best = None
    for index, packages in enumerate(LAYERS):
        for package in packages:
            inside = module == package or (module.startswith(package + ".") and package not in PACKAGES)
            if inside and (best is None or len(package) > len(best[1])):
                best = (index, package)
    if best is None:
        raise AssertionError(f"{module} is in no layer: put its package in LAYERS ({__file__})")
    return best


def test_every_module_is_in_a_layer():
    for name in MODULES:
        layer_of(name)


def upward(importer: str, imported: str) -> bool:
    """Whether ``importer`` importing ``imported`` runs up (or across) the layers."""
    mine, package = layer_of(importer)
    theirs, other = layer_of(imported)
    return other != package and theirs >= mine


def test_each_package_imports_only_the_layers_below_it():
    wrong = [f"{MODULES[name].relative_to(ROOT)}:{line}: {name} imports {target}"
             for name in MODULES for target, _, line in imports(name, nested=True) if upward(name, target)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("importer, imported, up", [
    ("mcts_engine.rules.base", "mcts_engine.protocol.session", True),
    ("mcts_engine.client.engine", "mcts_engine.gui.board", True),
    ("mcts_engine.client.hub", "mcts_engine.client.dxp", False),
    ("mcts_engine.gui.board", "mcts_engine.client", False),
    ("tournaments.play.runner", "tournaments.tune.settings", True),
    ("tournaments.tune.settings", "tournaments.play.runner", False),
    ("mcts_engine.protocol.uci", "tournaments.cli", True),
])
def test_the_layers_say_which_way_an_import_runs(importer, imported, up):
    assert upward(importer, imported) is up


def test_the_protocol_reaches_the_search_only_through_the_engine_facade():
    """The sessions keep options, position and output; the search job, its threads or worker
    processes and the result are the façade's (mcts_engine/engine.py)."""
    below = ("mcts_engine.mcts", "mcts_engine.parallel", "mcts_engine.agents")
    wrong = [f"{MODULES[name].relative_to(ROOT)}:{line}: {target}" for name in MODULES
             if name.startswith("mcts_engine.protocol")
             for target, _, line in imports(name, nested=True) if target.startswith(below)]
    assert not wrong, wrong


def test_threads_or_processes_are_decided_in_one_place():
    """Only the façade sizes the worker pool, and only make_agent chooses the agents that run
    threads or processes, by agents.search_plan."""
    pattern = re.compile(r"(?<!class )\b(resize_pool|RootParallelAgent|UctAgent)\(")
    allowed = {"mcts_engine/agents.py", "mcts_engine/engine.py", "mcts_engine/parallel/pool.py",
               "mcts_engine/mcts/root_parallel.py", "mcts_engine/bench.py"}
    found = {str(path.relative_to(ROOT)) for path in MODULES.values()
             if pattern.search(path.read_text(encoding="utf-8"))}
    assert found - allowed == set(), found - allowed
    engine = (ROOT / "mcts_engine/engine.py").read_text(encoding="utf-8")
    assert "search_plan(" in engine and "game.native" not in engine


def test_the_final_move_is_defined_once_in_the_core():
    """One definition of the final choice (native/src/final.c), root-parallel merges included."""
    sources = [*MODULES.values(), *sorted((ROOT / "mcts_engine/native/src").glob("*.[ch]"))]
    definitions = [str(p.relative_to(ROOT)) for p in sources
                   for line in p.read_text(encoding="utf-8").splitlines()
                   if re.match(r"\s*(def\s+final_choice|int\s+final_choice\(.*\)\s*$)", line)]
    assert definitions == ["mcts_engine/native/src/final.c"], definitions
    assert not any("table_final" in p.read_text(encoding="utf-8") for p in sources)


def test_the_search_names_no_game():
    """A game declares its own search parameters (Game.search_parameters): no evaluation term
    of any game is named in mcts/, and mcts/ imports no game's rules."""
    wrong = [f"{path.relative_to(ROOT)}:{n}" for name, path in MODULES.items() if name.startswith("mcts_engine.mcts")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"Eval|rules\.draughts|rules import draughts", line)]
    assert not wrong, wrong


def test_nothing_under_mcts_engine_imports_the_tournament_manager():
    wrong = [f"{MODULES[name].relative_to(ROOT)}:{line}: {target}" for name in MODULES if name.startswith("mcts_engine")
             for target, _, line in imports(name, nested=True) if target.split(".")[0] == "tournaments"]
    assert not wrong, wrong


def test_no_private_name_is_imported_from_another_module():
    wrong = [f"{MODULES[name].relative_to(ROOT)}:{line}: {imported} from {target}" for name in MODULES
             for target, imported, line in imports(name, nested=True)
             if imported.startswith("_") and not (imported.startswith("__") and imported.endswith("__"))]
    assert not wrong, wrong


def test_no_import_cycle_between_modules():
    graph = {name: {t for t, _, _ in imports(name) if t in MODULES and t != name} for name in MODULES}
    cycles = strongly_connected(graph)
    assert not cycles, cycles


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_the_cycle_finder_finds_cycles():
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_module_outside_rules_passes_600_lines():
    long = {str(path.relative_to(ROOT)): n for name, path in MODULES.items()
            if not name.startswith("mcts_engine.rules")
            and (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, long


def test_the_manager_has_a_handful_of_modules_at_its_top():
    top = sorted(p.name for p in (ROOT / "tournaments").glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "cli.py"], top


def test_the_transport_is_below_the_search():
    wrong = [(name, target) for name in MODULES if name.startswith("mcts_engine.parallel")
             for target, _, _ in imports(name, nested=True) if target.startswith("mcts_engine.mcts")]
    assert not wrong, wrong


def test_no_class_name_is_defined_twice():
    defined = defaultdict(list)
    for name, path in MODULES.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                defined[node.name].append(name)
    twice = {cls: where for cls, where in defined.items() if len(where) > 1}
    assert not twice, twice
