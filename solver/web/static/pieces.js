// How the other games' guesses look: Mastermind's coloured pegs (and the pegs to click a guess with), cards
// with suit symbols (red for diamonds and hearts), and the 4x8 battleship board, to click shots on and to
// see what the answers tell of the cells shot. Text stays the API's: these only draw it, and `typedGuess`
// turns typed suit symbols back into letters (2♣ -> 2C).
import { el } from "./common.js";

export const PEG_NAMES = { 1: "red", 2: "green", 3: "blue", 4: "yellow", 5: "orange", 6: "purple" };
const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_LETTER = Object.fromEntries(Object.entries(SUITS).map(([letter, symbol]) => [symbol, letter]));
export const COLUMNS = "ABCDEFGH";
export const ROWS = 4;

/** A card "QH" as "Q♥" (red for diamonds and hearts), its name for screen readers. */
function card(text) {
  const rank = text.slice(0, -1);
  const suit = text.slice(-1).toUpperCase();
  if (!SUITS[suit]) return el("span", {}, text);
  const rankName = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" }[rank] ?? rank;
  return el("span", { class: `card suit-${SUIT_NAMES[suit]}`, "aria-label": `${rankName} of ${SUIT_NAMES[suit]}`,
    title: text }, rank === "T" ? "10" : rank, SUITS[suit]);
}

/** A guess of `game` drawn for people: pegs, cards or the text itself. */
export function guessView(game, text) {
  const value = String(text ?? "");
  if (game === "mastermind" && /^[1-6]+$/.test(value)) {
    return el("span", { class: "pegs", role: "img", title: value,
      "aria-label": [...value].map((d) => PEG_NAMES[d]).join(", ") },
    [...value].map((d) => el("span", { class: "peg", "data-peg": d }, d)));
  }
  if (game === "cards") {
    const cards = value.split(/\s+/).filter(Boolean);
    return el("span", { class: "cards guess-text", title: value }, cards.map((c, i) => [i ? " " : "", card(c)]));
  }
  return el("span", { class: "guess-text" }, value);
}

/** A typed guess as the API reads it: suit symbols become letters ("A♠ 10♥" -> "AS TH"). */
export function typedGuess(text) {
  return String(text).replace(/10(?=[\u2663\u2666\u2665\u2660\uFE0F])/g, "T")
    .replace(/[\u2663\u2666\u2665\u2660]\uFE0F?/g, (symbol) => SUIT_LETTER[symbol[0]]).trim().toUpperCase();
}

const RESULTS = ["exact", "one", "two", "miss"]; // a shot's distance to the nearest ship: 0, 1, 2, farther
const RESULT_TEXT = { exact: "\u25CF", one: "1", two: "2", miss: "\u00B7", unknown: "?" };
const RESULT_NAME = { exact: "hit", one: "one away", two: "two away", miss: "farther", unknown: "result not known" };

/** What is known of each cell shot in `history` ([{guess: "A1 A3 H1", feedback: [exact, one_away, two_away]}]):
 * a guess's counts say how many of its shots hit, are one away, two away or farther, not which ones; a
 * cell is known once one result is left for it (all its guess's shots alike, or the others known).
 * Returns Map cell -> {result: exact, one, two, miss or unknown, guesses: the numbers of its guesses}. */
export function shotResults(history) {
  const cells = new Map();
  const known = new Map();
  const guesses = history.map(({ guess, feedback }, n) => {
    const shots = String(guess).toUpperCase().split(/[\s-]+/).filter(Boolean);
    for (const name of shots) {
      if (!cells.has(name)) cells.set(name, { result: "unknown", guesses: [] });
      cells.get(name).guesses.push(n + 1);
    }
    const counts = [...feedback].map(Number);
    return { shots, counts: [...counts, shots.length - counts.reduce((a, b) => a + b, 0)] };
  });
  for (let changed = true; changed;) {
    changed = false;
    for (const { shots, counts } of guesses) {
      const left = [...counts]; // the counts of the shots not known yet
      const open = [];
      for (const name of shots) {
        if (known.has(name)) left[RESULTS.indexOf(known.get(name))] -= 1;
        else open.push(name);
      }
      const results = RESULTS.filter((_, i) => left[i] > 0);
      if (open.length && results.length === 1) {
        open.forEach((name) => known.set(name, results[0]));
        changed = true;
      }
    }
  }
  for (const [name, result] of known) cells.get(name).result = result;
  return cells;
}

