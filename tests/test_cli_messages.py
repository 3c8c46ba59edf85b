"""What the two programs (`deduce`, `wordle`) tell their users: games over the limit, answers outside
the list, the openers table, repeated board answers, output closed early, and the wording of messages."""
from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys

import pytest

from solver.analysis.notation import can_show_symbols, show_guess
from solver.analysis.walk import start_state
from solver.core.runtime import InconsistentFeedbackError, get_solver
from solver.core.registry import all_variants, default_variant, get_game
from solver.wordle_program.program import run as wordle_run
from tests.helpers import assert_error, ok
from tests.helpers import invoke as deduce

# -- over the guess limit ------------------------------------------------------------------
ILLS = ["BILLS", "DILLS", "FILLS", "GILLS", "HILLS", "JILLS", "KILLS", "MILLS", "PILLS", "RILLS", "TILLS", "WILLS"]


@pytest.fixture(scope="module")
def ills(tmp_path_factory) -> list[str]:
    """--answers and --guesses of twelve words told apart by their first letter only: a guess rules out
    one word, so half the targets need more than Wordle's 6 guesses (whatever the trees hold)."""
    path = tmp_path_factory.mktemp("ills") / "ills.txt"
    path.write_text("\n".join(word.lower() for word in ILLS) + "\n")
    return ["--answers", str(path), "--guesses", str(path)]


@pytest.fixture(scope="module")
def ills_bench(ills) -> list[str]:
    return ok("bench", "wordle", *ills).splitlines()


def test_play_over_the_guess_limit_is_not_a_win(ills, ills_bench):
    assert ills_bench[-2] == "hardest (12 guesses, 1 target): WILLS"
    out = ok("play", "wordle", "WILLS", *ills).splitlines()
    assert len([line for line in out if line.startswith("Guess #")]) == 12
    assert out[-1] == "Not solved within 6 (took 12)." and not any("You got it" in line for line in out)
    assert ok("play", "wordle", "CRANE").splitlines()[-1].startswith("You got it in ")
    hidden = ok("hide", "wordle", *ills, input="\n".join(ILLS) + "\n").splitlines()  # the hider gives in last
    assert hidden[-1] == "Not solved within 6 (took 12)."


def test_bench_counts_the_games_over_the_limit(ills_bench):
    assert "over the limit of 6 guesses: 6 targets (not solved in the game)" in ills_bench  # 7 to 12 guesses
    sample = ok("bench", "mastermind", "-s", "5").splitlines()  # no limit, no line
    assert not any(line.startswith("over the limit") for line in sample)


# -- an answer outside the answer list -----------------------------------------------------
ALL_WORDS_HINT = ("SALET is not one of the 2315 answers of wordle: "
                  "--all-words (the every-word variant) allows any acceptable word")


def test_a_word_outside_the_answers_names_the_list_and_all_words():
    assert assert_error(deduce("hint", "wordle", "SALET=GGGGG"), "") == ALL_WORDS_HINT
    assert assert_error(deduce("tree", "wordle", "--path", "SALET=GGGGG"), "") == ALL_WORDS_HINT
    assert assert_error(deduce("review", "wordle", "SALET", "--answer", "SALET"), "") == ALL_WORDS_HINT
    assert assert_error(deduce("play", "wordle", "SALET"), "") == ALL_WORDS_HINT
    solve = deduce("solve", "wordle", input="SALET=GGGGG\nGGGGG\nquit\n")  # SALET is the tree's opener
    assert solve.exit_code == 0 and solve.stderr.count(ALL_WORDS_HINT + " (try again)") == 2, solve.stderr
    assert assert_error(deduce("hint", "wordle", "--hard", "SALET=GGGGG"), "").startswith(
        "SALET is not one of the 2315 answers of wordle hard: --all-words")
    # where --all-words does not apply, no hint
    assert assert_error(deduce("play", "wordle", "AAHED", "--lists", "nyt"), "") == \
        "AAHED is not one of the 3158 answers of wordle (NYT lists)"
    assert ok("play", "wordle", "SALET", "--all-words").splitlines()[-1].startswith("You got it")


def test_the_library_says_so_too():
    solver = get_solver(get_game("wordle"))
    with pytest.raises(InconsistentFeedbackError) as err:
        solver.advance(start_state(solver), solver.game.index_of("SALET"), solver.game.win_code)
    assert str(err.value) == "SALET is not one of the 2315 answers of wordle"


