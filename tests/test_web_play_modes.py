"""The board modes on the web: every board mode fits its screen with the keyboard in view (1280 x 900 and
390 x 844); Dordle's keys keep their colours when the game ends, the share box shows its whole text, the single
board has a Hint; the adversarial hider (POST /api/hide, `deduce hide`) with Absurdle's challenge mode, a past
daily picked by date, and words of 4 to 9 letters (Wordle's variants normal4, normal6 to normal9).
"""
from __future__ import annotations

import re
from datetime import date

import pytest

pytest.importorskip("fastapi", reason="the web tests need fastapi: pip install 'deduce-solver[test]'")

from solver.analysis.daily import daily
from solver.analysis.hider import HiderError, hide, hider_answer
from solver.core.registry import get_game
from solver.games import wordle
from solver.web.service import feedback_out
from tests.helpers import assert_json_error

SIZES = [(1280, 900), (390, 844)]


# ----------------------------------------------------------------------------- the hider, in the library and the API
def test_hide_replays_the_hiders_answers():
    game = get_game("wordle")
    guesses = [game.index_of(w) for w in ("SALET", "CRONY", "DUMPY")]
    played = hide(game, guesses)
    rows = game.target_index.copy()
    for step, row in zip(played.steps, guesses):
        code, rows = hider_answer(game, row, rows)
        assert (step.guess, step.code, step.remaining) == (row, code, rows.size)
    assert played.remaining == rows.size and not played.won and played.target_possible and played.missed is None


def test_the_hider_is_cornered_only_by_the_last_word():
    game = get_game("bulls")
    rows, guesses = game.target_index.copy(), []
    while True:  # guess the first answer left until the hider has no other
        guesses.append(int(rows[0]))
        code, rows = hider_answer(game, guesses[-1], rows)
        if code == game.win_code:
            break
    played = hide(game, guesses)
    assert played.won and played.remaining == 1 and all(s.code != game.win_code for s in played.steps[:-1])
    with pytest.raises(HiderError, match="after the win") as caught:
        hide(game, guesses + guesses[:1])
    assert caught.value.index == len(guesses)


def test_challenge_mode_names_the_guess_that_missed_the_target():
    game = get_game("wordle")
    salet = game.index_of("SALET")
    kept = hider_answer(game, salet, game.target_index)[1]
    inside = int(kept[0])
    outside = next(int(t) for t in game.target_index if t not in set(kept.tolist()))
    assert hide(game, [salet], inside).target_possible
    missed = hide(game, [salet], outside)
    assert not missed.target_possible and missed.missed == 1
    # guessing the target while others are left misses it: the hider shows the win only for the last word
    early = hide(game, [inside], inside)
    assert early.missed == 1 and not early.won


def test_api_hide(client):
    body = client.post("/api/hide", json={"guesses": ["SALET", "CRONY"]}).json()
    game = get_game("wordle")
    played = hide(game, [game.index_of("SALET"), game.index_of("CRONY")])
    assert body["steps"] == [{"guess": game.labels[s.guess], "feedback": feedback_out(game, s.code),
                              "remaining": s.remaining} for s in played.steps]
    assert (body["remaining"], body["won"], body["target"], body["missed"]) == (played.remaining, False, None, None)
    challenge = client.post("/api/hide", json={"guesses": ["SALET"], "target": "FLOOR"}).json()
    assert challenge["target"] == "FLOOR" and challenge["target_possible"] is False and challenge["missed"] == 1
    start = client.post("/api/hide", json={"target": "floor"}).json()
    assert start["steps"] == [] and start["remaining"] == game.n_targets and start["target_possible"] is True
    six = client.post("/api/hide", json={"variant": "normal6", "guesses": ["PLANET"]})
    assert six.status_code == 200 and len(six.json()["steps"][0]["feedback"]) == 6


@pytest.mark.parametrize("body, field", [
    ({"guesses": ["XXXXX"]}, "guesses[0]"),
    ({"guesses": ["SALET"], "target": "AAHED"}, "target"),
    ({"variant": "hard", "guesses": ["SALET", "CRONY", "DUMPS"]}, "guesses[2]"),  # CRONY's Y is green: no Y
    ({"variant": "normal3", "guesses": []}, "variant"),
])
def test_api_hide_errors_name_the_field(client, body, field):
    assert_json_error(client.post("/api/hide", json=body), 422, field)


