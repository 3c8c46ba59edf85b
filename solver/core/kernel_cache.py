"""What Numba's cache holds: whether a kernel call must compile first (read from the cache's index, nothing
run), for the notice a command gives then (`solver.core.progress.first_call_notice`), the background warm-up
and the test suite's (`solver.core.coldstart`, tests/conftest.py).

Numba keeps one machine code per kernel and argument types, for this machine and this source file (its
index is stale once the file changes). These read its private cache API (Numba 0.6x); when that
cannot be read, a kernel counts as cached: no notice, the work runs as it always did.
"""
from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def must_compile(dispatcher, args: tuple) -> bool:
    """Return whether calling the Numba `dispatcher` with `args` compiles it: it has no machine code loaded
    in this process, and Numba's cache holds none for these arguments' types on this machine for this
    source. False when it cannot be told (not a Numba dispatcher, a change of Numba's private cache API)."""
    if getattr(dispatcher, "signatures", True):  # loaded already (or not a dispatcher): nothing to compile
        return False
    try:
        types = tuple(dispatcher.typeof_pyval(arg) for arg in args)
        cache = dispatcher._cache
        key = cache._index_key(types, dispatcher.targetctx.codegen())  # these types, this machine, this source
        return key not in cache._cache_file._load_index()
    except Exception as err:  # noqa: BLE001 - Numba's private cache API: any change means "cannot tell"
        log.debug("cannot read Numba's cache index (%s): no notice", err)
        return False


def search_kernels_cached(dtype=None) -> bool:
    """Return whether the exact search's kernel for feedback tables of `dtype` (uint8 or uint16; None:
    either) is loaded in this process or held by Numba's cache on this machine for this source; True when
    that cannot be told (another Numba's cache layout): the search then runs as it always did."""
    from numba import from_dtype  # defers Numba to the first state off the tree

    from solver.core.search import kernel  # defers Numba to the first state off the tree

    dispatcher = kernel.search
    wanted = None if dtype is None else from_dtype(dtype)

    def fits(types) -> bool:  # the arguments' types: a workspace first, its feedback table first
        return wanted is None or types[0].types[0].dtype == wanted

    try:
        if any(fits(types) for types in dispatcher.signatures):
            return True
        cache = dispatcher._cache
        here = cache._index_key(None, dispatcher.targetctx.codegen())[1:]  # this machine, this source
        return any(key[1:] == here and fits(key[0]) for key in cache._cache_file._load_index())
    except Exception as err:  # noqa: BLE001 - Numba's private cache API: any change means "cannot tell"
        log.debug("cannot read Numba's cache index (%s): the kernels count as cached", err)
        return True

