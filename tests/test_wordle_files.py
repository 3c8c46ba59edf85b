"""The files the `wordle` program reads: bounded (regular files under a size cap), deep nesting
reported as invalid JSON, long input quoted as a short excerpt; the state file compact and quick
to load."""
from __future__ import annotations

import gc
import io
import json
import os
import subprocess
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.core import limits
from solver.games.wordlists import builtin_guesses
from solver.wordle_program.app import run
from solver.wordle_program.records import State, load_state, parse_state
from solver.wordle_program.rounds import WordleError


def play_lines(argv: list[str], stdin: str = "crane\n") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(argv, io.StringIO(stdin), out, err, interactive=False)
    return status, out.getvalue(), err.getvalue()


def one_line_error(err: str, fragment: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], err[:500]
    assert len(lines[0]) < 300, lines[0][:500]


def sparse_file(path, size: int):
    with open(path, "wb") as file:
        file.truncate(size)  # no disk used
    return path


# ----------------------------------------------------------------------------- bounded reads


@pytest.mark.parametrize("option", ["-S", "-f", "-a", "-c"])
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/full"])
def test_devices_are_refused(option, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    status, out, err = play_lines(["-w", "crane", option, device])
    assert status == 1 and out == ""
    one_line_error(err, f"{device}: it is a character device, not a regular file")


@pytest.mark.parametrize("option", ["-S", "-f", "-a", "-c"])
def test_fifo_is_refused_without_waiting_for_a_writer(tmp_path, option):
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = subprocess.run([sys.executable, "-m", "solver.wordle_program.app", "-w", "crane", option, str(fifo)],
                            input=b"crane\n", capture_output=True, timeout=60)
    assert result.returncode == 1 and result.stdout == b""
    one_line_error(result.stderr.decode(), "it is a FIFO, not a regular file")


@pytest.mark.parametrize("option, size, message", [
    ("-S", limits.STATE_LIMIT + 1, "larger than 64 MB, the most a state file may be"),
    ("-c", limits.CONFIG_LIMIT + 1, "larger than 1 MB, the most a config file may be"),
    ("-f", limits.WORD_LIST_LIMIT + 1, "larger than 16 MB, the most a word list may be"),
])
def test_files_over_their_cap_are_refused(tmp_path, option, size, message):
    path = sparse_file(tmp_path / "big", size)
    status, out, err = play_lines(["-w", "crane", option, str(path)])
    assert status == 1 and out == ""
    one_line_error(err, message)


@pytest.mark.parametrize("option", ["-S", "-c"])
@pytest.mark.parametrize("text", ["[" * 200_000 + "]" * 200_000, '{"games": [' + "{\"a\": " * 100_000 + "1" + "}" * 100_000 + "]}"])
def test_deep_nesting_is_invalid_json(tmp_path, option, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    status, out, err = play_lines(["-w", "crane", option, str(path)])
    assert status == 1 and out == ""
    one_line_error(err, "is not valid JSON: nested too deeply")
    assert path.read_text() == text


def test_long_input_is_quoted_as_an_excerpt(tmp_path):
    word_list = tmp_path / "one.txt"
    word_list.write_text("B" * 5_000_000 + "\n")
    status, _, err = play_lines(["-w", "crane", "-f", str(word_list)])
    assert status == 1
    one_line_error(err, "(5000000 characters)")
    status, _, err = play_lines(["-w", "x" * 100_000])
    assert status == 1
    one_line_error(err, "(100000 characters)")
    status, _, err = play_lines([], "y" * 1_000_000 + "\n")  # the answer read from standard input
    assert status == 1
    one_line_error(err, "(1000000 characters)")


def test_config_key_is_quoted_as_an_excerpt(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"k" * 100_000: 1}))
    status, _, err = play_lines(["-c", str(config)])
    assert status == 1
    one_line_error(err, "unknown key 'kkkk")


# ----------------------------------------------------------------------------- the state file


def test_state_file_is_written_compactly(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"total_rounds": 1, "games": [{"answer": "POSER", "guesses": ["CRANE", "POSER"]}]}, indent=2))
    assert play_lines(["-w", "crane", "-S", str(path)])[0] == 0
    text = path.read_text()
    assert text == ('{"total_rounds":2,"games":[{"answer":"POSER","guesses":["CRANE","POSER"]},'
                    '{"answer":"CRANE","guesses":["CRANE"]}]}\n')
    assert load_state(path) == State(2, json.loads(text)["games"])


def test_state_words_are_shared_and_gc_restored():
    text = State(3, [{"answer": "CRANE", "guesses": ["SLATE", "CRANE"]}, {"answer": "SLATE", "guesses": ["SLATE"]},
                     {"x": {"answer": "KEEP", "guesses": [1, True, 1.0]}}]).to_json()
    assert gc.isenabled()
    state = parse_state(text)
    assert gc.isenabled()
    games = state.games
    assert games[0]["guesses"][1] is games[0]["answer"] and games[0]["guesses"][0] is games[1]["answer"]
    assert state.to_json() == text  # what is not a game's words is kept as stored (True stays true, 1.0 stays 1.0)
    with pytest.raises(WordleError):
        parse_state('{"games": [{"answer": 5}]}')
    assert gc.isenabled()