def test_other_word_lengths_through_the_api(client):
    for size in (4, 6, 9):
        variant = f"normal{size}"
        game = get_game("wordle", variant)
        word = game.labels[int(game.target_index[0])]
        assert client.post("/api/check", json={"game": "wordle", "variant": variant, "guess": word}).json()["valid"]
        got = client.get(f"/api/daily?game=wordle&variant={variant}&date=2022-01-01&boards=2").json()
        assert got["targets"] == list(daily(game, date(2022, 1, 1), 2).answers)
        marks = client.post("/api/boards/feedback", json={"variant": variant, "targets": got["targets"],
                                                          "guess": word}).json()["feedback"]
        assert marks == [wordle.feedback(t, word) for t in got["targets"]]
    assert "normal6" in client.post("/api/check", json={"game": "wordle", "variant": "normal10", "guess": "X"}
                                    ).json()["error"]["message"]


# ----------------------------------------------------------------------------- the page, in Chromium
try:
    from tests.test_web_browser import (COLOURS, LIVE_MS, STATE_OF, background, best_marks,  # noqa: F401
                                        browser, checked_page, get, open_tab, post, server, shot, today_of)
    from playwright.sync_api import Page, expect
    BROWSER = None
except pytest.skip.Exception as skipped:  # no Playwright or no Chromium: the API's tests still run
    BROWSER = str(skipped)

browser_test = pytest.mark.skipif(BROWSER is not None, reason=BROWSER or "")
PLAYED = re.compile("^(correct|present|absent)$")
AREAS = {"1": ("#play-board", "#play-keyboard"), "2": ("#boards-grid", "#boards-keyboard"),
         "4": ("#boards-grid", "#boards-keyboard"), "hide": ("#hider-scroll", "#hider-keyboard"),
         "challenge": ("#hider-scroll", "#hider-keyboard")}


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def sized(request, browser, server):
    with checked_page(browser, server, *request.param) as page:
        yield page


def measure(page: "Page", mode: str) -> dict:
    """Where the mode's boards, their last row and its keyboard are in the window, the page scrolled to its top."""
    grid, keys = AREAS[mode]
    return page.evaluate("""([grid, keys]) => { window.scrollTo(0, 0);
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        const rows = [...document.querySelectorAll(`${grid} .tile-row`)];
        const tile = document.querySelector(`${grid} .tile`).getBoundingClientRect();
        return { height: innerHeight, width: innerWidth, keys: box(keys).bottom, grid: box(grid).bottom,
                 last: rows.length ? rows[rows.length - 1].getBoundingClientRect().bottom : 0,
                 right: Math.max(box(grid).right, box(keys).right), tile: tile.width,
                 scrollWidth: document.documentElement.scrollWidth }; }""", [grid, keys])


def choose(page: "Page", mode: str, length: int = 5) -> None:
    """Choose the play tab's game (`AREAS`) and, unless 5 (a fresh page's), the letters per word."""
    if length != 5:
        page.select_option("#play-length", str(length))
    page.select_option("#play-boards", mode)
    grid, _ = AREAS[mode]
    expect(page.locator(f"{grid} .tile-row").first.locator(".tile")).to_have_count(length)
    page.wait_for_timeout(150)  # the resize handler's frame


@browser_test
@pytest.mark.slow
@pytest.mark.parametrize("length", [5, 9])
def test_every_mode_fits_the_screen_with_its_keyboard(sized: "Page", length: int):
    """Item 1: one board, Dordle, Quordle and the hider, in words of 5 and of 9 letters: the last row of the
    boards and the whole keyboard are in the window (no scrolling), nothing passes its right edge, and the
    tiles are no bigger than the NYT's (62 px); Dordle's hint line shown keeps it so."""
    page = sized
    open_tab(page, "play")
    for mode in AREAS:
        choose(page, mode, length)
        where = measure(page, mode)
        assert where["keys"] <= where["height"] and where["last"] <= where["height"], (mode, where)
        assert where["right"] <= where["width"] and where["scrollWidth"] <= where["width"], (mode, where)
        assert 14 <= where["tile"] <= 62, (mode, where)
        if length == 5:
            shot(page, f"fit-{mode}-{where['width']}.png", full_page=False)
    choose(page, "2", length)
    page.locator("#boards-hint").click()
    # the first hint of a game of 9 letters is live: every guess scored against every answer (seconds)
    expect(page.locator("#boards-hint-text")).to_contain_text("The solver would play", timeout=LIVE_MS)
    page.wait_for_timeout(150)
    where = measure(page, "2")
    assert where["keys"] <= where["height"] and where["last"] <= where["height"], where


