"""The web page in a real browser: `deduce serve` in a subprocess, driven by Playwright on Chromium.

Five journeys, as a person makes them: a whole Wordle game typed on the keyboard (tile and key
colours against `solver.games.wordle.feedback`, an invalid word's message, statistics, the share grid,
the high-contrast palette, hard mode's rule), a game's review (the play page's and the coach's Review
buttons against /api/review), the coach down to an identified answer (tiles clicked
and marks typed, an inconsistent row kept for fixing, undo), the tree explorer two levels down and
back from a reloaded link, and Mastermind solved by the solver from the person's answers (then
the "you guess" mode). Each journey saves a screenshot under screenshots/ (git-ignored).

Skipped when FastAPI, uvicorn, Playwright or a Chromium binary is missing (Playwright's own browser
download is not needed: the system's Chromium is driven through `executable_path`).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from itertools import combinations
from pathlib import Path

import pytest

INSTALL = "apt-get install chromium; pip install 'deduce-solver[test]'"
for _module in ("fastapi", "uvicorn", "playwright"):
    pytest.importorskip(_module, reason=f"the browser tests need {_module}: {INSTALL}")

CHROMIUM = os.environ.get("DEDUCE_CHROMIUM") or next(
    (path for name in ("chromium", "chromium-browser", "google-chrome") if (path := shutil.which(name))), None)
if CHROMIUM is None or not os.path.isfile(CHROMIUM):
    pytest.skip(f"the browser tests need a Chromium binary: {INSTALL}", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright

from solver.games import battleship, mastermind, wordle
from solver.games.wordlists import builtin_answers
from tests.helpers import free_port

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "screenshots"
TIMEOUT_MS = 45_000  # any one wait in the page: the live solver takes seconds, more on a busy machine
expect.set_options(timeout=TIMEOUT_MS)  # the assertions' waits too (Playwright's default: 5 s)
LIVE_MS = 90_000  # a wait on live work (a review rates each guess live): longer on a busy machine
COLOURS = {"G": "rgb(106, 170, 100)", "Y": "rgb(201, 180, 88)", "R": "rgb(120, 124, 126)"}
CONTRAST = {"G": "rgb(245, 121, 58)", "Y": "rgb(133, 192, 249)", "R": "rgb(120, 124, 126)"}
SQUARES = {"G": "\U0001F7E9", "Y": "\U0001F7E8", "R": "\u2B1B"}
CONTRAST_SQUARES = {"G": "\U0001F7E7", "Y": "\U0001F7E6", "R": "\u2B1B"}
STATE_MARK = {"correct": "G", "present": "Y", "absent": "R"}
STATE_OF = {mark: state for state, mark in STATE_MARK.items()}


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def server():
    """Run `deduce serve` on a free loopback port until the module's tests end; yield its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"deduce serve exited with {proc.returncode}: "
                            f"{log.read().decode(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base}/api/games", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail("deduce serve did not answer /api/games within 90 s")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@contextmanager
def checked_page(browser, server: str, width: int, height: int, **options):
    """A fresh page (empty localStorage) of this size that fails the test on any script error; `options`
    go to the browser context (color_scheme="dark")."""
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server, **options)
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    except Exception:  # noqa: BLE001 - older browsers: the page falls back to selecting the text
        pass
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The browser logs every 4xx answer ("Failed to load resource"): the page expects those.
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource") else None)
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def page(browser, server):
    """A fresh page 1100 px wide (`checked_page`)."""
    with checked_page(browser, server, 1100, 900) as page:
        yield page


@pytest.fixture
def phone(browser, server):
    """A fresh page at a phone's size, 390 x 844 (`checked_page`)."""
    with checked_page(browser, server, 390, 844) as page:
        yield page


def post(server: str, path: str, body: dict) -> tuple[int, dict]:
    """POST JSON to the API; return (status, body) whatever the status."""
    request = urllib.request.Request(server + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def pin_secret(page: Page, server: str, game: str, variant: str, avoid: list[str]) -> str:
    """Make the page draw a new secret, the server's seeded draw, none of `avoid` (the guesses the test
    types), so a test never meets a secret it guessed by chance; returns that secret."""
    query = urllib.parse.urlencode({"game": game, "variant": variant, "seed": 1})
    with urllib.request.urlopen(f"{server}/api/random?{query}", timeout=30) as response:
        secret = json.load(response)["target"]
    assert secret not in avoid, secret
    page.unroute("**/api/random?*")
    page.route("**/api/random?*", lambda route: route.fulfill(json={"target": secret}))
    # the game just chosen drew its secret already: draw again ("New secret"), now through the route; an
    # answer of the earlier draw still on its way is dropped by the page
    page.evaluate("() => document.getElementById('gy-new').click()")
    return secret


def open_tab(page: Page, hash_: str) -> None:
    page.goto("/#" + hash_)
    page.wait_for_selector("body[data-ready=true]")


def shot(page: Page, name: str, full_page: bool = True) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=full_page, animations="disabled")


def background(locator) -> str:
    return locator.evaluate("node => getComputedStyle(node).backgroundColor")


def row_tiles(page: Page, row: int):
    return page.locator("#play-board .tile-row").nth(row).locator(".tile")


def best_marks(rows: list[tuple[str, str]]) -> dict[str, str]:
    """The keyboard's colour of each letter: the best mark it received (G > Y > R)."""
    best: dict[str, str] = {}
    for word, marks in rows:
        for letter, mark in zip(word, marks):
            best[letter] = max(best.get(letter, "R"), mark, key="RYG".index)
    return best


# ----------------------------------------------------------------------------- Wordle, play


