// Helpers shared by the sections: the JSON API, safe DOM building (text only, never HTML), storage.

export class ApiError extends Error {
  constructor(message, field = null, status = 0) {
    super(message);
    this.field = field;
    this.status = status;
  }
}

/** Call the JSON API; resolve with the parsed body, or reject with an ApiError carrying the server's message. */
export async function api(method, url, body) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError("cannot reach the solver service", null, 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const detail = data && (data.error || data.detail);
    let message = `the service answered ${response.status}`;
    let field = null;
    if (detail && typeof detail === "object" && !Array.isArray(detail)) {
      message = detail.message || message;
      field = detail.field ?? null;
    } else if (typeof detail === "string") {
      message = detail;
    } else if (Array.isArray(detail) && detail[0]?.msg) {
      message = detail[0].msg;
    }
    throw new ApiError(message, field, response.status);
  }
  return data;
}

/** Build an element: el("p", {class: "x", onclick: f}, "text", child, ...). Strings become text nodes. */
/** Return the element with this id. */
export const byId = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace a node's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

export function show(node, on = true) {
  node.hidden = !on;
}

/** Show a message in an error paragraph (hidden when empty). */
export function setError(node, message) {
  node.textContent = message || "";
  node.hidden = !message;
}

export function loadJSON(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch (error) {
    return fallback;
  }
}

export function saveJSON(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    // private mode or full storage: the page still works, it only forgets
  }
}

export function number(value, digits = 3) {
  if (value === null || value === undefined) return "–";
  if (digits !== 3) return Number(value).toFixed(digits);
  if (Number.isInteger(value)) return value.toLocaleString("en");
  return Number(value).toFixed(digits);
}

/** How each kind of value is marked: plain when proven, "~" approximate, "\u2265" a lower bound, "\u2248" an estimate. */
const KIND_MARK = { approximate: "~", bound: "\u2265", estimate: "\u2248" };

/** Guesses to go of a ranked guess, marked by its kind (KIND_MARK); blank unrated. */
export function toGoText(alt) {
  if (alt.to_go === null || alt.to_go === undefined) return "";
  const mark = KIND_MARK[alt.to_go_kind] ?? "";
  return mark + Number(alt.to_go).toFixed(3);
}

/** Cost of a reviewed guess (/api/review): "0", "0.351", "~0.004" not proven, "\u22650.0004" at least, "?" unknown. */
export function costText(g) {
  if (g.cost === null || g.cost === undefined || !g.cost_kind) return "?";
  if (g.cost === 0 && g.cost_kind === "proven") return "0";
  const digits = g.cost > 0 && g.cost < 0.01 ? 4 : 3;
  return (KIND_MARK[g.cost_kind] ?? "") + Number(g.cost).toFixed(digits);
}

const MARK_STATE = { G: "correct", Y: "present", R: "absent" };
const MARK_WORD = { G: "green", Y: "yellow", R: "grey" };

/** A reviewed guess's feedback: Wordle marks as small tiles of the guess's letters, else the fields' text. */
function reviewFeedback(g, names) {
  const marks = g.feedback;
  if (typeof marks === "string" && /^[GYR]+$/.test(marks) && marks.length === g.guess.length) {
    return el("span", { class: "mini-tiles", role: "img", title: marks,
      "aria-label": [...marks].map((m) => MARK_WORD[m]).join(", ") },
    [...marks].map((m, i) => el("span", { class: "mini", "data-state": MARK_STATE[m] }, g.guess[i])));
  }
  return feedbackText(marks, names);
}

async function copyText(text, node, note) {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    note.textContent = "Copied to the clipboard";
  } catch (error) {
    const range = document.createRange();
    range.selectNodeContents(node);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    note.textContent = "Selected: press Ctrl+C (or Cmd+C) to copy";
  }
}

