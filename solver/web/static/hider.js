// The adversarial hider (`deduce hide`, like Absurdle) on the play tab: it never commits to an answer, each
// guess gets the colours that keep the most answers, and the win shows only when the guess is the one answer
// left; guesses are unlimited. Challenge mode (Absurdle's): a target is drawn and the player must force the
// hider into it; the hider plays as ever, and a guess whose colours rule the target out misses it (undo it and
// try another). The game is its guesses: /api/hide replays them (the hider is deterministic).
import { api, buildKeyboard, byId, el, lettersWord, loadJSON, pressedKey, saveJSON, showAll, toaster, wordLength,
  wordleVariant } from "./common.js";
import { copyArea } from "./stats.js";
import { fitTiles, keepFitted } from "./fit.js";

const STATE = { G: "correct", Y: "present", R: "absent" };
const RANK = { absent: 1, present: 2, correct: 3 };
const STATE_NAME = { correct: "correct", present: "elsewhere", absent: "absent" };
const SQUARES = { G: "\u{1F7E9}", Y: "\u{1F7E8}", R: "\u2B1B" };
const SHOWN_ROWS = 6; // rows on show: the board scrolls past them
const MODES = ["hide", "challenge"];
const gameKey = (mode) => `deduce.hider.${mode}`;

export function initHider() {
  const $ = byId;
  const board = $("hider-board");
  const scroll = $("hider-scroll");
  const keyboard = $("hider-keyboard");
  const toast = $("hider-toast");
  const say = toaster(toast);
  let mode = null; // "hide" or "challenge" when on show
  let game = null; // {mode, length, target, steps: [{guess, feedback, remaining}], missed, won}
  let typed = "";
  let busy = false;
  let active = false;

  const length = () => (game ? game.length : wordLength());
  const variant = () => wordleVariant(false, length());
  const missed = () => Boolean(game && game.missed);
  const over = () => Boolean(game && (game.won || missed()));

  function fit() {
    if (active && mode) fitTiles(scroll, keyboard, { rows: SHOWN_ROWS, cols: length() });
  }

  function render() {
    const steps = game ? game.steps : [];
    const rows = Math.max(SHOWN_ROWS, steps.length + (over() ? 0 : 1));
    board.replaceChildren(...Array.from({ length: rows }, (_, r) => {
      const step = steps[r];
      const current = game && !over() && r === steps.length;
      return el("div", { class: "tile-row", role: "row", "aria-label": `Guess ${r + 1}` },
        Array.from({ length: length() }, (_, c) => {
          const letter = step ? step.guess[c] : current ? typed[c] || "" : "";
          const state = step ? STATE[step.feedback[c]] : current && typed[c] ? "tbd" : "empty";
          return el("div", { class: "tile", role: "gridcell", "data-state": state }, letter);
        }));
    }));
    const best = {};
    for (const { guess, feedback } of steps) {
      [...guess].forEach((letter, i) => {
        const state = STATE[feedback[i]];
        if (!best[letter] || RANK[state] > RANK[best[letter]]) best[letter] = state;
      });
    }
    for (const [key, button] of Object.entries(keys)) {
      button.dataset.state = best[key] || "unused";
      button.setAttribute("aria-label", STATE_NAME[best[key]] ? `${key}, ${STATE_NAME[best[key]]}` : key);
    }
    $("hider-status").textContent = statusText();
    $("hider-undo").disabled = !steps.length;
    const result = $("hider-result");
    result.hidden = !(game && game.won);
    if (!result.hidden) {
      const n = steps.length;
      $("hider-result-text").textContent = game.target
        ? `You forced the hider into ${game.target} in ${n} ${n === 1 ? "guess" : "guesses"}!`
        : `You cornered the hider: ${steps[n - 1].guess} in ${n} ${n === 1 ? "guess" : "guesses"}!`;
      showAll($("hider-share-text"), shareText());
    }
    fit();
    const current = board.children[Math.min(steps.length, board.children.length - 1)];
    if (current) scroll.scrollTop = current.offsetTop + current.offsetHeight - scroll.clientHeight;
  }

  function statusText() {
    if (!game) return "";
    const left = game.steps.length ? game.steps[game.steps.length - 1].remaining : null;
    const words = left === null ? "" : `${left} ${left === 1 ? "answer" : "answers"} still possible`;
    if (!game.target) return [words, game.won ? null : `guess ${game.steps.length + 1}`].filter(Boolean).join(" \u00b7 ");
    if (game.missed) {
      return `Missed: guess ${game.missed} ruled ${game.target} out. Undo it and try another word.`;
    }
    return [`Target ${game.target}`, words && `${words}, ${game.target} among them`,
      game.won ? null : `guess ${game.steps.length + 1}`].filter(Boolean).join(" \u00b7 ");
  }

  function shareText() {
    const rows = game.steps.map((step) => [...step.feedback].map((m) => SQUARES[m]).join(""));
    const letters = length() === 5 ? "" : ` (${length()} letters)`;
    return [`Hider${game.target ? " challenge" : ""}${letters} ${game.steps.length}/\u221e`, "", ...rows].join("\n");
  }

  function save() {
    if (game) saveJSON(gameKey(game.mode), game);
  }

  function lede() {
    $("hider-lede").textContent = mode === "challenge"
      ? `Force the hider into the target ${lettersWord(length())} word: it plays as ever, so a guess whose colours `
        + "rule the target out misses it (undo that guess). Guesses are unlimited."
      : `The hider never picks a ${lettersWord(length())} word: each guess gets the colours that leave the most `
        + "answers. Corner it until one word is left, and guess it. Guesses are unlimited.";
  }

  async function begin() {
    const chosen = mode;
    const next = { mode: chosen, length: wordLength(), target: null, steps: [], missed: null, won: false };
    if (chosen === "challenge") {
      try {
        next.target = String((await api("GET", `/api/random?game=wordle&variant=${wordleVariant(false,
          next.length)}`)).target).toUpperCase();
      } catch (error) {
        say(error.message);
        return;
      }
      if (mode !== chosen) return;
    }
    game = next;
    typed = "";
    say("");
    save();
    lede();
    render();
  }

  async function submit() {
    if (typed.length < length()) {
      say("Not enough letters");
      return;
    }
    busy = true;
    const asked = game;
    try {
      // A word not in the list is answered 200 by /api/check: no failed request in the browser's log.
      const check = await api("POST", "/api/check", { game: "wordle", variant: variant(), guess: typed });
      if (!check.valid) {
        say(check.message);
        return;
      }
      const guesses = [...game.steps.map((step) => step.guess), typed];
      const data = await api("POST", "/api/hide", { game: "wordle", variant: variant(), guesses,
        target: game.target });
      if (game !== asked) return;
      game.steps = data.steps;
      game.won = data.won;
      game.missed = data.missed;
      typed = "";
      save();
      render();
      if (game.missed) say(`${game.target} is ruled out`);
      else if (game.won) say(game.target ? "Challenge met" : "Cornered");
    } catch (error) {
      say(error.message);
    } finally {
      busy = false;
    }
  }

  function undo() {
    if (!game || !game.steps.length || busy) return;
    game.steps.pop();
    if (game.missed && game.missed > game.steps.length) game.missed = null;
    game.won = false;
    typed = "";
    save();
    render();
  }

  function press(key) {
    if (!game || busy) return;
    if (over()) {
      if (missed()) say("Undo the guess that ruled the target out");
      return;
    }
    if (key === "Enter") return submit();
    if (key === "Backspace") typed = typed.slice(0, -1);
    else if (/^[A-Z]$/.test(key) && typed.length < length()) typed += key;
    render();
  }

  const keys = buildKeyboard(keyboard, press);

  document.addEventListener("keydown", (event) => {
    if (!active || !mode || document.querySelector("dialog[open]")) return;
    const key = pressedKey(event);
    if (!key) return;
    event.preventDefault();
    press(key);
  });

  /** The saved game of this mode and word length, else a new one. */
  function show() {
    const saved = loadJSON(gameKey(mode), null);
    game = saved && Array.isArray(saved.steps) && saved.length === wordLength() ? saved : null;
    typed = "";
    lede();
    render();
    if (!game && active) begin();
  }

  document.addEventListener("playmode", (event) => { // the game chosen in the play tab's list (boards.js)
    mode = MODES.includes(event.detail) ? event.detail : null;
    if (mode) show();
  });
  for (const id of ["hider-new", "hider-undo"]) { // a click leaves the keys to the board
    $(id).addEventListener("mousedown", (event) => event.preventDefault());
  }
  $("hider-new").addEventListener("click", begin);
  $("hider-undo").addEventListener("click", undo);
  $("hider-copy").addEventListener("click", () => copyArea($("hider-share-text"), $("hider-copy-status")));
  $("play-length").addEventListener("change", () => {
    if (mode && active && game && game.length !== wordLength()) show();
  });
  keepFitted(fit, [document.querySelector("#hider-area .play-bar"), document.querySelector("#hider-area .board-head")]);

  return {
    enter() {
      active = true;
      if (!mode) return;
      if (!game) begin();
      else render();
    },
    leave() {
      active = false;
    },
  };
}
