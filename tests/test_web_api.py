"""`deduce serve`'s JSON API through FastAPI's TestClient: every endpoint on several games, checked
against the library, every bad request answered by a one-line JSON error naming the field, and the
`serve` command itself (help, the missing extra, a real server on a free loopback port)."""
from __future__ import annotations

import asyncio
import json
import math
import re
import signal
import socket
import subprocess
import threading
import sys
import time
import warnings

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install '.[web]' (or '.[test]')")
httpx = pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx: pip install '.[test]'")

with warnings.catch_warnings():  # starlette's notice that it prefers httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from datetime import date

from typer.testing import CliRunner

from solver.analysis.several_boards import play as boards_play
from solver.analysis.daily import daily as daily_puzzle
from solver.analysis.explain import explain
from solver.analysis.notation import parse_feedback, parse_guess, tokens
from solver.analysis.review import review
from solver.analysis.scores import Scores, hint
from solver.analysis.walk import NodeArrays, play, replay, walk
from solver.cli.main import app as cli
from solver.core.runtime import get_solver
from solver.core.registry import VARIANTS, all_variants, default_variant, get_game
from solver.games import battleship, bulls, cards, mastermind, wordle
from solver.games.boards import SOLVED
from solver.web.service import value_out
from solver.web import app as web_app
from solver.web import service
from solver.web.app import create_app
from tests.helpers import assert_json_error, free_port

# (game, variant, history as the API takes it): one on-tree step each
STEPS = [
    ("wordle", "normal", [{"guess": "SALET", "feedback": "RRYRG"}]),
    ("wordle", "hard", [{"guess": "SALET", "feedback": "RRRRG"}]),
    ("mastermind", None, [{"guess": "1123", "feedback": [1, 1]}]),
    ("cards", "n2", [{"guess": "5C JD", "feedback": "0,1,0,1,1"}]),
    ("battleship", None, [{"guess": "A1-A3-H1", "feedback": [0, 1, 0]}]),
    ("bulls", None, [{"guess": "0123", "feedback": [1, 1]}]),
]


def game_of(name, variant):
    return get_game(name, variant)


def steps_of(game, history) -> list[tuple[int, int]]:
    """The library's (row, code) steps of an API history."""
    def text(value):
        return value if isinstance(value, str) else ",".join(map(str, value))

    return [(parse_guess(game, s["guess"]), parse_feedback(game, text(s["feedback"]))) for s in history]


def feedback_value(game, code):
    value = game.decode(code)
    return value if isinstance(value, str) else list(value)


# -- /api/games ---------------------------------------------------------------------------------
def test_games_lists_every_variant(client):
    games = client.get("/api/games").json()["games"]
    assert [(g["game"], g["variant"]) for g in games] == all_variants()
    for entry in games:
        game = get_game(entry["game"], entry["variant"])
        assert entry["title"] == game.title and entry["targets"] == game.n_targets
        assert entry["guesses"] == game.n_guesses and entry["has_tree"] is True
        assert entry["default"] == (entry["variant"] == default_variant(entry["game"]))
        assert entry["example_guess"] == get_solver(game).initial_guess()[0]
    by_key = {(g["game"], g["variant"]): g for g in games}
    assert by_key["wordle", "normal"]["feedback"]["kind"] == "marks"
    assert by_key["wordle", "normal"]["feedback"]["length"] == 5
    assert by_key["wordle", "normal"]["example_guess"] == "SALET"
    assert by_key["battleship", "default"]["feedback"]["names"] == ["exact", "one_away", "two_away"]
    assert by_key["battleship", "default"]["feedback"]["max"] == [3, 3, 3]
    assert by_key["cards", "n3"]["feedback"]["max"] == [3] * 5
    assert by_key["mastermind", "default"]["feedback"]["max"] == [4, 4]
    assert by_key["bulls", "default"]["feedback"] == {"kind": "fields", "names": ["bulls", "cows"], "max": [4, 4],
                                                      "help": bulls.FEEDBACK_HELP}
    assert sum(g["default"] for g in games) == len(VARIANTS)


def test_games_label_every_variant_in_one_pattern(client):
    label = {(g["game"], g["variant"]): g["label"] for g in client.get("/api/games").json()["games"]}
    assert label["wordle", "normal"] == "Wordle" and label["wordle", "hard"] == "Wordle, hard mode"
    assert label["wordle", "hard-nyt"] == "Wordle, hard mode, NYT lists"
    assert label["wordle", "normal-all-words"] == "Wordle, every word an answer"
    assert label["cards", "n1"] == "Cards, 1 card" and label["cards", "n3"] == "Cards, 3 cards"
    assert label["bulls", "default"] == "Bulls and Cows" and label["battleship", "default"] == "Battleship"
    assert service.label(("wordle", "hard6")) == "Wordle, hard mode, 6 letters"  # built on request only
    pattern = re.compile(r"(Wordle|Mastermind|Bulls and Cows|Battleship|Cards)(, (NYT|[a-z0-9])[\w ]*)*")
    assert all(pattern.fullmatch(text) for text in label.values()), label
    assert len(set(label.values())) == len(label)


