"""The first run in odd homes and with broken kernel caches (issue 58, items 1, 2 and 5): a folder that cannot
be written and a Numba cache entry that cannot be read are named once and bypassed, and a warm-up that was
interrupted does not keep later commands waiting (`solver.core.coldstart`, `solver.core.kernel_cache`)."""
from __future__ import annotations

import inspect
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from solver.core import coldstart, kernel_cache, progress
from solver.core.coldstart import ColdStart, WarmUp
from solver.core.registry import get_game

ROOT = Path(__file__).resolve().parents[1]
HINT = ["hint", "mastermind", "1234=(1,1)"]  # off the tree: a state the live search plays
TINY = "from numba import njit\n\n\n@njit(cache=True)\ndef plus_one(x):\n    return x + 1\n"
RUN_TINY = "import solver.core.kernel_cache, tiny; print(tiny.plus_one(41))"


def run(code: str, env: dict, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run Python `code` in a process of its own (the checkout and `cwd` importable)."""
    env = dict(env, PYTHONPATH=os.pathsep.join([str(ROOT), str(cwd)]))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300, check=False)


def at_terminal(argv: list[str], env: dict, timeout: float = 120.0) -> tuple[int, str]:
    """Return (exit status, output) of one `deduce` process whose standard streams are a pseudo-terminal."""
    main, child = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "solver", *argv], stdin=child, stdout=child, stderr=child,
                               env=env, cwd=ROOT, close_fds=True)
    os.close(child)
    output, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            output += chunk
        elif process.poll() is not None:
            break
    else:
        process.kill()
    os.close(main)
    return process.wait(), output.decode(errors="replace")


def warnings_of(output: str, words: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("warning:") and words in line]


def stop_warm_up(lock_folder: Path, wait: float = 20.0) -> int | None:
    """Kill the warm-up process holding a lock in `lock_folder` (waiting for it to take it); return its pid."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for lock in lock_folder.glob("warm-up-*.lock"):
            words = lock.read_text().split()
            if len(words) == 2 and words[0].isdigit():
                os.kill(int(words[0]), signal.SIGKILL)
                return int(words[0])
        time.sleep(0.1)
    return None


@pytest.fixture
def told(monkeypatch):
    """The messages logged by `coldstart` and `kernel_cache`, in a process whose notices are not given yet."""
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    monkeypatch.setattr(kernel_cache, "_NAMED", set(), raising=False)
    messages = []
    for module in (coldstart, kernel_cache):
        monkeypatch.setattr(module.log, "warning", lambda text, *args: messages.append(text % args))
    return messages


@pytest.fixture
def odd_home(tmp_path, monkeypatch):
    """A user cache folder that cannot be made (beneath a file: refused to root too) and a temporary directory
    of the test's own; return that temporary directory."""
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file" / "cache"))
    monkeypatch.setenv("HOME", str(tmp_path / "file" / "home"))
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    return temp


class FakeExactLive:
    game = get_game("wordle")

    def __init__(self):
        self.calls = []

    def rate(self, positions, history, rows, budget=1.0, **kwargs):
        self.calls.append("rate")
        return {1: "rating"}


class FakeWarmUp(WarmUp):
    def __init__(self, path: Path):
        super().__init__(path)
        self.started = []

    def start(self, game_name: str, variant: str) -> None:
        self.started.append((game_name, variant))


# item 1: a user cache folder that cannot be written


def test_a_hint_at_a_terminal_in_a_home_that_cannot_be_made_answers_and_names_the_folder_once(tmp_path):
    (tmp_path / "file").write_text("")
    temp = tmp_path / "temp"
    temp.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), XDG_CACHE_HOME=str(tmp_path / "file" / "cache"),
               HOME=str(tmp_path / "file" / "home"), TMPDIR=str(temp))
    try:
        status, output = at_terminal(HINT, env)
    finally:
        pid = stop_warm_up(temp / f"deduce-{os.getuid()}")
    assert status == 0 and "possible answers" in output and "Traceback" not in output, output
    assert len(warnings_of(output, "file/cache/deduce cannot be written")) == 1, output
    assert "greedy rule" in output and pid is not None  # the background compile runs, its lock in TMPDIR


def test_the_warm_up_lock_falls_back_to_a_private_temporary_folder(odd_home, told):
    warm_up = WarmUp()
    assert warm_up.path == odd_home / f"deduce-{os.getuid()}" / coldstart.default_lock().name
    assert (warm_up.path.parent.stat().st_mode & 0o777) == 0o700
    assert warm_up.state() == ("none", 0.0)
    assert WarmUp().path == warm_up.path and len(told) == 1 and "file/cache/deduce" in told[0]