# -- openers --words adds the tree's opener, as its help says --------------------------------
def test_openers_words_adds_the_tree_opener():
    out = ok("openers", "cards", "--variant", "n1", "--words", "2C,2c").splitlines()
    tree_opener = get_game("cards", "n1").labels[int(get_solver(get_game("cards", "n1")).tree.guess[0])]
    assert [line.split()[1] for line in out[1:]] == [tree_opener, "2C"]  # 2C once, the tree's opener added
    assert out[1].endswith("(tree)") and not out[2].endswith("(tree)")
    assert "tree's own opener is added" in " ".join(deduce("openers", "--help").stdout.split())


# -- one rule for the answers of several boards ----------------------------------------------
def test_repeated_board_answers_are_a_usage_error_in_both_programs():
    result = deduce("play", "wordle", "CRANE", "crane", "--boards", "2")
    assert assert_error(result, "", 2) == "the answers must all be different: CRANE is given twice"
    assert assert_error(deduce("play", "wordle", "CRANE", "--boards", "2"), "", 2).startswith("2 boards need 2 answers")
    err = io.StringIO()
    assert wordle_run(["-b", "2", "-w", "crane,CRANE"], io.StringIO(""), io.StringIO(), err) == 2
    assert err.getvalue().endswith("the answers must all be different: CRANE is given twice\n")


