"""The `deduce` command line: thin commands over the library; errors end as one line.

The work is done in the analysis layer (and, for builds, in the pipeline, imported inside the
commands that use it: `deduce --help` loads neither Numba nor pyarrow); here are only the
commands, their printing and the error edge (`solver.cli.errors`, whose exit statuses are the
`wordle` program's too). The options they share are in `solver.cli.options`.
"""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from solver.cli.errors import (
    INTERRUPTED_EXIT,
    OneLineErrors,
    domain_errors,
    fail,
    show_warnings,
    terminated_as_exit,
)
from solver.cli.lazy import lazy_module
from solver.cli.options import (
    FORMATS,
    AllWords,
    Answers,
    BackendName,
    BoardCount,
    Budget,
    Force,
    GameName,
    Guesses,
    Hard,
    Jobs,
    Lists,
    LiveMode,
    Prove,
    Scheduler,
    Show,
    Size,
    Top,
    Variant,
)
from solver.cli.proof import ProofDisplay
from solver.cli.prove import prove as prove_command
from solver.core import atomic
from solver.core.defaults import (
    BODY_TIMEOUT,
    DEFAULT_TOP,
    HEADER_TIMEOUT,
    KEEP_ALIVE,
    LIVE_BUDGET,
    MAX_CONNECTIONS,
    QUEUE_PER_WORKER,
)
from solver.core.package_version import installed_version
from solver.core.progress import terminal_progress
from solver.core.registry import GAME_MODULES, UsageError, default_variant, registered

# loaded when a command first uses them (they import NumPy, and the library): `deduce --help` needs none
several = lazy_module("solver.analysis.several_boards")
playout = lazy_module("solver.analysis.playout")
notation = lazy_module("solver.analysis.notation")
game_review = lazy_module("solver.analysis.review")
scores = lazy_module("solver.analysis.scores")
walk = lazy_module("solver.analysis.walk")
bench_text = lazy_module("solver.cli.bench")
exact_openers = lazy_module("solver.cli.openers")
reviews = lazy_module("solver.cli.review_lines")
serve_cli = lazy_module("solver.cli.serve")
views = lazy_module("solver.cli.views")
board_sessions = lazy_module("solver.cli.board_sessions")
sessions = lazy_module("solver.cli.sessions")
why = lazy_module("solver.cli.why")
coldstart = lazy_module("solver.core.coldstart")
runtime = lazy_module("solver.core.runtime")

# pyarrow's default allocator (mimalloc) keeps more resident after reading a tree, a book and the hints
# than the system's, for a command that reads a few small files (a book hint's peak: 172 MB, 121 MB so)
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")

DOT_DEPTH = 2  # levels `deduce tree --dot` draws below the node without --depth
OPENERS_TOP = 5  # openers `deduce openers` ranks without --top

app = typer.Typer(cls=OneLineErrors, no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False,
                  rich_markup_mode="markdown")


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"deduce {installed_version()}")
        raise typer.Exit()