@browser_test
@pytest.mark.slow
def test_dordle_keeps_its_key_colours_and_shares_every_line(sized: "Page", server: str):
    """Item 2: once a Dordle game is over its keys keep every board's colours (they went plain before), and the
    share box shows its whole text, no line scrolled out of view."""
    page = sized
    open_tab(page, "play")
    choose(page, "2")
    puzzle = get(server, f"/api/daily?game=wordle&variant=normal&boards=2&date={today_of(page)}")
    page.locator("#boards-daily").click()
    expect(page.locator("#boards-status")).to_contain_text(f"Daily {puzzle['number']}")
    opener = next(w for w in ("SALET", "CRANE", "TRACE") if w not in puzzle["targets"])
    played = [opener, *puzzle["targets"]]
    for row, word in enumerate(played):
        page.keyboard.type(word)
        page.keyboard.press("Enter")
        expect(page.locator("#boards-grid .mini-board").nth(1).locator(".tile-row").nth(row).locator(".tile").nth(4)
               ).to_have_attribute("data-state", PLAYED)
    expect(page.locator("#boards-result")).to_be_visible()
    for b, target in enumerate(puzzle["targets"]):
        best = best_marks([(word, wordle.feedback(target, word)) for word in played[:played.index(target) + 1]])
        for letter, mark in best.items():
            part = page.locator(f'#boards-keyboard [data-key="{letter}"] .key-part[data-board="{b + 1}"]')
            expect(part).to_have_attribute("data-state", STATE_OF[mark])
            assert background(part) == COLOURS[mark], (letter, b)
    share = page.locator("#boards-share-text")
    lines = share.input_value().split("\n")
    assert len(lines) == 2 + 2 + 1 + 3  # the head, a blank, board 1's 2 rows, a blank, board 2's 3 rows
    assert share.evaluate("node => node.scrollHeight <= node.clientHeight + 1"), share.evaluate(
        "node => [node.scrollHeight, node.clientHeight]")


@browser_test
@pytest.mark.slow
def test_single_board_hint(sized: "Page", server: str):
    """Item 2: the single board has a Hint button, as Dordle and Quordle have: the solver's guess (/api/next)
    under the board, in view with the keyboard, until the next guess."""
    page = sized
    open_tab(page, "play")
    choose(page, "1")
    page.locator("#play-new").click()
    expect(page.locator("#play-status")).to_contain_text("guess 1 of 6")
    _, hint = post(server, "/api/next", {"game": "wordle", "variant": "normal", "history": [], "top": 0,
                                         "candidates": 0})
    page.locator("#play-hint").click()
    line = page.locator("#play-hint-text")
    expect(line).to_have_text(f"The solver would play {hint['guess']} (answers left: {hint['remaining']})")
    page.wait_for_timeout(150)
    where = measure(page, "1")
    assert where["keys"] <= where["height"], where
    page.keyboard.type(hint["guess"])
    page.keyboard.press("Enter")
    expect(line).to_be_hidden()


def hider_rows(page: "Page") -> list[tuple[str, str]]:
    """The hider board's played rows: (word, marks)."""
    return page.evaluate("""() => [...document.querySelectorAll('#hider-board .tile-row')].map(row =>
        [...row.querySelectorAll('.tile')]).filter(tiles => tiles.every(t => /correct|present|absent/.test(
        t.dataset.state))).map(tiles => [tiles.map(t => t.textContent).join(''), tiles.map(t =>
        ({correct: 'G', present: 'Y', absent: 'R'})[t.dataset.state]).join('')])""")


