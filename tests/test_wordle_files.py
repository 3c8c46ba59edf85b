"""The files the `wordle` program reads and writes: bounded reads (regular files under a size cap), deep
nesting reported as invalid JSON, long input quoted as a short excerpt; the state file compact and quick
to load, never written larger than it may be read, saved whole or not at all (a full disk, SIGTERM during
the save, the leftovers of a killed run), and text that is not Unicode in it a one-line data error."""
from __future__ import annotations

import gc
import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.core import bounded_input
from solver.games.wordlists import builtin_guesses
from solver.wordle_program import records
from solver.wordle_program.records import Records, load_state, parse_state
from solver.wordle_program.rounds import WordleError
from tests.helpers import NO_SPACE, dead_pid, folder_names, one_line_error, play_lines


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
    status, out, err = play_lines(["-w", "crane", option, device], "crane\n")
    assert status == 1 and out == ""
    assert len(one_line_error(err, f"{device}: it is a character device, not a regular file")) < 300


@pytest.mark.parametrize("option", ["-S", "-f", "-a", "-c"])
def test_fifo_is_refused_without_waiting_for_a_writer(tmp_path, option):
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = subprocess.run([sys.executable, "-m", "solver.wordle_program.program", "-w", "crane", option, str(fifo)],
                            input=b"crane\n", capture_output=True, timeout=60)
    assert result.returncode == 1 and result.stdout == b""
    assert len(one_line_error(result.stderr.decode(), "it is a FIFO, not a regular file")) < 300


@pytest.mark.parametrize("option, size, message", [
    ("-S", bounded_input.STATE_LIMIT + 1, "larger than 64 MB, the most a state file may be"),
    ("-c", bounded_input.CONFIG_LIMIT + 1, "larger than 1 MB, the most a config file may be"),
    ("-f", bounded_input.WORD_LIST_LIMIT + 1, "larger than 16 MB, the most a word list may be"),
])
def test_files_over_their_cap_are_refused(tmp_path, option, size, message):
    path = sparse_file(tmp_path / "big", size)
    status, out, err = play_lines(["-w", "crane", option, str(path)], "crane\n")
    assert status == 1 and out == ""
    assert len(one_line_error(err, message)) < 300


@pytest.mark.parametrize("option", ["-S", "-c"])
@pytest.mark.parametrize("text", ["[" * 200_000 + "]" * 200_000,
                                  '{"games": [' + "{\"a\": " * 100_000 + "1" + "}" * 100_000 + "]}"])
def test_deep_nesting_is_invalid_json(tmp_path, option, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    status, out, err = play_lines(["-w", "crane", option, str(path)], "crane\n")
    assert status == 1 and out == ""
    assert len(one_line_error(err, "is not valid JSON: nested too deeply")) < 300
    assert path.read_text() == text


def test_long_input_is_quoted_as_an_excerpt(tmp_path):
    word_list = tmp_path / "one.txt"
    word_list.write_text("B" * 5_000_000 + "\n")
    status, _, err = play_lines(["-w", "crane", "-f", str(word_list)], "crane\n")
    assert status == 1
    assert len(one_line_error(err, "(5000000 characters)")) < 300
    status, _, err = play_lines(["-w", "x" * 100_000], "crane\n")
    assert status == 1
    assert len(one_line_error(err, "(100000 characters)")) < 300
    status, _, err = play_lines([], "y" * 1_000_000 + "\n")  # the answer read from standard input
    assert status == 1
    assert len(one_line_error(err, "(1000000 characters)")) < 300


def test_config_key_is_quoted_as_an_excerpt(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"k" * 100_000: 1}))
    status, _, err = play_lines(["-c", str(config)], "crane\n")
    assert status == 1
    assert len(one_line_error(err, "unknown key 'kkkk")) < 300


# ----------------------------------------------------------------------------- the state file


