"""The `wordle` console script: the Wordle game of the specification.

Three parts, kept apart:

* options: the command line (argparse) merged over an optional JSON config file, checked, then
  turned into a `Session` (word lists, answer order, state file) by `build_session`;
* the game loop: `solver.wordle_program.play.play`, pure logic driving a UI object;
* two UIs (`solver.wordle_program.terminal`), chosen by whether standard output is a terminal:
  `TestModeUI` prints the plain lines the conformance tests read, `RichUI` a coloured board and keyboard,
  the share grid after each game and (with -t) the original game's statistics and guess distribution.

With -b/--boards N > 1 every game has N boards (Dordle, Quordle): N answers, N + 5 guesses, each
guess scored on every board not solved yet (with -D, allowed by the hard-mode rule of at least one board
not solved yet); both UIs show all the boards (see README.md).

Every error ends the program with one line on standard error (`error: ...`, as `deduce`) and a
non-zero status: 2 for bad arguments, 1 for anything else (files, lists, input), 130 when interrupted, 143
on SIGTERM (which ends it like Ctrl-C: a state file being saved keeps its old content and no temporary
copy). The files read must be regular files no larger than their caps (`solver.core.bounded_input`): word lists
16 MB, the state file 64 MB, the config file 1 MB; input quoted in a message is cut to a short excerpt. The state
file is checked for writing before the first game (and the temporary copies a killed run left beside
it removed), written by `solver.core.atomic`, and never larger than the 64 MB it may be read back. Standard
output closed early (`wordle ... | head`) ends the program quietly with status 0, as `deduce`.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Sequence, TextIO

from solver.core.atomic import check_writable, locked, remove_stale_temporaries, write_text
from solver.core.bounded_input import CONFIG_LIMIT, InputFileError, excerpt, read_text
from solver.core.package_version import installed_version
from solver.core.signals import TERMINATED_EXIT, Terminated, raise_on_sigterm
from solver.games.boards import MAX_BOARDS
from solver.games.wordlists import WordListError, builtin_answers, builtin_guesses, read_word_list, word_lists
from solver.wordle_program.play import InputEnded, NotAnAnswer, Session, check_answers, play, random_answers
from solver.wordle_program.records import Records, load_state, parse_json_object
from solver.wordle_program.rounds import WORD_LENGTH, WordleError, normalise_word
from solver.wordle_program.terminal import RichUI, TestModeUI

DEFAULT_SEED = 20220123  # -s default: the seed of the specification's example config file
U64_MAX = 2**64 - 1


class ArgumentError(Exception):
    """A bad command line (exit status 2)."""


# ----------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Options:
    """The resolved options: command line over config file over defaults."""

    word: str | None = None
    random: bool = False
    difficult: bool = False
    stats: bool = False
    day: int | None = None
    seed: int | None = None
    final_set: str | None = None
    acceptable_set: str | None = None
    state: str | None = None
    boards: int = 1
    tui: bool = False  # --tui (command line only): the full-screen game, `solver.wordle_program.tui`
    coach: bool = False  # --coach (with --tui): follow a game played elsewhere


CONFIG_TYPES: dict[str, type] = {
    "random": bool, "difficult": bool, "stats": bool, "day": int, "seed": int,
    "final_set": str, "acceptable_set": str, "state": str, "word": str, "boards": int,
}


_KIND_NAMES = {bool: "true or false", int: "an integer", str: "a string"}


def _natural(text: str) -> int:
    if not re.fullmatch(r"[0-9]+", text):
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {excerpt(text)}")
    if len(text.lstrip("0")) > len(str(U64_MAX)):  # int() refuses over 4300 digits
        raise argparse.ArgumentTypeError(f"expected an integer below 2**64, got {excerpt(text)}")
    return int(text)


class _Version(argparse.Action):
    """``--version``: prints the version, read from the package metadata only then (80 ms of imports)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the program's version number and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        parser._print_message(f"{parser.prog} {installed_version()}\n", sys.stdout)
        parser.exit()


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print usage and exit
        raise ArgumentError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="wordle", allow_abbrev=False, description="Play Wordle. With standard "
                     "output not a terminal, prints the plain lines of the specification's test mode.")
    parser.add_argument("-V", "--version", action=_Version)
    parser.add_argument("-w", "--word", help="the answer (otherwise read from standard input); "
                        "with several boards, one per board separated by commas")
    parser.add_argument("-r", "--random", action="store_true", default=None, help="random answers")
    parser.add_argument("-D", "--difficult", action="store_true", default=None, help="hard mode")
    parser.add_argument("-t", "--stats", action="store_true", default=None, help="statistics after each game")
    parser.add_argument("-d", "--day", type=_natural, help="random mode: first game (default 1)")
    parser.add_argument("-s", "--seed", type=_natural, help=f"random mode: u64 seed (default {DEFAULT_SEED})")
    parser.add_argument("-f", "--final-set", metavar="FILE", help="answer list file")
    parser.add_argument("-a", "--acceptable-set", metavar="FILE", help="acceptable guess list file")
    parser.add_argument("-S", "--state", metavar="FILE", help="JSON state file, loaded and saved")
    parser.add_argument("-c", "--config", metavar="FILE", help="JSON config file (options override it)")
    parser.add_argument("-b", "--boards", metavar="N", type=_natural,
                        help=f"boards (answers) per game, 1 to {MAX_BOARDS}: N + 5 guesses when N > 1 (default 1)")
    parser.add_argument("--tui", action="store_true", help="play full screen (the tui extra: pip install "
                        "'deduce-solver[tui]')")
    parser.add_argument("--coach", action="store_true", help="with --tui: type the guesses and colours of a game "
                        "played elsewhere and see the best next guesses")
    return parser


