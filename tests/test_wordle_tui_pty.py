"""`wordle --tui` in a real pseudo-terminal (issue 61): the program draws full screen, takes keys, and gives
the terminal back (the alternate screen left, the cursor shown) at the end and on Ctrl-C, its one-line
error after that; without a terminal it refuses in one line."""
from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

pytest.importorskip("textual")

LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


class Terminal:
    """The `wordle` program on a pseudo-terminal of 80x24."""

    def __init__(self, *argv: str):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen([sys.executable, "-m", "solver.wordle_program.program", *argv], stdin=slave,
                                        stdout=slave, stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.output = b""

    def __enter__(self) -> "Terminal":
        return self

    def __exit__(self, *exc) -> None:
        if self.process.poll() is None:  # a test that failed midway leaves no program behind
            self.process.kill()

    def read_until(self, pattern: bytes, timeout: float = 120.0) -> None:
        """Read the screen until its text (escape sequences removed) holds `pattern`."""
        deadline = time.monotonic() + timeout
        while pattern not in ANSI.sub(b"", self.output):
            assert time.monotonic() < deadline, f"{pattern!r} never shown: {ANSI.sub(b'', self.output)[-400:]!r}"
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:  # the program ended
                    break

    def type(self, keys: bytes) -> None:
        for key in keys:  # a key at a time, as typed
            os.write(self.master, bytes([key]))
            time.sleep(0.02)

    def wait(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:
                    break
        status = self.process.wait(max(1.0, deadline - time.monotonic()))
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                chunk = os.read(self.master, 65536)
                if not chunk:
                    break
                self.output += chunk
        except OSError:
            pass
        os.close(self.master)
        return status


def test_a_game_in_a_real_terminal_then_the_terminal_given_back():
    with Terminal("--tui", "-w", "sloth") as terminal:
        terminal.read_until(b"Guess 1/6")
        terminal.type(b"salet\r")
        terminal.read_until(b"Guess 2/6")
        terminal.type(b"sloth\r")
        terminal.read_until(b"Correct! SLOTH in 2 guesses.")
        terminal.read_until(b"Any key: leave")
        terminal.type(b"x")
        assert terminal.wait() == 0
    tail = terminal.output[terminal.output.rindex(LEAVE_ALTERNATE_SCREEN):]
    assert b"\x1b[?25h" in tail  # the cursor shown again
    assert b"Traceback" not in terminal.output


def test_ctrl_c_gives_the_terminal_back_then_one_line():
    with Terminal("--tui", "-w", "sloth") as terminal:
        terminal.read_until(b"Guess 1/6")
        terminal.type(b"\x03")
        assert terminal.wait() == 130
    after = terminal.output[terminal.output.rindex(LEAVE_ALTERNATE_SCREEN):]
    assert b"error: interrupted" in after and b"Traceback" not in terminal.output


def test_leaving_mid_game_names_the_answer():
    with Terminal("--tui", "-w", "sloth") as terminal:
        terminal.read_until(b"Guess 1/6")
        terminal.type(b"\x11")  # Ctrl-Q
        assert terminal.wait() == 0
    after = terminal.output[terminal.output.rindex(LEAVE_ALTERNATE_SCREEN):]
    assert b"Bye: the answer was SLOTH." in after


def test_without_a_terminal_it_refuses_in_one_line():
    done = subprocess.run([sys.executable, "-m", "solver.wordle_program.program", "--tui", "-w", "sloth"],
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr == b"error: --tui needs a terminal: standard input is not one\n"


def test_sigterm_gives_the_terminal_back_then_ends_as_without_tui():
    with Terminal("--tui", "-w", "sloth") as terminal:
        terminal.read_until(b"Guess 1/6")
        terminal.process.terminate()
        assert terminal.wait() == 143
    after = terminal.output[terminal.output.rindex(LEAVE_ALTERNATE_SCREEN):]
    assert b"error: terminated" in after and b"Traceback" not in terminal.output