def test_wordle_game_typed_on_the_keyboard(page: Page, server: str):
    answer, guesses, invalid = "LEVER", ["EERIE", "SALET", "LEVEL", "LEVER"], "QXZVJ"
    open_tab(page, "play")
    page.locator("#play-options summary").click()
    page.fill("#play-secret", answer.lower())
    expect(page.locator("#play-secret")).to_have_attribute("type", "password")  # hidden as typed
    page.get_by_role("button", name="Start with this answer").click()
    expect(page.locator("#play-status")).to_contain_text("chosen")

    # An unknown word: the service's message on the board, the row kept for correcting.
    page.keyboard.type(invalid.lower())
    page.keyboard.press("Enter")
    status, body = post(server, "/api/feedback", {"game": "wordle", "variant": "normal", "target": answer,
                                                  "guess": invalid, "history": []})
    assert status == 422
    expect(page.locator("#play-toast")).to_have_text(body["error"]["message"])
    expect(row_tiles(page, 0).nth(4)).to_have_text("J")
    for _ in invalid:
        page.keyboard.press("Backspace")
    expect(row_tiles(page, 0).nth(0)).to_have_text("")

    played: list[tuple[str, str]] = []
    for row, guess in enumerate(guesses):
        page.keyboard.type(guess)
        page.keyboard.press("Enter")
        marks = wordle.feedback(answer, guess)
        played.append((guess, marks))
        tiles = row_tiles(page, row)
        expect(tiles.nth(4)).not_to_have_attribute("data-state", "tbd")
        for i, (letter, mark) in enumerate(zip(guess, marks)):
            expect(tiles.nth(i)).to_have_text(letter)
            assert background(tiles.nth(i)) == COLOURS[mark], (guess, i, mark)
    expect(page.locator("#play-result")).to_be_visible()
    expect(page.locator("#play-result-text")).to_contain_text(answer)

    for letter, mark in best_marks(played).items():
        assert background(page.locator(f'#play-keyboard [data-key="{letter}"]')) == COLOURS[mark], letter
    assert background(page.locator('#play-keyboard [data-key="Q"]')) not in COLOURS.values()  # never typed

    share = "\n".join([f"Wordle {len(guesses)}/6", ""] + ["".join(SQUARES[m] for m in marks) for _, marks in played])
    expect(page.locator("#play-share-text")).to_have_value(share)
    page.get_by_role("button", name="Copy").click()
    expect(page.locator("#play-copy-status")).not_to_be_empty()
    if "Copied" in page.locator("#play-copy-status").inner_text():
        assert page.evaluate("navigator.clipboard.readText()") == share
    expect(page.locator("#play-toast")).to_be_hidden()  # the praise fades after a few seconds
    shot(page, "wordle-play.png")

    page.locator("#play-result-stats").click()
    expect(page.locator("#play-stats")).to_be_visible()
    assert [page.locator(f"#stat-{name}").inner_text() for name in ("played", "win", "streak", "max")] == \
        ["1", "100", "1", "1"]
    expect(page.locator("#play-dist .bar-row.highlight .bar-label")).to_have_text(str(len(guesses)))
    shot(page, "wordle-stats.png", full_page=False)  # the dialog over the board
    page.keyboard.press("Escape")
    expect(page.locator("#play-stats")).to_be_hidden()

    # The high-contrast palette: tiles, keys and share grid, remembered after a reload.
    page.locator("#play-options summary").click()
    page.locator("#play-contrast").check()
    for i, mark in enumerate(played[0][1]):
        assert background(row_tiles(page, 0).nth(i)) == CONTRAST[mark]
    expect(page.locator("#play-share-text")).to_have_value(
        share.translate({ord(SQUARES[m]): CONTRAST_SQUARES[m] for m in "GY"}))
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert background(row_tiles(page, 3).nth(0)) == CONTRAST["G"]
    page.locator("#play-options summary").click()
    page.locator("#play-contrast").uncheck()

    # Hard mode, set before a game: a guess ignoring a revealed letter gets the service's reason.
    page.locator("#play-hard").check()
    page.fill("#play-secret", "CRANE")
    page.get_by_role("button", name="Start with this answer").click()
    expect(page.locator("#play-status")).to_contain_text("Hard mode")
    page.locator("#tab-play").click()  # a button clicked with the mouse keeps the focus: Enter still enters
    page.keyboard.type("SALET")
    page.keyboard.press("Enter")
    expect(row_tiles(page, 0).nth(4)).not_to_have_attribute("data-state", "tbd")
    expect(page.locator("#play-hard")).to_be_disabled()  # no switching in the middle of a game
    page.keyboard.type("BOUND")
    page.keyboard.press("Enter")
    status, body = post(server, "/api/feedback", {
        "game": "wordle", "variant": "hard", "target": "CRANE", "guess": "BOUND",
        "history": [{"guess": "SALET", "feedback": wordle.feedback("CRANE", "SALET")}]})
    assert status == 422
    expect(page.locator("#play-toast")).to_have_text(body["error"]["message"])
    for _ in "BOUND":
        page.keyboard.press("Backspace")

    # Lose it with five more wrong guesses that obey hard mode: the answer shown, "X/6*", the streak reset.
    history = [("SALET", wordle.feedback("CRANE", "SALET"))]
    for word in builtin_answers():
        if len(history) == 6:
            break
        if word != "CRANE" and wordle.hard_mode_allows(history, word) is None:
            history.append((word, wordle.feedback("CRANE", word)))
            page.keyboard.type(word)
            page.keyboard.press("Enter")
            expect(row_tiles(page, len(history) - 1).nth(4)).not_to_have_attribute("data-state", "tbd")
    expect(page.locator("#play-result-text")).to_have_text("The answer was CRANE.")
    expect(page.locator("#play-share-text")).to_have_value(
        "\n".join(["Wordle X/6*", ""] + ["".join(SQUARES[m] for m in marks) for _, marks in history]))
    page.locator("#play-result-stats").click()
    assert [page.locator(f"#stat-{name}").inner_text() for name in ("played", "win", "streak", "max")] == \
        ["2", "50", "0", "1"]


def test_wordle_page_fits_a_phone(browser, server):
    """At 400 px wide nothing scrolls sideways and the whole keyboard shows."""
    context = browser.new_context(viewport={"width": 400, "height": 800}, base_url=server)
    try:
        page = context.new_page()
        open_tab(page, "play")
        expect(page.locator("#play-board .tile")).to_have_count(30)
        for hash_ in ("play", "coach", "games", "tree/wordle/normal"):
            page.goto("/#" + hash_)
            page.wait_for_timeout(300)
            assert page.evaluate("document.documentElement.scrollWidth") <= 400, hash_
        page.goto("/#play")
        box = page.locator('#play-keyboard [data-key="Backspace"]').bounding_box()
        assert box and box["x"] + box["width"] <= 400
        shot(page, "wordle-phone.png")
    finally:
        context.close()


def review_rows(page: Page, box: str):
    return page.locator(f"{box} .review-table tbody tr")


def test_wordle_review_after_a_game_and_in_the_coach(page: Page, server: str):
    """The Review button at the end of a game, and the coach's, show /api/review's table and summary."""
    answer, guesses = "BURNT", ["SALET", "BURNT"]  # BURNT second is a weak guess: GROIN is best
    history = [{"guess": g, "feedback": wordle.feedback(answer, g)} for g in guesses]
    status, expected = post(server, "/api/review", {"game": "wordle", "variant": "normal", "history": history})
    assert status == 200 and expected["guesses"][1]["cost"] > 0

    open_tab(page, "play")
    page.locator("#play-options summary").click()
    page.fill("#play-secret", answer)
    page.get_by_role("button", name="Start with this answer").click()
    expect(page.locator("#play-status")).to_contain_text("chosen")  # the game has begun: keys go to the board
    expect(page.locator("#play-review")).to_be_hidden()
    for row, guess in enumerate(guesses):
        page.keyboard.type(guess)
        expect(row_tiles(page, row).nth(4)).to_have_text(guess[-1])
        page.keyboard.press("Enter")
        expect(row_tiles(page, row).nth(4)).not_to_have_attribute("data-state", "tbd")
    expect(page.locator("#play-result")).to_be_visible()
    page.get_by_role("button", name="Review", exact=True).click()
    rows = review_rows(page, "#play-review")
    expect(rows).to_have_count(len(guesses))
    heads = page.locator("#play-review .review-table thead th")
    expect(heads).to_have_count(12)  # ..., cost, skill
    assert all(heads.nth(i).get_attribute("scope") == "col" for i in range(12))
    weak = rows.nth(1).locator("td")
    expect(weak.nth(1)).to_have_text("BURNT")
    expect(weak.nth(8)).to_have_text(expected["guesses"][1]["best_guess"])
    mark = {"proven": "", "approximate": "~", "bound": ">=", "estimate": "\u2248"}[expected["guesses"][1]["cost_kind"]]
    expect(weak.nth(10)).to_have_text(f"{mark}{expected['guesses'][1]['cost']:.3f}")
    expect(weak.nth(11)).to_have_text(str(round(expected["guesses"][1]["skill"])))
    expect(rows.nth(0).locator("td").nth(10)).to_have_text("0")
    expect(rows.nth(0).locator("td").nth(11)).to_have_text("100")
    expect(rows.nth(0).locator(".mini")).to_have_count(5)
    expect(page.locator("#play-review .review-summary")).to_contain_text(f"Skill {expected['skill']}/100")
    expect(page.locator("#play-review .review-share-text")).to_have_text(expected["share"])
    page.get_by_role("button", name="Copy summary").click()
    expect(page.locator("#play-review .review-share .hint")).not_to_be_empty()
    shot(page, "wordle-review.png")
    page.get_by_role("button", name="Play again").click()  # a new game: the old review goes
    expect(page.locator("#play-review")).to_be_hidden()

    # The coach reviews the rows entered so far; a new row puts the review out of date.
    open_tab(page, "coach")
    button = page.get_by_role("button", name="Review these guesses")
    expect(button).to_be_disabled()
    for count, step in enumerate(history, start=1):
        page.fill("#coach-guess", step["guess"])
        page.fill("#coach-marks", step["feedback"].replace("R", "B"))
        page.get_by_role("button", name="Add this row").click()
        expect(page.locator("#coach-rows .tile-row")).to_have_count(count)
        expect(page.locator("#coach-review")).to_be_hidden()
        button.click()
        expect(review_rows(page, "#coach-review")).to_have_count(count)
    expect(page.locator("#coach-review .review-share-text")).to_have_text(expected["share"])
    page.get_by_role("button", name="Undo last row").click()
    expect(page.locator("#coach-review")).to_be_hidden()


