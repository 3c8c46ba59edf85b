"""The resident process (`solver.cli.resident`): a command it runs prints, fails and exits as the same command
run in place; it ends when idle or when its files change, ignores what is not a request, and Ctrl-C at the
caller ends the command. Each test starts a resident of its own in a private folder and ends it."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from solver.cli import resident
from solver.core import artifacts

DEDUCE = [sys.executable, "-c", "from solver.cli.resident import main; main()"]  # the console script's entry
START_SECONDS = 120  # a resident's warm-up: about 2 s of CPU measured, far more on a busy machine


def _env(run: Path, **extra: str) -> dict[str, str]:
    os.chmod(run, 0o700)
    env = {**os.environ, "DEDUCE_RESIDENT": "1", "XDG_RUNTIME_DIR": str(run), resident.IDLE_ENV: "120", **extra}
    env.pop("CI", None)
    return env


def _paths(env: dict[str, str]) -> dict[str, Path]:
    return resident._paths(resident.folder(env), resident.key(env))


def deduce(env: dict[str, str], *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*DEDUCE, *args], env=env, capture_output=True, text=True, timeout=300, **kwargs)


def _served(env: dict[str, str]) -> int:
    """Return how many commands the resident has run (its log's lines naming one)."""
    log = _paths(env)["log"]
    return sum(": process " in line for line in log.read_text().splitlines()) if log.exists() else 0


def _started(env: dict[str, str]) -> None:
    """Start the resident with a first command (run in place) and wait until it serves."""
    first = deduce(env, "hint", "wordle")
    assert first.returncode == 0, first.stderr
    sock = _paths(env)["sock"]
    deadline = time.monotonic() + START_SECONDS
    while not sock.exists():
        assert time.monotonic() < deadline, _paths(env)["log"].read_text()
        time.sleep(0.2)


def _pid(env: dict[str, str]) -> int | None:
    try:
        return int(_paths(env)["lock"].read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _ended(pid: int | None, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while pid is not None and time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return pid is None


def _short_folder():
    """A folder for a resident's socket: pytest's temporary paths can pass a Unix socket's length limit."""
    return tempfile.TemporaryDirectory(prefix="dr-", dir="/tmp")


@pytest.fixture
def run_folder():
    with _short_folder() as folder:
        yield Path(folder)


def _private_artifacts(folder: Path) -> Path:
    """A folder of links to the committed artifacts: a resident watches its artifacts' folder, and other tests
    write feedback tables into the checkout's (a new file there ends a resident as stale)."""
    folder.mkdir()
    for path in artifacts.search_dirs()[0].glob("*.parquet"):
        (folder / path.name).symlink_to(path)
    return folder


def _end(env: dict[str, str]) -> None:
    """End the resident of `env` (SIGTERM) unless it has ended already."""
    pid = _pid(env)
    if pid is not None and not _ended(pid, 0):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:  # it ended in between
            pass
        assert _ended(pid), "the resident did not end on SIGTERM"


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """The environment of a serving resident, shared by the module's tests (ended after them; idle for 10
    minutes at most: the module's tests can be far apart on a busy machine)."""
    files = _private_artifacts(tmp_path_factory.mktemp("resident") / "artifacts")
    with _short_folder() as folder:
        env = _env(Path(folder), DEDUCE_ARTIFACTS=str(files), **{resident.IDLE_ENV: "600"})
        _started(env)
        yield env
        _end(env)
        assert not _paths(env)["sock"].exists()


def test_only_the_reading_commands_go_to_a_resident_and_only_when_asked_or_at_a_terminal():
    on, off, auto = {resident.ENV: "1"}, {resident.ENV: "0"}, {}
    assert resident.wanted(["hint", "wordle"], on) and resident.wanted(["review", "wordle", "CRANE"], on)
    assert not resident.wanted(["solve", "wordle"], on) and not resident.wanted(["tables"], on)
    assert not resident.wanted([], on) and not resident.wanted(["hint", "wordle"], off)
    assert not resident.wanted(["hint", "wordle"], {**auto, "CI": "true"})
    at_terminal = all(os.isatty(fd) for fd in (0, 1, 2))
    assert resident.wanted(["hint", "wordle"], auto) == at_terminal  # pytest's captured streams: not a terminal


def test_a_command_in_the_resident_prints_fails_and_exits_as_in_place(started):
    commands = (
        ("hint", "wordle", "CRANE=RYRGR"),
        ("hint", "wordle", "--explain", "SLATE", "ADIEU=RRRRY"),  # off the ranking: the search's kernels run
        ("tree", "wordle", "--path", "ADIEU=RRRRY", "--depth", "1"),
        ("review", "wordle", "CRANE", "BURNT", "--answer", "BURNT"),
        ("hint", "wordle", "ZZZZZ=RRRRR"),  # a data error: status 1, one line
        ("hint", "wordle", "--top", "x"),  # a usage error: status 2
    )
    in_place = {**started, resident.ENV: "0"}
    for args in commands:
        before = _served(started)
        there, here = deduce(started, *args), deduce(in_place, *args)
        assert (there.returncode, there.stdout, there.stderr) == (here.returncode, here.stdout, here.stderr), args
        assert _served(started) == before + 1, args  # run by the resident, not in place
    assert deduce(started, "hint", "wordle", cwd="/").returncode == 0  # its own folder, any folder


def test_callers_that_send_no_request_leave_it_serving(started):
    before = _served(started)
    for junk in (b"", b"\x00\x00\x00\x05hello", b"not a request at all"):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as caller:
            caller.connect(str(_paths(started)["sock"]))
            caller.sendall(junk)
    done = deduce(started, "hint", "wordle", "CRANE=RYRGR")
    assert done.returncode == 0 and _served(started) == before + 1, done.stderr


def test_ctrl_c_at_the_caller_ends_the_command_with_status_130(started):
    # a proof that takes minutes (--exact: no budget), on a state far from the tree
    before = _served(started)
    caller = subprocess.Popen([*DEDUCE, "hint", "wordle", "--exact", "--explain", "FUZZY", "JAZZY=RRRRR"],
                              env=started, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _served(started) < before + 1:
        if time.monotonic() > deadline or caller.poll() is not None:
            caller.kill()  # run in place, the proof would take minutes
            pytest.fail(f"the resident did not take the command within 60 s: {caller.communicate()}")
        time.sleep(0.1)
    time.sleep(1.0)
    caller.send_signal(signal.SIGINT)
    out, err = caller.communicate(timeout=60)
    assert caller.returncode == 130, (out, err)
    assert "Traceback" not in err, err
    after = deduce(started, "hint", "wordle")  # and the resident serves on
    assert after.returncode == 0 and _served(started) == before + 2


def test_changed_files_end_the_resident_and_the_command_runs_in_place(tmp_path, run_folder):
    folder = _private_artifacts(tmp_path / "artifacts")
    env = _env(run_folder, DEDUCE_ARTIFACTS=str(folder))
    _started(env)
    pid = _pid(env)
    shutil.copy(folder / "tree-mastermind-default.parquet", folder / "tree-mastermind-copy.parquet")
    done = deduce(env, "hint", "wordle", "CRANE=RYRGR")
    assert done.returncode == 0 and done.stdout, done.stderr
    assert _served(env) == 0  # stale: not run by it
    assert _ended(pid), "a stale resident did not end"
    assert not _paths(env)["sock"].exists()


def test_an_idle_resident_ends(run_folder):
    env = _env(run_folder, **{resident.IDLE_ENV: "1"})
    _started(env)
    assert _ended(_pid(env)), "an idle resident did not end"
    assert not _paths(env)["sock"].exists()


def test_a_folder_too_deep_for_a_socket_runs_commands_in_place(tmp_path):
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    env = _env(deep)
    done = deduce(env, "hint", "wordle", "CRANE=RYRGR")
    assert done.returncode == 0 and done.stdout, done.stderr
    assert not (deep / "deduce").exists() or not list((deep / "deduce").iterdir())  # none started
