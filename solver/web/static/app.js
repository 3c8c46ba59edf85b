// The page's entry point: tabs (kept in the URL hash), the shared list of games, and the sections.
import { api, el, show } from "./common.js";
import { initPlay } from "./play.js";
import { initCoach } from "./coach.js";
import { initGames } from "./games.js";
import { initTree } from "./tree.js";
import { initChrome } from "./chrome.js";
import { initBoards } from "./boards.js";

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
  const wordle = initPlay(games);
  const boards = initBoards(); // Dordle and Quordle share the play tab
  sections.play = {
    enter(rest) { wordle.enter(rest); boards.enter(); },
    leave() { wordle.leave(); boards.leave(); },
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
