"""Wordle: guess a hidden word; each guess gets five marks.

Marks: G (right letter, right place), Y (in the answer elsewhere), R (absent, or more copies than
the answer has). Greens are assigned first, then yellows left to right while unused answer letters
remain. Words are case-insensitive on input and upper case on output.

Hard mode: every green stays in place, and each revealed letter is reused at least as many times as
it was marked G or Y in an earlier guess.

Encoded row (what `rule` reads): ``[letters 0-25..., letters 0-4 packed, letters 5-9 packed]``: the two
last columns hold the letters again, 6 bits apart (``sum(letter_j << 6*j)``, five per column), so the
rule compares a letter with every position at once; words longer than 10 letters leave them 0.
Feedback code: ``sum(mark_i * 3**i)`` with R=0, Y=1, G=2, position 0 least significant.
"""
from __future__ import annotations

import hashlib
import inspect
from functools import lru_cache
from typing import Sequence

import numpy as np

from solver.core.bounded_input import excerpt
from solver.core.runtime import State, get_solver, next_from
from solver.core.game import Game
from solver.games import FEEDBACK_NOTATION
from solver.games.wordlists import (
    DEFAULT_LENGTH,
    WORD_LENGTHS,
    builtin_answers,
    builtin_guesses,
    check_length,
    check_lists,
    check_word,
    nyt_answers,
    nyt_guesses,
    word_lists,
    word_tuple,
)

MARKS = "RYG"
MAX_GUESSES = 6  # a board allows six guesses; exact values count within them


FEEDBACK_HELP = FEEDBACK_NOTATION["wordle"]


@lru_cache(maxsize=None)
def make_rule(length: int):
    """Return the rule for words of `length` letters (a closure: Numba compiles `length` as a constant).

    The rule is branch-free so that Numba inlines it into the table kernels. Position sets are bit
    masks: up to 10 letters, bit ``6*j + 5`` stands for position j and the packed columns give every
    position holding a letter with one subtraction (each 6-bit field of ``high - (a ^ b)`` keeps its
    top bit exactly when the two letters are equal); longer words use bit j and compare one by one.
    """
    packed = length <= 10
    shift, top = (6, 5) if packed else (1, 0)  # bit of position j: shift * j + top
    ones = sum(1 << (6 * j) for j in range(length)) if packed else 0  # 1 in every field
    high = ones << 5 if packed else (1 << length) - 1  # the bits of all positions

    def rule(guess: np.ndarray, answer: np.ndarray) -> int:
        """Return the feedback code of one guess row against one answer row."""
        if packed:
            theirs = int(answer[length])
            mine = int(guess[length])
            if length > 5:
                theirs |= int(answer[length + 1]) << 30
                mine |= int(guess[length + 1]) << 30
            greens = (high - (theirs ^ mine)) & high
        else:
            greens = 0
            for j in range(length):
                if guess[j] == answer[j]:
                    greens |= 1 << j
        unused = high ^ greens  # answer positions not yet matched
        code = 0
        weight = 1
        for i in range(length):
            green = (greens >> (shift * i + top)) & 1
            if packed:
                same = (high - (theirs ^ int(guess[i]) * ones)) & high
            else:
                same = 0
                for j in range(length):
                    if answer[j] == guess[i]:
                        same |= 1 << j
            # A non-green letter is yellow iff an unused answer position holds it; it uses the first.
            found = same & unused & (green - 1)
            unused ^= found & -found
            code += weight * (2 * green + (found != 0))
            weight *= 3
        return code

    return rule