# ----------------------------------------------------------------------------- Wordle, coach


def test_coach_reaches_the_answer(page: Page, server: str):
    answer = "FOCUS"
    open_tab(page, "coach")
    best = page.locator("#coach-best")
    expect(best).not_to_be_empty()
    first = best.inner_text()

    # Row 1 with the suggestion button and clicked tiles (grey -> yellow -> green).
    page.get_by_role("button", name="Use the suggestion").click()
    expect(page.locator("#coach-guess")).to_have_value(first)
    marks = wordle.feedback(answer, first)
    tiles = page.locator("#coach-tiles .tile")
    for i, mark in enumerate(marks):
        for _ in range("RYG".index(mark)):
            tiles.nth(i).click()
    for i, mark in enumerate(marks):
        expect(tiles.nth(i)).to_have_attribute("data-state", {"G": "correct", "Y": "present", "R": "absent"}[mark])
    page.get_by_role("button", name="Add this row").click()
    expect(page.locator("#coach-rows .tile-row")).to_have_count(1)
    expect(page.locator("#coach-verdict")).to_contain_text("left")

    # Marks that contradict the first row: the service's message, everything typed kept.
    page.fill("#coach-guess", first)
    page.fill("#coach-marks", "GGGGG")
    page.get_by_role("button", name="Add this row").click()
    expect(page.locator("#coach-error")).to_be_visible()
    _, body = post(server, "/api/next", {"game": "wordle", "variant": "normal",
                                         "history": [{"guess": first, "feedback": marks},
                                                     {"guess": first, "feedback": "GGGGG"}]})
    expect(page.locator("#coach-error")).to_contain_text(body["error"]["message"])
    expect(page.locator("#coach-rows .tile-row")).to_have_count(1)
    expect(page.locator("#coach-guess")).to_have_value(first)
    expect(page.locator("#coach-marks")).to_have_value("GGGGG")
    expect(tiles.nth(0)).to_have_attribute("data-state", "correct")

    # Undo puts the last row back into the editor.
    page.get_by_role("button", name="Undo last row").click()
    expect(page.locator("#coach-rows .tile-row")).to_have_count(0)
    expect(page.locator("#coach-guess")).to_have_value(first)
    expect(page.locator("#coach-marks")).to_have_value(marks)  # R for grey, as the CLI writes it

    # From now on the marks typed (B for grey): first a guess off the precomputed tree (the coach
    # computes live), then the suggested words, until the answer is identified or solved.
    history: list[tuple[str, str]] = []
    for row in range(6):
        guess = "CRANE" if row == 0 else best.inner_text()
        marks = wordle.feedback(answer, guess)
        page.fill("#coach-guess", "")
        page.locator("#coach-guess").type(guess.lower())
        page.fill("#coach-marks", marks.replace("R", "B").lower())
        page.get_by_role("button", name="Add this row").click()
        history.append((guess, marks))
        expect(page.locator("#coach-rows .tile-row")).to_have_count(row + 1)
        state = page.locator("#coach-verdict").get_attribute("data-state")
        if row == 0:
            # CRANE is a favourite opener: the guess after it comes from the opener book, and says so
            expect(page.locator("#coach-advice .source")).to_have_text(re.compile(r"^the opener book, computed ahead"))
            expect(page.locator("#coach-advice")).to_contain_text("Why")
            expect(page.locator(".alternatives tbody tr")).to_have_count(5)
            shot(page, "wordle-coach.png")
        if state in ("identified", "solved"):
            break
    else:
        pytest.fail(f"the coach did not identify {answer} in 6 rows: {history}")
    expect(page.locator("#coach-verdict")).to_contain_text(answer)
    for r, (_, marks) in enumerate(history):
        row_tiles_ = page.locator("#coach-rows .tile-row").nth(r).locator(".tile")
        for i, mark in enumerate(marks):
            assert background(row_tiles_.nth(i)) == COLOURS[mark]
    if history[-1][1] != "GGGGG":  # identified: play it, all green, and the coach calls it solved
        page.get_by_role("button", name="Use the suggestion").click()
        expect(page.locator("#coach-guess")).to_have_value(answer)
        page.fill("#coach-marks", "ggggg")
        page.get_by_role("button", name="Add this row").click()
        expect(page.locator("#coach-verdict")).to_have_attribute("data-state", "solved")
        expect(page.locator("#coach-verdict")).to_contain_text(f"Solved in {len(history) + 1}")
    expect(page.get_by_role("button", name="Add this row")).to_be_disabled()


# ----------------------------------------------------------------------------- tree explorer


def test_tree_explorer_two_levels_and_a_shared_link(page: Page, server: str):
    open_tab(page, "tree/wordle/normal")
    panel = page.locator("#panel-tree")
    expect(panel).to_have_attribute("data-loaded", "wordle/normal/")
    _, root = post(server, "/api/tree", {"game": "wordle", "variant": "normal", "path": []})
    expect(page.locator("#tree-guess")).to_have_text(root["node"]["guess"])
    path: list[dict] = []
    for level in range(2):
        _, node = post(server, "/api/tree", {"game": "wordle", "variant": "normal", "path": path})
        child = [c for c in node["children"] if not c["win"]][level]  # the largest group, then the second
        page.locator("#tree-children a.child-link").nth(level).click()
        path.append({"guess": node["node"]["guess"], "feedback": child["feedback"]})
        encoded = ",".join(f"{step['guess']}={step['feedback']}" for step in path)
        expect(panel).to_have_attribute("data-loaded", f"wordle/normal/{encoded}")
        expect(page.locator("#tree-guess")).to_have_text(child["guess"])
    assert page.evaluate("location.hash") == f"#tree/wordle/normal/{encoded}"
    _, node = post(server, "/api/tree", {"game": "wordle", "variant": "normal", "path": path})
    facts = page.locator("#tree-node dd")
    expect(facts.nth(1)).to_have_text(f"{node['node']['remaining']:,}")
    expect(page.locator("#tree-crumbs li")).to_have_count(3)
    bars = page.locator("#tree-dist .bar-row")
    expect(bars).to_have_count(len(node["distribution"]))
    shot(page, "tree-explorer.png")

    # Reloading the link opens the same node; the breadcrumb goes back, and so does the browser.
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("location.hash") == f"#tree/wordle/normal/{encoded}"
    expect(panel).to_have_attribute("data-loaded", f"wordle/normal/{encoded}")
    expect(page.locator("#tree-guess")).to_have_text(node["node"]["guess"])
    expect(facts.nth(1)).to_have_text(f"{node['node']['remaining']:,}")
    expect(page.locator("#tree-crumbs li")).to_have_count(3)
    page.locator("#tree-crumbs li").nth(1).locator("a").click()
    expect(page.locator("#tree-guess")).to_have_text(path[1]["guess"])
    expect(page.locator("#tree-crumbs li")).to_have_count(2)
    page.go_back()
    expect(page.locator("#tree-guess")).to_have_text(node["node"]["guess"])


# ----------------------------------------------------------------------------- other games


def test_mastermind_the_solver_guesses(page: Page, server: str):
    secret = "3456"
    open_tab(page, "games")
    page.select_option("#games-select", "mastermind/default")
    expect(page.locator("#games-solver")).to_be_visible()
    guess_text = page.locator("#gs-guess")
    history = page.locator("#gs-history li")
    for turn in range(8):
        expect(guess_text).not_to_be_empty()
        guess = guess_text.text_content()  # the pegs, one digit each
        black, white = mastermind.feedback(secret, guess)
        page.fill("#gs-fields [data-field=black]", str(black))
        page.fill("#gs-fields [data-field=white]", str(white))
        page.get_by_role("button", name="Tell the solver").click()
        expect(history).to_have_count(turn + 1)
        if page.locator("#gs-status").get_attribute("data-state") == "solved":
            break
    else:
        pytest.fail("the solver did not find the secret in 8 guesses")
    expect(page.locator("#gs-status")).to_contain_text(f"your secret is {secret}")
    assert turn + 1 <= 6
    shot(page, "other-games.png")

    # "You guess": a drawn secret, a scored guess, the secrets left, and giving up.
    pin_secret(page, server, "mastermind", "default", avoid=["1122"])
    page.get_by_label("You guess").check()
    expect(page.locator("#games-you")).to_be_visible()
    expect(page.locator("#gy-status")).to_contain_text("secret is hidden")
    page.fill("#gy-guess", "1122")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("#gy-history li")).to_have_count(1)
    status = page.locator("#gy-status")
    expect(status).to_contain_text("fit")
    page.get_by_role("button", name="Give up").click()
    expect(status).to_have_text(re.compile(r"The secret was [1-6]{4}\."))


