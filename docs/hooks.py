"""MkDocs hook (mkdocs.yml `hooks`): the site holds the repository texts its licence page cites.

docs/pages/licence.md links to the repository's `LICENSE` and to the word lists' folder
`solver/games/data/` by relative paths (`../../LICENSE`), which work where the Markdown is read in the
repository but lead out of a built site. At build time those links are pointed at sections appended
to the page: the licence's text, each word list's header (its source, version and licence) and the
licence notices of the sources, read from the files themselves, so the site cannot drift from them.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LICENSE = ROOT / "LICENSE"
DATA = ROOT / "solver" / "games" / "data"
PAGE = "licence.md"
# the page's links into the repository -> the anchors of the sections that hold those texts
LINKS = {"../../LICENSE": "#the-licence-text", "../../solver/games/data/": "#the-word-lists-files"}


def _block(text: str) -> str:
    """Return `text` as a fenced block of plain text."""
    return "```text\n" + text.rstrip("\n") + "\n```\n"


def appendix() -> str:
    """Return the Markdown of the sections the page's repository links now point at."""
    parts = ["\n## The licence text\n\nThe file `LICENSE` at the top of the repository:\n\n",
             _block(LICENSE.read_text("utf-8")),
             ("\n## The word lists' files\n\nThe word lists of `solver/games/data/`, as the package ships them: each "
              "one's comment lines, then how many words it holds.\n")]
    for path in sorted(DATA.glob("*.txt")):
        if path.name.startswith("LICENSE"):
            continue
        lines = path.read_text("utf-8").splitlines()
        header = [line for line in lines if line.startswith("#")]
        words = sum(1 for line in lines if line.strip() and not line.startswith("#"))
        parts += [f"\n### {path.name}\n\n", _block("\n".join(header)), f"\n{words} words.\n"]
    parts.append("\n## The sources' licence notices\n\nBeside the word lists, as the package ships them:\n")
    for path in sorted(DATA.glob("LICENSE*.txt")):
        parts += [f"\n### {path.name}\n\n", _block(path.read_text("utf-8"))]
    return "".join(parts)


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    """Return the licence page with its repository links pointed at its appended texts (others unchanged)."""
    if page.file.src_uri != PAGE:
        return markdown
    for target, anchor in LINKS.items():
        markdown = markdown.replace(f"]({target})", f"]({anchor})")
    return markdown + appendix()