def test_no_folder_for_the_lock_at_all_means_the_search_compiles_here(odd_home, monkeypatch, told):
    (odd_home / f"deduce-{os.getuid()}").write_text("")  # the fallback cannot be made either
    monkeypatch.setattr(coldstart, "search_kernels_cached", lambda dtype: False)
    exact = FakeExactLive()
    assert ColdStart(exact, "wordle", "normal", WarmUp()).rate(None, (), [1]) == {1: "rating"}
    assert exact.calls == ["rate"] and len(told) == 1 and "neither" in told[0]


# item 5: a warm-up that cannot take its lock, or was interrupted


def test_a_lock_file_that_cannot_be_opened_is_bypassed_and_the_warm_up_runs(odd_home, tmp_path, monkeypatch, told):
    """A read-only <cache>/deduce (here: the lock a dangling link, refused to root too): the warm-up no
    longer dies at once on it, leaving every command with the greedy rule."""
    user = tmp_path / "user"
    monkeypatch.setenv("XDG_CACHE_HOME", str(user))
    lock = coldstart.default_lock()
    lock.parent.mkdir(parents=True)
    lock.symlink_to(tmp_path / "missing" / "lock")
    warm_up = WarmUp()
    assert warm_up.path.parent == odd_home / f"deduce-{os.getuid()}" and str(user / "deduce") in told[0]
    assert warm_up.run("mastermind", "default") == 0  # the suite's kernel cache is warm: loads in a second
    assert warm_up.path.read_text() == "" and warm_up.state() == ("none", 0.0)


def test_a_lock_left_by_an_interrupted_warm_up_starts_another(tmp_path, monkeypatch, told):
    monkeypatch.setattr(coldstart, "search_kernels_cached", lambda dtype: False)
    lock = tmp_path / "warm-up.lock"
    lock.write_text("failed KeyboardInterrupt: ")  # as `kill -INT` of a warm-up left it before
    assert WarmUp(lock).state() == ("none", 0.0)
    exact, warm_up = FakeExactLive(), FakeWarmUp(lock)
    assert ColdStart(exact, "wordle", "normal", warm_up).rate(None, (), [1]) == {}  # no foreground compile
    assert exact.calls == [] and warm_up.started == [("wordle", "normal")] and "background" in told[0]


def test_a_failed_warm_up_is_retried_after_a_while(tmp_path):
    lock = tmp_path / "warm-up.lock"
    lock.write_text("failed MemoryError: ")
    assert WarmUp(lock).state() == ("failed", 0.0)  # recent: the search compiles in the foreground
    old = time.time() - coldstart.RETRY_SECONDS - 1
    os.utime(lock, (old, old))
    assert WarmUp(lock).state() == ("none", 0.0)