COUNTS_VISIBLE = """rows => rows.map(row => {
  // The count's text: wholly inside its row and inside the box drawn behind it (never cut off by a short bar).
  const walker = document.createTreeWalker(row.querySelector('.bar-track'), NodeFilter.SHOW_TEXT);
  const text = walker.nextNode();
  if (!text) return 'no count';
  const range = document.createRange();
  range.selectNodeContents(text);
  const t = range.getBoundingClientRect(), box = text.parentElement.getBoundingClientRect();
  const r = row.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1;
  return inside(t, box) && inside(t, r) ? text.textContent : `cut off: ${text.textContent}`;
})"""


def test_tree_explorer_errors_live_figures_and_bar_counts(page: Page, server: str):
    """Item 14: a bad link after another game's node shows only the error; an unknown game is named as
    unknown; a node off the tree shows the CLI's figures; bar counts stay visible on short bars."""
    open_tab(page, "tree/cards/n4")
    panel = page.locator("#panel-tree")
    expect(panel).to_have_attribute("data-loaded", "cards/n4/")
    _, root = post(server, "/api/tree", {"game": "cards", "variant": "n4", "path": []})
    rows = page.locator("#tree-dist .bar-row")
    expect(rows).to_have_count(len(root["distribution"]))
    counts = rows.evaluate_all(COUNTS_VISIBLE)
    assert counts == [f"{n:,}" for _, n in sorted(root["distribution"].items(), key=lambda kv: int(kv[0]))]

    # A link whose path the service refuses: its message, and nothing left of the cards node.
    page.goto("/#tree/wordle/normal/SALET=RRRRR,XXXXX=GGGGG")
    _, body = post(server, "/api/tree", {"game": "wordle", "variant": "normal", "path": [
        {"guess": "SALET", "feedback": "RRRRR"}, {"guess": "XXXXX", "feedback": "GGGGG"}]})
    expect(page.locator("#tree-error")).to_have_text(body["error"]["message"])
    expect(page.locator("#tree-guess")).to_have_count(0)
    expect(page.locator("#tree-node")).to_be_hidden()
    expect(page.locator("#tree-children tbody tr")).to_have_count(0)
    expect(page.locator("#tree-dist .bar-row")).to_have_count(0)

    # An unknown game: said so, naming the games (not Wordle shown instead).
    page.goto("/#tree/chess/default")
    expect(page.locator("#tree-error")).to_contain_text("Unknown game: chess")
    for name in ("wordle", "mastermind", "bulls", "cards", "battleship"):
        expect(page.locator("#tree-error")).to_contain_text(name)
    expect(page.locator("#tree-guess")).to_have_count(0)

    # Off the tree: the live strategy's figures, as `deduce tree --path` prints them.
    page.goto("/#tree/wordle/normal/CRANE=RRYRG")
    expect(panel).to_have_attribute("data-loaded", "wordle/normal/CRANE=RRYRG")
    _, live = post(server, "/api/tree", {"game": "wordle", "variant": "normal",
                                         "path": [{"guess": "CRANE", "feedback": "RRYRG"}]})
    expect(page.locator("#tree-error")).to_be_hidden()
    expect(page.locator("#tree-live")).to_be_visible()
    facts = page.locator("#tree-node dd")
    expect(facts.nth(2)).to_have_text(f"{live['node']['expected_guesses']:.3f}")
    expect(facts.nth(3)).to_have_text(str(live["node"]["worst_guesses"]))
    expect(page.locator("#tree-children tbody tr")).to_have_count(len(live["children"]))


def below_or_above(page: Page, selector: str) -> None:
    """Assert the element `selector` ends above the first row of the Wordle board (both measured at
    once: the page may be scrolling to the result)."""
    toast, row = page.evaluate("""s => [document.querySelector(s), document.querySelector('#play-board .tile-row')]
        .map(n => n.getBoundingClientRect().toJSON())""", selector)
    assert toast["bottom"] <= row["top"] + 0.5, (toast, row)


def test_wordle_toasts_above_the_board_and_marks_in_r(page: Page, server: str):
    """Item 15: the invalid-word and praise messages sit above the board, not over the row being typed;
    the coach writes grey as R (the CLI's and README's convention) and reads every spelling the CLI reads."""
    open_tab(page, "play")
    page.locator("#play-options summary").click()
    page.fill("#play-secret", "CRANE")
    page.get_by_role("button", name="Start with this answer").click()
    expect(page.locator("#play-status")).to_contain_text("chosen")
    page.keyboard.type("QXZVJ")
    page.keyboard.press("Enter")
    expect(page.locator("#play-toast")).to_be_visible()
    below_or_above(page, "#play-toast")
    for _ in range(5):
        page.keyboard.press("Backspace")
    page.keyboard.type("CRANE")
    page.keyboard.press("Enter")
    expect(page.locator("#play-toast")).to_have_text("Genius")
    below_or_above(page, "#play-toast")

    open_tab(page, "coach")
    hint = page.locator("#coach-marks-hint")
    expect(hint).to_contain_text("R grey")
    assert "B grey" not in hint.inner_text()
    assert "B" not in page.locator("#coach-marks").get_attribute("placeholder")
    tiles = page.locator("#coach-tiles .tile")
    page.fill("#coach-guess", "SALET")
    marks = wordle.feedback("CRANE", "SALET")  # RYRRR... in every spelling the CLI accepts
    for spelling in (marks, marks.replace("R", "B").lower(), marks.replace("R", "x"), marks.replace("R", "."),
                     marks.replace("R", "-"), marks.translate(str.maketrans("RYG", "012")),
                     "".join(SQUARES[m] for m in marks)):
        page.fill("#coach-marks", "")
        page.fill("#coach-marks", spelling)
        for i, mark in enumerate(marks):
            expect(tiles.nth(i)).to_have_attribute("data-state", {"G": "correct", "Y": "present", "R": "absent"}[mark])
    page.fill("#coach-marks", "RRZRR")
    page.locator("#coach-marks").blur()
    expect(page.locator("#coach-error")).to_contain_text("R (grey)")
    page.fill("#coach-marks", marks.replace("R", "B"))
    page.get_by_role("button", name="Add this row").click()
    expect(page.locator("#coach-rows .tile-row")).to_have_count(1)
    page.get_by_role("button", name="Undo last row").click()
    expect(page.locator("#coach-marks")).to_have_value(marks)  # shown back in R
    tiles.nth(0).click()  # a clicked tile writes R/Y/G too
    expect(page.locator("#coach-marks")).to_have_value("Y" + marks[1:] if marks[0] == "R" else re.compile("^[RYG]{5}$"))


def get(server: str, path: str) -> dict:
    with urllib.request.urlopen(server + path, timeout=30) as response:
        return json.load(response)


