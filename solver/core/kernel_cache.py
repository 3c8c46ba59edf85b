"""What Numba's cache holds: whether a kernel call must compile first (read from the cache's index, nothing
run), for the notice a command gives then (`solver.core.progress.first_call_notice`), the background warm-up
and the test suite's (`solver.core.coldstart`, tests/conftest.py); and a guard on that cache (`guard`).

Numba keeps one machine code per kernel and argument types, for this machine and this source file (its
index is stale once the file changes). These read its private cache API (Numba 0.6x); when that
cannot be read, a kernel counts as cached: no notice, the work runs as it always did.

Numba's cache is a folder of pickles (``<kernel>.nbi`` indexes, ``.nbc`` machine code): NUMBA_CACHE_DIR when
set (a ``<package>_<hash>`` folder per source folder), else each source folder's ``__pycache__``, else the
user's ``~/.cache/numba``. Numba trusts it: a truncated or overwritten file ends the command in an
UnpicklingError (or EOFError: "Aborted."), and a folder that cannot be written at all in a RuntimeError
when the kernel's module is imported. Importing this module guards it (`guard`, from the moment Numba is
imported): an entry that cannot be read is named once (one ``warning:`` line a process), removed and
compiled again (Numba then saves it afresh: repaired), and a folder that cannot be written is named once
and bypassed: the kernels are compiled in memory for the process (`cache_problem` tells the background
warm-up, which could not keep them either).
"""
from __future__ import annotations

import importlib.util
import logging
import os
import sys
import threading

log = logging.getLogger(__name__)
CORRUPT, UNWRITABLE = "corrupt", "unwritable"  # the kinds of problem a process names, once each (`name_once`)
_NAMED: set[str] = set()
_NAMED_LOCK = threading.Lock()


def name_once(kind: str, message: str, *args) -> bool:
    """Log `message` % `args` as a WARNING unless a problem of this `kind` was named in this process already;
    return whether it was logged now."""
    with _NAMED_LOCK:
        first = kind not in _NAMED
        _NAMED.add(kind)
    (log.warning if first else log.debug)(message, *args)
    return first


def _reason(err: BaseException) -> str:
    text = " ".join(str(err).split())[:80]
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:  # gone already, or a folder that cannot be written: the entry is skipped all the same
        pass


def _unreadable(cache_path: str, name: str, err: BaseException, removed: str | None) -> None:
    if removed is not None:
        _remove(removed)
    name_once(CORRUPT, "Numba's kernel cache in %s holds an entry that cannot be used (%s: %s): %s, compiled "
              "again", cache_path, name, _reason(err), "removed" if removed is not None else "skipped")


def _guard_caching(caching, dispatcher) -> None:
    """Wrap Numba's cache reads and writes (modules numba.core.caching, numba.core.dispatcher): see the
    module docstring."""
    index_file, cache = caching.IndexDataCacheFile, caching.Cache
    if getattr(index_file._load_index, "guarded", False):
        return
    load_index, load_overload, save_overload = index_file._load_index, cache.load_overload, cache.save_overload
    enable_caching = dispatcher.Dispatcher.enable_caching

    def guarded_load_index(self):
        try:
            overloads = load_index(self)
        except OSError as err:  # unreadable (permissions): nothing cached here for this process
            _unreadable(self._cache_path, self._index_name, err, None)
            return {}
        except Exception as err:  # noqa: BLE001 - any unpickling failure: a truncated, overwritten index
            _unreadable(self._cache_path, self._index_name, err, self._index_path)
            return {}
        if not isinstance(overloads, dict):
            _unreadable(self._cache_path, self._index_name, TypeError("not an index"), self._index_path)
            return {}
        return overloads

    def guarded_load_overload(self, sig, target_context):
        try:
            return load_overload(self, sig, target_context)
        except Exception as err:  # noqa: BLE001 - a data file that does not unpickle or rebuild: compile it
            try:
                name = self._cache_file._load_index().get(self._index_key(sig, target_context.codegen()))
            except Exception:  # noqa: BLE001 - the index is named by its own guard
                name = None
            path = None if name is None else self._cache_file._data_path(name)
            _unreadable(self._cache_path, name or self._name, err, path)
            return None

    def guarded_save_overload(self, sig, data):
        try:
            save_overload(self, sig, data)
        except Exception as err:  # noqa: BLE001 - a folder or file that cannot be written: kept in memory
            name_once(UNWRITABLE, "Numba's kernel cache in %s cannot be written (%s): kernels compiled now last "
                      "this process only (set NUMBA_CACHE_DIR to a writable folder)", self._cache_path, _reason(err))

    def guarded_enable_caching(self):
        try:
            enable_caching(self)
        except RuntimeError as err:  # no cache folder can be written: every locator refused (the docstring)
            self._cache = caching.NullCache()
            name_once(UNWRITABLE, "Numba has no kernel cache folder it can write (%s): kernels compiled now last "
                      "this process only (set NUMBA_CACHE_DIR to a writable folder)", _reason(err))

    for function in (guarded_load_index, guarded_load_overload, guarded_save_overload, guarded_enable_caching):
        function.guarded = True
    index_file._load_index = guarded_load_index
    cache.load_overload, cache.save_overload = guarded_load_overload, guarded_save_overload
    dispatcher.Dispatcher.enable_caching = guarded_enable_caching


