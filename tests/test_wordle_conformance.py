"""Run the `wordle` program on file-based cases, as the specification's course tests did.

Two suites share one harness:

* ``<repo>/../shared/conformance/wordle``: the specification's 18 cases, the course's suite (skipped
  when it is absent, the reason saying what they need and where; failed instead when the environment
  variable CI is `true`: `tests.conftest.shared_folder`);
* ``tests/data/wordle``: the project's own cases in the same format (see its README.md), plus an
  optional ``NAME.err``: text the single line on standard error must contain.

A case runs in a scratch folder holding ``tests/cases`` (the case files) and ``tests/data`` (their
word lists). The conformance cases run the installed `wordle` console script (from the virtualenv
running pytest) with standard output a pipe, so it uses its plain test mode; the own cases call
`solver.wordle_program.program.run` in-process with the same arguments (fast; the process-level behaviour is
covered in test_wordle_app.py).
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from solver.wordle_program.program import run
from tests.conftest import SHARED, shared_folder

CONFORMANCE = SHARED / "conformance" / "wordle"
OWN = Path(__file__).resolve().parent / "data" / "wordle"
EXPECTED_CONFORMANCE_CASES = 18
# what the conformance tests need, as their skip reason says it
SUITE = ("the course's conformance suite of the wordle program: 18 cases NAME.args, .in, .ans, "
         ".before.json, .after.json and their word lists in data/")


def wordle_command() -> list[str]:
    """Return the installed console script: the one beside this interpreter, else on PATH."""
    script = Path(sys.executable).parent / "wordle"
    if script.is_file():
        return [str(script)]
    found = shutil.which("wordle")
    if found is None:
        pytest.fail("the `wordle` console script is not installed: run `pip install -e . --no-deps`")
    return [found]


def case_names(folder: Path) -> list[str]:
    return sorted(path.name.removesuffix(".args") for path in folder.glob("*.args"))


Runner = Callable[[list[str], bytes, Path], tuple[int, str, str]]  # (args, stdin, cwd) -> status, out, err


def run_installed(args: list[str], stdin: bytes, cwd: Path) -> tuple[int, str, str]:
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    result = subprocess.run(wordle_command() + args, cwd=cwd, input=stdin, capture_output=True, timeout=60, env=env)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def run_in_process(args: list[str], stdin: bytes, cwd: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        status = run(args, io.StringIO(stdin.decode()), out, err, interactive=False)
    finally:
        os.chdir(old)
    return status, out.getvalue(), err.getvalue()


def run_case(folder: Path, data: Path, name: str, tmp_path: Path, runner: Runner = run_installed) -> None:
    """Run case `name` of `folder` (word lists in `data`) and assert the outcome it expects."""
    work = tmp_path / "work"
    (work / "tests").mkdir(parents=True)
    (work / "tests" / "cases").symlink_to(folder, target_is_directory=True)
    (work / "tests" / "data").symlink_to(data, target_is_directory=True)
    case = folder / name
    args = [line for line in case.with_suffix(".args").read_text().splitlines() if line.strip()]
    stdin = case.with_suffix(".in").read_bytes() if case.with_suffix(".in").exists() else b""
    before, after = Path(f"{case}.before.json"), Path(f"{case}.after.json")
    scratch = tmp_path / "state.json"
    if before.exists():
        shutil.copyfile(before, scratch)
    if before.exists() or after.exists():
        args += ["--state", str(scratch)]

    status, stdout, stderr = runner(args, stdin, work)
    expected = case.with_suffix(".ans").read_text() if case.with_suffix(".ans").exists() else ""
    where = f"case {name}: status {status}, stderr {stderr!r}"

    if expected.strip():
        assert status == 0, where
        assert stdout.strip() == expected.strip(), where
    else:
        assert status != 0, where
        assert len(stderr.splitlines()) == 1 and "Traceback" not in stderr, where
        if before.exists():  # a failed run leaves the state file untouched
            assert scratch.read_bytes() == before.read_bytes(), where
    err = case.with_suffix(".err")
    if err.exists():
        assert err.read_text().strip() in stderr, where
    if after.exists():
        assert json.loads(scratch.read_text()) == json.loads(after.read_text()), where


def _conformance_params() -> list:
    """The conformance cases' names; one placeholder when the folder is missing, whose test then
    skips or fails (`shared_folder`) instead of the suite vanishing from the run."""
    if not CONFORMANCE.is_dir():
        return [pytest.param(None, id="folder-missing")]
    return case_names(CONFORMANCE)


@pytest.mark.parametrize("name", _conformance_params())
def test_conformance_case(name: str | None, tmp_path: Path) -> None:
    folder = shared_folder("conformance", "wordle", what=SUITE)
    run_case(folder, folder / "data", name, tmp_path)


def test_conformance_suite_is_complete() -> None:
    assert len(case_names(shared_folder("conformance", "wordle", what=SUITE))) == EXPECTED_CONFORMANCE_CASES


@pytest.mark.parametrize("name", case_names(OWN))
def test_own_case(name: str, tmp_path: Path) -> None:
    run_case(OWN, OWN / "data", name, tmp_path, run_in_process)


@pytest.mark.parametrize("ci, outcome", [("", pytest.skip.Exception), ("false", pytest.skip.Exception),
                                         ("true", pytest.fail.Exception)])
def test_a_missing_shared_folder_skips_naming_it_and_fails_in_ci(monkeypatch, tmp_path, ci, outcome):
    from tests import conftest

    monkeypatch.setattr(conftest, "SHARED", tmp_path / "shared")
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match=re.escape(str(tmp_path / "shared" / "conformance" / "wordle"))):
        conftest.shared_folder("conformance", "wordle")


def test_the_skip_reason_says_what_the_conformance_tests_need(monkeypatch, tmp_path):
    from tests import conftest

    monkeypatch.setattr(conftest, "SHARED", tmp_path / "shared")
    monkeypatch.setenv("CI", "")
    for test in (lambda: test_conformance_case("case", tmp_path), test_conformance_suite_is_complete):
        with pytest.raises(pytest.skip.Exception) as info:
            test()
        reason = str(info.value)
        assert reason.startswith("needs ../shared/conformance/wordle (the course's conformance suite of the wordle")
        assert "beside the checkout" in reason and str(tmp_path / "shared" / "conformance" / "wordle") in reason
