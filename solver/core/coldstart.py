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
"""
from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

from platformdirs import user_cache_dir

from solver.core.kernel_cache import search_kernels_cached
from solver.core.progress import before_notice, claim_notice
from solver.core.registry import get_game
from solver.core.search.live import ExactLive

log = logging.getLogger(__name__)
WARM_UP_SECONDS = 60  # what the notice announces: about 40 s of one core measured on a quiet machine, more when busy
FAILED = "failed"  # the first word of a warm-up's lock file after it failed: later commands compile in place


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


class WarmUp:
    """The one warm-up process of this Python environment and Numba cache: a lock file in the user's
    cache folder, held (flock) while a warm-up runs; it holds "pid start-time" then, and
    "failed REASON" after a warm-up that failed."""

    def __init__(self, path: Path | None = None):
        self.path = path or default_lock()

    def state(self) -> tuple[str, float]:
        """Return ("running", seconds since it started), ("failed", 0.0) or ("none", 0.0)."""
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
                failed = handle.read().startswith(FAILED)
                return ("failed" if failed else "none"), 0.0
        except OSError:
            return "failed", 0.0  # no lock file can be kept here: no background work either

    def start(self, game_name: str, variant: str) -> None:
        """Start the warm-up of `game_name` `variant` in a detached process (it exits at once if another
        one holds the lock)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.Popen([sys.executable, "-m", "solver.core.coldstart", game_name, variant, str(self.path)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True)

    def run(self, game_name: str, variant: str) -> int:
        """Warm the kernels of `game_name` `variant` holding the lock (the warm-up process's body);
        return the exit status (0 also when another warm-up holds the lock)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a+") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return 0
            _rewrite(handle, f"{os.getpid()} {time.time():.3f}")
            try:
                ExactLive(get_game(game_name, variant)).warm()
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
        started, and the notice logged, the first time); False for good once they are cached, or when
        the last warm-up failed (the search then compiles here, as without a stand-in)."""
        if self._ready or search_kernels_cached(self._exact_live.game.code_dtype):
            self._ready = True
            return False
        state, seconds = self._warm_up.state()
        if state == "failed":
            self._ready = True
            return False
        if state == "none" and not self._started:
            self._warm_up.start(*self._game)
            self._started = True
        if claim_notice():  # the process's one notice on compiling kernels (`solver.core.progress`)
            since = f", started {seconds:.0f} s ago" if state == "running" else ""
            log.warning("the exact search's kernels are being compiled in the background (about %d s, once after "
                        "an install or an upgrade%s); until they are ready, guesses off the tree come from the "
                        "greedy rule and their values are estimates (marked ≈)", WARM_UP_SECONDS, since)
        return True

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


if __name__ == "__main__":
    sys.exit(WarmUp(Path(sys.argv[3])).run(sys.argv[1], sys.argv[2]))
