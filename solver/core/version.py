"""The installed version of the package (`deduce --version`, `solver.__version__`)."""
from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "deduce-solver"  # the name pip knows the project by (pyproject.toml; "deduce" is taken on PyPI)

try:
    __version__ = version(DISTRIBUTION)  # one source of truth: pyproject.toml, via the package metadata
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
