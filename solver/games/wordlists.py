"""Wordle word lists: the original lists, lists of other lengths, the NYT's lists (all data files of
this package, `solver/games/data/`, each naming its public source and licence in its header), and
users' own files.

The original lists (2315 answers, 12972 acceptable guesses with the answers included) and, for words
of 4 and 6 to 9 letters, a list of common words (the answers, in order of frequency) and a full list
(the guesses) of that length come from an MIT-licensed Wordle solver's published lists, the NYT's
from Alex Selby's repository (MIT too): each file's header names its source, and the upstream licence
notices are beside them (`data/LICENSE-*.txt`). Each game's fingerprint hashes its lists: a data file
may gain or lose comment lines, never change its words or their order.

Every word list of a user goes through one check, `normalise` (each list: words of one length, 1 to
10 letters a-z, no duplicate) and `word_lists` (the pair: answers within the guesses), whoever gives
it: `wordle.game` and `wordle.initial_guess` (lists in memory), `read_word_list` (the files of `deduce
--answers/--guesses` and of `wordle -f/-a`). A word list file is read with `solver.core.bounded_input.read_text`:
it must be a regular file (not a FIFO or a device) of at most 16 MB; a bad word is quoted in errors
only as a short excerpt.
"""
from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Iterable, Mapping

from solver.core.bounded_input import WORD_LIST_LIMIT, InputFileError, excerpt, read_text

# The built-in lists: data files of this package (`solver/games/data/`), one word a line, upper case,
# '#' lines their header (source and licence). The original lists: the 2315 answers and the 10657
# other acceptable guesses.
_ORIGINAL_ANSWERS = "original-answers.txt"
_ORIGINAL_OTHER_GUESSES = "original-other-guesses.txt"
# per length: common words, most frequent first (the answers of 4 and 6 to 9 letters, and the
# commonness order of the guesses of 4 to 10 letters), and every word (the guesses of 4, 6 to 9 letters)
_COMMON_WORDS = "common-words-{}.txt"
_ALL_WORDS = "all-words-{}.txt"
COMMON_LENGTHS = range(4, 11)
# the NYT's lists (from a named public source: their headers say which)
_NYT_ANSWERS = "nyt-answers-2023-07-01.txt"
_NYT_GUESSES = "nyt-guesses-2022-08-30.txt"
LISTS = ("original", "nyt")  # `--lists`: the original 2315/12972, or the NYT's 3158/14855
WORD_LENGTHS = range(4, 10)  # the lengths offered by `--size` (5: the original lists)
DEFAULT_LENGTH = 5
MAX_LENGTH = 10  # the longest words of a user's lists: 3**10 feedback codes, the most a 16-bit table holds


class WordListError(ValueError):
    """A word list is missing, unreadable or malformed; the message names the list and the word."""


def check_length(length: int) -> int:
    """Return `length` if built-in lists exist for it (4 to 9 letters); ValueError otherwise."""
    if isinstance(length, bool) or not isinstance(length, int) or length not in WORD_LENGTHS:
        raise WordListError(f"built-in word lists have {WORD_LENGTHS[0]} to {WORD_LENGTHS[-1]} letters, "
                            f"got {excerpt(length)}")
    return length


@lru_cache(maxsize=None)
def _data_lines(name: str, length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """Return the words of a data file of this package in the file's order (one a line; '#' lines
    are its header); WordListError naming the file unless they are distinct words of `length`
    letters A-Z."""
    text = files("solver.games").joinpath("data", name).read_text(encoding="utf-8")
    words = tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))
    joined = "".join(words)
    if not words or len(set(words)) != len(words) or len(joined) != length * len(words) or not all(
            len(word) == length for word in words) or not (joined.isascii() and joined.isalpha() and joined.isupper()):
        raise WordListError(f"the data file {name} is damaged: not distinct {length}-letter words A-Z")
    return words


