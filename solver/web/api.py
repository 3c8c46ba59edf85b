"""The endpoints under /api: thin, each parses its request with `service` and returns its answer.

Answers are pure functions of the request (but for an unseeded /api/random), so they are memoised by
request (`Answers`): a repeated request is answered on the event loop in microseconds. A new one is
first read and priced in the thread pool (its fields parsed, and `service.on_tree` asked whether its
history follows the precomputed tree); then it is answered there at once if its work takes
milliseconds, or else handed to the bounded live pool (`admission.LivePool`: the request's app holds
it), which refuses it with 503 and Retry-After when its expected wait is too long; its live work is
cancelled if the client disconnects. Milliseconds, so at once: an answer from the tree (with its
alternatives when the hints computed them ahead), candidates, a check or a feedback (they only narrow
the candidates and check a guess, on the tree or off it), a guess for several boards that needs no
look-ahead. Live, so pooled, each within a budget: a guess off the tree (or of a variant without
one), alternatives to rank there, a review, the look-ahead of two boards. Nothing quick ever waits
for live work.
"""
from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, Callable, Union

from cachetools import LRUCache
from fastapi import APIRouter, Query, Request
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from solver.core.search.live import Cancel
from solver.web import admission, hiding, service
from solver.web.models import (
    BoardsFeedbackRequest,
    BoardsFeedbackResponse,
    BoardsNextRequest,
    BoardsNextResponse,
    BoardsRandomResponse,
    BoardsReviewRequest,
    BoardsReviewResponse,
    CandidatesRequest,
    CandidatesResponse,
    CheckRequest,
    CheckResponse,
    DailyResponse,
    ErrorResponse,
    FeedbackRequest,
    FeedbackResponse,
    GameLiteral,
    GamesResponse,
    HideRequest,
    HideResponse,
    NextRequest,
    NextResponse,
    RandomResponse,
    ReviewRequest,
    ReviewResponse,
    TreeRequest,
    TreeResponse,
)

ERRORS = {status: {"model": ErrorResponse, "description": text} for status, text in (
    (400, "Malformed JSON."), (404, "No such path."), (405, "Wrong method."),
    (408, "The body did not arrive in time."), (413, "A body over 64 KB."),
    (422, "A field the game refuses, of the wrong type or missing; `error.field` names it."),
    (503, "Too busy with live computations (or connections): ask again after `Retry-After` seconds."))}
ANSWERS = 1024  # memoised answers
DISCONNECT_POLL = 0.25  # seconds: how often a live request checks that its client is still there

router = APIRouter(prefix="/api", responses=ERRORS)


@dataclass(frozen=True)
class Job:
    """A request read and priced: `compute()` gives its answer; `live` when that needs the live pool (its
    work, of the pool's `kind`, takes more than milliseconds); `quick()`, when there is one, its answer within
    no budget (the greedy rule, tens of milliseconds), given when the live pool refuses the request."""

    live: bool
    compute: Callable[[], Any]
    kind: str = "live"
    quick: Callable[[], Any] | None = None


class Answers:
    """A bounded, thread-safe memo of answers by (endpoint, request), least recently used dropped first."""

    def __init__(self, size: int = ANSWERS):
        self.size, self._items, self._lock = size, LRUCache(maxsize=size), threading.Lock()

    async def get(self, plan: Callable[[Any], Job], request: BaseModel | None, http: Request) -> Any:
        """Return the answer of `plan(request)`: memoised, else read and (from the tree) answered in the
        thread pool, else computed in the app's live pool (errors are not kept; admission.Busy when full)."""
        key = (plan.__name__, None if request is None else request.model_dump_json())
        with self._lock:
            if key in self._items:
                return self._items[key]  # marks it the most recently used
        done, value = await run_in_threadpool(_answer_unless_live, plan, request)
        if not done:
            job = value
            try:
                value, whole = await _unless_client_leaves(http, job.compute, http.app.state.live, job.kind)
            except admission.Busy as refused:
                if job.quick is None:
                    raise
                value, whole = await _quick_answer(http, job, refused)
            if not whole:  # computed with a share of its budget (a loaded pool): not the request's answer for good
                return value
        with self._lock:
            self._items[key] = value
        return value


