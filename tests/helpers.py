"""Helpers the test modules share: the command line in process, one-line errors, the `wordle` program in
test mode, a free loopback port, a process id no process has, logged warnings, terminal colours."""
from __future__ import annotations

import errno
import io
import os
import re
import socket
import subprocess
import sys

COMPILE_NOTICE = "warning: compiling "  # the one notice of a command that must compile kernels first
NO_SPACE = os.strerror(errno.ENOSPC)  # the message of a full disk
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # a colour escape (SGR)


def invoke(*args: str, input: str | None = None):
    """Return the result of `deduce ARGS` run in this process (typer's CliRunner)."""
    from typer.testing import CliRunner

    from solver.cli.main import app

    return CliRunner().invoke(app, list(args), input=input)


def ok(*args: str, input: str | None = None) -> str:
    """Return the standard output of `deduce ARGS`, asserting it succeeded."""
    result = invoke(*args, input=input)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def one_line_error(stderr: str, words: str = "") -> str:
    """Return the message of the one error line on `stderr` ("error: MESSAGE"), asserting there is exactly
    one line (besides the notice that kernels are compiled, which a cold kernel cache adds) and that it
    holds `words`."""
    lines = [line for line in stderr.strip().splitlines() if not line.startswith(COMPILE_NOTICE)]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr[:2000]
    assert words in lines[0], lines[0]
    return lines[0].removeprefix("error: ")


def assert_error(result, words: str, status: int = 1) -> str:
    """Return the message of a `deduce` run (`invoke`) that failed with `status` (1 data, 2 usage), one
    line on stderr holding `words`, and no traceback."""
    assert result.exit_code == status, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    return one_line_error(result.stderr, words)


def assert_json_error(response, status: int, field) -> str:
    """Return the message of a one-line JSON error of `status` naming `field`, with no internals."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"field", "message"}, body
    assert body["error"]["field"] == field, body
    message = body["error"]["message"]
    assert message and "\n" not in message
    for leak in ("Traceback", "File \"", ".py", "/work", "site-packages", "object at 0x", "wordle-normal", "cards-n2"):
        assert leak not in message, message
    return message


def play_lines(argv: list[str], stdin: str = "", interactive: bool = False) -> tuple[int, str, str]:
    """Return (exit status, stdout, stderr) of the `wordle` program run in this process on `stdin`."""
    from solver.wordle_program.program import run

    out, err = io.StringIO(), io.StringIO()
    status = run(argv, io.StringIO(stdin), out, err, interactive=interactive)
    return status, out.getvalue(), err.getvalue()


def held_pool_app(monkeypatch, patience: float):
    """Return (app, release, started): a web app with one live worker and no queue, whose off-tree Mastermind
    /api/next computation holds the worker (`started` set) until `release` is set (at most `patience` s)."""
    import threading

    from solver.web import api, service
    from solver.web.app import create_app

    monkeypatch.setenv("DEDUCE_WEB_LIVE_WORKERS", "1")
    monkeypatch.setenv("DEDUCE_WEB_LIVE_QUEUE", "0")
    app = create_app()
    real, release, started = service.next_guess, threading.Event(), threading.Event()

    def held(key, steps, top, shown, *budget):
        if key[0] == "mastermind":
            started.set()
            release.wait(patience)
        return real(key, steps, top, shown, *budget)

    monkeypatch.setattr(service, "next_guess", held)
    api.answers._items.clear()
    return app, release, started


def free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port of `host` that nothing listens on (the system's choice, released at once)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def dead_pid() -> int:
    """Return the id of a process that has ended (a child, waited for)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def logged_warnings(caplog) -> list[str]:
    """Return the messages of the records of WARNING or above that `caplog` holds."""
    import logging

    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def plain(text: str) -> str:
    """Return `text` without its colour escapes."""
    return ANSI.sub("", text)


def keys(**states: str) -> str:
    """Return the 26-letter keyboard line with the given letters' states, X elsewhere."""
    return "".join(states.get(chr(65 + i), "X") for i in range(26))


def folder_names(folder) -> list[str]:
    """Return the names of the files in `folder`, sorted."""
    return sorted(p.name for p in folder.iterdir())
