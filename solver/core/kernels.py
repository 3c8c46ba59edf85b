"""Deprecated: the old name of `solver.core.scoring` (renamed in 0.2.0), kept because earlier
documentation named it. Importing it gives that module itself, with a DeprecationWarning."""
import sys
import warnings

from solver.core import scoring

warnings.warn("solver.core.kernels is now solver.core.scoring", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = scoring