# -- /api/next ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name, variant, history", STEPS)
def test_next_matches_the_solver(client, name, variant, history):
    game = game_of(name, variant)
    solver = get_solver(game)
    first = client.post("/api/next", json={"game": name, "variant": variant}).json()
    assert first["guess"] == solver.initial_guess()[0] and first["source"] == "tree"
    assert first["remaining"] == game.n_targets and len(first["candidates"]) == min(50, game.n_targets)
    assert first["title"] == game.title

    answer = client.post("/api/next", json={"game": name, "variant": variant, "history": history, "top": 3,
                                            "candidates": 500}).json()
    steps = steps_of(game, history)
    state = replay(solver, steps)
    assert answer["guess"] == game.labels[solver.guess_row(state)] and answer["source"] == "tree"
    assert answer["remaining"] == state.remaining
    assert answer["candidates"] == list(state.candidates[:500])
    assert answer["identified"] is (state.remaining == 1) and answer["solved"] is False
    why = explain(game, steps)
    shown = {key: value for key, value in answer["explanation"].items() if key != "value"}
    assert shown == {"groups": list(why.groups), "largest_group": why.largest_group,
                     "win_chance": why.win_chance, "expected_guesses": why.expected_guesses,
                     "worst_guesses": why.worst_guesses, "expected_left": why.expected_left}
    # the Why's value is the solver's row of the ranking: one value, shown one way
    [mine] = [alt for alt in answer["alternatives"] if alt["solver"]]
    assert answer["explanation"]["value"] == mine["value"] and mine["value"]["text"] == why.value.text()
    result = hint(game, steps, 3)
    alternatives = answer["alternatives"]
    figures = Scores.compute(game, state.candidate_positions, state.history).figures(
        [game.index_of(alt["guess"]) for alt in alternatives])
    for alt in alternatives:
        s = figures[game.index_of(alt["guess"])]
        assert (alt["expected_left"], alt["entropy"], alt["possible"]) == (s.expected, s.entropy, s.possible)
    assert [alt["guess"] for alt in alternatives if alt["solver"]] == [answer["guess"]]
    tiers = {"proven": 0, "approximate": 0, "bound": 0, "estimate": 1, None: 2}  # rated, estimated, unknown
    order = [(tiers[alt["to_go_kind"]], alt["to_go"] if alt["to_go"] is not None else math.inf) for alt in alternatives]
    assert order == sorted(order), order  # the rated by value first, then the estimated, then the unknown
    proven = {r.label: r.to_go.expected for r in result.ranked if r.to_go is not None and r.to_go.exact}
    for alt in alternatives:  # proven values: the same whoever proves them (either side may miss one)
        if alt["to_go_kind"] == "proven" and alt["guess"] in proven:
            assert alt["to_go"] == pytest.approx(proven[alt["guess"]])


def test_next_equals_the_cli_tree_command(client):
    result = CliRunner().invoke(cli, ["tree", "wordle", "--path", "SALET=RRYRG"])
    assert result.exit_code == 0, result.stdout
    expected = next(line for line in result.stdout.splitlines() if line.startswith("guess to play:")).split()[-1]
    answer = client.post("/api/next", json={"game": "wordle", "history": STEPS[0][2]}).json()
    assert answer["guess"] == expected == "BLING"


def test_next_feedback_spellings_and_top_zero(client):
    spellings = ["RRYRG", "rrYrg", "00102", "..Y.G", "\u2b1b\u2b1b\U0001f7e8\u2b1b\U0001f7e9", [0, 0, 1, 0, 2]]
    answers = [client.post("/api/next", json={"game": "wordle", "history": [{"guess": "salet", "feedback": f}]}).json()
               for f in spellings]
    assert all(a == answers[0] for a in answers) and answers[0]["alternatives"] == []
    text = client.post("/api/next", json={"game": "mastermind", "history": [{"guess": "1123", "feedback": "(1,1)"}]})
    assert text.json() == client.post("/api/next", json={"game": "mastermind", "history": STEPS[2][2]}).json()


def test_next_says_whether_the_guess_is_proven(client):
    on_tree = client.post("/api/next", json={"game": "wordle"}).json()
    assert on_tree["exact"] is True and on_tree["value"] == pytest.approx(7920 / 2315)
    # off the tree and the opener book (a second guess of the player's own): 6 candidates, proven at once
    history = [{"guess": "SALET", "feedback": "RRRRR"}, {"guess": "BLOND", "feedback": "RRYGG"}]
    live = client.post("/api/next", json={"game": "wordle", "history": history}).json()
    state = replay(get_solver(get_game("wordle")), steps_of(get_game("wordle"), history))
    assert live["source"] == "live" and live["exact"] is True and live["value"] == pytest.approx(state.value)
    assert live["source_text"] == "a live proof: proven optimal"
    booked = client.post("/api/next", json={"game": "wordle", "history": [{"guess": "CRANE", "feedback": "RYRGR"}]})
    assert booked.json()["source"] == "book" and booked.json()["value"] == pytest.approx(1.75)
    book = client.post("/api/next", json={"game": "wordle", "history": [{"guess": "ADIEU", "feedback": "RRRRY"}]})
    assert book.json()["source"] == "book" and book.json()["source_text"].startswith("the opener book, computed ahead")
    one = client.post("/api/next", json={"game": "wordle", "history": [{"guess": "CRANE", "feedback": "GGGGR"}]})
    assert one.json()["identified"] and one.json()["source"] == "rule" and one.json()["exact"] is True
    battleship = client.post("/api/next", json={"game": "battleship"}).json()  # optimal for its opener only
    assert battleship["exact"] is False and battleship["value"] == pytest.approx(22856 / 4960)
    done = client.post("/api/next", json={"game": "wordle", "history": [{"guess": "CRANE", "feedback": "GGGGG"}]})
    assert done.json()["exact"] is False and done.json()["value"] is None


def test_next_off_the_tree_is_live(client):
    game = get_game("wordle")
    history = [{"guess": "SALET", "feedback": "RRRRR"}, {"guess": "CHOIR", "feedback": "RRYRY"}]
    answer = client.post("/api/next", json={"game": "wordle", "history": history, "candidates": 0}).json()
    state = replay(get_solver(game), steps_of(game, history))
    assert answer["source"] == "live" and answer["candidates"] == []
    assert answer["guess"] == game.labels[get_solver(game).guess_row(state)]
    assert answer["remaining"] == state.remaining
    why = explain(game, steps_of(game, history))
    assert answer["explanation"]["expected_guesses"] == why.expected_guesses
    assert answer["explanation"]["groups"] == list(why.groups)


def test_next_identified_and_solved(client):
    game = mastermind.game()
    target = "4421"
    steps = play(get_solver(game), game.index_of(target))
    history = [{"guess": game.labels[r], "feedback": feedback_value(game, c)} for r, c in steps]
    before = client.post("/api/next", json={"game": "mastermind", "history": history[:-1]}).json()
    assert before["guess"] == target and before["identified"] and not before["solved"]
    assert before["explanation"]["groups"] == [1] and before["explanation"]["win_chance"] == 1.0
    done = client.post("/api/next", json={"game": "mastermind", "history": history, "top": 5}).json()
    assert done["guess"] is None and done["solved"] and done["identified"] and done["source"] == "tree"
    assert done["candidates"] == [target] and done["explanation"] is None and done["alternatives"] == []


# -- /api/candidates ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, variant, history", STEPS)
def test_candidates_match_the_library(client, name, variant, history):
    game = game_of(name, variant)
    state = replay(get_solver(game), steps_of(game, history))
    for limit in (0, 5, 5000):
        answer = client.post("/api/candidates", json={"game": name, "variant": variant, "history": history,
                                                      "limit": limit}).json()
        assert answer == {"remaining": state.remaining, "candidates": list(state.candidates[:limit])}
    default = client.post("/api/candidates", json={"game": name, "variant": variant}).json()
    assert default["remaining"] == game.n_targets and len(default["candidates"]) == min(100, game.n_targets)