@lru_cache(maxsize=None)
def _data_words(name: str, length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """Return the words of a data file of this package, sorted."""
    return tuple(sorted(_data_lines(name, length)))


@lru_cache(maxsize=None)
def builtin_answers(length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """Return the built-in answers of `length` letters, upper case, sorted: the original 2315 for 5
    letters, the common words of that length otherwise (e.g. 4562 of 6 letters)."""
    if check_length(length) == DEFAULT_LENGTH:
        return _data_words(_ORIGINAL_ANSWERS)
    return _data_words(_COMMON_WORDS.format(length), length)


@lru_cache(maxsize=None)
def builtin_guesses(length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """Return the built-in acceptable guesses of `length` letters (answers included), upper case,
    sorted: the original 12972 for 5 letters, every word of that length otherwise."""
    others = _ORIGINAL_OTHER_GUESSES if check_length(length) == DEFAULT_LENGTH else _ALL_WORDS.format(length)
    return tuple(sorted(set(builtin_answers(length)) | set(_data_lines(others, length))))


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
    """Return {word: rank} for the common words of `length` letters (4 to 10; none otherwise), upper
    case, 0 the most frequent (their list is in order of frequency); the ranking's tie-break by
    commonness."""
    if length not in COMMON_LENGTHS:
        return {}
    return {word: rank for rank, word in enumerate(_data_lines(_COMMON_WORDS.format(length), length))}


def check_word(word: str, length: int | None = 5) -> str:
    """Return `word` upper-cased if it is `length` letters a-z (any case; None: 1 to MAX_LENGTH
    letters); ValueError naming it otherwise (letters outside a-z, accented ones too, are refused)."""
    wanted = f"{length}-letter word of letters" if length is not None else f"word of 1 to {MAX_LENGTH} letters"
    if (not isinstance(word, str) or not (word.isascii() and word.isalpha())
            or (len(word) != length if length is not None else not 1 <= len(word) <= MAX_LENGTH)):
        raise ValueError(f"not a {wanted} a-z: {excerpt(word)}")
    return word.upper()


def _items(words: Iterable[str], name: str) -> Iterable[str]:
    if isinstance(words, (str, bytes, bytearray, Mapping)) or not isinstance(words, Iterable):
        raise WordListError(f"{name} must be a list of words, got {excerpt(words)}")
    return words


def word_tuple(words: Iterable[str] | None, name: str) -> tuple | None:
    """Return the items of a word list as a tuple (None stays None), for a cache key: WordListError if
    `words` is not a list of words (a string, a mapping, not iterable). The words are not checked here."""
    return None if words is None else tuple(_items(words, name))


def normalise(words: Iterable[str], name: str, length: int | None = 5) -> tuple[str, ...]:
    """Return the words of a list upper-cased and sorted; WordListError naming the list and the word
    on a bad word (not `length` letters a-z; None: the length of the first word, at most MAX_LENGTH)
    or a duplicate, or an empty list."""
    if length is not None and (isinstance(length, bool) or not isinstance(length, int)
                               or not 1 <= length <= MAX_LENGTH):
        raise WordListError(f"words have 1 to {MAX_LENGTH} letters, not {excerpt(length)}")
    seen: set[str] = set()
    inferred = length is None
    for number, raw in enumerate(_items(words, name), start=1):
        word = raw.strip() if isinstance(raw, str) else raw
        try:
            upper = check_word(word, length)
        except ValueError as err:
            why = " (as long as the list's first word)" if inferred and length is not None else ""
            raise WordListError(f"{name}, word {number}: {err}{why}") from None
        if upper in seen:
            raise WordListError(f"{name}, word {number}: duplicate word {upper}")
        length = len(upper)
        seen.add(upper)
    if not seen:
        raise WordListError(f"{name} is empty")
    return tuple(sorted(seen))


def word_lists(answers: Iterable[str] | None, guesses: Iterable[str] | None,
               length: int | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return (answers, guesses) of a user's lists, checked (`normalise`), upper-cased and sorted,
    the answers within the guesses: the one check of word lists, whoever gives them.

    `length`: the words' length (None: the first word's). Without `guesses`, the built-in guesses
    of the answers' length; without `answers`, every guess is a possible answer. WordListError
    naming the list and the word otherwise.
    """
    if answers is None and guesses is None:
        raise WordListError("give an answer list, a guess list or both")
    if guesses is not None:
        guesses = normalise(guesses, "guess list", length)
        length = len(guesses[0])
    if answers is not None:
        answers = normalise(answers, "answer list", length)
    if guesses is None:
        guesses = builtin_guesses(len(answers[0]))
    answers = guesses if answers is None else answers
    check_subset(answers, guesses)
    return answers, guesses


def read_word_list(path: str | Path, length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """Return the words of a file with one word of `length` letters per line (blank lines ignored),
    validated and sorted.

    The file must be a regular file of at most 16 MB (`solver.core.bounded_input.WORD_LIST_LIMIT`).
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