def enter(page: "Page", word: str, rows: int) -> None:
    page.keyboard.type(word)
    page.keyboard.press("Enter")
    expect(page.locator("#hider-board .tile-row").nth(rows - 1).locator(".tile").last).to_have_attribute(
        "data-state", PLAYED)


@browser_test
@pytest.mark.slow
def test_the_hider_and_its_challenge_on_the_page(sized: "Page", server: str):
    """Item 3: the hider answers each guess as /api/hide (`deduce hide`) does, counts the answers it keeps,
    takes a guess back; the challenge shows its target, says which guess ruled it out, and undo reopens it."""
    page = sized
    open_tab(page, "play")
    choose(page, "hide")
    enter(page, "SALET", 1)
    enter(page, "CRONY", 2)
    _, body = post(server, "/api/hide", {"guesses": ["SALET", "CRONY"]})
    assert hider_rows(page) == [[s["guess"], s["feedback"]] for s in body["steps"]]
    expect(page.locator("#hider-status")).to_contain_text(f"{body['remaining']} answers still possible")
    page.locator("#hider-undo").click()
    assert hider_rows(page) == [["SALET", body["steps"][0]["feedback"]]]
    expect(page.locator("#hider-status")).to_contain_text(f"{body['steps'][0]['remaining']} answers still possible")

    salet = post(server, "/api/hide", {"guesses": ["SALET"]})[1]["steps"][0]["feedback"]
    target = next(w for w in ("FLOOR", "PROXY", "CRANE", "TOAST") if wordle.feedback(w, "SALET") != salet)
    page.route("**/api/random?*", lambda route: route.fulfill(json={"target": target}))
    choose(page, "challenge")  # its first game draws its target through the route
    expect(page.locator("#hider-status")).to_contain_text(f"Target {target}")
    enter(page, "SALET", 1)
    expect(page.locator("#hider-status")).to_contain_text(f"Missed: guess 1 ruled {target} out")
    page.keyboard.type("CRONY")  # refused while missed: nothing typed
    expect(page.locator("#hider-board .tile-row").nth(1).locator(".tile").first).to_have_text("")
    page.locator("#hider-undo").click()
    expect(page.locator("#hider-status")).to_contain_text(f"Target {target}")
    page.get_by_role("button", name="How to play").click()
    expect(page.get_by_role("dialog", name=re.compile("How to play"))).to_contain_text("force the hider into it")
    page.keyboard.press("Escape")


@browser_test
@pytest.mark.slow
def test_a_past_daily_and_longer_words(sized: "Page", server: str):
    """Item 3: the daily of a date picked (2022-01-01: puzzle 196) on one board and on Quordle, and words of 6
    letters scored as `wordle.feedback` scores them."""
    page = sized
    open_tab(page, "play")
    choose(page, "1")
    page.fill("#play-date", "2022-01-01")
    puzzle = get(server, "/api/daily?game=wordle&variant=normal&date=2022-01-01")
    assert puzzle["number"] == 196
    page.locator("#play-daily").click()
    expect(page.locator("#play-status")).to_contain_text("Daily 196")
    page.keyboard.type(puzzle["targets"][0])
    page.keyboard.press("Enter")
    expect(page.locator("#play-share-text")).to_have_value(re.compile(r"^Wordle 196 1/6\n"))
    choose(page, "4")
    page.locator("#boards-daily").click()
    quordle = get(server, "/api/daily?game=wordle&variant=normal&boards=4&date=2022-01-01")
    expect(page.locator("#boards-status")).to_contain_text(f"Daily {quordle['number']}")

    choose(page, "1", 6)
    page.fill("#play-date", "2022-01-01")
    six = get(server, "/api/daily?game=wordle&variant=normal6&date=2022-01-01")["targets"][0]
    page.locator("#play-daily").click()
    expect(page.locator("#play-status")).to_contain_text("Daily 196")
    guess = next(w for w in ("PLANET", "STRAIN", "CASTLE") if w != six)
    page.keyboard.type(guess)
    page.keyboard.press("Enter")
    tiles = page.locator("#play-board .tile-row").first.locator(".tile")
    expect(tiles).to_have_count(6)
    for i, mark in enumerate(wordle.feedback(six, guess)):
        expect(tiles.nth(i)).to_have_attribute("data-state", {"G": "correct", "Y": "present", "R": "absent"}[mark])
