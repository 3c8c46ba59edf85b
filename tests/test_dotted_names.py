"""Every dotted name a reader is pointed to (in backticks, in the docs, the README and the code's docstrings and
comments) names something that exists: a module, or an attribute of a module or of one of its classes. Names
from earlier layouts (a renamed module, a moved function) then cannot come back unnoticed."""
from __future__ import annotations

import ast
import dataclasses
import builtins
import importlib
import inspect
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "pipeline")
# single backticks only: ``pi.x`` (double, as reStructuredText writes code and maths) is notation, not a name
DOTTED = re.compile(r"(?<!`)`([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)(?:\(\))?`(?!`)")
# file names in backticks (manifest.json, normal.top105.proven): not Python names
FILE_ENDINGS = {"json", "jsonl", "md", "txt", "csv", "parquet", "proven", "tree", "py", "svg", "png", "toml", "yml",
                "lock", "nbi", "nbc", "html", "js", "css", "whl", "gz", "zip"}
# modules outside the project that the text names by their usual short names (checked by import)
OUTSIDE = {"np": "numpy", "sys": "sys", "fcntl": "fcntl", "importlib": "importlib", "numba": "numba",
           "pyarrow": "pyarrow", "dataclasses": "dataclasses", "itertools": "itertools", "time": "time",
           "asyncio": "asyncio", "distributed": "distributed", "os": "os", "math": "math", "typer": "typer",
           "threading": "threading", "signal": "signal", "subprocess": "subprocess", "json": "json",
           "Client": "distributed", "Console": "rich.console",
           "fs": "os"}  # fs.protected_symlinks: a Linux sysctl's name
# instance names the text uses for the project's objects: a name's attribute must be one of its class's
INSTANCES = {"ws": ("solver.core.search.searcher.Workspace",), "state": ("solver.core.runtime.State",),
             "plan": ("pipeline.builders.exact_tree.Plan", "pipeline.builders.opener_book.BookPlan",
                      "pipeline.builders.pooled_tree.PooledPlan"),
             "solver": ("solver.core.runtime.Solver",), "tree": ("solver.core.artifacts.Tree",),
             "game": ("solver.core.game.Game",), "explanation": ("solver.analysis.explain.Explanation",),
             "session": ("solver.wordle_program.play.Session",), "sub": ("solver.core.search.live._SubGame",),
             "options": ("solver.core.search.searcher.SearchOptions",),
             "probe": ("pipeline.builders.split_class.Probe",),
             "error": ("builtins.Exception", "solver.web.service.FieldError")}
# `self.name = ...`, `self.name: T = ...` and `self.a, self.b = ...`
SELF_ATTRIBUTE = re.compile(r"self\.([A-Za-z_][A-Za-z0-9_]*)(?=\s*(?::[^=\n]+)?=(?!=)|\s*,\s*self\.)")


def sources() -> list[Path]:
    """Return the texts checked: the docs' pages, the README and every module of the packages."""
    pages = sorted((ROOT / "docs" / "pages").rglob("*.md")) + [ROOT / "README.md"]
    return pages + sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


@lru_cache(maxsize=None)
def modules_named() -> dict[str, list[str]]:
    """Return {short name: [dotted module names]} of every module and package of the project."""
    out: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts[-1] == "__main__":
                continue
            out.setdefault(parts[-1], []).append(".".join(parts))
    return out


@lru_cache(maxsize=None)
def classes_named() -> dict[str, list[str]]:
    """Return {class name: [dotted module names defining it]} over the project's modules."""
    out: dict[str, list[str]] = {}
    for names in modules_named().values():
        for module in names:
            path = ROOT / Path(*module.split("."))
            path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef):
                    out.setdefault(node.name, []).append(module)
    return out


def has(obj, name: str) -> bool:
    """Return whether `obj` (a module or a class) has `name`: an attribute, a dataclass field, an annotated
    attribute, a NamedTuple field, a slot, or an attribute its methods set on `self`."""
    if hasattr(obj, name):
        return True
    if isinstance(obj, type):
        for klass in obj.__mro__:
            if name in getattr(klass, "__annotations__", {}) or name in getattr(klass, "__slots__", ()):
                return True
            if dataclasses.is_dataclass(klass) and name in {f.name for f in dataclasses.fields(klass)}:
                return True
            if klass.__module__.split(".")[0] in PACKAGES and name in self_attributes(klass):
                return True
    return False


def self_attributes(klass: type) -> set[str]:
    """Return the names a class's methods assign on `self` (read from its source)."""
    try:
        return set(SELF_ATTRIBUTE.findall(inspect.getsource(klass)))
    except (OSError, TypeError):
        return set()


def resolves_in(obj, rest: list[str]) -> bool:
    """Return whether the attribute chain `rest` resolves from `obj` (past a name whose value is not a module
    or a class, the chain is an instance's: accepted)."""
    for name in rest:
        if not has(obj, name):
            return False
        value = getattr(obj, name, None)
        if not (isinstance(value, type) or type(value).__name__ == "module"):
            return True
        obj = value
    return True


def import_attr(dotted: str):
    """Return the object a fully dotted name ("pkg.module.Class") names, or None."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not has(obj, name):
                return None
            obj = getattr(obj, name, obj)
        return obj
    return None


def resolves(dotted: str) -> bool:
    """Return whether a dotted name from the text names something that exists (see the module docstring)."""
    head, *rest = dotted.split(".")
    if rest[-1] in FILE_ENDINGS or head in ("CHANGELOG", "README"):
        return True
    if "__main__" in rest:  # a `python -m` entry point: importing it runs the program
        return (ROOT / Path(head, *rest[:rest.index("__main__")], "__main__.py")).is_file()
    if head in PACKAGES:
        for cut in range(len(rest) + 1, 0, -1):
            try:
                module = importlib.import_module(".".join([head, *rest][:cut]))
            except ImportError:
                continue
            return resolves_in(module, rest[cut - 1:])
        return False
    if head in OUTSIDE:
        try:
            importlib.import_module(OUTSIDE[head])
        except ImportError:  # an extra not installed here: not this test's to judge
            pass
        return True
    candidates = [importlib.import_module(m) for m in modules_named().get(head, [])]
    if hasattr(builtins, head):
        candidates.append(getattr(builtins, head))
    candidates += [getattr(importlib.import_module(m), head) for m in classes_named().get(head, [])]
    for dotted_class in INSTANCES.get(head, ()):
        found = import_attr(dotted_class)
        if found is not None:
            candidates.append(found)
    for obj in candidates:
        if resolves_in(obj, rest):
            return True
        if type(obj).__name__ == "module":  # `game.labels`: an attribute of the module's classes' instances
            if any(has(value, rest[0]) for value in vars(obj).values()
                   if isinstance(value, type) and value.__module__ == obj.__name__):
                return True
    return False


def test_every_dotted_name_in_the_docs_and_the_code_exists():
    wrong = []
    for path in sources():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for match in DOTTED.finditer(line):
                if not resolves(match.group(1)):
                    wrong.append(f"{path.relative_to(ROOT)}:{number}: `{match.group(1)}`")
    assert not wrong, "names that do not exist:\n" + "\n".join(wrong)


def test_the_check_refuses_a_name_from_an_earlier_layout():
    assert not resolves("build.solve_node") and not resolves("engine.lower_bound_table")
    assert not resolves("solver.core.runtime.no_such_thing")
    assert resolves("solver.core.runtime.Solver.guess_row") and resolves("walk.play_out")
    assert resolves("game.labels") and resolves("Plan.opener") and resolves("np.zeros")
