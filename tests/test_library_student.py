"""The battleship and card-game modules as a student calls them: feedback as ints, locations and cards
as text or pairs, board options checked and passed through, a readable State, and the examples of
docs/pages/library.md's "Scoring guesses" section printing what the page says they print."""
from __future__ import annotations

import contextlib
import io
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

from solver.core.runtime import State
from solver.games import battleship, cards, wordle

LIBRARY_PAGE = Path(__file__).resolve().parent.parent / "docs" / "pages" / "library.md"
SECTION = "## Scoring guesses"


def test_feedback_values_are_python_ints():
    for value in (cards.feedback([(10, 2), (1, 3)], [(10, 3), (1, 3)]), cards.feedback("QH 3S", "QS 3S"),
                  battleship.feedback([(1, 1), (3, 2), (7, 0)], [(0, 0), (0, 2), (7, 0)])):
        assert all(type(v) is int for v in value), value
    assert cards.feedback("QH 3S", "QS 3S") == (1, 0, 2, 0, 1)


@pytest.mark.parametrize("target, guess", [
    ("B2 D3 H1", "A1 A3 H1"), (["B2", "D3", "H1"], ["A1", "A3", "H1"]), ("b2, d3, h1", [(0, 0), "A3", (7, 0)]),
    (battleship.parse_locations(["B2", "D3", "H1"]), ("A1", "A3", "H1")),
])
def test_battleship_feedback_takes_location_text(target, guess):
    assert battleship.feedback(target, guess) == (1, 2, 0)


def test_battleship_next_guess_takes_location_text():
    first, state = battleship.initial_guess()
    expected = battleship.next_guess((first, state), (1, 2, 0))
    for guess in ("A1 A3 H1", ["A1", "A3", "H1"], [(0, 0), "A3", "h1"]):
        found = battleship.next_guess((guess, state), (1, 2, 0))
        assert found[0] == expected[0] and found[1].history == expected[1].history


def test_cards_take_card_text():
    first, state = cards.initial_guess(2)
    expected = cards.next_guess((first, state), (0, 1, 0, 1, 0))
    found = cards.next_guess((" ".join(map(str, first)), state), (0, 1, 0, 1, 0))
    assert found[0] == expected[0] and found[1].history == expected[1].history
    assert cards.feedback(["QH", "3S"], ["Q♥", "10S"]) == cards.feedback([(10, 2), (1, 3)], [(10, 2), (8, 3)])


@pytest.mark.parametrize("call, fragment", [
    (lambda: battleship.feedback("B2 D3 H1", "A1 A3 Z9"), "'Z9'"),
    (lambda: battleship.feedback("B2 D3 H1", ["A1", "A1", "B2"]), "duplicate location: A1"),
    (lambda: battleship.feedback("B2 D3 H1", [(0, 0), "A3", 5]), "or text like \"A1\": 5"),
    (lambda: cards.feedback("QH 3S", "QH 3X"), "'3X'"),
])
def test_bad_text_is_a_value_error_naming_it(call, fragment):
    with pytest.raises(ValueError) as info:
        call()
    assert fragment in str(info.value)


@pytest.mark.parametrize("options, fragment", [
    (dict(rows=0), "rows must be an integer, 1 or more, got 0"), (dict(cols=0), "cols must be"),
    (dict(cols=9), "cols must be 1 to 8"), (dict(ships=0), "ships must be"), (dict(ships=-1), "ships must be"),
    (dict(ships=5, cols=2, rows=2), "ships must be at most the board's 4 cells"),
    (dict(rows=10**12), "board too large"), (dict(ships=True), "ships must be an integer"),
    (dict(rows=[4]), "rows must be an integer"), (dict(cols=2.0), "cols must be an integer"),
])
def test_a_board_that_cannot_be_is_refused_naming_the_option(options, fragment):
    for call in (battleship.game, battleship.initial_guess):
        with pytest.raises(ValueError, match=re.escape(fragment)):
            call(**options)


def test_initial_guess_takes_the_board_options():
    guess, state = battleship.initial_guess(ships=2, cols=4, rows=2)
    game = state.solver.game
    assert game is battleship.game(2, 4, 2) and game.variant == "s2-4x2"
    assert len(guess) == 2 and all(loc.col < 4 and loc.row < 2 for loc in guess)
    # a board of more than 4 rows: its guesses' locations read back from their text ("A5")
    guess, state = battleship.initial_guess(ships=1, cols=2, rows=6)
    assert len(guess) == 1 and guess[0] is not None
    guess, state = battleship.next_guess((guess, state), (0, 0, 0))  # some cell is 3 rows away from any
    assert len(guess) == 1 and isinstance(guess[0], battleship.Location)
    assert battleship.initial_guess(np.int64(3), np.int64(8), np.int64(4))[1].solver.game is battleship.game()


def test_state_repr_reads_as_the_game():
    guess, state = battleship.initial_guess()
    assert repr(state) == "<State of battleship: no guess yet; 4960 candidates left; guess from the tree>"
    guess, state = battleship.next_guess((guess, state), (0, 1, 0))
    text = repr(state)
    assert text == f"<State of battleship: A1 A3 H1=(0,1,0); {state.remaining} candidates left; guess from the tree>"
    assert "Solver" not in text and "node" not in text
    assert repr(pickle.loads(pickle.dumps(state))) == text
    _, solved = battleship.next_guess((guess, state), (3, 0, 0))
    assert repr(solved).endswith("; 1 candidate left; solved>")

    _, state = wordle.next_guess(("CRANE", wordle.initial_guess()[1]), "RYRRR")
    assert repr(state) == "<State of wordle: CRANE=RYRRR; 90 candidates left; guess from the opener book>"
    _, state = cards.next_guess(("5C JD", cards.initial_guess(2)[1]), (0, 1, 0, 1, 0))
    assert repr(state).startswith("<State of cards n2: 5C JD=(0,1,0,1,0); ")


def test_state_repr_chooses_nothing():
    game = wordle.game()
    solver = wordle.initial_guess()[1].solver
    state = solver.advance(State(solver, (), None), game.index_of("CRANE"), game.encode("RYRRR"))
    assert repr(state) == "<State of wordle: CRANE=RYRRR; 90 candidates left; guess not chosen yet>"
    assert "choice" not in state._live


def _examples() -> list[tuple[str, str]]:
    """Return (code, expected output) of each Python block of the page's section: the output is the
    block's full-line comments, "# " taken off."""
    text = LIBRARY_PAGE.read_text(encoding="utf-8")
    start = text.index(SECTION)
    section = text[start:text.index("\n## ", start + 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    return [(code, "".join(line.strip()[2:] + "\n" for line in code.splitlines() if line.strip().startswith("#")))
            for code in blocks]


def test_the_library_page_has_the_examples():
    text = LIBRARY_PAGE.read_text(encoding="utf-8")
    for name in ("feedback", "parse_locations", "parse_cards"):
        assert f"{name}" in text[text.index(SECTION):]
    assert len(_examples()) == 4 and all(expected for _, expected in _examples())


@pytest.mark.parametrize("index", range(4))
def test_the_library_page_examples_print_what_it_says(index):
    code, expected = _examples()[index]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{LIBRARY_PAGE.name} example {index + 1}", "exec"), {})
    assert out.getvalue() == expected