def test_large_state_loads_without_garbage_collections(tmp_path):
    words = builtin_guesses()
    games = [{"answer": words[i % 2315], "guesses": [words[(i * 7 + j) % 12972] for j in range(4)]} for i in range(100_000)]
    path = tmp_path / "state.json"
    path.write_text(State(len(games), games).to_json())
    collections = []
    callback = lambda phase, info: collections.append(info["generation"]) if phase == "start" else None
    gc.callbacks.append(callback)
    try:
        state = load_state(path)
    finally:
        gc.callbacks.remove(callback)
    assert state.games == games and state.total_rounds == 100_000
    # A few passes at most after the collector is enabled again, not hundreds (without the pause: 286);
    # the test process's other threads (pytest-xdist's) allocate in the same window (CI once saw 2)
    assert len(collections) <= 5, f"{len(collections)} collections while loading: {collections[:20]}"


WORD = st.sampled_from(["CRANE", "slate", ""])
GAME = st.one_of(
    st.fixed_dictionaries({}, optional={"answer": st.one_of(WORD, st.integers(), st.none()),
                                        "guesses": st.one_of(st.lists(st.one_of(WORD, WORD, st.integers(), st.none()), max_size=3),
                                                             WORD, st.none()),
                                        "extra": st.one_of(st.none(), st.fixed_dictionaries({"answer": st.integers()}))}),
    st.integers(), WORD, st.lists(WORD, max_size=2),
)


def reference_error(games: list) -> str | None:
    """The first problem of a games list, as the state file's rules state it (None: fine)."""
    for number, game in enumerate(games, start=1):
        if not isinstance(game, dict):
            return f"game {number} must be an object"
        if "answer" in game and not isinstance(game["answer"], str):
            return f'game {number}: "answer" must be a string'
        guesses = game.get("guesses", [])
        if not isinstance(guesses, list) or not all(isinstance(w, str) for w in guesses):
            return f'game {number}: "guesses" must be a list of strings'
    return None


@given(games=st.lists(GAME, max_size=6))
def test_state_validation_matches_the_rules(games):
    text = json.dumps({"games": games})
    expected = reference_error(games)
    if expected is None:
        assert parse_state(text).games == games
    else:
        with pytest.raises(WordleError, match=expected.replace('"', '.')):
            parse_state(text)


@pytest.mark.parametrize("argv", [["-r", "-s", "9" * 5000], ["-r", "-d", "x" * 5000], ["-w", "crane", "-S", "s" * 5000]])
def test_long_arguments_are_quoted_as_excerpts(argv):
    status, out, err = play_lines(argv)
    assert status in (1, 2) and out == ""
    assert len(err.splitlines()) == 1 and len(err) < 300, err[:500]


# `python -m solver.wordle_program.app ARGS`, run as `-c APP READY ARGS`: the file READY is created once
# the state file has been loaded (before the game reads its input)
_ANNOUNCING_APP = """
import sys
from pathlib import Path
from solver.wordle_program import app

load_state, ready = app.load_state, Path(sys.argv.pop(1))


def load_and_tell(path):
    state = load_state(path)
    ready.touch()
    return state


app.load_state = load_and_tell
app.main()
"""


def test_concurrent_runs_writing_one_state_file_lose_no_game(tmp_path):
    """Runs that all read the state file before any game ends (their input comes late) still record
    every game: the file is read again under its lock when a game ends (issue: last writer won)."""
    folder, ready = tmp_path / "state", tmp_path / "ready"
    folder.mkdir()
    ready.mkdir()
    state = folder / "same.json"
    words = ["crane", "slate", "trace", "brace", "grace", "place"]
    runs = [subprocess.Popen([sys.executable, "-c", _ANNOUNCING_APP, str(ready / word), "-w", word, "-S", str(state)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for word in words]
    deadline = time.monotonic() + 120  # generous: only a run that never loads the state fails here
    while len(list(ready.iterdir())) < len(words):  # every run has loaded the (still empty) state
        assert all(run.poll() is None for run in runs), [run.communicate() for run in runs if run.poll() is not None]
        assert time.monotonic() < deadline, f"only {sorted(p.name for p in ready.iterdir())} loaded the state"
        time.sleep(0.05)
    outs = [run.communicate(f"{word}\n", timeout=60) for run, word in zip(runs, words)]
    assert [run.returncode for run in runs] == [0] * len(words), [err for _, err in outs]
    saved = json.loads(state.read_text())
    assert saved["total_rounds"] == len(words) and len(saved["games"]) == len(words)
    assert sorted(game["answer"] for game in saved["games"]) == sorted(w.upper() for w in words)
    assert [p.name for p in folder.iterdir()] == ["same.json"]  # no lock or temporary file left


def test_a_state_file_starting_with_a_byte_order_mark_is_read(tmp_path):
    plain = tmp_path / "plain.json"
    marked = tmp_path / "marked.json"
    plain.write_text('{"total_rounds": 0, "games": []}', encoding="utf-8")
    marked.write_text('{"total_rounds": 0, "games": []}', encoding="utf-8-sig")
    assert marked.read_bytes().startswith(b"\xef\xbb\xbf")
    assert load_state(marked) == load_state(plain)
