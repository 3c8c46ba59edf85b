"""`wordle --tui` at 80x24 (issue 61): snapshots of the start, a game in the middle with the hint panel, and
the end with the review and the statistics (pytest-textual-snapshot; `pytest --snapshot-update` writes them
again after a deliberate change of the screen). The game is -w SLOTH played along the solver's tree (SALET,
SLOTH), so the hint and the review are the values computed ahead, the same on every run."""
from __future__ import annotations

import pytest

pytest.importorskip("textual")
pytest.importorskip("pytest_textual_snapshot")

from solver.wordle_program.tui import PlayApp
from tests.test_wordle_tui import SIZE, guess, session, text, until


def test_start(snap_compare):
    app = PlayApp(session("-w", "sloth"))

    async def ready(pilot):
        await until(pilot, lambda: app.mode == "guess")

    assert snap_compare(app, terminal_size=SIZE, run_before=ready)


def test_middle_with_a_hint(snap_compare):
    app = PlayApp(session("-w", "sloth"))

    async def middle(pilot):
        await guess(pilot, app, "salet")
        await pilot.press("question_mark")
        await until(pilot, lambda: "Thinking..." not in text(app.panel))
        await pilot.press("s", "l")

    assert snap_compare(app, terminal_size=SIZE, run_before=middle)


def test_end_with_the_review_and_statistics(snap_compare):
    app = PlayApp(session("-w", "sloth"))

    async def end(pilot):
        await guess(pilot, app, "salet")
        await guess(pilot, app, "sloth")
        await until(pilot, lambda: app.mode == "done" and "Reviewing..." not in text(app.review))

    assert snap_compare(app, terminal_size=SIZE, run_before=end)
