// Wordle, play: the board (words of 4 to 9 letters), the on-screen keyboard, the solver's hint, statistics,
// the share grid and the game's review; the daily puzzle of any date.
import { api, buildKeyboard, byId, dailyDate, dailyPlayed, el, lettersWord, loadJSON, loadReview, pressedKey,
  reviewPanel, saveJSON, showAll, toaster, wordLength, wordleVariant } from "./common.js";
import { copyArea, recordGame, showStats } from "./stats.js";
import { fitTiles, keepFitted } from "./fit.js";

const ROWS = 6;
const STATE = { G: "correct", Y: "present", R: "absent" };
const RANK = { absent: 1, present: 2, correct: 3 };
const SQUARES = { G: "\u{1F7E9}", Y: "\u{1F7E8}", R: "\u2B1B" };
const CONTRAST_SQUARES = { G: "\u{1F7E7}", Y: "\u{1F7E6}", R: "\u2B1B" };
const PRAISE = ["Genius", "Magnificent", "Impressive", "Splendid", "Great", "Phew"];
const GAME_KEY = "deduce.wordle.game";
const CONTRAST_KEY = "deduce.wordle.contrast";
const HARD_KEY = "deduce.wordle.hard";

export function initPlay() {
  const $ = byId;
  const board = $("play-board");
  const keyboard = $("play-keyboard");
  const toast = $("play-toast");
  const say = toaster(toast);
  const status = $("play-status");
  const hardBox = $("play-hard");
  const contrastBox = $("play-contrast");
  const dialog = $("play-stats");
  const reviewBox = $("play-review");
  const reviewButton = $("play-review-button");
  let game = null; // {answer, length, hard, guesses: [{word, marks}], over, won, counted}
  let typed = "";
  let LENGTH = 5; // letters of the board's words
  let busy = false;
  let active = false;

  // ------------------------------------------------------------------ board and keyboard
  const tiles = [];
  board.tabIndex = -1;
  /** Build the board's rows for words of `length` letters. */
  function build(length) {
    LENGTH = length;
    tiles.length = 0;
    board.replaceChildren();
    for (let r = 0; r < ROWS; r++) {
      const row = el("div", { class: "tile-row", role: "row", "aria-label": `Guess ${r + 1}` });
      tiles.push([]);
      for (let c = 0; c < LENGTH; c++) {
        const tile = el("div", { class: "tile", role: "gridcell", "data-state": "empty" });
        tiles[r].push(tile);
        row.append(tile);
      }
      board.append(row);
    }
    $("play-secret").maxLength = LENGTH;
    $("play-secret").minLength = LENGTH;
    $("play-secret").placeholder = `${LENGTH} letters`;
    document.querySelector("#play-single .lede").textContent = `Guess the ${lettersWord(LENGTH)} word in six tries. `
      + "Type on your keyboard or tap the keys below.";
  }
  build(5);
  const keys = buildKeyboard(keyboard, (key) => press(key));

  function rowMarks(r) {
    return game && game.guesses[r] ? game.guesses[r] : null;
  }

  function render(animateRow = -1) {
    const length = game ? game.length || 5 : wordLength();
    if (length !== LENGTH) build(length);
    for (let r = 0; r < ROWS; r++) {
      const done = rowMarks(r);
      const current = game && !game.over && r === game.guesses.length;
      for (let c = 0; c < LENGTH; c++) {
        const tile = tiles[r][c];
        let letter = "";
        let state = "empty";
        if (done) {
          letter = done.word[c];
          state = STATE[done.marks[c]];
        } else if (current && c < typed.length) {
          letter = typed[c];
          state = "tbd";
        }
        tile.textContent = letter;
        tile.dataset.state = state;
        const name = { correct: "correct", present: "in the word, elsewhere", absent: "not in the word" }[state];
        tile.setAttribute("aria-label", letter ? (name ? `${letter}, ${name}` : letter) : "empty");
        if (r === animateRow) {
          tile.classList.remove("flip");
          void tile.offsetWidth; // restart the animation
          tile.style.animationDelay = `${c * 90}ms`;
          tile.classList.add("flip");
        }
      }
    }
    // Keyboard: the best mark each letter received (green > yellow > grey).
    const best = {};
    for (const { word, marks } of game ? game.guesses : []) {
      [...word].forEach((ch, i) => {
        const state = STATE[marks[i]];
        if (!best[ch] || RANK[state] > RANK[best[ch]]) best[ch] = state;
      });
    }
    for (const [key, button] of Object.entries(keys)) {
      if (key.length === 1) {
        button.dataset.state = best[key] || "unused";
        const name = { correct: "correct", present: "elsewhere", absent: "absent" }[best[key]];
        button.setAttribute("aria-label", name ? `${key}, ${name}` : key);
      }
    }
    hardBox.disabled = Boolean(game && game.guesses.length && !game.over);
    const bits = [];
    if (game) {
      bits.push(game.hard ? "Hard mode" : "Normal mode");
      if (game.chosen) bits.push("answer chosen by a friend");
      if (game.daily) bits.push(`Daily ${game.daily.number}`);
      if (!game.over) bits.push(`guess ${game.guesses.length + 1} of ${ROWS}`);
    }
    status.textContent = bits.join(" · ");
    $("play-hint").disabled = !game || game.over;
    renderResult();
    fit();
  }

  /** The tiles sized so that the board, the hint line and the keyboard fit the window. */
  function fit() {
    if (active) fitTiles(board, keyboard, { rows: ROWS, cols: LENGTH });
  }

  /** The solver's hint, under the board until the next guess. */
  function showHint(message) {
    const line = $("play-hint-text");
    line.textContent = message;
    line.hidden = !message;
    fit();
  }

  async function hint() {
    if (!game || game.over) return;
    const asked = game;
    const turn = game.guesses.length;
    try {
      const data = await api("POST", "/api/next", { game: "wordle", variant: variant(), history: history(), top: 0,
        candidates: 0 });
      if (game !== asked || game.guesses.length !== turn) return; // a guess or a new game since
      showHint(`The solver would play ${data.guess} (answers left: ${data.remaining})`);
    } catch (error) {
      showHint(error.message);
    }
  }


  function shake() {
    if (!game) return;
    const row = board.children[game.guesses.length];
    row.classList.remove("shake");
    void row.offsetWidth;
    row.classList.add("shake");
  }

  // ------------------------------------------------------------------ playing
  function variant() {
    return wordleVariant(Boolean(game && game.hard), game ? game.length || 5 : wordLength());
  }

  function save() {
    saveJSON(GAME_KEY, game);
  }

  function history() {
    return game.guesses.map(({ word, marks }) => ({ guess: word, feedback: marks }));
  }

  function begin(answer, chosen, daily = null) {
    game = { answer, length: wordLength(), hard: hardBox.checked, guesses: [], over: false, won: false, counted: false,
      chosen, daily };
    typed = "";
    clearReview();
    showHint("");
    say("");
    save();
    render();
    board.focus({ preventScroll: true });
  }

  async function newRandom() {
    try {
      const { target } = await api("GET", `/api/random?game=wordle&variant=${wordleVariant(false, wordLength())}`);
      begin(String(target).toUpperCase(), false);
    } catch (error) {
      say(error.message, true);
    }
  }

  /** The daily puzzle of the date chosen, today unless changed (the same word for everyone on that date:
   * /api/daily); kept when already begun. */
  async function newDaily() {
    const date = dailyDate();
    const length = wordLength();
    if (game && game.daily && game.daily.date === date && (game.length || 5) === length) {
      render();
      say(game.over ? dailyPlayed("puzzle", date, game.daily.number) : "");
      return;
    }
    try {
      const data = await api("GET", `/api/daily?game=wordle&variant=${wordleVariant(false, length)}&date=${date}`);
      begin(String(data.targets[0]).toUpperCase(), false, { date: data.date, number: data.number });
    } catch (error) {
      say(error.message, true);
    }
  }

  async function press(key) {
    if (!game || busy) return;
    if (game.over) return;
    if (key === "Enter") return submit();
    if (!toast.hidden && toast.dataset.sticky !== "true") say("");
    if (key === "Backspace") typed = typed.slice(0, -1);
    else if (/^[A-Z]$/.test(key) && typed.length < LENGTH) typed += key;
    render();
  }

  async function submit() {
    if (typed.length < LENGTH) {
      say("Not enough letters");
      shake();
      return;
    }
    busy = true;
    try {
      // A word the game refuses (not in the list, against hard mode) is answered 200 by /api/check, so
      // the browser logs no failed request for it.
      const request = { game: "wordle", variant: variant(), guess: typed, history: history() };
      const check = await api("POST", "/api/check", request);
      if (!check.valid) {
        say(check.message);
        shake();
        return;
      }
      const result = await api("POST", "/api/feedback", { ...request, target: game.answer });
      const marks = String(result.feedback).toUpperCase();
      game.guesses.push({ word: typed, marks });
      typed = "";
      showHint("");
      const won = Boolean(result.win) || marks === "G".repeat(LENGTH);
      if (won || game.guesses.length >= ROWS) finish(won);
      save();
      render(game.guesses.length - 1);
      if (game.over) {
        say(won ? PRAISE[game.guesses.length - 1] : game.answer);
        $("play-result").scrollIntoView({ block: "nearest", behavior: "smooth" });
      }
    } catch (error) {
      say(error.message);
      shake();
    } finally {
      busy = false;
    }
  }

  function finish(won) {
    game.over = true;
    game.won = won;
    if (game.counted) return;
    game.counted = true;
    recordGame(won, game.guesses.length);
    renderStats();
  }

  // ------------------------------------------------------------------ result, share, statistics
  function shareText() {
    const squares = contrastBox.checked ? CONTRAST_SQUARES : SQUARES;
    const score = game.won ? game.guesses.length : "X";
    const rows = game.guesses.map(({ marks }) => [...marks].map((m) => squares[m]).join(""));
    const number = game.daily ? `${game.daily.number} ` : ""; // "Wordle 926 4/6": the daily puzzle's number
    const letters = (game.length || 5) === 5 ? "" : `(${game.length} letters) `;
    return [`Wordle ${letters}${number}${score}/${ROWS}${game.hard ? "*" : ""}`, "", ...rows].join("\n");
  }

  function renderResult() {
    const box = $("play-result");
    box.hidden = !(game && game.over);
    if (box.hidden) return;
    $("play-result-text").textContent = game.won
      ? `${PRAISE[game.guesses.length - 1]}! You found ${game.answer} in ${game.guesses.length}.`
      : `The answer was ${game.answer}.`;
    showAll($("play-share-text"), shareText());
  }

  function renderStats() {
    showStats(ROWS, game && game.over && game.won ? String(game.guesses.length) : null);
  }

  function openStats() {
    renderStats();
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }

  function copyShare() {
    return copyArea($("play-share-text"), $("play-copy-status"));
  }

  // ------------------------------------------------------------------ the review of the game just played
  const reviewing = reviewPanel(reviewButton, reviewBox, loadReview);

  function clearReview() {
    reviewing.clear();
  }

  function review() {
    if (!game || !game.over || !game.guesses.length) return;
    const body = { game: "wordle", variant: variant(), history: history() };
    reviewing.run(body);
  }

  // ------------------------------------------------------------------ events
  function applyContrast() {
    document.body.classList.toggle("contrast", contrastBox.checked);
    saveJSON(CONTRAST_KEY, contrastBox.checked);
    renderResult();
  }

  contrastBox.checked = Boolean(loadJSON(CONTRAST_KEY, false));
  document.body.classList.toggle("contrast", contrastBox.checked);
  contrastBox.addEventListener("change", applyContrast);
  hardBox.checked = Boolean(loadJSON(HARD_KEY, false));
  hardBox.addEventListener("change", () => {
    saveJSON(HARD_KEY, hardBox.checked);
    if (game && !game.guesses.length) {
      game.hard = hardBox.checked;
      save();
      render();
    } else if (game && game.over) {
      say(`${hardBox.checked ? "Hard" : "Normal"} mode from the next game`);
    }
  });
  $("play-new").addEventListener("click", newRandom);
  $("play-daily").addEventListener("click", newDaily);
  $("play-hint").addEventListener("click", hint);
  document.addEventListener("playmode", (event) => { // the game chosen in the play tab's list (boards.js)
    if (event.detail !== "1" || !active) return;
    if (!game || (game.length || 5) !== wordLength()) newRandom();
    else render();
  });
  $("play-length").addEventListener("change", () => {
    if (active && document.body.dataset.boards === "1" && game && (game.length || 5) !== wordLength()) newRandom();
  });
  $("play-again").addEventListener("click", newRandom);
  $("play-stats-button").addEventListener("click", openStats);
  $("play-result-stats").addEventListener("click", openStats);
  $("play-copy").addEventListener("click", copyShare);
  reviewButton.addEventListener("click", review);
  $("play-choose").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("play-secret");
    const word = input.value.trim().toUpperCase();
    const length = wordLength();
    if (!new RegExp(`^[A-Z]{${length}}$`).test(word)) {
      say(`The answer must be ${length} letters`);
      return;
    }
    // The service checks the word: it must be one of the answers.
    try {
      const check = await api("POST", "/api/check", { game: "wordle", variant: wordleVariant(false, length),
        target: word, guess: word });
      if (!check.valid) {
        say(`${word} cannot be the answer: ${check.message}`);
        return;
      }
    } catch (error) {
      say(`${word} cannot be the answer: ${error.message}`);
      return;
    }
    input.value = "";
    $("play-options").open = false;
    begin(word, true);
  });

  document.addEventListener("keydown", (event) => {
    if (!active || document.querySelector("dialog[open]")) return;
    if ((document.body.dataset.boards || "1") !== "1") return; // Dordle, Quordle or the hider takes the keys
    const key = pressedKey(event);
    if (!key) return;
    event.preventDefault();
    press(key);
  });

  // Restore a game in progress (or the last one played).
  const saved = loadJSON(GAME_KEY, null);
  if (saved && typeof saved.answer === "string" && Array.isArray(saved.guesses)
      && (saved.length || 5) === saved.answer.length) {
    game = saved;
    hardBox.checked = Boolean(saved.hard);
  }
  renderStats();
  render();
  keepFitted(fit, [$("play-hint-text"), document.querySelector("#play-single .play-bar"), $("play-options"),
    document.querySelector("#play-single .board-head"), document.querySelector(".boards-choice")]);

  return {
    enter() {
      active = true;
      if (document.body.dataset.boards !== "1") return;
      if (!game || (game.length || 5) !== wordLength()) newRandom();
      else render();
    },
    leave() {
      active = false;
    },
  };
}
