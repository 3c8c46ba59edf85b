"""The least a whole process that runs a Numba kernel costs: Python, NumPy and Numba imported, and one
trivial kernel loaded from Numba's cache (which sets up Numba's CPU target: its typing and lowering
registries). `make bench` section `largestates` times it beside the proofs: no proof by a Numba kernel
can take less."""
import numpy as np
from numba import njit


@njit(cache=True)
def _increment(value):
    return value + 1


if __name__ == "__main__":
    _increment(np.int64(1))
