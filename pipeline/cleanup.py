"""What a killed build leaves behind, and how the next one (or the processes) clean it up.

* Temporary files: `solver.core.atomic` writes every artifact to ``.<name>.<pid>.<random>.tmp`` beside
  it and renames it into place; a build killed during a write (``kill -9``, power loss) leaves the
  temporary file. `remove_stale_build_temporaries`, called when `build_all` starts, removes those of the
  artifacts folder (and of its checkpoint folders) that no running writer will finish
  (`solver.core.atomic.remove_stale_in_folder`). A build running at the same time
  keeps its own.
* Worker processes: joblib's loky workers wait for work up to 300 s and do not notice a killed
  parent, and a busy one finishes its task (minutes of Numba search) first. `end_with_parent`,
  run in each worker when it imports `pipeline` (to unpickle its task), asks Linux to kill the
  worker when its parent dies (``PR_SET_PDEATHSIG``); elsewhere a thread checks the parent every
  second (it cannot interrupt a running Numba kernel).
"""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path

from solver.core.atomic import STALE_SECONDS, remove_stale_in_folder


def remove_stale_build_temporaries(folder: Path | None = None, max_age: float = STALE_SECONDS) -> list[Path]:
    """Remove the stale temporary files of an artifacts folder (None: the build folder and the user
    cache, where a user's own games build) and its checkpoint folders; return their paths."""
    if folder is None:
        from solver.core.artifacts import artifacts_dir, cache_dir  # defers pyarrow until an artifact is read

        tops = list(dict.fromkeys([artifacts_dir(), cache_dir()]))
    else:
        tops = [folder]
    folders = [f for top in tops for f in [top, *sorted(p for p in (top / ".checkpoints").glob("*") if p.is_dir())]]
    return [path for where in folders for path in remove_stale_in_folder(where, max_age)]


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _in_loky_worker() -> bool:
    return multiprocessing.current_process().name.startswith("LokyProcess")


def end_with_parent() -> None:
    """In a joblib (loky) worker process, make the worker end when its parent process dies.

    Does nothing in any other process. Called by ``pipeline/__init__.py``. (Linux sends the
    signal when the thread that started the worker ends: loky starts them from the main thread or
    its manager thread, which lives as long as the workers are used.)
    """
    if not _in_loky_worker():
        return
    parent = getattr(multiprocessing.parent_process(), "pid", None) or os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl failed")
        watch = False
    except (OSError, AttributeError):  # not Linux
        watch = True
    if os.getppid() != parent:  # the parent died before we asked
        os._exit(1)
    if watch:
        def check() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(1)

        threading.Thread(target=check, name="end-with-parent", daemon=True).start()
