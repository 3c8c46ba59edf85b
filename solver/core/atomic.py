"""Writing output files safely: every file a command or the pipeline writes goes through here.

What an output path may be, and what happens to it:

* a regular file, or none yet: the content is written to a temporary file beside it,
  ``.<name>.<pid>.<random>.tmp``, then renamed over it, so an interrupted run leaves the old file
  whole (a killed process may leave the temporary file: readers ignore it, the pipeline removes
  stale ones of its artifacts folder (`remove_stale_in_folder`), and `remove_stale_temporaries` those of
  one file, which the `wordle` program calls for its state file when it starts). An existing file keeps
  its permission bits (and its owner where we may set it); a new one gets 0666 minus the umask. A read-only file (no
  write permission for us, or no write bit at all) is refused, not replaced, as editors do.
* a symbolic link is followed, as editors do: its target is replaced (or created), the link stays;
  except a link in a sticky world-writable folder that belongs neither to us nor to the folder's owner
  (one another user planted in /tmp), refused as Linux's ``fs.protected_symlinks`` refuses it.
* a character device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is written through:
  opened and written in place, no temporary file, no rename (a FIFO waits for a reader).
* anything else (a folder, a block device, a socket) is refused.
* the folder must exist: it is never created, except for the pipeline's artifacts, whose writer
  asks for it (``parents=True``).

Errors are OSError naming the path as the caller gave it (never the temporary file) with a short
reason, which `solver.cli.main.domain_errors` prints as ``error: PATH: reason``; so does a write that
fails without naming a file (a full disk, ENOSPC), and the old file stays whole. `check_writable` makes
the same checks without writing anything: commands call it before the work whose result they save.
"""
from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator


@dataclass(frozen=True)
class _Plan:
    """How to write a path: in place (device, FIFO) or by renaming a temporary file over `target`."""

    through: bool
    target: Path  # the file to replace (a symbolic link resolved), or the path itself
    mode: int | None = None  # permission bits of the file replaced
    owner: tuple[int, int] | None = None


def _check_folder(folder: Path, path: Path, parents: bool) -> None:
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        if parents:
            return
        raise FileNotFoundError(errno.ENOENT, f"folder {folder} does not exist (it is not created)",
                                str(path)) from None
    except NotADirectoryError:
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder", str(path)) from None
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder", str(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"folder {folder} is not writable", str(path))


def _check_links(path: Path) -> None:
    """Refuse, as Linux's ``fs.protected_symlinks`` does for open(), to follow a symbolic link that sits
    in a sticky world-writable folder (/tmp) and belongs neither to us nor to the folder's owner: another
    user may have planted it to make us write where they cannot. The code follows links itself (to
    write beside their target and rename), so the kernel's protection would not apply. PermissionError
    naming `path`; each link of a chain is checked."""
    current = Path(os.path.abspath(path))
    for _ in range(40):  # the kernel's limit of links followed
        try:
            link = os.lstat(current)
        except OSError:
            return
        if not stat.S_ISLNK(link.st_mode):
            return
        try:
            folder = os.stat(current.parent)
        except OSError:
            return
        sticky_shared = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
        if sticky_shared and link.st_uid not in (os.geteuid(), folder.st_uid):
            raise PermissionError(errno.EACCES, "a link in a shared sticky folder that belongs to another user "
                                  "(not followed)", str(path))
        current = Path(os.path.abspath(current.parent / os.readlink(current)))


def _plan(path: Path, parents: bool) -> _Plan:
    """Check `path` as an output and return how to write it; OSError naming `path` if refused."""
    _check_links(path)
    try:
        info = os.stat(path)  # follows symbolic links
    except (FileNotFoundError, NotADirectoryError):
        info = None
    except OSError as err:  # a loop of links, a folder we may not enter...
        raise type(err)(err.errno, err.strerror, str(path)) from None
    if info is None:
        target = Path(os.path.realpath(path)) if os.path.islink(path) else path  # a dangling link
        _check_folder(target.parent, path, parents)
        return _Plan(False, target)
    if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
        if not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return _Plan(True, path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file, character device or FIFO (not replaced)", str(path))
    if not os.access(path, os.W_OK) or not info.st_mode & 0o222:
        raise PermissionError(errno.EACCES, "the file is read-only (not replaced)", str(path))
    target = Path(os.path.realpath(path))
    _check_folder(target.parent, path, False)
    return _Plan(False, target, stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid))


def _name_the_path(err: OSError, tmp: str | None, path: Path) -> None:
    """Make an error about the temporary file name the caller's path instead; and an error that names
    no file (a write failing: a full disk, ENOSPC; a quota; an I/O error) name the path written."""
    if tmp is not None and tmp in (str(err.filename), str(err.filename2)):
        err.filename, err.filename2 = str(path), None
    elif err.filename is None:
        if err.strerror is None:  # e.g. pyarrow's OSError(message): its text is the reason
            err.strerror = str(err) or type(err).__name__
        err.filename = str(path)
    if tmp is not None:
        err.args = tuple(a.replace(tmp, str(path)) if isinstance(a, str) else a for a in err.args)


def check_writable(path: str | Path, parents: bool = False) -> None:
    """Raise the OSError `replacing(path)` would raise before writing; write nothing.

    Commands call it before the work whose result goes to `path`.
    """
    _plan(Path(path), parents)


