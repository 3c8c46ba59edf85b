"""A command that must compile Numba kernels says so at once, in one line on stderr, with a terminal or
without (`solver.core.progress.first_call_notice`); nothing is compiled here: the cache checks are
monkeypatched, or read Numba's cache index without running a kernel."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import namedtuple
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from numba import types as nb
from typer.testing import CliRunner

from solver.cli.main import app
from solver.core import kernel_cache, progress, scoring
from solver.core.registry import get_game
from solver.core.search import kernel

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def told(monkeypatch):
    """A process that has given no notice yet; return the notices logged from now on."""
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    messages = []
    monkeypatch.setattr(progress.log, "warning", lambda text, *args: messages.append(text % args))
    return messages


WorkspaceType = namedtuple("WorkspaceType", "types")  # hashable, as Numba's types (its cache index keys)


class Dispatcher:
    def __init__(self, signatures):
        self.signatures = signatures


def test_a_call_that_must_compile_is_told_at_once_and_once(monkeypatch, told):
    monkeypatch.setattr(progress, "must_compile", lambda dispatcher, args: True)
    progress.first_call_notice(Dispatcher([]), progress.SEARCH_KERNELS, ())  # before the call: no timer
    assert told == ["compiling the exact search's kernels for this machine, once after an install or an upgrade "
                    "(about a minute); later commands load them at once"]
    progress.first_call_notice(Dispatcher([]), progress.GAME_KERNELS, (), lambda: ", then more")
    assert not progress.tell_compiling(progress.BOARDS_KERNELS)
    assert len(told) == 1  # once a process, whatever is compiled next


def test_a_call_that_loads_gives_no_notice(monkeypatch, told):
    monkeypatch.setattr(progress, "must_compile", lambda dispatcher, args: False)
    progress.first_call_notice(Dispatcher([]), progress.GAME_KERNELS, (), lambda: pytest.fail("asked for nothing"))
    assert told == [] and not progress._TOLD.is_set()
    monkeypatch.undo()
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    assert not kernel_cache.must_compile(Dispatcher([("int64",)]), (1,))  # loaded in this process already
    assert not kernel_cache.must_compile(len, (1,))  # not a Numba dispatcher: cannot tell, so no notice


def test_a_script_gets_one_line_on_stderr(monkeypatch):
    """Through the command line with no terminal (CliRunner's stderr): one `warning: compiling ...` line."""
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    monkeypatch.setattr(progress, "must_compile", lambda dispatcher, args: True)  # every kernel "compiles"
    result = CliRunner().invoke(app, ["hint", "mastermind", "1234=0,0", "--live", "greedy"])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.splitlines()
    [line] = [line for line in lines if "compil" in line]
    assert line == lines[0] and line.startswith("warning: compiling the game's kernels for this machine, once after")


def test_the_game_kernels_notice_names_the_search_when_it_is_not_compiled_either(monkeypatch, told):
    monkeypatch.setattr(progress, "must_compile", lambda dispatcher, args: True)
    monkeypatch.setattr(scoring, "search_kernels_cached", lambda dtype: False)
    game = get_game("mastermind")
    scoring.feedback_table(game, [0], game.target_index[:2])
    assert told == ["compiling the game's kernels for this machine, once after an install or an upgrade (seconds, "
                    "then the exact search's if it runs, about a minute); later commands load them at once"]


def test_the_cache_checks_read_numbas_index(tmp_path):
    """A fresh cache folder holds nothing; the suite's cache (conftest.py warms it) holds Wordle's table kernel."""
    code = ("import numpy as np; from solver.core import kernel_cache as c, scoring; "
            "from solver.core.registry import get_game; "
            "g = get_game('wordle'); k = scoring.rule_kernels(g.rule)[0]; r = g.rows[[0]]; "
            "print(c.must_compile(k, (r, r, np.empty((1, 1), g.code_dtype))), "
            "c.search_kernels_cached(np.uint8), c.search_kernels_cached(np.uint16))")
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                           env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))).stdout.split()
    assert fresh == ["True", "False", "False"]
    game = get_game("wordle")
    table_kernel = scoring.rule_kernels.__wrapped__(game.rule)[0]  # a new dispatcher: nothing loaded in it yet
    rows = game.rows[[0]]  # writable, as the kernel's calls pass them
    assert not table_kernel.signatures
    assert not kernel_cache.must_compile(table_kernel, (rows, rows, np.empty((1, 1), game.code_dtype)))
    assert kernel_cache.must_compile(table_kernel,
                                     (rows, rows, np.empty((1, 1), np.float32)))  # never compiled for that
    assert not table_kernel.signatures  # checked, not compiled


def test_the_search_check_tells_the_table_types_apart(monkeypatch):
    """Loaded for 8-bit tables only: 16-bit ones (cards n3, n4) must still be compiled."""
    workspace = WorkspaceType((nb.Array(nb.uint8, 2, "C", readonly=True),))  # the type of a workspace's fields
    empty = SimpleNamespace(_index_key=lambda sig, codegen: (sig, "machine", "source"),
                            _cache_file=SimpleNamespace(_load_index=dict))
    fake = SimpleNamespace(signatures=[(workspace,)], _cache=empty, targetctx=SimpleNamespace(codegen=lambda: None))
    monkeypatch.setattr(kernel, "search", fake)
    assert kernel_cache.search_kernels_cached(np.uint8) and kernel_cache.search_kernels_cached()
    assert not kernel_cache.search_kernels_cached(np.uint16)
    fake.signatures = []
    fake._cache._cache_file._load_index = lambda: {((workspace,), "machine", "source"): "file",
                                                   ((workspace,), "another machine", "source"): "file"}
    assert kernel_cache.search_kernels_cached(np.dtype("uint8")) and not kernel_cache.search_kernels_cached(np.uint16)
