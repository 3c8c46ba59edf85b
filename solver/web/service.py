"""What the endpoints answer, computed by the analysis layer (`solver.analysis`) over the runtime solver.

Every function takes plain values (the request's fields) and returns plain dicts in the shapes of
`models`, or raises `FieldError` naming the request field at fault. Results are pure functions of
(game, variant, history), memoised here: states, explanations, rankings, tree views and reviews (the server
holds no per-user state, so any worker can answer any request); `api` memoises whole answers.
"""
from __future__ import annotations

import logging
import random
import re
import threading
from datetime import date
from functools import lru_cache
from typing import Any, Sequence

from solver.analysis import notation
from solver.analysis.several_boards import check_boards
from solver.analysis.several_boards import play as boards_play
from solver.analysis.daily import EPOCH
from solver.analysis.daily import daily as daily_of
from solver.analysis import values
from solver.analysis.explain import Explanation, explain_state, group_sizes
from solver.analysis.notation import check_allowed, check_guess_left, check_guess_limit, parse_answer, select_game
from solver.analysis.review import BoardsReview, Review, review_boards
from solver.analysis.review import review as compute_review
from solver.analysis.scores import ranking, stored_ranking
from solver.analysis.values import ToGo
from solver.analysis.walk import NodeArrays, PlayOutTooLarge, play_out, replay, start_state
from solver.core import artifacts
from solver.core.runtime import Solver, get_solver
from solver.core.game import Game
from solver.core.registry import ON_REQUEST, VARIANTS, all_variants, default_variant, get_game, on_request
from solver.core.strategy import LIVE_BUDGET
from solver.games.boards import SOLVED, Boards, check_distinct, greedy_order, guesses_allowed
from solver.games.wordle import code_to_marks, hard_mode_allows

STATES = 512  # memoised solver states (each holds its candidate positions)
RESULTS = 1024  # memoised explanations, rankings, tree views, subtree figures (each)
LIVE_SECONDS = LIVE_BUDGET  # what a live guess may take (the solvers' budget): the live pool's first price
BOARDS_BUDGET = LIVE_BUDGET  # seconds of work of a guess for several boards (`boards_choice`)
# candidate pairs (|A| x |B|) of two open boards whose look-ahead is a second of work: measured on two cores
# (44 x 133: 0.9 s; 113 x 113: 2.0 s; 221 x 221, after SALET=RRRRR on both: 5 s; its time grows about as the pairs)
LOOK_AHEAD_PAIRS = 10_000
LIGHT_SOLVERS = 16  # solvers of a budget below the solvers' own kept (`light_solver`): the live pool's shrunk budgets

Key = tuple[str, str]  # (game, variant)
Steps = tuple[tuple[int, int], ...]  # (guess row, feedback code) per history step
_GAMES_LOCK = threading.Lock()  # the games list is built once (seconds: cards n4 has 270725 hands)
log = logging.getLogger(__name__)


class FieldError(ValueError):
    """A request field the game refuses: answered 422 naming `field`."""

    def __init__(self, field: str | None, message: str, status: int = 422):
        super().__init__(" ".join(str(message).split()))
        self.field, self.status = field, status


class _StepError(ValueError):
    """A history step the game refuses: `part` is "guess", "feedback" or "" (the step itself)."""

    def __init__(self, index: int, part: str, message: str):
        super().__init__(message)
        self.index, self.part = index, part


# -- games --------------------------------------------------------------------------------------
def resolve(name: str, variant: str | None) -> Key:
    """Return the (game, variant) key, the variant defaulted; FieldError for an unknown one."""
    if name not in VARIANTS:
        raise FieldError("game", f"unknown game: choose from {', '.join(VARIANTS)}")
    if variant is None:
        return name, default_variant(name)
    if variant not in VARIANTS[name] and variant not in ON_REQUEST.get(name, {}):
        more = f" (other word lengths: {', '.join(ON_REQUEST[name])})" if name in ON_REQUEST else ""
        raise FieldError("variant", f"unknown variant of {name}: choose from {', '.join(VARIANTS[name])}{more}")
    return name, variant


@lru_cache(maxsize=None)
def game_of(key: Key) -> Game:
    """Return the game variant of a key (built once); Wordle's other word lengths ("normal6") too."""
    return get_game(*key) if on_request(*key) else select_game(*key)


def solver_of(key: Key):
    return get_solver(game_of(key))


@lru_cache(maxsize=LIGHT_SOLVERS)
def light_solver(key: Key, budget: float) -> Solver:
    """Return a solver of the variant with a budget below the shared one's (a live pool under load shrinks the
    budgets): it plays off the tree only (no tree of its own loaded) and keeps no choices; the opener book
    still answers."""
    return Solver(game_of(key), use_tree=False, budget=budget, memo=0)


def feedback_out(game: Game, code: int) -> str | list[int]:
    """Return a feedback code as the API gives it: Wordle marks "GYRRR", else a list of ints."""
    value = game.decode(code)
    return value if isinstance(value, str) else [int(v) for v in value]


def feedback_info(game: Game) -> dict[str, Any]:
    """Return the feedback format of a game: marks, or named integer fields with their maxima."""
    if game.name == "wordle":
        return {"kind": "marks", "length": len(game.decode(game.win_code)), "help": game.feedback_help}
    names = game.feedback_help.split(":", 1)[0].split(",")
    base = round(game.n_codes ** (1 / len(names)))  # codes are mixed-radix numbers of the fields
    return {"kind": "fields", "names": names, "max": [base - 1] * len(names), "help": game.feedback_help}