# -- /api/feedback --------------------------------------------------------------------------------
FEEDBACK_CASES = [
    ("wordle", "CRANE", "SALET", lambda t, g: wordle.feedback(t, g)),
    ("wordle", "ABBEY", "BABES", lambda t, g: wordle.feedback(t, g)),
    ("mastermind", "1234", "1122", lambda t, g: list(mastermind.feedback(t, g))),
    ("bulls", "0123", "1032", lambda t, g: list(bulls.feedback(t, g))),
    ("battleship", "A1 B2 C3", "A1-A3-H1", lambda t, g: list(battleship.feedback(
        battleship.parse_locations(tokens(t)), battleship.parse_locations(tokens(g))))),
    ("cards", "2C AS", "AS KH", lambda t, g: list(cards.feedback(cards.parse_cards(tokens(t)),
                                                                 cards.parse_cards(tokens(g))))),
]


@pytest.mark.parametrize("name, target, guess, reference", FEEDBACK_CASES)
def test_feedback_matches_the_games(client, name, target, guess, reference):
    answer = client.post("/api/feedback", json={"game": name, "target": target, "guess": guess}).json()
    assert answer == {"feedback": reference(target, guess), "win": False}
    won = client.post("/api/feedback", json={"game": name, "target": target, "guess": target}).json()
    assert won["win"] is True and won["feedback"] == feedback_value(get_game(name), get_game(name).win_code)


def test_feedback_checks_hard_mode_with_the_history(client):
    body = {"game": "wordle", "variant": "hard", "target": "BLUNT", "guess": "CRANE",
            "history": [{"guess": "SALET", "feedback": "RRRRG"}]}
    assert "letter 5 must be T" in assert_json_error(client.post("/api/feedback", json=body), 422, "guess")
    assert client.post("/api/feedback", json={**body, "variant": "normal"}).status_code == 200


# -- /api/check -----------------------------------------------------------------------------------
@pytest.mark.parametrize("body, field", [
    ({"game": "wordle", "target": "CRANE", "guess": "QXZVJ"}, "guess"),
    ({"game": "wordle", "variant": "hard", "target": "BLUNT", "guess": "CRANE",
      "history": [{"guess": "SALET", "feedback": "RRRRG"}]}, "guess"),
    ({"game": "wordle", "target": "AAHED", "guess": "CRANE"}, "target"),
    ({"game": "mastermind", "target": "1234", "guess": "1127"}, "guess"),
])
def test_check_answers_200_what_feedback_refuses(client, body, field):
    message = assert_json_error(client.post("/api/feedback", json=body), 422, field)
    check = client.post("/api/check", json=body)
    assert check.status_code == 200 and check.json() == {"valid": False, "field": field, "message": message}
    if field == "guess":
        without = {key: value for key, value in body.items() if key != "target"}  # the guess alone
        assert client.post("/api/check", json=without).json() == {"valid": False, "field": field, "message": message}


def test_check_passes_what_feedback_scores(client):
    for body in ({"game": "wordle", "guess": "CRANE"}, {"game": "wordle", "target": "CRANE", "guess": "CRANE"},
                 {"game": "battleship", "guess": "A1-A3-H1"}, {"game": "wordle", "variant": "hard", "guess": "BLUNT",
                                                               "history": [{"guess": "SALET", "feedback": "RRRRG"}]}):
        assert client.post("/api/check", json=body).json() == {"valid": True, "field": None, "message": None}
    refused = client.post("/api/check", json={"game": "wordle", "guess": "CRANE",
                                              "history": [{"guess": "SALET", "feedback": "GGGGG"}]})
    assert "not one of the 2315 answers" in assert_json_error(refused, 422, "history[0].feedback")  # still an error


# -- /api/random ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name, variant", [("wordle", None), ("wordle", "hard"), ("mastermind", None),
                                           ("cards", "n2"), ("battleship", None), ("bulls", None)])
def test_random_is_a_possible_answer(client, name, variant):
    game = get_game(name, variant)
    params = {"game": name, "seed": 7} | ({"variant": variant} if variant else {})
    first = client.get("/api/random", params=params).json()["target"]
    assert first == client.get("/api/random", params=params).json()["target"]
    assert game.index_of(first) in set(game.target_index.tolist())
    unseeded = client.get("/api/random", params={"game": name}).json()["target"]
    assert game.index_of(unseeded) in set(game.target_index.tolist())


def test_a_whole_wordle_game_through_the_api(client):
    target = client.get("/api/random", params={"game": "wordle", "seed": 2024}).json()["target"]
    history = []
    for _ in range(6):
        guess = client.post("/api/next", json={"game": "wordle", "history": history}).json()["guess"]
        scored = client.post("/api/feedback", json={"game": "wordle", "target": target, "guess": guess}).json()
        history.append({"guess": guess, "feedback": scored["feedback"]})
        if scored["win"]:
            break
    game = get_game("wordle")
    assert history[-1] == {"guess": target, "feedback": "GGGGG"}
    assert [(game.index_of(s["guess"]), parse_feedback(game, s["feedback"])) for s in history] == \
        play(get_solver(game), game.index_of(target))
    final = client.post("/api/next", json={"game": "wordle", "history": history}).json()
    assert final["solved"] and final["guess"] is None


# -- /api/tree ------------------------------------------------------------------------------------
def totals(game, rows) -> dict[str, int]:
    """Guesses each target needs when the solver plays it from the start, counted by number."""
    counts: dict[str, int] = {}
    for row in rows:
        n = len(play(get_solver(game), row))
        counts[str(n)] = counts.get(str(n), 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: int(kv[0])))


