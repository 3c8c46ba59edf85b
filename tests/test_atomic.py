"""Output files (`solver.core.atomic`): what each kind of path becomes, what is refused and how it is
named (a full disk names the file and keeps the old one; a link another user planted in a shared folder is
not followed), and the leftovers of killed writers (`solver.core.atomic`, `pipeline.cleanup`)."""
from __future__ import annotations

import errno
import os
import pathlib
import stat
import subprocess
import sys
import time

import pyarrow as pa
import pytest

from pipeline import cleanup
from solver.core import artifacts, atomic
from solver.games import mastermind
from tests.helpers import NO_SPACE, dead_pid, folder_names, invoke


def test_regular_file_is_replaced_and_keeps_its_mode(tmp_path):
    target = tmp_path / "state.json"
    target.write_text("old")
    target.chmod(0o600)
    atomic.write_text(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_new_file_gets_the_usual_mode(tmp_path):
    mask = os.umask(0o022)
    try:
        atomic.write_text(tmp_path / "new.dot", "x")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.dot").stat().st_mode) == 0o644


def test_read_only_file_is_refused_and_untouched(tmp_path):
    target = tmp_path / "kept.json"
    target.write_text("old")
    target.chmod(0o444)
    for attempt in (lambda: atomic.check_writable(target), lambda: atomic.write_text(target, "new")):
        with pytest.raises(PermissionError, match="read-only") as caught:
            attempt()
        assert caught.value.filename == str(target)
    assert target.read_text() == "old" and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["kept.json"]


def test_missing_folder_is_refused_not_created(tmp_path):
    target = tmp_path / "out" / "tree.dot"
    for attempt in (lambda: atomic.check_writable(target), lambda: atomic.write_text(target, "x")):
        with pytest.raises(FileNotFoundError, match="does not exist") as caught:
            attempt()
        assert caught.value.filename == str(target)
    assert not (tmp_path / "out").exists()


def test_parents_are_created_on_request(tmp_path):
    target = tmp_path / "artifacts" / "sub" / "manifest.json"
    atomic.write_text(target, "{}", parents=True)
    assert target.read_text() == "{}"


def test_a_folder_or_a_socket_is_refused(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        atomic.write_text(folder, "x")
    assert caught.value.filename == str(folder) and folder.is_dir()
    if hasattr(os, "mkfifo"):
        import socket

        sock_path = tmp_path / "s"
        server = socket.socket(socket.AF_UNIX)
        try:
            server.bind(str(sock_path))
            with pytest.raises(OSError, match="not a regular file"):
                atomic.write_text(sock_path, "x")
            assert stat.S_ISSOCK(sock_path.lstat().st_mode)
        finally:
            server.close()


def test_symlink_is_followed_and_stays(tmp_path):
    real = tmp_path / "real.dot"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.dot"
    link.symlink_to(real.name)
    atomic.write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == "real.dot"
    assert real.read_text() == "new" and stat.S_IMODE(real.stat().st_mode) == 0o640
    dangling = tmp_path / "dangling.dot"
    dangling.symlink_to("created.dot")
    atomic.write_text(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "created.dot").read_text() == "made"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so the writer does not wait
    try:
        atomic.check_writable(fifo)
        atomic.write_text(fifo, "digraph {}\n")
        assert os.read(reader, 100) == b"digraph {}\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_character_device_is_accepted():
    if not os.path.exists(os.devnull) or not stat.S_ISCHR(os.stat(os.devnull).st_mode):
        pytest.skip("no character device /dev/null")
    atomic.check_writable(os.devnull)  # (writing it is left to the CLI test, not here)


def test_errors_never_name_the_temporary_file(tmp_path):
    target = tmp_path / "h.png"
    with pytest.raises(OSError) as caught:
        with atomic.replacing(target) as tmp:
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp))
    assert caught.value.filename == str(target) and ".tmp" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_temporary_name_carries_the_writer_pid(tmp_path):
    with atomic.replacing(tmp_path / "table-x.parquet") as tmp:
        match = atomic.TEMPORARY.fullmatch(tmp.name)
        assert tmp.parent == tmp_path and match is not None and match["pid"] == str(os.getpid())
        tmp.write_text("x")


# -- a full disk ---------------------------------------------------------------------------------
def test_a_full_disk_names_the_file_and_keeps_the_old_one(tmp_path, full_disk):
    target = tmp_path / "out.dot"
    target.write_text("old")
    with pytest.raises(OSError) as caught:
        atomic.write_text(target, "new content")
    assert caught.value.filename == str(target) and caught.value.errno == errno.ENOSPC
    assert target.read_text() == "old" and folder_names(tmp_path) == ["out.dot"]


