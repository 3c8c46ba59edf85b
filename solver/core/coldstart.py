"""The first commands after an install: the exact search's kernels compiled in the background, the
guesses off the tree meanwhile from the greedy rule.

Numba compiles the exact search's kernels the first time they run on a machine (about 40 s of one core
in all) and keeps them in its cache, from which later processes load them in a fraction of a second.
A person at a terminal should not wait for that: the CLI puts a `ColdStart` in place of the game's
`ExactLive`. On its first use (the first state off the tree) it checks Numba's cache for the kernels of
the game's table type (`search_kernels_cached`); when they are not there it starts one warm-up process
in the background (``python -m solver.core.coldstart GAME VARIANT LOCK``: `ExactLive.warm`, detached, one
at a time: `WarmUp`), logs once what is being prepared and for how long, and answers every search as one
that found nothing within its budget, so the runtime plays the greedy rule's guess and ranks by the
quick estimates (marked ≈), as with ``--live greedy``. Once the cache holds the kernels it is the
plain `ExactLive`. Scripts, the library and ``--exact`` never get it: their answers stay the exact
search's, whatever the cache holds, and a command that compiles kernels in the foreground says so at
once, in one line (`solver.core.progress.first_call_notice`). Either notice is the process's only one.

Odd homes and broken caches never stall it (each named once, in one ``warning:`` line):
* the lock's folder in the user's cache folder cannot be made or its file written (``HOME=/nonexistent``,
  a read-only ``XDG_CACHE_HOME``): the lock is kept in a private folder of the temporary directory
  instead (`usable_lock`); when neither can be, the search compiles in the foreground;
* a warm-up that was interrupted (Ctrl-C, SIGTERM, SIGHUP; it clears its lock then, and an older lock
  saying ``failed KeyboardInterrupt`` counts the same) or that failed more than RETRY_SECONDS ago is
  started again; one that failed since compiles in the foreground, where its error shows;
* Numba's cache cannot be written (`kernel_cache.cache_problem`): a warm-up could not keep the kernels
  for later commands either, so none is started and the greedy rule answers (``--exact`` compiles them
  for the command). An unreadable cache entry is removed and compiled again (`kernel_cache`).
"""
from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from platformdirs import user_cache_dir

from solver.core.kernel_cache import cache_problem, name_once, search_kernels_cached
from solver.core.progress import before_notice, claim_notice
from solver.core.registry import get_game
from solver.core.search.live import ExactLive

log = logging.getLogger(__name__)
WARM_UP_SECONDS = 60  # what the notice announces: about 40 s of one core measured on a quiet machine, more when busy
FAILED = "failed"  # the first word of a warm-up's lock file after it failed: later commands compile in place
# a warm-up ended by one of these was not a failure (older versions wrote "failed KeyboardInterrupt: ")
INTERRUPTIONS = ("KeyboardInterrupt", "SystemExit", "Interrupted")
RETRY_SECONDS = 600  # a warm-up that failed this long ago is tried again in the background (an upgrade, a busy machine)


def live_kernels_cached(game) -> bool:
    """Return whether the kernels a live guess of `game` runs are loaded or in Numba's cache: the game's
    table and scoring kernels (`scoring.rule_kernels_cached`) and the exact search's for its table type
    (the kernels they call come with them); nothing is run."""
    from solver.core import scoring  # defers Numba to the first state off the tree

    return scoring.rule_kernels_cached(game) and search_kernels_cached(game.code_dtype)


def default_lock() -> Path:
    """Return the warm-up lock file of this Python and Numba cache folder, in the user's cache folder."""
    where = f"{sys.executable}\0{os.environ.get('NUMBA_CACHE_DIR', '')}"
    return Path(user_cache_dir("deduce")) / f"warm-up-{hashlib.sha256(where.encode()).hexdigest()[:12]}.lock"


def private_temp_folder() -> Path:
    """Return this user's folder for deduce in the temporary directory (``$TMPDIR/deduce-UID``)."""
    return Path(tempfile.gettempdir()) / f"deduce-{os.getuid()}"


def _writable(lock: Path, private: bool = False) -> None:
    """Make the folder of `lock` and open `lock` for writing, or raise OSError (`private`: a folder only
    this user may enter, and must own: the temporary directory is shared)."""
    lock.parent.mkdir(mode=0o700 if private else 0o777, parents=True, exist_ok=True)
    if private and lock.parent.stat().st_uid != os.getuid():
        raise PermissionError(f"{lock.parent} belongs to another user")
    with open(lock, "a+"):
        pass


