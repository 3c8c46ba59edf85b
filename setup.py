"""The committed artifacts in the wheel: ``artifacts/tree-*.parquet`` (the decision trees), ``book-*``
(the opener books), ``openers-*`` (the opener rankings) and ``hints-*`` (the trees' rankings) become ``solver/trees/``.

Everything else is in pyproject.toml. The trees are copied at build time rather than mapped with
``package-dir`` so that the layout stays simple (every package is the folder of its name): an
editable install (``pip install -e .``) is then one ``.pth`` line naming the checkout, without the
setuptools warnings of the ``compat`` mode or of its import-hook finder.
"""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TREES = ("artifacts/tree-*.parquet", "artifacts/book-*.parquet", "artifacts/openers-*.parquet",
         "artifacts/hints-*.parquet")


class BuildWithTrees(build_py):
    """build_py, then the trees into ``solver/trees`` of the build (not in an editable build: the
    checkout's ``artifacts/`` is found beside the packages)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib, "solver", "trees")
        self.mkpath(str(target))
        root = Path(__file__).resolve().parent
        for tree in sorted(path for pattern in TREES for path in root.glob(pattern)):
            self.copy_file(str(tree), str(target / tree.name))


setup(cmdclass={"build_py": BuildWithTrees})
