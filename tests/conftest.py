import errno
import os
import pathlib
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from solver.core.coldstart import live_kernels_cached
from solver.games.wordlists import builtin_answers, builtin_guesses

# the commands the tests run stay in their own processes (tests/test_resident.py starts residents of its own)
os.environ.setdefault("DEDUCE_RESIDENT", "0")

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Data shared beside the checkout (the specification's conformance cases): <checkout>/../shared
SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


def in_ci() -> bool:
    """Whether the tests run in CI (the environment variable CI is `true`, as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() == "true"


def shared_folder(*parts: str, what: str = "shared data") -> Path:
    """Return the folder `../shared/<parts>` beside the checkout. When it is missing the calling test
    is skipped with a reason saying what it needs (`what`) and where, or fails when CI is `true` (CI must
    run those tests)."""
    folder = SHARED.joinpath(*parts)
    if not folder.is_dir():
        why = f"needs ../shared/{'/'.join(parts)} ({what}, beside the checkout): {folder} is missing"
        if in_ci():
            pytest.fail(f"{why}: required when CI=true", pytrace=False)
        pytest.skip(why)
    return folder


@pytest.fixture(scope="module")
def small_lists(tmp_path_factory):
    """Wordle word lists small enough to compute live in well under a second: (answers, guesses)."""
    folder = tmp_path_factory.mktemp("lists")
    answers = builtin_answers()[::150]
    guesses = sorted(set(builtin_guesses()[::40]) | set(answers))
    (folder / "answers.txt").write_text("\n".join(w.lower() for w in answers) + "\n")
    (folder / "guesses.txt").write_text("\n".join(guesses) + "\n")
    return folder / "answers.txt", folder / "guesses.txt"


@pytest.fixture(scope="module")
def client():
    """A TestClient of the web app (`solver.web.app.create_app`), for the module's tests; skipped without the web
    extra."""
    pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install '.[web]' (or '.[test]')")
    pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx: pip install '.[test]'")
    import warnings

    with warnings.catch_warnings():  # starlette's notice that it prefers httpx2 for its TestClient
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from solver.web.app import create_app

    return TestClient(create_app())



@pytest.fixture
def full_disk(monkeypatch):
    """Writes of temporary files fail as on a full disk: part of the data written, then ENOSPC (the
    error names no file, as the operating system's does not)."""
    original = pathlib.Path.write_text

    def write_text(self, data, *args, **kwargs):
        if self.name.endswith(".tmp"):
            original(self, data[: len(data) // 2], *args, **kwargs)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return original(self, data, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_text", write_text)


# Numba compiles a kernel the first time a process runs it and keeps it in its cache. On a fresh
# checkout every pytest-xdist worker, and every command a test starts, would compile the same kernels
# at once (and say so on stderr). The controller compiles them first instead, before the workers start,
# in two processes: what `make tables` compiles (`pipeline.rebuild.warm_live_search`), the live kernels of
# every variant with 8-bit tables and the several boards' (about a minute of one core), and of those with
# 16-bit ones (cards n3, n4: about 100 s); when the cache holds them all this is skipped.
_WARM_UPS = (
    "import numpy as np\n"
    "from solver.core.registry import all_variants, get_game\n"
    "from solver.core.search.live import ExactLive\n"
    "from solver.games import boards\n"
    "for key in all_variants():\n"
    "    if get_game(*key).code_dtype.itemsize == 1:\n"
    "        ExactLive(get_game(*key)).warm()\n"
    "game = get_game('wordle')\n"
    "boards.lookahead_guess(game, np.arange(30), np.arange(100, 140))\n"
    "boards.spread_order(game, [np.arange(30), np.arange(100, 140), np.arange(200, 260)])",
    "from solver.core.registry import all_variants, get_game\n"
    "from solver.core.search.live import ExactLive\n"
    "for key in all_variants():\n"
    "    if get_game(*key).code_dtype.itemsize > 1:\n"
    "        ExactLive(get_game(*key)).warm()",
)


def kernels_cached() -> bool:
    """Return whether Numba's cache holds what `_WARM_UPS` compile (checked in its index, nothing run)."""
    from solver.core.registry import all_variants, get_game
    from solver.core.search import board_chances

    return board_chances.kernels_cached() and all(live_kernels_cached(get_game(*key)) for key in all_variants())


def pytest_configure(config):
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: its controller warmed the cache
        return
    if (getattr(config.option, "numprocesses", None) or 0) > 1:
        # one Numba thread a worker, as the pipeline's process pools run (one process a core): threads
        # of two workers on two cores only take turns (test_threads runs the kernels on two threads)
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    if kernels_cached():
        return
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL) for code in _WARM_UPS]
    for run in runs:
        run.wait()