def games() -> dict[str, Any]:
    """Return every registered variant (`solver.core.registry.all_variants`), the default first per game;
    built once (concurrent first callers wait for it)."""
    with _GAMES_LOCK:
        return _games()


def prime_kernels() -> None:
    """Run one parallel Numba kernel on the calling thread: call it on the server's main thread.

    Measured (Numba's OpenMP layer): until the main thread has run a parallel kernel, each kernel
    call from a worker thread (where requests are computed) costs about 8 ms instead of 0.1 ms.
    """
    from solver.core import scoring  # defers Numba to the first kernel run

    try:
        game = game_of(resolve("mastermind", None))  # the smallest table: a fraction of a second
        scoring.feedback_table(game, [0], game.target_index)
    except Exception:
        log.exception("running a first kernel failed")


# loaded at startup besides each game's default variant (the page's)
WARM_VARIANTS = (("wordle", "hard"), ("cards", "n3"))


def warm() -> None:
    """Build the games list, load the trees, books and rankings of the variants the page opens with (each
    game's default, and WARM_VARIANTS) and compile the kernels, ahead of the first requests (a server's
    startup): the memory they take is the server's from its start, not grown by the first players."""
    try:
        games()
        for name, variant in [(name, None) for name in VARIANTS] + list(WARM_VARIANTS):
            key = resolve(name, variant)
            next_guess(key, (), 5, 0)  # the root's guess and ranking: the tree, the hints
            solver_of(key).book  # noqa: B018 - loads the opener book (Wordle's), which off-tree guesses read
    except Exception:  # a bug shows in the requests that hit it; the server still starts
        log.exception("warming up the web service failed")


@lru_cache(maxsize=1)
def _games() -> dict[str, Any]:
    out = []
    for key in all_variants():
        game = game_of(key)
        opener = artifacts.peek_opener(game)  # not the tree itself: a server loads only the trees it plays
        example = opener if opener is not None else int(game.target_index[0])
        out.append({"game": key[0], "variant": key[1], "title": game.title, "label": label(key),
                    "targets": game.n_targets,
                    "guesses": game.n_guesses, "has_tree": opener is not None,
                    "tree_label": artifacts.peek_label(game) if opener is not None else None,
                    "feedback": feedback_info(game),
                    "example_guess": game.labels[example], "default": key[1] == default_variant(key[0])})
    return {"games": out}


GAME_LABELS = {"wordle": "Wordle", "mastermind": "Mastermind", "bulls": "Bulls and Cows", "battleship": "Battleship",
               "cards": "Cards"}
WORDLE_PARTS = {"hard": "hard mode", "answers-only": "only answers as guesses", "nyt": "NYT lists",
                "all-words": "every word an answer"}  # a Wordle variant's parts, as its label says them


def label(key: Key) -> str:
    """Return a variant's name for people, one pattern for every variant: the game, then what sets the
    variant apart, comma separated ("Wordle, hard mode, NYT lists", "Cards, 3 cards", "Mastermind")."""
    name, variant = key
    parts = [GAME_LABELS.get(name, name)]
    cards = re.fullmatch(r"n(\d+)", variant) if name == "cards" else None
    if cards:
        parts.append(f"{cards[1]} {'card' if cards[1] == '1' else 'cards'}")
    elif name == "wordle":
        mode = re.fullmatch(r"(normal|hard|answers-only)(\d*)(?:-(nyt|all-words))?", variant)
        if mode is None:
            return game_of(key).title  # the user's own lists: the title counts them
        mode_name, size, lists = mode.groups()
        parts += [WORDLE_PARTS.get(mode_name), f"{size} letters" if size else None, WORDLE_PARTS.get(lists)]
    elif variant != default_variant(name):
        parts.append(variant)
    return ", ".join(part for part in parts if part)


# -- histories --------------------------------------------------------------------------------
def parse_feedback(game: Game, value: str | Sequence[int], field: str) -> int:
    """Return the code of a feedback value: marks or "0,1,0" text, or a list of ints."""
    try:
        if isinstance(value, str):
            return notation.parse_feedback(game, value)
        if game.name == "wordle":  # [2, 1, 0, 0, 0]: the digit spelling of the marks, one number a letter
            return notation.parse_feedback(game, "".join(str(v) for v in _marks(game, value)))
        return game.encode(tuple(value))
    except ValueError as err:
        raise FieldError(field, err) from None


def _marks(game: Game, value: Sequence[int]) -> Sequence[int]:
    """Return Wordle feedback given as numbers, one a letter, each 0 (grey), 1 (yellow) or 2 (green);
    ValueError otherwise (joined as digits, [22, 2, 2, 2] would read as 22222)."""
    length = len(game.decode(game.win_code))
    if len(value) != length:
        raise ValueError(f"{game.title} feedback as a list needs {length} numbers, one per letter (0 grey, 1 yellow, "
                         f"2 green), not {len(value)}")
    for mark in value:
        if mark not in (0, 1, 2):
            raise ValueError(f"{game.title} feedback as a list has one number per letter: 0 (grey), 1 (yellow) or "
                             f"2 (green), not {str(mark)[:20]}")
    return value


