"""The results table has one home, docs/pages/trees.md: its totals are the committed trees', and the
README and the docs' front page link to it instead of copying it."""
from __future__ import annotations

import re
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "docs" / "pages" / "trees.md"
# the results table's rows, by the words that start them, and the tree each row is
ROWS = {"Wordle normal, opener SALET": "wordle-normal", "Wordle hard, opener SALET": "wordle-hard",
        "Wordle answers-only": "wordle-answers-only", "Wordle, NYT lists": "wordle-normal-nyt",
        "Wordle hard, NYT lists": "wordle-hard-nyt", "Wordle, every word an answer": "wordle-normal-all-words",
        "Wordle hard, every word an answer": "wordle-hard-all-words", "Mastermind": "mastermind-default",
        "Bulls and Cows": "bulls-default", "Battleship": "battleship-default", "Cards n = 1": "cards-n1",
        "Cards n = 2": "cards-n2", "Cards n = 3": "cards-n3", "Cards n = 4": "cards-n4"}


def results_rows(text: str) -> dict[str, list[str]]:
    """Return the cells of the Results section's table rows, by their first cell."""
    section = text.split("\n## Results\n", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| variant")]
    return {row[0]: row for row in rows}


def test_the_results_table_holds_the_committed_totals():
    rows = results_rows(TREES.read_text(encoding="utf-8"))
    for start, tree in ROWS.items():
        [row] = [cells for first, cells in rows.items() if first.startswith(start)]
        metadata = pq.read_schema(ROOT / "artifacts" / f"tree-{tree}.parquet").metadata
        assert row[2] == metadata[b"total_guesses"].decode(), (start, row[2])


def test_the_front_pages_link_to_the_table_instead_of_copying_it():
    for path in (ROOT / "README.md", ROOT / "docs" / "pages" / "index.md"):
        text = path.read_text(encoding="utf-8")
        assert "trees.md#results" in text, path.name
        assert not re.search(r"^\| *Wordle normal", text, re.MULTILINE), f"{path.name} copies the results table"
