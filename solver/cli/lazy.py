"""Modules loaded on first use, so that `deduce --help` imports neither NumPy nor the library.

`lazy_module(name)` returns the module `name` at once, but runs it only when one of its attributes is
first read (the standard library's `importlib.util.LazyLoader`); a module already imported is
returned as it is. The layer test reads these calls as imports (`tests/test_layers.py`).
"""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """Return the module `name` (dotted), to be executed on its first attribute access."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)  # as an import would: `solver.cli.views` names it
    return module
