"""Packaging: the name pip knows, the hints that name it, the set-up, the API docs pages offline.

* The distribution name is not one taken on PyPI by another project, and every `pip install
  'NAME[extra]'` hint in the code, the tests and the README names this distribution and one of its
  extras (a hint naming a taken name installs someone else's project).
* The installed distribution (the virtualenv's, made by `make install`) is this checkout's, under
  that name: its version is `solver.__version__`.
* The Makefile's editable install builds without a setuptools warning (the `compat` mode printed a
  deprecation on every fresh install), as one .pth line naming the checkout: `solver` and `pipeline`
  import from it, and the wheel still carries the trees (tests/test_wheel.py).
* /docs and /redoc work offline: their scripts and styles come from the app (fastapi-offline's copy of
  Swagger UI and ReDoc), never from a CDN.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

# Names on PyPI that belong to other projects (checked with `pip index versions NAME`, 2026-12-01):
# deduce 3.0.6 is a Dutch medical text de-identification tool.
TAKEN_ON_PYPI = {"deduce"}

# `pip install 'NAME[extra]'`, `pip install NAME[extra]`, `pip install -e '.[extra]'` (`.` and paths
# are the checkout, not a name)
HINT = re.compile(r"pip install (?:-e |--editable )?['\"]?([A-Za-z0-9][A-Za-z0-9_.-]*)\[([a-z0-9_,-]+)\]")
# where hints live; build/ (stale copies of setuptools) and the virtualenv are not the project's
HINT_FILES = sorted(
    [p for folder in ("solver", "pipeline", "tests") for p in (ROOT / folder).rglob("*.py")]
    + [ROOT / "README.md", ROOT / "Makefile", ROOT / ".ci" / "run"])
HINT_FILES.remove(Path(__file__).resolve())  # this file's own examples


def normalized(name: str) -> str:
    """Return a distribution name as PyPI compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def test_distribution_name_is_not_taken_on_pypi():
    assert normalized(PROJECT["name"]) not in TAKEN_ON_PYPI, \
        f"{PROJECT['name']!r} is another project on PyPI: `pip install '{PROJECT['name']}[web]'` installs it"


def test_installed_distribution_is_this_checkout_under_its_name():
    from solver import __version__
    from solver.core.package_version import DISTRIBUTION

    assert normalized(DISTRIBUTION) == normalized(PROJECT["name"])
    try:
        installed = metadata.distribution(PROJECT["name"])
    except metadata.PackageNotFoundError:
        pytest.skip(f"{PROJECT['name']} is not installed here (make install installs it)")
    assert installed.version == PROJECT["version"] == __version__
    scripts = {e.name for e in installed.entry_points if e.group == "console_scripts"}
    assert scripts == {"deduce", "wordle"}
    assert set(installed.metadata.get_all("Provides-Extra")) >= {"web", "test", "plot", "dask"}


@pytest.mark.parametrize("path", [
    pytest.param(p, id=str(p.relative_to(ROOT)))
    for p in HINT_FILES if HINT.search(p.read_text(encoding="utf-8"))])
def test_install_hints_name_this_distribution_and_its_extras(path):
    extras = set(PROJECT["optional-dependencies"])
    for name, wanted in HINT.findall(path.read_text(encoding="utf-8")):
        if name == "." or "/" in name:
            continue
        assert normalized(name) == normalized(PROJECT["name"]), f"{path.name}: pip install {name}[{wanted}]"
        assert set(wanted.split(",")) <= extras, f"{path.name}: {name}[{wanted}] names no such extra"


BUILD_EDITABLE = """
import sys, setuptools.build_meta as backend
print(backend.build_editable(sys.argv[1], config_settings=dict(a.split("=", 1) for a in sys.argv[2:])))
"""


def makefile_install() -> list[str]:
    """Return the words of the Makefile's `pip install -e` line."""
    line, = [s for s in (ROOT / "Makefile").read_text().splitlines() if "pip install" in s and " -e " in s]
    return shlex.split(line.strip())


