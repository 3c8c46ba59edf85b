// How the other games' guesses look: Mastermind's coloured pegs, cards with suit symbols (red for
// diamonds and hearts), and the 4x8 battleship board to click shots on. Text stays the API's: these
// only draw it, and `typedGuess` turns typed suit symbols back into letters (2♣ -> 2C).
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

/** The battleship board: 4 rows of 8 cells; clicking a third cell calls `onGuess("A1 B2 C3")`. */
export function shotBoard(onGuess) {
  let chosen = [];
  const cells = {};
  const note = el("p", { class: "hint", "aria-live": "polite" }, "Click three cells to shoot.");
  const grid = el("div", { class: "shot-board", role: "group", "aria-label": "Battleship board: click three cells" },
    el("span", {}), [...COLUMNS].map((c) => el("span", { class: "shot-head" }, c)),
    Array.from({ length: ROWS }, (_, r) => [el("span", { class: "shot-head" }, String(r + 1)),
      [...COLUMNS].map((c) => {
        const name = `${c}${r + 1}`;
        const button = el("button", { type: "button", class: "shot-cell", "data-cell": name, "aria-pressed": "false",
          "aria-label": name, onclick: () => toggle(name) });
        cells[name] = button;
        return button;
      })]));

  function render() {
    for (const [name, button] of Object.entries(cells)) button.setAttribute("aria-pressed", String(chosen.includes(name)));
    note.textContent = chosen.length ? `Shots: ${chosen.join(" ")} (${3 - chosen.length} more)` : "Click three cells to shoot.";
  }

  function toggle(name) {
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
    node: el("div", { class: "shot-wrap" }, grid, note),
    clear() { chosen = []; render(); },
    /** Mark the cells shot at in earlier guesses (the feedback counts shots, so no cell is a hit). */
    mark(shots) {
      for (const [name, button] of Object.entries(cells)) button.classList.toggle("shot-before", shots.has(name));
    },
  };
}