def test_deduce_dot_on_a_full_disk_is_one_line_naming_the_file(tmp_path, full_disk):
    target = tmp_path / "tree.dot"
    target.write_text("old")
    result = invoke(*["tree", "mastermind", "--dot", str(target)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"error: {target}: {NO_SPACE}"
    assert target.read_text() == "old" and folder_names(tmp_path) == ["tree.dot"]


def _is_device(path: str) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except OSError:
        return False


@pytest.mark.skipif(not _is_device("/dev/full"), reason="no /dev/full device")
def test_a_device_that_is_full_is_named_too():
    # /dev/full is written through (a character device): its ENOSPC is the kernel's own
    result = invoke(*["tree", "mastermind", "--dot", "/dev/full"])
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
    assert path.read_bytes() == before and folder_names(tmp_path) == [path.name]


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
    result = invoke(*["tree", "mastermind", "--dot", str(planted)])
    assert result.exit_code == 1 and "belongs to another user" in result.stderr and "Traceback" not in result.output
    assert victim.read_text() == "mine\n"



# -- leftovers of killed builds -----------------------------------------------------------------
def test_stale_temporaries_are_removed_live_ones_kept(tmp_path):
    dead = tmp_path / f".table-a.parquet.{dead_pid()}.abcd1234.tmp"
    live = tmp_path / f".table-b.parquet.{os.getppid()}.abcd1234.tmp"  # a running writer
    old = tmp_path / ".manifest.json.k2j4_x9q.tmp"  # no pid: only its age counts
    fresh = tmp_path / ".manifest.json.zzzzzzzz.tmp"
    checkpoint = tmp_path / ".checkpoints" / "bulls-default-0123"
    checkpoint.mkdir(parents=True)
    dead_class = checkpoint / f".class-3.npz.{dead_pid()}.q1w2e3r4.tmp"
    kept = [tmp_path / "table-a.parquet", tmp_path / "notes.tmp", live, fresh, checkpoint / "class-3.npz"]
    for path in [dead, old, dead_class, *kept]:
        path.write_text("x")
    hours_ago = time.time() - 2 * atomic.STALE_SECONDS
    os.utime(old, (hours_ago, hours_ago))
    removed = cleanup.remove_stale_build_temporaries(tmp_path)
    assert sorted(removed) == sorted([dead, old, dead_class])
    assert all(p.exists() for p in kept) and not any(p.exists() for p in removed)
    os.utime(live, (hours_ago, hours_ago))  # a writer silent for two hours is not writing any more
    assert cleanup.remove_stale_build_temporaries(tmp_path) == [live]


def test_stale_temporaries_of_a_file_are_removed_live_ones_kept(tmp_path):
    target = tmp_path / "state.json"
    target.write_text("{}")
    dead = tmp_path / f".state.json.{dead_pid()}.abcd_123.tmp"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".state.json.{sleeper.pid}.efgh_456.tmp"
        mine = tmp_path / f".state.json.{os.getpid()}.ijkl_789.tmp"
        reused = tmp_path / f".state.json.{sleeper.pid}.mnop_000.tmp"  # written before that process began
        forgotten = tmp_path / f".state.json.{sleeper.pid}.qrst_111.tmp"
        other = tmp_path / f".other.json.{dead_pid()}.uvwx_222.tmp"
        unlike = tmp_path / ".state.json.notours.tmp"
        for path in (dead, live, mine, reused, forgotten, other, unlike):
            path.write_text("partial")
        os.utime(reused, (time.time() - 600, time.time() - 600))
        os.utime(forgotten, (time.time() - 2 * atomic.STALE_SECONDS,) * 2)
        removed = atomic.remove_stale_temporaries(target)
        assert sorted(removed) == sorted([dead, reused, forgotten])
        assert folder_names(tmp_path) == sorted(p.name for p in (target, live, mine, other, unlike))
    finally:
        sleeper.kill()
        sleeper.wait()


def test_missing_artifacts_folder_has_nothing_to_clean(tmp_path):
    assert cleanup.remove_stale_build_temporaries(tmp_path / "absent") == []


WORKERS = """
import os, sys, time
from joblib import Parallel, delayed

def task(folder):
    import pipeline  # noqa: F401  (what unpickling a pipeline task does in the worker)
    open(os.path.join(folder, str(os.getpid())), "w").close()
    time.sleep(120)

Parallel(n_jobs=2)(delayed(task)(sys.argv[1]) for _ in range(2))
"""


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_end_with_their_killed_parent(tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", WORKERS, str(tmp_path)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.2)
            workers = [int(p.name) for p in tmp_path.iterdir()]
        assert len(workers) == 2, "the workers did not start"
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_running(pid) for pid in workers)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in workers:  # only the workers this test started
            if _running(pid):
                os.kill(pid, 9)


_WRITER = """
import sys
from pathlib import Path
from solver.core import artifacts
from solver.core.registry import get_game

game = get_game("mastermind")
table, meta = artifacts.read(artifacts.TREE, game)
extra = {k: meta[k] for k in ("targets", "total_guesses", "max_guesses", "strategy")}
for i in range(15):
    artifacts.write(artifacts.TREE, game, table, extra, Path(sys.argv[1]))
    if i == 0 and len(sys.argv) > 2:
        Path(sys.argv[2]).touch()  # tells the test this build is under way (one write done, 14 to go)
"""


def test_concurrent_and_killed_builds_never_leave_a_broken_artifact(tmp_path):
    from solver.core import artifacts
    from solver.core.registry import get_game

    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path)]) for _ in range(2)]
    under_way = tmp_path.parent / f"{tmp_path.name}-victim-wrote"
    victim = subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path), str(under_way)])
    deadline = time.monotonic() + 120  # generous: only a victim that never writes fails here
    while not under_way.exists():
        assert victim.poll() is None, "the victim ended before its first write"
        assert time.monotonic() < deadline, "the victim wrote nothing within 120 s"
        time.sleep(0.05)
    victim.kill()  # killed mid-build: at worst a temporary file is left, never a broken artifact
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    victim.wait(timeout=30)
    table, meta = artifacts.read(artifacts.TREE, get_game("mastermind"), tmp_path)  # checksum and validation pass
    assert table.num_rows > 0 and meta["total_guesses"] == "5625"
