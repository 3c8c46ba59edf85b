"""A kernel's first call that takes long (Numba compiling it after an install) is explained once."""
from __future__ import annotations

import logging
import threading

from solver.core import progress


class Dispatcher:
    def __init__(self, signatures):
        self.signatures = signatures


class Terminal:
    def isatty(self) -> bool:
        return True


def test_a_slow_first_call_is_explained_once(monkeypatch, caplog):
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    monkeypatch.setattr(progress.sys, "stderr", Terminal())
    caplog.set_level(logging.WARNING, logger="solver.core.progress")
    told = threading.Event()
    monkeypatch.setattr(progress.log, "warning", lambda *args: (caplog.records.append(args), told.set()))
    with progress.first_call_notice(Dispatcher([]), "the kernels", after=0.0):
        assert told.wait(60), "no notice while the first call ran"  # the call outlasts the notice's delay
    with progress.first_call_notice(Dispatcher([]), "the kernels", after=0.0):
        pass
    assert sum(1 for r in caplog.records if isinstance(r, tuple)) == 1  # once a process


def test_a_loaded_kernel_or_a_script_gets_no_notice(monkeypatch):
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    calls = []
    monkeypatch.setattr(progress.log, "warning", lambda *args: calls.append(args))
    monkeypatch.setattr(progress.sys, "stderr", Terminal())
    with progress.first_call_notice(Dispatcher([("int64",)]), "the kernels", after=0.0):
        pass
    monkeypatch.undo()
    monkeypatch.setattr(progress, "_TOLD", threading.Event())
    monkeypatch.setattr(progress.log, "warning", lambda *args: calls.append(args))
    with progress.first_call_notice(Dispatcher([]), "the kernels", after=0.0):  # stderr captured: no terminal
        threading.Event().wait(0.2)
    assert calls == []
