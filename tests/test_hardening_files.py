"""File hardening (issue 22, items 13 to 16): a full disk names the file written (the old one stays
whole), SIGTERM during a `wordle -S` save leaves no temporary file and the next start removes those a
killed run left, the state file is never written larger than the program reads back, and a state
file holding a lone surrogate is a one-line data error."""
from __future__ import annotations

import errno
import io
import json
import os
import pathlib
import signal
import stat
import subprocess
import sys
import textwrap
import time

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from solver.cli.main import app
from solver.core import artifacts, atomic
from solver.games import mastermind
from solver.wordle_program import records
from solver.wordle_program.app import run
from solver.wordle_program.records import load_state

runner = CliRunner()
NO_SPACE = os.strerror(errno.ENOSPC)


def play(argv: list[str], stdin: str = "crane\n") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(argv, io.StringIO(stdin), out, err, interactive=False)
    return status, out.getvalue(), err.getvalue()


def names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def full_disk(monkeypatch):
    """Writes of temporary files fail as on a full disk: part of the data written, then ENOSPC (the
    error names no file, as the operating system's does not)."""
    original = pathlib.Path.write_text

    def write_text(self, data, *args, **kwargs):
        if self.name.endswith(".tmp"):
            original(self, data[: len(data) // 2], *args, **kwargs)
            raise OSError(errno.ENOSPC, NO_SPACE)
        return original(self, data, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_text", write_text)


# ----------------------------------------------------------------------------- item 13: a full disk

def test_a_full_disk_names_the_file_and_keeps_the_old_one(tmp_path, full_disk):
    target = tmp_path / "out.dot"
    target.write_text("old")
    with pytest.raises(OSError) as caught:
        atomic.write_text(target, "new content")
    assert caught.value.filename == str(target) and caught.value.errno == errno.ENOSPC
    assert target.read_text() == "old" and names(tmp_path) == ["out.dot"]


def test_deduce_dot_on_a_full_disk_is_one_line_naming_the_file(tmp_path, full_disk):
    target = tmp_path / "tree.dot"
    target.write_text("old")
    result = runner.invoke(app, ["tree", "mastermind", "--dot", str(target)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"error: {target}: {NO_SPACE}"
    assert target.read_text() == "old" and names(tmp_path) == ["tree.dot"]


def _is_device(path: str) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except OSError:
        return False


@pytest.mark.skipif(not _is_device("/dev/full"), reason="no /dev/full device")
def test_a_device_that_is_full_is_named_too():
    # /dev/full is written through (a character device): its ENOSPC is the kernel's own
    result = runner.invoke(app, ["tree", "mastermind", "--dot", "/dev/full"])
    assert result.exit_code == 1 and result.stderr.strip() == f"error: /dev/full: {NO_SPACE}"


def test_an_artifact_on_a_full_disk_names_the_file(tmp_path, monkeypatch):
    """pyarrow's error names no file and has no strerror of its own (deduce tables, the ranking file)."""
    def write_table(table, where, **kwargs):
        pathlib.Path(where).write_bytes(b"PAR1 partial")
        raise OSError(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] No space left on device")

    game = mastermind.game()
    path = artifacts.write("tree", game, pa.table({"a": [1, 2]}), {}, folder=tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(artifacts.pq, "write_table", write_table)
    with pytest.raises(OSError) as caught:
        artifacts.write("tree", game, pa.table({"a": [3, 4]}), {}, folder=tmp_path)
    assert caught.value.filename == str(path) and "No space left on device" in caught.value.strerror
    assert path.read_bytes() == before and names(tmp_path) == [path.name]


def test_the_state_file_on_a_full_disk_is_named(tmp_path, full_disk):
    state = tmp_path / "state.json"
    state.write_text('{"total_rounds":0,"games":[]}')
    status, _, err = play(["-w", "crane", "-S", str(state)])
    assert status == 1 and err.strip() == f"error: cannot write state file {state}: {NO_SPACE}"
    assert state.read_text() == '{"total_rounds":0,"games":[]}' and names(tmp_path) == ["state.json"]


# ----------------------------------------------------------------------------- item 14: SIGTERM, leftovers

def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_stale_temporaries_of_a_file_are_removed_live_ones_kept(tmp_path):
    target = tmp_path / "state.json"
    target.write_text("{}")
    dead = tmp_path / f".state.json.{_dead_pid()}.abcd_123.tmp"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".state.json.{sleeper.pid}.efgh_456.tmp"
        mine = tmp_path / f".state.json.{os.getpid()}.ijkl_789.tmp"
        reused = tmp_path / f".state.json.{sleeper.pid}.mnop_000.tmp"  # written before that process began
        forgotten = tmp_path / f".state.json.{sleeper.pid}.qrst_111.tmp"
        other = tmp_path / f".other.json.{_dead_pid()}.uvwx_222.tmp"
        unlike = tmp_path / ".state.json.notours.tmp"
        for path in (dead, live, mine, reused, forgotten, other, unlike):
            path.write_text("partial")
        os.utime(reused, (time.time() - 600, time.time() - 600))
        os.utime(forgotten, (time.time() - 2 * atomic.STALE_SECONDS,) * 2)
        removed = atomic.remove_stale_temporaries(target)
        assert sorted(removed) == sorted([dead, reused, forgotten])
        assert names(tmp_path) == sorted(p.name for p in (target, live, mine, other, unlike))
    finally:
        sleeper.kill()
        sleeper.wait()


def test_wordle_removes_what_a_killed_run_left_when_it_starts(tmp_path):
    state = tmp_path / "state.json"
    state.write_text('{"total_rounds":0,"games":[]}')
    leftover = tmp_path / f".state.json.{_dead_pid()}.abcd_123.tmp"
    leftover.write_text("x" * 1000)
    play(["-w", "crane", "-S", str(state)], stdin="")  # no game played
    assert not leftover.exists() and names(tmp_path) == ["state.json"]


SAVE_BLOCKED = """
import pathlib, sys
from solver.wordle_program import app

fifo = sys.argv[1]
original = pathlib.Path.write_text

def write_text(self, data, *args, **kwargs):  # the save: half written, then a slow disk (a FIFO nobody opens)
    if self.name.endswith(".tmp"):
        original(self, data[: len(data) // 2], *args, **kwargs)
        print("saving", self, file=sys.stderr, flush=True)
        open(fifo).read()
    return original(self, data, *args, **kwargs)

pathlib.Path.write_text = write_text
sys.argv = ["wordle", "-w", "crane", "-S", sys.argv[2]]
app.main()
"""


def test_sigterm_during_a_save_leaves_the_old_state_and_no_temporary(tmp_path):
    state = tmp_path / "state.json"
    old = '{"total_rounds":1,"games":[{"answer":"SLATE","guesses":["SLATE"]}]}'
    state.write_text(old)
    fifo = tmp_path.parent / f"{tmp_path.name}.fifo"
    os.mkfifo(fifo)
    try:
        program = subprocess.Popen([sys.executable, "-c", textwrap.dedent(SAVE_BLOCKED), str(fifo), str(state)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        program.stdin.write("crane\n")
        program.stdin.close()
        line = program.stderr.readline()  # the save has begun: the temporary file is there
        assert line.startswith("saving "), line + program.stderr.read()
        temporary = pathlib.Path(line.split(" ", 1)[1].strip())
        assert temporary.exists() and temporary.parent == tmp_path
        program.send_signal(signal.SIGTERM)
        rest = program.stderr.read()
        assert program.wait(timeout=60) == 128 + signal.SIGTERM
        assert rest.strip() == "error: terminated"
        assert state.read_text() == old and names(tmp_path) == ["state.json"]  # no temporary, no lock file
    finally:
        fifo.unlink()


# ----------------------------------------------------------------------------- item 15: the state file's cap

def test_the_state_file_is_never_written_larger_than_it_is_read(tmp_path, monkeypatch):
    state = tmp_path / "state.json"
    status, _, _ = play(["-w", "crane", "-S", str(state)])
    assert status == 0
    one_game = len(state.read_bytes())
    monkeypatch.setattr(records, "STATE_LIMIT", one_game + 10)  # room for the file, not for another game
    before = state.read_text()
    status, _, err = play(["-w", "crane", "-S", str(state)])
    assert status == 1 and len(err.splitlines()) == 1
    assert f"state file {state} would be" in err and f"more than the {one_game + 10} bytes a state file may be" in err
    assert state.read_text() == before and names(tmp_path) == ["state.json"]
    assert load_state(state).total_rounds == 1  # what is there can still be read


# ----------------------------------------------------------------------------- item 16: lone surrogates

@pytest.mark.parametrize("game, key", [
    ('{"answer":"CRANE","guesses":["\\ud800","CRANE"]}', "guesses"),
    ('{"answer":"\\udfff","guesses":["CRANE"]}', "answer"),
    ('{"answers":["CRANE","\\uDBFF"],"guesses":["CRANE"]}', "answers"),
])
def test_a_lone_surrogate_in_the_state_file_is_a_one_line_data_error(tmp_path, game, key):
    state = tmp_path / "state.json"
    state.write_text(f'{{"total_rounds":1,"games":[{game}]}}')
    done = subprocess.run([sys.executable, "-m", "solver.wordle_program.app", "-w", "crane", "-t", "-S", str(state)],
                          input="crane\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f'error: state file {state}: game 1: "{key}" holds')
    assert "internal error" not in done.stderr


def test_a_surrogate_pair_is_text():
    text = json.dumps({"games": [{"answer": "CRANE", "guesses": ["\U0001f600", "CRANE"]}]})  # "\ud83d\ude00"
    assert "\\ud83d" in text
    assert records.parse_state(text).games[0]["guesses"][0] == "\U0001f600"


@pytest.mark.skipif(os.geteuid() != 0, reason="planting a link owned by another user needs root (os.lchown)")
def test_a_link_planted_by_another_user_in_a_sticky_folder_is_not_followed(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # sticky and world-writable, as /tmp
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    planted, dangling, own = shared / "tree.dot", shared / "state.json", shared / "mine.dot"
    planted.symlink_to(victim)
    dangling.symlink_to(tmp_path / "created-by-us.json")
    for link in (planted, dangling):
        os.lchown(link, 65534, 65534)  # nobody's link
    own.symlink_to(tmp_path / "own-target.dot")  # our own link: followed as before
    for link in (planted, dangling):
        with pytest.raises(PermissionError, match="belongs to another user"):
            atomic.write_text(link, "new\n")
    assert victim.read_text() == "mine\n" and not (tmp_path / "created-by-us.json").exists()
    atomic.write_text(own, "ours\n")
    assert (tmp_path / "own-target.dot").read_text() == "ours\n"
    result = CliRunner().invoke(app, ["tree", "mastermind", "--dot", str(planted)])
    assert result.exit_code == 1 and "belongs to another user" in result.stderr and "Traceback" not in result.output
    assert victim.read_text() == "mine\n"
