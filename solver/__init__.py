"""Deduction-game solvers played from precomputed decision trees.

Game modules: `solver.battleship`, `solver.cards`, `solver.wordle`, `solver.mastermind`,
`solver.bulls`. Importing this package compiles no Numba code: kernels load lazily.
"""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("deduce")  # one source of truth: pyproject.toml, via the package metadata
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
