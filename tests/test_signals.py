"""SIGTERM's one handler (`solver.core.signals`), shared by `deduce` and `wordle` (issue 62, item 3)."""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest
import typer

from solver.cli import errors
from solver.core import signals
from solver.wordle_program import program


def test_both_faces_share_one_handler():
    assert errors.Terminated is program.Terminated is signals.Terminated
    assert errors.TERMINATED_EXIT == program.TERMINATED_EXIT == 128 + signal.SIGTERM


def test_sigterm_raises_within_the_block_and_the_handler_before_comes_back():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(signals.Terminated), signals.sigterm_raises():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # not reached: the handler raises at once
    assert signal.getsignal(signal.SIGTERM) is before


def test_the_command_line_exits_with_143():
    with pytest.raises(typer.Exit) as caught, errors.terminated_as_exit():
        raise signals.Terminated(signal.SIGTERM)
    assert caught.value.exit_code == 143


def test_outside_the_main_thread_nothing_changes():
    before, seen = signal.getsignal(signal.SIGTERM), []

    def other() -> None:
        seen.append(signals.raise_on_sigterm())
        with signals.sigterm_raises():
            seen.append(signal.getsignal(signal.SIGTERM))

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert seen == [False, before] and signal.getsignal(signal.SIGTERM) is before