async def _quick_answer(http: Request, job: Job, refused: admission.Busy) -> tuple[Any, bool]:
    """Return (job.quick() marked `busy`, False: never memoised), run in the app's quick lane (the live pool
    `refused` the request); `refused` (503) when the lane is full too."""
    def quick() -> Any:
        return service.busy_answer(job.quick())

    try:
        value, _ = await _unless_client_leaves(http, quick, http.app.state.quick, job.kind)
    except admission.Busy:
        raise refused from None
    return value, False


async def _unless_client_leaves(http: Request, work: Callable[[], Any], pool: admission.LivePool,
                                kind: str) -> tuple[Any, bool]:
    """Return (work() run in `pool` for the request's client (its address), whether it had its whole budget:
    `admission.share`); if the client disconnects first, cancel its live work (Stopped, answered 503 to
    nobody) so that the worker is free at once."""
    cancel = Cancel()
    client = http.client.host if http.client is not None else ""

    def compute() -> tuple[Any, bool]:
        return work(), admission.share() >= 1.0

    task = asyncio.ensure_future(pool.run(compute, cancel, client, kind))
    while True:
        done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL)
        if done:
            return task.result()
        if await http.is_disconnected():
            cancel.cancel()
            return await task  # Stopped at the searches' next node (or the answer, if it was just done)


def _answer_unless_live(plan: Callable[[Any], Job], request: BaseModel | None) -> tuple[bool, Any]:
    """Return (True, the answer) of a job the tree answers, else (False, the job) for the live pool."""
    job = plan(request)
    return (False, job) if job.live else (True, job.compute())


answers = Answers()


def _history(request, field: str = "history"):
    """Return (key, steps) of a request's game, variant and history as written (FieldError naming the
    field; `service.check_steps` checks them against each other)."""
    key = service.resolve(request.game, request.variant)
    return key, service.read_steps(key, [step.model_dump() for step in getattr(request, field)], field)


def _games(_: None) -> Job:
    return Job(False, service.games)


def _next(request: NextRequest) -> Job:
    key, steps = _history(request)
    service.check_left(key, steps)
    quick = service.on_tree(key, steps) and (request.top == 0 or service.ranked_ahead(key, steps, request.top))
    return Job(not quick, lambda: service.next_guess(key, service.check_steps(key, steps), request.top,
                                                      request.candidates, admission.budget(service.LIVE_SECONDS)),
               "next", lambda: service.next_guess(key, service.check_steps(key, steps), request.top,
                                                  request.candidates, 0.0))


# candidates, feedback, check: the candidates narrowed and a guess checked (milliseconds, off the tree too)
def _candidates(request: CandidatesRequest) -> Job:
    key, steps = _history(request)
    return Job(False, lambda: service.candidates(key, service.check_steps(key, steps), request.limit))


def _feedback(request: FeedbackRequest) -> Job:
    key, steps = _history(request)
    return Job(False, lambda: service.feedback(key, service.check_steps(key, steps), request.target, request.guess))


def _check(request: CheckRequest) -> Job:
    key, steps = _history(request)
    return Job(False, lambda: service.check(key, service.check_steps(key, steps), request.guess, request.target))


def _tree(request: TreeRequest) -> Job:
    key, steps = _history(request, "path")
    service.check_left(key, steps, "path")
    return Job(not service.on_tree(key, steps), lambda: service.tree_view(key, service.check_steps(key, steps, "path")),
               "tree")


def _boards_feedback(request: BoardsFeedbackRequest) -> Job:
    return Job(False, lambda: service.boards_feedback(service.resolve("wordle", request.variant), request.targets,
                                                      request.guess, request.history))


def _boards_next(request: BoardsNextRequest) -> Job:
    key = service.resolve("wordle", request.variant)
    history = [step.model_dump() for step in request.history]
    service.check_boards_length(key, request.boards, history)
    state = service.boards_state(key, request.boards, history)
    return Job(service.boards_look_ahead(state),
               lambda: service.boards_next(key, request.boards, history, request.candidates,
                                           admission.budget(service.BOARDS_BUDGET), state), "boards",
               lambda: service.boards_next(key, request.boards, history, request.candidates, 0.0, state))


def _review(request: ReviewRequest) -> Job:
    key = service.resolve(request.game, request.variant)
    history = [step.model_dump() for step in request.history]
    steps, field = service.read_review(key, history, request.answer, request.guesses)
    answer = None if request.answer is None else service.parse_target(service.game_of(key), request.answer, "answer")
    return Job(True, lambda: service.review(key, service.check_review(key, steps, field), answer, request.words,
                                            admission.budget(service.LIVE_SECONDS)), "review")


