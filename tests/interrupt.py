"""Ctrl-C sent to a command running in a process of its own, for the tests of long runs."""
from __future__ import annotations

import signal
import subprocess
import time
from typing import Callable


def interrupt(args: list[str], ready: Callable[[subprocess.Popen], None], **popen) -> tuple[int, float, str, str]:
    """Start `args`, wait until `ready(process)` returns, send SIGINT; return (exit status, seconds from
    the signal to the exit, stdout, stderr). A process still running 60 s after the signal is killed."""
    runner = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)
    try:
        ready(runner)
        assert runner.poll() is None, runner.communicate()
        began = time.monotonic()
        runner.send_signal(signal.SIGINT)
        out, err = runner.communicate(timeout=60)
        return runner.returncode, time.monotonic() - began, out, err
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
