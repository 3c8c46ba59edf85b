"""The documentation: the MkDocs site builds without a warning, and the README stays a front page.

The site (docs/mkdocs.yml, pages in docs/pages/) is built with `mkdocs build --strict`, as `make docs`
builds it, into a temporary folder: a broken link between pages, a missing anchor or a docstring the
API reference cannot render fails the test. Without the docs extra (mkdocs, mkdocs-material,
mkdocstrings[python]) the build is skipped, saying how to install it; when the environment variable
CI is `true` it fails instead, so CI always checks the docs.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import in_ci

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "docs" / "mkdocs.yml"
README = ROOT / "README.md"
README_MAX_LINES = 300
# words that belong to how the project was made, not to what it is
README_BANNED = ("the issue", "assignment", "../shared")
# the modules the build needs: mkdocs, the Material theme and mkdocstrings' Python handler
DOCS_MODULES = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")


def _missing_docs_modules() -> list[str]:
    missing = []
    for name in DOCS_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # a parent package is missing
            found = False
        if not found:
            missing.append(name)
    return missing


def test_the_docs_site_builds_in_strict_mode(tmp_path):
    missing = _missing_docs_modules()
    if missing:
        why = (f"the docs extra is not installed ({', '.join(missing)} missing): "
               f"pip install -e '.[docs]' (make install does)")
        if in_ci():
            pytest.fail(f"{why}; required when CI=true", pytrace=False)
        pytest.skip(why)
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(CONFIG), "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})  # no theme end-of-life banner
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    assert (site / "index.html").is_file()
    assert (site / "reference" / "core-runtime" / "index.html").is_file()  # the API reference was rendered


def test_the_readme_is_a_short_front_page():
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines, at most {README_MAX_LINES}"
    lower = text.lower()
    found = [word for word in README_BANNED if word in lower]
    assert not found, f"README.md mentions {found}"


@pytest.mark.parametrize("ci, outcome", [("", pytest.skip.Exception), ("true", pytest.fail.Exception)])
def test_without_mkdocs_the_build_skips_and_fails_in_ci(monkeypatch, tmp_path, ci, outcome):
    monkeypatch.setattr(sys.modules[__name__], "_missing_docs_modules", lambda: ["mkdocs"])
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="docs extra"):
        test_the_docs_site_builds_in_strict_mode(tmp_path)