def _boards_review(request: BoardsReviewRequest) -> Job:
    key = service.resolve("wordle", request.variant)
    guesses, answers = service.read_boards_review(key, request.boards, request.answers, request.guesses)
    return Job(True, lambda: service.boards_review(key, guesses, answers, request.words), "boards_review")


@router.get("/games", response_model=GamesResponse, summary="Every game variant")
async def games(http: Request) -> dict:
    """Every registered game variant: its title, sizes, feedback format, an example guess, and whether
    a precomputed tree plays it."""
    return await answers.get(_games, None, http)


@router.post("/next", response_model=NextResponse, summary="The guess to play")
async def next_guess(request: NextRequest, http: Request) -> dict:
    """The solver's guess after the history (from the tree, else computed live), the candidates left,
    why that guess, and the `top` alternatives by expected remaining candidates.

    An impossible feedback is refused naming `history[i].feedback`; a guess that Wordle hard mode
    forbids, naming `history[i].guess`.
    """
    return await answers.get(_next, request, http)


@router.post("/candidates", response_model=CandidatesResponse, summary="The answers still possible")
async def candidates(request: CandidatesRequest, http: Request) -> dict:
    """The number of answers still possible after the history, and the first `limit` of them."""
    return await answers.get(_candidates, request, http)


@router.post("/feedback", response_model=FeedbackResponse, summary="Score a guess against a target")
async def feedback(request: FeedbackRequest, http: Request) -> dict:
    """The feedback `guess` gets when the answer is `target` (the history only serves Wordle hard
    mode's checks)."""
    return await answers.get(_feedback, request, http)


@router.post("/check", response_model=CheckResponse, summary="Check a guess without scoring it")
async def check(request: CheckRequest, http: Request) -> dict:
    """Whether /api/feedback would score `guess` (an allowed guess after the history) and `target` (a
    possible answer), answered 200 either way: `valid` false with the field and the message its 422
    would give (a word not in the list, a guess Wordle hard mode forbids). A history the game refuses is
    still a 422 naming it."""
    return await answers.get(_check, request, http)


@router.get("/random", response_model=RandomResponse, summary="A random possible answer")
async def random_target(game: Annotated[GameLiteral, Query(description="The game.")],
                        variant: Annotated[Union[str, None], Query(
                            max_length=100, description="The variant (default: the game's default).")] = None,
                        seed: Annotated[Union[int, None], Query(description="Seed for a repeatable choice.")] = None
                        ) -> dict:
    """A possible answer chosen at random (repeatable with `seed`)."""
    return await run_in_threadpool(service.random_target, service.resolve(game, variant), seed)


@router.get("/daily", response_model=DailyResponse, summary="The daily puzzle")
async def daily(game: Annotated[GameLiteral, Query(description="The game.")],
                variant: Annotated[Union[str, None], Query(
                    max_length=100, description="The variant (default: the game's default).")] = None,
                day: Annotated[Union[date, None], Query(alias="date", description=(
                    "The date, YYYY-MM-DD (default: the server's today); puzzle 0 is 2021-06-19."))] = None,
                boards: Annotated[int, Query(ge=1, le=32, description="Wordle boards (2 Dordle, 4 Quordle).")] = 1
                ) -> dict:
    """The answers of a date's puzzle: the same for everyone on that date (`solver.analysis.daily`), and
    its number, the days since 2021-06-19 (the published Wordle's number for the date)."""
    return await run_in_threadpool(service.daily, service.resolve(game, variant), day, boards)


@router.get("/boards/random", response_model=BoardsRandomResponse, summary="Answers for several Wordle boards")
async def boards_random(boards: Annotated[int, Query(ge=1, le=32, description="The boards (2 Dordle, 4 Quordle).")],
                        variant: Annotated[Union[str, None], Query(max_length=100, description=(
                            "Wordle's variant (default normal)."))] = None,
                        seed: Annotated[Union[int, None], Query(description="Seed for a repeatable choice.")] = None
                        ) -> dict:
    """Different answers drawn at random, one per board (repeatable with `seed`)."""
    return await run_in_threadpool(service.boards_random, service.resolve("wordle", variant), boards, seed)


