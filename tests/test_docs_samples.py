"""The documentation's figures hold: each sample output of docs/pages/cli.md is what its command prints
now, and the README and pages state no test counts or command timings that nothing measures (those
live on the Benchmarks page, with the command that measures them).

A sample output is a fenced block without a language. Its command is the one a line right after it
names, "(`deduce ...`.)", else the first command of the `sh` block before it. A line "..." in a sample
stands for any lines of the output; a sample may start and end anywhere in the output; durations
("0.37 s") are compared as "N s".
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "pages"
CLI_PAGE = PAGES / "cli.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
NAMED = re.compile(r"\A\s*\(`(deduce [^`]+)`\.\)")
DURATION = re.compile(r"\b\d+(\.\d+)? s\b")


def samples(text: str) -> list[tuple[str, str]]:
    """Return (command, sample output) of each sample output block of a page's Markdown."""
    found, command = [], None
    for block in BLOCK.finditer(text):
        language, body = block.groups()
        if language == "sh":
            lines = [line.split("#")[0].strip() for line in body.splitlines()]
            command = next((line for line in lines if line), None)
        elif not language:
            named = NAMED.match(text[block.end():])
            found.append((named[1] if named else command, body))
    return found


def _lines(text: str) -> list[str]:
    return [DURATION.sub("N s", line.rstrip()) for line in text.splitlines()]


def matches(sample: str, output: str) -> bool:
    """Return whether the sample's runs of lines between "..." lines occur in the output, in order."""
    out, at = _lines(output), 0
    for run in re.split(r"(?m)^\.\.\.$", sample):
        run_lines = _lines(run.strip("\n"))
        if not run_lines:
            continue
        start = next((i for i in range(at, len(out) - len(run_lines) + 1) if out[i:i + len(run_lines)] == run_lines),
                     None)
        if start is None:
            return False
        at = start + len(run_lines)
    return True


def run_deduce(command: str) -> str:
    """Return what the installed `deduce` prints on standard output for `command` ("deduce ...")."""
    args = shlex.split(command)
    assert args[0] == "deduce", command
    script = Path(sys.executable).parent / "deduce"
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    result = subprocess.run([str(script), *args[1:]], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    assert result.returncode == 0, f"{command}: status {result.returncode}, stderr {result.stderr}"
    return result.stdout


CLI_SAMPLES = samples(CLI_PAGE.read_text(encoding="utf-8"))


def test_the_cli_page_samples_are_found():
    commands = [command for command, _ in CLI_SAMPLES]
    assert len(commands) >= 4 and all(command and command.startswith("deduce ") for command in commands), commands


@pytest.mark.parametrize("command, sample", CLI_SAMPLES, ids=[command for command, _ in CLI_SAMPLES])
def test_a_cli_sample_is_what_its_command_prints(command, sample):
    output = run_deduce(command)
    assert matches(sample, output), f"docs/pages/cli.md's sample of `{command}` differs from its output:\n{output}"


def test_the_sample_matcher():
    page = "```sh\ndeduce a 1   # note\ndeduce b\n```\n\n```\nx\n```\n\n```\ny\n```\n(`deduce c`.)\n```python\nz\n```\n"
    assert samples(page) == [("deduce a 1", "x\n"), ("deduce c", "y\n")]
    output = "head\nmean 4.3 (wall time 0.04 s)\nrow 1\nrow 2\nlast\n"
    assert matches("mean 4.3 (wall time 0.37 s)\nrow 1\n...\nlast\n", output)
    assert not matches("row 1\nlast\n", output)  # not contiguous without "..."
    assert not matches("row 2\n...\nrow 1\n", output)  # out of order
    assert not matches("worst 2\n", "worst -\n")


# figures that no test or benchmark produces: test counts, and seconds outside the Benchmarks page and code
TEST_COUNT = re.compile(r"\b\d{3,} (fast |slow )?tests\b")


@pytest.mark.parametrize("path", [ROOT / "README.md", *sorted(PAGES.glob("*.md"))], ids=lambda p: p.name)
def test_no_test_counts(path):
    assert not TEST_COUNT.findall(path.read_text(encoding="utf-8")), path.name


def test_the_readme_states_no_timings():
    prose = BLOCK.sub("", (ROOT / "README.md").read_text(encoding="utf-8"))
    found = [match[0] for match in re.finditer(r"\b\d+(\.\d+)?(-\d+(\.\d+)?)? (s|ms|seconds)\b", prose)]
    assert not found, f"README.md states timings {found}: state them on docs/pages/benchmarks.md with the command"