def test_daily_puzzle_help_dialog_and_theme(browser, server: str, page: Page):
    """Item 16: "Daily" plays /api/daily's word of the player's date, numbered in the share text; "How to
    play" opens a short dialog about the game on show that Escape closes; the dark theme follows the
    system until the toggle chooses, and the choice is remembered."""
    open_tab(page, "play")
    today = page.evaluate("() => { const d = new Date(), p = (n) => String(n).padStart(2, '0');"
                          " return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`; }")
    puzzle = get(server, f"/api/daily?game=wordle&variant=normal&date={today}")
    page.get_by_role("button", name="Daily", exact=True).click()
    expect(page.locator("#play-status")).to_contain_text(f"Daily {puzzle['number']}")
    page.keyboard.type(puzzle["targets"][0])
    page.keyboard.press("Enter")
    expect(page.locator("#play-share-text")).to_have_value(f"Wordle {puzzle['number']} 1/6\n\n" + SQUARES["G"] * 5)
    page.get_by_role("button", name="Daily", exact=True).click()  # the same puzzle, not a new one
    expect(page.locator("#play-toast")).to_contain_text("played")
    expect(page.locator("#play-share-text")).to_have_value(re.compile(f"^Wordle {puzzle['number']} 1/6"))

    help_button = page.get_by_role("button", name="How to play")
    help_button.click()
    dialog = page.get_by_role("dialog", name=re.compile("How to play"))
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("green")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    open_tab(page, "games")
    page.select_option("#games-select", "battleship/default")
    help_button.click()
    expect(dialog).to_contain_text("Battleship")
    expect(dialog).to_contain_text("three cells")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    context = browser.new_context(color_scheme="dark", base_url=server)
    try:
        dark = context.new_page()
        open_tab(dark, "play")
        body = dark.locator("body")
        assert background(body) == "rgb(18, 18, 19)"
        toggle = dark.locator("#theme-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        toggle.click()
        assert background(body) == "rgb(255, 255, 255)"
        dark.reload()
        dark.wait_for_selector("body[data-ready=true]")
        assert background(body) == "rgb(255, 255, 255)"  # remembered
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        assert background(body) == "rgb(18, 18, 19)"
    finally:
        context.close()


def test_pegs_suits_and_the_battleship_board(page: Page, server: str):
    """Item 16: Mastermind's guesses as coloured pegs; cards with suit symbols, red for diamonds and hearts
    (typed as 2C AS or with the symbols); battleship shots clicked on the 4x8 board."""
    open_tab(page, "games")
    page.select_option("#games-select", "mastermind/default")
    pegs = page.locator("#gs-guess .peg")
    expect(pegs).to_have_count(4)
    # Read in one step: the guess may be drawn again meanwhile, and a replaced peg has no style.
    pegs_drawn = page.locator("#gs-guess").evaluate(
        "n => [...n.querySelectorAll('.peg')].map(p => [p.dataset.peg, getComputedStyle(p).backgroundColor])")
    colour_of = dict(pegs_drawn)
    assert len(pegs_drawn) == 4 and all(colour for _, colour in pegs_drawn)
    assert all(colour_of[digit] == colour for digit, colour in pegs_drawn)  # one colour per digit
    assert len(set(colour_of.values())) == len(colour_of)  # and another for each other digit

    page.select_option("#games-select", "cards/n2")
    pin_secret(page, server, "cards", "n2", avoid=["2D AS", "AS 2D", "3H KC", "KC 3H", "4S 5S", "5S 4S"])
    page.get_by_label("You guess").check()
    expect(page.locator("#gy-status")).to_contain_text("secret is hidden")
    page.fill("#gy-guess", "2D AS")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("#gy-history li")).to_have_count(1)
    page.fill("#gy-guess", "3\u2665 K\u2663")  # typed with symbols: read as 3H KC
    page.get_by_role("button", name="Guess", exact=True).click()
    items = page.locator("#gy-history li")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text("2\u2666 A\u2660")
    expect(items.nth(1)).to_contain_text("3\u2665 K\u2663")
    red = page.locator("#gy-history .suit-diamonds").first.evaluate("n => getComputedStyle(n).color")
    black = page.locator("#gy-history .suit-spades").first.evaluate("n => getComputedStyle(n).color")
    assert red == "rgb(198, 40, 40)" and black != red
    # A third guess's answer is held back until the next game has been played: an answer still on its
    # way from the game before must neither block the next game's guesses nor land in them.
    held = []
    page.route("**/api/candidates", lambda route: route.continue_() if held else held.append(route))
    page.fill("#gy-guess", "4S 5S")
    page.get_by_role("button", name="Guess", exact=True).click()
    while not held:
        page.wait_for_timeout(20)

    page.select_option("#games-select", "battleship/default")
    pin_secret(page, server, "battleship", "default", avoid=["A1 A3 H1"])
    page.get_by_label("You guess").check()
    expect(page.locator("#gy-status")).to_contain_text("secret is hidden")
    board = page.locator("#games-you .shot-board")
    expect(board.locator(".shot-cell")).to_have_count(32)
    for cell in ("A1", "A3", "H1"):
        board.get_by_role("button", name=cell, exact=True).click()
    expect(page.locator("#gy-history li")).to_have_count(1)
    expect(page.locator("#gy-history li")).to_contain_text("A1 A3 H1")
    expect(page.locator("#gy-status")).to_contain_text("fit")
    assert len(held) == 1
    held[0].continue_()  # the cards game's late answer changes nothing
    page.unroute("**/api/candidates")
    expect(page.locator("#gy-history li")).to_have_count(1)
    expect(page.locator("#gy-history li")).to_contain_text("A1 A3 H1")


def test_dordle_and_quordle_on_the_page(page: Page, server: str):
    """Item 16: Dordle (2 boards, 7 guesses) played from the daily words, scored by /api/boards/feedback,
    with the solver's hint of /api/boards/next; Quordle shows 4 boards of 9 rows."""
    open_tab(page, "play")
    page.select_option("#play-boards", "2")
    expect(page.locator("#boards-area")).to_be_visible()
    expect(page.locator("#play-board")).to_be_hidden()
    boards = page.locator("#boards-grid .mini-board")
    expect(boards).to_have_count(2)
    expect(boards.nth(0).locator(".tile-row")).to_have_count(7)
    today = page.evaluate("() => { const d = new Date(), p = (n) => String(n).padStart(2, '0');"
                          " return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`; }")
    puzzle = get(server, f"/api/daily?game=wordle&variant=normal&boards=2&date={today}")
    page.locator("#boards-daily").click()
    expect(page.locator("#boards-status")).to_contain_text(f"Daily {puzzle['number']}")
    _, hint = post(server, "/api/boards/next", {"boards": 2, "history": [], "candidates": 0})
    page.locator("#boards-hint").click()
    expect(page.locator("#boards-hint-text")).to_contain_text(hint["guess"])
    first, second = puzzle["targets"]
    for row, word in enumerate([first, second]):
        page.keyboard.type(word)
        page.keyboard.press("Enter")
        expect(boards.nth(1).locator(".tile-row").nth(row).locator(".tile").nth(4)).not_to_have_attribute(
            "data-state", "tbd")
    marks = wordle.feedback(second, first)
    for i, mark in enumerate(marks):
        expect(boards.nth(1).locator(".tile-row").nth(0).locator(".tile").nth(i)).to_have_attribute(
            "data-state", {"G": "correct", "Y": "present", "R": "absent"}[mark])
    expect(page.locator("#boards-result")).to_be_visible()
    expect(page.locator("#boards-share-text")).to_have_value(re.compile(
        f"^Dordle {puzzle['number']} 1&2/7\n"))
    page.locator("#tab-play").focus()
    page.get_by_role("button", name="How to play").click()
    expect(page.get_by_role("dialog", name=re.compile("How to play"))).to_contain_text("Dordle")
    page.keyboard.press("Escape")

    page.select_option("#play-boards", "4")
    expect(boards).to_have_count(4)
    expect(boards.nth(3).locator(".tile-row")).to_have_count(9)
    page.select_option("#play-boards", "1")
    expect(page.locator("#play-board")).to_be_visible()


def test_coach_offers_every_word_for_an_answer_outside_the_list(page: Page, server: str):
    # the coach, like the CLI's --all-words, lets any acceptable word be the answer
    open_tab(page, "coach")
    expect(page.locator("#coach-best")).not_to_be_empty()
    page.select_option("#coach-variant", "normal")
    page.fill("#coach-guess", "AAHED")
    page.fill("#coach-marks", "GGGGG")
    page.get_by_role("button", name="Add this row").click()
    expect(page.locator("#coach-error")).to_contain_text("AAHED is not one of the 2315 answers")
    page.get_by_role("button", name="Allow any acceptable word as the answer").click()
    expect(page.locator("#coach-variant")).to_have_value("normal-all-words")
    expect(page.locator("#coach-error")).to_be_hidden()
    page.get_by_role("button", name="Add this row").click()
    expect(page.locator("#coach-rows .tile-row")).to_have_count(1)
    expect(page.locator("#coach-error")).to_be_hidden()


