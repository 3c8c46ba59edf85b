"""The review of a game of several boards on the web: POST /api/boards/review against the library's
`review_boards` and `deduce review --boards`, its one-line errors, and on the page (Chromium) the review
after a Dordle game, and the candidates a click on a review's "Before" count shows (one board and several).
"""
from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi", reason="the web tests need fastapi: pip install 'deduce-solver[test]'")

from solver.analysis import several_boards as several
from solver.analysis.review import review_boards
from solver.cli.review_lines import board_lines
from solver.core.registry import get_game
from solver.games import wordle
from solver.games.boards import SOLVED
from tests.helpers import assert_json_error

ANSWERS = ["PROXY", "FLOOR"]
GUESSES = ["SALET", "CRONY", "FLOOR", "PROXY"]  # FLOOR solves board 2; on board 1 (PROXY known) it is not counted
DORDLE = {"boards": 2, "answers": ANSWERS, "guesses": GUESSES}


@pytest.fixture(scope="module")
def dordle(client):
    """The /api/boards/review answer of the Dordle game, with every candidate listed (`words`), and without."""
    listed = client.post("/api/boards/review", json={**DORDLE, "words": 3000})
    assert listed.status_code == 200, listed.text
    plain = client.post("/api/boards/review", json=DORDLE)
    assert plain.status_code == 200, plain.text
    return plain.json(), listed.json()


@pytest.fixture(scope="module")
def library():
    game = get_game("wordle")
    answers = [game.index_of(w) for w in ANSWERS]
    return game, review_boards(game, [game.index_of(w) for w in GUESSES], answers, several.play(game, answers))


def test_boards_review_is_the_librarys_and_the_clis(dordle, library):
    body, _ = dordle
    game, result = library
    assert body["won"] is True and body["lost"] is False and body["guesses"] == 4 and body["limit"] == 7
    assert body["answers"] == ANSWERS
    assert (body["skill"], body["luck"], body["cost_text"], body["exact"]) == \
        (result.skill, result.luck, result.cost_text(), result.exact)
    assert body["cost"] == pytest.approx(result.cost)
    assert body["share"] == result.summary_line() == board_lines(result)[-1]
    assert body["share"].startswith("deduce review: 2 boards 4&3/7, ")
    assert body["solver_game"] == [{"guess": game.labels[row],
                                    "feedback": [None if c == SOLVED else game.decode(c) for c in codes]}
                                   for row, codes in result.solver_game]
    assert body["solver_game"][-1]["feedback"][0] == "GGGGG" or body["solver_game"][-1]["feedback"][1] == "GGGGG"
    for number, (board, mine, answer) in enumerate(zip(body["boards"], result.boards, ANSWERS), start=1):
        assert board["board"] == number and board["answer"] == answer and board["won"] is True
        assert board["solver_game"] == [] and board["title"] == "wordle"
        assert [g["guess"] for g in board["guesses"]] == [g.guess for g in mine.guesses]
        assert [g["feedback"] for g in board["guesses"]] == [wordle.feedback(answer, g.guess) for g in mine.guesses]
        assert [(g["before"], g["after"], g["cost_text"], g["best_guess"]) for g in board["guesses"]] == \
            [(g.before, g.after, g.cost_text(), g.best_guess) for g in mine.guesses]
        assert all(g["candidates"] == [] for g in board["guesses"])  # none listed unless asked (`words`)
    assert [len(b["guesses"]) for b in body["boards"]] == [4, 3]
    assert body["boards"][0]["not_counted"] == [3] and body["boards"][1]["not_counted"] == []
    assert body["boards"][0]["guesses"][2]["cost"] == pytest.approx(1.0)  # FLOOR with PROXY known, not counted
    assert body["cost"] < 0.5


def test_a_board_is_reviewed_as_api_review_reviews_its_game(client, dordle):
    """Each board has /api/review's shape: the board that FLOOR solved in 3 reads as the review of that game."""
    board = dordle[0]["boards"][1]
    single = client.post("/api/review", json={"game": "wordle", "answer": "FLOOR", "guesses": GUESSES[:3]}).json()
    assert set(board) == set(single) | {"board", "not_counted"}
    assert board["guesses"] == single["guesses"]
    assert (board["cost_text"], board["skill"], board["luck"]) == (single["cost_text"], single["skill"], single["luck"])
    assert board["share"] == single["share"].replace("3/6", "3/7")  # a board's limit is the game's: 7


