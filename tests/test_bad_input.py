"""Bad input of every kind ends in a one-line ValueError naming it: guesses and feedback of the five
games (fuzzed over random values and types), and the files the programs read (bounded reads)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver.cli.main import app
from solver.core import bounded_input
from solver.core.runtime import InconsistentFeedbackError
from solver.games import battleship, bulls, cards, mastermind, wordle
from solver.games.wordlists import WordListError, builtin_guesses, read_word_list

# ----------------------------------------------------------------------------- random values

ATOMS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10), st.integers(), st.floats(), st.text(max_size=6),
    st.binary(max_size=4), st.sampled_from([np.int64(1), np.int32(0), np.uint8(2), np.bool_(True), np.float64(1.0)]),
)


def _containers(children):
    hashable = st.one_of(st.integers(-1, 8), st.tuples(st.integers(-1, 8), st.integers(-1, 8)), st.text(max_size=3))
    return st.one_of(
        st.lists(children, max_size=6), st.lists(children, max_size=6).map(tuple),
        st.sets(hashable, max_size=5), st.frozensets(hashable, max_size=5),
        st.dictionaries(st.integers(0, 6), children, max_size=4),
        st.lists(st.integers(-2, 10), max_size=6).map(np.array),
        st.lists(st.lists(st.integers(-1, 8), min_size=2, max_size=2), max_size=4).map(np.array),
    )


VALUES = st.recursive(ATOMS, _containers, max_leaves=12)


def near_feedback(count: int, limit: int):
    """Sequences of `count` (or so) small numbers: valid feedback, or nearly."""
    number = st.one_of(st.integers(-1, limit + 1), st.sampled_from([np.int64(0), np.int16(1), True, 1.0]))
    seq = st.lists(number, min_size=count - 1, max_size=count + 1)
    return st.one_of(seq, seq.map(tuple), seq.map(set), seq.map(lambda v: dict(enumerate(v))))


def near_pairs(count: int, first: int, second: int):
    """Sequences of about `count` pairs of small integers: valid battleship or card guesses, or nearly."""
    pair = st.tuples(st.integers(-1, first), st.integers(-1, second))
    pairs = st.lists(st.one_of(pair, pair.map(list), pair.map(np.array)), min_size=count - 1, max_size=count + 1)
    return st.one_of(pairs, pairs.map(tuple))


def is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_sequence(value) -> bool:
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim >= 1)


def valid_feedback(value, count: int, limit: int) -> bool:
    return is_sequence(value) and len(value) == count and all(is_int(v) and 0 <= v <= limit for v in value)


def valid_pairs(value, count: int, first: int, second: int, text=lambda token: None) -> bool:
    """Whether `value` is `count` distinct pairs within (first, second): each a pair of ints or a token
    that `text` reads as one, or the tokens in one string."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not is_sequence(value) or len(value) != count:
        return False
    pairs = [text(p) if isinstance(p, str) else tuple(p) if is_sequence(p) else None for p in value]
    return (all(p is not None and len(p) == 2 and all(map(is_int, p)) and 0 <= p[0] < first and 0 <= p[1] < second
                for p in pairs) and len(set(pairs)) == count)


def location_text(token: str) -> tuple[int, int] | None:
    """Return the (column, row) of location text ("A1", any case), or None."""
    found = re.fullmatch(r"([A-H])([1-9][0-9]*)", token.strip().upper())
    return None if found is None else ("ABCDEFGH".index(found[1]), int(found[2]) - 1)


def outcome(call) -> str:
    """Run `call`: "ok", "inconsistent" (valid but impossible feedback) or "rejected" (a one-line ValueError)."""
    try:
        call()
    except InconsistentFeedbackError:
        return "inconsistent"
    except ValueError as err:
        message = str(err)
        assert message and "\n" not in message and len(message) < 300, message
        return "rejected"
    return "ok"


WORDS = frozenset(builtin_guesses())
MASTERMIND = dict(start=mastermind.initial_guess, next=mastermind.next_guess, count=2, limit=4, win=(4, 0),
                  guess=lambda v: isinstance(v, str) and len(v) == 4 and set(v) <= set("123456"),
                  near=st.text("1234567", min_size=3, max_size=5))
BULLS = dict(start=bulls.initial_guess, next=bulls.next_guess, count=2, limit=4, win=(4, 0),
             guess=lambda v: isinstance(v, str) and len(v) == 4 and set(v) <= set("0123456789") and len(set(v)) == 4,
             near=st.text("01234567", min_size=3, max_size=5))
BATTLESHIP = dict(start=battleship.initial_guess, next=battleship.next_guess, count=3, limit=3, win=(3, 0, 0),
                  guess=lambda v: valid_pairs(v, 3, 8, 4, location_text), near=near_pairs(3, 8, 4))
CARDS = dict(start=lambda: cards.initial_guess(2), next=cards.next_guess, count=5, limit=2, win=(2, 0, 2, 0, 2),
             guess=lambda v: valid_pairs(v, 2, 13, 4, lambda t: cards.to_card(t.strip().upper())),
             near=near_pairs(2, 13, 4))
