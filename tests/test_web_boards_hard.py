"""Hard mode on several boards on the web: /api/boards/feedback takes the guesses
so far (`history`) and, in hard mode, refuses a guess that keeps the rule of no unsolved board, naming `guess`
and each board's reason (`Boards.refusal`), without the live pool; the hint (/api/boards/next) proposes only
guesses the rule allows; the review of a hard game checks the rule and rates each board. On the page (Chromium,
1280 x 900 and 390 x 844): Dordle's Hard mode switch, a guess refused with the reason, the game won, shared with
`*` and reviewed.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the web tests need fastapi: pip install 'deduce-solver[test]'")

from solver.core.registry import get_game
from solver.games import wordle
from solver.games.boards import Boards
from solver.web import api, service
from solver.web.models import BoardsFeedbackRequest
from tests.helpers import assert_json_error

HARD = get_game("wordle", "hard")
TARGETS = ["HELIX", "WALTZ"]
# after SALET (HELIX: RRGYR, WALTZ: RGGRY): CRONY keeps neither board's rule (board 1 wants L third, board 2 A
# second); BALTI breaks board 1's (no E) but keeps board 2's, so hard mode on several boards allows it
GAME = ["SALET", "BALTI", "WALTZ", "HELIX"]
SIZES = [(1280, 900), (390, 844)]


def state_after(targets: list[str], guesses: list[str]) -> Boards:
    """The library's hard-mode boards of answers `targets` after `guesses`."""
    rows = [HARD.index_of(t) for t in targets]
    state = Boards.start(HARD, len(rows))
    for word in guesses:
        row = HARD.index_of(word)
        state = state.after(row, {b: HARD.code(row, t) for b, t in enumerate(rows) if not state.solved[b]})
    return state


def feedback(client, guess: str, history: list[str], variant: str = "hard", targets: list[str] = TARGETS):
    return client.post("/api/boards/feedback", json={"variant": variant, "targets": targets, "guess": guess,
                                                     "history": history})


def test_a_guess_keeping_no_boards_rule_is_refused_naming_guess_and_each_boards_reason(client):
    reason = state_after(TARGETS, ["SALET"]).refusal(HARD.index_of("CRONY"))
    assert reason == "board 1: letter 3 must be L; board 2: letter 2 must be A"
    message = assert_json_error(feedback(client, "CRONY", ["SALET"]), 422, "guess")
    assert message == f"hard mode forbids CRONY: {reason}"
    assert feedback(client, "CRONY", ["SALET"], "normal").status_code == 200  # normal mode: any word
    # an earlier guess the rule forbids is named where it is
    assert "hard mode forbids CRONY" in assert_json_error(feedback(client, "HELIX", ["SALET", "CRONY"]), 422,
                                                          "history[1]")
    # priced as quick: answered at once, never queued for the live pool
    request = BoardsFeedbackRequest(variant="hard", targets=TARGETS, guess="CRONY", history=["SALET"])
    assert api._boards_feedback(request).live is False


@pytest.mark.parametrize("count, seed", [(2, 0), (4, 1), (8, 2)])
def test_the_refusal_is_the_librarys(count, seed):
    """The service checks the rule without narrowing candidates: it refuses exactly what `Boards.refusal` refuses,
    with the same reasons, along games of guesses the rule allows (and of others tried at each step)."""
    rng = np.random.default_rng(seed)
    targets = [HARD.labels[int(t)] for t in rng.choice(HARD.target_index, count, replace=False)]
    rows = [HARD.index_of(t) for t in targets]
    state, played, refused = Boards.start(HARD, count), [], 0
    while not state.done and len(played) < count + 5:
        for guess in rng.choice(HARD.n_guesses, 40, replace=False).tolist():
            reason = state.refusal(guess)
            try:
                service.boards_feedback(("wordle", "hard"), targets, HARD.labels[guess], played)
                assert reason is None, (played, HARD.labels[guess], reason)
            except service.FieldError as err:
                assert err.field == "guess" and str(err) == f"hard mode forbids {HARD.labels[guess]}: {reason}"
                refused += 1
        allowed = np.flatnonzero(state.allowed())
        row = int(rng.choice(allowed)) if len(played) < 2 else int(HARD.target_index[
            state.candidates[state.open_boards[0]][0]])  # then a candidate: the game ends
        state = state.after(row, {b: HARD.code(row, t) for b, t in enumerate(rows) if not state.solved[b]})
        played.append(HARD.labels[row])
    assert refused > 0