def encode_word(word: str) -> list[int]:
    """Return the encoded row of an upper-case word (see the module docstring)."""
    letters = [ord(ch) - ord("A") for ch in word]
    packed = [0, 0]
    if len(letters) <= 10:
        for j, letter in enumerate(letters):
            packed[j // 5] |= letter << (6 * (j % 5))
    return letters + packed


def encode_words(words) -> np.ndarray:
    """Return the encoded rows (int32, one per word, as `encode_word`'s) of upper-case words of one length."""
    length = len(words[0])
    letters = (np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).reshape(len(words), length)
               .astype(np.int32) - ord("A"))
    packed = np.zeros((len(words), 2), dtype=np.int32)
    if length <= 10:
        for j in range(length):
            packed[:, j // 5] |= letters[:, j] << (6 * (j % 5))
    return np.concatenate([letters, packed], axis=1)


# Every spelling of a mark that people type or paste, by mark: the course's letters, B/X/./- for
# absent, the digits 0/1/2, and the emoji squares of the share grid (dark, light and high-contrast).
MARK_SPELLINGS = {"R": "RBX.-0\u2b1b\u2b1c", "Y": "Y1\U0001f7e8\U0001f7e6", "G": "G2\U0001f7e9\U0001f7e7"}
_MARK_OF = {ch: mark for mark, spellings in MARK_SPELLINGS.items() for ch in spellings + spellings.lower()}


def marks_to_code(marks: str, length: int = 5) -> int:
    """Return the code of marks like "GYRRR" (also "gy.b-", "21000", "🟩🟨⬛⬛⬛"); ValueError if malformed."""
    text = marks.strip().replace("\ufe0f", "") if isinstance(marks, str) else None  # emoji variation selectors
    if text is None or len(text) != length or any(m not in _MARK_OF for m in text):
        raise ValueError(f"marks must be {length} of G/2/🟩 green, Y/1/🟨 yellow, R/B/X/./-/0/⬛ grey, "
                         f"got {excerpt(marks)}")
    return sum(MARKS.index(_MARK_OF[m]) * 3**i for i, m in enumerate(text))


def code_to_marks(code: int, length: int = 5) -> str:
    """Return the mark string of a feedback code."""
    out = []
    for _ in range(length):
        code, mark = divmod(code, 3)
        out.append(MARKS[mark])
    return "".join(out)


def feedback(answer: str, guess: str) -> str:
    """Return the marks of `guess` against `answer`, e.g. feedback("crane", "abuse") == "YRRRG"."""
    answer, guess = check_word(answer, len(answer)), check_word(guess, len(answer))
    rule = make_rule(len(answer))
    code = rule(np.array(encode_word(guess), np.int32), np.array(encode_word(answer), np.int32))
    return code_to_marks(code, len(answer))


def hard_mode_requirements(word: str, marks: str) -> tuple[dict[int, str], dict[str, int]]:
    """Return what hard mode asks of every later guess after `word` scored `marks` (G/Y/R): the
    green letters by position (0-based), and each letter marked G or Y with how many times it was
    so marked (a later guess must hold it at least that often). The one statement of the rule:
    `hard_mode_allows` and `hard_mode_mask` read it; the exact search's narrowing is tested against it."""
    word, marks = word.upper(), marks.upper()
    greens = {i: letter for i, (letter, mark) in enumerate(zip(word, marks)) if mark == "G"}
    needed: dict[str, int] = {}
    for letter, mark in zip(word, marks):
        if mark in "GY":
            needed[letter] = needed.get(letter, 0) + 1
    return greens, needed


def hard_mode_allows(history: Sequence[tuple[str, str]], guess: str) -> str | None:
    """Return None if `guess` obeys hard mode after `history` of (word, marks), else the reason."""
    guess = guess.upper()
    for word, marks in history:
        greens, needed = hard_mode_requirements(word, marks)
        for i, letter in greens.items():
            if guess[i] != letter:
                return f"letter {i + 1} must be {letter}"
        for letter in sorted(needed):
            if guess.count(letter) < needed[letter]:
                return f"guess must contain {letter}" + (f" {needed[letter]} times" if needed[letter] > 1 else "")
    return None


@lru_cache(maxsize=8)
def _letter_counts(game: Game) -> np.ndarray:
    n = game.rows.shape[1] - 2
    counts = np.zeros((game.n_guesses, 26), dtype=np.int8)
    for i in range(n):
        np.add.at(counts, (np.arange(game.n_guesses), game.rows[:, i]), 1)
    return counts


def hard_mode_mask(game: Game, history: Sequence[tuple[int, int]]) -> np.ndarray:
    """Return a bool mask over the game's guess rows: those hard mode allows after `history` of
    (guess row, code)."""
    n = game.rows.shape[1] - 2
    counts = _letter_counts(game)
    allowed = np.ones(game.n_guesses, dtype=bool)
    for guess, code in history:
        greens, needed = hard_mode_requirements(game.labels[guess], code_to_marks(code, n))
        for i, letter in greens.items():
            allowed &= game.rows[:, i] == ord(letter) - ord("A")
        for letter, count in needed.items():
            allowed &= counts[:, ord(letter) - ord("A")] >= count
    return allowed


def _list_hash(answers: Sequence[str], guesses: Sequence[str]) -> str:
    return hashlib.sha256(("\n".join(answers) + "|" + "\n".join(guesses)).encode()).hexdigest()[:10]


def game(hard: bool = False, answers: Sequence[str] | None = None, guesses: Sequence[str] | None = None,
         answers_only: bool = False, size: int | None = None, lists: str = "original",
         all_words: bool = False) -> Game:
    """Return Wordle on the built-in lists of `size`-letter words (4 to 9; default 5: the original
    lists), or on the user's lists (any case and order; of `size` letters when given, else of the
    first word's length, at most 10).

    `all_words`: every acceptable word of the built-in lists is a possible answer (12972x12972;
    variants "normal-all-words", "hard-all-words"), as with `guesses` but no `answers`.
    `answers_only` restricts the guesses to the built-in answers (variant "answers-only", 2315x2315,
    for players who only guess possible answers); it takes neither `hard` nor word lists.
    `lists="nyt"`: the NYT's lists instead of the original ones (3158 answers, 14855 guesses).
    Variants: "normal", "hard", "answers-only", followed by the size when it is not 5 ("hard6"), or
    "-nyt" ("hard-nyt"), or "-all-words"; the user's lists: "-" and a hash of them. The lists are checked by
    `solver.games.wordlists.word_lists`, as every entry point's are: WordListError (a ValueError)
    naming the list and the word otherwise.
    """
    for flag, value in (("hard", hard), ("answers_only", answers_only), ("all_words", all_words)):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{flag} must be True or False, got {excerpt(value)}")
    answers, guesses = word_tuple(answers, "answer list"), word_tuple(guesses, "guess list")
    try:
        hash((answers, guesses, size, lists))
    except TypeError:  # a word (or an argument) that is no string: the checks name it
        check_lists(lists)
        if answers is None and guesses is None:
            check_length(size)
        else:
            word_lists(answers, guesses, size)
        raise
    return _game(bool(hard), answers, guesses, bool(answers_only), size, lists, bool(all_words))


@lru_cache(maxsize=8)
def _game(hard: bool, answers: tuple | None, guesses: tuple | None, answers_only: bool, size: int | None,
          lists: str, all_words: bool) -> Game:
    call = (hard, answers, guesses, answers_only, size, lists, all_words)  # what a pickle holds (Game.made_by)
    if all_words and (answers_only or answers is not None or guesses is not None or lists != "original"):
        raise ValueError("all_words takes the built-in lists: no word lists, answers-only or NYT lists")
    if answers_only and (hard or answers is not None or guesses is not None):
        raise ValueError("the answers-only variant takes neither hard mode nor word lists")
    mode = "answers-only" if answers_only else "hard" if hard else "normal"
    if check_lists(lists) == "nyt":
        if answers_only or answers is not None or guesses is not None or size not in (None, DEFAULT_LENGTH):
            raise ValueError("the NYT lists are lists of their own: no --answers, --guesses, --size or answers-only")
        return _make(hard, nyt_answers(), nyt_guesses(), f"{mode}-nyt",
                     f"{_title(mode, 5, None)} (NYT lists)").made_by(game, *call)
    builtin = answers is None and guesses is None
    if builtin or answers_only:
        size = check_length(DEFAULT_LENGTH if size is None else size)
        answers, guesses = builtin_answers(size), builtin_answers(size) if answers_only else builtin_guesses(size)
        if all_words:
            answers = guesses
    else:
        answers, guesses = word_lists(answers, guesses, size)
    length = len(guesses[0])
    # every built-in word a possible answer, asked for or given as lists: one variant, with its tree
    every_word = (not answers_only and length in WORD_LENGTHS and answers == guesses
                  and (builtin or guesses == builtin_guesses(length)))
    if every_word:
        variant = f"{mode}{'' if length == DEFAULT_LENGTH else length}-all-words"
    elif builtin:
        variant = mode if length == DEFAULT_LENGTH else f"{mode}{length}"
    else:
        variant = f"{mode}-{_list_hash(answers, guesses)}"
    return _make(hard, answers, guesses, variant,
                 _title(mode, length, None if builtin and not every_word else (len(answers), len(guesses)))
                 ).made_by(game, *call)


def _make(hard: bool, answers: tuple[str, ...], guesses: tuple[str, ...], variant: str, title: str) -> Game:
    """Return the Game of Wordle on these lists (answers within guesses, both sorted)."""
    length = len(guesses[0])
    position = {word: i for i, word in enumerate(guesses)}
    return Game(
        name="wordle",
        variant=variant,
        rows=encode_words(guesses),
        labels=guesses,
        target_index=np.array([position[w] for w in answers], dtype=np.int64),
        n_codes=3**length,
        rule=make_rule(length),
        win_code=3**length - 1,
        decode=lambda code: code_to_marks(code, length),
        encode=lambda marks: marks_to_code(marks, length),
        rules_source=inspect.getsource(make_rule) + f"length={length}",
        allowed=hard_mode_mask if hard else None,
        feedback_help=f"{length} " + FEEDBACK_HELP,
        title=title,
        max_guesses=MAX_GUESSES,
    )


def _title(mode: str, length: int, sizes: tuple[int, int] | None) -> str:
    """Return the name users see: "wordle", "wordle hard", "wordle (6 letters)", "wordle (your lists: ...)"."""
    text = "wordle" if mode == "normal" else f"wordle {mode}"
    details = [] if length == 5 else [f"{length} letters"]
    if sizes is not None:
        answers, guesses = sizes
        details.append("every acceptable word a possible answer" if answers == guesses
                       else f"your lists: {answers} answers, {guesses} guesses")
    return f"{text} ({', '.join(details)})" if details else text


def initial_guess(hard: bool = False, answers: Sequence[str] | None = None,
                  guesses: Sequence[str] | None = None, answers_only: bool = False,
                  size: int | None = None, lists: str = "original", all_words: bool = False) -> tuple[str, State]:
    """Return (first guess, state); the built-in lists use the tree (when built), user lists compute live.

    `answers`/`guesses` are word lists (any case) of 1- to 10-letter words (of `size` letters when it
    is given, else of the first word's length); with `guesses` alone every acceptable word is a
    possible answer. `answers_only`: only the built-in answers may be guessed (see `game`). Without
    lists, `size` 4 to 9 picks the built-in lists of that word length (default 5). `lists="nyt"`: the
    NYT's lists (3158 answers, 14855 guesses) instead of the original ones. `all_words`: every
    acceptable word of the built-in lists may be the answer (variants "normal-all-words", ...).
    """
    if answers is None and guesses is None:
        size = check_length(DEFAULT_LENGTH if size is None else size)
    text, state = get_solver(game(hard, answers, guesses, answers_only, size, lists, all_words)).initial_guess()
    return text, state


def next_guess(previous: tuple[str, State], marks: str) -> tuple[str, State]:
    """Return (next guess, new state) after `previous` = (guess, state) received `marks` ("GYRRR")."""
    return next_from(previous, marks, _guess_text, str, "wordle")


def _guess_text(guess: str) -> str:
    if not isinstance(guess, str):
        raise ValueError(f"wordle guess must be a word (a string), got {excerpt(guess)}")
    return guess.upper()
