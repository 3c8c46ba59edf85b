"""The built documentation site is self-contained: every relative link and source of every page leads to
a file of the site (none out of it, as the licence page's `../../LICENSE` did), and the licence page
holds the texts it cites (docs/hooks.py appends them from the files themselves).

Built like tests/test_docs.py builds it: skipped without the docs extra, failed instead when CI is `true`.
"""
from __future__ import annotations

import html
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.conftest import in_ci
from tests.test_docs import CONFIG, ROOT, _missing_docs_modules

DATA = ROOT / "solver" / "games" / "data"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    missing = _missing_docs_modules()
    if missing:
        why = (f"the docs extra is not installed ({', '.join(missing)} missing): "
               "pip install -e '.[docs]' (make install does)")
        if in_ci():
            pytest.fail(f"{why}; required when CI=true", pytrace=False)
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("docs") / "site"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(CONFIG),
                             "--site-dir", str(folder)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return folder


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.links += [value for name, value in attrs if name in ("href", "src") and value]


def outside_links(site: Path) -> list[str]:
    """Return "page: link" for each relative link or source of the site's pages that leads out of the
    site or to no file of it."""
    bad = []
    root = site.resolve()
    for page in sorted(site.rglob("*.html")):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for link in parser.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or not parts.path:  # another site, or an anchor of this page
                continue
            path = unquote(parts.path)  # an absolute path (the 404 page's) is read from the site's root
            target = (root / path.lstrip("/") if path.startswith("/") else page.parent / path).resolve()
            if not target.is_relative_to(root) or not (target.is_file() or (target / "index.html").is_file()):
                bad.append(f"{page.relative_to(site)}: {link}")
    return bad


def test_every_link_of_the_site_stays_in_it(site):
    assert outside_links(site) == []


def test_the_checker_sees_a_link_out_of_the_site(tmp_path):
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "index.html").write_text('<a href="../../LICENSE">x</a> <a href="#top">y</a> '
                                                  '<a href="https://example.org/">z</a> <img src="../page/">')
    assert outside_links(tmp_path) == ["page/index.html: ../../LICENSE"]


def test_the_licence_page_holds_the_texts_it_cites(site):
    page = (site / "licence" / "index.html").read_text(encoding="utf-8")
    assert 'href="#the-licence-text"' in page and 'href="#the-word-lists-files"' in page
    assert "../../LICENSE" not in page and "../../solver" not in page
    cited = [(ROOT / "LICENSE").read_text("utf-8")] + [path.read_text("utf-8") for path in DATA.glob("LICENSE*.txt")]
    cited += ["\n".join(line for line in path.read_text("utf-8").splitlines() if line.startswith("#"))
              for path in DATA.glob("*.txt") if not path.name.startswith("LICENSE")]
    text = html.unescape(page)
    for content in cited:
        for line in content.splitlines()[:3]:
            assert line.strip() in text, line
