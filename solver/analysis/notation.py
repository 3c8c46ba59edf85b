"""Command-line text of every game: choosing the game, parsing guesses, answers and feedback.

Guesses use each game's canonical text, case-insensitive: battleship "A1 A3 H1", cards "2C AS",
wordle "CRANE", mastermind "1122", bulls "0123". Tokens of battleship and cards guesses may be
separated by spaces, '-' or '+' ("A1-A3-H1", "2C+AS"), which keeps a guess in one argument.
Feedback: wordle marks like "GYRRR" (G green, Y yellow, R grey; any case; also the digits 2/1/0, B, X,
"." or "-" for grey, and pasted emoji squares: `wordle.MARK_SPELLINGS`); the other games
comma-separated integers with optional parentheses: "0,1,0" or "(0,1,0)".
A step is "GUESS=FEEDBACK" (typed while coached, also "GUESS FEEDBACK" or a bare GUESS: `parse_entry`); a
path is steps separated by ',' or ';' ("A1-A3-H1=0,1,0,B2-C3-D4=1,0,0": a guess never contains a comma, so
the split is unambiguous).

Every parser returns guess rows and feedback codes of the `Game`, or raises ValueError with a
one-line message naming the bad text.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from solver.core.bounded_input import excerpt
from solver.core.game import Game
from solver.core.registry import VARIANTS, UnknownGameError, UsageError, get_game
from solver.games import battleship, bulls, cards, mastermind, wordle
from solver.games.boards import guesses_allowed
from solver.games.wordle import hard_mode_allows
from solver.games.wordlists import LISTS, check_word, read_word_list

GAME_NAMES = ("battleship", "cards", "wordle", "mastermind", "bulls")
MULTI_TOKEN = ("battleship", "cards")  # games whose guesses are several tokens
ALL_WORDS = "-all-words"  # the suffix of Wordle's variants where every acceptable word may be the answer
_SEPARATORS = re.compile(r"[\s+\-]+")
T = TypeVar("T")  # the feedback `parse_entry` reads: one code, or one per board


def select_game(name: str, variant: str | None = None, hard: bool = False, answers: Path | None = None,
                guesses: Path | None = None, every_word: bool = False, size: int = 5, lists: str = "original") -> Game:
    """Return the game variant chosen on the command line.

    `hard`, `answers`, `guesses` (word list files), `every_word` and `size` apply to Wordle only.
    `every_word` (`--all-words`) makes every acceptable word a possible answer (the specification's mode);
    Wordle's "answers-only" variant takes neither hard mode nor word lists, and ignores `every_word`
    (its guesses are the answers, so the answers are its only possible targets). `size` (`--size`,
    4 to 9) is the word length: the built-in lists of that length, or the length of the list files.
    `lists` (`--lists`): "original" or "nyt" (the NYT's lists: variants "normal-nyt", "hard-nyt").
    """
    if name != "wordle" and (hard or answers or guesses or every_word or size != 5 or lists != "original"):
        raise UsageError("--hard, --answers, --guesses, --all-words, --size and --lists apply to wordle only")
    if name != "wordle":
        return get_game(name, variant)
    if lists not in LISTS:
        raise UsageError(f"--lists is {' or '.join(LISTS)}, not {excerpt(lists)}")
    if lists == "nyt":
        if answers or guesses or every_word or size != 5 or variant not in (None, "normal", "hard", "normal-nyt",
                                                                              "hard-nyt"):
            raise UsageError("--lists nyt takes none of --answers, --guesses, --all-words, --size, "
                             "--variant answers-only")
        return get_game("wordle", ("hard" if hard or variant in ("hard", "hard-nyt") else "normal") + "-nyt")
    if variant is not None and variant.endswith(ALL_WORDS) and variant in VARIANTS["wordle"]:
        every_word, variant = True, variant.removesuffix(ALL_WORDS)  # "hard-all-words": --hard --all-words
    if hard:
        if variant not in (None, "hard"):
            raise UsageError(f"--hard contradicts --variant {variant}")
        variant = "hard"
    if variant is not None and variant not in VARIANTS["wordle"]:
        raise UnknownGameError(f"unknown variant {excerpt(variant)} of wordle: "
                               f"choose from {', '.join(VARIANTS['wordle'])}")

    if variant == "answers-only":
        if answers or guesses:
            raise UsageError("--answers and --guesses do not apply to --variant answers-only")
        return get_game("wordle", variant) if size == 5 else wordle.game(answers_only=True, size=size)
    if not (answers or guesses or every_word):
        return get_game("wordle", (variant or "normal") + ("" if size == 5 else str(size)))

    if not (answers or guesses):  # every_word on the built-in lists: its own variant, with its tree
        if size == 5 and variant != "hard":
            return get_game("wordle", "normal" + ALL_WORDS)
        return wordle.game(variant == "hard", size=size, all_words=True)
    answer_list = read_word_list(answers, size) if answers else None
    guess_list = read_word_list(guesses, size) if guesses else None
    return wordle.game(variant == "hard", answer_list, guess_list, size=size)


def tokens(text: str) -> list[str]:
    """Return the tokens of a battleship or cards guess: split on spaces, '-' and '+'."""
    return [token for token in _SEPARATORS.split(text.strip()) if token]


def _size(game: Game) -> int:
    """Return the number of tokens (ships, cards) or characters (pegs, digits, letters) of a guess."""
    first = game.labels[0]
    return len(first.split()) if game.name in MULTI_TOKEN else len(first)


def canonical(game: Game, parts: Sequence[str]) -> str:
    """Return the canonical text of a guess given as tokens; ValueError naming a malformed one."""
    if game.name == "battleship":
        return battleship.label(battleship.parse_locations([p.upper() for p in parts], _size(game)))
    if game.name == "cards":
        return cards.label(cards.parse_cards([p.upper() for p in parts], _size(game)))
    if len(parts) != 1:
        raise ValueError(f"a {game.name} guess is one word, got {excerpt(' '.join(parts))}")
    text = parts[0]
    if game.name == "wordle":
        return check_word(text, _size(game))
    if game.name == "mastermind":
        return mastermind.parse_code(text, _size(game), int(game.rows.max()) + 1)
    if game.name == "bulls":
        return bulls.parse_code(text, _size(game))
    return text


def parse_guess(game: Game, text: str) -> int:
    """Return the guess row of guess text; ValueError if malformed or not an allowed guess."""
    label = canonical(game, tokens(text) if game.name in MULTI_TOKEN else [text.strip()])
    try:
        return game.index_of(label)
    except KeyError:
        what = f"one of the {game.n_guesses} acceptable guesses" if game.name == "wordle" else "an allowed guess"
        raise ValueError(f"{label} is not {what} of {game.title}") from None


def parse_answer(game: Game, parts: Sequence[str]) -> int:
    """Return the guess row of an answer given as command-line arguments; it must be a target."""
    if game.name not in MULTI_TOKEN and len(parts) != 1:
        raise ValueError(f"a {game.name} answer is one word, got {excerpt(' '.join(parts))}")
    row = parse_guess(game, " ".join(parts))
    if row not in game.target_index:
        raise ValueError(not_an_answer(game, row))
    return row


def not_an_answer(game: Game, row: int) -> str:
    """Return why guess `row` cannot be the answer: "AAHED is not one of the 2315 answers of wordle",
    and, on Wordle's built-in lists, that `--all-words` (the every-word variant) allows any acceptable word."""
    text = f"{game.labels[row]} is not one of the {game.n_targets} answers of {game.title}"
    if game.name == "wordle" and re.fullmatch(r"(normal|hard)\d?", game.variant):
        text += ": --all-words (the every-word variant) allows any acceptable word"
    return text


def answer_variant(name: str, parts: Sequence[str]) -> str | None:
    """Return the cards variant implied by an answer's number of cards (None for other games)."""
    if name != "cards":
        return None
    count = sum(len(tokens(part)) for part in parts)
    if not 1 <= count <= 4:
        raise ValueError(f"expected 1 to 4 cards, got {count}")
    return f"n{count}"


def parse_feedback(game: Game, text: str) -> int:
    """Return the feedback code of feedback text; ValueError if it has the wrong shape."""
    text = text.strip()
    if game.name == "wordle":
        return game.encode(text.upper())
    inner = text[1:-1] if text.startswith("(") and text.endswith(")") else text
    fields = [f for f in re.split(r"[,\s]+", inner.strip()) if f]
    if not fields or not all(f.isdigit() and f.isascii() for f in fields):
        raise ValueError(f"{game.name} feedback must be integers like {show_feedback(game, game.win_code)}, "
                         f"got {excerpt(text)}")
    return game.encode(tuple(int(f) for f in fields))


def show_feedback(game: Game, code: int) -> str:
    """Return the text of a feedback code: "(0,1,0)" or wordle marks "GYRRR"."""
    value = game.decode(code)
    return value if isinstance(value, str) else "(" + ",".join(str(v) for v in value) + ")"


def parse_step(game: Game, text: str) -> tuple[int, int]:
    """Return (guess row, code) of "GUESS=FEEDBACK"; UsageError when the text is not of that form (a guess
    without its feedback: the same kind of mistake as `deduce review`'s bare guesses without --answer),
    ValueError when the game refuses the guess or the feedback."""
    guess, sep, feedback = text.partition("=")
    if not sep or "=" in feedback or not guess.strip() or not feedback.strip():
        raise UsageError(f"expected GUESS=FEEDBACK, got {excerpt(text)}")
    row, code = parse_guess(game, guess), parse_feedback(game, feedback)
    check_win(game, row, code)
    return row, code


def parse_entry(game: Game, text: str, parse_rest: Callable[[str], T] | None = None) -> tuple[int | None, T | None]:
    """Return (guess row or None, feedback or None) of a line a player types while being coached:
    FEEDBACK (for the proposed guess: row None), GUESS=FEEDBACK or GUESS FEEDBACK (another guess was
    played), or a bare GUESS (feedback None: ask for it). `parse_rest` reads the feedback (default:
    one board's, `parse_feedback`); ValueError, saying what was expected, when none of these fits."""
    read = parse_rest or (lambda rest: parse_feedback(game, rest))
    if "=" in text:
        guess, _, rest = text.partition("=")
        if not guess.strip() or not rest.strip():
            raise ValueError(f"expected GUESS=FEEDBACK, got {excerpt(text)}")
        return parse_guess(game, guess), read(rest)
    try:
        return None, read(text)
    except ValueError as err:
        first = err
    words = text.split()
    wrong_guess = None  # a reason the guess part is refused where the rest read as feedback
    for cut in range(1, len(words)):  # multi-token guesses (cards, ships) take several words
        try:
            feedback = read(" ".join(words[cut:]))
        except ValueError:
            continue
        try:
            return parse_guess(game, " ".join(words[:cut])), feedback
        except ValueError as err:
            wrong_guess = wrong_guess or err
    try:
        return parse_guess(game, text), None
    except ValueError:
        raise (wrong_guess or first) from None


def check_win(game: Game, row: int, code: int) -> None:
    """Raise ValueError (`not_an_answer`) if `code` says that guess `row` won but it cannot be the answer."""
    if code == game.win_code and row not in game.target_index:
        raise ValueError(not_an_answer(game, row))


def parse_path(game: Game, text: str) -> list[tuple[int, int]]:
    """Return the steps of "GUESS=FEEDBACK,GUESS=FEEDBACK" (',' or ';' between steps); UsageError when the
    text is not of that form, ValueError when the game refuses a guess or a feedback (`parse_step`)."""
    pieces = text.strip().strip(",;").split("=")
    if len(pieces) < 2:
        raise UsageError(f"expected GUESS=FEEDBACK,GUESS=FEEDBACK..., got {excerpt(text)}")
    steps, guess = [], pieces[0]
    for piece in pieces[1:-1]:
        cut = max(piece.rfind(","), piece.rfind(";"))
        if cut < 0:
            raise UsageError(f"expected ',' or ';' between steps in {excerpt(text)}")
        steps.append(parse_step(game, f"{guess}={piece[:cut]}"))
        guess = piece[cut + 1:]
    steps.append(parse_step(game, f"{guess}={pieces[-1]}"))
    return steps


def guess_limit(game: Game, boards: int = 1) -> int | None:
    """Return the most guesses a game of `boards` boards allows (Wordle: 6; several boards:
    `solver.games.boards.guesses_allowed`), or None for a game without a limit."""
    if game.max_guesses is None:
        return None
    return game.max_guesses if boards == 1 else guesses_allowed(boards)


class GuessLimitError(UsageError):
    """More guesses than the game allows: the game was lost before the last of them, or no guess is left."""


def check_guess_limit(game: Game, guesses: int, boards: int = 1) -> None:
    """Raise GuessLimitError when a game of `guesses` guesses is longer than the game allows (games without
    a limit: never)."""
    limit = guess_limit(game, boards)
    if limit is not None and guesses > limit:
        played = f"{boards} boards allow" if boards > 1 else f"{game.title} allows"
        raise GuessLimitError(f"{played} {limit} guesses, got {guesses}: the game is lost after guess {limit}")


def check_guess_left(game: Game, steps: int, boards: int = 1, won: bool = False) -> None:
    """Raise GuessLimitError when no guess is left to advise after a history of `steps` guesses: it holds
    the game's every guess (or more) and did not end in a win (`won`: its last guess solved the last board
    unsolved). Games without a limit: never."""
    limit = guess_limit(game, boards)
    if limit is not None and steps >= limit and not (won and steps == limit):
        played = f"{boards} boards allow" if boards > 1 else f"{game.title} allows"
        raise GuessLimitError(f"{played} {limit} guesses and this history has {steps}: no guess is left to advise")


def check_allowed(game: Game, history: Sequence[tuple[int, int]], row: int) -> None:
    """Raise ValueError if the game's rules (Wordle hard mode) forbid guess `row` after `history`."""
    if game.allowed is None or not history or game.allowed(game, history)[row]:
        return
    reason = "it breaks the rules"
    if game.name == "wordle":
        reason = hard_mode_allows([(game.labels[g], game.decode(c)) for g, c in history], game.labels[row]) or reason
    raise ValueError(f"hard mode forbids {game.labels[row]}: {reason}")


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """Return "1 candidate", "2 candidates" (`nouns`: an irregular plural)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def show_guess(game: Game, row: int, symbols: bool = False) -> str:
    """Return guess `row` as players write it (`show_label`)."""
    return show_label(game, game.labels[row], symbols)


def show_label(game: Game, label: str, symbols: bool = False) -> str:
    """Return a guess's label as players write it: the label, but a hand of cards by rank ("2D AC"),
    with suit symbols when `symbols` ("2♦ A♣": for a terminal that can show them)."""
    return cards.hand_text(label, symbols) if game.name == "cards" else label


def can_show_symbols(stream) -> bool:
    """Return whether `stream` is a terminal whose encoding has the suit symbols (UTF-8)."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    return bool(getattr(stream, "isatty", lambda: False)()) and encoding in ("utf8", "utf_8")


def label_list(game: Game, labels: Sequence[str]) -> str:
    """Return guess texts joined for display: ", " between multi-token guesses, else spaces."""
    return (", " if game.name in MULTI_TOKEN else " ").join(labels)


def history_text(game: Game, history: Sequence[tuple[int, int]]) -> str:
    """Return a history as "GUESS=FEEDBACK, ..." ("(none)" when empty)."""
    return ", ".join(f"{game.labels[g]}={show_feedback(game, c)}" for g, c in history) or "(none)"