@contextmanager
def replacing(path: str | Path, parents: bool = False) -> Iterator[Path]:
    """Yield the path to write the new content to; on success it becomes `path`'s content.

    For a regular file (or none yet) that is a temporary file beside the target, renamed over it
    when the block ends; if the block raises (or the process dies) the old file is untouched and
    the temporary file removed (or, after a crash, left as ``.<name>.<pid>.*.tmp``, which readers
    ignore). A character device or a FIFO is yielded itself (written in place). `parents`: create
    a missing folder (the pipeline's artifacts only). See the module docstring for what is refused.
    """
    path = Path(path)
    plan = _plan(path, parents)
    if plan.through:
        try:
            yield path
        except OSError as err:
            _name_the_path(err, None, path)
            raise
        return
    if parents:
        plan.target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{plan.target.name}.{os.getpid()}.", suffix=".tmp", dir=plan.target.parent)
    except OSError as err:  # it names the temporary file it tried
        raise type(err)(err.errno, err.strerror, str(path)) from None
    os.close(fd)
    try:
        yield Path(tmp)
        if plan.mode is None:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)  # mkstemp creates 0600; give a new file the usual mode
        else:
            os.chmod(tmp, plan.mode)
            if plan.owner is not None and plan.owner != (os.getuid(), os.getgid()):
                try:
                    os.chown(tmp, *plan.owner)
                except OSError:
                    pass  # only root may give a file away: it becomes ours, as with editors
        os.replace(tmp, plan.target)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            _name_the_path(err, tmp, path)
        raise


@contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold an exclusive lock for `path` while the block runs (`fcntl.flock` on a file ``.<name>.lock``
    beside it, symlinks followed): writers that re-read, change and replace `path` inside the block
    never lose each other's changes. The holder removes the lock file before releasing it, and a
    waiter that then holds a removed file's lock tries again, so none is left behind. OSError if the
    lock file cannot be created (a missing or read-only folder)."""
    target = Path(os.path.realpath(path))
    lock = target.parent / f".{target.name}.lock"
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            current = os.stat(lock).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:  # removed by the holder we waited for
            current = False
        if current:
            break
        os.close(fd)
    try:
        yield
    finally:
        os.unlink(lock)
        os.close(fd)  # releases the lock


STALE_SECONDS = 3600  # a temporary file untouched this long is left over, whoever wrote it
# ".<name>.<pid>.<random>.tmp" (`replacing`), or ".<name>.<random>.tmp" as written before the pid was added
TEMPORARY = re.compile(r"\.(?P<name>.+?)(?:\.(?P<pid>\d+))?\.[A-Za-z0-9_]{8}\.tmp")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # someone else's process; or no such pid
        return True
    return True


def _started(pid: int) -> float | None:
    """Return when process `pid` started (seconds since the epoch, to a second), or None if unknown
    (no /proc: not Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        with open("/proc/stat") as lines:
            boot = next(int(line.split()[1]) for line in lines if line.startswith("btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, starttime, in clock ticks
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def _is_stale(pid: int | None, written: float, now: float, max_age: float) -> bool:
    """Whether a temporary file written at `written` (seconds since the epoch) by process `pid` (None:
    unknown) will never be finished: untouched for `max_age` seconds (this process's own only if they
    predate it: a thread may be writing), or its writer is gone, or started after the file was last
    written (its pid reused)."""
    if pid is None:
        return now - written > max_age
    if pid != os.getpid() and (now - written > max_age or not _alive(pid)):
        return True
    started = _started(pid)
    return started is not None and written < started - 1


def _sweep(folder: Path, wanted, max_age: float) -> list[Path]:
    """Remove the stale temporary files of `folder` whose name `wanted` accepts; return their paths."""
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:  # a folder that cannot be read removes none
        return removed
    for entry in entries:
        match = TEMPORARY.fullmatch(entry.name)
        if match is None or not wanted(match) or not entry.is_file(follow_symlinks=False):
            continue
        try:
            written = entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if _is_stale(int(match["pid"]) if match["pid"] else None, written, now, max_age):
            try:
                os.unlink(entry.path)
            except OSError:  # another run removed it first, or not ours to remove: left as it is
                continue
            removed.append(Path(entry.path))
    return removed


def remove_stale_temporaries(path: str | Path, max_age: float = STALE_SECONDS) -> list[Path]:
    """Remove the temporary files `replacing` left beside `path` (``.<name>.<pid>.<random>.tmp``, the
    name of the file a symbolic link points to) that no running writer will finish (`_is_stale`);
    return the paths removed."""
    target = Path(os.path.realpath(path))
    return _sweep(target.parent, lambda match: match["name"] == target.name and match["pid"] is not None, max_age)


def remove_stale_in_folder(folder: str | Path, max_age: float = STALE_SECONDS) -> list[Path]:
    """Remove every stale temporary file of `replacing` in `folder`, whatever file it was for; return
    the paths removed."""
    return _sweep(Path(folder), lambda match: True, max_age)


def write_text(path: str | Path, text: str, parents: bool = False) -> None:
    """Replace the content of `path` with `text` (UTF-8) as `replacing` does."""
    with replacing(path, parents) as tmp:
        tmp.write_text(text, encoding="utf-8")