@router.post("/boards/feedback", response_model=BoardsFeedbackResponse, summary="Score a guess on several boards")
async def boards_feedback(request: BoardsFeedbackRequest, http: Request) -> dict:
    """The feedback `guess` gets on each board, the boards' answers being `targets`, after the guesses of the
    `history` (null for a board they solved).

    Refused naming `guess` when it comes after every board was solved or past the guess limit, and in hard
    mode (variant hard) when it keeps the hard-mode rule of no unsolved board: the message gives each board's
    reason ("hard mode forbids CRONY: board 1: letter 3 must be L; board 2: letter 2 must be A"); naming
    `history[i]` for such an earlier guess, `targets` or `targets[i]` (not all different, not an answer)."""
    return await answers.get(_boards_feedback, request, http)


@router.post("/boards/next", response_model=BoardsNextResponse, summary="The guess to play on several boards")
async def boards_next(request: BoardsNextRequest, http: Request) -> dict:
    """The solver's guess for all the boards after the history (the one minimising the answers expected
    to be left, summed over the unsolved boards: `deduce play wordle --boards N`), computed live."""
    return await answers.get(_boards_next, request, http)


@router.post("/tree", response_model=TreeResponse, summary="A node of the decision tree")
async def tree(request: TreeRequest, http: Request) -> dict:
    """The node of the precomputed tree that `path` reaches: its guess, candidates, expected and worst
    guesses, its children (the win first, then by candidates left) and how many answers below it need
    each number of guesses. Off the tree, the same figures of the live strategy played out from the node
    (`deduce tree --path`)."""
    return await answers.get(_tree, request, http)


@router.post("/review", response_model=ReviewResponse, summary="Review a played game")
async def review(request: ReviewRequest, http: Request) -> dict:
    """Each guess of a played game against the best guess in its state (`deduce review`): the answers
    possible before and after it, the luck of the draw, the expected guesses to finish with it and with
    the best guess (from the tree, the opener ranking, else the exact search within the live budget),
    and the cost, the expected guesses it lost; then the guesses lost in all, a skill and a luck score
    (0-100) and a line to share.

    Give the `history` (guesses with their feedback), or the `answer` and the bare `guesses`. An empty
    game is refused naming `history`; a guess after the win naming `history[i]` (`guesses[i]`); an
    impossible feedback naming `history[i].feedback`.
    """
    return await answers.get(_review, request, http)


@router.post("/boards/review", response_model=BoardsReviewResponse, summary="Review a game of several boards")
async def boards_review(request: BoardsReviewRequest, http: Request) -> dict:
    """A game of several Wordle boards (Dordle, Quordle) reviewed as `deduce review wordle --boards N` does:
    each board as a Wordle game of its own over the guesses made while it was open, in /api/review's shape
    (the best guess is the best for that board alone: no optimum of several boards is known), the totals over
    the guesses that count (not those made on a board once its answer was known, for another board: each
    board's `not_counted`), a line to share, and the solver's own game of every board for the same answers.
    Computed live.

    Give the bare `guesses` and one different answer per board (`answers`): each board's feedback is
    computed. Refused naming `answers` (not one per board, or one given twice), `answers[i]` (not a possible
    answer), `guesses` (none, or more than the boards allow: 5 more than the boards), `guesses[i]` (not a
    word, played after every board was solved, or in hard mode keeping the rule of no unsolved board),
    `boards` (2 to 32). In hard mode (each guess keeps the hard-mode rule of at least one unsolved board) each
    board is rated as a normal-mode game (a board alone is no hard-mode game: a guess played for another board
    may break its rule); the solver's own game plays hard mode.
    """
    return await answers.get(_boards_review, request, http)


@router.post("/hide", response_model=HideResponse, summary="Play against the adversarial hider")
async def hide(request: HideRequest) -> dict:
    """The adversarial hider (`deduce hide`, like Absurdle): it never commits to an answer, answering each guess
    with the feedback that keeps the most answers, and shows the win only when the guess is the one answer left.
    The game is replayed from its `guesses` (the hider is deterministic), so taking a guess back is sending one
    fewer. Challenge mode (Absurdle's): with a `target` the player must force the hider into that word; the
    hider plays as without it, and `missed` names the guess whose feedback ruled the target out.

    Refused naming `guesses[i]` (not an allowed guess, one Wordle hard mode forbids, one after the win) or
    `target` (not a possible answer). Wordle's other word lengths are variants normal4, normal6 to normal9
    (hard4, hard6 to hard9)."""
    key = service.resolve(request.game, request.variant)
    return await run_in_threadpool(hiding.hider_game, key, request.guesses, request.target)