def usable_lock() -> Path | None:
    """Return the warm-up lock file to keep: `default_lock()` when its folder can be made and the file
    written, else the same name in `private_temp_folder()` (the user cache folder named once, in one
    warning); None when neither can be kept."""
    preferred = default_lock()
    try:
        _writable(preferred)
        return preferred
    except OSError as err:
        why = f"{type(err).__name__}: {err.strerror or err}"
    fallback = private_temp_folder() / preferred.name
    try:
        _writable(fallback, private=True)
    except OSError as err:
        name_once("warm-up lock", "the background compile's lock can be kept neither in %s (%s) nor in %s (%s): "
                  "kernels not yet compiled are compiled in the foreground", preferred.parent, why, fallback.parent,
                  err.strerror or err)
        return None
    name_once("warm-up lock", "the user cache folder %s cannot be written (%s): the background compile's lock is "
              "kept in %s", preferred.parent, why, fallback.parent)
    return fallback


class Interrupted(BaseException):
    """SIGTERM or SIGHUP arrived in a warm-up: it ends as after Ctrl-C, its lock cleared for the next one."""


def _interrupt(signum, frame):
    raise Interrupted(signal.Signals(signum).name)


class WarmUp:
    """The one warm-up process of this Python environment and Numba cache: a lock file (`usable_lock`),
    held (flock) while a warm-up runs; it holds "pid start-time" then, "failed REASON" after a warm-up
    that failed, and nothing after one that ended or was interrupted."""

    def __init__(self, path: Path | None = None):
        self._path = path
        self._resolved = path is not None

    @property
    def path(self) -> Path | None:
        """Return the lock file (found once: `usable_lock`), or None when no lock can be kept."""
        if not self._resolved:
            self._path, self._resolved = usable_lock(), True
        return self._path

    def state(self) -> tuple[str, float]:
        """Return ("running", seconds since it started), ("failed", 0.0) or ("none", 0.0): no warm-up runs,
        or the last one was interrupted or failed RETRY_SECONDS ago or more (a new one may start)."""
        if self.path is None:
            return "failed", 0.0  # no lock file can be kept: no background work either
        if not self.path.exists():
            return "none", 0.0
        try:
            with open(self.path, "a+") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.seek(0)
                    words = handle.read().split()
                    started = float(words[1]) if len(words) == 2 and words[0].isdigit() else time.time()
                    return "running", max(time.time() - started, 0.0)
                handle.seek(0)
                words = handle.read().split()
                if not words or words[0] != FAILED:  # ended, or killed (SIGKILL: its "pid start-time" stays)
                    return "none", 0.0
                interrupted = len(words) > 1 and words[1].rstrip(":") in INTERRUPTIONS
                stale = time.time() - os.fstat(handle.fileno()).st_mtime >= RETRY_SECONDS
                return ("none" if interrupted or stale else "failed"), 0.0
        except OSError:
            return "failed", 0.0  # no lock file can be kept here: no background work either

    def start(self, game_name: str, variant: str) -> None:
        """Start the warm-up of `game_name` `variant` in a detached process (it exits at once if another
        one holds the lock); raise OSError when it cannot be (no lock can be kept, no process started)."""
        if self.path is None:
            raise FileNotFoundError("no folder can keep the warm-up's lock")
        subprocess.Popen([sys.executable, "-m", "solver.core.coldstart", game_name, variant, str(self.path)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True)

    def run(self, game_name: str, variant: str) -> int:
        """Warm the kernels of `game_name` `variant` holding the lock (the warm-up process's body);
        return the exit status: 0 also when another warm-up holds the lock, 1 when the lock cannot be
        kept, 130 when interrupted."""
        try:
            handle = open(self.path, "a+")  # the with below closes it; only opening is caught
        except OSError:
            return 1
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return 0
            try:  # the pid line too: a signal sent as soon as it is read may arrive while it is flushed
                _rewrite(handle, f"{os.getpid()} {time.time():.3f}")
                game = get_game(game_name, variant)
                ExactLive(game).warm()
                if not search_kernels_cached(game.code_dtype, loaded=False):
                    raise RuntimeError("Numba's cache did not keep the exact search's kernels")
            except (KeyboardInterrupt, Interrupted):
                _rewrite(handle, "")  # not a failure: the next command starts another
                return 130
            except BaseException as err:
                _rewrite(handle, f"{FAILED} {type(err).__name__}: {err}")
                raise
            _rewrite(handle, "")
        return 0


def _rewrite(handle, text: str) -> None:
    handle.seek(0)
    handle.truncate()
    handle.write(text)
    handle.flush()


class ColdStart:
    """`ExactLive`'s stand-in while its kernels are not in Numba's cache (the module docstring): the same
    interface; a search finds nothing (cut short: nothing is kept) until the cache holds them."""

    def __init__(self, exact_live, game_name: str, variant: str, warm_up: WarmUp | None = None):
        self._exact_live = exact_live
        self._game = (game_name, variant)
        self._warm_up = warm_up or WarmUp()
        self._ready = False
        self._started = False  # this process started a warm-up (its lock may not be taken yet)
        self._problem: str | None = None  # why Numba's cache cannot keep the kernels ("" when it can), once asked
        # kernels compiled before the first state off the tree (the game's, for a ranking) check first
        # whether the exact search's are missing: then the notice is this one
        before_notice(self.cold)

    def __getattr__(self, name):
        return getattr(self._exact_live, name)

    @property
    def wrapped(self):
        """Return the `ExactLive` it stands in for."""
        return self._exact_live

    def cold(self) -> bool:
        """Return whether searches are skipped now: the kernels are not cached and a warm-up runs (one is
        started, and the notice logged, the first time), or Numba's cache cannot keep them (no warm-up
        then: the notice names the folder); False for good once they are cached, or when the last warm-up
        failed or none can start (the search then compiles here, as without a stand-in)."""
        if self._ready or search_kernels_cached(self._exact_live.game.code_dtype):
            self._ready = True
            return False
        if self._unkept():
            return True
        state, seconds = self._warm_up.state()
        if state == "failed":
            self._ready = True
            return False
        if state == "none" and not self._started:
            try:
                self._warm_up.start(*self._game)
            except OSError as err:
                log.debug("cannot start the warm-up (%s): the search compiles here", err)
                self._ready = True
                return False
            self._started = True
        if claim_notice():  # the process's one notice on compiling kernels (`solver.core.progress`)
            since = f", started {seconds:.0f} s ago" if state == "running" else ""
            log.warning("the exact search's kernels are being compiled in the background (about %d s, once after "
                        "an install or an upgrade%s); until they are ready, guesses off the tree come from the "
                        "greedy rule and their values are estimates (marked ≈)", WARM_UP_SECONDS, since)
        return True

    def _unkept(self) -> bool:
        """Return whether Numba's cache cannot keep the exact search's kernels (`kernel_cache.cache_problem`;
        the notice, naming it, is given the first time)."""
        if self._problem is None:
            # loaded already: `search_kernels_cached` read its cache
            from solver.core.search import kernel

            self._problem = cache_problem(kernel.search) or ""
        if self._problem and claim_notice():
            log.warning("%s: the exact search's kernels (about a minute to compile) cannot be kept for later "
                        "commands, so guesses off the tree come from the greedy rule and their values are "
                        "estimates (marked ≈); --exact compiles them for the command; set NUMBA_CACHE_DIR to a "
                        "writable folder", self._problem)
        return bool(self._problem)

    def state_key(self, positions, history) -> tuple:
        self.cold()  # the first use of a state off the tree: the notice comes before the greedy rule's work
        return self._exact_live.state_key(positions, history)

    def choose_checked(self, positions, history=(), budget: float = 1.0, *args, **kwargs):
        if self.cold():
            return None, True
        return self._exact_live.choose_checked(positions, history, budget, *args, **kwargs)

    def choose(self, positions, history=(), budget: float = 1.0, *args, **kwargs):
        return None if self.cold() else self._exact_live.choose(positions, history, budget, *args, **kwargs)

    def rate(self, positions, history, rows, budget: float = 1.0, *args, **kwargs) -> dict:
        return {} if self.cold() else self._exact_live.rate(positions, history, rows, budget, *args, **kwargs)

    def guess_totals(self, positions, history, rows, budget: float = 1.0, *args, **kwargs) -> dict:
        if self.cold():
            return {}
        return self._exact_live.guess_totals(positions, history, rows, budget, *args, **kwargs)


def main(argv: list[str]) -> int:
    """The warm-up process (``python -m solver.core.coldstart GAME VARIANT LOCK``): return its exit status;
    SIGTERM and SIGHUP end it as Ctrl-C does."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _interrupt)
    return WarmUp(Path(argv[2])).run(argv[0], argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