def parse_guess(game: Game, text: str, field: str) -> int:
    try:
        return notation.parse_guess(game, text)
    except ValueError as err:
        raise FieldError(field, err) from None


def parse_target(game: Game, text: str, field: str) -> int:
    """Return the guess row of an answer (it must be a possible answer); FieldError naming `field`."""
    try:
        return parse_answer(game, [text])
    except ValueError as err:
        raise FieldError(field, err) from None


def read_steps(key: Key, history: Sequence[dict], field: str = "history") -> Steps:
    """Return the (row, code) steps of a history of {"guess", "feedback"} as written (not checked
    against each other: `check_steps`); FieldError naming `field[i].guess` / `field[i].feedback`."""
    game = game_of(key)
    return tuple((parse_guess(game, step["guess"], f"{field}[{i}].guess"),
                  parse_feedback(game, step["feedback"], f"{field}[{i}].feedback")) for i, step in enumerate(history))


def check_left(key: Key, steps: Steps, field: str = "history") -> Steps:
    """Return `steps` when a guess is left to advise after them (the game's guess limit: `notation.check_guess_left`,
    a last step that wins excepted); FieldError naming `field` otherwise. O(1): checked before any work is queued."""
    game = game_of(key)
    try:
        check_guess_left(game, len(steps), won=bool(steps) and steps[-1][1] == game.win_code)
    except ValueError as err:
        raise FieldError(field, err) from None
    return steps


def check_steps(key: Key, steps: Steps, field: str = "history") -> Steps:
    """Return `steps` checked for the game's rules and consistency (their states built: off the tree,
    the candidates narrowed); FieldError naming `field[i]` / `field[i].guess` / `field[i].feedback`."""
    try:
        state_of(key, steps)
    except _StepError as err:
        raise FieldError(f"{field}[{err.index}]" + (f".{err.part}" if err.part else ""), err) from None
    return steps


def parse_steps(key: Key, history: Sequence[dict], field: str = "history") -> Steps:
    """Return the (row, code) steps of a history of {"guess", "feedback"}, checked for the game's rules
    and consistency; FieldError naming `field[i].guess` / `field[i].feedback`."""
    return check_steps(key, read_steps(key, history, field), field)


def on_tree(key: Key, steps: Steps) -> bool:
    """Return whether `steps` follow the variant's precomputed tree (a last step may be the win): their
    state, guess and figures are read from the tree, with no live search. O(steps): the tree's own
    lookup (`Tree.get_node`), no state built."""
    tree = solver_of(key).tree
    if tree is None:
        return False
    if steps and steps[-1][1] == game_of(key).win_code:
        steps = steps[:-1]
    return tree.get_node(steps) is not None


def answer_steps(key: Key, answer: str, guesses: Sequence[str], field: str = "guesses") -> Steps:
    """Return the (row, code) steps of bare `guesses` played against `answer` (their feedback computed),
    checked as `parse_steps` checks a history; FieldError naming `answer` or `field[i]`."""
    return check_answer_steps(key, read_answer_steps(key, answer, guesses, field), field)


def read_answer_steps(key: Key, answer: str, guesses: Sequence[str], field: str = "guesses") -> Steps:
    """Return the (row, code) steps of bare `guesses` played against `answer`, not checked against each
    other (`check_answer_steps`); FieldError naming `answer` or `field[i]`."""
    game = game_of(key)
    target = parse_target(game, answer, "answer")
    rows = [parse_guess(game, guess, f"{field}[{i}]") for i, guess in enumerate(guesses)]
    return tuple((row, game.code(row, target)) for row in rows)


def check_answer_steps(key: Key, steps: Steps, field: str = "guesses") -> Steps:
    try:
        state_of(key, steps)
    except _StepError as err:
        raise FieldError(f"{field}[{err.index}]", err) from None
    return steps


@lru_cache(maxsize=STATES)
def state_of(key: Key, steps: Steps):
    """Return the solver state after `steps` (built from the memoised state of its prefix, as
    `walk.replay` does); _StepError naming the step the game refuses."""
    solver = solver_of(key)
    if not steps:
        return start_state(solver)
    before, (row, code), index = state_of(key, steps[:-1]), steps[-1], len(steps) - 1
    if before.history and before.history[-1][1] == solver.game.win_code:
        raise _StepError(index, "", f"step {index + 1} comes after the win")
    try:
        check_allowed(solver.game, before.history, row)
    except ValueError as err:
        raise _StepError(index, "guess", err) from None
    try:
        return solver.advance(before, row, code)
    except ValueError as err:
        raise _StepError(index, "feedback", err) from None


def _solved(state) -> bool:
    return bool(state.history) and state.history[-1][1] == state.solver.game.win_code


def _on_tree(state) -> bool:
    return state.node is not None and state.solver.tree is not None


def _labels(state, limit: int) -> list[str]:
    game = state.solver.game
    return [game.labels[int(r)] for r in game.target_index[state.candidate_positions[:limit]]]


