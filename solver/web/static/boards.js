// Dordle and Quordle: two or four Wordle boards at once, each guess scored on every board still open
// (/api/boards/feedback), 5 more guesses than boards; the solver's hint for all the boards together
// (/api/boards/next, as `deduce play wordle --boards N`); the daily puzzle's words (/api/daily); once a game
// ends, its review (/api/boards/review, as `deduce review wordle --boards N`). Words of 4 to 9 letters; the
// daily words of any date; hard mode (each guess keeps the hard-mode rule of at least one unsolved board: the
// service refuses any other, giving each board's reason). The play tab's game list is read here: it also shows
// the hider (hider.js).
import { api, buildKeyboard, byId, dailyDate, dailyPlayed, el, fill, keyLabel, lettersWord, loadBoardsReview, loadJSON,
  pressedKey, reviewPanel, saveJSON, showAll, toaster, wordLength, wordleVariant } from "./common.js";
import { copyArea } from "./stats.js";
import { fitTiles, keepFitted } from "./fit.js";

const MODES = ["1", "2", "4", "hide", "challenge"]; // the play tab's games: boards, or the hider
const STATE = { G: "correct", Y: "present", R: "absent" };
const RANK = { absent: 1, present: 2, correct: 3 };
const STATE_NAME = { correct: "correct", present: "elsewhere", absent: "absent" };
const SQUARES = { G: "\u{1F7E9}", Y: "\u{1F7E8}", R: "\u2B1B" };
const NAMES = { 2: "Dordle", 4: "Quordle" };
const CHOICE_KEY = "deduce.boards";
const HARD_KEY = "deduce.boards.hard"; // the mode of the next game
const gameKey = (count) => `deduce.boards.${count}`;

