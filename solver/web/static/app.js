// The page's entry point: tabs (kept in the URL hash), the shared list of games, and the sections.
import { api, byId, el, FIRST_DAILY, LENGTHS, loadJSON, saveJSON, show, today } from "./common.js";
import { initPlay } from "./play.js";
import { initCoach } from "./coach.js";
import { initGames } from "./games.js";
import { initTree } from "./tree.js";
import { initChrome } from "./chrome.js";
import { initBoards } from "./boards.js";
import { initHider } from "./hider.js";

const LENGTH_KEY = "deduce.length";

const TABS = ["play", "coach", "games", "tree"];
const sections = {};
const lastHash = {}; // each tab's last address (the tree explorer's path), restored by its tab button
let current = null;

function parseHash() {
  const raw = location.hash.replace(/^#/, "");
  const [tab, ...rest] = raw.split("/");
  return { tab: TABS.includes(tab) ? tab : "play", rest };
}

function route() {
  const { tab, rest } = parseHash();
  if (location.hash) lastHash[tab] = location.hash;
  for (const name of TABS) {
    const button = document.getElementById(`tab-${name}`);
    const on = name === tab;
    button.setAttribute("aria-selected", String(on));
    button.tabIndex = on ? 0 : -1;
    show(document.getElementById(`panel-${name}`), on);
  }
  if (current !== tab && sections[current]?.leave) sections[current].leave();
  current = tab;
  sections[tab]?.enter?.(rest);
}

function initTabs() {
  const buttons = TABS.map((name) => document.getElementById(`tab-${name}`));
  buttons.forEach((button, i) => {
    button.addEventListener("click", () => {
      const { tab } = parseHash();
      const name = button.dataset.tab;
      if (tab !== name || !location.hash) location.hash = lastHash[name] || name;
    });
    // Arrow keys move between tabs, as in every tab list.
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const next = buttons[(i + step + buttons.length) % buttons.length];
      next.focus();
      next.click();
    });
  });
}

/** The play tab's word length (kept in this browser) and the daily puzzle's date (today, or any day since
 * puzzle 0). */
function initChoices() {
  const length = byId("play-length");
  const saved = Number(loadJSON(LENGTH_KEY, 5));
  length.value = String(LENGTHS.includes(saved) ? saved : 5);
  length.addEventListener("change", () => {
    saveJSON(LENGTH_KEY, Number(length.value));
    length.blur(); // typed letters go to the board, not to the list
  });
  const date = byId("play-date");
  date.min = FIRST_DAILY;
  date.max = today();
  date.value = today();
}

async function main() {
  initChrome();
  initTabs();
  let games = [];
  try {
    games = (await api("GET", "/api/games")).games;
  } catch (error) {
    const banner = document.getElementById("offline");
    banner.textContent = `The solver service does not answer (${error.message}). Is "deduce serve" running?`;
    banner.hidden = false;
  }
  initChoices();
  const wordle = initPlay(games);
  const hider = initHider(); // the hider, Dordle and Quordle share the play tab
  const boards = initBoards(); // last: it shows the game chosen in the list
  sections.play = {
    enter(rest) { wordle.enter(rest); hider.enter(); boards.enter(); },
    leave() { wordle.leave(); hider.leave(); boards.leave(); },
  };
  sections.coach = initCoach(games);
  sections.games = initGames(games);
  sections.tree = initTree(games);
  window.addEventListener("hashchange", route);
  route();
  document.body.dataset.ready = "true";
}

main();
// Not used by the page: handy in the browser console.
window.deduce = { api, el };
