"""Handing freed memory back to the system.

Freeing a large NumPy array (a search's memo, a sub-game's table) returns its pages to the C allocator,
which keeps many of them: glibc raises its mmap threshold after each large free, so later arrays of a few
megabytes come from the heap, and freed heap pages stay resident. A process that makes and drops many
sub-games (many word lists, a server's varied states) then grows with what it once held, not with what it
holds. `release_freed_memory` asks glibc (`malloc_trim`) to hand the free pages back; elsewhere it does
nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
from functools import lru_cache

log = logging.getLogger(__name__)
_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _trim():
    """Return glibc's `malloc_trim`, or None where the C library has none (musl, macOS, Windows)."""
    name = ctypes.util.find_library("c")
    try:
        function = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        function = None
    if function is None:
        log.debug("no malloc_trim in the C library (%s): freed memory stays with the allocator", name)
        return None
    function.argtypes, function.restype = [ctypes.c_size_t], ctypes.c_int
    return function


def release_freed_memory() -> bool:
    """Hand the allocator's free pages back to the system; return whether the C library could (glibc).
    It takes a few milliseconds: call it after dropping large arrays, not in a loop."""
    trim = _trim()
    if trim is None:
        return False
    with _LOCK:  # one walk of the heaps at a time
        trim(0)
    return True
