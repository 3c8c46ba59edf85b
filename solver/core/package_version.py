"""The installed version of the package (`deduce --version`, `solver.__version__`).

Read from the package metadata when first asked for: importing `importlib.metadata` takes about
80 ms, which no command but `--version` should pay at start-up.
"""
from functools import cache

DISTRIBUTION = "deduce-solver"  # the name pip knows the project by (pyproject.toml; "deduce" is taken on PyPI)


@cache
def installed_version() -> str:
    """Return the installed version ("0+unknown" in a source tree that was never installed)."""
    from importlib.metadata import PackageNotFoundError, version  # deferred: 80 ms of imports

    try:
        return version(DISTRIBUTION)  # one source of truth: pyproject.toml, via the package metadata
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    """`__version__`, read on first use (PEP 562)."""
    if name == "__version__":
        return installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
