"""`wordle --tui` (issue 61): the full-screen game and its coach, driven headlessly with Textual's Pilot
(typing, a hint, won and lost games, Dordle, the coach, leaving, resizing, no colour), the drawing
functions, the options, and the state file recorded the same as without --tui.

Each Pilot test runs the app at 80x24 in its own event loop (`asyncio.run`); `until` waits for the
game's thread and the hint/review computations, with a generous timeout as a safety net only.
"""
from __future__ import annotations

import asyncio
import io
import json
import os
import sys
import time

import pytest

pytest.importorskip("textual")

from solver.wordle_program import tui
from solver.wordle_program.program import build_session, resolve_options, run
from solver.wordle_program.play import InputEnded
from solver.wordle_program.rounds import MultiRound
from solver.wordle_program.tui import CoachApp, Look, PlayApp

SIZE = (80, 24)


def session(*argv: str):
    return build_session(resolve_options(["--tui", *argv]))


async def until(pilot, condition, timeout: float = 120.0) -> None:
    """Let the app run until `condition()` holds (the game's thread and computations are threads)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the app did not get there"
        await pilot.pause(0.02)


def drive(app, script, size=SIZE):
    """Run `app` headless at `size` through `script(pilot)` (a coroutine function) and return the app."""
    async def main():
        async with app.run_test(size=size) as pilot:
            await script(pilot)
    asyncio.run(main())
    return app


async def guess(pilot, app: PlayApp, word: str) -> None:
    """Type `word` and Enter once the game asks for a guess; wait until the game's thread has it."""
    await until(pilot, lambda: app.mode == "guess")
    count = len(app.game.history)
    await pilot.press(*word.lower(), "enter")
    await until(pilot, lambda: len(app.game.history) > count or app.message.startswith("Not counted"))


def text(lines) -> str:
    return "\n".join(line.plain if hasattr(line, "plain") else str(line) for line in lines)


def screen(app) -> str:
    """Return what the app's parts show, as plain text."""
    return "\n".join(str(app.query_one(f"#{name}").render()) for name in
                     ("title", "boards", "input", "message", "keyboard", "panel", "footer", "small"))


# ----------------------------------------------------------------------------- drawing


def test_a_board_draws_guesses_the_typed_row_and_empty_places():
    lines = tui.board_lines([("SLATE", "RRGRG")], 6, Look(), typed="CR", gap=True)
    assert len(lines) == 11  # 6 rows, a blank line between them
    assert lines[0].plain == " S   L   A   T   E "
    assert lines[2].plain == " C   R   \u00b7   \u00b7   \u00b7 "
    styles = {span.style for span in lines[0].spans}
    assert tui.STYLES["G"] in styles and tui.STYLES["R"] in styles


def test_without_colour_the_marks_are_characters():
    lines = tui.board_lines([("SLATE", "RYGRG")], 6, Look(plain=True))
    assert lines[0].plain == " s  (L) [A]  t  [E]"
    assert not lines[0].spans
    keys = tui.keyboard_text([{**dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "X"), "A": "G", "S": "R"}],
                             Look(plain=True))
    assert "[A]" in keys.plain and " s " in keys.plain


def test_high_contrast_uses_orange_and_blue():
    assert Look(high_contrast=True).style("G") != Look().style("G")
    assert "orange" in Look(high_contrast=True).style("G") and "blue" in Look(high_contrast=True).style("Y")


def test_a_key_of_several_boards_has_a_part_per_board():
    look = Look()
    key = tui.key_cell("A", ["G", "R"], look)
    styles = [span.style for span in key.spans]
    assert key.plain == " A " and styles[0] == look.style("G") and styles[-1] == look.style("R")
    assert tui.key_cell("A", ["G", "Y", "R", "X"], look).plain == "  A  "
    dead = tui.key_cell("B", ["R", "R"], look)  # no board has it: its letter dark too
    assert dead.plain == " B " and {span.style for span in dead.spans} == {look.style("R")}
    assert tui.key_cell("B", ["R", "R"], Look(plain=True)).plain == "b.."
    assert tui.key_cell("A", ["G", "Y"], Look(plain=True)).plain == "A=+"