def test_state_file_is_written_compactly(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"total_rounds": 1, "games": [{"answer": "POSER", "guesses": ["CRANE", "POSER"]}]},
                               indent=2))
    assert play_lines(["-w", "crane", "-S", str(path)], "crane\n")[0] == 0
    text = path.read_text()
    assert text == ('{"total_rounds":2,"games":[{"answer":"POSER","guesses":["CRANE","POSER"]},'
                    '{"answer":"CRANE","guesses":["CRANE"]}]}\n')
    assert load_state(path) == Records(2, json.loads(text)["games"])


def test_state_words_are_shared_and_gc_restored():
    text = Records(3, [{"answer": "CRANE", "guesses": ["SLATE", "CRANE"]}, {"answer": "SLATE", "guesses": ["SLATE"]},
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
    games = [{"answer": words[i % 2315], "guesses": [words[(i * 7 + j) % 12972] for j in range(4)]}
             for i in range(100_000)]
    path = tmp_path / "state.json"
    path.write_text(Records(len(games), games).to_json())
    collections = []
    def callback(phase, info):
        if phase == "start":
            collections.append(info["generation"])
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
    st.fixed_dictionaries({}, optional={
        "answer": st.one_of(WORD, st.integers(), st.none()),
        "guesses": st.one_of(st.lists(st.one_of(WORD, WORD, st.integers(), st.none()), max_size=3), WORD, st.none()),
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


@pytest.mark.parametrize("argv", [["-r", "-s", "9" * 5000], ["-r", "-d", "x" * 5000],
                                  ["-w", "crane", "-S", "s" * 5000]])
def test_long_arguments_are_quoted_as_excerpts(argv):
    status, out, err = play_lines(argv, "crane\n")
    assert status in (1, 2) and out == ""
    assert len(err.splitlines()) == 1 and len(err) < 300, err[:500]


# `python -m solver.wordle_program.program ARGS`, run as `-c APP READY ARGS`: the file READY is created once
# the state file has been loaded (before the game reads its input)
_ANNOUNCING_APP = """
import sys
from pathlib import Path
from solver.wordle_program import program

load_state, ready = program.load_state, Path(sys.argv.pop(1))


def load_and_tell(path):
    state = load_state(path)
    ready.touch()
    return state


program.load_state = load_and_tell
program.main()
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


# ----------------------------------------------------------------------------- saving the state file

def test_the_state_file_on_a_full_disk_is_named(tmp_path, full_disk):
    state = tmp_path / "state.json"
    state.write_text('{"total_rounds":0,"games":[]}')
    status, _, err = play_lines(["-w", "crane", "-S", str(state)], "crane\n")
    assert status == 1 and err.strip() == f"error: cannot write state file {state}: {NO_SPACE}"
    assert state.read_text() == '{"total_rounds":0,"games":[]}' and folder_names(tmp_path) == ["state.json"]


def test_wordle_removes_what_a_killed_run_left_when_it_starts(tmp_path):
    state = tmp_path / "state.json"
    state.write_text('{"total_rounds":0,"games":[]}')
    leftover = tmp_path / f".state.json.{dead_pid()}.abcd_123.tmp"
    leftover.write_text("x" * 1000)
    play_lines(["-w", "crane", "-S", str(state)], stdin="")  # no game played
    assert not leftover.exists() and folder_names(tmp_path) == ["state.json"]


SAVE_BLOCKED = """
import pathlib, sys
from solver.wordle_program import program

fifo = sys.argv[1]
original = pathlib.Path.write_text

def write_text(self, data, *args, **kwargs):  # the save: half written, then a slow disk (a FIFO nobody opens)
    if self.name.endswith(".tmp"):
        original(self, data[: len(data) // 2], *args, **kwargs)
        print("saving", self, file=sys.stderr, flush=True)
        open(fifo).read()
    return original(self, data, *args, **kwargs)

pathlib.Path.write_text = write_text
sys.argv = ["wordle", "-w", "crane", "-S", sys.argv[2]]
program.main()
"""


def _release_if_still_blocked(program: subprocess.Popen, fifo: pathlib.Path) -> None:
    """Open `fifo` for writing (and close it) while `program` runs on after a signal: CPython runs a
    handler between bytecodes, so a signal that lands after the program printed "saving" but before its
    open of the FIFO entered the system call is seen only when that open returns (the test once waited
    forever on a busy machine). The handler then raises at the next call, before the save goes on."""
    try:
        program.wait(timeout=2)
        return
    except subprocess.TimeoutExpired:
        pass
    deadline = time.monotonic() + 60
    while program.poll() is None and time.monotonic() < deadline:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # ENXIO: no reader (yet, or any more)
            pass
        time.sleep(0.1)


def test_sigterm_during_a_save_leaves_the_old_state_and_no_temporary(tmp_path):
    state = tmp_path / "state.json"
    old = '{"total_rounds":1,"games":[{"answer":"SLATE","guesses":["SLATE"]}]}'
    state.write_text(old)
    fifo = tmp_path.parent / f"{tmp_path.name}.fifo"
    os.mkfifo(fifo)
    try:
        program = subprocess.Popen([sys.executable, "-c", textwrap.dedent(SAVE_BLOCKED), str(fifo), str(state)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        program.stdin.write("crane\n")
        program.stdin.close()
        line = program.stderr.readline()  # the save has begun: the temporary file is there
        assert line.startswith("saving "), line + program.stderr.read()
        temporary = pathlib.Path(line.split(" ", 1)[1].strip())
        assert temporary.exists() and temporary.parent == tmp_path
        program.send_signal(signal.SIGTERM)
        _release_if_still_blocked(program, fifo)
        rest = program.stderr.read()
        assert program.wait(timeout=60) == 128 + signal.SIGTERM
        assert rest.strip() == "error: terminated"
        assert state.read_text() == old and folder_names(tmp_path) == ["state.json"]  # no temporary, no lock file
    finally:
        fifo.unlink()


def test_the_state_file_is_never_written_larger_than_it_is_read(tmp_path, monkeypatch):
    state = tmp_path / "state.json"
    status, _, _ = play_lines(["-w", "crane", "-S", str(state)], "crane\n")
    assert status == 0
    one_game = len(state.read_bytes())
    monkeypatch.setattr(records, "STATE_LIMIT", one_game + 10)  # room for the file, not for another game
    before = state.read_text()
    status, _, err = play_lines(["-w", "crane", "-S", str(state)], "crane\n")
    assert status == 1 and len(err.splitlines()) == 1
    assert f"state file {state} would be" in err and f"more than the {one_game + 10} bytes a state file may be" in err
    assert state.read_text() == before and folder_names(tmp_path) == ["state.json"]
    assert load_state(state).total_rounds == 1  # what is there can still be read


@pytest.mark.parametrize("game, key", [
    ('{"answer":"CRANE","guesses":["\\ud800","CRANE"]}', "guesses"),
    ('{"answer":"\\udfff","guesses":["CRANE"]}', "answer"),
    ('{"answers":["CRANE","\\uDBFF"],"guesses":["CRANE"]}', "answers"),
])
def test_a_lone_surrogate_in_the_state_file_is_a_one_line_data_error(tmp_path, game, key):
    state = tmp_path / "state.json"
    state.write_text(f'{{"total_rounds":1,"games":[{game}]}}')
    done = subprocess.run([sys.executable, "-m", "solver.wordle_program.program", "-w", "crane", "-t", "-S",
                           str(state)], input="crane\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f'error: state file {state}: game 1: "{key}" holds')
    assert "internal error" not in done.stderr


def test_a_surrogate_pair_is_text():
    text = json.dumps({"games": [{"answer": "CRANE", "guesses": ["\U0001f600", "CRANE"]}]})  # "\ud83d\ude00"
    assert "\\ud83d" in text
    assert records.parse_state(text).games[0]["guesses"][0] == "\U0001f600"