def test_a_guess_typed_while_the_last_is_answered_is_kept(page: Page, server: str):
    # "You guess": one guess at a time; what is typed meanwhile stays in the box, nothing is lost
    open_tab(page, "games")
    page.select_option("#games-select", "mastermind/default")
    pin_secret(page, server, "mastermind", "default", avoid=["1122", "3344"])
    page.get_by_label("You guess").check()
    expect(page.locator("#gy-status")).to_contain_text("secret is hidden")
    held = []
    page.route("**/api/feedback", lambda route: held.append(route))
    page.fill("#gy-guess", "1122")
    page.get_by_role("button", name="Guess", exact=True).click()
    page.wait_for_timeout(200)
    page.fill("#gy-guess", "3344")
    page.get_by_role("button", name="Guess", exact=True).click()
    page.wait_for_timeout(200)
    assert len(held) == 1  # the second waits for the first
    held[0].continue_()
    page.unroute("**/api/feedback")
    expect(page.locator("#gy-history li")).to_have_count(1)
    expect(page.locator("#gy-guess")).to_have_value("3344")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("#gy-history li")).to_have_count(2)


# ----------------------------------------------------------------------------- a new user's eight problems


def today_of(page: Page) -> str:
    """The page's local date, as it asks /api/daily for it."""
    return page.evaluate("() => { const d = new Date(), p = (n) => String(n).padStart(2, '0');"
                         " return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`; }")


def start_chosen(page: Page, answer: str) -> None:
    """Open the Wordle tab and start a game whose answer is `answer` (the options' "for a friend")."""
    open_tab(page, "play")
    page.locator("#play-options summary").click()
    page.fill("#play-secret", answer)
    page.get_by_role("button", name="Start with this answer").click()
    expect(page.locator("#play-status")).to_contain_text("chosen")


def play_words(page: Page, words: list[str], first_row: int = 0) -> None:
    """Type each word and Enter it on the Wordle board from row `first_row`, waiting for its colours (keys
    typed while a guess is scored are dropped)."""
    for row, word in enumerate(words, start=first_row):
        page.keyboard.type(word)
        page.keyboard.press("Enter")
        expect(row_tiles(page, row).nth(4)).to_have_attribute("data-state", re.compile("^(correct|present|absent)$"))


def boxes(page: Page, selectors: list[str]) -> dict[str, dict]:
    """The bounding boxes of the first element of each selector, measured at once (the page may scroll)."""
    return page.evaluate("""ss => Object.fromEntries(ss.map(s => [s,
        document.querySelector(s).getBoundingClientRect().toJSON()]))""", selectors)


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def rgb(css: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.findall(r"\d+", css)[:3])


def luminance(colour: tuple[int, ...]) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def console_errors(page: Page) -> list[str]:
    """Collect every error the browser logs from now on, failed requests ("Failed to load resource: the
    server responded with a status of 422") included."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


@pytest.mark.parametrize("boards", [2, 4])
def test_boards_take_enter_after_a_click_on_the_theme_switch(page: Page, boards: int):
    """Item 1: after a click on a header button (the focus stays there, unseen), Enter enters the guess
    typed on Dordle and Quordle, as on the single board; the theme stays as the click left it."""
    open_tab(page, "play")
    page.select_option("#play-boards", str(boards))
    expect(page.locator("#boards-status")).to_contain_text("guesses left")
    toggle = page.locator("#theme-toggle")
    toggle.click()
    pressed = toggle.get_attribute("aria-pressed")
    page.keyboard.type("SALET")
    page.keyboard.press("Enter")
    first_row = page.locator("#boards-grid .mini-board").nth(0).locator(".tile-row").nth(0).locator(".tile")
    expect(first_row.nth(4)).to_have_attribute("data-state", re.compile("^(correct|present|absent)$"))
    expect(toggle).to_have_attribute("aria-pressed", pressed)


def start_daily_dordle(page: Page, server: str) -> list[str]:
    """Open today's Dordle on the Wordle tab; return its two answers."""
    open_tab(page, "play")
    page.select_option("#play-boards", "2")
    puzzle = get(server, f"/api/daily?game=wordle&variant=normal&boards=2&date={today_of(page)}")
    page.locator("#boards-daily").click()
    expect(page.locator("#boards-status")).to_contain_text(f"Daily {puzzle['number']}")
    return puzzle["targets"]


def test_boards_keys_take_each_boards_colours(page: Page, server: str):
    """Item 2: on Dordle each key is split in one part per board, coloured with the best mark its letter
    got on that board; a solved board's part is plain again."""
    targets = start_daily_dordle(page, server)
    guess = next(word for word in ("SALET", "CRANE", "TRACE") if word not in targets)

    def expect_keys(played: list[str]) -> None:
        for b, target in enumerate(targets):
            solved = target in played
            best = best_marks([(word, wordle.feedback(target, word)) for word in played])
            for letter in set("".join(played)) | {"Q"}:
                part = page.locator(f'#boards-keyboard [data-key="{letter}"] .key-part[data-board="{b + 1}"]')
                state = "unused" if solved or letter not in best else STATE_OF[best[letter]]
                expect(part).to_have_attribute("data-state", state)
                if state != "unused":
                    assert background(part) == COLOURS[best[letter]], (letter, b)

    for played in ([guess], [guess, targets[0]]):
        page.keyboard.type(played[-1])
        page.keyboard.press("Enter")
        expect(page.locator("#boards-grid .mini-board").nth(0).locator(".tile-row").nth(len(played) - 1)
               .locator(".tile").nth(4)).to_have_attribute("data-state", re.compile("^(correct|present|absent)$"))
        expect_keys(played)
    expect(page.locator("#boards-grid .mini-board").nth(0)).to_have_attribute("data-solved", "true")


def test_boards_hint_covers_nothing_until_the_next_guess(phone: Page, server: str):
    """Item 2: at 390 px the solver's hint shows under the boards, over none of the buttons, the boards or
    the keys, and stays (past a toast's 3 s) until the next guess."""
    page = phone
    targets = start_daily_dordle(page, server)
    _, hint = post(server, "/api/boards/next", {"boards": 2, "history": [], "candidates": 0})
    page.locator("#boards-hint").click()
    line = page.get_by_text(f"The solver would play {hint['guess']}")
    expect(line).to_be_visible()
    shown = line.bounding_box()
    shown = {"left": shown["x"], "top": shown["y"], "right": shown["x"] + shown["width"],
             "bottom": shown["y"] + shown["height"]}
    around = ["#boards-new", "#boards-daily", "#boards-hint", "#boards-status", "#boards-grid", "#boards-keyboard"]
    for selector, box in boxes(page, around).items():
        assert not overlap(shown, box), (selector, shown, box)
    page.wait_for_timeout(3500)
    expect(line).to_be_visible()
    page.keyboard.type(next(word for word in ("SALET", "CRANE") if word not in targets))
    page.keyboard.press("Enter")
    expect(line).to_be_hidden()


def cells_past_the_edge(page: Page, selector: str) -> list[str]:
    """The text of the cells (`selector`) shown whose box passes the viewport's left or right edge."""
    return page.evaluate("""s => [...document.querySelectorAll(s)].filter(n => {
        const r = n.getBoundingClientRect();
        return r.width > 0 && (r.left < -0.5 || r.right > document.documentElement.clientWidth + 0.5);
      }).map(n => n.textContent)""", selector)


