"""The packages' layers, read from every module's imports (top-level and inside functions).

Each layer imports only the layers below it; the faces never import each other; there is no
import circle; and an import inside a function is there only to defer a heavy dependency (it
imports one, directly or through the project module it names) and says so in a comment.
"""
from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

import pytest

import solver
from docs.import_reader import (
    LAYERS,
    SIBLINGS,
    Import,
    find_modules,
    layer_of,
    read_imports,
)

ROOT = Path(__file__).resolve().parent.parent

# What an import inside a function may defer: slow to import (Numba, pyarrow, joblib 0.3 s;
# rich 0.1 s of every `wordle` start in test mode; importlib.metadata 80 ms of every start, for the
# version) or in an optional extra (web, dask, plot).
# asyncio and multiprocessing: about 40 ms of the command line's start-up together (`python -X importtime`)
HEAVY = {"numba", "pyarrow", "joblib", "rich", "importlib", "fastapi", "starlette", "uvicorn", "pydantic", "httpx",
         "dask", "distributed", "matplotlib", "asyncio", "multiprocessing"}


@cache
def project_modules() -> dict[str, Path]:
    """Return {dotted name: file} of every module of the packages `solver` and `pipeline`."""
    return find_modules(ROOT)


@cache
def imports() -> tuple[Import, ...]:
    """Return every import of every project module (`lazy_module` calls included), resolved to the module it loads."""
    return read_imports(ROOT, project_modules())


def project_edges() -> list[Import]:
    modules = project_modules()
    return [i for i in imports() if i.target in modules]


def test_every_module_has_a_layer():
    for module in project_modules():
        layer_of(module)  # ValueError naming a module in no layer


def test_the_reader_counts_lazy_modules_as_imports():
    lazy = {(edge.module, edge.target) for edge in imports() if edge.lazy}
    assert ("solver.cli.main", "solver.cli.serve") in lazy
    assert all(not edge.in_function for edge in imports() if edge.lazy)


def test_no_import_runs_up_or_across_the_faces():
    wrong = []
    for edge in project_edges():
        (low, package), (high, other) = layer_of(edge.module), layer_of(edge.target)
        if high > low:
            wrong.append(f"{edge.module}:{edge.line} imports {edge.target}, a higher layer ({LAYERS[high][0]})")
        elif high == low and package != other and LAYERS[low][0] in SIBLINGS:
            wrong.append(f"{edge.module}:{edge.line} imports {edge.target}, another face")
    assert not wrong, "\n".join(wrong)


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
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

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return out


def test_no_import_circles():
    edges: dict[str, set[str]] = {}
    for edge in project_edges():
        edges.setdefault(edge.module, set()).add(edge.target)
    assert not _circles(edges), _circles(edges)


@cache
def heavy_loaded(module: str) -> frozenset[str]:
    """Return the heavy dependencies that importing a project module loads through its top-level
    imports (directly or through the project modules it imports at top level)."""
    seen, todo, heavy = set(), [module], set()
    modules = project_modules()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for edge in imports():
            if edge.module == current and not edge.in_function and not edge.lazy:
                if edge.target in HEAVY:
                    heavy.add(edge.target)
                elif edge.target in modules:
                    todo.append(edge.target)
    return frozenset(heavy)


def test_imports_inside_functions_only_defer_heavy_dependencies():
    wrong = []
    for edge in imports():
        if not edge.in_function:
            continue
        deferred = {edge.target} if edge.target in HEAVY else set(heavy_loaded(edge.target)) \
            if edge.target in project_modules() else set()
        if not deferred - heavy_loaded(edge.module):  # nothing heavy that the module does not load anyway
            wrong.append(f"{edge.module}:{edge.line} imports {edge.target} inside a function: import it at the top")
        elif not edge.comment:
            wrong.append(f"{edge.module}:{edge.line} defers {edge.target} without a comment saying why")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("source, circle", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c"]),
    ({"a": {"b"}, "b": set()}, None),
])
def test_the_circle_finder_finds_circles(source, circle):
    assert _circles(source) == ([circle] if circle else [])


def test_the_package_face_loads_what_it_names_when_named():
    code = ("import sys, solver; "
            "light = not any(m.startswith(('solver.games', 'solver.analysis')) for m in sys.modules); "
            "from solver import battleship, bulls, cards, generic, mastermind, wordle; "
            "import solver.games.wordle as home; from solver.core.runtime import Solver; "
            "from solver.analysis.explain import explain; "
            "print(light, wordle is home, solver.Solver is Solver, solver.explain is explain, "
            "generic.__name__, generic.from_function.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True", "True", "True", "solver.games.generic", "solver.games.tabulation"]
    with pytest.raises(AttributeError):
        solver.no_such_name  # noqa: B018


NOT_SHIPPED = {"pipeline.benchmarks"}  # run from the checkout by `make bench`


def test_every_package_is_in_the_wheel():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    packages = {name for name, path in project_modules().items() if path.name == "__init__.py"}
    assert packages - NOT_SHIPPED <= listed, \
        f"add to [tool.setuptools] packages in pyproject.toml: {sorted(packages - NOT_SHIPPED - listed)}"
    assert not listed & NOT_SHIPPED, f"{sorted(listed & NOT_SHIPPED)} must stay out of the wheel"


def test_the_registry_loads_only_games_layer_modules():
    # the one import by a computed name: the registry's game modules, plugins of core loaded on demand
    from solver.core.registry import GAME_MODULES

    for name, module in GAME_MODULES.items():
        assert module in project_modules(), f"{name}: no module {module}"
        assert LAYERS[layer_of(module)[0]][0] == "games", f"{module} is not in the games layer"
        above = [e.target for e in project_edges()
                 if e.module == module and layer_of(e.target)[0] > layer_of(module)[0]]
        assert not above, f"{module} imports a higher layer: {above}"
    computed = []
    for module, path in project_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call)
                    and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_module"):
                computed.append(module)
    allowed = {"solver.core.registry", "solver", "pipeline.custom_game"}  # the registry; the package face; users' games
    assert set(computed) <= allowed, \
        f"imports by a computed name outside the registry: {sorted(set(computed) - allowed)}"


def _package(module: str) -> str:
    return module if project_modules()[module].name == "__init__.py" else module.rpartition(".")[0]


def test_the_import_graph_draws_what_the_layer_test_reads(tmp_path):
    # docs/import_graph.py reads with this test's reader: its arrows count the `lazy_module` calls too
    out = tmp_path / "layers.svg"
    subprocess.run([sys.executable, str(ROOT / "docs" / "import_graph.py"), "--root", str(ROOT), "--out", str(out)],
                   check=True, capture_output=True)
    drawn = out.read_text(encoding="utf-8")
    read = [e for e in project_edges()
            if _package(e.module) == "solver.cli" and _package(e.target) == "solver.analysis"]
    assert any(edge.lazy for edge in read)
    assert f"solver.cli imports solver.analysis: {len(read)} import statements" in drawn
