"""The generic runtime solver: look the state up in the precomputed tree, else compute live.

`Solver(game)` opens the game's tree artifact lazily on first use (as its opener book: each once, under a
lock, and published whole; threads arriving meanwhile wait for it). While a game follows the tree,
`next_guess` is a dictionary lookup (no Numba, no scoring). When it leaves the tree (the player
guessed something else, or the artifact is missing, stale or corrupt, or the word lists are the
user's own), the solver filters the candidates by the history and plays (`Solver.guess_row`) the
opener book's guess where the book has the state (an unproven entry only when the live search finds
no smaller total), else the exact search's within the budget
(`solver.core.search.live`, with `live="exact"`), else the greedy rule of the pipeline
(`solver.core.strategy.choose_live`), compiling the kernels lazily. The budget (`Solver.budget`, in
seconds) sizes the work of the live choice (the same on every machine: a state's live guess does not
change with the machine's load); the wall clock stops it only at `strategy.safety_seconds(budget)`
(SAFETY_FACTOR times the budget, at least SAFETY_MIN_SECONDS: a safety net), so that a live guess
never hangs, even at the root of cards n=4. It logs why at info level, except for a tree file that
exists but cannot be used (unreadable, stale, failing its checksum or its checks): that is a WARNING
naming the file, once per process and file (`Solver.tree_error`); and a whole game of a built-in
variant played without its tree file (missing) is a WARNING once per process and variant.

States are immutable: `next_guess` returns a new `State` and never changes the one it is given.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from cachetools import LRUCache

from solver.core import strategy
from solver.core.bounded_input import excerpt
from solver.core.finish import finish_guesses, within_limit_pick
from solver.core.search.live import VALUES, ExactChoice, ExactLive, check_running
from solver.core.game import Game, is_integer
from solver.core.registry import build_command, registered

log = logging.getLogger(__name__)
_WARNED: set[str] = set()  # the unusable-tree warnings given in this process
_WARNED_MISSING: set[str] = set()  # the variants warned of playing whole games without their tree file


class InconsistentFeedbackError(ValueError):
    """No remaining candidate could have given this feedback; the message names the history."""


class OffTreeError(KeyError):
    """A history that the precomputed tree does not contain."""


class Tree:
    """A decision tree artifact in memory: per-node arrays and a (node, code) -> child index (sorted
    keys searched by bisection: a dict of the cards n4 tree's 277k nodes took 30 MB)."""

    def __init__(self, game: Game, folder=None):
        from solver.core import artifacts  # defers pyarrow to the first tree lookup

        table, self.metadata = artifacts.read(artifacts.TREE, game, folder)
        self.n_codes = game.n_codes
        self.guess = table.column("guess").to_numpy()
        self.remaining = table.column("remaining").to_numpy()
        self.subtree = table.column("subtree_guesses").to_numpy()
        self.depth = table.column("depth").to_numpy()
        parent = table.column("parent").to_numpy().astype(np.int64)
        self.feedback = table.column("feedback").to_numpy().astype(np.int64)  # the code leading to each node (-1: root)
        keys = (parent * self.n_codes + self.feedback)[1:]
        order = np.argsort(keys, kind="stable")
        self._keys, self._child = keys[order], order + 1
        self.parent = parent
        meta = self.metadata
        built_proving = "-prove-" in str(meta.get("strategy", ""))  # built by the exact search's proof
        # what is proven (`artifacts` metadata, `pipeline.campaign.apply`): the first guess optimal
        # (proven "game"); the subtree of each root class in `proven_classes` optimal. A tree without these
        # fields (an older file): proven throughout when built in prove mode, else nowhere
        if "proven_classes" in meta:  # the first guess: proven here, or by a published optimum the build checked
            self.root_proven = meta.get("proven") == "game" or (meta.get("proven") == "opener"
                                                                 and meta.get("game_optimum") == "published")
            text = meta["proven_classes"].strip()
            self._proven_codes = None if text == "all" else {int(code) for code in text.split()}
        else:
            self.root_proven = built_proving
            self._proven_codes = None if built_proving else set()
        # every node's subtree proven optimal (the first guess included)
        self.proven = self.root_proven and self._proven_codes is None
        self.label = artifacts.proof_label(meta, game.labels[int(self.guess[0])] if self.guess.size else None)

    def exact(self, node: int) -> bool:
        """Return whether the guess at `node` is proven optimal there (within the game's guess limit)."""
        if node == 0:
            return self.root_proven
        return self._proven_codes is None or int(self.feedback[self._root_class(node)]) in self._proven_codes

    def value_proven(self, node: int) -> bool:
        """Return whether the tree's value at `node` (its subtree's total) is the least possible with the node's
        guess: the node's guess proven optimal, or the root of a tree proven for its first guess."""
        if node == 0:
            return self.root_proven or self._proven_codes is None
        return self.exact(node)

    def _root_class(self, node: int) -> int:
        while self.depth[node] > 1:
            node = int(self.parent[node])
        return node

    def child(self, node: int, code: int) -> int | None:
        """Return the child of `node` reached by feedback `code`, or None."""
        key = node * self.n_codes + code
        at = int(np.searchsorted(self._keys, key))
        return int(self._child[at]) if at < self._keys.size and self._keys[at] == key else None

    def probe_node(self, history) -> int:
        """Return the node reached by `history` of (guess row, code); OffTreeError if it leaves the tree."""
        node = 0
        for guess, code in history:
            nxt = self.child(node, code) if self.guess[node] == guess else None
            if nxt is None:
                raise OffTreeError(f"history leaves the tree at depth {self.depth[node]}")
            node = nxt
        return node

    def get_node(self, history, default: int | None = None) -> int | None:
        """Return the node reached by `history`, or `default` if it leaves the tree."""
        try:
            return self.probe_node(history)
        except OffTreeError:
            return default


@dataclass(frozen=True, eq=False)
class State:
    """What the guesser knows: the history so far, and where it stands in the tree (if on it)."""

    solver: "Solver"
    history: tuple[tuple[int, int], ...] = ()
    node: int | None = 0  # tree node whose guess is proposed; None when off the tree
    _live: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def candidate_positions(self) -> np.ndarray:
        """Return the positions (in the game's target list) of the targets still possible."""
        return self.solver.filter(self.history)

    @property
    def candidates(self) -> tuple[str, ...]:
        """Return the text of every target still consistent with the history."""
        labels, index = self.solver.game.labels, self.solver.game.target_index
        return tuple(labels[index[p]] for p in self.candidate_positions)

    @property
    def remaining(self) -> int:
        """Return how many targets are still possible (O(1) on the tree)."""
        if self.node is not None:
            return int(self.solver.tree.remaining[self.node])
        return int(self.candidate_positions.size)

    @property
    def live_choice(self) -> strategy.LiveChoice | None:
        """Return how this state's guess was chosen live (guesses scored, seconds), or None if it
        was not (on the tree, or not asked yet)."""
        return self._live.get("choice")

    @property
    def exact_choice(self) -> ExactChoice | None:
        """Return the exact search's choice of this state's guess (proven, or top-k's), or None when
        it was not made (on the tree, not asked yet, or the search did not finish in the budget)."""
        return self._live.get("exact")

    @property
    def source(self) -> str:
        """Return where the proposed guess comes from: "tree", "book" (the opener book, computed ahead),
        "live" (computed now: `exact` says whether proven) or "rule" (one or two candidates: play one). Asks
        for the guess."""
        self.solver.guess_row(self)
        if self.node is not None and self.solver.tree is not None:
            return "tree"
        if self.remaining <= 2:
            return "rule"
        return self._live.get("source", "live")

    @property
    def exact(self) -> bool:
        """Return True when the proposed guess is proven optimal (within the game's guess limit): on a
        tree where its node is proven (`Tree.exact`: the tree's metadata), or chosen off the tree by a finished
        proof. Asks for the guess."""
        self.solver.guess_row(self)
        if self.node is not None and self.solver.tree is not None:
            return self.solver.tree.exact(self.node)
        if self.remaining <= 2:  # one of them played: the least possible
            return True
        choice = self.exact_choice
        return choice is not None and choice.exact

    @property
    def value(self) -> float | None:
        """Return the expected guesses from here, the proposed one included (over equally likely
        candidates): the tree's, or the exact search's (proven when `exact`, else the total of the
        top-k strategy found); None for a greedy live guess, whose play-out is not computed here."""
        if self.remaining <= 2:
            return 1.0 if self.remaining == 1 else 1.5
        self.solver.guess_row(self)
        tree = self.solver.tree
        if self.node is not None and tree is not None:
            return float(tree.subtree[self.node]) / float(tree.remaining[self.node])
        choice = self.exact_choice
        return None if choice is None else choice.expected

    @property
    def identified(self) -> bool:
        """Return True once a single target is left (even before it is guessed)."""
        return self.remaining == 1

    def history_text(self) -> str:
        """Return the history as "GUESS=FEEDBACK, ..." for messages."""
        return _history_text(self.solver.game, self.history)

    def __repr__(self) -> str:
        """Return the state as people read it: "<State of wordle: SALET=RYRGR; 7 candidates left; guess
        from the tree>" (the guess's source once chosen; the repr chooses nothing)."""
        game = self.solver.game
        history = ", ".join(f"{game.labels[g]}={_feedback_text(game, c)}" for g, c in self.history) or "no guess yet"
        tree = self.solver.tree if self.node is not None else None
        if tree is not None:
            remaining, source = int(tree.remaining[self.node]), "tree"
        else:
            known = self.__dict__.get("candidate_positions")
            remaining = game.n_targets if known is None and not self.history else int(self.candidate_positions.size)
            source = "rule" if remaining <= 2 else self._live.get("source")
        if self.history and self.history[-1][1] == game.win_code:
            source = "solved"
        where = {"tree": "guess from the tree", "book": "guess from the opener book", "live": "guess computed live",
                 "rule": "guess: one of the candidates left", "solved": "solved",
                 None: "guess not chosen yet"}.get(source, f"guess: {source}")
        left = f"{remaining} candidate{'' if remaining == 1 else 's'} left"
        return f"<State of {game.title}: {history}; {left}; {where}>"

    def __reduce__(self):
        # States pickle (a web worker, a Dask task): the solver by its game and settings, the history,
        # and what was computed off the tree (its candidates, its live choice); a state on the tree
        # finds its node again in the receiving process's tree (or goes off the tree without one).
        positions = self.__dict__.get("candidate_positions") if self.node is None else None
        return _state_of, (self.solver, self.history, self.node is not None, positions, dict(self._live))


def _feedback_text(game: Game, code: int) -> str:
    """Return a feedback code as players write it: Wordle's marks "RYRGR", fields "(0,1,0)", or a generic
    game's score as its text."""
    value = game.decode(code)
    return "(" + ",".join(map(str, value)) + ")" if isinstance(value, tuple) else str(value)


def _history_text(game: Game, history) -> str:
    return ", ".join(f"{game.labels[g]}={game.decode(c)}" for g, c in history) or "(none)"


LIVE_MODES = ("exact", "greedy")
# candidates narrowed by the rule in Python (about 4 us a target) while the Numba kernels are not loaded:
# loading them takes 0.2-0.3 s, which a command on the tree (a review, a hint's candidates) need not pay;
# once loaded, or past 8 times this, the kernel narrows
PYTHON_NARROW = 512


class Solver:
    """Plays one game variant from its tree artifact, with live computation off the tree."""

    def __init__(self, game: Game, use_tree: bool = True, folder: str | os.PathLike | None = None,
                 budget: float = strategy.LIVE_BUDGET, live: str = "exact", memo: int = VALUES,
                 use_book: bool = True):
        if not isinstance(game, Game):
            raise ValueError(f"Solver plays a solver.Game, not {excerpt(game)}")
        if not isinstance(use_tree, (bool, np.bool_)):
            raise ValueError(f"use_tree must be True or False, got {excerpt(use_tree)}")
        if folder is not None and not isinstance(folder, (str, os.PathLike)):
            raise ValueError(f"folder must be a path (a string or a Path) or None, got {excerpt(folder)}")
        if not isinstance(budget, (int, float, np.integer, np.floating)) or isinstance(budget, (bool, np.bool_)) \
                or not budget >= 0:
            raise ValueError(f"budget must be a number of seconds, 0 or more (math.inf: no limit), "
                             f"got {excerpt(budget)}")
        if not isinstance(live, str) or live not in LIVE_MODES:
            raise ValueError(f"live mode is {' or '.join(LIVE_MODES)}, not {excerpt(live)}")
        if not is_integer(memo) or memo < 0:
            raise ValueError(f"memo must be a number of states, 0 or more, got {excerpt(memo)}")
        if not isinstance(use_book, (bool, np.bool_)):
            raise ValueError(f"use_book must be True or False, got {excerpt(use_book)}")
        folder = None if folder is None else Path(folder)
        use_tree, budget, memo = bool(use_tree), float(budget), int(memo)
        self.game = game
        self.budget = budget  # seconds of work a live guess may take (math.inf: no limit, and exact means proven)
        self.live = live  # "exact": greedy, then the exact search, each with the budget's work; "greedy"
        # `memo`: state choices kept (LRU); F(k) of the look-ahead fitted to this solver's tree
        self.exact_live = ExactLive(game, memo, finish=self._finish)
        # off-tree choices by state (`choose_off_tree`): faster answers, never different ones
        self._choices: LRUCache = LRUCache(maxsize=max(memo, 1))
        self._choices_lock = threading.Lock()
        self._use_tree = use_tree
        self._folder = folder
        # the artifacts loaded on first use (`tree`, `book`): None until then, each published whole, once,
        # by the thread that loads it under its lock (threads arriving meanwhile wait, then read it)
        self._tree: Tree | None | bool = None if use_tree else False  # False: no usable tree
        self._tree_error: str | None = None  # set before `_tree` is published
        self._tree_lock = threading.Lock()
        self._use_book = bool(use_book)
        # (book, its content checksum): ({}, "") without one
        self._book: tuple[dict, str] | None = None if use_tree and use_book else ({}, "")
        self._book_lock = threading.Lock()

    def _finish(self, sizes: np.ndarray) -> np.ndarray:
        """Return F(k) for the set sizes k (`solver.core.finish`), fitted to this solver's tree if it has one."""
        return finish_guesses(self.game.n_codes, sizes, self.tree)

    @property
    def folder(self) -> Path | None:
        """Return the folder the solver reads its artifacts from (None: the usual search, `artifacts.search_dirs`)."""
        return self._folder

    def settings(self) -> tuple:
        """Return (use_tree, folder, budget, live, memo, use_book): what a copy of this solver is made with."""
        return self._use_tree, self._folder, self.budget, self.live, self.exact_live.memo, self._use_book

    def __reduce__(self):
        # a pickle holds the game (its factory call, Game.made_by) and the settings, not the tree or
        # the searchers: the receiving process loads them again (its shared solver, if alike)
        return _solver_of, (self.game, self.settings())

    @property
    def tree(self) -> Tree | None:
        """Return the loaded tree, loading it on first use (once: other threads wait for it); None if
        there is no usable tree."""
        tree = self._tree
        if tree is None:
            with self._tree_lock:
                tree = self._tree
                if tree is None:
                    tree = self._tree = self._load_tree()  # published whole, its `tree_error` first
        return tree or None

    @property
    def tree_error(self) -> str | None:
        """Return why the tree file is unusable (loading the tree first if need be); None when the tree
        is loaded, absent or unwanted."""
        self.tree  # noqa: B018 - loads it: the reason is known once the file was read
        return self._tree_error

    def _load_tree(self) -> Tree | bool:
        """Read the tree file: the Tree, or False when there is no usable one (logged; `_tree_error` set)."""
        from solver.core import artifacts  # defers pyarrow to the first tree lookup

        try:
            return Tree(self.game, self._folder)
        except artifacts.MissingTableError as err:
            log.info("no tree file for %s (%s): computing live", self.game.title, err)
        except artifacts.ArtifactError as err:
            self._tree_error = problem = " ".join(str(err).split())
            if problem not in _WARNED:  # once per process and file (and problem)
                _WARNED.add(problem)
                log.warning("no usable tree for %s, computing live: %s", self.game.title, problem)
        return False

    # -- the public protocol ------------------------------------------------------------------
    def initial_guess(self) -> tuple[str, State]:
        """Return (first guess text, initial state)."""
        tree = self.tree
        state = State(self, (), 0 if tree is not None else None)
        return self.game.labels[self.guess_row(state)], state

    def next_guess(self, guess: str, state: State, feedback: Any) -> tuple[str, State]:
        """Return (next guess text, new state) after `guess` received `feedback` (game's format)."""
        game = self.game
        try:
            row = game.index_of(guess)
        except KeyError:
            raise ValueError(f"{guess!r} is not an allowed guess of {game.title}") from None
        code = game.encode(feedback)
        new = self.advance(state, row, code)
        return game.labels[self.guess_row(new)], new

    # -- mechanics ------------------------------------------------------------------------------
    def advance(self, state: State, row: int, code: int) -> State:
        """Return the state after guess `row` got feedback `code`; InconsistentFeedbackError if impossible."""
        history = state.history + ((row, code),)
        tree = self.tree
        if code == self.game.win_code:
            return self._solved_state(state, history, row)
        if state.node is not None and tree is not None:
            if tree.guess[state.node] == row:
                child = tree.child(state.node, code)
                if child is None:
                    self._inconsistent(state, row, code)
                return State(self, history, child)
            log.info("%s: guess %s leaves the tree: computing live", self.game.title, self.game.labels[row])
        new = State(self, history, None)
        positions = self.narrow(state.candidate_positions, row, code)
        if positions.size == 0:
            self._inconsistent(state, row, code)
        new.__dict__["candidate_positions"] = positions  # fills the cached property
        return new

    def _solved_state(self, state: State, history, row: int) -> State:
        positions = np.flatnonzero(self.game.target_index == row)
        tree = self.tree
        sure = (state.node is not None and tree is not None and tree.remaining[state.node] == 1
                and tree.guess[state.node] == row)
        if positions.size == 0:
            raise InconsistentFeedbackError(f"{self.game.labels[row]} is not one of the {self.game.n_targets} answers "
                                            f"of {self.game.title}")
        if not (sure or positions[0] in state.candidate_positions):
            self._inconsistent(state, row, self.game.win_code)
        solved = State(self, history, None)
        solved.__dict__["candidate_positions"] = positions  # fills the cached property: no filtering
        return solved

    def _inconsistent(self, state: State, row: int, code: int) -> None:
        game = self.game
        raise InconsistentFeedbackError(
            f"no {game.name} target gives {game.labels[row]}={game.decode(code)} "
            f"{'after ' + state.history_text() if state.history else 'at the start'}")

    @property
    def book(self) -> dict[tuple[int, int], tuple[int, int, int, bool, int]]:
        """Return the opener book {(opener row, code): (guess row, candidates, total, proven, lower bound)}
        (`solver.core.artifacts.read_book`), loaded on first use (once: other threads wait for it); {}
        without a usable one (logged)."""
        return self._loaded_book()[0]

    @property
    def book_sha256(self) -> str:
        """Return the content checksum of the opener book `book` holds, loading it if need be ("": none)."""
        return self._loaded_book()[1]

    def _loaded_book(self) -> tuple[dict, str]:
        loaded = self._book
        if loaded is None:
            with self._book_lock:
                loaded = self._book
                if loaded is None:
                    loaded = self._book = self._read_book()  # the book and its checksum, published together
        return loaded

    def _read_book(self) -> tuple[dict, str]:
        """Read the opener book file: (book, its content checksum), or ({}, "") without a usable one (logged)."""
        from solver.core import artifacts  # defers pyarrow to the first book lookup

        try:
            book, meta = artifacts.read_book(self.game, self._folder)
            return book, meta.get("content_sha256", "")
        except artifacts.MissingTableError:
            log.info("no opener book for %s", self.game.title)
        except artifacts.ArtifactError as err:
            problem = " ".join(str(err).split())
            if problem not in _WARNED:
                _WARNED.add(problem)
                log.warning("opener book of %s not used: %s", self.game.title, problem)
        return {}, ""

    def book_choice(self, state: State) -> ExactChoice | None:
        """Return the opener book's choice of an off-tree state one guess into the game (its value proven,
        or a top-k strategy's), or None when the book does not cover it (or with the greedy live mode)."""
        return self.book_lookup(state.history)

    def book_lookup(self, history) -> ExactChoice | None:
        """Return the opener book's choice after `history` when it is one guess long and the book covers it
        (with the exact live mode), else None."""
        if len(history) != 1 or self.live != "exact":
            return None
        found = self.book.get(tuple(int(x) for x in history[0]))
        if found is None:
            return None
        guess, candidates, total, proven, _ = found
        return ExactChoice(guess, total, candidates, proven, 0.0)

    def guess_row(self, state: State) -> int:
        """Return the guess row to play in `state`: the tree's, else the opener book's (an unproven entry only
        when the live search finds no smaller total), else the exact search's within the budget
        (`solver.core.search.live`; with `live="exact"`), else the greedy rule's."""
        tree = self.tree
        if state.node is not None and tree is not None:
            return int(tree.guess[state.node])
        if "choice" not in state._live:
            if not state.history:
                self._warn_whole_game_live()
            choice, exact, source = self.choose_state(state.candidate_positions, state.history)
            state._live["choice"], state._live["exact"], state._live["source"] = choice, exact, source
        exact = state._live["exact"]
        return exact.guess if exact is not None else state._live["choice"].guess

    def choose_state(self, positions: np.ndarray, history) -> tuple[strategy.LiveChoice | None, ExactChoice | None,
                                                                      str]:
        """Return (the greedy choice, the exact choice, the source) of the guess played in an off-tree state
        with these candidate positions after `history`: one guess into the game the opener book's, "book" (an
        unproven entry only when the live search finds no smaller total, then that, "live"), else
        `choose_off_tree`'s, "live". What `guess_row` plays, for a state or a strategy played out (`walk`)."""
        booked = self.book_lookup(history)
        if booked is not None and not booked.exact:  # the book's best found, not proven: the live search may beat it
            _, exact = self.choose_off_tree(positions, history)
            if exact is not None and exact.total < booked.total:
                return None, exact, "live"
        if booked is not None:
            return None, booked, "book"
        choice, exact = self.choose_off_tree(positions, history)
        return choice, exact, "live"

    def choose_off_tree(self, positions: np.ndarray, history) -> tuple[strategy.LiveChoice | None,
                                                                         ExactChoice | None]:
        """Return (the greedy choice, the exact search's choice) of an off-tree state with these
        candidate positions after `history`, within the budget; the guess is the exact one when
        there is one. Each stage does the work of the budget from scratch, so the pair is a function
        of the state and the budget, the same in any order of calls, in any process and under any
        load; a pair is kept (LRU) only to answer sooner. The wall clock, `strategy.safety_seconds(budget)`
        for the whole choice, is a safety net: a pair it cut short is not kept."""
        key = self.exact_live.state_key(positions, history) + (self.live, self.budget)
        with self._choices_lock:
            kept = self._choices.get(key)  # marks it the most recently used
        if kept is not None:
            return kept
        check_running()  # no new live work once the process stops or the caller's work is cancelled
        choice = strategy.choose_live(self.game, positions, history, self.budget)
        if not choice.complete:
            log.info("%s: live guess after %s chosen among %d of %d guesses (budget %.3g s%s)", self.game.title,
                     _history_text(self.game, history), choice.scored, choice.pool, self.budget,
                     ", stopped by the clock: it may differ between runs" if choice.clocked else "")
        exact, cut = None, choice.clocked
        if self.live == "exact":
            left = max(strategy.safety_seconds(self.budget) - choice.seconds, 0.0)  # the safety net's
            exact, clocked = self.exact_live.choose_checked(positions, history, self.budget, seconds=left)
            cut = cut or clocked
        left = None if self.game.max_guesses is None else self.game.max_guesses - len(history)
        if exact is None and left is not None and left <= 2 and positions.size > 1:
            # no strategy known to finish every candidate within the limit: lose the fewest
            targets = self.game.target_index[positions]
            choice = replace(choice, guess=within_limit_pick(self.game, strategy.allowed_guesses(self.game, history),
                                                             targets, left))
        if not cut and self.exact_live.memo:
            with self._choices_lock:
                self._choices[key] = (choice, exact)
        return choice, exact

    def _warn_whole_game_live(self) -> None:
        """Log a WARNING, once per process and variant, that a built-in variant has no tree file."""

        game = self.game
        built_in = registered(game) is not None  # the user's own word lists have no tree
        missing = self._use_tree and self.tree is None and self.tree_error is None
        if missing and built_in and game.key not in _WARNED_MISSING:
            _WARNED_MISSING.add(game.key)
            log.warning("no tree file for %s: whole games are computed live (up to %.3g s a guess, and "
                        "some guesses worse than the tree's); run `%s`", game.title, self.budget,
                        build_command(game.name, game.variant))

    def filter(self, history) -> np.ndarray:
        """Return the target positions consistent with every (guess row, code) of `history`."""
        positions = np.arange(self.game.n_targets, dtype=np.int64)
        for row, code in history:
            positions = self.narrow(positions, row, code)
        return positions

    def narrow(self, positions: np.ndarray, row: int, code: int) -> np.ndarray:
        """Return the target positions among `positions` for which guess `row` gives `code`."""
        game = self.game
        if positions.size > PYTHON_NARROW and (positions.size > 8 * PYTHON_NARROW
                                               or "solver.core.scoring" in sys.modules):
            from solver.core import scoring  # defers Numba to the live path

            codes = scoring.feedback_table(game, [row], game.target_index[positions])[0]
        else:
            codes = np.array([game.code(row, game.target_index[p]) for p in positions], dtype=np.int64)
        return positions[codes == code]


def _solver_of(game: Game, settings: tuple) -> Solver:
    """Return a solver of `game` with these settings (Solver.settings) after unpickling: the shared
    one (`get_solver`) when it has them, else a new one."""
    shared = get_solver(game)
    return shared if shared.settings() == settings else Solver(game, *settings)


def _state_of(solver: Solver, history: tuple, on_tree: bool, positions: np.ndarray | None, live: dict) -> State:
    """Return a State after unpickling: on the tree of this process when the history is on it."""
    tree = solver.tree if on_tree else None
    state = State(solver, history, tree.get_node(history) if tree is not None else None)
    if positions is not None:
        state.__dict__["candidate_positions"] = positions
    state._live.update(live)
    return state


SOLVER_CACHE_SIZE = 16  # the built-in variants in use plus the 8 games of wordle.game's cache
_SOLVERS: LRUCache[int, Solver] = LRUCache(maxsize=SOLVER_CACHE_SIZE)  # id(game) -> solver
_SOLVERS_LOCK = threading.Lock()


def get_solver(game: Game) -> Solver:
    """Return the shared Solver of a game variant (its tree is loaded once while it stays cached).

    The SOLVER_CACHE_SIZE most recently used solvers are kept, no more: a solver holds its game,
    so an unbounded cache would keep every game ever played (every custom word list) alive.
    """
    key = id(game)
    with _SOLVERS_LOCK:
        solver = _SOLVERS.get(key)  # marks it the most recently used
        if solver is None or solver.game is not game:
            solver = _SOLVERS[key] = Solver(game)  # cheap: the tree loads on first use
    return solver


def next_from(previous, feedback, to_label, from_label, name: str | None = None):
    """Return (next guess, new state) for a game module's `next_guess((guess, state), feedback)`.

    `to_label` turns the module's guess value into guess text (ValueError if it is not a guess);
    `from_label` the reverse. `name`: the module's game, which the state must be of.
    """
    try:
        guess, state = previous
    except (TypeError, ValueError):
        raise ValueError(f"next_guess takes (guess, state) as its first argument, got {excerpt(previous)}") from None
    if not isinstance(state, State):
        raise ValueError(f"not a solver state: {excerpt(state)}")
    game = state.solver.game
    if name is not None and game.name != name:
        raise ValueError(f"the state is of a {game.name} game, not {name}")
    label = to_label(guess)
    try:
        game.index_of(label)
    except (KeyError, TypeError):
        raise ValueError(f"{excerpt(guess)} is not an allowed guess of {game.title}") from None
    label, new = state.solver.next_guess(label, state, feedback)
    return from_label(label), new
