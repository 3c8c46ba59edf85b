"""Artifacts a solver loads lazily (its tree, its opener book) are loaded once and published whole:
threads that arrive while the first one reads the file wait for it, and none sees an empty book or
loads the file again (a thread that found the book still empty would answer from the live search, not
proven, and a web server would memoise that answer for its life).

The reader is made slow (it sleeps once entered), the first thread is started and, once it is inside the
reader, the others are: on code that publishes a placeholder first, or loads without a lock, they all
arrive during the read. The sleep widens the window; nothing here is timed."""
from __future__ import annotations

import threading
import time

import pytest

from solver.core import artifacts
from solver.core.registry import get_game
from solver.core.runtime import Solver

THREADS = 8
SLOW = 0.3  # seconds the patched reader sleeps, once entered


def slowed(monkeypatch, name: str, only=lambda *args: True) -> tuple[threading.Event, list]:
    """Patch `artifacts.<name>` to note each call (those `only` accepts), signal the first and sleep
    before reading; return (the event set on entry, the list of calls)."""
    real, entered, calls = getattr(artifacts, name), threading.Event(), []

    def reader(*args, **kwargs):
        if only(*args):
            calls.append(args)
            entered.set()
            time.sleep(SLOW)
        return real(*args, **kwargs)

    monkeypatch.setattr(artifacts, name, reader)
    return entered, calls


def run_threads(work, entered: threading.Event) -> list:
    """Run `work(i)` on THREADS threads, the first alone until it is inside the reader; return the results in order."""
    results, errors = [None] * THREADS, []

    def run(i: int) -> None:
        try:
            results[i] = work(i)
        except BaseException as err:  # noqa: BLE001 - reported below: a thread's exception would otherwise be lost
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    threads[0].start()
    assert entered.wait(30), "the first thread never reached the reader"
    for thread in threads[1:]:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return results


def test_threads_on_a_fresh_solver_all_answer_from_the_opener_book(monkeypatch):
    game = get_game("wordle", "normal")
    # budget 0: no live search, so only the book can give a proven answer (and the fallback is quick)
    solver = Solver(game, budget=0.0)
    start = solver.initial_guess()[1]  # loads the tree in this thread: only the book is loaded by the threads
    opener, code = game.index_of("AUDIO"), game.encode("YRRRR")
    states = [solver.advance(start, opener, code) for _ in range(THREADS)]  # one state a thread: nothing shared
    assert all(state.node is None for state in states)  # off the tree: SALET opens it
    entered, calls = slowed(monkeypatch, "read_book")

    def ask(i: int):
        state = states[i]
        row = solver.guess_row(state)
        return game.labels[row], state.exact, state.value, solver.book_sha256

    answers = run_threads(ask, entered)
    assert len(calls) == 1  # read once
    assert len(set(answers)) == 1, answers  # one answer
    guess, exact, value, checksum = answers[0]
    assert exact and checksum  # the book's, proven, with the book's checksum
    booked, size, total, proven, _ = solver.book[(opener, code)]
    assert proven and game.index_of(guess) == booked and value == pytest.approx(total / size)


def test_threads_on_a_fresh_solver_load_the_tree_once(monkeypatch):
    game = get_game("wordle", "normal")
    solver = Solver(game, use_book=False)
    entered, calls = slowed(monkeypatch, "read", only=lambda kind, *rest: kind == artifacts.TREE)
    trees = [None] * THREADS

    def ask(i: int):
        trees[i] = solver.tree
        guess, state = solver.initial_guess()
        return guess, state.node, state.exact

    answers = run_threads(ask, entered)
    assert len(calls) == 1  # read once
    assert all(tree is trees[0] for tree in trees) and trees[0] is not None  # one tree, seen whole by every thread
    assert set(answers) == {("SALET", 0, True)}