# -- endpoints --------------------------------------------------------------------------------
def next_guess(key: Key, steps: Steps, top: int, shown: int, budget: float = LIVE_SECONDS) -> dict[str, Any]:
    """Return the /api/next answer after `steps`: the solver's guess, where it comes from (`State.source`),
    the candidates, why, and the best guesses; the Why's value is the solver's row of the ranking when
    it is there, so that both show one value. Off the tree, a `budget` below the solvers' plays and rates
    with that budget's work (`light_solver`: nothing memoised but the answer's parts)."""
    state, game = state_of(key, steps), game_of(key)
    solved = _solved(state)
    if budget < LIVE_SECONDS and not solved and not _on_tree(state):
        state = replay(light_solver(key, budget), steps)
        ranked = _alternatives(state, top) if top > 0 and not state.identified else []
        why = _explained(key, state)
    else:
        ranked = alternatives(key, steps, top) if top > 0 and not state.identified and not solved else []
        why = None if solved else dict(explanation(key, steps))
    source = (state_of(key, steps[:-1]) if solved else state).source
    mine = next((alt for alt in ranked if alt["solver"]), None)
    if why is not None and mine is not None and mine["value"] is not None:
        why.update(value=mine["value"], expected_guesses=mine["value"]["expected"],
                   worst_guesses=mine["value"]["worst"])
    return {"title": game.title, "guess": None if solved else game.labels[state.solver.guess_row(state)],
            "source": source, "source_text": "" if solved else source_text(state, why),
            "exact": False if solved else state.exact, "value": None if solved else state.value,
            "remaining": state.remaining, "candidates": _labels(state, shown),
            "identified": state.remaining == 1, "solved": solved, "explanation": why, "alternatives": ranked}


def busy_answer(answer: dict[str, Any]) -> dict[str, Any]:
    """Return a quick answer (no budget: the greedy rule, quick estimates), given because the live pool was
    full, marked so: `busy`, and its source text saying it."""
    out = {**answer, "busy": True}
    if out.get("source_text"):
        out["source_text"] = f"a quick answer, the server being busy: {out['source_text']}"
    return out


def source_text(state, why: dict[str, Any] | None) -> str:
    """Return where the proposed guess comes from, as the page shows it: its value's source in words
    (`ToGo.describe`) when the Why has one, else the state's source."""
    if why is not None and why.get("value") is not None:
        text = why["value"]["source_text"]
        if _on_tree(state) and not state.solver.tree.proven:  # what the whole tree is proven to be
            text += f"; the tree: {state.solver.tree.label}"
        return text
    return {"tree": "from the precomputed tree", "book": "from the opener book, computed ahead",
            "rule": "one or two answers left: play one"}.get(state.source, "computed live, not proven")


def value_out(value: ToGo | None, game: Game) -> dict[str, Any] | None:
    """Return a `ToGo` of a guess of `game` as the API's `Value` (its texts made here, once, as every face
    shows them)."""
    if value is None:
        return None
    limit = game.max_guesses
    return {"expected": value.expected, "kind": value.kind, "text": value.text(), "worst": value.worst,
            "lost": value.lost, "lost_exact": value.lost_exact, "chance": value.chance,
            "limit_text": value.limit_text(limit) if limit is not None else "",
            "source": value.source, "source_text": value.describe()}


@lru_cache(maxsize=RESULTS)
def explanation(key: Key, steps: Steps) -> dict[str, Any]:
    """Return why the solver's guess after `steps` (`solver.analysis.explain`).

    On the tree the figures are read from the variant's memoised `NodeArrays` (what `explain_state` reads
    from the tree after building its own copy of the whole tree's child index: 0.5 s for cards n4).
    """
    return _explained(key, state_of(key, steps))


def _explained(key: Key, state) -> dict[str, Any]:
    """Return `explanation`'s answer of a state (of the shared solver, or a `light_solver`)."""
    if _on_tree(state):
        game, nodes, node, positions = game_of(key), nodes_of(key), state.node, state.candidate_positions
        row, label = int(nodes.guess[node]), game.labels[int(nodes.guess[node])]
        is_candidate = bool((game.target_index[positions] == row).any())
        kind = values.PROVEN if state.solver.tree.value_proven(node) else values.APPROXIMATE
        value = ToGo(row, nodes.expected(node), _worst(key, node), kind, values.TREE, int(positions.size),
                     left=values.guesses_left(state))
        why = Explanation(label, label, int(positions.size), group_sizes(game, row, positions), is_candidate, value)
    else:
        why = explain_state(state)
    return {"groups": list(why.groups), "largest_group": why.largest_group, "win_chance": why.win_chance,
            "expected_guesses": why.expected_guesses, "worst_guesses": why.worst_guesses,
            "expected_left": why.expected_left, "value": value_out(why.value, state.solver.game)}


@lru_cache(maxsize=RESULTS)
def alternatives(key: Key, steps: Steps, top: int) -> list[dict[str, Any]]:
    """Return the `top` best guesses by expected guesses to go (`scores.ranking`, as `deduce hint`), each
    with its cheap figures and its value (`value_out`: proven, approximate, a lower bound or an estimate;
    null when not rated within the budget); the solver's guess is always among them."""
    return _alternatives(state_of(key, steps), top)


