import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from solver.core.coldstart import search_kernels_cached

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Data shared beside the checkout (the specification's conformance cases): <checkout>/../shared
SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


def in_ci() -> bool:
    """Whether the tests run in CI (the environment variable CI is `true`, as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() == "true"


def shared_folder(*parts: str) -> Path:
    """Return the folder `../shared/<parts>` beside the checkout. When it is missing the calling test
    is skipped with a reason naming the folder, or fails when CI is `true` (CI must run those tests)."""
    folder = SHARED.joinpath(*parts)
    if not folder.is_dir():
        why = f"{folder} is missing (the shared data beside the checkout, ../shared)"
        if in_ci():
            pytest.fail(f"{why}: required when CI=true", pytrace=False)
        pytest.skip(why)
    return folder


# Numba compiles a kernel the first time a process runs it and keeps it in its cache. On a fresh
# checkout every pytest-xdist worker, and every command a test starts, would compile the same kernels
# at once. The controller compiles them first instead, before the workers start, in two processes: the
# exact search's kernels for 8-bit tables (Wordle) and for 16-bit ones (cards n3), about 40 s of one
# core each; with a warm cache this is skipped.
_WARM_UPS = (
    "from solver.core.registry import get_game\n"
    "from solver.core.search.live import ExactLive\n"
    "ExactLive(get_game('wordle')).warm()",
    "import numpy as np\n"
    "from solver.core.registry import get_game\n"
    "from solver.core.search.live import ExactLive\n"
    "from solver.games import boards\n"
    "ExactLive(get_game('cards', 'n3')).warm()\n"
    "game = get_game('wordle')\n"
    "boards.lookahead_guess(game, np.arange(30), np.arange(100, 140))\n"
    "boards.spread_order(game, [np.arange(30), np.arange(100, 140), np.arange(200, 260)])",
)


def pytest_configure(config):
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: its controller warmed the cache
        return
    if (getattr(config.option, "numprocesses", None) or 0) > 1:
        # one Numba thread a worker, as the pipeline's process pools run (one process a core): threads
        # of two workers on two cores only take turns (test_threads runs the kernels on two threads)
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    if search_kernels_cached():
        return
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL) for code in _WARM_UPS]
    for run in runs:
        run.wait()
