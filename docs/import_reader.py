"""The project's imports, read from the sources: one reader for the layer test and the import graph.

`read_imports(root)` parses (with `ast`) every module of the packages `solver` and `pipeline` under a
checkout and returns each import it makes: top-level ones, those inside functions, and the
`lazy_module("solver.x")` calls of `solver.cli.lazy` (an import run on first use). `LAYERS` are the
layers those imports must respect; `tests/test_layers.py` checks them and `docs/import_graph.py`
draws them. Standard library only, so that the picture can be drawn from an old checkout too.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

TOP_PACKAGES = ("solver", "pipeline")

# The layers, lowest first. A layer of several packages is a floor of siblings that never import
# each other (the faces); the packages of one layer may import each other freely otherwise. A module
# belongs to the layer of the longest package naming it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("solver.core",)),
    ("games", ("solver.games",)),
    ("analysis", ("solver.analysis",)),
    ("pipeline", ("pipeline",)),
    ("faces", ("solver.cli", "solver.web", "solver.wordle_program")),
    ("entry points", ("solver", "solver.__main__")),  # the package's face and `python -m solver`
    ("benchmarks", ("pipeline.benchmarks",)),  # `make bench`: times every layer, faces included; not shipped
]
SIBLINGS = {"faces"}  # layers whose packages must not import each other


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported (a project module, or a third-party top-level name)
    line: int
    in_function: bool
    comment: bool  # a comment on the import's line or the line above
    lazy: bool = False  # `lazy_module`: loaded on first use, like an import inside a function


def module_name(root: Path, path: Path) -> str:
    """Return the dotted name of the module at `path` under `root`."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def find_modules(root: Path) -> dict[str, Path]:
    """Return {dotted name: file} of every module of the packages `solver` and `pipeline` under `root`."""
    return {module_name(root, path): path for package in TOP_PACKAGES for path in sorted((root / package).rglob("*.py"))
            if "__pycache__" not in path.parts}


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def lazy_target(node: ast.AST) -> str:
    """Return the module a `lazy_module("name")` call names ("" for any other node)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "lazy_module" \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant):
        return str(node.args[0].value)
    return ""


def read_imports(root: Path, modules: dict[str, Path] | None = None) -> tuple[Import, ...]:
    """Return every import of every project module under `root` (`modules`: `find_modules(root)`),
    resolved to the project module it loads, or to the top-level name of a third-party one."""
    modules = find_modules(root) if modules is None else modules
    found = []
    for module, path in modules.items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source, filename=str(path))
        inside = {id(sub) for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for sub in ast.walk(node) if isinstance(sub, (ast.Import, ast.ImportFrom))}
        for node in ast.walk(tree):
            if lazy_target(node):  # `lazy_module("solver.x")` (solver.cli.lazy): an import, run on first use
                targets = [lazy_target(node)]
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
                if target.partition(".")[0] not in TOP_PACKAGES:
                    target = target.partition(".")[0]
                elif target not in modules:  # `import solver.core.scoring`: the module itself
                    while target and target not in modules:
                        target = target.rpartition(".")[0]
                if target and target != module:
                    found.append(Import(module, target, node.lineno, id(node) in inside, comment,
                                        bool(lazy_target(node))))
    return tuple(found)


def layer_of(name: str) -> tuple[int, str]:
    """Return (layer number, package) of a project module or package: the longest declared package
    holding it; ValueError when none does."""
    best = None
    for number, (_, packages) in enumerate(LAYERS):
        for package in packages:
            if (name == package or name.startswith(package + ".")) and (best is None or len(package) > len(best[1])):
                best = (number, package)
    if best is None:
        raise ValueError(f"{name} is in no declared layer: add its package to LAYERS")
    return best