def test_boards_review_lists_the_candidates_when_asked(dordle, library):
    plain, listed = dordle
    _, result = library
    for board, mine in zip(listed["boards"], result.boards):
        for g, expected in zip(board["guesses"], mine.guesses):
            assert g["candidates"] == list(expected.candidates) and len(g["candidates"]) == g["before"]
    assert len(listed["boards"][0]["guesses"][0]["candidates"]) == 2315
    def without(body):
        return [{**b, "guesses": [{**g, "candidates": []} for g in b["guesses"]]} for b in body["boards"]]
    assert without(listed) == plain["boards"]  # the same review, only the lists added


def test_a_lost_dordle_and_a_quordle(client):
    lost = client.post("/api/boards/review", json={**DORDLE, "guesses": ["SALET", "CRONY", "PROXY", "MIMIC", "JAZZY",
                                                                         "FUZZY", "KAYAK"]})
    assert lost.status_code == 200, lost.text
    body = lost.json()
    assert body["won"] is False and body["lost"] is True and body["guesses"] == body["limit"] == 7
    assert body["share"].startswith("deduce review: 2 boards 3&X/7, ")
    first, second = body["boards"]
    assert first["won"] and len(first["guesses"]) == 3 and not second["won"] and second["lost"]
    # KAYAK, with FLOOR known and no other board open, is a miss of this board: it counts
    assert len(second["guesses"]) == 7 and second["not_counted"] == []
    assert second["share"].startswith("deduce review: wordle lost after 7/7")
    quordle = client.post("/api/boards/review", json={
        "boards": 4, "answers": ["PROXY", "FLOOR", "CRANE", "BURNT"],
        "guesses": ["SALET", "CRONY", "FLOOR", "PROXY", "CRANE", "BURNT"]})
    assert quordle.status_code == 200, quordle.text
    body = quordle.json()
    assert body["won"] and body["limit"] == 9 and body["share"].startswith("deduce review: 4 boards 4&3&5&6/9, ")
    assert [b["not_counted"] for b in body["boards"]] == [[3], [], [3, 4], [3, 4, 5]]
    assert all(len(step["feedback"]) == 4 for step in body["solver_game"])
    assert body["solver_game"][-1]["feedback"].count("GGGGG") == 1


@pytest.mark.parametrize("body, field, words", [
    ({"answers": ["PROXY"]}, "answers", "2 boards need 2 answers"),
    ({"answers": ["PROXY", "FLOOR", "CRANE"]}, "answers", "got 3"),
    ({"answers": ["PROXY", "PROXY"]}, "answers", "PROXY is given twice"),
    ({"answers": ["PROXY", "QQQQQ"]}, "answers[1]", "QQQQQ"),
    ({"answers": ["PROXY", "AAHED"]}, "answers[1]", "not one of the 2315 answers"),
    ({"answers": []}, "answers", None),
    ({"guesses": []}, "guesses", "nothing to review"),
    ({"guesses": ["SALET", "XYZZY"]}, "guesses[1]", "XYZZY"),
    ({"guesses": ["SALET"] * 8}, "guesses", "2 boards allow 7 guesses, got 8"),
    ({"guesses": ["FLOOR", "PROXY", "SALET"]}, "guesses[2]", "after every board was solved"),
    ({"boards": 1, "answers": ["PROXY"]}, "boards", None),
    ({"boards": 33}, "boards", None),
    ({"variant": "nope"}, "variant", "unknown variant"),
    ({"words": 3001}, "words", None),
    ({"guesses": "SALET"}, "guesses", None),
])
def test_boards_review_errors_name_the_field(client, body, field, words):
    message = assert_json_error(client.post("/api/boards/review", json={**DORDLE, **body}), 422, field)
    assert words is None or words in message, message