def test_one_board_and_dordle_fit_80x24_quordle_needs_more():
    assert tui.needed_size(1, 6) <= (80, 24) and all(a <= b for a, b in zip(tui.needed_size(1, 6), (80, 24)))
    assert all(a <= b for a, b in zip(tui.needed_size(2, 7), (80, 24)))
    assert tui.needed_size(4, 9)[0] > 80


# ----------------------------------------------------------------------------- the game


def test_typing_backspace_and_a_refused_guess():
    app = PlayApp(session("-w", "crane"))

    async def script(pilot):
        await until(pilot, lambda: app.mode == "guess")
        assert "Guess 1/6: _" in screen(app)
        await pilot.press("s", "l", "a", "t", "x", "backspace", "e", "q")  # a sixth letter is not taken
        assert app.typed == "SLATE"
        assert " S   L   A   T   E " in screen(app)
        await pilot.press("backspace", "backspace", *"xx", "enter")
        await until(pilot, lambda: app.message.startswith("Not counted"))
        assert "SLAXX is not in the list of acceptable words" in app.message
        assert app.game.history == [] and app.typed == "SLAXX"  # kept on the board to be corrected

    drive(app, script)
    assert app.failure is None


def test_a_hint_shows_the_ranking_deduce_hint_prints():
    app = PlayApp(session("-w", "sloth"))

    async def script(pilot):
        await guess(pilot, app, "salet")
        await pilot.press("question_mark")
        await until(pilot, lambda: "Thinking..." not in text(app.panel))
        panel = text(app.panel)
        assert panel.startswith("Hint") and "possible answers" in panel and "Best guesses" in panel
        assert " *" in panel  # the solver's guess marked

    drive(app, script)
    from solver.analysis import scores
    from solver.core.defaults import DEFAULT_TOP
    from solver.core.registry import get_game

    game = get_game("wordle", "normal")
    expected = scores.hint(game, [(game.index_of("SALET"), game.encode("GRYRY"))], DEFAULT_TOP)
    lines = text(app.panel).splitlines()
    rows = lines[lines.index(next(line for line in lines if line.startswith("guess "))) + 1:][:len(expected.ranked)]
    assert [row.split()[0] for row in rows] == [r.label for r in expected.ranked]
    assert [row.split()[1] for row in rows] == [r.to_go.text() for r in expected.ranked]


def test_a_won_game_shows_the_review_and_statistics_and_records_the_same_game(tmp_path):
    state = tmp_path / "state.json"
    app = PlayApp(session("-w", "sloth", "-S", str(state)))

    async def script(pilot):
        await guess(pilot, app, "salet")
        await guess(pilot, app, "sloth")
        await until(pilot, lambda: app.mode == "done" and "Reviewing..." not in text(app.review))
        assert app.message == "Correct! SLOTH in 2 guesses."
        shown = screen(app)
        assert "Skill 100" in shown and "Statistics" in shown and "Played 1, won 100%" in shown
        await pilot.press("x")  # any key leaves

    drive(app, script)
    assert app.failure is None and app.game_error is None
    plain = tmp_path / "plain.json"
    assert run(["-w", "sloth", "-S", str(plain)], io.StringIO("salet\nsloth\n"), io.StringIO(), io.StringIO(),
               interactive=False) == 0
    assert json.loads(state.read_text()) == json.loads(plain.read_text())
    assert state.read_text() == plain.read_text()


def test_a_lost_game_names_the_answer():
    app = PlayApp(session("-w", "crane"))
    guesses = ["slate", "brake", "flame", "place", "grace", "trace"]

    async def script(pilot):
        for word in guesses:
            await guess(pilot, app, word)
        await until(pilot, lambda: app.mode == "done")
        assert app.message == "Out of guesses. The answer was CRANE."
        assert "Guess" not in str(app.query_one("#input").render())

    drive(app, script)
    assert not app.game.won and app.game.guesses == [word.upper() for word in guesses]


def test_random_mode_a_key_starts_the_next_game_of_the_day_order():
    app = PlayApp(session("-r", "-d", "5"))
    played = []

    async def script(pilot):
        await until(pilot, lambda: app.mode == "guess")
        for number in (5, 6):
            assert app.game.number == number
            played.append(app.game.answer)
            await guess(pilot, app, app.game.answer)
            await until(pilot, lambda: app.mode == "over")
            assert "Enter: new game" in screen(app)
            await pilot.press("enter")
            await until(pilot, lambda n=number: app.game.number == n + 1 and app.mode == "guess")
        await pilot.press("ctrl+q")

    drive(app, script)
    from solver.wordle_program.play import random_answers

    assert played == app.session.order[:2]
    assert played == random_answers(app.session.answers, 5, 20220123)[:2]


