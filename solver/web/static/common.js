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

/** How each kind of value is marked, as the CLI marks it: plain when proven, "~" approximate, ">=" a lower
 * bound, "\u2248" an estimate. */
const KIND_MARK = { approximate: "~", bound: ">=", estimate: "\u2248" };
const isMissing = (value) => value === null || value === undefined;

/** A value (/api's `Value`) as the CLI writes it: the server's text, rounded there once, with "-N" when N
 * answers cannot be finished within the guess limit ("-N+": at least N); "?" when there is none. */
export function valueText(value) {
  if (isMissing(value)) return "?";
  return value.lost ? `${value.text} -${value.lost}${value.lost_exact ? "" : "+"}` : value.text;
}

/** The hover text of a value: where it comes from, and what it cannot guarantee. */
export function valueTitle(value) {
  if (isMissing(value)) return "not rated within the time allowed";
  return [value.source_text, value.limit_text].filter(Boolean).join("; ");
}

/** Guesses to go of a ranked guess (its `value`, `valueText`); "?" unrated, as the CLI writes it. */
export function toGoText(alt) {
  if (!isMissing(alt.value)) return valueText(alt.value);
  if (isMissing(alt.to_go)) return "?";
  const mark = KIND_MARK[alt.to_go_kind] ?? "";
  return mark + Number(alt.to_go).toFixed(3);
}

/** A whole number rounded, or "-" when there is none (the CLI's sign for a luck or skill not rated). */
export function roundOrDash(value) {
  return isMissing(value) ? "-" : String(Math.round(value));
}

/** A chance as people read it: "35%", "1 in 1,200" under 1% (never 0% for a chance there is), ">99%". */
export function chanceText(p) {
  if (p >= 1) return "100%";
  if (p > 0.99) return ">99%";
  if (p > 0 && p < 0.01) return `1 in ${number(Math.round(1 / p))}`;
  return `${Math.round(p * 100)}%`;
}

// How the focus got where it is: a click or tap, or the keyboard (Tab).
let focusByPointer = false;
document.addEventListener("pointerdown", () => { focusByPointer = true; }, true);
document.addEventListener("keydown", (event) => { if (event.key === "Tab") focusByPointer = false; }, true);

/** Whether Enter on `target` is the control's own: a button, link or summary reached with Tab. After a
 * mouse click on one (the focus stays there, unseen) Enter belongs to the game: it enters the guess. */
export function enterPressesControl(target) {
  return Boolean(target.closest?.("button, a, summary")) && !focusByPointer;
}

/** The game's key a keydown stands for ("Enter", "Backspace" or a letter "A".."Z"), or null when it is not the
 * game's: a modifier held, typing in a field (a check box or a radio button takes no typing), Enter on a
 * control reached with Tab. */
export function pressedKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const target = event.target;
  if (target.closest?.("input:not([type=checkbox]):not([type=radio]), textarea, select, [contenteditable]")) return null;
  if (event.key === "Enter") return enterPressesControl(target) ? null : "Enter";
  if (event.key === "Backspace") return "Backspace";
  return /^[a-zA-Z]$/.test(event.key) ? event.key.toUpperCase() : null;
}

const KEY_ROWS = ["QWERTYUIOP", "ASDFGHJKL", "+ZXCVBNM-"]; // + Enter, - Backspace

/** Return a key's label: the key itself, ⌫ for Backspace. */
export const keyLabel = (key) => (key === "Backspace" ? "\u232B" : key);

/** Fill `container` with the on-screen keyboard (a row of buttons per KEY_ROWS line), each key calling
 * `press(key)`; `content(key)` gives a key's children (default: its label). Returns {letter: button}. A mouse
 * click leaves no focus on a key, or the next Enter would press it again. */
export function buildKeyboard(container, press, content = keyLabel) {
  const keys = {};
  for (const letters of KEY_ROWS) {
    container.append(el("div", { class: "key-row" }, [...letters].map((ch) => {
      const key = ch === "+" ? "Enter" : ch === "-" ? "Backspace" : ch;
      const label = key === "Backspace" ? "Delete letter" : key === "Enter" ? "Enter guess" : key;
      const button = el("button", { type: "button", class: "key" + (key.length > 1 ? " wide" : ""), "data-key": key,
        "aria-label": label, onclick: () => press(key) }, content(key));
      button.addEventListener("mousedown", (event) => event.preventDefault());
      if (key.length === 1) keys[key] = button;
      return button;
    })));
  }
  return keys;
}

