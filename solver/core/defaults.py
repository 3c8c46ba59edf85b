"""The defaults a person sees in the command line's help, here where reading them imports nothing (the
modules that use them import NumPy): the live budget (`solver.core.strategy`) and the number of guesses
a hint ranks (`solver.analysis.scores`)."""
from __future__ import annotations

LIVE_BUDGET = 1.0  # seconds: a live choice's budget, which sizes its work (LIVE_PAIRS; the exact search's)
DEFAULT_TOP = 5  # guesses a hint ranks (`deduce hint --top`), and the rankings computed ahead (the hints artifact)
