"""Deduction-game solvers played from precomputed decision trees.

Game modules: `solver.battleship`, `solver.cards`, `solver.wordle`, `solver.mastermind`,
`solver.bulls`. Importing this package compiles no Numba code: kernels load lazily.
"""
__version__ = "0.1.0"