/** Return `say(message, sticky = false)`: shows `message` in the `toast` element for 3 s, or until the next one
 * when `sticky` ("" hides it at once). */
export function toaster(toast) {
  let timer = null;
  return (message, sticky = false) => {
    clearTimeout(timer);
    toast.textContent = message;
    toast.hidden = !message;
    toast.dataset.sticky = String(sticky);
    if (message && !sticky) timer = setTimeout(() => { toast.hidden = true; }, 3000);
  };
}

/** A table that stacks on a phone: each row's cells as "label value" pairs (style.css, .stack-table).
 * `columns`: [{label, title, num (right-aligned), class}]; `rows`: [{attrs, cells: [content per column]}]. */
export function stackTable(columns, rows, attrs = {}) {
  return el("table", { ...attrs, class: `stack-table ${attrs.class || ""}`.trim() },
    el("thead", {}, el("tr", {}, columns.map((c) =>
      el("th", { scope: "col", class: c.num ? "num" : null, title: c.title }, c.label)))),
    el("tbody", {}, rows.map(({ attrs: rowAttrs, cells }) => el("tr", rowAttrs || {},
      cells.map((content, i) => el("td", { class: columns[i].class || (columns[i].num ? "num" : null),
        "data-label": columns[i].label }, content))))));
}

/** Cost of a reviewed guess (/api/review): the server's `cost_text` ("0", "0.351", "~0.004" not proven,
 * ">=0.125" at least, "?" unknown). */
