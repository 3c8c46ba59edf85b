"""Battleship search game: ships hidden on a grid, guesses report how close each shot landed.

Default board: 4 rows x 8 columns (columns A-H, rows 1-4), 3 ships at distinct locations, so 4960
targets; a guess is any 3 distinct locations. Feedback ``(exact, one_away, two_away)`` counts each
guessed location once, at its Chebyshev distance (0, 1 or 2) to the nearest ship; farther shots
are not counted. Board size and ship count are parameters of `game`.

Encoded row of a guess or target (what `rule` reads): ``[col_0..col_k-1, row_0..row_k-1]``.
Feedback code: ``exact*(k+1)**2 + one_away*(k+1) + two_away``.
"""
from __future__ import annotations

import inspect
import re
from functools import lru_cache, partial
from itertools import combinations, product
from typing import NamedTuple, Sequence

import numpy as np

from solver.core.bounded_input import excerpt
from solver.core.runtime import State, get_solver, next_from
from solver.core.game import Game, check_feedback, digits, is_integer, mixed_radix, sequence_items, unique_tokens
from solver.core.symmetry import canonical_from_points, subset_permutations
from solver.games import FEEDBACK_NOTATION

COLUMNS = "ABCDEFGH"
ROWS = 4
SHIPS = 3


FEEDBACK_HELP = FEEDBACK_NOTATION["battleship"]


class Location(NamedTuple):
    """A grid cell: 0-based column (A=0) and 0-based row (1=0)."""

    col: int
    row: int

    def __str__(self) -> str:
        return from_location(self)

    __repr__ = __str__  # as people write it, in lists too


def to_location(text: str) -> Location | None:
    """Return the Location of text like "A1" (column A-H, row 1-4), or None if it is not one."""
    if not isinstance(text, str) or len(text) != 2:
        return None
    col, row = COLUMNS.find(text[0]), "1234".find(text[1])
    if col < 0 or row < 0:
        return None
    return Location(col, row)


LOCATION_TEXT = re.compile(r"([A-H])([1-9][0-9]*)")


def _text_location(text: str) -> Location | None:
    """Return the Location of text like "A1" or "c12" on a board of any size (column A-H, row 1 or
    more), or None if it is not one."""
    found = LOCATION_TEXT.fullmatch(text.strip().upper()) if len(text) <= 8 else None
    return None if found is None else Location(COLUMNS.index(found[1]), int(found[2]) - 1)


def from_location(loc: Location) -> str:
    """Return the text of a location, e.g. "A1"."""
    return f"{COLUMNS[loc.col]}{loc.row + 1}"


def parse_locations(texts: Sequence[str], count: int = SHIPS) -> list[Location]:
    """Return `count` distinct locations parsed from `texts`; ValueError names a bad token."""
    locations = []
    for text in texts:
        loc = to_location(text)
        if loc is None:
            raise ValueError(f"not a location (column A-H then row 1-4): {excerpt(text)}")
        locations.append(loc)
    unique_tokens([from_location(loc) for loc in locations], count, "location")
    return locations


@lru_cache(maxsize=None)
def make_rule(k: int):
    """Return the rule for `k` ships (a closure: Numba compiles `k` as a constant)."""

    def rule(guess: np.ndarray, target: np.ndarray) -> int:
        """Return the feedback code of one guess row against one target row (Numba-compatible)."""
        exact = 0
        one = 0
        two = 0
        for i in range(k):
            nearest = 99
            for j in range(k):
                dc = abs(guess[i] - target[j])
                dr = abs(guess[k + i] - target[k + j])
                d = dc if dc > dr else dr
                if d < nearest:
                    nearest = d
            if nearest == 0:
                exact += 1
            elif nearest == 1:
                one += 1
            elif nearest == 2:
                two += 1
        return (exact * (k + 1) + one) * (k + 1) + two

    return rule


def _row(locations: Sequence[Location]) -> list[int]:
    ordered = sorted(locations, key=lambda loc: (loc.col, loc.row))
    return [loc.col for loc in ordered] + [loc.row for loc in ordered]


