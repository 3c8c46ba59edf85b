"""Deduction-game solvers played from precomputed decision trees.

The package's face: `from solver import battleship, cards, wordle, mastermind, bulls` (and
`generic`) gives the game modules of `solver.games`, loaded when first named; `solver.Game`,
`solver.Solver`, `solver.State`, `solver.InconsistentFeedbackError` and `solver.explain` are the
library's main names (their homes: `solver.core.game`, `solver.core.runtime`,
`solver.analysis.explain`). Importing this package loads none of them, and no Numba code.

Layers, lowest first (docs, "Architecture"): `solver.core`, `solver.games`, `solver.analysis`,
the offline `pipeline`, and the faces `solver.cli`, `solver.web`, `solver.wordle_program`.
"""
from importlib import import_module

from solver.core.package_version import installed_version

_GAMES = ("battleship", "cards", "wordle", "mastermind", "bulls", "generic")
_MODULES = {name: f"solver.games.{name}" for name in _GAMES}
_NAMES = {"Game": "solver.core.game", "Solver": "solver.core.runtime", "State": "solver.core.runtime",
          "InconsistentFeedbackError": "solver.core.runtime", "explain": "solver.analysis.explain",
          "Explanation": "solver.analysis.explain"}

__all__ = ["__version__", *_MODULES, *_NAMES]


def __getattr__(name: str):
    """Load a game module or a main name when first asked for (PEP 562), so that `import solver`
    stays light."""
    if name == "__version__":
        return installed_version()
    if name in _MODULES:
        module = import_module(_MODULES[name])
    elif name in _NAMES:
        module = getattr(import_module(_NAMES[name]), name)
    else:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    globals()[name] = module
    return module
