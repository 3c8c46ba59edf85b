"""Where the pipeline's parallel tasks run: this machine (the default) or a Dask cluster.

See `pipeline.cluster.backend` and the README section "Running on a cluster". Importing this package
imports neither Dask nor Numba.
"""
from pipeline.cluster.backend import (
                                      BACKENDS,
                                      MISSING_DASK,
                                      Dask,
                                      Local,
                                      MissingExtraError,
                                      check_options,
                                      current,
                                      open_backend,
                                      read_shared,
                                      using,
)

__all__ = ["BACKENDS", "MISSING_DASK", "Dask", "Local", "MissingExtraError", "check_options", "current",
           "open_backend", "read_shared", "using"]