def _alternatives(state, top: int) -> list[dict[str, Any]]:
    """Return `alternatives`' answer of a state (of the shared solver, or a `light_solver`)."""
    out = []
    for r in ranking(state, top)[0]:
        s, to_go = r.scored, r.to_go
        out.append({"guess": s.label, "expected_left": s.expected, "entropy": s.entropy, "possible": s.possible,
                    "to_go": None if to_go is None else to_go.expected,
                    "to_go_kind": None if to_go is None else to_go.kind,
                    "worst": None if to_go is None else to_go.worst, "solver": r.solver,
                    "value": value_out(to_go, state.solver.game)})
    return out


def ranked_ahead(key: Key, steps: Steps, top: int) -> bool:
    """Return whether /api/next's `top` alternatives after `steps` (on the tree) need no live work: read from
    the hints computed ahead (`scores.stored_ranking`), or none to rank (the game won, one answer left)."""
    try:
        state = state_of(key, steps)
    except _StepError:
        return True  # refused at once (422) when answered
    if _solved(state) or state.identified:
        return True
    return stored_ranking(state, top) is not None


def candidates(key: Key, steps: Steps, limit: int) -> dict[str, Any]:
    state = state_of(key, steps)
    return {"remaining": state.remaining, "candidates": _labels(state, limit)}


def allowed_guess(game: Game, steps: Steps, guess: str) -> int:
    """Return the row of `guess`, an allowed guess after `steps` (Wordle hard mode); FieldError naming it."""
    row = parse_guess(game, guess, "guess")
    try:
        check_allowed(game, steps, row)
    except ValueError as err:
        raise FieldError("guess", err) from None
    return row


def feedback(key: Key, steps: Steps, target: str, guess: str) -> dict[str, Any]:
    """Return the feedback of `guess` against `target`; FieldError naming either."""
    game = game_of(key)
    answer = parse_target(game, target, "target")
    row = allowed_guess(game, steps, guess)
    code = game.code(row, answer)
    return {"feedback": feedback_out(game, code), "win": code == game.win_code}


def check(key: Key, steps: Steps, guess: str, target: str | None) -> dict[str, Any]:
    """Return whether `guess` (and `target`, when given) pass the checks of `feedback`: {"valid", "field",
    "message"}, the field and message its 422 would give when not."""
    game = game_of(key)
    try:
        if target is not None:
            parse_target(game, target, "target")
        allowed_guess(game, steps, guess)
    except FieldError as err:
        return {"valid": False, "field": err.field, "message": str(err)}
    return {"valid": True, "field": None, "message": None}


def random_target(key: Key, seed: int | None) -> dict[str, str]:
    game = game_of(key)
    chooser = random.Random(seed) if seed is not None else random.SystemRandom()
    return {"target": game.labels[int(game.target_index[chooser.randrange(game.n_targets)])]}


def daily(key: Key, day: date | None, boards: int) -> dict[str, Any]:
    """Return the daily puzzle of `day` (default: today, the server's date) on `boards` boards
    (`solver.analysis.daily`: the same answers for everyone on a date); FieldError naming `date` or
    `boards`."""
    game = game_of(key)
    if boards != 1:
        _check_boards(game, boards)
    day = date.today() if day is None else day
    try:
        puzzle = daily_of(game, day, boards)
    except ValueError as err:
        raise FieldError("date", err) from None
    return {"date": puzzle.day.isoformat(), "number": puzzle.number, "epoch": EPOCH.isoformat(),
            "targets": list(puzzle.answers), "guesses": guesses_allowed(boards) if game.name == "wordle"
            else game.max_guesses}


# -- several Wordle boards (Dordle, Quordle) ------------------------------------------------------
def _check_boards(game: Game, boards: int, field: str = "boards") -> int:
    try:
        return check_boards(game, boards)
    except ValueError as err:
        raise FieldError(field, str(err).replace("--boards", "several boards")) from None


def boards_random(key: Key, boards: int, seed: int | None) -> dict[str, Any]:
    """Return `boards` different answers drawn at random (repeatable with `seed`)."""
    game = game_of(key)
    _check_boards(game, boards)
    chooser = random.Random(seed) if seed is not None else random.SystemRandom()
    rows = chooser.sample(range(game.n_targets), boards)
    return {"targets": [game.labels[int(game.target_index[r])] for r in rows], "guesses": guesses_allowed(boards)}


def boards_feedback(key: Key, targets: Sequence[str], guess: str, history: Sequence[str] = ()) -> dict[str, Any]:
    """Return the feedback of `guess` on each board, whose answers are `targets` (all different), played after
    the bare guesses of `history`: null (and no win) for a board one of them solved. FieldError naming
    `history[i]` or `guess` past the guess limit, after every board was solved, or (hard mode) keeping the
    rule of no unsolved board (`Boards.refusal`: the reason of each)."""
    game = game_of(key)
    _check_boards(game, len(targets), "targets")
    rows = [parse_target(game, text, f"targets[{i}]") for i, text in enumerate(targets)]
    try:
        check_distinct([game.labels[r] for r in rows])
    except ValueError as err:
        raise FieldError("targets", err) from None
    try:
        check_guess_limit(game, len(history) + 1, len(rows))
    except ValueError as err:
        raise FieldError("guess", err) from None
    earlier = [parse_guess(game, text, f"history[{i}]") for i, text in enumerate(history)]
    row = parse_guess(game, guess, "guess")
    _check_played(game, rows, [*earlier, row], [f"history[{i}]" for i in range(len(earlier))] + ["guess"])
    codes = [None if target in earlier else game.code(row, target) for target in rows]
    return {"feedback": [None if c is None else feedback_out(game, c) for c in codes],
            "win": [c == game.win_code for c in codes]}