class _AfterNumba:
    """A meta path finder that guards Numba's cache as soon as `import numba` has run (its caching and
    dispatcher are loaded then, before any kernel is defined): Numba is not imported before the first
    kernel is needed."""

    def find_spec(self, name, path, target=None):
        if name != "numba" or self not in sys.meta_path:
            return None
        sys.meta_path.remove(self)  # once, and the real finders find the package
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_guard(module):
            exec_module(module)
            guard()

        spec.loader.exec_module = exec_then_guard
        return spec


def guard() -> None:
    """Guard Numba's cache (the module docstring) now if Numba is imported, else once it is."""
    if "numba.core.dispatcher" in sys.modules:
        try:
            _guard_caching(sys.modules["numba.core.caching"], sys.modules["numba.core.dispatcher"])
        except Exception as err:  # noqa: BLE001 - Numba's private cache API: any change means no guard
            log.debug("cannot guard Numba's cache (%s)", err)
    elif not any(isinstance(finder, _AfterNumba) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AfterNumba())


def cache_problem(dispatcher) -> str | None:
    """Return why the Numba `dispatcher`'s cache cannot keep what is compiled now (no folder could be
    written, or its folder cannot be now), or None (it can, or it cannot be told)."""
    cache = getattr(dispatcher, "_cache", None)
    if cache is None or type(cache).__name__ == "NullCache":
        return None if cache is None else "Numba has no kernel cache folder it can write"
    try:
        cache._impl.locator.ensure_cache_path()  # Numba's own test: makes the folder, writes a temporary file
    except OSError as err:
        return f"Numba's kernel cache in {cache.cache_path} cannot be written ({_reason(err)})"
    except Exception as err:  # noqa: BLE001 - Numba's private cache API: any change means "cannot tell"
        log.debug("cannot tell whether Numba's cache can be written (%s)", err)
    return None


def must_compile(dispatcher, args: tuple) -> bool:
    """Return whether calling the Numba `dispatcher` with `args` compiles it: it has no machine code loaded
    in this process, and Numba's cache holds none for these arguments' types on this machine for this
    source. False when it cannot be told (not a Numba dispatcher, a change of Numba's private cache API)."""
    if getattr(dispatcher, "signatures", True):  # loaded already (or not a dispatcher): nothing to compile
        return False
    try:
        cache = dispatcher._cache
        if type(cache).__name__ == "NullCache":  # no cache folder (`guard`): every process compiles
            return True
        types = tuple(dispatcher.typeof_pyval(arg) for arg in args)
        key = cache._index_key(types, dispatcher.targetctx.codegen())  # these types, this machine, this source
        return key not in cache._cache_file._load_index()
    except Exception as err:  # noqa: BLE001 - Numba's private cache API: any change means "cannot tell"
        log.debug("cannot read Numba's cache index (%s): no notice", err)
        return False


