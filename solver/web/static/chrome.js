// The page's frame: the light or dark theme (the system's, or the one chosen with the toggle, kept in
// this browser) and the "How to play" dialog, whose text follows the section and game on show.
import { byId, el, fill, loadJSON, saveJSON } from "./common.js";

const THEME_KEY = "deduce.theme";

const HELP = {
  wordle: ["Wordle", [
    "Guess the hidden five-letter word in six tries. Type a word and press Enter.",
    "Each tile then shows how close it is: green, the right letter in the right place; yellow, in the word "
      + "but elsewhere; grey, not in the word (R in typed marks).",
    "Hard mode: letters revealed must be used in later guesses. Daily: the same word for everyone on the date "
      + "beside the game list (today, or any day back to 19 June 2021, day 0), numbered as the published game.",
    "The letters list plays words of 4 to 9 letters; Hint shows the solver's next guess.",
  ]],
  dordle: ["Dordle", [
    "Two hidden words at once, seven tries. Each guess is scored on both boards; a board is done when you find its word.",
    "Colours as in Wordle: green, right place; yellow, elsewhere in that board's word; grey, not in it.",
  ]],
  quordle: ["Quordle", [
    "Four hidden words at once, nine tries. Each guess is scored on every board still open.",
    "Colours as in Wordle: green, right place; yellow, elsewhere in that board's word; grey, not in it.",
  ]],
  hide: ["The hider", [
    "Like Absurdle: the hider never picks a word. Each guess gets the colours that keep the most answers "
      + "possible, so it dodges as long as it can; the win shows only when your guess is the one word left.",
    "Guesses are unlimited: corner it in as few as you can. Undo takes back the last guess.",
  ]],
  challenge: ["The hider's challenge", [
    "Absurdle's challenge mode: you are given a target word and must force the hider into it.",
    "The hider plays as ever (the colours that keep the most answers), so a guess can rule the target out: "
      + "then the challenge is missed until you undo that guess and try another word.",
  ]],
  coach: ["The Wordle coach", [
    "Playing Wordle somewhere else? Type each guess you made, then its colours: click a tile to cycle grey, "
      + "yellow, green, or type them as G (green), Y (yellow), R (grey).",
    "The coach tells you how many answers are left and the guess that finishes in the fewest guesses on average.",
  ]],
  mastermind: ["Mastermind", [
    "The secret is 4 pegs of 6 colours (written 1 to 6: 1 red, 2 green, 3 blue, 4 yellow, 5 orange, 6 purple); "
      + "colours may repeat.",
    "Each guess is answered with black, the pegs of the right colour in the right place, and white, the pegs "
      + "of a right colour in the wrong place.",
  ]],
  bulls: ["Bulls and Cows", [
    "The secret is 4 different digits, like 0123.",
    "Each guess is answered with bulls, the right digits in the right place, and cows, the right digits elsewhere.",
  ]],
  cards: ["The card game", [
    "The secret is a hand of cards from one deck, written like 2C AS or 2\u2663 A\u2660 (T is ten).",
    "Each guess is a hand of as many cards; the answer counts what it shares with the secret (the fields "
      + "are named on the page).",
  ]],
  battleship: ["Battleship", [
    "Three one-cell ships hide on a board of 4 rows (1-4) and 8 columns (A-H).",
    "Each guess is three shots (click three cells, or type A1 A3 H1). The answer counts the shots that hit a "
      + "ship, the ones a cell from the nearest ship and the ones two cells from it (diagonals count).",
  ]],
  tree: ["The tree explorer", [
    "The solver's whole strategy: the first guess, every feedback it can get, and the guess played after each.",
    "Follow a feedback to go down; the path stays in the address, so a link opens the same node. Off the "
      + "precomputed tree the live solver plays it out.",
  ]],
};

/** The help on show: the section's, or the game chosen in it. */
function helpKey() {
  const tab = location.hash.replace(/^#/, "").split("/")[0] || "play";
  if (tab === "coach") return "coach";
  if (tab === "tree") return "tree";
  if (tab === "games") return (byId("games-select").value || "mastermind").split("/")[0];
  return { 2: "dordle", 4: "quordle", hide: "hide", challenge: "challenge" }[document.body.dataset.boards] || "wordle";
}

function initHelp() {
  const dialog = byId("help");
  const button = byId("help-button");
  button.addEventListener("click", () => {
    const [title, paragraphs] = HELP[helpKey()] || HELP.wordle;
    byId("help-title").textContent = `How to play: ${title}`;
    fill(byId("help-body"), paragraphs.map((text) => el("p", {}, text)));
    if (typeof dialog.showModal === "function") dialog.showModal(); // Escape closes it, focus comes back
    else dialog.setAttribute("open", "");
  });
  dialog.addEventListener("close", () => button.focus());
}

/** The theme: the system's until the toggle is used, then the one chosen (kept in localStorage). */
function initTheme() {
  const root = document.documentElement;
  const toggle = byId("theme-toggle");
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const apply = () => {
    const chosen = loadJSON(THEME_KEY, null);
    if (chosen === "dark" || chosen === "light") root.dataset.theme = chosen;
    else delete root.dataset.theme;
    const dark = chosen ? chosen === "dark" : system.matches;
    toggle.setAttribute("aria-pressed", String(dark));
    toggle.title = dark ? "Dark theme: click for the light one" : "Light theme: click for the dark one";
  };
  toggle.addEventListener("click", () => {
    saveJSON(THEME_KEY, toggle.getAttribute("aria-pressed") === "true" ? "light" : "dark");
    apply();
  });
  system.addEventListener?.("change", apply);
  apply();
}

export function initChrome() {
  initTheme();
  initHelp();
}