@pytest.mark.parametrize("name, variant, history", [STEPS[2], STEPS[3], STEPS[0], STEPS[1]])
def test_tree_nodes_match_the_tree(client, name, variant, history):
    game = game_of(name, variant)
    solver = get_solver(game)
    nodes = NodeArrays.from_tree(solver.tree)
    for path in ([], history):
        view = client.post("/api/tree", json={"game": name, "variant": variant, "path": path}).json()
        state = replay(solver, steps_of(game, path))
        node = state.node
        assert view["on_tree"] and view["title"] == game.title
        assert view["node"] == {"guess": game.labels[int(nodes.guess[node])], "remaining": state.remaining,
                                "depth": len(path), "expected_guesses": nodes.expected(node),
                                "worst_guesses": nodes.worst(node)}
        children = view["children"]
        wins = [c for c in children if c["win"]]
        assert len(wins) <= 1 and (not wins or children[0]["win"])
        assert sum(c["remaining"] for c in children if not c["win"]) == state.remaining - len(wins)
        rest = [c["remaining"] for c in children if not c["win"]]
        assert rest == sorted(rest, reverse=True)
        for child in children:
            if child["win"]:
                assert child == {"feedback": feedback_value(game, game.win_code), "remaining": 1, "guess": None,
                                 "expected_guesses": None, "win": True}
                continue
            value = child["feedback"]
            code = game.encode(value if isinstance(value, str) else tuple(value))
            kid = solver.tree.child(node, code)
            assert child["guess"] == game.labels[int(nodes.guess[kid])]
            assert child["expected_guesses"] == nodes.expected(kid)
        assert sum(view["distribution"].values()) == state.remaining
        if state.remaining <= 1500:  # the distribution is the solver's play of every target below
            rows = game.target_index[state.candidate_positions].tolist()
            assert view["distribution"] == totals(game, rows)


def test_tree_off_the_tree(client):
    """Off the tree the node gets the figures `deduce tree --path` prints: the live strategy played out
    from the node (`walk.walk`), with its children and distribution."""
    game = get_game("wordle")
    path = [{"guess": "CRANE", "feedback": "RRYRG"}]
    view = client.post("/api/tree", json={"game": "wordle", "path": path}).json()
    solver = get_solver(game)
    state = replay(solver, steps_of(game, path))
    nodes = walk(solver, state)
    assert view["on_tree"] is False and view["title"] == "wordle"
    assert view["node"] == {"guess": game.labels[solver.guess_row(state)], "remaining": state.remaining,
                            "depth": 1, "expected_guesses": pytest.approx(nodes.expected(0)),
                            "worst_guesses": nodes.worst(0)}
    assert view["node"]["expected_guesses"] is not None
    assert sum(child["remaining"] for child in view["children"]) == state.remaining
    assert view["distribution"] == {str(1 + g): n for g, n in nodes.histogram(0).items()}
    cli_out = CliRunner().invoke(cli, ["tree", "wordle", "--path", "CRANE=RRYRG"]).output
    assert f"{view['node']['expected_guesses']:.3f} expected, {view['node']['worst_guesses']} at worst" in cli_out
    child = next(c for c in view["children"] if not c["win"])  # a child off the tree has figures too
    deeper = client.post("/api/tree", json={"game": "wordle", "path": path + [
        {"guess": view["node"]["guess"], "feedback": child["feedback"]}]}).json()
    assert deeper["node"]["guess"] == child["guess"] and deeper["node"]["expected_guesses"] is not None


# -- /api/daily and the boards (Dordle, Quordle) --------------------------------------------------
def test_daily_is_the_analysis_layers_puzzle(client):
    body = client.get("/api/daily", params={"game": "wordle", "date": "2024-01-01"}).json()
    puzzle = daily_puzzle(get_game("wordle"), date(2024, 1, 1))
    assert body == {"date": "2024-01-01", "number": 926, "epoch": "2021-06-19", "targets": list(puzzle.answers),
                    "guesses": 6}
    assert client.get("/api/daily", params={"game": "wordle", "variant": "hard", "date": "2024-01-01"}).json() \
        == body  # hard mode: the same word
    quordle = client.get("/api/daily", params={"game": "wordle", "date": "2024-01-01", "boards": 4}).json()
    assert quordle["guesses"] == 9 and len(set(quordle["targets"])) == 4
    today = client.get("/api/daily", params={"game": "mastermind"}).json()
    assert today["date"] == date.today().isoformat() and today["number"] == (date.today() - date(2021, 6, 19)).days
    assert_json_error(client.get("/api/daily", params={"game": "wordle", "date": "2021-06-18"}), 422, "date")
    assert_json_error(client.get("/api/daily", params={"game": "wordle", "date": "June 1"}), 422, "date")
    assert_json_error(client.get("/api/daily", params={"game": "chess"}), 422, "game")
    assert_json_error(client.get("/api/daily", params={"game": "cards", "boards": 2}), 422, "boards")


def test_boards_random_feedback_and_next(client):
    targets = client.get("/api/boards/random", params={"boards": 4, "seed": 7}).json()
    assert targets == client.get("/api/boards/random", params={"boards": 4, "seed": 7}).json()
    assert targets["guesses"] == 9 and len(set(targets["targets"])) == 4
    game = get_game("wordle")
    answers = ["CRANE", "SLOTH"]
    rows = [parse_guess(game, a) for a in answers]
    history: list[dict] = []
    expected = boards_play(game, rows)  # what `deduce play wordle CRANE SLOTH --boards 2` plays
    for row, codes in expected:
        step = client.post("/api/boards/next", json={"boards": 2, "history": history}).json()
        assert step["guess"] == game.labels[row] and step["guesses"] == 7 and not step["done"]
        scored = client.post("/api/boards/feedback", json={"targets": answers, "guess": step["guess"]}).json()
        assert scored["feedback"] == [game.decode(game.code(row, t)) for t in rows]
        history.append({"guess": step["guess"],
                        "feedback": [None if c == SOLVED else game.decode(c) for c in codes]})
    final = client.post("/api/boards/next", json={"boards": 2, "history": history}).json()
    assert final["done"] and final["guess"] is None and final["remaining"] == [0, 0]
    assert_json_error(client.get("/api/boards/random", params={"boards": 0}), 422, "boards")
    hard = client.get("/api/boards/random", params={"boards": 2, "variant": "hard", "seed": 3})
    assert hard.status_code == 200 and len(hard.json()["targets"]) == 2  # hard mode on several boards: allowed
    assert_json_error(client.post("/api/boards/feedback", json={"targets": ["CRANE", "CRANE"], "guess": "SALET"}),
                 422, "targets")
    assert_json_error(client.post("/api/boards/feedback", json={"targets": ["CRANE", "QQQQQ"], "guess": "SALET"}),
                 422, "targets[1]")
    assert_json_error(client.post("/api/boards/next", json={"boards": 2, "history": [
        {"guess": "SALET", "feedback": ["RRRRR"]}]}), 422, "history[0].feedback")
    assert_json_error(client.post("/api/boards/next", json={"boards": 2, "history": [
        {"guess": "SALET", "feedback": ["RRRRR", "GGGGG"]}]}), 422, "history[0].feedback")
    assert_json_error(client.post("/api/boards/next", json={"boards": 2, "history": [
        {"guess": "SALET", "feedback": ["RRRRR", "RRRZR"]}]}), 422, "history[0].feedback[1]")