def _check_played(game: Game, targets: Sequence[int], rows: Sequence[int], fields: Sequence[str]) -> None:
    """Raise FieldError naming the field of guess row `rows[i]` (`fields[i]`) played on the boards of answer rows
    `targets` after every board was solved, or (hard mode) keeping the rule of no unsolved board, giving each
    board's reason as `Boards.refusal` does. O(guesses x boards): the boards' candidates are not narrowed
    (`Boards.after` took 70-340 ms for 32 boards and 36 guesses)."""
    hard, length = game.allowed is not None, len(game.labels[0])
    played: list[list[tuple[str, str]]] = [[] for _ in targets]  # each board's (guess, marks) while it was open
    solved = [False] * len(targets)
    for i, (row, field) in enumerate(zip(rows, fields)):
        if all(solved):
            raise FieldError(field, f"guess {i + 1} comes after every board was solved")
        label = game.labels[row]
        if hard:
            reasons = []
            for b in (b for b, done in enumerate(solved) if not done):
                reason = hard_mode_allows(played[b], label)
                if reason is None:
                    break
                reasons.append(f"board {b + 1}: {reason}" if len(targets) > 1 else reason)
            else:
                raise FieldError(field, f"hard mode forbids {label}: {'; '.join(reasons)}")
        for b, target in enumerate(targets):
            if hard and not solved[b]:
                played[b].append((label, code_to_marks(game.code(row, target), length)))
            solved[b] = solved[b] or row == target


def check_boards_length(key: Key, boards: int, history: Sequence[dict]) -> None:
    """Raise FieldError naming `boards` or `history` when the boards are not 1 to MAX_BOARDS or the history
    is longer than `boards` boards allow (`notation.check_guess_limit`). O(1): checked before any work."""
    game = game_of(key)
    _check_boards(game, boards)
    try:
        check_guess_limit(game, len(history), boards)
    except ValueError as err:
        raise FieldError("history", err) from None


def boards_state(key: Key, boards: int, history: Sequence[dict]) -> Boards:
    """Return the boards' state after `history`: steps of {"guess", "feedback": one mark string per
    board, null for a board solved before}; FieldError naming the step."""
    game = game_of(key)
    check_boards_length(key, boards, history)
    state = Boards.start(game, boards)
    for i, step in enumerate(history):
        row = parse_guess(game, step["guess"], f"history[{i}].guess")
        marks = step["feedback"]
        if not isinstance(marks, list) or len(marks) != boards:
            raise FieldError(f"history[{i}].feedback", f"give one feedback per board ({boards}), null for a board "
                                                      "solved before")
        codes = {b: parse_feedback(game, m, f"history[{i}].feedback[{b}]") for b, m in enumerate(marks)
                 if m is not None}
        try:
            state = state.after(row, codes)
        except ValueError as err:
            raise FieldError(f"history[{i}].feedback", err) from None
    return state


def boards_look_ahead(state: Boards) -> bool:
    """Return whether the solver's choice in `state` is the look-ahead of two open boards (seconds of work):
    each open board has more than one candidate and not every answer (the opener: read at once)."""
    sets = [state.candidates[b] for b in state.open_boards]
    return len(sets) == 2 and all(1 < c.size < state.game.n_targets for c in sets)


def boards_choice(state: Boards, budget: float = BOARDS_BUDGET) -> int:
    """Return the guess row the solver plays in `state` within the work of `budget` seconds: `Boards.choose`
    (as `deduce play --boards`) when its look-ahead's pairs fit the budget (LOOK_AHEAD_PAIRS a second), else
    the greedy rule (the least sum of the answers expected to be left on both boards: milliseconds)."""
    if boards_look_ahead(state):
        sets = [state.candidates[b] for b in state.open_boards]
        if sets[0].size * sets[1].size > LOOK_AHEAD_PAIRS * budget:
            allowed = getattr(state, "allowed", lambda: None)()  # hard mode's rule of every open board, if any
            order = greedy_order(state.game, sets)
            return int(order[0] if allowed is None else order[allowed[order]][0])
    return state.choose()


def boards_next(key: Key, boards: int, history: Sequence[dict], shown: int, budget: float = BOARDS_BUDGET,
                state: Boards | None = None) -> dict[str, Any]:
    """Return the solver's guess for all the boards after `history` (`boards_choice` within `budget`
    seconds of work), with the answers left on each board; `state`: the boards after `history`, when
    already built."""
    state = boards_state(key, boards, history) if state is None else state
    game = game_of(key)
    try:
        check_guess_left(game, len(history), boards, won=state.done)
    except ValueError as err:
        raise FieldError("history", err) from None
    return {"guess": None if state.done else game.labels[boards_choice(state, budget)], "remaining": state.remaining(),
            "solved": list(state.solved), "done": state.done, "guesses": guesses_allowed(boards),
            "candidates": [[] if solved else [game.labels[int(r)] for r in game.target_index[c[:shown]]]
                           for c, solved in zip(state.candidates, state.solved)]}