def test_review_and_coach_tables_fit_a_phone(phone: Page, server: str):
    """Item 3: at 390 px the review's and the coach's tables stack their rows: no cell passes the right
    edge, and each cell names its column."""
    page = phone
    start_chosen(page, "SLOTH")
    play_words(page, ["XYLYL", "SALET", "SLOTH"])
    page.get_by_role("button", name="Review", exact=True).click()
    expect(review_rows(page, "#play-review")).to_have_count(3, timeout=LIVE_MS)
    assert cells_past_the_edge(page, "#play-review th, #play-review td") == []
    expect(review_rows(page, "#play-review").nth(0).locator("td").nth(1)).to_have_attribute("data-label", "Guess")

    open_tab(page, "coach")
    page.fill("#coach-guess", "CRANE")
    page.fill("#coach-marks", "RRYRG")
    page.get_by_role("button", name="Add this row").click()
    expect(page.locator(".alternatives tbody tr")).to_have_count(5, timeout=LIVE_MS)
    assert cells_past_the_edge(page, "#coach-advice th, #coach-advice td") == []
    page.get_by_role("button", name="Review these guesses").click()
    expect(review_rows(page, "#coach-review")).to_have_count(1, timeout=LIVE_MS)
    assert cells_past_the_edge(page, "#coach-review th, #coach-review td") == []


def cli_review(*args: str) -> list[list[str]]:
    """The rows of `deduce review`'s table, one list of cells per guess."""
    result = subprocess.run([sys.executable, "-m", "solver", "review", *args], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["#", "guess"])
    rows = lines[head + 1:]
    rows = rows[:rows.index("")] if "" in rows else rows  # the table ends at the first blank line (the solver's
    return [line.split() for line in rows]  # game follows, its lines numbered too)


def test_review_shows_the_clis_columns_and_marks(page: Page):
    """Item 4: the review table has the CLI's columns, "expected" included, and writes every cell as
    `deduce review` does: >= for a bound, - for a luck not rated, never a blank cell."""
    guesses = ["XYLYL", "SALET", "SLOTH"]  # a bound (XYLYL, an opener the ranking abandoned) and a decided guess
    cli = cli_review("wordle", *guesses, "--answer", "SLOTH")
    assert any(">=" in cell for row in cli for cell in row) and any(row[6] == "-" for row in cli), cli
    start_chosen(page, "SLOTH")
    play_words(page, guesses)
    page.get_by_role("button", name="Review", exact=True).click()
    rows = review_rows(page, "#play-review")
    expect(rows).to_have_count(len(cli), timeout=LIVE_MS)
    heads = page.locator("#play-review .review-table thead th").all_inner_texts()
    assert heads[5] == "Expected", heads
    for row, expected in zip(rows.all(), cli):
        cells = row.locator("td").all_inner_texts()
        assert len(cells) == len(expected) == 12 and all(cell.strip() for cell in cells), cells
        assert row.locator(".mini-tiles").get_attribute("title") == expected[2]  # the feedback, drawn as tiles
        shown = cells[:2] + [cell.replace(",", "") for cell in cells[3:5]] + cells[5:]
        assert shown == expected[:2] + expected[3:], (cells, expected)


def test_coach_small_chance_never_reads_0(page: Page, server: str):
    """Item 5: a chance under 1% that the best guess is the answer reads "1 in N", never 0%."""
    open_tab(page, "coach")
    expect(page.locator("#coach-best")).not_to_be_empty()
    page.select_option("#coach-variant", "normal-all-words")
    _, advice = post(server, "/api/next", {"game": "wordle", "variant": "normal-all-words", "top": 5, "candidates": 50})
    chance = advice["explanation"]["win_chance"]
    assert 0 < chance < 0.005, chance  # LANTS may be the answer: 1 in 12972
    stats = page.locator("#coach-advice .best-stats")
    expect(stats).to_contain_text(f"chance it is the answer: 1 in {round(1 / chance):,}", timeout=LIVE_MS)
    expect(page.locator("#coach-advice")).not_to_contain_text(re.compile(r"(^|[^\d])0%"))


def test_coach_offers_every_word_only_when_the_rows_allow_it(page: Page):
    """Item 5: "Allow any acceptable word" is offered only when the word, all green, fits the rows before
    it (any word an answer would still refuse a row contradicting them)."""
    open_tab(page, "coach")
    expect(page.locator("#coach-best")).not_to_be_empty()
    for count, (guess, marks) in enumerate((("CRANE", "RRRRR"), ("AAHED", "GGGGG"))):  # AAHED: the A and E CRANE lacks
        expect(page.locator("#coach-rows .tile-row")).to_have_count(count)
        page.fill("#coach-guess", guess)
        page.fill("#coach-marks", marks)
        page.get_by_role("button", name="Add this row").click()
    expect(page.locator("#coach-error")).to_contain_text("AAHED is not one of the 2315 answers")
    expect(page.locator("#coach-rows .tile-row")).to_have_count(1)
    expect(page.get_by_role("button", name="Allow any acceptable word as the answer")).to_have_count(0)
    page.get_by_role("button", name="Start over").click()
    page.fill("#coach-guess", "AAHED")
    page.fill("#coach-marks", "GGGGG")
    page.get_by_role("button", name="Add this row").click()
    expect(page.get_by_role("button", name="Allow any acceptable word as the answer")).to_be_visible()


def test_other_games_show_a_loading_sign(page: Page):
    """Item 6: while a variant's first answer is on its way, its panel says "Loading…" and is aria-busy."""
    open_tab(page, "games")
    expect(page.locator("#gs-guess")).not_to_be_empty()
    held = []
    page.route("**/api/next", lambda route: held.append(route))
    page.select_option("#games-select", "cards/n3")
    box, status = page.locator("#games-solver"), page.locator("#gs-status")
    expect(box).to_have_attribute("aria-busy", "true")
    expect(status).to_have_text("Loading\u2026")
    expect(status).to_be_visible()
    while not held:
        page.wait_for_timeout(20)
    for route in held:
        route.continue_()
    page.unroute("**/api/next")
    expect(page.locator("#gs-guess")).not_to_be_empty(timeout=LIVE_MS)  # cards n3's tree: read at its first use
    expect(box).not_to_have_attribute("aria-busy", "true")
    expect(status).not_to_have_text("Loading\u2026")


CATEGORIES = ("exact", "one", "two", "miss")
TRIPLES = list(combinations([f"{c}{r}" for r in range(1, 5) for c in "ABCDEFGH"], 3))  # every battleship guess


def single_result(secret, guess) -> str | None:
    """The result every shot of `guess` has against `secret` (cell names) when their counts (exact, one
    away, two away) leave only one, else None."""
    counts = battleship.feedback(battleship.parse_locations(secret), battleship.parse_locations(guess))
    full = [*counts, 3 - sum(counts)]
    named = [name for name, n in zip(CATEGORIES, full) if n]
    return named[0] if len(named) == 1 else None


def test_battleship_solver_mode_draws_the_board(page: Page):
    """Item 6: "the solver guesses" draws the board, as "you guess" does: the solver's shots on it, and
    the cells shot before marked with what the person's answers tell of them."""
    open_tab(page, "games")
    page.select_option("#games-select", "battleship/default")
    board = page.locator("#games-solver .shot-board")
    expect(board.locator(".shot-cell")).to_have_count(32)
    expect(page.locator("#gs-guess")).not_to_be_empty()
    first = page.locator("#gs-guess").text_content().split()
    aimed = board.locator("[data-aim=true]")
    expect(aimed).to_have_count(3)
    assert sorted(aimed.evaluate_all("cells => cells.map(c => c.dataset.cell)")) == sorted(first)
    secret = next(ships for ships in TRIPLES if set(ships) != set(first) and single_result(ships, first))
    counts = battleship.feedback(battleship.parse_locations(secret), battleship.parse_locations(first))
    for name, value in zip(("exact", "one_away", "two_away"), counts):
        page.fill(f"#gs-fields [data-field={name}]", str(value))
    page.get_by_role("button", name="Tell the solver").click()
    expect(page.locator("#gs-history li")).to_have_count(1)
    for cell in first:
        expect(board.locator(f'[data-cell="{cell}"]')).to_have_attribute("data-result", single_result(secret, first))
    expect(aimed).to_have_count(3)  # the solver's next shots
    assert set(aimed.evaluate_all("cells => cells.map(c => c.dataset.cell)")) == set(
        page.locator("#gs-guess").text_content().split())