# -- /api/review ----------------------------------------------------------------------------------
def reviewed(game, steps) -> dict:
    """The /api/review answer that `solver.analysis.review.review` gives for (row, code) steps."""
    result = review(game, steps)
    guesses = [{"number": g.number, "guess": g.guess, "feedback": feedback_value(game, code), "before": g.before,
                "after": g.after, "expected_after": pytest.approx(g.expected_after),
                "luck": None if g.decided else pytest.approx(g.luck),
                "to_go": None if g.player is None else pytest.approx(g.player.expected),
                "to_go_kind": None if g.player is None else g.player.kind, "best_guess": g.best_guess,
                "best_to_go": None if g.best is None else pytest.approx(g.best.expected),
                "best_to_go_kind": None if g.best is None else g.best.kind,
                "cost": None if g.cost is None else pytest.approx(g.cost), "cost_kind": g.cost_kind,
                "skill": None if g.skill is None else pytest.approx(g.skill),
                "value": value_out(g.player, game), "best_value": value_out(g.best, game), "cost_text": g.cost_text(),
                "candidates": []}
               for g, (_, code) in zip(result.guesses, steps)]
    return {"title": game.title, "won": result.won, "lost": result.lost, "guesses": guesses,
            "cost": pytest.approx(result.cost),
            "exact": result.exact, "skill": result.skill, "luck": result.luck,
            "share": result.summary_line(game.max_guesses), "cost_text": result.cost_text(), "answer": result.answer,
            "solver_game": [{"guess": game.labels[row], "feedback": feedback_value(game, code)}
                            for row, code in result.solver_game]}


def history_of(game, steps) -> list[dict]:
    return [{"guess": game.labels[row], "feedback": feedback_value(game, code)} for row, code in steps]


@pytest.mark.parametrize("name, variant, target", [("wordle", "normal", "BURNT"), ("wordle", "hard", "FOCUS"),
                                                   ("mastermind", None, "4421"), ("bulls", None, "3571")])
def test_review_along_the_tree_matches_the_library(client, name, variant, target):
    game = game_of(name, variant)
    steps = play(get_solver(game), game.index_of(target))
    answer = client.post("/api/review", json={"game": name, "variant": variant,
                                              "history": history_of(game, steps)})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body == reviewed(game, steps)
    assert len(body["guesses"]) == len(steps) and body["won"] is True
    assert all(g["cost"] == 0 and g["cost_kind"] == "proven" and g["guess"] == g["best_guess"]
               for g in body["guesses"])
    assert body["skill"] == 100 and body["cost"] == 0 and body["exact"] is True
    last = body["guesses"][-1]
    assert last["after"] == 0 and last["feedback"] == feedback_value(game, game.win_code)
    assert (last["luck"] is None) == (last["before"] == 1)
    assert body["share"].startswith(f"deduce review: {game.title} {len(steps)}")


def test_review_prices_a_weak_guess(client):
    game = get_game("wordle")
    history = [{"guess": "SALET", "feedback": "RRRRG"}, {"guess": "BURNT", "feedback": "GGGGG"}]  # GROIN is best
    body = client.post("/api/review", json={"game": "wordle", "history": history}).json()
    assert body == reviewed(game, steps_of(game, history))
    weak = body["guesses"][1]
    assert weak["best_guess"] == "GROIN" and weak["cost_kind"] == "proven"
    assert weak["cost"] == pytest.approx(weak["to_go"] - weak["best_to_go"]) and weak["cost"] > 0.3
    assert weak["cost"] == pytest.approx(review(game, steps_of(game, history)).guesses[1].cost)
    assert body["cost"] == pytest.approx(weak["cost"]) and body["skill"] < 100 and body["exact"] is True
    assert body["share"] == f"deduce review: wordle 2/6, skill {body['skill']}, luck {body['luck']}, " \
                            f"{weak['cost']:.3f} guesses lost"


@pytest.mark.parametrize("name, target, guesses", [("wordle", "BURNT", ["salet", "BURNT"]),
                                                   ("mastermind", "4421", ["1122", "1344", "4421"]),
                                                   ("cards", "2C AS", ["5C JD", "2C AS"]),
                                                   ("battleship", "A1 B2 C3", ["A1-A3-H1"])])
def test_review_answer_and_guesses_equal_the_history(client, name, target, guesses):
    game = get_game(name)
    answer = parse_guess(game, target)
    steps = [(row, game.code(row, answer)) for row in (parse_guess(game, g) for g in guesses)]
    bare = client.post("/api/review", json={"game": name, "answer": target, "guesses": guesses})
    assert bare.status_code == 200, bare.text
    full = client.post("/api/review", json={"game": name, "history": history_of(game, steps)}).json()
    if not full["won"]:  # the answer is known from the bare guesses only: the solver's own game with it
        assert bare.json()["answer"] == game.labels[answer] and bare.json()["solver_game"][-1]["guess"] == target
        full.update(answer=bare.json()["answer"], solver_game=bare.json()["solver_game"])
    assert bare.json() == full
    assert full["won"] is (steps[-1][1] == game.win_code) and len(full["guesses"]) == len(guesses)
    assert [g["guess"] for g in full["guesses"]] == [game.labels[row] for row, _ in steps]


def test_review_errors_say_what_is_wrong(client):
    def error(body, field):
        return assert_json_error(client.post("/api/review", json={"game": "wordle", **body}), 422, field)

    assert "nothing to review" in error({}, "history")
    assert "nothing to review" in error({"history": []}, "history")
    assert "after the win" in error({"history": [{"guess": "CRANE", "feedback": "GGGGG"}, SALET]}, "history[1]")
    assert "no wordle target gives" in error({"history": [{"guess": "SALET", "feedback": "GGGGY"}]},
                                             "history[0].feedback")
    assert "XYZZY" in error({"history": [{"guess": "XYZZY", "feedback": "RRRRR"}]}, "history[0].guess")
    assert "not both" in error({"history": [SALET], "answer": "BURNT", "guesses": ["SALET"]}, "answer")
    assert "not both" in error({"history": [SALET], "guesses": ["SALET"]}, "guesses")
    assert "need the answer" in error({"guesses": ["SALET"]}, "answer")
    assert "nothing to review" in error({"answer": "BURNT"}, "guesses")
    assert "not one of the 2315 answers" in error({"answer": "AAHED", "guesses": ["SALET"]}, "answer")
    assert "XYZZY" in error({"answer": "BURNT", "guesses": ["SALET", "XYZZY"]}, "guesses[1]")
    assert "after the win" in error({"answer": "BURNT", "guesses": ["BURNT", "SALET"]}, "guesses[1]")
    assert "hard mode" in error({"variant": "hard", "answer": "BURNT", "guesses": ["SALET", "CRANE"]}, "guesses[1]")


