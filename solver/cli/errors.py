"""The command line's error edge: one-line errors and the exit statuses.

Exit statuses, shared with the `wordle` program: 0 success (also when standard output is closed
early, `deduce ... | head`); 1 a data or runtime error (a guess or feedback the game refuses,
inconsistent feedback, an unreadable or invalid file); 2 a usage error (an unknown option, command, game or
variant, a missing argument, an option value of the wrong type or out of range, options that exclude each
other); 130 interrupted.
"""
from __future__ import annotations

import copy
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer
from typer.core import TyperGroup

from solver.core.registry import UsageError
from solver.core.signals import TERMINATED_EXIT, Terminated, sigterm_raises

DATA_EXIT, USAGE_EXIT, INTERRUPTED_EXIT = 1, 2, 130  # and TERMINATED_EXIT, 143 (solver.core.signals)
NUMBER_RANGES = ("IntRange", "FloatRange")  # click's types of a number option with min= or max= (typer vendors them)
# click's UsageError (typer vendors click and exports only this subclass of it)
_UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


def fail(message: str, status: int = DATA_EXIT) -> None:
    """Print a one-line error on stderr and exit with `status` (a data error by default)."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    raise typer.Exit(status)


class WarningLines(logging.Handler):
    """Print the library's warnings (e.g. an unusable tree file) on stderr, one line each."""

    def emit(self, record: logging.LogRecord) -> None:
        typer.echo(f"warning: {' '.join(record.getMessage().split())}", err=True)


_WARNINGS = WarningLines(logging.WARNING)


def show_warnings() -> None:
    """Print the `solver` loggers' warnings as `warning: ...` lines on stderr (installed once)."""
    logger = logging.getLogger("solver")
    if _WARNINGS not in logger.handlers:
        logger.addHandler(_WARNINGS)


def _plain_type_labels(command) -> None:
    """Drop typer's Python type labels (``<str>``, ``<int range>``, ``<list[str]>``) from a command's help:
    arguments are named by their metavar already, flags take no value, and an option with a value
    shows its metavar (N for a number, then its range; else its name in capitals). For the typer this
    project holds (below 0.29): its help shows an argument's type by the type's metavar, and an
    option's by the option's."""
    def plain(param):
        if isinstance(param, typer.core.TyperArgument):
            shown = copy.copy(param.type)  # this argument's own: the type objects are shared
            shown.get_metavar = lambda param, ctx: ""  # an empty type column (None would show <str>)
            param.type = shown
        elif not isinstance(param, typer.core.TyperArgument) and not getattr(param, "is_flag", False) \
                and param.metavar is None:
            param.metavar = "N" if type(param.type).__name__ in NUMBER_RANGES else param.name.upper()
        return param

    for param in command.params:
        plain(param)
    help_option = command.get_help_option  # --help is made when the help is shown
    command.get_help_option = lambda ctx: None if (option := help_option(ctx)) is None else plain(option)


def _quiet_help(command) -> None:
    """Make a command's help end quietly (`closed_output`) when standard output is closed early
    (`deduce --help | head`): rich's console ends such a help with SystemExit(1) (its documented
    `Console.on_broken_pipe`, after pointing standard output at /dev/null)."""
    format_help = command.format_help

    def quiet(ctx, formatter):
        try:
            return format_help(ctx, formatter)
        except BrokenPipeError:
            closed_output()
        except SystemExit as exit_:
            if exit_.code != 1:
                raise
            closed_output()

    command.format_help = quiet


class OneLineErrors(TyperGroup):
    """A command group whose usage errors (missing argument, bad option value) print one line, and
    whose output closed early ends quietly with status 0 (`closed_output`), its help's too."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for command in (self, *self.commands.values()):
            _plain_type_labels(command)
            _quiet_help(command)

    @contextmanager
    def _usage_errors(self) -> Iterator[None]:
        try:
            yield
        except _UsageError as err:
            if type(err).__name__ == "NoArgsIsHelpError":
                raise
            where = f" (see '{err.ctx.command_path} --help')" if err.ctx is not None else ""
            fail(err.format_message() + where, USAGE_EXIT)

    def make_context(self, *args, **kwargs):
        with self._usage_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with self._usage_errors():
            try:
                return super().invoke(ctx)
            except BrokenPipeError:
                closed_output()


def closed_output() -> None:
    """End quietly when standard output is closed early (`deduce ... | head`): no message, exit 0, so
    that a pipeline under `set -o pipefail` does not fail because its reader stopped early.

    As the Python documentation advises (and as `wordle` does), standard output is pointed at
    /dev/null so that the interpreter's last flush cannot fail again.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real descriptor (e.g. tests' captured output)
        pass
    raise typer.Exit(0)


@contextmanager
def domain_errors() -> Iterator[None]:
    """Turn the library's errors into one line: exit 2 for an unknown game or variant or options that
    exclude each other (usage), 1 for bad guesses, feedback, word lists and files (data)."""
    try:
        yield
    except ValueError as err:
        fail(str(err), USAGE_EXIT if isinstance(err, UsageError) else DATA_EXIT)
    except BrokenPipeError:  # our standard output was closed: not an error (see `closed_output`)
        raise
    except OSError as err:
        fail(f"{err.filename}: {err.strerror or err}" if err.filename else str(err))  # a full disk names the file


@contextmanager
def terminated_as_exit() -> Iterator[None]:
    """Turn SIGTERM during the block into a clean exit with status 143 (128 + 15): the block's `finally`
    clauses and the worker pools' shutdown run, rather than the process dying at once (status -15, and
    a screen of warnings about leaked semaphores from the worker pools)."""
    try:
        with sigterm_raises():
            yield
    except Terminated:
        raise typer.Exit(TERMINATED_EXIT) from None