def test_boards_review_is_documented(client):
    schema = client.get("/openapi.json").json()
    operation = schema["paths"]["/api/boards/review"]["post"]
    assert operation["summary"] and "not_counted" in operation["description"]
    assert "ErrorResponse" in str(operation["responses"]["422"])
    models = schema["components"]["schemas"]
    for name, fields in (("BoardsReviewRequest", ("boards", "answers", "guesses", "words")),
                         ("BoardsReviewResponse", ("boards", "skill", "luck", "cost", "cost_text", "exact", "share",
                                                   "answers", "limit", "solver_game")),
                         ("BoardReview", ("board", "not_counted"))):
        assert models[name].get("description"), name
        for field in fields:
            assert models[name]["properties"][field].get("description"), (name, field)


# ----------------------------------------------------------------------------- the page, in Chromium
try:
    from tests.test_web_browser import (browser, checked_page, open_tab, play_words, post,  # noqa: F401
                                        review_rows, server, shot, start_chosen)
    from playwright.sync_api import expect
    BROWSER = None
except pytest.skip.Exception as skipped:  # no Playwright or no Chromium: the API's tests still run
    BROWSER = str(skipped)

browser_test = pytest.mark.skipif(BROWSER is not None, reason=BROWSER or "")


@pytest.fixture
def wide(browser, server):
    """A fresh page at 1280 x 900 (`checked_page`)."""
    with checked_page(browser, server, 1280, 900) as page:
        yield page


def open_candidates(page, box: str, board: int | None, guess: int, before: int) -> list[str]:
    """Click the Before count of a guess (of a board's table) and return the answers listed under its row."""
    where = page.locator(box) if board is None else page.locator(f"{box} .board-review[data-board='{board}']")
    label = f"Show the {'answer' if before == 1 else f'{before:,} answers'} possible before guess {guess}"
    button = where.get_by_role("button", name=label, exact=True)
    expect(button).to_have_text(f"{before:,}")
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    listed = page.locator("#" + button.get_attribute("aria-controls"))
    expect(listed.locator(".candidate-words")).to_be_visible()
    return listed.locator(".candidate-words").inner_text().split()