def review_steps(key: Key, history: Sequence[dict], answer: str | None, guesses: Sequence[str]) -> Steps:
    """Return the steps of a game to review: its `history` (`parse_steps`), or its bare `guesses` played
    against `answer` (`answer_steps`); FieldError when both forms are given, or none."""
    return check_review(key, *read_review(key, history, answer, guesses))


def read_review(key: Key, history: Sequence[dict], answer: str | None,
                guesses: Sequence[str]) -> tuple[Steps, str]:
    """Return the steps of a game to review as written, not checked against each other (`check_review`),
    and the field they come from ("history", or "guesses" played against `answer`); FieldError when both
    forms are given, or none."""
    if answer is not None or guesses:
        if history:
            raise FieldError("answer" if answer is not None else "guesses",
                             "give the history (guesses with their feedback) or the answer and the bare guesses, "
                             "not both")
        if answer is None:
            raise FieldError("answer", "bare guesses need the answer: their feedback is computed against it")
        if not guesses:
            raise FieldError("guesses", "nothing to review: give the guesses played against the answer")
        return read_answer_steps(key, answer, guesses), "guesses"
    if not history:
        raise FieldError("history", "nothing to review: give the game's guesses with their feedback (history), "
                                    "or the answer and the guesses")
    return read_steps(key, history), "history"


def check_review(key: Key, steps: Steps, field: str) -> Steps:
    """Return the steps of `read_review` checked for the game's guess limit, rules and consistency;
    FieldError naming `field` for more guesses than the game allows."""
    try:
        check_guess_limit(game_of(key), len(steps))
    except ValueError as err:
        raise FieldError(field, err) from None
    return check_steps(key, steps) if field == "history" else check_answer_steps(key, steps, field)


REVIEWS = 256  # memoised reviews (each holds the candidates before every guess)


@lru_cache(maxsize=REVIEWS)
def _reviewed(key: Key, steps: Steps, answer: int | None, budget: float = LIVE_SECONDS) -> Review:
    """Return the review of `steps` (the work of /api/review: every rating), memoised apart from how many
    candidates a request lists, so that asking again for the candidates costs no rating."""
    return compute_review(game_of(key), steps, budget if budget < LIVE_SECONDS else None, answer=answer)


def review(key: Key, steps: Steps, answer: int | None = None, words: int = 0,
           budget: float = LIVE_SECONDS) -> dict[str, Any]:
    """Return the /api/review answer of a game played as `steps` (checked: `review_steps`), from
    `solver.analysis.review` with the solver's live budget per rating: each guess with its value and the best
    guess's (`value_out`), at most `words` of the candidates before it, and the solver's own game for the same
    answer (target row `answer`, else the one the game shows). The review is memoised (`_reviewed`), the
    answer built anew: `api` memoises whole answers."""
    return review_out(game_of(key), _reviewed(key, steps, answer, budget), [code for _, code in steps], words)


def review_out(game: Game, result: Review, codes: Sequence[int], words: int) -> dict[str, Any]:
    """Return a `Review` in the shape of /api/review's answer (`models.ReviewResponse`): each guess (its
    feedback `codes[i]`) with its value and the best guess's, at most `words` of the candidates before it;
    the summary, the share line (of the review's own guess limit) and the solver's own game, if any."""
    guesses = []
    for g, code in zip(result.guesses, codes):
        guesses.append({"number": g.number, "guess": g.guess, "feedback": feedback_out(game, code),
                        "before": g.before, "after": g.after, "expected_after": g.expected_after,
                        "luck": None if g.decided else g.luck,
                        "to_go": None if g.player is None else g.player.expected,
                        "to_go_kind": None if g.player is None else g.player.kind, "best_guess": g.best_guess,
                        "best_to_go": None if g.best is None else g.best.expected,
                        "best_to_go_kind": None if g.best is None else g.best.kind,
                        "cost": g.cost, "cost_kind": g.cost_kind, "skill": g.skill,
                        "value": value_out(g.player, game), "best_value": value_out(g.best, game),
                        "cost_text": g.cost_text(), "candidates": list(g.candidates[:words])})
    return {"title": result.title, "won": result.won, "lost": result.lost, "guesses": guesses, "cost": result.cost,
            "exact": result.exact, "skill": result.skill, "luck": result.luck,
            "share": result.summary_line(result.limit),
            "cost_text": result.cost_text(), "answer": result.answer,
            "solver_game": [{"guess": game.labels[row], "feedback": feedback_out(game, code)}
                            for row, code in result.solver_game]}