def test_the_editable_install_is_one_pth_line_without_setuptools_warnings(tmp_path):
    pytest.importorskip("setuptools", reason="the editable build needs setuptools: pip install '.[test]'")
    words = makefile_install()
    settings = [words[i + 1] for i, word in enumerate(words) if word in ("--config-settings", "-C")]
    # as pip calls the backend (its build environment aside): in the checkout, warnings shown once each
    result = subprocess.run([sys.executable, "-W", "default", "-c", BUILD_EDITABLE, str(tmp_path), *settings],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    warnings = re.findall(r"\b\w*Warning: .*", result.stderr)
    assert not warnings, f"the Makefile's install ({' '.join(words)}) warns: {warnings}"
    wheel = tmp_path / result.stdout.split()[-1]
    with zipfile.ZipFile(wheel) as built:
        names = built.namelist()
        pth, = [n for n in names if n.endswith(".pth")]
        assert built.read(pth).decode().split() == [str(ROOT)]
    assert not [n for n in names if n.endswith(".py")], f"an import hook instead of a path: {names}"


URL = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']+)["']""")


@pytest.fixture(scope="module")
def web_client():
    pytest.importorskip("fastapi", reason="the web page needs the web extra: pip install '.[web]'")
    pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx: pip install '.[test]'")
    from fastapi.testclient import TestClient

    from solver.web.app import create_app

    return TestClient(create_app())  # no `with`: the lifespan's kernel warm-up is not needed here


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_api_docs_pages_work_offline(web_client, page):
    html = web_client.get(page)
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert not re.findall(r"https?://[^\s\"'<>]+", html.text), f"{page} loads from the network"
    assets = URL.findall(html.text)
    assert any(a.endswith(".js") for a in assets), assets
    for asset in assets:
        answer = web_client.get(asset)
        assert answer.status_code == 200 and answer.content, asset
        if asset.endswith((".js", ".css")):
            assert answer.headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript",
                                                                   "text/css"), asset


def test_without_fastapi_offline_there_are_no_docs_pages_rather_than_blank_ones(web_client, monkeypatch):
    from fastapi.testclient import TestClient

    from solver.web import app as web_app

    monkeypatch.setattr(web_app, "FastAPIOffline", None)  # as if the package were not installed
    client = TestClient(web_app.create_app())
    assert client.get("/docs").status_code == client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").status_code == 200


def quick_start() -> list[list[str]]:
    """Return the commands of the README's "Quick start" section, from every block of commands in it
    (the words before each comment)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.find("\n## Quick start\n")
    end = readme.find("\n## ", start + 1)
    assert 0 < start < end, "the README opens with a Quick start section"
    blocks = re.findall(r"```sh\n(.*?)```", readme[start:end], re.S)
    assert blocks, "the Quick start has blocks of commands to paste"
    assert [line.split()[:2] for line in blocks[0].splitlines() if line.strip()][:2] == [["make", "tables"],
                                                                                       ["make", "test"]], \
        "the first block is the two commands the project is run and tested by"
    return [shlex.split(line.split("#")[0]) for block in blocks for line in block.splitlines()
            if line.split("#")[0].strip()]


def test_quick_start_commands_exist_where_it_says():
    from typer.testing import CliRunner

    from solver.cli.main import app

    commands = quick_start()
    programs = [words[0] for words in commands]
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
    assert ["make", "install"] in commands and ["source", ".venv/bin/activate"] in commands
    assert {"wordle", "deduce"} <= set(programs) and programs.index("make") < programs.index("source")
    bin_folder = Path(sys.executable).parent  # .venv/bin when run by make test
    for words in commands:
        if words[0] == "make":
            assert words[1] in targets, words
        elif words[0] == "source":
            assert words[1] == ".venv/bin/activate"
            if (bin_folder / "activate").is_file():
                assert bin_folder.name == "bin" and bin_folder.parent.name == ".venv", bin_folder
        elif words[0] in ("deduce", "wordle"):
            assert (bin_folder / words[0]).is_file(), f"{words[0]} is not in {bin_folder}"
    for words in commands:  # the deduce commands take their arguments (in process; playing them would
        if words[0] == "deduce":  # compile the kernels, half a minute on a fresh clone)
            result = CliRunner().invoke(app, [words[1], "--help"])
            assert result.exit_code == 0, (words, result.output[-500:])
            options = set(re.findall(r"--[a-z][\w-]*", result.output))
            assert {w for w in words[2:] if w.startswith("--")} <= options, (words, options)
    for words in commands:  # the wordle program is interactive: its options are in its --help
        if words[0] == "wordle":
            result = subprocess.run([str(bin_folder / "wordle"), "--help"], capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, result.stderr[-500:]
            assert all(re.search(rf"(^|\s){re.escape(w)}[ ,]", result.stdout) for w in words[1:]), \
                (words, result.stdout)
