"""The `wordle` program's records: the statistics of the games played, and the state file that keeps them."""
from __future__ import annotations

import errno
import gc
import json
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from sys import intern
from typing import Callable, Iterable, Iterator

from solver.core.bounded_input import STATE_LIMIT, InputFileError, excerpt, read_text, size_text
from solver.wordle_program.rounds import MAX_GUESSES, MultiRound, Round, WordleError

TOP_WORDS = 5  # the most used guesses the statistics show

# ----------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class Statistics:
    """Won and lost games, mean guesses of the won games, the most used guesses, and what the
    original game shows: win streaks and the guess distribution."""

    won: int
    lost: int
    average: float
    top: tuple[tuple[str, int], ...]
    current_streak: int = 0  # games won since the last loss
    max_streak: int = 0  # the longest run of games won in a row
    distribution: tuple[int, ...] = (0,) * MAX_GUESSES  # games won in 1, 2, ..., 6 guesses
    last_won_in: int | None = None  # guesses of the last game if it was won in at most 6, else None

    @property
    def played(self) -> int:
        """Return the number of games played."""
        return self.won + self.lost

    @property
    def win_percent(self) -> int:
        """Return the share of games won in percent, rounded half up as the original game does (0 if none)."""
        return (200 * self.won + self.played) // (2 * self.played) if self.played else 0

    def lines(self) -> tuple[str, str]:
        """Return the two test-mode lines: "WON LOST AVG" and "WORD COUNT WORD COUNT ..."."""
        return (
            f"{self.won} {self.lost} {self.average:.2f}",
            " ".join(f"{word} {count}" for word, count in self.top),
        )


def game_won(game: dict) -> bool:
    """True if a recorded game's last guess is its answer (games from a state file may lack keys);
    for a game on several boards ("answers"), if every answer is among its guesses."""
    guesses = game.get("guesses") or []
    answers = game.get("answers")
    if answers:
        played = {word.upper() for word in guesses}
        return all(answer.upper() in played for answer in answers)
    answer = game.get("answer")
    return bool(guesses) and answer is not None and guesses[-1].upper() == answer.upper()


def compute_stats(games: Iterable[dict]) -> Statistics:
    """Return the statistics of recorded games (dicts with optional "answer" and "guesses"), in
    the order played: streaks and the distribution come from the games themselves, so a state
    file (old ones too) carries them without keys of its own. A won game of more than 6 guesses
    (only a hand-edited file has one) counts for the streaks but has no row in the distribution."""
    won = lost = won_guesses = streak = max_streak = 0
    distribution = [0] * MAX_GUESSES
    last_won_in = None
    counts: Counter[str] = Counter()
    for game in games:
        guesses = [word.upper() for word in game.get("guesses") or []]
        counts.update(guesses)
        if game_won(game):
            won += 1
            won_guesses += len(guesses)
            streak += 1
            if streak > max_streak:
                max_streak = streak
            last_won_in = len(guesses) if len(guesses) <= MAX_GUESSES else None
            if last_won_in is not None:
                distribution[last_won_in - 1] += 1
        else:
            lost += 1
            streak = 0
            last_won_in = None
    top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:TOP_WORDS]
    return Statistics(won, lost, won_guesses / won if won else 0.0, tuple(top), streak, max_streak,
                 tuple(distribution), last_won_in)


# ----------------------------------------------------------------------------- state file