WORDLE = dict(start=wordle.initial_guess, next=wordle.next_guess, count=None, limit=None, win="GGGGG",
              guess=lambda v: isinstance(v, str) and v.upper() in WORDS,
              near=st.one_of(st.sampled_from(sorted(WORDS)[:50]).map(str.lower),
                             st.text("ABCRNE", min_size=4, max_size=6)))
GAMES = {"mastermind": MASTERMIND, "bulls": BULLS, "battleship": BATTLESHIP, "cards": CARDS, "wordle": WORDLE}
FUZZ = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


@pytest.mark.parametrize("name", [n for n in GAMES if n != "wordle"])
@FUZZ
@given(data=st.data())
def test_fuzzed_feedback_is_accepted_or_rejected_with_value_error(name, data):
    spec = GAMES[name]
    value = data.draw(st.one_of(VALUES, near_feedback(spec["count"], spec["limit"])), label="feedback")
    guess, state = spec["start"]()
    result = outcome(lambda: spec["next"]((guess, state), value))
    if valid_feedback(value, spec["count"], spec["limit"]):
        assert result in ("ok", "inconsistent")
    else:
        assert result == "rejected"


@FUZZ
@given(value=st.one_of(VALUES, st.text("GYRgyrX", min_size=4, max_size=6)))
def test_fuzzed_wordle_marks_are_accepted_or_rejected_with_value_error(value):
    guess, state = wordle.initial_guess()
    spellings = "".join(wordle.MARK_SPELLINGS.values())
    text = value.strip().replace("\ufe0f", "") if isinstance(value, str) else None
    valid = text is not None and len(text) == 5 and set(text) <= set(spellings + spellings.lower())
    assert outcome(lambda: wordle.next_guess((guess, state), value)) in (
        ("ok", "inconsistent") if valid else ("rejected",))


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(data=st.data())
def test_fuzzed_guesses_are_accepted_or_rejected_with_value_error(name, data):
    spec = GAMES[name]
    value = data.draw(st.one_of(VALUES, spec["near"]), label="guess")
    _, state = spec["start"]()
    # The winning feedback: a valid guess ends the game at once (no live computation).
    result = outcome(lambda: spec["next"]((value, state), spec["win"]))
    if spec["guess"](value):
        assert result in ("ok", "inconsistent")  # wordle: a guess that is not an answer cannot win
    else:
        assert result == "rejected"


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(value=VALUES)
def test_fuzzed_previous_is_rejected_with_value_error(name, value):
    spec = GAMES[name]
    assert outcome(lambda: spec["next"](value, spec["win"])) == "rejected"
    assert outcome(lambda: spec["next"]((spec["start"]()[0], value), spec["win"])) == "rejected"


@FUZZ
@given(n=VALUES.filter(lambda v: not (is_int(v) and v in (3, 4))))  # 3 and 4 load large trees
def test_fuzzed_card_counts(n):
    expected = ("ok",) if is_int(n) and n in (1, 2) else ("rejected",)
    assert outcome(lambda: cards.initial_guess(n)) in expected


@pytest.mark.parametrize("call, fragment", [
    (lambda: battleship.next_guess((0, battleship.initial_guess()[1]), (0, 0, 0)), "battleship guess"),
    (lambda: cards.next_guess(([(9, 4)], cards.initial_guess(2)[1]), (0, 0, 0, 0, 0)), "(9, 4)"),
    (lambda: mastermind.next_guess(mastermind.initial_guess(), {1: 3, 2: 3}), "{1: 3, 2: 3}"),
    (lambda: mastermind.next_guess(mastermind.initial_guess(), {1, 2}), "{1, 2}"),
    (lambda: mastermind.next_guess(mastermind.initial_guess(), (True, 0)), "(True, 0)"),
    (lambda: mastermind.next_guess(mastermind.initial_guess(), (1.0, 0)), "(1.0, 0)"),
    (lambda: mastermind.next_guess((1122, mastermind.initial_guess()[1]), (0, 0)), "1122"),
    (lambda: bulls.next_guess(mastermind.initial_guess(), (0, 0)), "mastermind game, not bulls"),
    (lambda: battleship.feedback([(0, 0), (1, 1), (2, 2)], [(0, 0), (1, 1), (9, 0)]), "(9, 0)"),
    (lambda: battleship.feedback([(0, 0), (1, 1), (2, 2)], [(0, 0), (0, 0), (1, 0)]), "duplicate location"),
    (lambda: cards.feedback([(0, 0)], [(0, 5)]), "(0, 5)"),
    (lambda: cards.initial_guess(True), "True"),
    (lambda: wordle.next_guess((b"CRANE", wordle.initial_guess()[1]), "GGGGG"), "b'CRANE'"),
    (lambda: wordle.initial_guess(hard="yes"), "hard must be True or False"),
    (lambda: wordle.initial_guess(answers="CRANE"), "answer list must be a list of words"),
    (lambda: wordle.initial_guess(answers=["CRANE", 5]), "word 2"),
])
def test_bad_values_raise_value_error_naming_them(call, fragment):
    with pytest.raises(ValueError) as info:
        call()
    assert fragment in str(info.value) and not isinstance(info.value, InconsistentFeedbackError)


