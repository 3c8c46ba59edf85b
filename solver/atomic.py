"""Atomic file replacement: write to a temporary file beside the target, then rename into place."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def replacing(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; on success rename it over `path`.

    If the block raises (or the process dies), `path` keeps its old content and the temporary file
    is removed (or, after a crash, left as ``.<name>.*.tmp`` which readers ignore).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp creates 0600; give the file the usual mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: str | Path, text: str) -> None:
    """Replace the content of `path` with `text` (UTF-8) atomically."""
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