def test_answers_typed_hidden_then_played():
    app = PlayApp(session())

    async def script(pilot):
        await until(pilot, lambda: app.mode == "answer")
        await pilot.press(*"zzzzz", "enter")
        await until(pilot, lambda: app.mode == "answer" and "not in the answer list" in app.message)
        await pilot.press(*"crane")
        assert "*****" in screen(app) and "CRANE" not in screen(app)
        await pilot.press("enter")
        await guess(pilot, app, "crane")
        await until(pilot, lambda: app.mode == "over")
        await pilot.press("q")

    drive(app, script)
    assert app.game.won and app.game.answer == "CRANE" and app.game_error is None


def test_hard_mode_refuses_a_guess_that_breaks_its_rule():
    app = PlayApp(session("-w", "crane", "-D"))

    async def script(pilot):
        await guess(pilot, app, "slate")
        await guess(pilot, app, "sound")
        assert app.message.startswith("Not counted: hard mode") and len(app.game.history) == 1
        assert "hard mode" in str(app.query_one("#title").render())
        await pilot.press("ctrl+q")

    drive(app, script)


def test_dordle_one_keyboard_split_per_board_and_a_board_hint():
    app = PlayApp(session("-w", "crane,sloth", "-b", "2"))

    async def script(pilot):
        await guess(pilot, app, "sloth")
        assert "Board 2 \u2713" in screen(app) and "Guess 2/7" in screen(app)
        keys = app.query_one("#keyboard").render()
        assert keys.plain.splitlines()[0].startswith(" Q ")
        await pilot.press("question_mark")
        await until(pilot, lambda: "Thinking..." not in text(app.panel))
        assert "Board 1:" in text(app.panel) and "The solver plays" in text(app.panel)
        assert "Board 2:" not in text(app.panel)  # solved
        await guess(pilot, app, "crane")
        await until(pilot, lambda: app.mode == "done")
        assert app.message == "Correct! All 2 boards solved in 2 guesses."
        assert not app.query_one("#small").display  # Dordle fits 80x24

    drive(app, script)
    assert isinstance(app.game, MultiRound) and app.game.won


def test_quordle_says_it_needs_a_wider_terminal_and_follows_resizes():
    app = PlayApp(session("-w", "crane,sloth,pilot,wrung", "-b", "4"))

    async def script(pilot):
        await until(pilot, lambda: app.mode == "guess")
        await pilot.pause(0.1)
        notice = app.query_one("#small")
        assert notice.display and "Quordle needs a terminal of at least" in str(notice.render())
        await pilot.resize_terminal(130, 30)
        await until(pilot, lambda: not app.query_one("#small").display)
        assert app.query_one("#main").display
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: app.query_one("#small").display)
        await pilot.press("ctrl+q")

    drive(app, script)