@app.callback(help=f"Deduction-game solvers played from precomputed decision trees.\n\n{FORMATS}")
def main(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Deduction-game solvers played from precomputed decision trees."""
    show_warnings()


def _game(name: str, variant: str | None = None, hard: bool = False, answers: Path | None = None,
          guesses: Path | None = None, every_word: bool = False, size: int = 5, lists: str = "original"):
    return notation.select_game(name, variant, hard, answers, guesses, every_word, size, lists)


def _live(ctx: typer.Context, game, budget: float, live: str, prove: bool) -> None:
    """Set how the game's shared solver plays off the tree (`Solver.budget`, `Solver.live`) until the
    command ends."""
    if live not in runtime.LIVE_MODES:
        raise UsageError(f"--live is {' or '.join(runtime.LIVE_MODES)}, not {live!r}")
    if prove and live != "exact":
        raise UsageError("--exact needs --live exact")
    solver = runtime.get_solver(game)
    before = solver.budget, solver.live, solver.exact_live, solver.exact_live.progress
    solver.budget, solver.live = (math.inf if prove else budget), live
    stderr = typer.get_text_stream("stderr")
    display = ProofDisplay(stderr)
    if prove and stderr.isatty():
        solver.exact_live.progress = display.update
    if live == "exact" and not prove and stderr.isatty() and game.name in GAME_MODULES:
        # a person waits here: kernels not yet compiled on this machine are compiled in the background
        name, variant = registered(game) or (game.name, default_variant(game.name))  # the user's lists: the default's
        solver.exact_live = coldstart.ColdStart(solver.exact_live, name, variant)

    def restore() -> None:  # the solver is shared in this process: the settings last one command
        display.close()
        solver.budget, solver.live, solver.exact_live, solver.exact_live.progress = before

    ctx.call_on_close(restore)
    if prove and stderr.isatty():
        typer.echo("note: --exact: a guess off the tree waits for its proof (seconds, or minutes for large "
                   "states; Ctrl-C stops)", err=True)


def _say(lines: list[str]) -> None:
    for line in lines:
        typer.echo(line)


@app.command()
def tree(
    ctx: typer.Context,
    game: GameName,
    path: Annotated[str, typer.Option("--path", "-p", metavar="HISTORY", show_default=False,
                                      help="Guesses so far: GUESS=FEEDBACK,GUESS=FEEDBACK...")] = "",
    depth: Annotated[Optional[int], typer.Option(
        "--depth", "-d", min=0, show_default=False,
        help="Print this many levels below the node as an indented tree.")] = None,
    dot: Annotated[Optional[Path], typer.Option(
        "--dot", metavar="FILE", show_default=False,
        help=f"Write the node and --depth levels (default {DOT_DEPTH}) as Graphviz.")] = None,
    max_nodes: Annotated[int, typer.Option("--max-nodes", min=1, help="With --dot: draw at most N nodes, level by "
                                                                      "level; the rest become 'N more' nodes.")] = 200,
    candidates: Show = 10,
    variant: Variant = None, hard: Hard = False, answers: Answers = None, guesses: Guesses = None,
    all_words: AllWords = False,
    size: Size = 5, lists: Lists = "original",
    budget: Budget = LIVE_BUDGET, live: LiveMode = "exact", prove: Prove = False,
) -> None:
    """Show the node a history reaches: guess to play, candidates left, expected and worst guesses.

    A history that leaves the precomputed tree (or a game without one) is answered by the live
    solver, and the output says so. Example: `deduce tree battleship --path "A1-A3-H1=0,1,0" --depth 1`
    """
    with domain_errors():
        if dot is not None:
            atomic.check_writable(dot)  # before the work, not after
        chosen = _game(game, variant, hard, answers, guesses, all_words, size, lists)
        _live(ctx, chosen, budget, live, prove)
        steps = notation.parse_path(chosen, path) if path.strip() else []
        notation.check_guess_left(chosen, len(steps), won=bool(steps) and steps[-1][1] == chosen.win_code)
        view = views.locate(runtime.get_solver(chosen), steps)
        _say(views.summary(view, candidates))
        if depth:
            _say(views.indented(view, depth))
        if dot is not None:
            atomic.write_text(dot, views.dot(view, DOT_DEPTH if depth is None else depth, max_nodes))
            typer.echo(f"wrote {dot}")


@app.command()
def play(
    ctx: typer.Context,
    game: GameName,
    answer: Annotated[list[str], typer.Argument(metavar="ANSWER", show_default=False,
                                                help="The hidden answer, e.g. A1 A3 H1, 2C AS, CRANE, 1122, 0123.")],
    variant: Variant = None, hard: Hard = False, answers: Answers = None, guesses: Guesses = None,
    all_words: AllWords = False,
    size: Size = 5, lists: Lists = "original",
    boards: BoardCount = 1,
    budget: Budget = LIVE_BUDGET, live: LiveMode = "exact", prove: Prove = False,
) -> None:
    """Play against a known answer and print every guess and its feedback (the test driver).

    For cards the number of cards given chooses the variant: `deduce play cards 2C AS`. With
    `--boards N`, give one answer per board: `deduce play wordle CRANE SLOTH --boards 2`.
    """
    with domain_errors():
        chosen = _game(game, variant or notation.answer_variant(game, answer), hard, answers, guesses, all_words, size,
                       lists)
        _live(ctx, chosen, budget, live, prove)
        if boards > 1:
            several.check_boards(chosen, boards)
            _say(board_sessions.transcript(chosen, several.play(chosen, several.parse_answers(chosen, answer, boards))))
            return
        steps = walk.play(runtime.get_solver(chosen), notation.parse_answer(chosen, answer))
    symbols = notation.can_show_symbols(sys.stdout)
    for number, (row, code) in enumerate(steps, start=1):
        typer.echo(f"Guess #{number}: {notation.show_guess(chosen, row, symbols)}")
        typer.echo(f"Feedback: {notation.show_feedback(chosen, code)}")
    typer.echo(walk.verdict(chosen, len(steps)))


def _converse(session) -> None:
    stdin = typer.get_text_stream("stdin")
    try:
        status = sessions.converse(session, iter(stdin.readline, ""), typer.echo,
                                   lambda m: typer.echo(f"error: {m}", err=True), lambda p: typer.echo(p, nl=False),
                                   echo_input=not stdin.isatty(), interactive=stdin.isatty())
    except UnicodeDecodeError as err:  # a line of standard input that is not UTF-8 text: one line, no traceback
        typer.echo(f"error: standard input is not UTF-8 text (byte 0x{err.object[err.start]:02x} cannot be read)",
                   err=True)
        raise typer.Exit(1) from None
    if status:
        raise typer.Exit(status)


@app.command()
def solve(ctx: typer.Context, game: GameName, variant: Variant = None, hard: Hard = False, answers: Answers = None,
          guesses: Guesses = None, all_words: AllWords = False, size: Size = 5, lists: Lists = "original",
          boards: BoardCount = 1,
          budget: Budget = LIVE_BUDGET, live: LiveMode = "exact", prove: Prove = False) -> None:
    """Interactive assistant: it proposes a guess, you type the feedback you got.

    Type `GUESS=FEEDBACK` when you played another guess (the solver follows, live when that
    leaves the tree), `why` for how the proposed guess splits the candidates, `list` or `?` to see
    the candidates, `undo` to take back the last feedback, `quit` to stop. A malformed or
    impossible feedback is reported and asked again. It ends when the answer is identified. Reads
    piped standard input too; end of input before the end exits with status 1. Wordle: `deduce solve
    wordle --hard`; several boards: `deduce solve wordle --boards 4`, typing the marks of each
    unsolved board in order (RYRGR GGRRR ...).
    """
    with domain_errors():
        chosen = _game(game, variant, hard, answers, guesses, all_words, size, lists)
        _live(ctx, chosen, budget, live, prove)
        if boards > 1:
            session = board_sessions.BoardsSession(chosen, boards)
        else:
            session = sessions.SolveSession(chosen, symbols=notation.can_show_symbols(sys.stdout))
    _converse(session)


@app.command()
def hide(game: GameName, variant: Variant = None, hard: Hard = False, answers: Answers = None,
         guesses: Guesses = None, all_words: AllWords = False, size: Size = 5,
         lists: Lists = "original") -> None:
    """An adversarial hider (like Absurdle): you guess, it never commits to an answer.

    Each feedback is the one that keeps the most candidates alive; you win when one is left and
    you guess it. Type `list` or `?` for the count, `undo` to take back a guess, `quit` to give up.
    """
    with domain_errors():
        session = sessions.HideSession(_game(game, variant, hard, answers, guesses, all_words, size, lists))
    _converse(session)


@app.command()
def bench(
    ctx: typer.Context,
    game: GameName,
    sample: Annotated[Optional[int], typer.Option("--sample", "-s", min=1, show_default=False,
                                                  help="Play K random targets instead of all.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed of --sample.")] = 0,
    plot: Annotated[Optional[Path], typer.Option("--plot", metavar="FILE.png", show_default=False,
                                                 help="Also draw the histogram (matplotlib).")] = None,
    hardest: Annotated[int, typer.Option(
        "--hardest", metavar="N", min=0,
        help="List at most N of the targets needing the most guesses (0: none).")] = 10,
    variant: Variant = None, hard: Hard = False, answers: Answers = None, guesses: Guesses = None,
    all_words: AllWords = False,
    size: Size = 5, lists: Lists = "original",
    budget: Budget = LIVE_BUDGET, live: LiveMode = "exact", prove: Prove = False,
    boards: BoardCount = 1,
) -> None:
    """Play every target (or a sample) and print a histogram of guesses, the hardest targets, the
    mean with its standard deviation, the max and the wall time.

    `deduce bench wordle` gives the average over the whole answer list; `deduce bench wordle --boards 2
    --sample 1000 --seed 1` the same over 1000 random sets of 2 answers (Dordle; default 1000 sets).
    """
    with domain_errors():
        if plot is not None:
            bench_text.check_plot(plot)  # a bad --plot fails before the benchmark, not after

        chosen = _game(game, variant, hard, answers, guesses, all_words, size, lists)
        several.check_boards(chosen, boards)

        _live(ctx, chosen, budget, live, prove)
        if boards > 1:
            with terminal_progress(f"bench {chosen.title} on {boards} boards", sample or playout.BOARD_SETS) as advance:
                result = playout.run_boards(chosen, boards, sample, seed, on_solved=advance)
        else:
            with terminal_progress(f"bench {chosen.title}",
                                   min(sample or chosen.n_targets, chosen.n_targets)) as advance:
                result = playout.run(chosen, sample, seed, on_solved=advance)
        _say(bench_text.histogram(result, hardest))
        if plot is not None:
            bench_text.plot(result, plot)
            typer.echo(f"wrote {plot}")


@app.command()
def openers(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game (default wordle).")] = "wordle",
    top: Annotated[Optional[int], typer.Option(
        "--top", "-k", min=1, show_default=False,
        help=f"How many openers to rank (default {OPENERS_TOP}); with --all: keep the N best exact (the cut-off is the "
             "N-th best total so far, default 1) and print them.")] = None,
    exact: Annotated[bool, typer.Option(
        "--exact", help="Exact least total guesses of each opener (branch and bound search).")] = False,
    every: Annotated[bool, typer.Option(
        "--all", help="With --exact: rank every allowed opener, best by score first, with a shared cut-off, into "
                      "artifacts/openers-GAME-VARIANT.parquet (resumes what it holds).")] = False,
    selection: Annotated[Optional[str], typer.Option(
        "--slice", metavar="best:N,random:M", show_default=False,
        help="With --all: only the N best openers by score plus M others drawn with a fixed seed (seed:S to "
             "change it), e.g. best:100,random:50.")] = None,
    words: Annotated[Optional[str], typer.Option(
        "--words", "-w", metavar="GUESS,GUESS...", show_default=False,
        help="Rank these openers (comma-separated, any case) instead of the --top best by score.")] = None,
    cutoff: Annotated[Optional[int], typer.Option(
        "--cutoff", metavar="T", min=1, show_default=False,
        help="With --exact: abandon an opener once its total provably reaches T; printed as '>= bound'.")] = None,
    jobs: Jobs = 2,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    variant: Variant = None, hard: Hard = False, answers: Answers = None, guesses: Guesses = None,
    all_words: AllWords = False,
    size: Size = 5, lists: Lists = "original",
) -> None:
    """Rank openers: total guesses over every answer, by following the solver or (--exact) optimally.

    Without --exact: the K openers best by expected remaining candidates (or the --words) are each
    followed by the solver (the tree after the tree's own opener, live computation after the
    others), sorted by total guesses; the tree's own opener is added for comparison (marked
    "tree"). Each opener's every answer is played (a progress bar on a terminal): Wordle takes about
    4 s an opener on 2 cores, plus a few seconds to start (`--top 3`: 13 s measured), more on a busy
    machine.

    With --exact: the least total of any tree opening with each guess (at most 6 guesses for
    Wordle), one line per opener, best first: `SALET 7920`; with `--cutoff T` an opener that
    cannot beat T is abandoned early and printed as `TRACE >= 7926` (a proven lower bound).
    Openers are shared by --jobs processes (one opener: its classes on --jobs threads); an opener
    the ranking file holds exactly is answered from it, marked "(from the opener ranking)". Wordle on
    2 cores: 1-20 s per good opener (`--exact --top 10`, or the six best published openers: under a
    minute); a weak opener such as FUZZY can take more than 15 minutes, but `--cutoff 7921` dismisses
    it in 2 s (a cutoff close to the totals saves little).

    With --exact --all: every allowed opener (or a --slice), best by expected remaining candidates
    first, with the cut-off one more than the best exact total so far (the N-th best with --top N):
    results go to artifacts/openers-GAME-VARIANT.parquet as they come, and a run stopped and
    started again skips what is there. `--backend dask` runs the tasks on a Dask cluster
    (docs, "Running on a cluster").
    """
    with domain_errors():
        exact_openers.check_options(exact, cutoff, every, words, selection, backend, scheduler)
        chosen = _game(game, variant, hard, answers, guesses, all_words, size, lists)
        rows = exact_openers.parse_words(chosen, words) if words is not None else None
        stderr = typer.get_text_stream("stderr")
        if every:
            ranking = exact_openers.rank_all(chosen, top or 1, cutoff, selection, jobs, backend, scheduler,
                                             show_progress=stderr.isatty())
            _say(exact_openers.lines(chosen, ranking.results[:top or OPENERS_TOP]))
            typer.echo(exact_openers.summary(ranking))
            return
        top = top or OPENERS_TOP
        if not exact:
            total = len(playout.opener_rows(chosen, rows)) if rows is not None else None
            with terminal_progress("openers", total) as advance:
                ranked = playout.openers(chosen, top, rows, on_done=advance)
            _say(bench_text.openers_table(ranked))
            _say(exact_openers.ranked_lines(chosen, rows or []))
            return
        progress = (lambda r: typer.echo(f"  {exact_openers.line(chosen, r)} ({r.seconds:.1f} s)", err=True)) \
            if stderr.isatty() else None
        results, held = exact_openers.exact(chosen, rows, top, cutoff, jobs, progress, backend, scheduler)
        _say(exact_openers.lines(chosen, results, held))


@app.command()
def hint(
    ctx: typer.Context,
    game: GameName,
    history: Annotated[Optional[list[str]], typer.Argument(metavar="GUESS=FEEDBACK", show_default=False,
                                                           help="Guesses so far, e.g. CRANE=RYRGR.")] = None,
    top: Top = DEFAULT_TOP,
    candidates: Show = 100,
    explain: Annotated[Optional[str], typer.Option(
        "--explain", "-e", metavar="GUESS", show_default=False,
        help="Explain this guess instead of the solver's (any guess allowed here).")] = None,
    hard: Hard = False, answers: Answers = None, guesses: Guesses = None, variant: Variant = None,
    all_words: AllWords = False,
    size: Size = 5, lists: Lists = "original",
    budget: Budget = LIVE_BUDGET, live: LiveMode = "exact", prove: Prove = False,
) -> None:
    """List the answers still possible after a history, rank the best next guesses and explain the
    solver's guess.

    Guesses are ranked by the expected guesses to finish with them ("to go", this one included, with
    the worst case): from the tree, the opener ranking or the exact search within the budget, each
    marked proven, approximate (~) or a lower bound (>=); the solver's guess is always listed, and
    the expected candidates left and the entropy are shown beside. The "Why GUESS:" block gives the
    sizes of the groups the guess splits the candidates into, the worst case, the chance it is the
    answer and the guesses expected from here (from the tree, or the solver's play computed live;
    `--explain GUESS` for another guess).

    For wordle the possible answers are the 2315 answers, as in `tree` and `solve` (with
    --all-words: every acceptable word). Example: `deduce hint wordle CRANE=RYRGR --top 10`
    """
    with domain_errors():
        chosen = _game(game, variant, hard, answers, guesses, all_words, size, lists)
        _live(ctx, chosen, budget, live, prove)
        steps = [notation.parse_step(chosen, step) for step in history or []]
        notation.check_guess_left(chosen, len(steps), won=bool(steps) and steps[-1][1] == chosen.win_code)
        result = scores.hint(chosen, steps, top)
        reasons = why.hint_lines(chosen, steps, explain, [r.to_go for r in result.ranked])
    _say(scores.report(chosen, result, candidates))
    _say([""] + reasons if reasons else [])


@app.command()
def review(
    ctx: typer.Context,
    game: GameName,
    history: Annotated[list[str], typer.Argument(metavar="GUESS=FEEDBACK|GUESS", show_default=False, help=(
        "The game's guesses in order, with their feedback (CRANE=RYRGR), or bare with --answer."))],
    answer: Annotated[Optional[str], typer.Option(
        "--answer", "-a", metavar="ANSWER", show_default=False,
        help="The answer: give bare guesses, their feedback is computed.")] = None,
    words: Annotated[bool, typer.Option(
        "--words", help="List the answers still possible before each guess.")] = False,
    boards: BoardCount = 1,
    hard: Hard = False, answers: Answers = None, guesses: Guesses = None, variant: Variant = None,
    all_words: AllWords = False,
    size: Size = 5, lists: Lists = "original",
    budget: Budget = LIVE_BUDGET, live: LiveMode = "exact", prove: Prove = False,
) -> None:
    """Review a played game: each guess against the best one, with its cost in expected guesses.

    For every guess: the candidates before and after, the candidates it was expected to leave, the
    luck of the draw (0-100), the expected guesses to finish with it and with the best guess (from
    the tree, the opener ranking or the exact search within --budget a rating; ~ marks a value not
    proven: --exact waits for the proofs), the best guess and the cost, and what a guess cannot
    guarantee within the guess limit. Then the guesses lost in all, a skill and a luck score (0-100,
    the first guess counts), the solver's own game for the same answer (when it is known: given,
    won, or the one left) and a line to share; --words lists the answers possible before each guess.

    With --boards N (Dordle 2, Quordle 4): the bare guesses and --answer with the N answers; each board
    is reviewed as a Wordle game of its own over the guesses made while it was open (no optimum of
    several boards is known: the best guess is the best for that board alone), beside the solver's
    own game of all the boards: `deduce review wordle --boards 2 SALET CRONY ... --answer CRONY,FLOOR`.

    Examples: `deduce review wordle CRANE=RYRGR BURNT=GGGGG`, `deduce review wordle CRANE BURNT --answer BURNT`
    """
    with domain_errors():
        chosen = _game(game, variant, hard, answers, guesses, all_words, size, lists)
        _live(ctx, chosen, budget, live, prove)
        if boards > 1:
            several.check_boards(chosen, boards)
            if answer is None:
                raise UsageError(f"--boards {boards} needs --answer with the {boards} answers (comma-separated) and "
                                 "the bare guesses")
            targets = several.parse_answers(chosen, [answer], boards)
            rows = reviews.bare_guesses(chosen, history)
            result = game_review.review_boards(chosen, rows, targets, several.play(chosen, targets))
            _say(reviews.board_lines(result, words))
            return
        steps = reviews.parse_game(chosen, history, answer)
        target = None if answer is None else reviews.answer_row(chosen, answer)
        result = game_review.review(chosen, steps, answer=target)
    _say(reviews.lines(result, chosen.max_guesses, words))


@app.command()
def tables(
    games: Annotated[Optional[list[str]], typer.Argument(help="Games to rebuild (default: all).")] = None,
    jobs: Jobs = 2,
    force: Force = False,
    where: Annotated[bool, typer.Option("--where", help="Print the folders searched for artifacts, in order "
                                                         "(the first is where builds write), and exit.")] = False,
    custom: Annotated[Optional[str], typer.Option(
        "--game", metavar="MODULE:FUNCTION", show_default=False,
        help="Build the tree of your own game: a function returning a Game, e.g. one made by "
             "solver.games.generic.from_function (the current folder is importable).")] = None,
    sizes: Annotated[Optional[list[int]], typer.Option(
        "--size", metavar="LETTERS", min=4, max=9, show_default=False,
        help="Build Wordle's table and trees (normal and hard) for words of this length, 4 to 9 (repeat for "
             "several); these are built only on request.")] = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
) -> None:
    """Rebuild the feedback tables and decision trees that are missing or stale (see --where).

    The trees' tasks (root classes, root children) run in --jobs local processes, or with
    `--backend dask` on a Dask cluster (`--scheduler tcp://HOST:PORT`, or a LocalCluster here);
    the artifacts are the same either way (docs, "Running on a cluster").
    """
    if where:
        from solver.core import artifacts  # defers pyarrow until an artifact is read or written

        for folder in artifacts.search_dirs():
            typer.echo(str(folder))
        return
    from pipeline.cluster import check_options, open_backend  # defers asyncio and multiprocessing (start-up time)
    from pipeline.custom_game import build_custom  # defers the pipeline (Numba, pyarrow) to this command
    from pipeline.rebuild import build_all  # defers the pipeline (Numba, pyarrow) to this command

    with terminated_as_exit(), domain_errors():
        if custom is not None and (backend != "local" or scheduler is not None):
            raise UsageError("--game builds on this machine only: drop --backend and --scheduler")
        check_options(backend, scheduler)
        if custom is not None:
            typer.echo(f"tree: {build_custom(custom, jobs=jobs, force=force)}")
        else:
            with open_backend(backend, scheduler, jobs) as place:  # where the trees' tasks run
                build_all(games or None, jobs=place.jobs_for(jobs), force=force, sizes=sizes)


@app.command()
def serve(
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on: 127.0.0.1 answers this machine only; 0.0.0.0 makes the server "
                       "reachable from the network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port to listen on.")] = 8000,
    live_workers: Annotated[Optional[int], typer.Option(
        "--live-workers", min=1, metavar="N", help="Live computations (off the tree, rankings, reviews) at once "
                                                   "[default: the CPU count].")] = None,
    live_queue: Annotated[Optional[int], typer.Option(
        "--live-queue", min=0, metavar="N", help="Live requests waiting for a worker; more get 503 with "
                                                 f"Retry-After [default: {QUEUE_PER_WORKER} x the workers].")] = None,
    max_connections: Annotated[Optional[int], typer.Option(
        "--max-connections", min=1, metavar="N", help="Connections and requests at once; more get 503 "
                                                      f"[default: {MAX_CONNECTIONS}].")] = None,
    keep_alive: Annotated[Optional[float], typer.Option(
        "--keep-alive", min=0.001, metavar="SECONDS", help="Idle time before a connection is closed "
                                                           f"[default: {KEEP_ALIVE:g}].")] = None,
    header_timeout: Annotated[Optional[float], typer.Option(
        "--header-timeout", min=0.001, metavar="SECONDS", help="Time for a request's headers, else 408 and "
                                                               f"closed [default: {HEADER_TIMEOUT:g}].")] = None,
    body_timeout: Annotated[Optional[float], typer.Option(
        "--body-timeout", min=0.001, metavar="SECONDS", help="Time for a request's body, else 408 and closed "
                                                             f"[default: {BODY_TIMEOUT:g}].")] = None,
) -> None:
    """Serve the web page and its JSON API (documented at /docs) until Ctrl-C; needs the web extra.

    It prints the address and opens nothing by itself. The server keeps no state between requests.
    Tree answers are never held up by live computations, which run in a bounded pool. Each limit may
    also be set as an environment variable DEDUCE_WEB_ and the option's name in capitals
    (DEDUCE_WEB_LIVE_WORKERS=4); an option given wins.
    Example: `deduce serve --port 8080`, then open http://127.0.0.1:8080
    """
    if not serve_cli.installed():
        fail("deduce serve needs the web extra: pip install 'deduce-solver[web]'")
    with domain_errors():
        try:
            limits = serve_cli.Limits.from_env(live_workers=live_workers, live_queue=live_queue,
                                         max_connections=max_connections, keep_alive=keep_alive,
                                         header_timeout=header_timeout, body_timeout=body_timeout)
            serve_cli.serve(host, port, typer.echo, limits)
        except KeyboardInterrupt:
            raise typer.Exit(INTERRUPTED_EXIT) from None


app.command(name="prove")(prove_command)  # `deduce prove`: a proof campaign (solver/cli/prove.py)


if __name__ == "__main__":
    app()