def test_an_allowed_guess_is_scored_and_a_board_solved_before_gets_none(client):
    board_one = Boards.start(HARD, 1).after(HARD.index_of("SALET"), {0: HARD.code(HARD.index_of("SALET"),
                                                                                  HARD.index_of("HELIX"))})
    assert board_one.refusal(HARD.index_of("BALTI")) is not None  # board 1's rule alone would refuse it
    scored = feedback(client, "BALTI", ["SALET"])
    assert scored.status_code == 200, scored.text
    assert scored.json() == {"feedback": [wordle.feedback(t, "BALTI") for t in TARGETS], "win": [False, False]}
    assert feedback(client, "WALTZ", GAME[:2]).json() == {"feedback": [wordle.feedback("HELIX", "WALTZ"), "GGGGG"],
                                                          "win": [False, True]}
    assert feedback(client, "HELIX", GAME[:3]).json() == {"feedback": ["GGGGG", None], "win": [True, False]}
    assert feedback(client, "HELIX", GAME[:3], "normal").json()["feedback"] == ["GGGGG", None]
    assert "after every board was solved" in assert_json_error(feedback(client, "CRANE", GAME), 422, "guess")
    assert "2 boards allow 7 guesses, got 8" in assert_json_error(feedback(client, "CRANE", ["SALET"] * 7, "normal"),
                                                            422, "guess")
    # without a history every board is scored, as before
    assert feedback(client, "CRONY", []).json()["feedback"] == [wordle.feedback(t, "CRONY") for t in TARGETS]


def test_the_hint_in_hard_mode_proposes_only_allowed_guesses(client):
    history = [{"guess": "SALET", "feedback": [wordle.feedback(t, "SALET") for t in TARGETS]}]
    normal = client.post("/api/boards/next", json={"boards": 2, "history": history, "candidates": 0}).json()["guess"]
    hard = client.post("/api/boards/next", json={"boards": 2, "variant": "hard", "history": history,
                                                 "candidates": 0}).json()["guess"]
    assert normal != hard  # the normal-mode hint here keeps neither board's rule
    assert_json_error(feedback(client, normal, ["SALET"]), 422, "guess")
    assert state_after(TARGETS, ["SALET"]).refusal(HARD.index_of(hard)) is None
    # the solver's hard hints played to the end on other answers: each accepted, the game won within its guesses
    for count, seed in ((2, 1), (4, 2)):
        targets = client.get("/api/boards/random", params={"boards": count, "variant": "hard", "seed": seed}
                             ).json()["targets"]
        played, steps = [], []
        while True:
            hint = client.post("/api/boards/next", json={"boards": count, "variant": "hard", "history": steps,
                                                         "candidates": 0}).json()
            if hint["done"]:
                break
            scored = feedback(client, hint["guess"], played, targets=targets)
            assert scored.status_code == 200, (targets, played, hint["guess"], scored.text)
            played.append(hint["guess"])
            steps.append({"guess": hint["guess"], "feedback": scored.json()["feedback"]})
        assert len(played) <= count + 5, (targets, played)


def test_a_hard_game_is_reviewed_and_a_guess_the_rule_forbids_is_named(client):
    reviewed = client.post("/api/boards/review", json={"boards": 2, "variant": "hard", "answers": TARGETS,
                                                       "guesses": GAME})
    assert reviewed.status_code == 200, reviewed.text  # BALTI breaks board 1's own rule: rated in normal mode
    body = reviewed.json()
    assert body["won"] and body["share"].startswith("deduce review: 2 boards 4&3/7, ")
    assert [len(board["guesses"]) for board in body["boards"]] == [4, 3]
    solver = [step["guess"] for step in body["solver_game"]]
    for i, word in enumerate(solver):  # the solver's own game keeps the rule
        assert state_after(TARGETS, solver[:i]).refusal(HARD.index_of(word)) is None, (solver, word)
    message = assert_json_error(client.post("/api/boards/review", json={
        "boards": 2, "variant": "hard", "answers": TARGETS, "guesses": ["SALET", "CRONY", "WALTZ", "HELIX"]}),
        422, "guesses[1]")
    assert message.startswith("hard mode forbids CRONY: board 1: ")


def test_the_history_is_documented(client):
    schema = client.get("/openapi.json").json()
    fields = schema["components"]["schemas"]["BoardsFeedbackRequest"]["properties"]
    assert "hard mode" in fields["history"]["description"]
    assert "hard mode" in schema["paths"]["/api/boards/feedback"]["post"]["description"]


# ----------------------------------------------------------------------------- the page, in Chromium
try:
    from tests.test_web_browser import browser, checked_page, open_tab, post, server, shot  # noqa: F401
    from playwright.sync_api import Page, expect
    BROWSER = None