# -- errors ---------------------------------------------------------------------------------------
SALET = {"guess": "SALET", "feedback": "RRRRG"}
BAD_REQUESTS = [
    ("post", "/api/next", {"game": "chess"}, 422, "game"),
    ("post", "/api/next", {}, 422, "game"),
    ("post", "/api/next", {"game": "cards", "variant": "n9"}, 422, "variant"),
    ("post", "/api/next", {"game": "wordle", "variant": "n2"}, 422, "variant"),
    ("post", "/api/next", {"game": "wordle", "variant": 3}, 422, "variant"),
    ("post", "/api/next", {"game": "wordle", "history": [{"guess": "SALET", "feedback": "GYRZZ"}]}, 422,
     "history[0].feedback"),
    ("post", "/api/next", {"game": "wordle", "history": [{"guess": "SALET", "feedback": "GGGGY"}]}, 422,
     "history[0].feedback"),
    ("post", "/api/next", {"game": "wordle", "history": [{"guess": "SALET", "feedback": 5}]}, 422,
     "history[0].feedback"),
    ("post", "/api/next", {"game": "battleship", "history": [{"guess": "A1 A3 H1", "feedback": [0, 1]}]}, 422,
     "history[0].feedback"),
    ("post", "/api/next", {"game": "battleship", "history": [{"guess": "A1 A3 H1", "feedback": [0, 9, 0]}]}, 422,
     "history[0].feedback"),
    ("post", "/api/next", {"game": "mastermind", "history": [{"guess": "1123", "feedback": [True, 1]}]}, 422,
     "history[0].feedback"),
    ("post", "/api/next", {"game": "mastermind", "history": [{"guess": "1123", "feedback": [1.5, 1]}]}, 422,
     "history[0].feedback"),
    ("post", "/api/next", {"game": "wordle", "history": [{"guess": "XYZZY", "feedback": "RRRRR"}]}, 422,
     "history[0].guess"),
    ("post", "/api/next", {"game": "wordle", "history": [{"guess": 5, "feedback": "RRRRR"}]}, 422, "history[0].guess"),
    ("post", "/api/next", {"game": "wordle", "history": [{"guess": "SALET"}]}, 422, "history[0].feedback"),
    ("post", "/api/next", {"game": "wordle", "variant": "hard",
                           "history": [SALET, {"guess": "CRANE", "feedback": "RRRRR"}]}, 422, "history[1].guess"),
    ("post", "/api/next", {"game": "wordle", "history": [{"guess": "CRANE", "feedback": "GGGGG"}, SALET]}, 422,
     "history[1]"),
    ("post", "/api/next", {"game": "wordle", "history": 5}, 422, "history"),
    ("post", "/api/next", {"game": "wordle", "history": [SALET] * 101}, 422, "history"),
    ("post", "/api/next", {"game": "wordle", "top": "many"}, 422, "top"),
    ("post", "/api/next", {"game": "wordle", "top": 21}, 422, "top"),
    ("post", "/api/next", {"game": "wordle", "candidates": -1}, 422, "candidates"),
    ("post", "/api/candidates", {"game": "wordle", "limit": 5001}, 422, "limit"),
    ("post", "/api/feedback", {"game": "wordle", "target": "CRANE", "guess": "XYZZY"}, 422, "guess"),
    ("post", "/api/feedback", {"game": "wordle", "target": "AAHED", "guess": "SALET"}, 422, "target"),
    ("post", "/api/feedback", {"game": "mastermind", "target": "12", "guess": "1122"}, 422, "target"),
    ("post", "/api/feedback", {"game": "wordle", "guess": "SALET"}, 422, "target"),
    ("post", "/api/tree", {"game": "bulls", "path": [{"guess": "0123", "feedback": [5, 0]}]}, 422, "path[0].feedback"),
    ("post", "/api/tree", {"game": "bulls", "path": [{"guess": "0012", "feedback": [1, 0]}]}, 422, "path[0].guess"),
    ("post", "/api/review", {"game": "wordle"}, 422, "history"),
    ("post", "/api/review", {"game": "wordle", "history": [{"guess": "CRANE", "feedback": "GGGGG"}, SALET]}, 422,
     "history[1]"),
    ("post", "/api/review", {"game": "wordle", "history": [{"guess": "SALET", "feedback": "GGGGY"}]}, 422,
     "history[0].feedback"),
    ("post", "/api/review", {"game": "wordle", "history": [{"guess": "XYZZY", "feedback": "RRRRR"}]}, 422,
     "history[0].guess"),
    ("post", "/api/review", {"game": "wordle", "history": [SALET], "answer": "BURNT", "guesses": ["SALET"]}, 422,
     "answer"),
    ("post", "/api/review", {"game": "wordle", "answer": "BURNT", "guesses": "SALET"}, 422, "guesses"),
    ("post", "/api/review", {"game": "wordle", "answer": "BURNT", "guesses": ["SALET"] * 101}, 422, "guesses"),
    ("post", "/api/review", {"game": "wordle", "answer": 5, "guesses": ["SALET"]}, 422, "answer"),
    ("post", "/api/next", [], 422, None),
    ("get", "/api/random?game=wordle&seed=abc", None, 422, "seed"),
    ("get", "/api/random", None, 422, "game"),
    ("get", "/api/random?game=wordle&variant=easy", None, 422, "variant"),
    ("get", "/api/nope", None, 404, None),
    ("post", "/api/nope", {}, 404, None),
    ("get", "/api", None, 404, None),
    ("get", "/api/next", None, 405, None),
    ("post", "/api/games", {}, 405, None),
    ("put", "/api/tree", {}, 405, None),
    ("delete", "/api/random", None, 405, None),
]


