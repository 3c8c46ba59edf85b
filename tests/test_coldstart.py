"""The first commands after an install: the exact search compiled in the background, the greedy rule meanwhile
(`solver.core.coldstart`)."""
from __future__ import annotations

import fcntl
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from solver.core import coldstart, progress
from solver.core.coldstart import ColdStart, WarmUp
from solver.core.registry import get_game

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
    monkeypatch.setattr(progress, "_TOLD", threading.Event())  # the process's one notice, not given yet
    messages = []
    monkeypatch.setattr(coldstart.log, "warning", lambda text, *args: messages.append(text % args))
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
    with open(lock, "a+") as handle:  # another process's warm-up, two seconds in
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        handle.write(f"{os.getpid()} {time.time() - 2:.3f}")
        handle.flush()
        warm_up = FakeWarmUp(lock)
        state, seconds = warm_up.state()
        assert state == "running" and 1.5 < seconds < 60
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