def test_numpy_feedback_and_guesses_are_accepted():
    guess, state = mastermind.initial_guess()
    assert mastermind.next_guess((guess, state), np.array([0, 0]))[0]
    assert mastermind.next_guess((guess, state), (np.int64(0), np.uint8(0)))[0]
    guess, state = battleship.initial_guess()
    assert battleship.next_guess((np.array(guess), state), np.zeros(3, dtype=np.int32))[0]


def test_long_values_are_quoted_as_short_excerpts():
    guess, state = mastermind.initial_guess()
    for call in (lambda: mastermind.next_guess(("1" * 10**6, state), (0, 0)),
                 lambda: mastermind.next_guess((guess, state), list(range(10**6))),
                 lambda: wordle.next_guess(wordle.initial_guess(), "G" * 10**6),
                 lambda: wordle.feedback("CRANE", "X" * 10**6)):
        with pytest.raises(ValueError) as info:
            call()
        assert len(str(info.value)) < 200, str(info.value)[:300]
    assert bounded_input.excerpt("x" * 100) == repr("x" * 40) + "... (100 characters)"
    assert "\n" not in bounded_input.excerpt(np.zeros((20, 20)))


# ----------------------------------------------------------------------------- bounded reads


def _fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs")
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "/dev/full", "fifo", "directory"])
def test_word_list_must_be_a_regular_file(tmp_path, special):
    path = {"fifo": lambda: _fifo(tmp_path), "directory": lambda: tmp_path}.get(special, lambda: special)()
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    with pytest.raises(WordListError, match="not a regular file"):
        read_word_list(path)  # returns at once: no read of an endless device, no wait for a FIFO writer


def test_word_list_size_is_capped(tmp_path):
    path = tmp_path / "huge.txt"
    with open(path, "wb") as file:
        file.truncate(bounded_input.WORD_LIST_LIMIT + 1)  # sparse: no disk used
    with pytest.raises(WordListError, match="larger than 16 MB, the most a word list may be"):
        read_word_list(path)


def test_one_huge_word_is_quoted_as_an_excerpt(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("A" * 5_000_000 + "\n")
    with pytest.raises(WordListError) as info:
        read_word_list(path)
    assert len(str(info.value)) < 200 and "(5000000 characters)" in str(info.value)


def test_read_text_refuses_bad_paths_and_text(tmp_path):
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9\n")
    with pytest.raises(bounded_input.InputFileError, match="not UTF-8 text"):
        bounded_input.read_text(tmp_path / "latin1.txt", 100, "word list")
    with pytest.raises(bounded_input.InputFileError, match="cannot read word list"):
        bounded_input.read_text(tmp_path / "absent.txt", 100, "word list")
    with pytest.raises(bounded_input.InputFileError, match="cannot read word list"):
        bounded_input.read_text("bad\0name", 100, "word list")
    (tmp_path / "ok.txt").write_text("crane\n")
    assert bounded_input.read_text(tmp_path / "ok.txt", 6, "word list") == "crane\n"
    with pytest.raises(bounded_input.InputFileError, match="larger than 5 bytes"):
        bounded_input.read_text(tmp_path / "ok.txt", 5, "word list")


@pytest.mark.parametrize("option", ["--answers", "--guesses"])
@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_deduce_word_list_options_refuse_special_files(tmp_path, option, special):
    path = str(_fifo(tmp_path)) if special == "fifo" else special
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    result = CliRunner().invoke(app, ["hint", "wordle", option, path])
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "not a regular file" in lines[0], result.stderr


@pytest.mark.parametrize("args", [
    ["tree", "mastermind", "--path", "x" * 100_000], ["tree", "x" * 100_000],
    ["tree", "mastermind", "--variant", "v" * 100_000], ["tree", "battleship", "--path", "Z9" * 50_000 + "=0,0,0"],
    ["tree", "mastermind", "--path", "1122=" + "9" * 100_000],
])
def test_deduce_quotes_long_arguments_as_excerpts(args):
    result = CliRunner().invoke(app, args)
    # an unknown game or variant, or a path that is not GUESS=FEEDBACK (a guess without its feedback)
    usage = args[1].startswith("x") or args[-1].startswith(("v", "x"))
    assert result.exit_code == (2 if usage else 1), (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and len(lines[0]) < 300, result.stderr[:500]


@pytest.mark.parametrize("command", [["solve", "wordle"], ["hide", "wordle"]])
def test_input_that_is_not_utf8_is_one_error_line(command):
    run = subprocess.run([sys.executable, "-m", "solver", *command], input=b"RRRRR\n\xff\n", capture_output=True)
    err = run.stderr.decode()
    assert run.returncode == 1 and "Traceback" not in err
    assert "error: standard input is not UTF-8 text (byte 0xff cannot be read)" in err