@pytest.mark.parametrize("method, path, body, status, field", BAD_REQUESTS)
def test_bad_requests_name_the_field(client, method, path, body, status, field):
    kwargs = {} if body is None else {"json": body}
    assert_json_error(client.request(method.upper(), path, **kwargs), status, field)


def test_malformed_json_huge_bodies_and_no_body(client):
    headers = {"content-type": "application/json"}
    assert "malformed JSON" in assert_json_error(client.post("/api/next", content=b'{"game": ', headers=headers),
                                                 400, None)
    assert_json_error(client.post("/api/next", content=b"\xff\xfe{}", headers=headers), 400, None)
    assert_json_error(client.post("/api/next", content=b"{" + b" " * 70_000 + b"}", headers=headers), 413, None)
    huge = {"game": "wordle", "history": [{"guess": "SALET" * 2000, "feedback": "RRRRR"}] * 10}
    assert_json_error(client.post("/api/next", json=huge), 413, None)

    def chunks():  # no Content-Length: the limit counts what arrives
        for _ in range(100):
            yield b" " * 1024

    assert_json_error(client.post("/api/next", content=chunks(), headers=headers), 413, None)
    assert_json_error(client.post("/api/next"), 422, None)
    assert_json_error(client.post("/api/next", content=b"game=wordle",
                             headers={"content-type": "application/x-www-form-urlencoded"}), 422, None)


def test_internal_errors_stay_generic(monkeypatch):
    from solver.web import service

    def broken(*args):
        raise RuntimeError("secret /work/main/solver/web/service.py detail")

    monkeypatch.setattr(service, "tree_view", broken)
    response = TestClient(create_app(), raise_server_exceptions=False).post("/api/tree", json={"game": "bulls"})
    assert_json_error(response, 500, None)
    assert "secret" not in response.text


# -- documentation and the page -----------------------------------------------------------------
def test_openapi_documents_every_endpoint(client):
    schema = client.get("/openapi.json").json()
    paths = {"/api/games", "/api/next", "/api/candidates", "/api/feedback", "/api/check", "/api/random", "/api/tree",
             "/api/review"}
    assert paths <= set(schema["paths"])
    models = schema["components"]["schemas"]
    for name in ("NextRequest", "NextResponse", "TreeResponse", "ErrorResponse", "GameInfo", "Step", "ReviewRequest",
                 "ReviewResponse", "ReviewedGuess"):
        assert models[name].get("description"), name
    assert models["NextRequest"]["properties"]["top"]["description"]
    for name, fields in (("ReviewRequest", ("history", "answer", "guesses")),
                         ("ReviewResponse", ("cost", "exact", "skill", "luck", "share")),
                         ("ReviewedGuess", ("luck", "to_go", "to_go_kind", "best_to_go", "cost", "cost_kind"))):
        for field in fields:
            assert models[name]["properties"][field].get("description"), (name, field)
    assert "ErrorResponse" in json.dumps(schema["paths"]["/api/next"]["post"]["responses"]["422"])
    assert client.get("/docs").status_code == 200


def test_the_page_is_served_and_optional(client, monkeypatch, tmp_path):
    index = web_app.STATIC / "index.html"
    page = client.get("/")
    if index.is_file():
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert_json_error(client.get("/no-such-file.js"), 404, None)
    monkeypatch.setattr(web_app, "STATIC", tmp_path / "missing")
    bare = TestClient(create_app())
    assert_json_error(bare.get("/"), 404, None)
    assert bare.post("/api/next", json={"game": "bulls"}).json()["guess"] == "0123"
    (tmp_path / "missing").mkdir()
    (tmp_path / "missing" / "index.html").write_text("<p>hello</p>")
    assert TestClient(create_app()).get("/").text == "<p>hello</p>"


# -- the command --------------------------------------------------------------------------------
def test_serve_help():
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0 and "--host" in result.stdout and "--port" in result.stdout
    for label in ("<bool>", "<str>", "<int", "<list[", "<path>"):  # as every command's help (test_exit_status)
        assert label not in result.stdout
    assert CliRunner().invoke(cli, ["serve", "--port", "0"]).exit_code == 2  # a usage error
    assert "serve" in CliRunner().invoke(cli, ["--help"]).stdout


def test_serve_without_the_web_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: deduce serve needs the web extra: pip install 'deduce-solver[web]'"


def test_serve_refuses_a_busy_port():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        result = CliRunner().invoke(cli, ["serve", "--port", str(busy.getsockname()[1])])
    assert result.exit_code == 1 and result.stderr.startswith("error: cannot listen on 127.0.0.1:")
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_prints_the_address_and_answers():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90  # a fresh clone compiles the kernels while other tests run
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=60)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.communicate()
                assert time.monotonic() < deadline, "deduce serve did not answer within 90 s"
                time.sleep(0.2)
        assert response.status_code == 200 and response.json()["games"]
        server.send_signal(signal.SIGINT)  # Ctrl-C
        out, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert out.splitlines()[0] == f"Serving on http://127.0.0.1:{port} (Ctrl-C to stop)"
    assert server.returncode == 130 and "Traceback" not in err


def test_a_review_of_more_guesses_than_allowed_is_refused(client):
    # a lost game whose states are quick to value (tests/test_review.py scores a lost game of junk guesses)
    words = ["SALET", "BATCH", "CATCH", "HATCH", "LATCH", "MATCH", "WATCH"]
    body = {"game": "wordle", "answer": "WATCH", "guesses": words}
    assert "allows 6 guesses, got 7" in assert_json_error(client.post("/api/review", json=body), 422, "guesses")
    lost = client.post("/api/review", json={**body, "guesses": words[:6]}).json()
    game, answer = get_game("wordle"), get_game("wordle").index_of("WATCH")
    same = review(game, [(row, game.code(row, answer)) for row in map(game.index_of, words[:6])])
    assert lost["lost"] is True and lost["won"] is False and lost["skill"] == same.skill < 100
    assert all(g["to_go"] is not None and g["skill"] is not None for g in lost["guesses"])


def test_an_off_tree_subtree_too_large_to_play_out_is_refused_at_once(client):
    # cards n4 after a first guess of the player's own: 17550 candidates (minutes to play out live)
    path = [{"guess": "2C 3C 4C 5C", "feedback": [0, 0, 0, 4, 0]}]
    answer = client.post("/api/tree", json={"game": "cards", "variant": "n4", "path": path})
    assert "17550 candidates" in assert_json_error(answer, 422, "path") and "too many to play out live" in answer.text
    result = CliRunner().invoke(cli, ["tree", "cards", "--variant", "n4", "--path", "2C 3C 4C 5C=0,0,0,4,0"])
    assert result.exit_code == 1 and "too many to play out live (at most 2000)" in result.stderr


