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
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import solver

ROOT = Path(__file__).resolve().parent.parent

# The layers, lowest first. A layer of several packages is a floor of siblings that never import
# each other (the faces); the packages of one layer may import each other freely otherwise.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("solver.core",)),
    ("games", ("solver.games",)),
    ("analysis", ("solver.analysis",)),
    ("pipeline", ("pipeline",)),
    ("faces", ("solver.cli", "solver.web", "solver.wordle_program")),
    ("entry points", ("solver", "solver.__main__")),  # the package's face and `python -m solver`
    ("benchmarks", ("pipeline.benchmarks",)),  # `make bench`: times every layer, faces included; not shipped
]
SIBLINGS = {"faces"}

# What an import inside a function may defer: slow to import (Numba, pyarrow, joblib 0.3 s;
# rich 0.1 s of every `wordle` start in test mode; importlib.metadata 80 ms of every start, for the
# version) or in an optional extra (web, dask, plot).
# asyncio and multiprocessing: about 40 ms of the command line's start-up together (`python -X importtime`)
HEAVY = {"numba", "pyarrow", "joblib", "rich", "importlib", "fastapi", "starlette", "uvicorn", "pydantic", "httpx",
         "dask", "distributed", "matplotlib", "asyncio", "multiprocessing"}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported (a project module, or a third-party top-level name)
    line: int
    in_function: bool
    comment: bool  # a comment on the import's line or the line above
    lazy: bool = False  # `lazy_module`: loaded on first use, like an import inside a function


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def project_modules() -> dict[str, Path]:
    """Return {dotted name: file} of every module of the packages `solver` and `pipeline`."""
    return {_module_name(p): p for package in ("solver", "pipeline") for p in sorted((ROOT / package).rglob("*.py"))}


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _lazy_target(node: ast.AST) -> str:
    """Return the module a `lazy_module("name")` call names ("" for any other node)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "lazy_module" \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant):
        return str(node.args[0].value)
    return ""


@cache
def imports() -> tuple[Import, ...]:
    """Return every import of every project module, resolved to the module it loads."""
    modules = project_modules()
    found = []
    for module, path in modules.items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        inside = {id(sub) for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for sub in ast.walk(node) if isinstance(sub, (ast.Import, ast.ImportFrom))}
        for node in ast.walk(tree):
            if _lazy_target(node):  # `lazy_module("solver.x")` (solver.cli.lazy): an import, run on first use
                targets = [_lazy_target(node)]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, path, node)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            before = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
            comment = "#" in lines[node.end_lineno - 1] or before.startswith("#")
            for target in targets:
                if target.partition(".")[0] not in ("solver", "pipeline"):
                    target = target.partition(".")[0]
                elif target not in modules:  # `import solver.core.scoring`: the module itself
                    while target and target not in modules:
                        target = target.rpartition(".")[0]
                if target != module:
                    found.append(Import(module, target, node.lineno, id(node) in inside, comment,
                                        bool(_lazy_target(node))))
    return tuple(found)


def layer_of(module: str) -> tuple[int, str]:
    """Return (layer number, package) of a project module: the longest declared package holding it."""
    best = None
    for number, (_, packages) in enumerate(LAYERS):
        for package in packages:
            if module == package or module.startswith(package + "."):
                if best is None or len(package) > len(best[1]):
                    best = (number, package)
    assert best is not None, f"{module} is in no declared layer: add its package to LAYERS"
    return best


def project_edges() -> list[Import]:
    modules = project_modules()
    return [i for i in imports() if i.target in modules]


def test_every_module_has_a_layer():
    for module in project_modules():
        layer_of(module)


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
    code = ("import sys, solver; light = not any(m.startswith(('solver.games', 'solver.analysis')) for m in sys.modules); "
            "from solver import battleship, bulls, cards, generic, mastermind, wordle; "
            "import solver.games.wordle as home; from solver.core.runtime import Solver; "
            "from solver.analysis.explain import explain; "
            "print(light, wordle is home, solver.Solver is Solver, solver.explain is explain, generic.from_function.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True", "True", "True", "solver.games.generic"]
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
        above = [e.target for e in project_edges() if e.module == module and layer_of(e.target)[0] > layer_of(module)[0]]
        assert not above, f"{module} imports a higher layer: {above}"
    computed = []
    for module, path in project_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_module":
                computed.append(module)
    allowed = {"solver.core.registry", "solver", "pipeline.custom_game"}  # the registry; the package face; users' games
    assert set(computed) <= allowed, f"imports by a computed name outside the registry: {sorted(set(computed) - allowed)}"