@browser_test
@pytest.mark.slow
def test_dordle_review_on_the_page(wide, server: str):
    """A Dordle game with known answers played on the page, then Review: two board tables headed by their
    answers, the summary and share line of /api/boards/review, the solver's game beside as small tiles; a click
    on a Before count lists the answers possible there, a second click hides them."""
    page = wide
    status, expected = post(server, "/api/boards/review", {**DORDLE, "words": 3000})  # warms the server's memo
    assert status == 200, expected
    open_tab(page, "play")
    page.route("**/api/boards/random?*", lambda route: route.fulfill(json={"targets": ANSWERS, "guesses": 7}))
    page.select_option("#play-boards", "2")
    expect(page.locator("#boards-status")).to_contain_text("7 guesses left")
    boards = page.locator("#boards-grid .mini-board")
    for row, word in enumerate(GUESSES):
        page.keyboard.type(word)
        page.keyboard.press("Enter")
        expect(boards.nth(0).locator(".tile-row").nth(row).locator(".tile").nth(4)).to_have_attribute(
            "data-state", re.compile("^(correct|present|absent)$"))
    expect(page.locator("#boards-result")).to_be_visible()
    expect(page.locator("#boards-review")).to_be_hidden()
    page.get_by_role("button", name="Review", exact=True).click()

    box = page.locator("#boards-review")
    tables = box.locator(".board-review")
    expect(tables).to_have_count(2)
    for b, answer in enumerate(ANSWERS):
        expect(tables.nth(b).locator("h4")).to_contain_text(f"Board {b + 1}, answer {answer}")
        rows = tables.nth(b).locator(".review-table tbody tr")
        expect(rows).to_have_count(len(expected["boards"][b]["guesses"]))
        for r, g in enumerate(expected["boards"][b]["guesses"]):
            cells = rows.nth(r).locator("td")
            expect(cells.nth(1)).to_have_text(g["guess"])
            expect(cells.nth(10)).to_have_text(g["cost_text"])
            expect(cells.nth(2).locator(".mini-tiles")).to_have_attribute("title", g["feedback"])
    expect(tables.nth(0).locator("tr.not-counted")).to_have_count(1)
    expect(tables.nth(0).locator(".review-elsewhere")).to_contain_text("Guess 3")
    expect(box.locator(".review-summary")).to_contain_text(f"Skill {expected['skill']}/100")
    expect(box.locator(".review-share-text")).to_have_text(expected["share"])
    games = box.locator(".boards-review-games")
    expect(games.locator("h4")).to_have_text(f"Your game and the solver's for {', '.join(ANSWERS)}")
    mine, solver = games.locator(".boards-review-mine"), games.locator(".boards-review-solver")
    expect(mine.locator("li")).to_have_count(len(GUESSES))
    expect(mine.locator("li").nth(3).locator(".mini")).to_have_count(5)  # board 2 solved at guess 3
    expect(mine.locator("li").nth(3).locator(".solved-board")).to_have_count(1)
    steps = solver.locator("li")
    expect(steps).to_have_count(len(expected["solver_game"]))
    for i, step in enumerate(expected["solver_game"]):
        expect(steps.nth(i).locator(".guess-text")).to_have_text(step["guess"])
        tiles = steps.nth(i).locator(".mini")
        expect(tiles).to_have_count(5 * sum(marks is not None for marks in step["feedback"]))
        shown = [marks for marks in step["feedback"] if marks is not None]
        assert [t.get_attribute("title") for t in steps.nth(i).locator(".mini-tiles:not(.solved-board)").all()] \
            == shown
    # side by side at this width: the solver's column right of the player's, their tops level (within a line's
    # few pixels). Both measured at one instant: the review scrolls into view smoothly, moving both meanwhile.
    mine_box, solver_box = page.evaluate(
        "([a, b]) => [a, b].map((e) => { const r = e.getBoundingClientRect(); "
        "return {x: r.x, y: r.y, width: r.width, height: r.height}; })",
        [mine.element_handle(), solver.element_handle()])
    assert solver_box["x"] >= mine_box["x"] + mine_box["width"] and abs(solver_box["y"] - mine_box["y"]) < 12, \
        (mine_box, solver_box)
    # the tables keep the page's width: no column hidden behind a scroll bar
    for table in box.locator(".table-scroll").all():
        assert table.evaluate("node => node.scrollWidth <= node.clientWidth + 1"), table.inner_text()[:200]

    second = expected["boards"][1]["guesses"][1]  # board 2 before CRONY
    words = open_candidates(page, "#boards-review", 2, 2, second["before"])
    assert words == second["candidates"] and "FLOOR" in words
    first = expected["boards"][0]["guesses"][0]  # every answer before the first guess
    assert open_candidates(page, "#boards-review", 1, 1, first["before"]) == first["candidates"]
    shot(page, "dordle-review.png")
    button = tables.nth(1).get_by_role("button", name=re.compile("before guess 2$"))
    button.click()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(tables.nth(1).locator(".review-candidates")).to_have_count(0)
    page.get_by_role("button", name="New game").click()  # another game: the review goes
    expect(page.locator("#boards-review")).to_be_hidden()


@browser_test
@pytest.mark.slow
def test_wordle_review_lists_the_candidates_on_a_click(wide, server: str):
    """On one board too, the review's Before counts are buttons listing the answers possible before each
    guess (asked once, with the review's `words`), and the solver's game for the answer is under the table."""
    page = wide
    status, expected = post(server, "/api/review", {"game": "wordle", "variant": "normal", "answer": "BURNT",
                                                    "guesses": ["SALET", "BURNT"], "words": 3000})
    assert status == 200, expected
    start_chosen(page, "BURNT")
    play_words(page, ["SALET", "BURNT"])
    page.get_by_role("button", name="Review", exact=True).click()
    expect(review_rows(page, "#play-review")).to_have_count(2)
    expect(page.locator("#play-review .review-solver")).to_contain_text("The solver's game for BURNT")
    second = expected["guesses"][1]
    assert second["before"] < 100 and "BURNT" in second["candidates"]
    assert open_candidates(page, "#play-review", None, 2, second["before"]) == second["candidates"]
    assert len(open_candidates(page, "#play-review", None, 1, 2315)) == 2315