def test_an_interrupted_warm_up_clears_its_lock(tmp_path, monkeypatch):
    class Interrupted:
        def __init__(self, game):
            pass

        def warm(self):
            raise KeyboardInterrupt

    monkeypatch.setattr(coldstart, "ExactLive", Interrupted)
    lock = tmp_path / "warm-up.lock"
    try:
        status = WarmUp(lock).run("mastermind", "default")
    except KeyboardInterrupt:  # caught here: pytest would end the session on it
        status = "raised"
    assert status == 130
    assert lock.read_text() == "" and WarmUp(lock).state() == ("none", 0.0)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_warm_up_process_stopped_by_a_signal_clears_its_lock(tmp_path, signum):
    lock = tmp_path / "warm-up.lock"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))  # cold: the warm-up compiles for a minute
    process = subprocess.Popen([sys.executable, "-m", "solver.core.coldstart", "mastermind", "default", str(lock)],
                               cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while not (lock.exists() and lock.read_text().startswith(str(process.pid))):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        process.send_signal(signum)  # at once: Python code runs there (a long LLVM pass would not see it until it ends)
        assert process.wait(timeout=120) == 130
    finally:
        process.kill()
    assert lock.read_text() == "" and WarmUp(lock).state() == ("none", 0.0)


# item 2, and a cache that cannot be written: Numba's cache named once and bypassed


def test_a_numba_cache_folder_that_cannot_be_written_at_all_is_bypassed(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY)
    (tmp_path / "file").write_text("")
    env = dict(os.environ, NUMBA_CACHE_LOCATOR_CLASSES="UserProvidedCacheLocator",  # no fallback in the tree
               NUMBA_CACHE_DIR=str(tmp_path / "file" / "numba"))
    done = run(RUN_TINY, env, tmp_path)
    assert done.returncode == 0 and done.stdout.split() == ["42"], done.stderr
    assert done.stderr.count("no kernel cache folder it can write") == 1, done.stderr


def test_without_a_writable_numba_cache_no_warm_up_is_started_in_vain(tmp_path):
    (tmp_path / "file").write_text("")
    env = dict(os.environ, NUMBA_CACHE_LOCATOR_CLASSES="UserProvidedCacheLocator",
               NUMBA_CACHE_DIR=str(tmp_path / "file" / "numba"))
    code = ("import logging; logging.basicConfig(format='%(message)s')\n"
            "from pathlib import Path\n"
            "from solver.core.coldstart import ColdStart, WarmUp\n"
            "from solver.core.registry import get_game\n"
            "from solver.core.search.live import ExactLive\n"
            f"lock = Path({str(tmp_path / 'warm-up.lock')!r})\n"
            "stand_in = ColdStart(ExactLive(get_game('mastermind')), 'mastermind', 'default', WarmUp(lock))\n"
            "print(stand_in.cold(), stand_in.cold(), lock.exists())")
    done = run(code, env)
    assert done.returncode == 0 and done.stdout.split() == ["True", "True", "False"], done.stderr
    assert done.stderr.count("greedy rule") == 1 and "NUMBA_CACHE_DIR" in done.stderr, done.stderr


@pytest.mark.parametrize("corrupt", ["overwritten nbc", "empty nbc", "truncated nbi", "overwritten nbi"])
def test_an_unreadable_cache_entry_is_named_once_removed_and_compiled_again(tmp_path, corrupt):
    (tmp_path / "tiny.py").write_text(TINY)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    assert run(RUN_TINY, env, tmp_path).stdout.split() == ["42"]  # fills the cache
    kind, suffix = corrupt.split()
    (entry,) = (tmp_path / "numba").rglob(f"tiny.plus_one-*.{suffix}")
    data = entry.read_bytes()
    entry.write_bytes({"overwritten": b"garbage\n", "empty": b"", "truncated": data[:len(data) // 2]}[kind])
    done = run(RUN_TINY, env, tmp_path)
    assert done.returncode == 0 and done.stdout.split() == ["42"], done.stderr
    assert done.stderr.count("cannot be used") == 1 and entry.name in done.stderr, done.stderr
    again = run(RUN_TINY, env, tmp_path)  # repaired: saved afresh
    assert again.returncode == 0 and again.stdout.split() == ["42"] and again.stderr == ""


def warm_copy(numba_cache: Path, *modules) -> dict[str, Path]:
    """Copy the suite's Numba cache of these modules' kernels into `numba_cache` (laid out as NUMBA_CACHE_DIR
    lays it out); return each module's folder there by its name."""
    from numba.core import caching, config

    folders = {}
    for module in modules:
        source = Path(inspect.getfile(module))
        here = (Path(config.CACHE_DIR) / caching.UserProvidedCacheLocator.get_suitable_cache_subpath(str(source))
                if config.CACHE_DIR else source.parent / "__pycache__")
        there = numba_cache / caching.UserProvidedCacheLocator.get_suitable_cache_subpath(str(source))
        there.mkdir(parents=True)
        for entry in here.glob(f"{source.stem}.*.nb[ic]"):
            shutil.copy2(entry, there)
        folders[module.__name__] = there
    return folders


def test_a_corrupt_search_kernel_counts_as_not_cached_and_is_removed(tmp_path):
    from solver.core.search import kernel

    assert kernel_cache.search_kernels_cached(np.dtype(np.uint8))  # the suite's cache is warm
    folder = warm_copy(tmp_path / "numba", kernel)[kernel.__name__]
    entries = sorted(folder.glob("kernel.search-*.nbc"))
    for entry in entries:
        entry.write_bytes(b"garbage\n")
    code = ("import numpy as np\nfrom solver.core.kernel_cache import search_kernels_cached\n"
            "print(search_kernels_cached(np.dtype(np.uint8)))")
    done = run(code, dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba")))
    assert done.returncode == 0 and done.stdout.split() == ["False"], done.stderr
    assert done.stderr.count("cannot be used") == 1, done.stderr
    (named,) = [entry for entry in entries if entry.name in done.stderr]
    assert not named.exists()  # removed: the background warm-up saves it afresh


def test_a_hint_with_corrupt_kernels_answers_and_repairs_them(tmp_path):
    """A game kernel (core_*) and one of the search's (search_*) overwritten: the command answers, naming
    the problem once, and the next one loads them again (a small pair: recompiled in seconds)."""
    from solver.core import scoring
    from solver.core.search import kernel

    folders = warm_copy(tmp_path / "numba", kernel, scoring)
    corrupt = [*folders[scoring.__name__].glob("scoring.rule_kernels.locals.table_kernel-*.nbc"),
               *folders[kernel.__name__].glob("kernel.class_counts-*.nbc")]
    assert len(corrupt) >= 2
    for entry in corrupt:
        entry.write_bytes(b"garbage\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), XDG_CACHE_HOME=str(tmp_path / "user"))
    command = [sys.executable, "-m", "solver", *HINT]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False)
    assert done.returncode == 0 and "proven optimal" in done.stdout, done.stderr
    assert len(warnings_of(done.stderr, "cannot be used")) == 1 and "Traceback" not in done.stderr, done.stderr
    again = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False)
    assert again.returncode == 0 and again.stdout == done.stdout and "cannot be used" not in again.stderr