def label(locations: Sequence[Location]) -> str:
    """Return the canonical text of a set of locations: sorted, space separated ("A1 B2 C3")."""
    return " ".join(from_location(loc) for loc in sorted(locations, key=lambda place: (place.col, place.row)))


@lru_cache(maxsize=None)
def board_permutations(ships: int = SHIPS, cols: int = len(COLUMNS), rows: int = ROWS) -> np.ndarray:
    """Return int32[G, targets]: the row of each set of locations under each symmetry of the board.

    The symmetries are the mirrors (left-right, top-bottom, both; G = 4), and on a square board also
    the transpositions and rotations (G = 8): they keep every Chebyshev distance, so the feedback.
    """
    return subset_permutations(_cells(ships, cols, rows), board_images(cols, rows))


@lru_cache(maxsize=None)
def board_images(cols: int = len(COLUMNS), rows: int = ROWS) -> np.ndarray:
    """Return int64[G, cells]: the image of each cell (number col * rows + row) under each symmetry of the board."""
    col, row = np.divmod(np.arange(cols * rows), rows)  # cell number: col * rows + row, as in `game`
    images = []
    for flip_col, flip_row, transpose in product((False, True), (False, True), (False, rows == cols)):
        c, r = (cols - 1 - col if flip_col else col), (rows - 1 - row if flip_row else row)
        c, r = (r, c) if transpose else (c, r)
        images.append(c * rows + r)
    images = np.array(images, dtype=np.int64)
    images.setflags(write=False)
    return images


def _cells(ships: int, cols: int, rows: int) -> np.ndarray:
    """Return int64[targets, ships]: the cells of each set of locations, ascending (the rows' order)."""
    cells = game(ships, cols, rows).rows.astype(np.int64)
    return cells[:, :ships] * rows + cells[:, ships:]


MAX_TARGETS = 300_000  # sets of ship locations a board may have: about the largest built-in game (cards n4, 270725)


def _too_many_sets(cells: int, ships: int) -> bool:
    """Return whether there are more than MAX_TARGETS sets of `ships` cells among `cells`."""
    count = 1
    for i in range(min(ships, cells - ships)):  # C(cells, i + 1), growing: stops as soon as it is too many
        count = count * (cells - i) // (i + 1)
        if count > MAX_TARGETS:
            return True
    return False


def game(ships: int = SHIPS, cols: int = len(COLUMNS), rows: int = ROWS) -> Game:
    """Return the battleship variant with `ships` ships on a `rows` x `cols` board.

    ValueError naming the option unless: 1 to 8 columns (A-H), 1 row or more, 1 ship or more, no more
    ships than cells, and at most MAX_TARGETS sets of ship locations.
    """
    for option, value, least in (("ships", ships, 1), ("cols", cols, 1), ("rows", rows, 1)):
        if not is_integer(value) or value < least:
            raise ValueError(f"battleship {option} must be an integer, {least} or more, got {excerpt(value)}")
    if cols > len(COLUMNS):
        raise ValueError(f"battleship cols must be 1 to {len(COLUMNS)} (columns A-{COLUMNS[-1]}), got {cols}")
    if ships > cols * rows:
        raise ValueError(f"battleship ships must be at most the board's {cols * rows} cells "
                         f"(cols={cols} x rows={rows}), got ships={ships}")
    if _too_many_sets(cols * rows, ships):
        raise ValueError(f"battleship board too large: ships={ships} on cols={cols} x rows={rows} give more "
                         f"than {MAX_TARGETS} sets of ship locations")
    return _game(int(ships), int(cols), int(rows))


@lru_cache(maxsize=None)
def _game(ships: int, cols: int, rows: int) -> Game:
    """Return the battleship variant of a board `game` checked."""
    cells = [Location(c, r) for c in range(cols) for r in range(rows)]
    triples = list(combinations(cells, ships))
    base = ships + 1
    return Game(
        name="battleship",
        variant="default" if (ships, cols, rows) == (SHIPS, len(COLUMNS), ROWS) else f"s{ships}-{cols}x{rows}",
        rows=np.array([_row(t) for t in triples], dtype=np.int32),
        labels=tuple(label(t) for t in triples),
        target_index=np.arange(len(triples), dtype=np.int64),
        n_codes=base**3,
        rule=make_rule(ships),
        win_code=mixed_radix((ships, 0, 0), base),
        decode=lambda code: digits(code, base, 3),
        encode=lambda fb: mixed_radix(check_feedback(fb, 3, ships, "battleship"), base),
        rules_source=inspect.getsource(make_rule) + f"k={ships}",
        canonical=canonical_from_points(partial(_cells, ships, cols, rows), partial(board_images, cols, rows),
                                        partial(board_permutations, ships, cols, rows)),
        feedback_help=FEEDBACK_HELP,
    ).made_by(game, ships, cols, rows)


