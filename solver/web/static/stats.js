// Wordle's statistics (kept in this browser), the copy button of a share text, and today's date.
import { barChart, byId, loadJSON, saveJSON } from "./common.js";

const STATS_KEY = "deduce.wordle.stats";

/** Today's date where the player is, YYYY-MM-DD: the day of the daily puzzle. */
export function localDate(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function loadStats() {
  const stats = loadJSON(STATS_KEY, null);
  const fresh = { played: 0, won: 0, current: 0, max: 0, dist: {}, last: null };
  return stats && typeof stats === "object" ? { ...fresh, ...stats } : fresh;
}

/** Count a finished game: won in `guesses`, or lost. */
export function recordGame(won, guesses) {
  const stats = loadStats();
  stats.played += 1;
  if (won) {
    stats.won += 1;
    stats.current += 1;
    stats.max = Math.max(stats.max, stats.current);
    stats.dist[guesses] = (stats.dist[guesses] || 0) + 1;
    stats.last = guesses;
  } else {
    stats.current = 0;
    stats.last = null;
  }
  saveJSON(STATS_KEY, stats);
}

/** Fill the statistics dialog: the four figures and the distribution of 1..`rows` guesses. */
export function showStats(rows, highlight) {
  const stats = loadStats();
  byId("stat-played").textContent = stats.played;
  byId("stat-win").textContent = stats.played ? Math.round((100 * stats.won) / stats.played) : 0;
  byId("stat-streak").textContent = stats.current;
  byId("stat-max").textContent = stats.max;
  const dist = [];
  for (let n = 1; n <= rows; n++) dist.push([String(n), stats.dist[n] || 0]);
  barChart(byId("play-dist"), dist, highlight);
}

/** Copy a textarea's text to the clipboard, else select it and say how to copy; `note` says which. */
export async function copyArea(area, note) {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(area.value);
    note.textContent = "Copied to the clipboard";
  } catch (error) {
    area.focus();
    area.select();
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (ignored) {
      copied = false;
    }
    note.textContent = copied ? "Copied to the clipboard" : "Selected: press Ctrl+C (or Cmd+C) to copy";
  }
}