@dataclass
class Records:
    """The state file: games played so far (as stored, unchecked) and their count."""

    total_rounds: int = 0
    games: list[dict] = field(default_factory=list)

    def record(self, game: Round | MultiRound) -> None:
        self.games.append(game.to_record())
        self.total_rounds += 1

    def to_json(self) -> str:
        """Return the state file's text: compact JSON (no indentation), one line and a newline; ASCII
        (the other characters escaped), so its length is its size in bytes."""
        return json.dumps({"total_rounds": self.total_rounds, "games": self.games}, separators=(",", ":")) + "\n"

    def file_text(self, name: str = "state file") -> str:
        """Return `to_json`, or WordleError if that is larger than a state file may be (STATE_LIMIT,
        64 MB, what `load_state` reads): a file the next run would refuse is never written."""
        text = self.to_json()
        if len(text) > STATE_LIMIT:
            raise WordleError(f"{name} would be {len(text):,} bytes with this game, more than the "
                              f"{size_text(STATE_LIMIT)} a state file may be (the most the program reads back): "
                              f"not written; move it aside to start a new one")
        return text


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block (as it was after it).

    Parsing a large state file builds millions of objects and no reference cycles: the collector
    would run over and over for nothing (it made loading a million games several times slower).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_json_object(text: str, name: str, object_hook: Callable[[dict], dict] | None = None) -> dict:
    """Return the JSON object in `text`; WordleError naming `name` if it is not valid JSON or not an object.

    Nesting too deep for the parser is invalid JSON too.
    """
    try:
        with gc_paused():
            data = json.loads(text, object_hook=object_hook)
    except ValueError as err:
        raise WordleError(f"{name} is not valid JSON: {err}") from None
    except RecursionError:
        raise WordleError(f"{name} is not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise WordleError(f"{name}: expected a JSON object")
    return data


_ABSENT = object()


def _game_words() -> tuple[Callable[[dict], dict], list]:
    """Return (hook, malformed): a JSON object hook for the state file, and what it noticed.

    The hook makes the equal words of games one string object (`sys.intern`): a long history
    repeats the same few thousand words millions of times, and sharing them while parsing nearly
    halves a large state file's memory, at its peak while loading too. It notes in `malformed`
    any object whose "answer" is not a string or whose "guesses" (or "answers", the answers of a
    game on several boards) is not a list of strings, so that `parse_state` looks for the first
    bad game only when there may be one.
    """
    malformed: list = []

    def intern_words(obj: dict, key: str) -> None:
        words = obj.get(key, _ABSENT)
        if words.__class__ is list:
            try:
                words[:] = map(intern, words)
            except TypeError:  # not all strings: left unchanged
                malformed.append(True)
        elif words is not _ABSENT:
            malformed.append(True)

    def hook(obj: dict) -> dict:
        intern_words(obj, "guesses")
        answer = obj.get("answer", _ABSENT)
        if answer.__class__ is str:
            obj["answer"] = intern(answer)
        elif answer is not _ABSENT:
            malformed.append(True)
        intern_words(obj, "answers")
        return obj

    return hook, malformed


def parse_state(text: str, name: str = "state file") -> Records:
    """Return the records in JSON `text`; WordleError if it is not JSON of the state file's shape.

    Every key is optional; the words are not checked. A missing total_rounds counts the games.
    A game on several boards has "answers" (a list of strings) instead of "answer".
    """
    hook, malformed = _game_words()
    with gc_paused():
        data = parse_json_object(text, name, hook)
        games = data.get("games", [])
        if not isinstance(games, list):
            raise WordleError(f'{name}: "games" must be a list')
        well_formed = not malformed and set(map(type, games)) <= {dict}  # every object went through the hook
        for number, game in enumerate([] if well_formed else games, start=1):
            if not isinstance(game, dict):
                raise WordleError(f"{name}: game {number} must be an object")
            if "answer" in game and not isinstance(game["answer"], str):
                raise WordleError(f'{name}: game {number}: "answer" must be a string')
            guesses = game.get("guesses", [])
            if not isinstance(guesses, list) or not all(isinstance(word, str) for word in guesses):
                raise WordleError(f'{name}: game {number}: "guesses" must be a list of strings')
            answers = game.get("answers", [])
            if not isinstance(answers, list) or not all(isinstance(word, str) for word in answers):
                raise WordleError(f'{name}: game {number}: "answers" must be a list of strings')
    if _SURROGATE.search(text):  # a JSON escape of half a UTF-16 pair: maybe a string that is not text
        _check_text(games, name)
    total = data.get("total_rounds", len(games))
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise WordleError(f'{name}: "total_rounds" must be a non-negative integer')
    return Records(total, games)


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # \uD800 to \uDFFF (read_text refused raw ones: not UTF-8)


def _check_text(games: list, name: str) -> None:
    """Raise WordleError naming the first word of `games` holding a lone surrogate (an escape such as
    \\ud800 without its pair): not text, which no output could print."""
    for number, game in enumerate(games, start=1):
        for key in ("answer", "guesses", "answers"):
            words = game.get(key, [])
            for word in [words] if isinstance(words, str) else words:
                try:
                    word.encode("utf-8")
                except UnicodeEncodeError:
                    raise WordleError(f'{name}: game {number}: "{key}" holds {excerpt(word)}, which is not text '
                                      f"(a lone UTF-16 surrogate)") from None


def load_state(path: str | Path) -> Records:
    """Return the state saved in `path`, or empty records if the file does not exist.

    The file must be a regular file of at most 64 MB (`solver.core.bounded_input.STATE_LIMIT`, about a
    million games); WordleError otherwise.
    """
    try:
        text = read_text(path, STATE_LIMIT, "state file")
    except InputFileError as err:
        if err.errno in (errno.ENOENT, errno.ENOTDIR):  # no such file (yet)
            return Records()
        raise WordleError(str(err)) from None
    return parse_state(text.removeprefix("\ufeff"), f"state file {path}")  # a byte-order mark an editor may add