except pytest.skip.Exception as skipped:  # no Playwright or no Chromium: the API's tests still run
    BROWSER = str(skipped)

browser_test = pytest.mark.skipif(BROWSER is not None, reason=BROWSER or "")
PLAYED = re.compile("^(correct|present|absent)$")


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def sized(request, browser, server):
    with checked_page(browser, server, *request.param) as page:
        yield page


def tile(page: "Page", board: int, row: int, column: int = 4):
    return page.locator("#boards-grid .mini-board").nth(board).locator(".tile-row").nth(row).locator(".tile").nth(
        column)


def enter(page: "Page", word: str, row: int) -> None:
    """Type `word` and Enter it, waiting for its colours on board 1 (keys typed while it is scored are dropped)."""
    page.keyboard.type(word)
    page.keyboard.press("Enter")
    expect(tile(page, 0, row)).to_have_attribute("data-state", PLAYED)


@browser_test
@pytest.mark.slow
def test_hard_dordle_on_the_page(sized: "Page", server: str):
    """Dordle with Hard mode on: CRONY (no board's rule kept) is refused with the API's reason and stays typed
    for correcting, the switch is locked during the game, Hint gives the solver's hard-mode guess, BALTI (board
    2's rule) is taken, the game is won, shared as "Dordle 4&3/7*" and reviewed in hard mode; the boards and the
    keyboard stay in the window."""
    page = sized
    status, refused = post(server, "/api/boards/feedback", {"variant": "hard", "targets": TARGETS, "guess": "CRONY",
                                                            "history": ["SALET"]})
    assert status == 422 and refused["error"]["field"] == "guess"
    history = [{"guess": "SALET", "feedback": [wordle.feedback(t, "SALET") for t in TARGETS]}]
    status, hint = post(server, "/api/boards/next", {"boards": 2, "variant": "hard", "history": history,
                                                     "candidates": 0})
    assert status == 200, hint
    page.route("**/api/boards/random?*", lambda route: route.fulfill(json={"targets": TARGETS, "guesses": 7}))
    open_tab(page, "play")
    page.select_option("#play-boards", "2")
    expect(page.locator("#boards-status")).to_have_text("Dordle \u00b7 7 guesses left")
    switch = page.locator("#boards-hard")
    expect(switch).to_be_visible()
    switch.check()
    expect(page.locator("#boards-status")).to_have_text("Dordle \u00b7 Hard mode \u00b7 7 guesses left")
    enter(page, "SALET", 0)
    expect(switch).to_be_disabled()

    page.keyboard.type("CRONY")
    page.keyboard.press("Enter")
    expect(page.locator("#boards-toast")).to_have_text(refused["error"]["message"])
    expect(page.locator("#boards-toast")).to_contain_text("board 1: letter 3 must be L; board 2: letter 2 must be A")
    expect(tile(page, 0, 1)).to_have_attribute("data-state", "tbd")  # still typed, not scored
    expect(page.locator("#boards-status")).to_contain_text("6 guesses left")
    for _ in range(5):
        page.keyboard.press("Backspace")
    page.locator("#boards-hint").click()
    expect(page.locator("#boards-hint-text")).to_contain_text(f"The solver would play {hint['guess']} ")
    where = page.evaluate("""() => { window.scrollTo(0, 0);
        const bottom = (s) => document.querySelector(s).getBoundingClientRect().bottom;
        return { height: innerHeight, keys: bottom('#boards-keyboard'), grid: bottom('#boards-grid'),
                 switch: bottom('#boards-hard') }; }""")
    assert max(where["keys"], where["grid"], where["switch"]) <= where["height"], where
    shot(page, f"boards-hard-{page.viewport_size['width']}.png", full_page=False)

    for row, word in enumerate(GAME[1:], start=1):
        enter(page, word, row)
    expect(page.locator("#boards-result")).to_be_visible()
    expect(page.locator("#boards-result-text")).to_have_text("All 2 words in 4!")
    share = page.locator("#boards-share-text").input_value().split("\n")
    assert share[0] == "Dordle 4&3/7*", share
    expect(switch).to_be_enabled()

    status, expected = post(server, "/api/boards/review", {"boards": 2, "variant": "hard", "answers": TARGETS,
                                                           "guesses": GAME})
    assert status == 200, expected
    page.get_by_role("button", name="Review", exact=True).click()
    box = page.locator("#boards-review")
    expect(box.locator(".board-review")).to_have_count(2, timeout=90_000)
    expect(box.locator(".review-share-text")).to_have_text(expected["share"])
    expect(box.locator(".boards-review-solver li")).to_have_count(len(expected["solver_game"]))