/** A reviewed game (/api/review's answer): the table of its guesses, the summary and the share line. */
export function reviewView(data, names = null) {
  const n = data.guesses.length;
  const guesses = `${n} ${n === 1 ? "guess" : "guesses"}`;
  const lost = `${data.exact ? "" : "~"}${Number(data.cost).toFixed(2)}`;
  const share = el("code", { class: "review-share-text" }, data.share);
  const note = el("span", { class: "hint", "aria-live": "polite" });
  const toGo = (value, kind) => (value === null || value === undefined ? "?"
    : toGoText({ to_go: value, to_go_kind: kind }));
  return el("div", { class: "review-body" },
    el("h3", {}, data.won ? `Review: solved in ${guesses}`
      : data.lost ? `Review: lost, not solved in ${guesses}` : `Review: not solved after ${guesses}`),
    el("div", { class: "table-scroll" },
      el("table", { class: "review-table" },
        el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, "#"),
          el("th", { scope: "col" }, "Guess"),
          el("th", { scope: "col" }, "Feedback"),
          el("th", { scope: "col", class: "num", title: "answers possible before the guess" }, "Before"),
          el("th", { scope: "col", class: "num", title: "answers possible after it" }, "After"),
          el("th", { scope: "col", class: "num", title: "0-100, 50 an average draw; blank when one answer was left" },
            "Luck"),
          el("th", { scope: "col", class: "num", title: "expected guesses to finish with your guess, this one "
            + "included: plain = proven, ~ = a strategy found (at most this), \u2265 = at least, \u2248 = a quick estimate" },
          "To go (yours)"),
          el("th", { scope: "col" }, "Best guess"),
          el("th", { scope: "col", class: "num", title: "expected guesses to finish with the best guess" },
            "To go (best)"),
          el("th", { scope: "col", class: "num", title: "expected guesses lost against the best guess: 0 for an "
            + "optimal guess, marked as the values are" }, "Cost"),
          el("th", { scope: "col", class: "num", title: "100 \u00d7 2^(-cost / 0.25): 100 for an optimal guess" },
            "Skill"))),
        el("tbody", {}, data.guesses.map((g) => el("tr", { class: g.cost ? "costly" : "" },
          el("td", { class: "num" }, g.number),
          el("td", { class: "guess-text" }, g.guess),
          el("td", {}, reviewFeedback(g, names)),
          el("td", { class: "num" }, number(g.before)),
          el("td", { class: "num" }, number(g.after)),
          el("td", { class: "num" }, g.luck === null || g.luck === undefined ? "" : Math.round(g.luck)),
          el("td", { class: "num" }, toGo(g.to_go, g.to_go_kind)),
          el("td", { class: "guess-text" }, g.best_guess),
          el("td", { class: "num" }, toGo(g.best_to_go, g.best_to_go_kind)),
          el("td", { class: "num review-cost" }, costText(g)),
          el("td", { class: "num" }, g.skill === null || g.skill === undefined ? "" : Math.round(g.skill))))))),
    el("p", { class: "review-summary" },
      `Skill ${data.skill ?? "?"}/100`,
      data.luck === null || data.luck === undefined ? "" : ` \u00b7 luck ${data.luck}/100`,
      ` \u00b7 guesses lost: ${lost}`,
      data.exact ? "" : " (~: not every value proven)"),
    el("p", { class: "hint" },
      "Skill: the mean of your guesses' skill (100 \u00d7 2^(-cost / 0.25)) over the guesses made with more than "
      + "one answer left; luck: 50 is an average draw; to go: expected guesses to finish, this one included; "
      + "cost: the guesses lost against the best guess."),
    el("p", { class: "review-share row wrap" }, share,
      el("button", { type: "button", onclick: () => copyText(data.share, share, note) }, "Copy summary"), note));
}

/** Ask /api/review for `body`, with a busy note in `box`, then draw the review there; resolve to null
 * when it is shown, else to the error's message. Once `current()` is false (a newer request, a new
 * game) the box is left alone. */
export async function loadReview(box, body, current) {
  box.hidden = false;
  box.setAttribute("aria-busy", "true");
  fill(box, el("p", { class: "status" }, "Reviewing your guesses against the best ones\u2026"));
  try {
    const data = await api("POST", "/api/review", body);
    if (current()) fill(box, reviewView(data));
    return null;
  } catch (error) {
    return error.message;
  } finally {
    if (current()) box.removeAttribute("aria-busy");
  }
}

/** Text of a feedback for people: marks as they are, field lists as "name value" pairs. */
export function feedbackText(feedback, names) {
  if (typeof feedback === "string") return feedback;
  if (!Array.isArray(feedback)) return String(feedback);
  if (!names) return feedback.join(", ");
  return feedback.map((value, i) => `${names[i] ?? i} ${value}`).join(", ");
}

/** A horizontal bar chart: rows of [label, value]; `highlight` marks one label. Each count is written
 * after its bar (the longest bar shrinks to leave it room), so a short bar never cuts it off. */
export function barChart(node, rows, highlight = null) {
  const max = Math.max(1, ...rows.map(([, value]) => value));
  fill(node, rows.map(([label, value]) =>
    el("div", { class: "bar-row" + (String(label) === String(highlight) ? " highlight" : "") },
      el("span", { class: "bar-label" }, label),
      el("span", { class: "bar-track" },
        el("span", { class: "bar", style: { width: `${Math.max(2, (100 * value) / max)}%` } }),
        el("span", { class: "bar-count" }, number(value))))));
}

const NAMES = { wordle: "Wordle", mastermind: "Mastermind", bulls: "Bulls and Cows", battleship: "Battleship", cards: "Cards" };
const WORDLE_VARIANTS = { normal: "Wordle", hard: "Wordle, hard mode", "answers-only": "Wordle, only answers as guesses" };

/** A game variant's name for people: "Bulls and Cows", "Cards, 3 cards", "Wordle, hard mode". */
export function displayTitle(g) {
  if (!g) return "";
  if (g.game === "wordle" && WORDLE_VARIANTS[g.variant]) return WORDLE_VARIANTS[g.variant];
  const cards = g.game === "cards" && /^n(\d)$/.exec(g.variant);
  if (cards) return `Cards, ${cards[1]} ${cards[1] === "1" ? "card" : "cards"}`;
  if (NAMES[g.game] && g.variant === "default") return NAMES[g.game];
  return g.title || `${g.game} ${g.variant}`;
}

/** Per-field help from a game's help text "a,b: what a counts, what b counts" (null if it does not split). */
export function fieldHelp(g) {
  const fb = g?.feedback;
  if (!fb || !fb.names || typeof fb.help !== "string") return null;
  const text = fb.help.replace(/^[\w,\s]+:\s*/, "");
  const parts = text.split(/,\s+(?![^(]*\))/);
  return parts.length === fb.names.length ? parts : null;
}

/** Games grouped for <select>s: each entry {game, variant, title, ...} as /api/games lists them. */
export function fillSelect(select, games, chosen) {
  fill(select, games.map((g) => el("option", { value: `${g.game}/${g.variant}` }, displayTitle(g))));
  if (chosen) select.value = chosen;
}

export function findGame(games, key) {
  return games.find((g) => `${g.game}/${g.variant}` === key);
}
