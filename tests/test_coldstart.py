"""The first commands after an install: the exact search compiled in the background, the greedy rule meanwhile
(`solver.core.coldstart`); and the first run in odd homes and with broken kernel caches: a folder that cannot
be written and a Numba cache entry that cannot be read are named once and bypassed, and a warm-up that was
interrupted does not keep later commands waiting (`solver.core.kernel_cache`)."""
from __future__ import annotations

import fcntl
import inspect
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
from pathlib import Path

import numpy as np
import pytest

from solver.core import coldstart, kernel_cache, progress
from solver.core.coldstart import ColdStart, WarmUp
from solver.core.registry import get_game
from pipeline.benchmarks.startup import read_terminal

ROOT = Path(__file__).resolve().parents[1]


class FakeExactLive:
    memo = 7
    game = get_game("wordle")

    def __init__(self):
        self.calls = []

    def state_key(self, positions, history):
        return ("key",)

    def choose_checked(self, positions, history=(), budget=1.0, **kwargs):
        self.calls.append("choose_checked")
        return "choice", False

    def rate(self, positions, history, rows, budget=1.0, **kwargs):
        self.calls.append("rate")
        return {1: "rating"}


class FakeWarmUp(WarmUp):
    def __init__(self, path: Path):
        super().__init__(path)
        self.started = []

    def start(self, game_name: str, variant: str) -> None:
        self.started.append((game_name, variant))


@pytest.fixture
def told(monkeypatch):
    """The messages logged by `coldstart` and `kernel_cache`, in a process whose notices are not given yet."""
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    monkeypatch.setattr(kernel_cache, "_NAMED", set(), raising=False)
    messages = []
    for module in (coldstart, kernel_cache):
        monkeypatch.setattr(module.log, "warning", lambda text, *args: messages.append(text % args))
    return messages


def test_cold_kernels_start_one_warm_up_and_searches_find_nothing(tmp_path, monkeypatch, told):
    asked = []
    monkeypatch.setattr(coldstart, "search_kernels_cached", lambda dtype: asked.append(dtype) or False)
    exact, warm_up = FakeExactLive(), FakeWarmUp(tmp_path / "warm-up.lock")
    stand_in = ColdStart(exact, "wordle", "normal", warm_up)
    assert stand_in.state_key(None, ()) == ("key",)
    assert stand_in.choose_checked(None, (), 1.0) == (None, True)  # cut short: the runtime keeps nothing
    assert stand_in.rate(None, (), [1, 2]) == {}
    assert stand_in.memo == 7 and exact.calls == []  # the rest is the wrapped search's
    assert warm_up.started == [("wordle", "normal")]  # one warm-up, however often asked
    assert set(asked) == {exact.game.code_dtype}  # the kernels of the game's table type (uint8 or uint16)
    assert len(told) == 1 and "greedy rule" in told[0] and "background" in told[0]
    assert not progress.tell_compiling(progress.GAME_KERNELS)  # the greedy rule's kernels: no second notice
    monkeypatch.setattr(coldstart, "search_kernels_cached", lambda dtype: True)  # the warm-up filled the cache
    assert stand_in.choose_checked(None, (), 1.0) == ("choice", False)
    assert stand_in.rate(None, (), [1]) == {1: "rating"}


def test_kernels_compiled_before_the_first_state_off_the_tree_leave_the_notice_to_the_background(
        tmp_path, monkeypatch, told):
    """A ranking compiles the game's kernels before the solver's guess: the one notice is still the
    background warm-up's when the exact search's kernels are missing, else the foreground's."""
    monkeypatch.setattr(coldstart, "search_kernels_cached", lambda dtype: False)
    warm_up = FakeWarmUp(tmp_path / "warm-up.lock")
    stand_in = ColdStart(FakeExactLive(), "wordle", "normal", warm_up)
    assert not progress.tell_compiling(progress.GAME_KERNELS)
    assert len(told) == 1 and "background" in told[0] and warm_up.started == [("wordle", "normal")]
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    monkeypatch.setattr(coldstart, "search_kernels_cached", lambda dtype: True)
    foreground = []
    monkeypatch.setattr(progress.log, "warning", lambda text, *args: foreground.append(text % args))
    assert progress.tell_compiling(progress.GAME_KERNELS) and len(told) == 1
    assert foreground[0].startswith("compiling the game's kernels") and not stand_in.cold()


def test_a_running_warm_up_is_not_started_again_and_a_failed_one_is_not_waited_for(tmp_path, monkeypatch, told):
    monkeypatch.setattr(coldstart, "search_kernels_cached", lambda dtype: False)
    lock = tmp_path / "warm-up.lock"
    now = float(int(time.time()))  # frozen (whole seconds: written as text and read back exactly)
    monkeypatch.setattr(coldstart, "time", types.SimpleNamespace(time=lambda: now))  # the warm-up's clock
    with open(lock, "a+") as handle:  # another process's warm-up, two seconds in
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        handle.write(f"{os.getpid()} {now - 2:.3f}")
        handle.flush()
        warm_up = FakeWarmUp(lock)
        assert warm_up.state() == ("running", 2.0)
        assert ColdStart(FakeExactLive(), "wordle", "normal", warm_up).rate(None, (), [1]) == {}
        assert warm_up.started == [] and "started 2 s ago" in told[0]
    lock.write_text("failed RuntimeError: no compiler")
    exact = FakeExactLive()
    assert WarmUp(lock).state() == ("failed", 0.0)
    assert ColdStart(exact, "wordle", "normal", FakeWarmUp(lock)).rate(None, (), [1]) == {1: "rating"}  # compiles here