def test_battleship_cells_shot_show_what_the_answers_tell(page: Page, server: str):
    """Item 6: in "you guess" the cells shot show what the answers tell of them: a hit, one or two cells
    away, farther, or not known (the counts do not say which shot got which result)."""
    open_tab(page, "games")
    page.select_option("#games-select", "battleship/default")
    secret = pin_secret(page, server, "battleship", "default", avoid=[])
    page.get_by_label("You guess").check()
    expect(page.locator("#gy-status")).to_contain_text("secret is hidden")
    guess = next(shots for shots in TRIPLES
                 if set(shots) != set(secret.split()) and single_result(secret.split(), shots))
    result = single_result(secret.split(), guess)
    board = page.locator("#games-you .shot-board")
    for cell in guess:
        board.locator(f'[data-cell="{cell}"]').click()
    expect(page.locator("#gy-history li")).to_have_count(1)
    for cell in guess:
        expect(board.locator(f'[data-cell="{cell}"]')).to_have_attribute("data-result", result)
    expect(board.locator("[data-result]:not([data-result=''])")).to_have_count(3)
    # A cell is known once the counts leave it one result: D4 below, by A1 and B1 known farther.
    known = page.evaluate("""async () => {
        const { shotResults } = await import("/pieces.js");
        const results = shotResults([{ guess: "A1 B1 C1", feedback: [0, 0, 0] }, \
{ guess: "A1 B1 D4", feedback: [1, 0, 0] },
                                     { guess: "A1 C2 D2", feedback: [0, 1, 1] }]);
        return Object.fromEntries([...results].map(([cell, info]) => [cell, info.result]));
    }""")
    assert known == {"A1": "miss", "B1": "miss", "C1": "miss", "D4": "exact", "C2": "unknown", "D2": "unknown"}


def test_mastermind_pegs_to_click(page: Page, server: str):
    """Item 6: "you guess" at Mastermind offers the six pegs: each click adds its colour to the guess (four
    at most), the last button takes one off; typing still works."""
    open_tab(page, "games")
    page.select_option("#games-select", "mastermind/default")
    pin_secret(page, server, "mastermind", "default", avoid=["1122", "3344"])
    page.get_by_label("You guess").check()
    expect(page.locator("#gy-status")).to_contain_text("secret is hidden")
    pegs = page.locator(".peg-picker")
    for name in ("red", "red", "green", "blue"):
        pegs.get_by_role("button", name=re.compile(f"^{name}")).click()
    expect(page.locator("#gy-guess")).to_have_value("1123")
    pegs.get_by_role("button", name="Take the last peg off").click()
    pegs.get_by_role("button", name=re.compile("^green")).click()
    pegs.get_by_role("button", name=re.compile("^purple")).click()  # a fifth peg: no room
    expect(page.locator("#gy-guess")).to_have_value("1122")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("#gy-history li")).to_have_count(1)
    page.fill("#gy-guess", "3344")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("#gy-history li")).to_have_count(2)


def test_dark_theme_keys(browser, server: str):
    """Item 7: in the dark theme the keys are dark, their letters readable (4.5:1), the keys apart from
    the page (3:1) and from the keys of absent letters."""
    with checked_page(browser, server, 1100, 900, color_scheme="dark") as page:
        start_chosen(page, "CRANE")
        play_words(page, ["SALET"])  # S, L and T absent
        key, absent = page.locator('#play-keyboard [data-key="Q"]'), page.locator('#play-keyboard [data-key="S"]')
        back = rgb(background(key))
        letters = rgb(key.evaluate("node => getComputedStyle(node).color"))
        assert luminance(back) < 0.3, back  # not the light grey of the light theme
        assert contrast(letters, back) >= 4.5, (letters, back)
        assert contrast(back, rgb(background(page.locator("body")))) >= 3, back
        assert contrast(back, rgb(background(absent))) >= 1.5, (back, background(absent))


@pytest.mark.parametrize("width", [1280, 390])
def test_wordle_messages_cover_nothing(browser, server: str, width: int):
    """Item 7: a word refused and the praise show under the status line, over neither it, the buttons
    nor the board."""
    around = ["#play-status", "#play-new", "#play-daily", "#play-stats-button", "#play-options", "#play-board"]
    with checked_page(browser, server, width, 844) as page:

        def expect_covering_nothing(message: str) -> None:
            expect(page.locator("#play-toast")).to_contain_text(message)
            measured = boxes(page, ["#play-toast"] + around)
            shown = measured.pop("#play-toast")
            assert shown["width"] > 0
            for selector, box in measured.items():
                assert not overlap(shown, box), (message, selector, shown, box)

        start_chosen(page, "SLOTH")
        page.keyboard.type("QXZVJ")
        page.keyboard.press("Enter")
        expect_covering_nothing("QXZVJ is not one of")
        for _ in range(5):
            page.keyboard.press("Backspace")
        play_words(page, ["CRANE", "SALET", "SLOTH"])
        expect_covering_nothing("Impressive")


def test_variant_labels_follow_one_pattern(page: Page, server: str):
    """Item 7: every variant is named the same way ("Wordle, hard mode, NYT lists"), /api/games' label, in
    the coach's, the other games' and the tree explorer's lists."""
    games = get(server, "/api/games")["games"]
    label = {(g["game"], g["variant"]): g["label"] for g in games}
    assert label["wordle", "hard-nyt"] == "Wordle, hard mode, NYT lists"
    open_tab(page, "play")
    for select in ("#coach-variant", "#games-select", "#tree-select"):
        options = page.locator(f"{select} option")
        values = options.evaluate_all("options => options.map(o => o.value)")
        keys = [(("wordle", value) if select == "#coach-variant" else tuple(value.split("/"))) for value in values]
        assert options.all_inner_texts() == [label[key] for key in keys], select
    pattern = re.compile(r"(Wordle|Mastermind|Bulls and Cows|Battleship|Cards)(, (NYT|[a-z0-9])[\w ]*)*")
    assert all(pattern.fullmatch(text) for text in label.values()), label


def test_redoc_makes_no_request_off_the_machine(browser, server: str):
    """Item 8: /redoc loads everything from the server: offline (every other host refused), no request
    fails and the console stays clean (ReDoc's sidebar logo came from a CDN)."""
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        outside, failed = [], []

        def refuse(route):
            outside.append(route.request.url)
            route.abort("internetdisconnected")

        page.route(re.compile(r"^(?!https?://127\.0\.0\.1[:/])[a-z]+://"), refuse)
        page.on("requestfailed", lambda request: failed.append(request.url))
        errors = console_errors(page)
        page.goto("/redoc")
        expect(page.locator("h1").first).to_contain_text("deduce")
        page.wait_for_timeout(1500)  # ReDoc draws its sidebar's logo after the first render
        assert outside == [] and failed == [] and errors == [], (outside, failed, errors)
    finally:
        context.close()


def test_an_invalid_word_logs_no_error(page: Page, server: str):
    """Item 8: a word not in the list, on one board or two, and a friend's answer that is not one, say
    so with no error in the browser's console (the page asks /api/check, answered 200)."""
    errors = console_errors(page)
    status, body = post(server, "/api/feedback", {"game": "wordle", "variant": "normal", "target": "SLOTH",
                                                  "guess": "QXZVJ", "history": []})
    assert status == 422 and "not one of the 12972 acceptable guesses" in body["error"]["message"]
    start_chosen(page, "SLOTH")
    page.keyboard.type("QXZVJ")
    page.keyboard.press("Enter")
    expect(page.locator("#play-toast")).to_have_text(body["error"]["message"])
    expect(row_tiles(page, 0).nth(4)).to_have_attribute("data-state", "tbd")  # kept for correcting
    page.locator("#play-options summary").click()
    page.fill("#play-secret", "AAHED")
    page.get_by_role("button", name="Start with this answer").click()
    expect(page.locator("#play-toast")).to_contain_text("AAHED cannot be the answer: AAHED is not one of the 2315")

    page.select_option("#play-boards", "2")
    expect(page.locator("#boards-status")).to_contain_text("guesses left")
    page.keyboard.type("QXZVJ")
    page.keyboard.press("Enter")
    expect(page.locator("#boards-toast")).to_have_text(body["error"]["message"])
    assert errors == []
