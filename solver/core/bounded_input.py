"""Bounded input: reading the files users name, and quoting what they typed in error messages.

Every file the programs read (word lists, the `wordle` state and config files) goes through
`read_text`, which refuses anything but a regular file (a directory, a FIFO, /dev/zero, a terminal)
and anything larger than the cap of its kind, so that no input can make a program read forever or
exhaust memory. The caps are far above any real file:

* a word list: 16 MB (a million 15-letter words);
* the `wordle` state file: 64 MB (about a million games of history, some 60 bytes each: loaded in
  about 4 s with some 400 MB of memory; a larger limit let one process take gigabytes);
* the `wordle` config file: 1 MB.

`excerpt` quotes a value in a message: its repr on one line, cut to a short prefix and its size.
"""
from __future__ import annotations

import os
import reprlib
import stat

MB = 1 << 20
WORD_LIST_LIMIT = 16 * MB
STATE_LIMIT = 64 * MB
CONFIG_LIMIT = 1 * MB
EXCERPT = 40  # characters of a quoted value kept in messages
PATH_SHOWN = 200  # a longer path is cut too

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = EXCERPT + 10
_REPR.maxlevel = 3


class InputFileError(ValueError):
    """A file that cannot be read, is not a regular file, is too large or is not UTF-8 text.

    `errno`: the error number when opening or reading failed (e.g. ENOENT), else None.
    """

    def __init__(self, message: str, errno: int | None = None):
        super().__init__(message)
        self.errno = errno


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """Return the repr of `value` on one line, cut to about `limit` characters (noting a string's length)."""
    if isinstance(value, (str, bytes)):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value)} {'characters' if isinstance(value, str) else 'bytes'})"
    try:
        text = _REPR.repr(value)
    except Exception as err:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__} object, repr failed: {type(err).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def size_text(count: int) -> str:
    """Return a size for messages: "256 MB", or "1000 bytes" below a megabyte."""
    return f"{count / MB:.0f} MB" if count >= MB else f"{count} bytes"


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def read_text(path: str | os.PathLike, limit: int, what: str) -> str:
    """Return the UTF-8 text of the regular file `path`, at most `limit` bytes long.

    InputFileError (one line, naming `what` and the path) if it cannot be opened, is not a regular
    file, is larger than `limit` bytes, or is not UTF-8. A FIFO is refused without waiting for a writer.
    """
    shown = os.fspath(path)
    name = f"{what} {shown if len(shown) <= PATH_SHOWN else excerpt(shown, PATH_SHOWN)}"
    too_big = f"{name} is larger than {size_text(limit)}, the most a {what} may be"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise InputFileError(f"cannot read {name}: {err.strerror or err}", err.errno) from None
    except (TypeError, ValueError) as err:  # e.g. an embedded NUL byte
        raise InputFileError(f"cannot read {what} {excerpt(path)}: {err}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"cannot read {name}: it is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise InputFileError(too_big)
        chunks, total = [], 0
        want = info.st_size + 1  # one read of the whole file, plus one byte to see it end
        while total <= limit:
            chunk = os.read(fd, (want if total < want else limit + 1) - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as err:
        raise InputFileError(f"cannot read {name}: {err.strerror or err}", err.errno) from None
    finally:
        os.close(fd)
    if total > limit:  # the file grew while it was read
        raise InputFileError(too_big)
    data = b"".join(chunks)
    del chunks
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputFileError(f"cannot read {name}: not UTF-8 text (byte {err.start})") from None