def read_boards_review(key: Key, boards: int, answers: Sequence[str],
                       guesses: Sequence[str]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return (guess rows, answer rows) of a game of several boards to review, checked before any rating:
    one different answer per board, at most `guesses_allowed(boards)` guesses, none after every board was
    solved, none hard mode forbids (`_check_played`); FieldError naming `boards`, `answers`, `answers[i]`,
    `guesses` or `guesses[i]`."""
    game = game_of(key)
    _check_boards(game, boards)
    if len(answers) != boards:
        raise FieldError("answers", f"{boards} boards need {boards} answers, one per board, got {len(answers)}")
    targets = tuple(parse_target(game, text, f"answers[{i}]") for i, text in enumerate(answers))
    try:
        check_distinct([game.labels[r] for r in targets])
    except ValueError as err:
        raise FieldError("answers", err) from None
    if not guesses:
        raise FieldError("guesses", "nothing to review: give the guesses played against the answers")
    rows = tuple(parse_guess(game, text, f"guesses[{i}]") for i, text in enumerate(guesses))
    limit = guesses_allowed(boards)
    if len(rows) > limit:
        raise FieldError("guesses", f"{boards} boards allow {limit} guesses, got {len(rows)}: the game is lost after "
                                    f"guess {limit}; review its first {limit}")
    _check_played(game, targets, rows, [f"guesses[{i}]" for i in range(len(rows))])
    return rows, targets


@lru_cache(maxsize=REVIEWS)
def _boards_reviewed(key: Key, guesses: tuple[int, ...], answers: tuple[int, ...]) -> BoardsReview:
    """Return the review of a game of several boards (in hard mode each board rated in its normal variant:
    `review.board_variant`), with the solver's own game for its answers (the work of /api/boards/review),
    memoised apart from how many candidates a request lists."""
    game = game_of(key)
    return review_boards(game, guesses, answers, boards_play(game, list(answers)))


def boards_review(key: Key, guesses: tuple[int, ...], answers: tuple[int, ...], words: int = 0) -> dict[str, Any]:
    """Return the /api/boards/review answer (`read_boards_review` checked its fields): each board as a game of
    its own (`review_out`, its figures counting every guess made while it was open) with the guesses the
    game's totals leave out (`not_counted`: made once the board's answer was known, for another board), the
    totals over the guesses counted (`BoardsReview.counted`), the share line and the solver's own game of
    every board for the same answers (null feedback for a board it had solved)."""
    game, result = game_of(key), _boards_reviewed(key, guesses, answers)
    boards = []
    for number, (board, answer) in enumerate(zip(result.boards, answers), start=1):
        codes = [game.code(row, answer) for row in guesses[:len(board.guesses)]]
        boards.append({**review_out(game, board, codes, words), "board": number,
                       "not_counted": result.elsewhere(number - 1)})
    return {"boards": boards, "won": result.won, "lost": not result.won and result.guesses >= result.limit,
            "guesses": result.guesses, "limit": result.limit, "answers": list(result.answers),
            "cost": result.cost, "cost_text": result.cost_text(), "exact": result.exact, "skill": result.skill,
            "luck": result.luck, "share": result.summary_line(),
            "solver_game": [{"guess": game.labels[row],
                             "feedback": [None if code == SOLVED else feedback_out(game, code) for code in codes]}
                            for row, codes in result.solver_game]}


# -- the tree -----------------------------------------------------------------------------------
@lru_cache(maxsize=16)
def nodes_of(key: Key):
    """Return the tree of a variant as `walk.NodeArrays` (its child index is built once)."""
    return NodeArrays.from_tree(solver_of(key).tree)


@lru_cache(maxsize=RESULTS)
def _worst(key: Key, node: int) -> int:
    """Return the most guesses a target of the node needs from it: O(its subtree), once."""
    return nodes_of(key).worst(node)


@lru_cache(maxsize=RESULTS)
def _histogram(key: Key, node: int) -> dict[int, int]:
    """Return {guesses from the node: targets} of a node: O(its subtree), once."""
    return nodes_of(key).histogram(node)


@lru_cache(maxsize=RESULTS)
def tree_view(key: Key, steps: Steps) -> dict[str, Any]:
    """Return the /api/tree answer: the node `steps` reach, its children and distribution. Off the
    tree the node's subtree is played out live by `walk.play_out` (what `deduce tree --path` shows), so the
    figures are the live strategy's; FieldError naming `path` when it has more than `walk.PLAY_OUT_LIMIT`
    candidates."""
    state, game = state_of(key, steps), game_of(key)
    if _solved(state):
        node = {"guess": None, "remaining": state.remaining, "depth": len(steps), "expected_guesses": None,
                "worst_guesses": None}
        return {"title": game.title, "on_tree": _on_tree(state), "node": node, "children": [], "distribution": {}}
    if _on_tree(state):
        nodes, at = nodes_of(key), state.node
        worst, histogram = _worst(key, at), _histogram(key, at)
    else:
        try:
            nodes, at = play_out(state.solver, state), 0
        except PlayOutTooLarge as err:
            raise FieldError("path", err) from None
        worst, histogram = nodes.worst(at), nodes.histogram(at)
    depth, remaining = int(nodes.depth[at]), int(nodes.remaining[at])
    children = [{"feedback": feedback_out(game, int(nodes.code[c])), "remaining": int(nodes.remaining[c]),
                 "guess": game.labels[int(nodes.guess[c])], "expected_guesses": nodes.expected(c), "win": False}
                for c in nodes.children(at)]
    children.sort(key=lambda child: -child["remaining"])  # stable: feedback-code order among ties
    if remaining > sum(child["remaining"] for child in children):  # the node's guess is a candidate
        children.insert(0, {"feedback": feedback_out(game, game.win_code), "remaining": 1, "guess": None,
                            "expected_guesses": None, "win": True})
    node = {"guess": game.labels[int(nodes.guess[at])], "remaining": remaining, "depth": depth,
            "expected_guesses": nodes.expected(at), "worst_guesses": worst}
    return {"title": game.title, "on_tree": _on_tree(state), "node": node, "children": children,
            "distribution": {str(depth + guesses): count for guesses, count in histogram.items()}}