def load_config(path: str) -> dict[str, Any]:
    """Return the options set in a JSON config file; WordleError if it is unreadable or malformed."""
    try:
        text = read_text(path, CONFIG_LIMIT, "config file")
    except InputFileError as err:
        raise WordleError(str(err)) from None
    data = parse_json_object(text, f"config file {path}")
    config = {}
    for key, value in data.items():
        kind = CONFIG_TYPES.get(key)
        if kind is None:
            raise WordleError(f"config file {path}: unknown key {excerpt(key)} (known: {', '.join(CONFIG_TYPES)})")
        if value is None:
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise WordleError(f"config file {path}: {key!r} must be {_KIND_NAMES[kind]}")
        if kind is int and not 0 <= value <= U64_MAX:
            raise WordleError(f"config file {path}: {key!r} must be a non-negative integer below 2**64")
        config[key] = value
    return config


def resolve_options(argv: Sequence[str]) -> Options:
    """Return the options of a command line (with its config file); ArgumentError/WordleError if bad."""
    args = build_parser().parse_args(list(argv))
    config = load_config(args.config) if args.config is not None else {}
    merged = {}
    for key, kind in CONFIG_TYPES.items():
        value = getattr(args, key) if getattr(args, key) is not None else config.get(key)
        merged[key] = bool(value) if kind is bool else value  # flags: absent everywhere = False
    if merged["boards"] is None:
        merged["boards"] = 1
    options = Options(**merged, tui=args.tui, coach=args.coach)
    if options.coach and not options.tui:
        raise ArgumentError("--coach needs --tui")
    if options.coach and (options.word is not None or options.random or options.state is not None or options.stats):
        raise ArgumentError("--coach follows a game played elsewhere: --word, --random, --state and --stats do not "
                            "apply")
    if options.coach and options.boards > 1:
        raise ArgumentError("--coach follows one board (deduce solve wordle --boards N coaches several)")
    if options.random and options.word is not None:
        raise ArgumentError("--word cannot be used in random mode (--random)")
    if not options.random and (options.day is not None or options.seed is not None):
        raise ArgumentError("--day and --seed can only be used in random mode (--random)")
    if options.seed is not None and options.seed > U64_MAX:
        raise ArgumentError(f"--seed must be at most {U64_MAX}")
    if options.day is not None and options.day < 1:
        raise ArgumentError("--day must be at least 1")
    if not 1 <= options.boards <= MAX_BOARDS:
        raise ArgumentError(f"--boards must be between 1 and {MAX_BOARDS}, got {options.boards}")
    return options


def build_session(options: Options) -> Session:
    """Load the word lists and the state file and return the session the options describe."""
    try:
        answers = builtin_answers() if options.final_set is None else read_word_list(options.final_set)
        acceptable = builtin_guesses() if options.acceptable_set is None else read_word_list(options.acceptable_set)
        answers, acceptable = word_lists(answers, acceptable, WORD_LENGTH)  # the library's one check
    except WordListError as err:
        raise WordleError(str(err)) from None
    boards = options.boards
    session = Session(answers, frozenset(acceptable), hard=options.difficult, stats=options.stats, boards=boards)
    if boards > len(answers):
        raise WordleError(f"the answer list has {len(answers)} words, fewer than the {boards} boards")
    if options.word is not None and boards > 1:
        try:
            session.words = check_answers(options.word, boards, answers)
        except NotAnAnswer as err:
            raise WordleError(str(err)) from None
        except ValueError as err:  # their number, or one given twice
            raise ArgumentError(f"--word: {err}") from None
    elif options.word is not None:
        session.word = normalise_word(options.word)
        if session.word not in answers:
            raise WordleError(f"the answer {excerpt(options.word)} is not in the answer list")
    if options.random:
        day = options.day if options.day is not None else 1
        games = len(answers) // boards
        if day > games and boards == 1:
            raise ArgumentError(f"--day must be at most {len(answers)}, the size of the answer list")
        if day > games:
            raise ArgumentError(f"--day must be at most {games}, the number of {boards}-board games "
                             f"in the answer list of {len(answers)} words")
        seed = options.seed if options.seed is not None else DEFAULT_SEED
        session.order = random_answers(answers, day, seed, boards)
        session.first_day = day
    if options.state is not None:
        path = options.state
        session.state = load_state(path)
        try:  # an unwritable state file is refused before the first game
            check_writable(path)
        except OSError as err:
            raise WordleError(f"cannot write state file {path}: {err.strerror or err}") from None
        remove_stale_temporaries(path)  # what a run killed while saving left beside it
        session.save = lambda game: record_game(path, game)
    return session