def search_kernels_cached(dtype=None, loaded: bool = True) -> bool:
    """Return whether the exact search's kernel for feedback tables of `dtype` (uint8 or uint16; None:
    either) is loaded in this process (`loaded`: that counts) or held by Numba's cache on this machine for
    this source, in an entry that unpickles (one that does not is removed: `guard`); True when that cannot
    be told (another Numba's cache layout): the search then runs as it always did."""
    from numba import from_dtype  # defers Numba to the first state off the tree

    from solver.core.search import kernel  # defers Numba (the kernels' module imports it) likewise

    dispatcher = kernel.search
    wanted = None if dtype is None else from_dtype(dtype)

    def fits(types) -> bool:  # the arguments' types: a workspace first, its feedback table first
        return wanted is None or types[0].types[0].dtype == wanted

    try:
        if loaded and any(fits(types) for types in dispatcher.signatures):
            return True
        cache = dispatcher._cache
        if type(cache).__name__ == "NullCache":  # no cache folder (`guard`): every process compiles
            return False
        here = cache._index_key(None, dispatcher.targetctx.codegen())[1:]  # this machine, this source
        cache_file = cache._cache_file
        names = [name for key, name in cache_file._load_index().items() if key[1:] == here and fits(key[0])]
    except Exception as err:  # noqa: BLE001 - Numba's private cache API: any change means "cannot tell"
        log.debug("cannot read Numba's cache index (%s): the kernels count as cached", err)
        return True
    return any(_readable(cache, name) for name in names)


def _readable(cache, name: str) -> bool:
    """Return whether the cache entry (data file) `name` unpickles (one that does not is named and removed);
    True when that cannot be told (another Numba's cache layout)."""
    cache_file = cache._cache_file
    if not (hasattr(cache_file, "_load_data") and hasattr(cache_file, "_data_path")):
        return True
    try:
        cache_file._load_data(name)
    except FileNotFoundError:
        return False
    except Exception as err:  # noqa: BLE001 - a truncated, overwritten, empty file
        _unreadable(getattr(cache, "cache_path", "?"), name, err, cache_file._data_path(name))
        return False
    return True


guard()


def load_cached_serial_kernels(prefix: str) -> int:
    """Load, from Numba's cache, every machine code it holds for this machine and source of the serial
    kernels defined in the imported modules named `prefix`...; return how many were loaded. Parallel
    kernels are left alone: loading one starts Numba's threading layer, after which a fork of the process
    cannot run one (GNU OpenMP ends it)."""
    from numba.core.registry import CPUDispatcher  # the caller has imported the kernels' modules, hence Numba

    loaded = 0
    dispatchers = {id(obj): obj for name, module in list(sys.modules.items())
                   if name.startswith(prefix) and module is not None
                   for obj in list(vars(module).values()) if isinstance(obj, CPUDispatcher)}
    for dispatcher in dispatchers.values():
        if dispatcher.targetoptions.get("parallel") or type(dispatcher._cache).__name__ == "NullCache":
            continue
        try:
            codegen = dispatcher.targetctx.codegen()
            for index_key in list(dispatcher._cache._cache_file._load_index()):
                if dispatcher._cache._index_key(index_key[0], codegen) == index_key:  # this machine, this source
                    dispatcher.compile(index_key[0])
                    loaded += 1
        except Exception as err:  # noqa: BLE001 - Numba's private cache API: any change means "load on first call"
            log.debug("cannot load the cached kernels of %s (%s)", dispatcher.py_func.__qualname__, err)
    return loaded


def parallel_layer_started() -> bool:
    """Return whether Numba's threading layer has started in this process (a parallel kernel was loaded or
    run); False when Numba is not imported or that cannot be told."""
    parallel = sys.modules.get("numba.np.ufunc.parallel")
    return bool(getattr(parallel, "_is_initialized", False))