def test_no_color_draws_the_marks_as_characters(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = PlayApp(session("-w", "crane"))

    async def script(pilot):
        await guess(pilot, app, "trace")
        shown = screen(app)
        assert " t  [R] [A] (C) [E]" in shown and "[A] right place" in shown
        await pilot.press("ctrl+q")

    drive(app, script)
    assert app.no_color


def test_leaving_mid_game_says_bye_ctrl_c_is_an_interrupt():
    app = PlayApp(session("-w", "crane"))

    async def leave(pilot):
        await guess(pilot, app, "slate")
        await pilot.press("ctrl+q")

    drive(app, leave)
    app.thread.join(10)
    with pytest.raises(InputEnded, match="the answer was CRANE"):
        tui.finish(app)

    app = PlayApp(session("-w", "crane"))

    async def interrupt(pilot):
        await until(pilot, lambda: app.mode == "guess")
        await pilot.press("ctrl+c")

    drive(app, interrupt)
    with pytest.raises(KeyboardInterrupt):
        tui.finish(app)


def test_leaving_at_the_answer_prompt_is_no_error():
    app = PlayApp(session())

    async def script(pilot):
        await until(pilot, lambda: app.mode == "answer")
        await pilot.press("ctrl+d")

    drive(app, script)
    app.thread.join(10)
    tui.finish(app)  # nothing raised


def test_an_unwritable_state_file_ends_the_screen_with_the_programs_error(tmp_path):
    state = tmp_path / "state.json"
    app = PlayApp(session("-w", "crane", "-S", str(state)))

    async def script(pilot):
        await guess(pilot, app, "slate")
        tmp_path.chmod(0o500)  # the save (after the game) cannot write the folder
        try:
            await guess(pilot, app, "crane")
            await until(pilot, lambda: not app.is_running or app.game_error is not None)
        finally:
            tmp_path.chmod(0o700)

    if os.geteuid() == 0:
        pytest.skip("root writes any folder")
    drive(app, script)
    with pytest.raises(Exception, match="cannot write state file"):
        tui.finish(app)


# ----------------------------------------------------------------------------- the coach


def test_the_coach_takes_guesses_and_colours_and_ranks_the_next_guesses():
    app = CoachApp(session("--coach"))

    async def script(pilot):
        await until(pilot, lambda: not app.busy)
        assert "2315 possible answers" in text(app.panel)
        await pilot.press("tab")  # the solver's guess
        assert app.typed == "SALET" and app.marks == "RRRRR"
        await pilot.press("1", "1")  # S: grey -> yellow -> green
        await pilot.press("3")  # L: yellow
        await pilot.click("#boards", offset=(17, 0))  # T (the fifth tile): yellow
        assert app.marks == "GRYRY"
        await pilot.press("enter")
        await until(pilot, lambda: not app.busy)
        assert app.coach.history == [("SALET", "GRYRY")] and app.typed == ""
        assert "possible answers" in text(app.panel) and "Best guesses" in text(app.panel)
        assert "2315" not in text(app.panel)
        await pilot.press(*"sloth", "1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "enter")
        await until(pilot, lambda: not app.busy)
        assert app.coach.solved and app.message.startswith("Solved")
        await pilot.press("ctrl+z")  # taken back
        await until(pilot, lambda: not app.busy)
        assert app.coach.history == [("SALET", "GRYRY")] and not app.finished()
        await pilot.press("ctrl+q")

    drive(app, script)
    assert app.failure is None


def test_the_coach_refuses_marks_no_answer_gives():
    app = CoachApp(session("--coach"))

    async def script(pilot):
        await until(pilot, lambda: not app.busy)
        await pilot.press(*"salet", "3", "3", "5", "1")  # S yellow, L green, T yellow: no answer
        await pilot.press("enter")
        await until(pilot, lambda: not app.busy)
        assert app.message.startswith("Not taken: ") and app.coach.history == []
        assert app.typed == "SALET"  # kept to be corrected
        await pilot.press("ctrl+q")

    drive(app, script)


# ----------------------------------------------------------------------------- the options


def test_without_a_terminal_tui_refuses_in_one_line():
    err = io.StringIO()
    assert run(["--tui", "-w", "crane"], io.StringIO(""), io.StringIO(), err) == 1
    assert err.getvalue() == "error: --tui needs a terminal: standard input is not one\n"


@pytest.mark.parametrize("argv, message", [
    (["--coach"], "--coach needs --tui"),
    (["--tui", "--coach", "-w", "crane"], "--coach follows a game played elsewhere"),
    (["--tui", "--coach", "-b", "2"], "--coach follows one board"),
])
def test_coach_options_are_checked(argv, message):
    err = io.StringIO()
    assert run(argv, io.StringIO(""), io.StringIO(), err) == 2
    assert err.getvalue().startswith(f"error: {message}") and err.getvalue().count("\n") == 1


def test_without_textual_tui_names_the_extra(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for name in [name for name in sys.modules if name == "textual" or name.startswith("textual.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "textual", None)  # as if the extra were not installed
    monkeypatch.delitem(sys.modules, "solver.wordle_program.tui")
    monkeypatch.delattr("solver.wordle_program.tui")  # the package's attribute, or the import finds it there
    err = io.StringIO()
    assert run(["--tui", "-w", "crane"], Terminal(""), Terminal(), err) == 1
    assert err.getvalue() == "error: --tui needs the tui extra: pip install 'deduce-solver[tui]'\n"