def record_game(path: str, game) -> Records:
    """Add a finished game to the state file and return the file's state: under the file's lock
    (`solver.core.atomic.locked`) it is read again (other runs may have added games since), the game
    appended, and the file replaced atomically (its mode kept, a read-only one or a missing folder
    refused), so concurrent runs never lose each other's games."""
    try:
        with locked(path):
            state = load_state(path)
            state.record(game)
            write_text(path, state.file_text(f"state file {path}"))
    except OSError as err:
        raise WordleError(f"cannot write state file {path}: {err.strerror or err}") from None
    return state


# ----------------------------------------------------------------------------- entry point


def run(argv: Sequence[str], stdin: TextIO | None = None, stdout: TextIO | None = None,
        stderr: TextIO | None = None, interactive: bool | None = None) -> int:
    """Run the program and return its exit status; errors are printed as one line on `stderr`.

    Streams default to the process's; `interactive` defaults to whether `stdout` is a terminal.
    """
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    ui = None
    try:
        options = resolve_options(argv)
        if options.tui:
            tui = _tui_module()
            tui.check_terminal(stdin or sys.stdin, stdout)
            tui.run_tui(build_session(options), options.coach, stdin, stdout)
            return 0
        session = build_session(options)
        if interactive is None:
            interactive = stdout.isatty()
        ui = RichUI(stdout, stdin, session) if interactive else TestModeUI(stdin or sys.stdin, stdout)
        play(session, ui)
        return 0
    except SystemExit as exit_:  # --help
        return exit_.code if isinstance(exit_.code, int) else 0
    except ArgumentError as err:
        return _fail(stderr, str(err), 2)
    except InputEnded as err:
        if not _at_a_terminal(stdin or sys.stdin):
            return _fail(stderr, str(err), 1)
        _end_prompt_line(stdout, ui)  # Ctrl-D at a terminal: the player leaves, as `deduce solve` lets them
        stdout.write(f"Bye: {err.reveal}.\n")
        return 0
    except WordleError as err:
        return _fail(stderr, str(err), 1)
    except KeyboardInterrupt:
        _end_prompt_line(stdout, ui)
        return _fail(stderr, "interrupted", 130)
    except Terminated:
        _end_prompt_line(stdout, ui)
        return _fail(stderr, "terminated", TERMINATED_EXIT)
    except BrokenPipeError:
        raise
    except Exception as err:  # noqa: BLE001 - a bug: still one line, never a traceback
        return _fail(stderr, f"internal error: {type(err).__name__}: {err}", 1)


def _tui_module():
    """Return `solver.wordle_program.tui`; WordleError naming the extra when Textual is not installed."""
    try:
        from solver.wordle_program import tui  # defers Textual (the tui extra) and rich to --tui
    except ImportError as err:
        if (err.name or "").partition(".")[0] not in ("textual", "rich"):
            raise
        raise WordleError("--tui needs the tui extra: pip install 'deduce-solver[tui]'") from None
    return tui


def _fail(stderr: TextIO, message: str, status: int) -> int:
    """Print `error: MESSAGE` on one line, as `deduce` does (`solver.cli.errors.fail`), and return `status`."""
    print("error: " + " ".join(message.split()), file=stderr, flush=True)
    return status


def _at_a_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False


def _end_prompt_line(stdout: TextIO, ui) -> None:
    """End the line of a terminal prompt the program was interrupted at, so that the error starts its own."""
    if isinstance(ui, RichUI):
        try:
            stdout.write("\n")
            stdout.flush()
        except OSError:
            pass


def main() -> None:
    """Console-script entry point."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # undecodable input is an invalid line, not a crash
    raise_on_sigterm()  # SIGTERM raises Terminated: every `finally` runs (a state file's temporary copy removed)
    try:
        status = run(sys.argv[1:])
    except BrokenPipeError:  # standard output closed early (e.g. piped into head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0  # not a failure: `set -o pipefail` scripts go on (as `deduce`: solver.cli.errors.closed_output)
    except Terminated:  # between run's own handlers
        status = TERMINATED_EXIT
    sys.exit(status)


if __name__ == "__main__":
    main()