def test_no_lock_file_yet_means_no_warm_up(tmp_path):
    assert WarmUp(tmp_path / "none" / "warm-up.lock").state() == ("none", 0.0)


def test_the_cache_check_reads_numbas_index(tmp_path):
    empty = subprocess.run([sys.executable, "-c", "from solver.core.coldstart import search_kernels_cached as c; "
                            "print(c())"], capture_output=True, text=True, cwd=ROOT, check=True,
                           env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))).stdout.split()
    assert empty == ["False"]
    from solver.core.search import kernel  # the suite's own cache: loaded (or compiled) by a search here
    from solver.core.search.live import ExactLive

    ExactLive(get_game("mastermind")).warm()
    assert kernel.search.signatures and coldstart.search_kernels_cached()


@pytest.mark.slow
def test_the_first_off_book_hint_after_an_install_answers_from_the_greedy_rule(tmp_path):
    from pipeline.benchmarks.startup import FRESH_COMMAND, at_terminal, warm_up_process

    numba_cache, user_cache = tmp_path / "numba", tmp_path / "user"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_cache), XDG_CACHE_HOME=str(user_cache))
    noticed, _, output = at_terminal(FRESH_COMMAND, env)
    pid = warm_up_process(user_cache)
    if pid is not None:
        os.kill(pid, 9)
    assert noticed is not None and "compiled in the background" in output
    assert "greedy rule" in output and "a quick estimate" in output and "proven optimal" not in output
    assert pid is not None, "no warm-up process was started"


# -- odd homes, broken kernel caches, interrupted warm-ups ------------------------------------------
HINT = ["hint", "mastermind", "1234=(1,1)"]  # off the tree: a state the live search plays


TINY = "from numba import njit\n\n\n@njit(cache=True)\ndef plus_one(x):\n    return x + 1\n"


RUN_TINY = "import solver.core.kernel_cache, tiny; print(tiny.plus_one(41))"


def run_code(code: str, env: dict, cwd: Path = ROOT) -> subprocess.CompletedProcess:
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
    output = read_terminal(main, process, timeout)
    return process.wait(), output.decode(errors="replace")


def warning_lines(output: str, words: str) -> list[str]:
    """Return the lines of `output` that are warnings holding `words`."""
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
    assert len(warning_lines(output, "file/cache/deduce cannot be written")) == 1, output
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


def test_a_numba_cache_folder_that_cannot_be_written_at_all_is_bypassed(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY)
    (tmp_path / "file").write_text("")
    env = dict(os.environ, NUMBA_CACHE_LOCATOR_CLASSES="UserProvidedCacheLocator",  # no fallback in the tree
               NUMBA_CACHE_DIR=str(tmp_path / "file" / "numba"))
    done = run_code(RUN_TINY, env, tmp_path)
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
    done = run_code(code, env)
    assert done.returncode == 0 and done.stdout.split() == ["True", "True", "False"], done.stderr
    assert done.stderr.count("greedy rule") == 1 and "NUMBA_CACHE_DIR" in done.stderr, done.stderr


@pytest.mark.parametrize("corrupt", ["overwritten nbc", "empty nbc", "truncated nbi", "overwritten nbi"])
def test_an_unreadable_cache_entry_is_named_once_removed_and_compiled_again(tmp_path, corrupt):
    (tmp_path / "tiny.py").write_text(TINY)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    assert run_code(RUN_TINY, env, tmp_path).stdout.split() == ["42"]  # fills the cache
    kind, suffix = corrupt.split()
    (entry,) = (tmp_path / "numba").rglob(f"tiny.plus_one-*.{suffix}")
    data = entry.read_bytes()
    entry.write_bytes({"overwritten": b"garbage\n", "empty": b"", "truncated": data[:len(data) // 2]}[kind])
    done = run_code(RUN_TINY, env, tmp_path)
    assert done.returncode == 0 and done.stdout.split() == ["42"], done.stderr
    assert done.stderr.count("cannot be used") == 1 and entry.name in done.stderr, done.stderr
    again = run_code(RUN_TINY, env, tmp_path)  # repaired: saved afresh
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
        there.mkdir(parents=True, exist_ok=True)  # one folder for the modules of one source folder
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
    done = run_code(code, dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba")))
    assert done.returncode == 0 and done.stdout.split() == ["False"], done.stderr
    assert done.stderr.count("cannot be used") == 1, done.stderr
    (named,) = [entry for entry in entries if entry.name in done.stderr]
    assert not named.exists()  # removed: the background warm-up saves it afresh


def test_a_hint_with_corrupt_kernels_answers_and_repairs_them(tmp_path):
    """A game kernel (core_*) and one of the search's (search_*) overwritten: the command answers, naming
    the problem once, and the next one loads them again (a small pair: recompiled in seconds)."""
    from solver.core import scoring
    from solver.core.search import kernel, shortlist

    folders = warm_copy(tmp_path / "numba", kernel, scoring, shortlist)  # every kernel the hint runs
    corrupt = [*folders[scoring.__name__].glob("scoring.rule_kernels.locals.table_kernel-*.nbc"),
               *folders[kernel.__name__].glob("kernel.class_counts-*.nbc")]
    assert len(corrupt) >= 2
    for entry in corrupt:
        entry.write_bytes(b"garbage\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), XDG_CACHE_HOME=str(tmp_path / "user"))
    command = [sys.executable, "-m", "solver", *HINT]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False)
    assert done.returncode == 0 and "proven optimal" in done.stdout, done.stderr
    assert len(warning_lines(done.stderr, "cannot be used")) == 1 and "Traceback" not in done.stderr, done.stderr
    again = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False)
    assert again.returncode == 0 and again.stdout == done.stdout and "cannot be used" not in again.stderr