export function initBoards() {
  const $ = byId;
  const select = $("play-boards");
  const grid = $("boards-grid");
  const toast = $("boards-toast");
  const say = toaster(toast);
  const hintLine = $("boards-hint-text");
  const reviewBox = $("boards-review");
  const reviewButton = $("boards-review-button");
  const hardBox = $("boards-hard");
  let count = 1;
  let game = null; // {targets, length, hard, rows, guesses: [{word, marks: [marks or null per board]}], over, daily}
  let typed = "";
  let busy = false;
  let active = false;

  /** The solver's hint, under the boards until the next move. */
  function showHint(message) {
    hintLine.textContent = message;
    hintLine.hidden = !message;
    fit();
  }

  const length = () => (game ? game.length || 5 : wordLength());
  const variant = () => wordleVariant(Boolean(game && game.hard), length());
  const won = (marks) => marks === "G".repeat(length());
  const solved = (b) => game.guesses.some((g) => won(g.marks[b]));

  /** The tiles sized so that the boards, the hint line and the keyboard fit the window (fit.js). */
  function fit() {
    if (active && count > 1) {
      fitTiles(grid, $("boards-keyboard"), { boards: game ? game.targets.length : count,
        rows: game ? game.rows : count + 5, cols: length() });
    }
  }

  // The keys are split in one part per board (left and right halves for Dordle, quarters for Quordle),
  // as Dordle and Quordle sites do: each part takes the best mark its letter got on that board (green >
  // yellow > grey). A solved board's parts go back to plain while the game goes on: nothing is left to find
  // there; once the game is over every board's colours show again.
  function renderKeys() {
    const boards = game ? game.targets.length : count;
    const best = Array.from({ length: boards }, () => ({}));
    for (const { word, marks } of game ? game.guesses : []) {
      marks.forEach((row, b) => row && [...word].forEach((letter, i) => {
        const state = STATE[row[i]];
        if (!best[b][letter] || RANK[state] > RANK[best[b][letter]]) best[b][letter] = state;
      }));
    }
    for (const [key, button] of Object.entries(keys)) {
      const states = best.map((letters, b) => (game && !game.over && solved(b) ? "unused" : letters[key] || "unused"));
      fill(button.querySelector(".key-parts"), states.map((state, b) =>
        el("span", { class: "key-part", "data-board": b + 1, "data-state": state })));
      button.dataset.coloured = String(states.some((state) => state !== "unused"));
      const named = states.map((state, b) => STATE_NAME[state] && `board ${b + 1} ${STATE_NAME[state]}`);
      button.setAttribute("aria-label", [key, ...named.filter(Boolean)].join(", "));
    }
  }

  function render() {
    const boards = game ? game.targets.length : count;
    const rows = game ? game.rows : count + 5;
    fill(grid, Array.from({ length: boards }, (_, b) => {
      const done = game ? game.guesses.findIndex((g) => won(g.marks[b])) : -1;
      const board = el("div", { class: "board mini-board", role: "grid", "aria-label": `Board ${b + 1}`,
        "data-solved": String(done >= 0) });
      for (let r = 0; r < rows; r++) {
        const guess = game && r < game.guesses.length && (done < 0 || r <= done) ? game.guesses[r] : null;
        const current = game && !game.over && r === game.guesses.length && done < 0;
        board.append(el("div", { class: "tile-row", role: "row" }, Array.from({ length: length() }, (_, c) => {
          const letter = guess ? guess.word[c] : current ? typed[c] || "" : "";
          const state = guess ? STATE[guess.marks[b][c]] : current && typed[c] ? "tbd" : "empty";
          return el("div", { class: "tile", role: "gridcell", "data-state": state }, letter);
        })));
      }
      return board;
    }));
    const left = game ? game.rows - game.guesses.length : 0;
    $("boards-status").textContent = !game ? "" : [NAMES[count], game.hard ? "Hard mode" : null,
      game.daily ? `Daily ${game.daily.number}` : null,
      game.over ? null : `${left} ${left === 1 ? "guess" : "guesses"} left`].filter(Boolean).join(" \u00b7 ");
    hardBox.disabled = Boolean(game && game.guesses.length && !game.over); // the mode is chosen before the first guess
    const result = $("boards-result");
    result.hidden = !(game && game.over);
    if (!result.hidden) {
      const all = game.targets.every((_, b) => solved(b));
      $("boards-result-text").textContent = all ? `All ${count} words in ${game.guesses.length}!`
        : `The words were ${game.targets.join(", ")}.`;
      showAll($("boards-share-text"), shareText());
    }
    renderKeys();
    fit();
  }

  function shareText() {
    const scores = game.targets.map((_, b) => {
      const at = game.guesses.findIndex((g) => won(g.marks[b]));
      return at < 0 ? "X" : String(at + 1);
    });
    const letters = length() === 5 ? "" : `(${length()} letters) `;
    const head = `${NAMES[count]} ${letters}${game.daily ? `${game.daily.number} ` : ""}${scores.join("&")}/${game.rows}`
      + (game.hard ? "*" : ""); // "Dordle 1 3&2/7*" in hard mode, as the CLI shares it
    const grids = game.targets.map((_, b) => game.guesses.filter((g) => g.marks[b])
      .map((g) => [...g.marks[b]].map((m) => SQUARES[m]).join("")).join("\n"));
    return [head, "", ...grids.flatMap((rows, b) => (b ? ["", rows] : [rows]))].join("\n");
  }

  // The review of the game just played: each board's table, the solver's game for the same words, the summary.
  const reviewing = reviewPanel(reviewButton, reviewBox, loadBoardsReview);

  function clearReview() {
    reviewing.clear();
  }

  function review() {
    if (!game || !game.over || !game.guesses.length) return;
    const body = { boards: game.targets.length, variant: variant(), answers: game.targets,
      guesses: game.guesses.map((g) => g.word) };
    reviewing.run(body);
  }

  function begin(targets, rows, daily = null) {
    game = { targets: targets.map((t) => String(t).toUpperCase()), length: wordLength(), hard: hardBox.checked,
      rows, guesses: [], over: false, daily };
    typed = "";
    clearReview();
    saveJSON(gameKey(count), game);
    say("");
    showHint("");
    render();
  }

  async function newRandom() {
    try {
      const data = await api("GET", `/api/boards/random?boards=${count}&variant=${wordleVariant(false, wordLength())}`);
      begin(data.targets, data.guesses);
    } catch (error) {
      say(error.message);
    }
  }

  async function newDaily() {
    const date = dailyDate();
    if (game && game.daily && game.daily.date === date && length() === wordLength()) {
      render();
      if (game.over) say(dailyPlayed(NAMES[count], date, game.daily.number));
      return;
    }
    try {
      const data = await api("GET", `/api/daily?game=wordle&variant=${wordleVariant(false, wordLength())}`
        + `&boards=${count}&date=${date}`);
      begin(data.targets, data.guesses, { date: data.date, number: data.number });
    } catch (error) {
      say(error.message);
    }
  }

  async function hint() {
    if (!game || game.over) return;
    const history = game.guesses.map((g) => ({ guess: g.word, feedback: g.marks }));
    try {
      const data = await api("POST", "/api/boards/next", { boards: count, variant: variant(), history, candidates: 0 });
      showHint(`The solver would play ${data.guess} (answers left: ${data.remaining.join(", ")})`
        + (data.busy ? "; a quick answer, the server being busy: ask again for its look-ahead" : ""));
    } catch (error) {
      showHint(error.message);
    }
  }

  async function submit() {
    if (typed.length < length()) {
      say("Not enough letters");
      return;
    }
    busy = true;
    try {
      // A word not in the list is answered 200 by /api/check: no failed request in the browser's log.
      const check = await api("POST", "/api/check", { game: "wordle", variant: variant(), guess: typed });
      if (!check.valid) {
        say(check.message);
        return;
      }
      // Every board's answer and the guesses so far: the service refuses a guess hard mode forbids (422 naming
      // `guess`, with each board's reason) and gives no feedback (null) on a board already solved.
      const data = await api("POST", "/api/boards/feedback", { variant: variant(), targets: game.targets, guess: typed,
        history: game.guesses.map((g) => g.word) });
      const marks = data.feedback.map((f, b) => (f === null || solved(b) ? null : String(f).toUpperCase()));
      game.guesses.push({ word: typed, marks });
      typed = "";
      showHint("");
      const allSolved = game.targets.every((_, b) => solved(b));
      game.over = allSolved || game.guesses.length >= game.rows;
      saveJSON(gameKey(count), game);
      render();
      if (game.over) say(allSolved ? "Splendid" : "Better luck next time");
    } catch (error) {
      say(error.message);
    } finally {
      busy = false;
    }
  }

  function press(key) {
    if (!game || game.over || busy) return;
    if (key === "Enter") return submit();
    if (key === "Backspace") typed = typed.slice(0, -1);
    else if (/^[A-Z]$/.test(key) && typed.length < length()) typed += key;
    render();
  }

  // each letter's key holds one part per board (renderKeys), under its label
  const keys = buildKeyboard($("boards-keyboard"), press, (key) => [
    key.length === 1 ? el("span", { class: "key-parts", "aria-hidden": "true" }) : null,
    el("span", { class: "key-label" }, keyLabel(key))]);

  document.addEventListener("keydown", (event) => {
    if (!active || count === 1 || !on || document.querySelector("dialog[open]")) return;
    const key = pressedKey(event);
    if (!key) return;
    event.preventDefault();
    press(key);
  });

  let on = false; // Dordle or Quordle on show (not the single board, not the hider)

  /** Show the game chosen in the play tab's list: one board, 2 or 4 boards, or the hider (`MODES`); tells
   * play.js and hider.js with a "playmode" event. */
  function choose(value) {
    const mode = MODES.includes(String(value)) ? String(value) : "1";
    count = ["2", "4"].includes(mode) ? Number(mode) : 1;
    on = count > 1;
    select.value = mode;
    saveJSON(CHOICE_KEY, mode);
    document.body.dataset.boards = mode;
    $("play-single").hidden = mode !== "1";
    $("boards-area").hidden = !on;
    $("hider-area").hidden = !["hide", "challenge"].includes(mode);
    document.dispatchEvent(new CustomEvent("playmode", { detail: mode }));
    if (!on) return;
    renew();
  }

  /** The saved game of this many boards and letters, else a new one when the tab is on show. */
  function renew() {
    $("boards-lede").textContent = `Guess ${count} ${lettersWord(wordLength())} words at once in ${count + 5} tries: `
      + "each guess counts on every board.";
    const saved = loadJSON(gameKey(count), null);
    game = saved && Array.isArray(saved.targets) && saved.targets.length === count
      && (saved.length || 5) === wordLength() ? saved : null;
    hardBox.checked = game ? Boolean(game.hard) : Boolean(loadJSON(HARD_KEY, false));
    typed = "";
    clearReview();
    showHint("");
    render();
    if (!game && active) newRandom();
  }

  select.addEventListener("change", () => {
    choose(select.value);
    select.blur(); // typed letters go to the boards, not to the list
  });
  // a click leaves the keys to the boards
  for (const id of ["boards-new", "boards-daily", "boards-hint", "boards-hard"]) {
    $(id).addEventListener("mousedown", (event) => event.preventDefault());
  }
  $("boards-new").addEventListener("click", newRandom);
  $("boards-daily").addEventListener("click", newDaily);
  $("boards-hint").addEventListener("click", hint);
  $("boards-copy").addEventListener("click", () => copyArea($("boards-share-text"), $("boards-copy-status")));
  $("play-length").addEventListener("change", () => {
    if (on && game && length() !== wordLength()) renew();
  });
  reviewButton.addEventListener("click", review);
  hardBox.addEventListener("change", () => { // as on the single board: the game not begun takes it, else the next
    saveJSON(HARD_KEY, hardBox.checked);
    if (game && !game.guesses.length && !game.over) {
      game.hard = hardBox.checked;
      saveJSON(gameKey(count), game);
      render();
    } else if (game && game.over) {
      say(`${hardBox.checked ? "Hard" : "Normal"} mode from the next game`);
    }
  });
  choose(loadJSON(CHOICE_KEY, 1));
  keepFitted(fit, [hintLine, document.querySelector("#boards-area .play-bar"),
    document.querySelector("#boards-area .board-head")]);

  return {
    enter() {
      active = true;
      if (count > 1 && !game) newRandom();
      else fit();
    },
    leave() {
      active = false;
    },
  };
}