MAX_LOCATIONS = 64  # more locations than any board's ships: a longer value is not a guess


def check_locations(value: Sequence[Location | str] | str, what: str = "guess") -> list[Location]:
    """Return the distinct Locations of `value`: a sequence of locations, each a (column, row) pair of
    integers or location text ("A1"), or one text of them ("A1 B2 C3").

    ValueError naming the bad value or location otherwise (column 0-7 for A-H, row 0 or more; text:
    column A-H then row 1 or more, any case; mappings and sets are not sequences here).
    """
    text = isinstance(value, str) and len(value) <= 16 * MAX_LOCATIONS  # a longer text is not a guess: not split
    items = tuple(value.replace(",", " ").split()) if text else sequence_items(value, MAX_LOCATIONS)
    if items is None or not items or len(items) > MAX_LOCATIONS:
        raise ValueError(f"battleship {what} must be a sequence of locations, (column, row) pairs or text like "
                         f"\"A1\", got {excerpt(value)}")
    locations = []
    for item in items:
        if isinstance(item, str):
            loc = _text_location(item)
            if loc is None:
                raise ValueError(f"battleship {what}: not a location (column A-H then row 1 or more): {excerpt(item)}")
            locations.append(loc)
            continue
        pair = sequence_items(item, 2)
        if (pair is None or len(pair) != 2 or not all(is_integer(v) for v in pair)
                or not (0 <= pair[0] < len(COLUMNS) and pair[1] >= 0)):
            raise ValueError(f"battleship {what}: not a location, a (column 0-{len(COLUMNS) - 1}, row 0 or more) "
                             f"pair of integers or text like \"A1\": {excerpt(item)}")
        locations.append(Location(int(pair[0]), int(pair[1])))
    unique_tokens([from_location(loc) for loc in locations], None, "location")
    return locations


def feedback(target: Sequence[Location | str] | str, guess: Sequence[Location | str] | str) -> tuple[int, int, int]:
    """Return (exact, one_away, two_away) for `guess` against the ships of `target`; each is a sequence of
    locations, (column, row) pairs or text ("A1"), or one text ("A1 B2 C3")."""
    target, guess = check_locations(target, "target"), check_locations(guess)
    if len(target) != len(guess):
        raise ValueError(f"target has {len(target)} locations but guess has {len(guess)}")
    g = np.array(_row(guess), dtype=np.int32)
    t = np.array(_row(target), dtype=np.int32)
    return digits(int(make_rule(len(guess))(g, t)), len(guess) + 1, 3)


def _guess_label(guess: Sequence[Location | str] | str) -> str:
    return label(check_locations(guess))


def _guess_value(text: str) -> list[Location]:
    return [_text_location(token) for token in text.split()]


def initial_guess(ships: int = SHIPS, cols: int = len(COLUMNS), rows: int = ROWS) -> tuple[list[Location], State]:
    """Return (first guess, state) for the board `game(ships, cols, rows)` (default: 3 ships on 8 x 4),
    from its precomputed tree (computed live without one)."""
    text, state = get_solver(game(ships, cols, rows)).initial_guess()
    return _guess_value(text), state


def next_guess(previous: tuple[Sequence[Location | str] | str, State],
               feedback: tuple[int, int, int]) -> tuple[list[Location], State]:
    """Return (next guess, new state) after `previous` = (guess, state) received `feedback`; the guess
    as `initial_guess` returned it, or as (column, row) pairs or location text ("A1 B2 C3")."""
    return next_from(previous, feedback, _guess_label, _guess_value, "battleship")
