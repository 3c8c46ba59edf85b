"""Deprecated: the old name of `solver.core.runtime` (renamed in 0.2.0), kept because earlier
documentation named it. Importing it gives that module itself, with a DeprecationWarning."""
import sys
import warnings

from solver.core import runtime

warnings.warn("solver.core.engine is now solver.core.runtime", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = runtime
