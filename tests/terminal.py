"""A fake colour terminal for the `wordle` program's terminal-mode tests (imported by their modules)."""
from __future__ import annotations

import io

import pytest
from rich.style import Style

from solver.wordle_program.program import run


class FakeTerminal(io.StringIO):
    """Standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def colour_terminal(monkeypatch):
    """A colour terminal, 80 columns wide; tests set NO_COLOR and COLUMNS themselves."""
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLUMNS", "80")
    for name in ("NO_COLOR", "FORCE_COLOR", "COLORTERM", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "LINES"):
        monkeypatch.delenv(name, raising=False)
    # rich keeps a parsed style's escape codes for the colour depth it was first drawn in (one process, one
    # terminal): styles drawn earlier in this process for another terminal are parsed afresh
    for cached in (Style.parse, Style._add, Style.combine, Style.chain, Style.normalize):
        getattr(cached, "cache_clear", lambda: None)()


def play_terminal(argv: list[str], stdin: str) -> str:
    """Return the output of a run in the fake terminal (asserting it succeeded, nothing on stderr)."""
    out, err = FakeTerminal(), io.StringIO()
    status = run(argv, io.StringIO(stdin), out, err)
    assert (status, err.getvalue()) == (0, ""), err.getvalue()
    return out.getvalue()