# -- output closed early is not a failure ----------------------------------------------------
def closed_output_run(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """Run `python ARGV` with standard output a pipe whose reader is already gone."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run([sys.executable, *argv], input=stdin, stdout=writer, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(writer)


@pytest.mark.parametrize("argv, stdin", [
    (["-m", "solver", "--help"], b""),  # the help too (rich ends it with SystemExit(1) by itself)
    (["-m", "solver", "play", "--help"], b""),
    (["-m", "solver.wordle_program.program", "-w", "crane"], b"slate\ncrane\n"),
])
def test_closed_output_exits_0_quietly(argv, stdin):
    done = closed_output_run(*argv, stdin=stdin)
    assert (done.returncode, done.stderr) == (0, b"")


def test_a_pipefail_pipeline_goes_on_after_head():
    script = f"set -o pipefail; {shlex.quote(sys.executable)} -m solver tree mastermind --depth 4 | head -n 1"
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "mastermind at the start\n", "")


# -- wording --------------------------------------------------------------------------------
def test_an_empty_history_is_at_the_start():
    assert ok("tree", "mastermind").splitlines()[0] == "mastermind at the start"
    assert ok("tree", "mastermind", "-p", "1122=1,1").splitlines()[0] == "mastermind after 1122=(1,1)"
    assert assert_error(deduce("hint", "wordle", "CRANE=GGGGY"), "") == (
        "no wordle target gives CRANE=GGGGY at the start")


def test_the_prompt_names_one_board_in_the_singular():
    out = ok("solve", "wordle", "--boards", "2", input="CRANE=GGGGG RRRRR\nquit\n")
    assert "marks of boards 1, 2 for " in out and "marks of board 2 for " in out and "marks of boards 2" not in out


def test_a_sample_says_it_is_one():
    assert ok("bench", "bulls", "-s", "20", "--seed", "1").splitlines()[0] == \
        "bulls: 20 targets (a random sample of the 5040), precomputed tree"
    assert ok("bench", "cards", "--variant", "n1").splitlines()[0] == "cards n1: 52 targets, precomputed tree"


def test_both_programs_prefix_errors_alike():
    err = io.StringIO()
    assert wordle_run(["-w", "QQ"], io.StringIO(""), io.StringIO(), err) == 1
    assert err.getvalue().startswith("error: ") and err.getvalue().count("\n") == 1, err.getvalue()
    err = io.StringIO()
    assert wordle_run(["--bogus"], io.StringIO(""), io.StringIO(), err) == 2
    assert err.getvalue().startswith("error: unrecognized arguments: --bogus"), err.getvalue()
    assert assert_error(deduce("play", "wordle", "QQ"), "").startswith("not a 5-letter word")


def test_card_variants_are_listed_in_order_and_n2_stays_the_default():
    assert assert_error(deduce("tree", "cards", "--variant", "n9"), "", 2) == \
        "unknown variant 'n9' of cards: choose from n1, n2, n3, n4"
    assert ok("tree", "cards").splitlines()[0] == "cards n2 at the start"
    assert [variant for name, variant in all_variants() if name == "cards"] == ["n1", "n2", "n3", "n4"]
    assert default_variant("cards") == "n2" and default_variant("wordle") == "normal"


# -- solve: another guess typed with a space or alone, every candidate, Ctrl-D ------------------
def solve_out(*lines: str, args: tuple[str, ...] = ("wordle",)) -> str:
    """The output of `solve` over these lines; off the tree greedy (the same guesses on every run)."""
    return ok("solve", *args, "--live", "greedy", input="\n".join(lines) + "\n")


def after_first_line(out: str) -> str:
    """The output from the first answered line on (the opening differs by nothing else)."""
    return out[out.index("candidates remain"):]


def test_a_guess_and_its_feedback_may_be_separated_by_a_space():
    expected = after_first_line(solve_out("CRANE=RYRGR", "quit"))
    assert after_first_line(solve_out("CRANE RYRGR", "quit")) == expected
    assert after_first_line(solve_out("crane  ryrgr", "quit")) == expected


def test_a_bare_guess_asks_for_its_feedback():
    out = solve_out("CRANE", "RYRGR", "quit")
    assert "You played CRANE: type its feedback." in out
    assert "feedback (G green, Y yellow, R grey) for CRANE>" in out or "for CRANE>" in out
    assert after_first_line(out) == after_first_line(solve_out("CRANE=RYRGR", "quit"))


def test_the_other_games_read_a_spaced_guess_too():
    game = get_game("mastermind")
    marks = "{},{}".format(*game.decode(game.code(game.index_of("1234"), game.index_of("3456"))))
    assert after_first_line(solve_out(f"1234 {marks}", "quit", args=("mastermind",))) == \
        after_first_line(solve_out(f"1234={marks}", "quit", args=("mastermind",)))
    # feedback that leaves few candidates, so the next hint is quick (CRAMP and EARTH give these)
    two = ok("solve", "wordle", "--boards", "2", input="CRANE GGGRR RYYRY\nquit\n")
    assert "Candidates left: board 1: " in two


def test_an_unreadable_line_still_says_what_feedback_looks_like():
    result = deduce("solve", "wordle", input="CRANE RYRG\nquit\n")
    assert result.exit_code == 0 and "(try again)" in result.stderr


def test_list_all_shows_every_candidate():
    out = solve_out("SALET=RRRRR", "list", "list all", "quit")
    first, full = [line for line in out.splitlines() if line.startswith(tuple("0123456789")) and "candidates:" in line]
    count = int(first.split()[0])
    assert first.endswith(f"... and {count - 20} more (list all)")
    assert len(full.split(": ", 1)[1].split()) == count and "more" not in full


def test_ctrl_d_at_a_terminal_is_leaving_not_an_error():
    import pty  # POSIX only: the terminal is the point of the test

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "solver", "solve", "mastermind"])
    output = b""
    while b"> " not in output:
        output += os.read(fd, 4096)
    os.write(fd, b"\x04")
    try:
        while chunk := os.read(fd, 4096):
            output += chunk
    except OSError:  # the terminal closed with the program
        pass
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, output
    assert b"Stopped before the game was over." in output and b"error" not in output


# -- the wordle program: Ctrl-C, --version, the marks without colour, a 40-column terminal --------
class InterruptedInput(io.StringIO):
    """Standard input where the player presses Ctrl-C at the second prompt."""

    def __init__(self):
        super().__init__("trace\n")

    def readline(self, *args) -> str:
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_wordle_ctrl_c_ends_the_prompt_line_first():
    out, err = io.StringIO(), io.StringIO()
    assert wordle_run(["-w", "crane"], InterruptedInput(), out, err, interactive=True) == 130
    assert out.getvalue().endswith("Guess 2/6: \n") and err.getvalue() == "error: interrupted\n"


def test_wordle_version():
    done = subprocess.run([sys.executable, "-c", "from solver.wordle_program.program import main; main()", "--version"],
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout.split()[0], done.stderr) == (0, "wordle", "")
    assert done.stdout.split()[1][0].isdigit()


def test_wordle_at_40_columns_explains_the_marks_and_does_not_wrap(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "40")
    out, err = io.StringIO(), io.StringIO()
    assert wordle_run(["-t", "-w", "crane"], io.StringIO("trace\ncrane\nn\n"), out, err, interactive=True) == 0
    text = out.getvalue()
    assert "[A] right place  (A) elsewhere" in text and "a not in the word  A not tried yet" in text
    stats = text[text.index("Statistics"):text.index("Guess distribution")].splitlines()
    assert all(len(line.rstrip()) <= 40 for line in stats)
    assert [line.split() for line in stats[1:5]] == [["1", "100"], ["Played", "Win", "%"], ["1", "1"],
                                                     ["Current", "streak", "Max", "streak"]]


# -- card players' notation: 10H, hands by rank, suit symbols on a terminal; play's labels -------
def test_ten_may_be_written_10_and_suits_as_symbols():
    assert ok("play", "cards", "10H", "AS") == ok("play", "cards", "TH", "AS")
    assert ok("play", "cards", "10\u2665", "A\u2660") == ok("play", "cards", "TH", "AS")
    result = deduce("play", "cards", "11H", "AS")
    assert result.exit_code != 0 and "rank 2-10 J Q K A, or T for 10" in result.stderr


def test_hands_are_shown_by_rank_with_symbols_where_the_terminal_has_them():
    game = get_game("cards", "n2")
    row = game.index_of("AC 2D")  # the label: deck order, clubs first
    assert show_guess(game, row) == "2D AC" and show_guess(game, row, symbols=True) == "2\u2666 A\u2663"

    class Terminal(io.StringIO):
        encoding = "utf-8"

        def isatty(self) -> bool:
            return True

    assert can_show_symbols(Terminal()) and not can_show_symbols(io.StringIO())
    pipe = Terminal()
    pipe.encoding = "ascii"
    assert not can_show_symbols(pipe)


def test_play_labels_say_what_the_solver_did():
    out = ok("play", "mastermind", "3456").splitlines()
    assert out[0].startswith("Guess #1: ") and out[1].startswith("Feedback: ")
    assert not any("Your guess" in line or "My answer" in line for line in out)


def test_greedy_live_play_says_it_was_asked_for():
    out = solve_out("CRANE RYRGR", "quit")  # --live greedy
    assert "(not proven: the greedy rule's guess, as --live greedy asks)" in out
    assert "exact search did not finish" not in out


def test_a_review_of_bare_guesses_without_the_answer_is_a_usage_error():
    message = assert_error(deduce("review", "wordle", "CRANE", "SLOTH"), "", 2)
    assert message == ("CRANE has no feedback: give the guesses as GUESS=FEEDBACK, or bare guesses with "
                       "--answer WORD (their feedback is computed)")


def test_cards_and_locations_print_as_people_write_them():
    from solver.games import battleship, cards

    assert repr(cards.initial_guess(2)[0]) == "[5C, JD]" and str(cards.Card(12, 3)) == repr(cards.Card(12, 3)) == "AS"
    assert repr(battleship.initial_guess()[0]) == "[A1, A3, H1]"


def test_help_texts_name_every_variant_and_the_variables():
    serve = " ".join(deduce("serve", "--help").output.split())
    assert "DEDUCE_WEB_ and the option's name in capitals (DEDUCE_WEB_LIVE_WORKERS=4)" in serve.replace("│", "")
    hint = " ".join(deduce("hint", "--help").output.replace("│", "").split())
    assert "normal-all-words, hard-all-words" in hint and "built on request" not in hint


def test_the_hider_says_what_list_shows():
    out = deduce("hide", "wordle", input="?\nquit\n").output
    assert "list (or ?) for how many answers are left" in out and "candidates left (I am not telling which)" in out


def test_a_bad_word_typed_before_its_marks_is_named_as_with_the_equals_sign():
    spaced = deduce("solve", "wordle", input="ZZZZZ RRRRR\nquit\n").stderr
    equals = deduce("solve", "wordle", input="ZZZZZ=RRRRR\nquit\n").stderr
    assert spaced == equals and "ZZZZZ is not one of the 12972 acceptable guesses of wordle" in spaced
