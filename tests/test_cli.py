"""The `deduce` command line through typer's CliRunner: every command, and every error ending as
one line on stderr with exit status 2. Small games only (mastermind, bulls, battleship, cards n2;
wordle where a command is about it, on small word lists when the full ones are not needed)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from solver.analysis.notation import parse_guess, select_game, show_feedback
from solver.analysis.walk import play as play_steps
from solver.cli.main import app
from solver.cli.sessions import hider_answer
from solver.core.runtime import get_solver
from solver.core.registry import get_game
from solver.games import mastermind
from tests.helpers import assert_error, invoke, ok

runner = CliRunner()
# usage errors: exit 2
USAGE_FRAGMENTS = ("unknown game", "unknown variant", "contradicts", "wordle only", "expected GUESS=FEEDBACK")


# -- help -------------------------------------------------------------------------------------
def test_help_lists_every_command():
    out = ok("--help")
    for command in ("tree", "play", "solve", "bench", "openers", "hint", "hide", "tables"):
        assert command in out
    assert "GYRRR" in out and "A1-A3-H1" in out


@pytest.mark.parametrize("command", ["tree", "play", "solve", "bench", "openers", "hint", "hide", "tables"])
def test_command_help(command):
    assert "Usage" in ok(command, "--help")


def test_help_imports_neither_numpy_nor_numba_nor_pyarrow():
    """The help needs no library: NumPy alone was a fifth of `deduce --help`'s 0.22 s."""
    code = ("import sys; from typer.testing import CliRunner; from solver.cli.main import app; "
            "codes = [CliRunner().invoke(app, a).exit_code "
            "for a in (['--help'], ['tree', '--help'], ['hint', '--help'])]; "
            "print(codes, *(name in sys.modules for name in ('numpy', 'numba', 'pyarrow', 'matplotlib', "
            "'solver.core.game', 'solver.games.wordle')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[0, 0, 0] False False False False False False"


def test_python_dash_m_runs_the_app():
    done = subprocess.run([sys.executable, "-m", "solver", "play", "bulls", "0123"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "You got it in 1 guess!"


@pytest.mark.parametrize("args", [["tree", "mastermind", "--depth", "3"], ["play", "bulls", "0123"]])
def test_closed_output_ends_quietly(args):
    """`deduce ... | head`: the reader is gone before the first line; no message, status 0."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([sys.executable, "-m", "solver", *args], stdout=writer, stderr=subprocess.PIPE,
                              timeout=120)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, b"")


def test_usage_errors_are_one_line():
    assert_error(invoke("play"), "Missing argument 'battleship|cards|wordle|mastermind|bulls'", 2)
    assert_error(invoke("play", "mastermind"), "Missing argument 'ANSWER'", 2)
    assert_error(invoke("tree", "mastermind", "--depth", "x"), "--depth", 2)
    assert_error(invoke("bench", "mastermind", "--sample", "0"), "--sample", 2)
    assert_error(invoke("nosuchcommand"), "nosuchcommand", 2)


# -- play -------------------------------------------------------------------------------------
def test_play_prints_the_specification_transcript():
    out = ok("play", "mastermind", "1234").splitlines()
    guesses = [line.split(": ")[1] for line in out if line.startswith("Guess #")]
    answers = [line.split(": ")[1] for line in out if line.startswith("Feedback: ")]
    assert len(guesses) == len(answers) and out[-1] == f"You got it in {len(guesses)} guesses!"
    assert out[0] == f"Guess #1: {guesses[0]}" and guesses[-1] == "1234"
    assert answers == ["({},{})".format(*mastermind.feedback("1234", g)) for g in guesses]


def test_play_battleship_answer_in_any_token_form():
    split = ok("play", "battleship", "H1", "A1", "A3")
    assert split == ok("play", "battleship", "a1-a3-h1") == ok("play", "battleship", "A1 A3 H1")
    assert split.splitlines()[0] == "Guess #1: A1 A3 H1" and split.splitlines()[1] == "Feedback: (3,0,0)"


def test_play_cards_infers_the_number_of_cards():
    out = ok("play", "cards", "2C", "AS").splitlines()
    assert out[-2] == "Feedback: (2,0,2,0,2)"
    assert out[-3] == f"Guess #{len(out) // 2}: 2C AS"


def test_play_wordle_and_hard_mode():
    out = ok("play", "wordle", "crane").splitlines()
    assert out[-3].endswith("CRANE") and out[-2] == "Feedback: GGGGG"
    hard = ok("play", "wordle", "CRANE", "--hard").splitlines()
    assert hard[-2] == "Feedback: GGGGG"


def test_play_wordle_on_own_lists(small_lists):
    answers, guesses = small_lists
    word = answers.read_text().split()[3]
    out = ok("play", "wordle", word, "--answers", str(answers), "--guesses", str(guesses)).splitlines()
    assert out[-3].endswith(word.upper())


@pytest.mark.parametrize("args, fragment", [
    (["chess", "1"], "unknown game 'chess'"),
    (["cards", "2C", "XX"], "not a card"),
    (["cards", "2C", "2C"], "duplicate card: 2C"),
    (["cards", "--variant", "n3", "2C", "AS"], "expected 3 cards, got 2"),
    (["cards", "2C", "3C", "4C", "5C", "6C"], "expected 1 to 4 cards, got 5"),
    (["cards", "--variant", "n9", "2C"], "unknown variant 'n9'"),
    (["battleship", "A1", "A3", "Z9"], "not a location"),
    (["battleship", "A1", "A3"], "expected 3 locations, got 2"),
    (["battleship", "A1", "A1", "B2"], "duplicate location: A1"),
    (["wordle", "CRAN"], "not a 5-letter word"),
    (["wordle", "ZZZZZ"], "not one of the 12972 acceptable guesses of wordle"),
    (["wordle", "AAHED"], "not one of the 2315 answers"),
    (["wordle", "CRANE", "--variant", "normal", "--hard"], "--hard contradicts"),
    (["wordle", "CRANE", "--answers", "/nonexistent/list.txt"], "cannot read word list"),
    (["mastermind", "7777"], "not a code of 4 colours"),
    (["mastermind", "1122", "3"], "one word"),
    (["mastermind", "1122", "--hard"], "wordle only"),
    (["bulls", "1123"], "repeats a digit"),
])
def test_play_errors(args, fragment):
    assert_error(invoke("play", *args), fragment, 2 if any(f in fragment for f in USAGE_FRAGMENTS) else 1)


# -- tree -------------------------------------------------------------------------------------
def test_tree_root_summary_matches_the_metadata():
    tree = get_solver(get_game("mastermind")).tree
    out = ok("tree", "mastermind", "-c", "3").splitlines()
    total, targets = int(tree.metadata["total_guesses"]), int(tree.metadata["targets"])
    assert "tree node 0 at depth 0" in out
    assert f"guess to play: {get_game('mastermind').labels[tree.guess[0]]}" in out
    assert "candidates: 1296 (first 3): 1111 1112 1113" in out
    assert out[-1] == (f"guesses from here, this one included: {total / targets:.3f} expected, "
                       f"{tree.metadata['max_guesses']} at worst")


def test_tree_path_depth_and_dot(tmp_path):
    game = get_game("battleship")
    first = game.labels[get_solver(game).tree.guess[0]].replace(" ", "-")
    out = ok("tree", "battleship", "--path", f"{first}=0,1,0", "--depth", "1", "--dot", str(tmp_path / "t.dot"))
    assert "tree node" in out and "expected" in out
    children = [line for line in out.splitlines() if line.startswith("  (")]
    assert children and all(" -> " in line for line in children)
    dot = (tmp_path / "t.dot").read_text()
    assert dot.startswith("digraph") and dot.count(" -> ") == len(children)


def test_tree_off_the_tree_is_computed_live():
    tree_first = get_game("mastermind").labels[get_solver(get_game("mastermind")).tree.guess[0]]
    other = "1234" if tree_first != "1234" else "1122"
    feedback = show_feedback(get_game("mastermind"), get_game("mastermind").code(
        parse_guess(get_game("mastermind"), other), parse_guess(get_game("mastermind"), "5566")))
    out = ok("tree", "mastermind", "-p", f"{other}={feedback}", "-d", "1")
    assert "leaves the precomputed tree: its guess computed live" in out and "guess to play" in out


def test_tree_without_artifact_says_so(small_lists):
    answers, guesses = small_lists
    out = ok("tree", "wordle", "--answers", str(answers), "--guesses", str(guesses))
    assert "no precomputed tree" in out and "guess to play" in out


@pytest.mark.parametrize("path, fragment", [
    ("1122", "expected GUESS=FEEDBACK"),
    ("1122=1,2,3", "feedback must be a sequence of 2 integers"),
    ("1122=x", "feedback must be integers"),
    ("1122=3,1", "no mastermind target gives"),
    ("1122=4,0,1123=1,1", "comes after a win"),
    ("9122=1,1", "not a code"),
])
def test_tree_errors(path, fragment):
    assert_error(invoke("tree", "mastermind", "--path", path), fragment,
                 2 if any(f in fragment for f in USAGE_FRAGMENTS) else 1)


def test_tree_wordle_marks_errors():
    assert_error(invoke("tree", "wordle", "-p", "CRANE=GYR"), "marks must be 5 of")


# -- solve ------------------------------------------------------------------------------------
def _feedback_lines(secret: str) -> list[str]:
    game = get_game("mastermind")
    steps = play_steps(get_solver(game), parse_guess(game, secret))
    return ["{},{}".format(*game.decode(code)) for _, code in steps]


def test_solve_follows_the_tree_to_the_answer():
    lines = _feedback_lines("3456")
    out = ok("solve", "mastermind", input="\n".join(lines) + "\n")
    assert "Guess #1:" in out and "candidates remain." in out
    assert "the answer is 3456" in out or "Solved in" in out


def test_solve_retries_after_a_typo_and_lists_candidates():
    lines = _feedback_lines("3456")
    result = invoke("solve", "mastermind", input="\n".join(["xx", "9,9", lines[0], "list"] + lines[1:]) + "\n")
    assert result.exit_code == 0
    assert "feedback must be integers" in result.stderr and "values must lie in 0..4" in result.stderr
    assert "(try again)" in result.stderr and " candidates: " in result.stdout


def test_solve_records_another_guess_and_goes_live():
    game = get_game("mastermind")
    steps = [f"{g}={show_feedback(game, game.code(game.index_of(g), game.index_of('3456')))}"
             for g in ("1122", "3344", "3456")]
    out = ok("solve", "mastermind", input="\n".join(steps) + "\n")
    assert "leaves the precomputed tree" in out and "Solved in 3 guesses!" in out


def test_solve_rejects_impossible_feedback_then_quits():
    result = invoke("solve", "mastermind", input="3,1\nquit\n")
    assert result.exit_code == 0 and "no mastermind target gives" in result.stderr


def test_solve_end_of_input():
    assert invoke("solve", "bulls", input="0,1\n").exit_code == 1
    result = invoke("solve", "bulls", input="0,1\n7\n")
    assert result.exit_code == 1 and "input ended" in result.stderr


def test_solve_wordle_hard_mode_rejects_a_forbidden_guess():
    result = invoke("solve", "wordle", "--hard", input="CRANE=GRRRR\nSLOTH=RRRRR\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert "hard mode forbids SLOTH: letter 1 must be C" in result.stderr


def test_solve_unknown_game():
    assert_error(invoke("solve", "chess"), "unknown game", 2)


# -- hide -------------------------------------------------------------------------------------
def test_hide_never_commits_until_cornered():
    game = get_game("mastermind")
    rows, guesses = game.target_index.copy(), []
    while True:  # the test guesses the first candidate left; the hider must keep the biggest class
        guess = int(rows[0])
        guesses.append(game.labels[guess])
        code, rows = hider_answer(game, guess, rows)
        if code == game.win_code:
            break
    result = invoke("hide", "mastermind", input="\n".join(["7777"] + guesses) + "\n")
    assert result.exit_code == 0 and "not a code" in result.stderr
    out = result.stdout
    assert "My answer: (0,0)" in out
    assert out.strip().endswith(f"You got it in {len(guesses)} guess{'es' if len(guesses) > 1 else ''}!")


def test_hide_answers_the_biggest_class():
    game = get_game("bulls")
    out = ok("hide", "bulls", input="0123\nlist\nquit\n")
    code, kept = hider_answer(game, game.index_of("0123"), game.target_index)
    assert f"My answer: {show_feedback(game, code)}" in out and f"{kept.size} candidates remain." in out
    assert kept.size == max(sum(1 for t in game.target_index if game.code(game.index_of("0123"), t) == c)
                            for c in range(game.n_codes))


# -- bench and openers ------------------------------------------------------------------------
def test_bench_every_target_matches_the_tree(tmp_path):
    tree = get_solver(get_game("mastermind")).tree
    out = ok("bench", "mastermind", "--plot", str(tmp_path / "h.png")).splitlines()
    assert out[0].startswith("mastermind: 1296 targets")
    assert f"total {tree.metadata['total_guesses']}," in out[-2] and "wall time" in out[-2]
    assert (tmp_path / "h.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_sample():
    out = ok("bench", "bulls", "--sample", "20", "--seed", "1")
    assert "bulls: 20 targets" in out and "mean" in out and "#" in out
    assert "cards n2: 10 targets" in ok("bench", "cards", "-s", "10")


def test_bench_live_equals_playing_each_target(small_lists):
    answers, guesses = small_lists
    out = ok("bench", "wordle", "--answers", str(answers), "--guesses", str(guesses))
    game = select_game("wordle", answers=answers, guesses=guesses)
    total = sum(len(play_steps(get_solver(game), int(t))) for t in game.target_index)
    assert "live computation" in out and f"total {total}," in out


def test_bench_errors(tmp_path):
    assert_error(invoke("bench", "chess"), "unknown game", 2)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert_error(invoke("bench", "bulls", "-s", "3", "--plot", str(blocker / "h.png")), str(blocker))


def test_output_paths_are_checked_before_the_work(tmp_path, monkeypatch):
    import solver.analysis.playout
    import solver.cli.views

    def never(*args, **kwargs):
        raise AssertionError("the work ran before the output path was checked")

    monkeypatch.setattr(solver.analysis.playout, "run", never)
    monkeypatch.setattr(solver.cli.views, "locate", never)
    assert_error(invoke("bench", "cards", "--variant", "n4", "--plot", str(tmp_path / "x.txt")), "'txt'")
    missing = tmp_path / "out" / "h.png"
    assert_error(invoke("bench", "bulls", "--plot", str(missing)), f"{missing}: folder")
    assert_error(invoke("tree", "mastermind", "--dot", str(tmp_path / "out" / "t.dot")), "does not exist")
    assert not (tmp_path / "out").exists()  # a missing folder is not created
    read_only = tmp_path / "kept.dot"
    read_only.write_text("old")
    read_only.chmod(0o444)
    assert_error(invoke("tree", "mastermind", "--dot", str(read_only)), f"{read_only}: the file is read-only")
    assert read_only.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["kept.dot"]


def test_dot_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "t.dot"
    target.write_text("old")
    target.chmod(0o600)
    ok("tree", "mastermind", "--dot", str(target))
    assert target.read_text().startswith("digraph") and (target.stat().st_mode & 0o777) == 0o600


def test_openers_on_a_small_game():
    out = ok("openers", "mastermind", "--top", "2").splitlines()
    assert out[0].split()[:3] == ["rank", "opener", "expected"]
    assert len(out) in (3, 4) and any(line.endswith("(tree)") for line in out)
    tree_total = get_solver(get_game("mastermind")).tree.metadata["total_guesses"]
    assert any(line.split()[4] == tree_total for line in out[1:] if line.endswith("(tree)"))


def test_openers_wordle_lists(small_lists):
    answers, guesses = small_lists
    out = ok("openers", "wordle", "-k", "2", "--answers", str(answers), "--guesses", str(guesses))
    assert len(out.splitlines()) == 3
    assert_error(invoke("openers", "chess"), "unknown game", 2)


# -- hint -------------------------------------------------------------------------------------
def test_hint_wordle_issue_example():
    out = ok("hint", "wordle", "CRANE=RYRGR", "--top", "3")
    assert "BURNT" in out and "ROUND" in out and "RHINO" in out
    assert "Best guesses by expected guesses to finish (this one included):" in out  # one table, both figures
    assert out.count("expected left") == 1 and out.count("entropy") == 1
    lines = out.splitlines()
    header = lines.index("Best guesses by expected guesses to finish (this one included):")
    rows = [line.split() for line in lines[header + 2:header + 5]]
    assert [row[0] for row in rows] == ["1", "2", "3"] and (
        [float(row[2]) for row in rows] == sorted(float(row[2]) for row in rows))
    assert sum("(the solver's guess)" in line for line in lines[header + 2:header + 5]) == 1


def test_hint_and_tree_agree_on_the_answer_list_unless_all_words():
    # the same state gives the same candidates in `hint` and `tree` (the 2315 answers) ...
    hint = ok("hint", "wordle", "CRANE=RYRGR", "--top", "1").splitlines()
    assert hint[0] == "4 possible answers:" and hint[1] == "BURNT HORNY RHINO ROUND"
    tree = ok("tree", "wordle", "--path", "CRANE=RYRGR")
    assert "candidates: 4: BURNT HORNY RHINO ROUND" in tree
    # ... and --all-words makes every acceptable word a possible answer, in hint as in solve
    every = ok("hint", "wordle", "CRANE=RYRGR", "--top", "1", "--all-words").splitlines()
    assert every[0] == "25 possible answers:" and "TURNT" in every[3]
    assert_error(invoke("hint", "mastermind", "--all-words"), "apply to wordle only", 2)


def test_hint_after_a_win_or_one_answer_ranks_nothing_and_counts_in_words():
    out = ok("hint", "wordle", "CRANE=GGGGG").splitlines()
    assert out == ["1 possible answer:", "CRANE", "The answer is CRANE: nothing left to rank."]
    solved = runner.invoke(app, ["solve", "mastermind"], input="1,0\n").output
    assert "candidates remain." in solved and "1 candidates" not in solved


def test_hint_ranks_by_both_figures():
    game = get_game("mastermind")
    out = ok("hint", "mastermind", "1122=1,0", "-k", "1", "-c", "5").splitlines()
    count = sum(1 for t in game.target_index if game.code(game.index_of("1122"), t) == game.encode((1, 0)))
    assert out[0] == f"{count} possible answers:" and out[2] == (
        f"... and {count - 5} more (--candidates 0 lists them all)")
    best = out[out.index("Best guesses by expected guesses to finish (this one included):") + 2].split()
    guess = game.index_of(best[1])
    cands = [t for t in game.target_index if game.code(game.index_of("1122"), t) == game.encode((1, 0))]
    sizes: dict[int, int] = {}
    for t in cands:
        sizes[game.code(guess, t)] = sizes.get(game.code(guess, t), 0) + 1
    assert float(best[4]) == pytest.approx(sum(s * s for s in sizes.values()) / count, abs=1e-3)


@pytest.mark.parametrize("args, fragment", [
    (["wordle", "CRANE"], "expected GUESS=FEEDBACK"),
    (["wordle", "CRANE=GYRRRR"], "marks must be 5 of"),
    (["wordle", "CRANE=GGGGG", "SLATE=RRRRR"], "comes after a win"),
    (["wordle", "--hard", "CRANE=GRRRR", "SLOTH=RRRRR"], "hard mode forbids SLOTH"),
    (["wordle", "QQQQQ=RRRRR"], "not one of the 12972 acceptable guesses of wordle"),
    (["mastermind", "1122=4,1"], "no mastermind target gives"),
    (["mastermind", "1122=1"], "mastermind feedback must be a sequence of 2 integers"),
    (["mastermind", "1122=1,0", "--hard"], "wordle only"),
    (["mastermind", "1122=1,0", "--all-words"], "wordle only"),
])
def test_hint_errors(args, fragment):
    assert_error(invoke("hint", *args), fragment, 2 if any(f in fragment for f in USAGE_FRAGMENTS) else 1)


# -- tables -----------------------------------------------------------------------------------
def test_tables_calls_the_pipeline(monkeypatch):
    import pipeline.rebuild

    calls = []
    monkeypatch.setattr(pipeline.rebuild, "build_all",
                        lambda games, jobs, force, sizes: calls.append((games, jobs, force, sizes)))
    ok("tables", "mastermind", "bulls", "--jobs", "3", "--force")
    ok("tables")
    ok("tables", "wordle", "--size", "6", "--size", "7")
    assert calls == [(["mastermind", "bulls"], 3, True, None), (None, 2, False, None), (["wordle"], 2, False, [6, 7])]


def test_tables_unknown_game():
    assert_error(invoke("tables", "chess"), "unknown game 'chess'", 2)


@pytest.mark.parametrize("name, fields", [("battleship", "exact,one_away,two_away"),
                                          ("cards", "correct,lower,ranks,higher,suits"),
                                          ("mastermind", "black,white"), ("bulls", "bulls,cows")])
def test_feedback_is_explained_in_the_prompt_and_the_help(name, fields):
    out = runner.invoke(app, ["solve", name], input="quit\n").output
    assert f"Feedback: {fields}: " in out and f"feedback ({fields}) for " in out
    assert f"{name}: {fields}: " in ok("--help")


def test_undo_takes_back_the_last_line_in_solve_and_hide():
    out = runner.invoke(app, ["solve", "mastermind"], input="1,0\nundo\nundo\nquit\n")
    assert "Taken back: 1296 candidates remain." in out.output and "nothing to undo" in out.output
    assert out.output.count("Guess #1: 1123") == 2
    hidden = runner.invoke(app, ["hide", "wordle"], input="SALET\nundo\nquit\n").output
    assert "Taken back: 2315 candidates remain." in hidden
    assert "undo" in ok("solve", "--help") and "undo" in ok("hide", "--help")


def test_end_of_input_ends_the_prompt_line_first():
    result = runner.invoke(app, ["solve", "mastermind"], input="")
    assert result.exit_code == 1 and "> \nerror: input ended" in result.output  # the prompt's line is ended


def test_long_commands_report_progress_as_targets_finish():
    from solver.analysis import playout

    seen: list[int] = []
    result = playout.run(get_game("mastermind"), sample=300, seed=1, on_solved=seen.append)
    assert sum(seen) == result.targets == 300
    done: list[int] = []
    ranked = playout.openers(get_game("mastermind"), 2, on_done=done.append)
    assert len(done) == len(ranked) >= 2
    assert "\x1b[" not in invoke("bench", "mastermind", "--sample", "50").output  # no bar off a terminal


def test_dot_is_left_to_right_capped_and_draws_wordle_tiles(tmp_path):
    target = tmp_path / "w.dot"
    ok("tree", "wordle", "--dot", str(target), "--max-nodes", "50")
    text = target.read_text()
    nodes = [line for line in text.splitlines() if line.strip().startswith(("n", "more")) and "[label=" in line
             and "->" not in line]
    assert "rankdir=LR;" in text and len(nodes) == 50
    assert "more nodes (--max-nodes 50)" in text and 'bgcolor="#6aaa64"' in text  # a green tile
    small = tmp_path / "m.dot"
    ok("tree", "mastermind", "--depth", "1", "--dot", str(small), "--max-nodes", "5")
    assert '[label="10 more", shape=plaintext]' in small.read_text() and '[label="(0,0)"]' in small.read_text()
    assert_error(invoke("tree", "mastermind", "--dot", str(small), "--max-nodes", "0"), "--max-nodes", 2)