def test_ctrl_c_during_a_live_computation_stops_the_server_at_once():
    # the live play-out of a cards n4 state of 846 candidates takes seconds to minutes: Ctrl-C stops
    # its searches, the client gets the JSON 503, and the process ends with 130 without waiting for it
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    answers: list = []
    path = [{"guess": "9C 7D 8D KS", "feedback": [1, 0, 3, 0, 2]}]

    def ask() -> None:
        answers.append(httpx.post(f"http://127.0.0.1:{port}/api/tree", timeout=300,
                                  json={"game": "cards", "variant": "n4", "path": path}))

    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=60)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, server.communicate()
                time.sleep(0.2)
        client = threading.Thread(target=ask)
        client.start()
        client.join(2.0)  # the play-out is under way (if it ended already, there is nothing to stop)
        if answers:
            pytest.skip("the live computation ended before Ctrl-C could be sent")
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)  # not the minutes the computation would take
        client.join(30)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 130 and "Traceback" not in err
    assert answers and answers[0].status_code == 503 and "stopping" in answers[0].json()["error"]["message"]


# -- Wordle feedback lists of one mark per letter; text that is not Unicode, numbers too long to read --
JSON = {"content-type": "application/json"}


def next_error(client, history, status, field, variant=None):
    body = {"game": "wordle", "history": history} | ({"variant": variant} if variant else {})
    return assert_json_error(client.post("/api/next", json=body), status, field)


@pytest.mark.parametrize("feedback", [[22, 2, 2, 2], [100, 10], [2, 2, 2, 2, 22], [0, 1, 0, 0], [0, 1, 0, 0, 2, 0],
                                      [-1, 0, 0, 0, 0], [], [3, 0, 0, 0, 0]])
def test_wordle_feedback_lists_are_one_mark_per_letter(client, feedback):
    message = next_error(client, [{"guess": "SALET", "feedback": feedback}], 422, "history[0].feedback")
    assert "per letter" in message


def test_wordle_feedback_lists_of_marks_still_read(client):
    def ask(feedback):
        return client.post("/api/next", json={"game": "wordle", "history": [{"guess": "SALET", "feedback": feedback}]})

    digits, marks = ask([0, 1, 0, 0, 2]), ask("RYRRG")
    assert digits.status_code == 200 and digits.json() == marks.json()


SURROGATE = '"\\ud800"'  # a lone surrogate, as JSON writes it: not a character, cannot be UTF-8
SURROGATE_BODIES = [
    ("/api/next", '{"game": "wordle", "history": [{"guess": "SALET", "feedback": %s}]}', "history[0].feedback"),
    ("/api/review", '{"game": "wordle", "history": [{"guess": "SALET", "feedback": %s}]}', "history[0].feedback"),
    ("/api/next", '{"game": "wordle", "history": [{"guess": %s, "feedback": "RRRRR"}]}', "history[0].guess"),
    ("/api/next", '{"game": "wordle", "variant": %s}', "variant"),
    ("/api/next", '{"game": %s}', "game"),
    ("/api/feedback", '{"game": "wordle", "target": %s, "guess": "SALET"}', "target"),
    ("/api/review", '{"game": "wordle", "answer": "BURNT", "guesses": ["SALET", %s]}', "guesses[1]"),
]


@pytest.mark.parametrize("path, body, field", SURROGATE_BODIES)
def test_text_that_is_not_unicode_names_the_field(client, path, body, field):
    response = client.post(path, content=(body % SURROGATE).encode(), headers=JSON)
    message = assert_json_error(response, 422, field)
    assert "Unicode" in message and "serializ" not in message


def test_emoji_escaped_as_surrogate_pairs_still_read(client):
    pair = '"\\ud83d\\udfe9\\u2b1b\\u2b1b\\u2b1b\\ud83d\\udfe8"'  # green, grey, grey, grey, yellow squares
    body = '{"game": "wordle", "history": [{"guess": "SALET", "feedback": %s}]}' % pair
    response = client.post("/api/next", content=body.encode(), headers=JSON)
    assert response.status_code == 200, response.text


LONG = "7" * 5000  # past Python's 4300 digits of an int read from text
LONG_BODIES = [
    ('{"game": "wordle", "top": %s}', "top"),
    ('{"game": "wordle", "candidates": -%s}', "candidates"),
    ('{"game": "mastermind", "history": [{"guess": "1123", "feedback": [1, %s]}]}', "history[0].feedback[1]"),
]


@pytest.mark.parametrize("body, field", LONG_BODIES)
def test_numbers_too_long_to_read_name_the_field(client, body, field):
    response = client.post("/api/next", content=(body % LONG).encode(), headers=JSON)
    message = assert_json_error(response, 422, field)
    assert "5000 digits" in message and "UTF-8" not in message


def test_bodies_that_cannot_be_read_say_why(client):
    message = assert_json_error(client.post("/api/next", content=b'{"game": "\xff"}', headers=JSON), 400, None)
    assert "not UTF-8" in message and "0xff" in message
    message = assert_json_error(client.post("/api/next", content=b"[" * 60_000, headers=JSON), 400, None)
    assert "nests too deeply" in message


# -- redirects that never name the Host header's host ---------------------------------------------
async def _asgi_get(app, path: str, host: str) -> tuple[int, dict[str, str]]:
    """GET `path` exactly as written (no client normalises it) with this Host header."""
    messages = []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", host.encode())], "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000)}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        messages.append(message)

    await app(scope, receive, send)
    start = messages[0]
    return start["status"], {k.decode().lower(): v.decode("latin-1") for k, v in start["headers"]}


@pytest.mark.parametrize("path", ["/index.html/..", "//evil.example/..", "/\\evil.example/..", "/api/games/"])
def test_redirects_never_name_the_host_header(path):
    app = create_app()
    status, headers = asyncio.run(_asgi_get(app, path, "evil.example"))
    if 300 <= status < 400:
        location = headers["location"]
        assert location.startswith("/") and not location.startswith(("//", "/\\")), location
        assert "://" not in location and "/.." not in location, location


def test_trailing_slash_redirect_is_relative(client):
    response = client.get("/api/games/", headers={"host": "evil.example"}, follow_redirects=False)
    assert response.status_code in (307, 308) and response.headers["location"] == "/api/games"