/** Show on `cell` (named `name`) what is known of it: `info` from `shotResults`, or nothing. */
function markCell(cell, name, info) {
  cell.dataset.result = info ? info.result : "";
  cell.textContent = info ? RESULT_TEXT[info.result] : "";
  const said = info ? `${name}, ${RESULT_NAME[info.result]} (guess ${info.guesses.join(", ")})` : name;
  cell.setAttribute("aria-label", said);
  cell.title = info ? said : "";
}

/** The 4x8 grid with its column and row heads; `cellOf(name)` makes each cell. */
function grid(label, cellOf) {
  return el("div", { class: "shot-board", role: "group", "aria-label": label },
    el("span", {}), [...COLUMNS].map((c) => el("span", { class: "shot-head" }, c)),
    Array.from({ length: ROWS }, (_, r) => [el("span", { class: "shot-head" }, String(r + 1)),
      [...COLUMNS].map((c) => cellOf(`${c}${r + 1}`))]));
}

const legend = () => el("p", { class: "hint shot-legend" },
  RESULTS.concat("unknown").map((r, i) => [i ? " \u00b7 " : "", el("span", { class: "shot-key", "data-result": r },
    RESULT_TEXT[r]), ` ${RESULT_NAME[r]}`]));

/** The battleship board of the solver's guesses: the cells it aims at (`guess`), and what the answers
 * given so far (`history`) tell of the cells shot before. */
export function shotView(history, guess) {
  const aimed = new Set(String(guess ?? "").toUpperCase().split(/[\s-]+/));
  const results = shotResults(history);
  return el("div", { class: "shot-wrap" }, grid("Battleship board: the solver's shots", (name) => {
    const cell = el("span", { class: "shot-cell", "data-cell": name, role: "img", "data-aim": String(aimed.has(name)) });
    markCell(cell, name, results.get(name));
    if (aimed.has(name)) cell.setAttribute("aria-label", `${cell.getAttribute("aria-label")}, the solver's shot now`);
    return cell;
  }), history.length ? legend() : null);
}

/** The battleship board to shoot on: 4 rows of 8 cells; clicking a third cell calls `onGuess("A1 B2 C3")`. */
export function shotBoard(onGuess) {
  let chosen = [];
  let locked = false; // the game is over: the board shows what was learnt, no more shots
  const cells = {};
  const note = el("p", { class: "hint", "aria-live": "polite" }, "Click three cells to shoot.");
  const key = legend();
  const board = grid("Battleship board: click three cells", (name) => {
    const button = el("button", { type: "button", class: "shot-cell", "data-cell": name, "aria-pressed": "false",
      "aria-label": name, onclick: () => toggle(name) });
    cells[name] = button;
    return button;
  });

  function render() {
    for (const [name, button] of Object.entries(cells)) button.setAttribute("aria-pressed", String(chosen.includes(name)));
    note.textContent = chosen.length ? `Shots: ${chosen.join(" ")} (${3 - chosen.length} more)` : "Click three cells to shoot.";
  }

  function toggle(name) {
    if (locked) return;
    chosen = chosen.includes(name) ? chosen.filter((n) => n !== name) : [...chosen, name];
    if (chosen.length === 3) {
      const guess = chosen.join(" ");
      chosen = [];
      render();
      onGuess(guess);
      return;
    }
    render();
  }

  return {
    node: el("div", { class: "shot-wrap" }, board, note, key),
    clear() { chosen = []; render(); },
    lock(on) {
      locked = on;
      note.hidden = on;
    },
    /** Show on the cells shot in `history` (its guesses and their counts) what is known of them (`shotResults`). */
    mark(history) {
      const results = shotResults(history);
      for (const [name, button] of Object.entries(cells)) markCell(button, name, results.get(name));
      key.hidden = !history.length;
    },
  };
}

/** Mastermind's pegs to click: each adds its colour (a digit) to `input`, up to `length` pegs; the last
 * button takes the last peg off. Typing in `input` still works. */
export function pegPicker(input, length) {
  const set = (value) => {
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  return el("div", { class: "peg-picker", role: "group", "aria-label": "Pegs: click one to add its colour to your guess" },
    Object.entries(PEG_NAMES).map(([digit, name]) => el("button", {
      type: "button", class: "peg peg-button", "data-peg": digit, "aria-label": `${name} (${digit})`, title: name,
      onclick: () => {
        const pegs = input.value.replace(/[^1-6]/g, "");
        if (pegs.length < length) set(pegs + digit);
      },
    }, digit)),
    el("button", { type: "button", class: "peg-back", "aria-label": "Take the last peg off", title: "Take the last peg off",
      onclick: () => set(input.value.replace(/[^1-6]/g, "").slice(0, -1)) }, "\u232B"));
}