export function costText(g) {
  if (g.cost_text) return g.cost_text;
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

/** The review table's columns, as `deduce review` prints them. */
const REVIEW_COLUMNS = [
  { label: "#", num: true },
  { label: "Guess", class: "guess-text" },
  { label: "Feedback" },
  { label: "Before", num: true, title: "answers possible before the guess" },
  { label: "After", num: true, title: "answers possible after it" },
  { label: "Expected", num: true, title: "the answers it was expected to leave, on average" },
  { label: "Luck", num: true, title: "0-100, 50 an average draw; - when one answer was left" },
  { label: "To go (yours)", num: true, title: "expected guesses to finish with your guess, this one included: "
    + "plain = proven, ~ = a strategy found (at most this), >= = at least, \u2248 = a quick estimate, ? = not rated" },
  { label: "Best guess", class: "guess-text" },
  { label: "To go (best)", num: true, title: "expected guesses to finish with the best guess" },
  { label: "Cost", num: true, class: "num review-cost", title: "expected guesses lost against the best guess: 0 for "
    + "an optimal guess, marked as the values are" },
  { label: "Skill", num: true, title: "100 \u00d7 2^(-cost / 0.25): 100 for an optimal guess; - when not rated" },
];

/** The most answers a review lists before a guess (/api/review's and /api/boards/review's `words`, at most). */
export const REVIEW_WORDS = 3000;
let candidateRows = 0; // ids of the rows that list the candidates, unique in the page

/** `load` called once: later calls share its promise (a failed one is asked again next time). */
function once(load) {
  let promise = null;
  return () => {
    promise ??= load().catch((error) => { promise = null; throw error; });
    return promise;
  };
}

/** The "Before" count of a reviewed guess as a button: a click shows (and a second one hides) the answers
 * that were possible before the guess, in a row under it. They come with the review when it listed them all
 * (`g.candidates`), else from `more()`, which resolves to the guesses of the same review asked with its
 * candidates listed (once for the whole table: see `loadReview`). */
function beforeButton(g, more) {
  const id = `review-candidates-${++candidateRows}`;
  const what = g.before === 1 ? "answer" : `${number(g.before)} answers`;
  const label = `Show the ${what} possible before guess ${g.number}`;
  const button = el("button", { type: "button", class: "link before-button", "aria-expanded": "false",
    "aria-controls": id, "aria-label": label, title: "the answers possible before this guess" }, number(g.before));
  let shown = null;
  button.addEventListener("click", async () => {
    if (shown) {
      shown.remove();
      shown = null;
      button.setAttribute("aria-expanded", "false");
      return;
    }
    const row = button.closest("tr");
    const cell = el("td", { colspan: REVIEW_COLUMNS.length }, el("p", { class: "status" }, "Listing them\u2026"));
    shown = el("tr", { id, class: "review-candidates" }, cell);
    row.after(shown);
    button.setAttribute("aria-expanded", "true");
    const mine = shown;
    let words = g.candidates || [];
    let problem = null;
    if (words.length < g.before && more) {
      try {
        words = (await more())[g.number - 1]?.candidates ?? words;
      } catch (error) {
        problem = error.message;
      }
    }
    if (shown !== mine) return; // hidden meanwhile
    const heading = `${g.before === 1 ? "The answer" : `The ${number(g.before)} answers`} possible before `
      + `guess ${g.number}${words.length < g.before ? ` (the first ${number(words.length)})` : ""}:`;
    fill(cell, problem ? el("p", { class: "error", role: "alert" }, problem)
      : el("div", { class: "candidate-list" }, el("p", { class: "hint" }, heading),
        el("p", { class: "candidate-words" }, words.join(" "))));
  });
  return button;
}

/** The table of a reviewed game's guesses (/api/review's `guesses`), with its notes: what a guess cannot
 * guarantee, and the guesses in `notCounted` (a board's guesses played for another board). */
function reviewTable(data, names, more, notCounted = []) {
  const toGo = (value, figure, kind) => el("span", { title: valueTitle(value) },
    toGoText({ value, to_go: figure, to_go_kind: kind }));
  const limits = data.guesses.flatMap((g) => [[g.guess, g.value], [`the best, ${g.best_guess}`, g.best_value]]
    .filter(([who, value], i) => value && value.limit_text && (i === 0 || g.best_guess !== g.guess))
    .map(([who, value]) => `${g.number}. ${who}: ${value.limit_text}`));
  const elsewhere = data.guesses.filter((g) => notCounted.includes(g.number)).map((g) => g.number);
  return [
    el("div", { class: "table-scroll" },
      stackTable(REVIEW_COLUMNS, data.guesses.map((g) => ({
        attrs: { class: [g.cost ? "costly" : "", notCounted.includes(g.number) ? "not-counted" : ""]
          .filter(Boolean).join(" ") },
        cells: [g.number, g.guess, reviewFeedback(g, names), beforeButton(g, more), number(g.after),
          isMissing(g.expected_after) ? "?" : number(g.expected_after, 1), roundOrDash(g.luck),
          toGo(g.value, g.to_go, g.to_go_kind), g.best_guess, toGo(g.best_value, g.best_to_go, g.best_to_go_kind),
          costText(g), roundOrDash(g.skill)],
      })), { class: "review-table" })),
    limits.length ? el("ul", { class: "review-limits hint" }, limits.map((line) => el("li", {}, line))) : "",
    elsewhere.length ? el("p", { class: "review-elsewhere hint" },
      `Guess${elsewhere.length > 1 ? "es" : ""} ${elsewhere.join(", ")}: another word played once this board's `
      + "answer was known (for another board): not counted in the totals.") : "",
  ];
}

/** The summary, its legend and the share line (with a Copy button) of a review. */
function reviewSummary(data, lost) {
  const share = el("code", { class: "review-share-text" }, data.share);
  const note = el("span", { class: "hint", "aria-live": "polite" });
  return [
    el("p", { class: "review-summary" },
      `Skill ${data.skill ?? "?"}/100`,
      data.luck === null || data.luck === undefined ? "" : ` \u00b7 luck ${data.luck}/100`,
      ` \u00b7 guesses lost: ${lost}`,
      data.exact ? "" : " (~: not every value proven)"),
    el("p", { class: "hint" },
      "Skill: the mean of your guesses' skill (100 \u00d7 2^(-cost / 0.25)) over the guesses made with more than "
      + "one answer left; luck: 50 is an average draw; to go: expected guesses to finish, this one included; "
      + "cost: the guesses lost against the best guess; a click on a Before count lists those answers."),
    el("p", { class: "review-share row wrap" }, share,
      el("button", { type: "button", onclick: () => copyText(data.share, share, note) }, "Copy summary"), note),
  ];
}

/** A reviewed game (/api/review's answer): the table of its guesses, the solver's game for the same answer,
 * the summary and the share line. `more()`: the same review's guesses with every candidate listed, for the
 * Before buttons (`beforeButton`). */
export function reviewView(data, names = null, more = null) {
  const n = data.guesses.length;
  const guesses = `${n} ${n === 1 ? "guess" : "guesses"}`;
  const lost = data.cost_text || `${data.exact ? "" : "~"}${Number(data.cost).toFixed(3)}`;
  return el("div", { class: "review-body" },
    el("h3", {}, data.won ? `Review: solved in ${guesses}`
      : data.lost ? `Review: lost, not solved in ${guesses}` : `Review: not solved after ${guesses}`),
    reviewTable(data, names, more),
    data.solver_game && data.solver_game.length ? el("p", { class: "review-solver" },
      `The solver's game for ${data.answer}: `,
      data.solver_game.map((g, i) => [i ? " \u2192 " : "", reviewFeedback(g, names)])) : "",
    reviewSummary(data, lost));
}

/** A game of several boards as a compact list: each guess with the marks it got on every board (small tiles),
 * a dash for a board solved before it. `steps`: [{guess, feedback: [marks or null per board]}]. */
function boardsGame(steps, label) {
  return el("ol", { class: "boards-game", "aria-label": label }, steps.map((step) => el("li", {},
    el("span", { class: "guess-text" }, step.guess),
    step.feedback.map((marks, b) => (marks === null || marks === undefined
      ? el("span", { class: "mini-tiles solved-board", title: `board ${b + 1} solved before`,
        "aria-label": `board ${b + 1} solved before` }, "\u2013")
      : el("span", { class: "board-marks", "data-board": b + 1 },
        reviewFeedback({ guess: step.guess, feedback: marks })))))));
}

/** A game of several boards reviewed (/api/boards/review's answer): each board's table headed by its answer,
 * the player's game and the solver's own for the same answers side by side (their marks as small tiles), the
 * summary and the share line. `more(b)`: board b's guesses with every candidate listed. */
export function boardsReviewView(data, more = null) {
  const count = data.boards.length;
  const played = `${data.guesses} of ${data.limit} guesses`;
  const longest = data.boards.reduce((a, b) => (b.guesses.length > a.guesses.length ? b : a)).guesses;
  const mine = longest.map((g, i) => ({ guess: g.guess,
    feedback: data.boards.map((board) => (i < board.guesses.length ? board.guesses[i].feedback : null)) }));
  const boards = data.boards.map((board, b) => el("section", { class: "board-review", "data-board": b + 1,
    "aria-label": `Board ${b + 1}, answer ${board.answer}` },
  el("h4", {}, `Board ${b + 1}, answer ${board.answer}: `
    + (board.won ? `solved in ${board.guesses.length}` : `not solved in ${board.guesses.length}`)),
  reviewTable(board, null, more && (() => more(b)), board.not_counted || [])));
  const n = (k) => `${k} ${k === 1 ? "guess" : "guesses"}`;
  return el("div", { class: "review-body boards-review-body" },
    el("h3", {}, data.won ? `Review: all ${count} words in ${played}`
      : data.lost ? `Review: lost, not every word found in ${played}` : `Review: not solved after ${played}`),
    el("p", { class: "hint" }, "Each board is reviewed as a Wordle game of its own over the guesses made while it "
      + "was open: the best guess is the best for that board alone (no optimum of several boards is known)."),
    boards,
    el("section", { class: "boards-review-games", "aria-label": "Your game and the solver's" },
      el("h4", {}, `Your game and the solver's for ${data.answers.join(", ")}`),
      el("div", { class: "games-side" },
        el("div", { class: "boards-review-mine" }, el("p", { class: "hint" }, `You: ${n(data.guesses)}`),
          boardsGame(mine, "your game")),
        el("div", { class: "boards-review-solver" }, el("p", { class: "hint" },
          `The solver: ${n(data.solver_game.length)}`), boardsGame(data.solver_game, "the solver's game")))),
    reviewSummary(data, data.cost_text));
}

/** Ask `url` for `body`, with a busy note in `box`, then draw `view(data, more)` there (`more`: the answer
 * again with every candidate listed, asked once, on the first click on a Before count); resolve to null when
 * it is shown, else to the error's message. Once `current()` is false (a newer request, a new game) the box
 * is left alone. */
async function loadInto(box, url, body, current, view) {
  box.hidden = false;
  box.setAttribute("aria-busy", "true");
  fill(box, el("p", { class: "status" }, "Reviewing your guesses against the best ones\u2026"));
  try {
    const data = await api("POST", url, body);
    const more = once(() => api("POST", url, { ...body, words: REVIEW_WORDS }));
    if (current()) fill(box, view(data, more));
    return null;
  } catch (error) {
    return error.message;
  } finally {
    if (current()) box.removeAttribute("aria-busy");
  }
}

/** Ask /api/review for `body` and draw the review in `box` (`loadInto`). The first answer lists no
 * candidates (a few KB, not the 20 KB of every Wordle answer before the first guess): a click on a Before
 * count asks the same review again with them, answered from the server's memo without new ratings. */
export function loadReview(box, body, current) {
  return loadInto(box, "/api/review", body, current,
    (data, more) => reviewView(data, null, async () => (await more()).guesses));
}

/** Ask /api/boards/review for `body` and draw the review of every board in `box` (`loadInto`). */
export function loadBoardsReview(box, body, current) {
  return loadInto(box, "/api/boards/review", body, current,
    (data, more) => boardsReviewView(data, async (b) => (await more()).boards[b].guesses));
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

/** A game variant's name for people, /api/games' label: "Bulls and Cows", "Cards, 3 cards", "Wordle, hard mode, NYT lists". */
export function displayTitle(g) {
  if (!g) return "";
  return g.label || g.title || `${g.game} ${g.variant}`;
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

/** The review panel of a page's game: `run(body)` asks `load(box, body, current)` (`loadReview` or
 * `loadBoardsReview`) with `button` disabled meanwhile, shows an error in `box` if it fails, and scrolls the
 * review into view; `clear()` empties and hides `box` and supersedes a review still on its way. */
export function reviewPanel(button, box, load) {
  let request = 0; // the last review asked for: a newer one, or a new game, supersedes it
  function clear() {
    request += 1;
    button.disabled = false;
    box.removeAttribute("aria-busy");
    fill(box);
    box.hidden = true;
  }
  async function run(body) {
    const id = ++request;
    button.disabled = true;
    const problem = await load(box, body, () => id === request);
    if (id !== request) return;
    if (problem) {
      const message = el("p", { class: "error", role: "alert" });
      setError(message, problem);
      fill(box, message);
    } else {
      box.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
    button.disabled = false;
  }
  return { clear, run };
}

// ------------------------------------------------------------------ the play tab's shared choices
export const LENGTHS = [4, 5, 6, 7, 8, 9]; // Wordle's word lengths (variants normal4, normal6 to normal9)
export const FIRST_DAILY = "2021-06-19"; // puzzle 0

/** The letters per word chosen on the play tab (5 unless changed). */
export function wordLength() {
  const value = Number(byId("play-length")?.value);
  return LENGTHS.includes(value) ? value : 5;
}

/** The Wordle variant of a mode and a word length: "normal", "hard", "normal6", "hard9". */
export function wordleVariant(hard, length) {
  return `${hard ? "hard" : "normal"}${length === 5 ? "" : length}`;
}

/** How a word length is said: "five-letter", "6-letter". */
export function lettersWord(length) {
  return { 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine" }[length] + "-letter";
}

/** Today's date where the player is, YYYY-MM-DD. */
export function today(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The date of the daily puzzle to play: the one picked on the play tab, else today. */
export function dailyDate() {
  const value = byId("play-date")?.value;
  return /^\d{4}-\d{2}-\d{2}$/.test(value || "") ? value : today();
}

/** What to say when the daily puzzle of `date` (numbered `number`) was played already. */
export function dailyPlayed(name, date, number) {
  return date === today() ? `Today's ${name} (${number}) is played: come back tomorrow`
    : `The ${name} of ${date} (${number}) is played: pick another date`;
}

/** Show the whole of a share text: the box as tall as its lines. */
export function showAll(area, text) {
  area.value = text;
  area.rows = Math.max(2, text.split("\n").length);
}
