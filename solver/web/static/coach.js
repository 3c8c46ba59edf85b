// Wordle, coach: the person copies the guesses and colours of a game played elsewhere; the solver
// says what is left and what to play next, and why; the review rates the guesses entered so far.
import {
  api, byId, chanceText, displayTitle, el, fill, loadJSON, number, loadReview, saveJSON, setError, stackTable, toGoText,
  valueText, valueTitle,
} from "./common.js";

const LENGTH = 5;
const STATE = { G: "correct", Y: "present", R: "absent" };
const NEXT_MARK = { R: "Y", Y: "G", G: "R" };
const MARK_NAME = { R: "grey", Y: "yellow", G: "green" };
// The spellings the CLI accepts (solver.games.wordle.MARK_SPELLINGS): R, B, X, ., -, 0 or a black or white
// square for grey; Y, 1 or a yellow or blue square; G, 2 or a green or orange square.
const SPELLINGS = { R: "RBX.-0\u2B1B\u2B1C", Y: "Y1\u{1F7E8}\u{1F7E6}", G: "G2\u{1F7E9}\u{1F7E7}" };
const SHOWN = { R: "R", Y: "Y", G: "G" }; // what the marks field shows: R for grey, as the CLI and the API
const STORE_KEY = "deduce.coach";
const ALTERNATIVE_COLUMNS = [
  { label: "Guess" },
  { label: "Guesses to go", title: "expected guesses to finish with it, this one included: plain = proven optimal, "
    + "~ = best found in the time allowed (not proven), >= = a proven lower bound, \u2248 = a quick estimate, "
    + "? = not rated in time" },
  { label: "Worst case", title: "the most guesses it can take, this one included; - when not known" },
  { label: "Left on average", title: "answers left after it, on average: lower is better" },
  { label: "Information (bits)", title: "bits of information: higher is better" },
  { label: "Could be the answer" },
];
const LIST_LIMIT = 50;
const isNone = (value) => value === null || value === undefined;
// where the proposed guess comes from (/api/next's `source`), when the server gives no `source_text`
const SOURCE_LABELS = { tree: "from the precomputed tree", book: "from the opener book, computed ahead",
  live: "computed live", rule: "one or two answers left" };
const SOURCE_TITLES = { tree: "read from the decision tree computed ahead of time",
  book: "read from the opener book: the best second guess after this opener, computed ahead of time",
  live: "computed now: these guesses left the precomputed tree and the opener book",
  rule: "with one or two answers left, playing one of them is best" };

/** Marks typed in any accepted spelling -> "GYR..." of `LENGTH`, or null. */
export function parseMarks(text) {
  const chars = [...String(text).replace(/\uFE0F/g, "").replace(/\s+/g, "").toUpperCase()];
  if (chars.length !== LENGTH) return null;
  const out = [];
  for (const ch of chars) {
    const mark = Object.keys(SPELLINGS).find((m) => SPELLINGS[m].toUpperCase().includes(ch));
    if (!mark) return null;
    out.push(mark);
  }
  return out.join("");
}

export function initCoach(games) {
  const $ = byId;
  const variants = games.filter((g) => g.game === "wordle" && (g.feedback?.length ?? LENGTH) === LENGTH);
  const select = $("coach-variant");
  const guessInput = $("coach-guess");
  const marksInput = $("coach-marks");
  const tilesBox = $("coach-tiles");
  const rowsBox = $("coach-rows");
  const advice = $("coach-advice");
  const error = $("coach-error");
  const reviewBox = $("coach-review");
  const reviewButton = $("coach-review-button");
  const saved = loadJSON(STORE_KEY, {});
  let rows = Array.isArray(saved.rows) ? saved.rows : []; // [{guess, marks}] accepted by the service
  let marks = typeof saved.marks === "string" && saved.marks.length === LENGTH ? saved.marks : "RRRRR";
  let last = null; // the last /api/next answer
  let started = false;
  let request = 0;
  let reviewRequest = 0; // the last /api/review asked for: a newer one, or a changed history, supersedes it

  fill(select, variants.map((g) => el("option", { value: g.variant }, displayTitle(g))));
  if (!variants.length) select.append(el("option", { value: "normal" }, "wordle"));
  select.value = variants.some((g) => g.variant === saved.variant) ? saved.variant
    : (variants.find((g) => g.default)?.variant || "normal");
  guessInput.value = typeof saved.guess === "string" ? saved.guess : "";

  function save() {
    saveJSON(STORE_KEY, { variant: select.value, rows, guess: guessInput.value, marks });
  }

  // ------------------------------------------------------------------ the row being typed
  const tileButtons = [];
  for (let i = 0; i < LENGTH; i++) {
    const button = el("button", { type: "button", class: "tile", "data-index": i });
    button.addEventListener("click", () => {
      marks = marks.slice(0, i) + NEXT_MARK[marks[i]] + marks.slice(i + 1);
      marksInput.value = [...marks].map((m) => SHOWN[m]).join("");
      setError(error, "");
      renderEditor();
      save();
    });
    tileButtons.push(button);
    tilesBox.append(button);
  }

  function renderEditor() {
    const word = guessInput.value.toUpperCase();
    tileButtons.forEach((button, i) => {
      const letter = word[i] || "";
      button.textContent = letter;
      button.dataset.state = STATE[marks[i]];
      button.setAttribute("aria-label",
        `Letter ${i + 1}${letter ? ` ${letter}` : ""}: ${MARK_NAME[marks[i]]}. Click to change the colour.`);
    });
  }

  guessInput.addEventListener("input", () => {
    const clean = guessInput.value.toUpperCase().replace(/[^A-Z]/g, "").slice(0, LENGTH);
    if (clean !== guessInput.value) guessInput.value = clean;
    setError(error, "");
    renderEditor();
    save();
  });
  marksInput.addEventListener("input", () => {
    const parsed = parseMarks(marksInput.value);
    if (parsed) {
      marks = parsed;
      setError(error, "");
      renderEditor();
      save();
    }
  });
  marksInput.addEventListener("change", () => {
    if (marksInput.value.trim() && !parseMarks(marksInput.value)) {
      setError(error, `Colours must be ${LENGTH} of G (green), Y (yellow), R (grey); for example RRYRG.`);
    }
  });

  // ------------------------------------------------------------------ the rows accepted so far
  function renderRows() {
    fill(rowsBox, rows.map(({ guess, marks: m }, r) =>
      el("div", { class: "tile-row", role: "group", "aria-label": `Guess ${r + 1}: ${guess}, ${m}` },
        [...guess].map((letter, i) => el("div", { class: "tile", "data-state": STATE[m[i]] }, letter)))));
    $("coach-undo").disabled = !rows.length;
    clearReview(); // the rows changed: a review shown is out of date
  }

  function history(extra) {
    const list = rows.map(({ guess, marks: m }) => ({ guess, feedback: m }));
    return extra ? [...list, extra] : list;
  }

  async function ask(extra) {
    const id = ++request;
    advice.setAttribute("aria-busy", "true");
    try {
      const data = await api("POST", "/api/next", {
        game: "wordle", variant: select.value, history: history(extra), top: 5, candidates: LIST_LIMIT,
      });
      if (id !== request) return null; // a newer request supersedes this one
      last = data;
      return data;
    } finally {
      if (id === request) advice.removeAttribute("aria-busy");
    }
  }

  // A word outside the answer list: offer the every-word variant, as the CLI's --all-words; only when that
  // is the row's only problem, i.e. the word, all green, fits every earlier row (the service says so: the
  // rules live there, not in the page).
  const EVERY_WORD = "normal-all-words";
  async function fitsEveryWord(row) {
    try {
      await api("POST", "/api/candidates", { game: "wordle", variant: EVERY_WORD, history: history(row), limit: 0 });
      return true;
    } catch (e) {
      return false;
    }
  }

  async function showError(message, row = null) {
    setError(error, message);
    const offer = /is not one of the \d+ answers/.test(message || "") && select.value !== EVERY_WORD
      && [...select.options].some((option) => option.value === EVERY_WORD)
      && row && row.feedback === "G".repeat(LENGTH) && await fitsEveryWord(row);
    if (!offer || error.textContent !== message) return; // not offered, or another message since
    const button = el("button", { type: "button", class: "link", id: "coach-every-word" },
      "Allow any acceptable word as the answer");
    button.addEventListener("click", async () => {
      select.value = EVERY_WORD;
      select.dispatchEvent(new Event("change"));
    });
    error.append(" ", button);
  }

  async function refresh() {
    try {
      const data = await ask();
      if (!data) return;
      renderAdvice(data);
      setError(error, "");
    } catch (e) {
      showError(e.message);
    }
  }

  $("coach-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const guess = guessInput.value.toUpperCase();
    if (guess.length !== LENGTH) {
      setError(error, `Type the ${LENGTH}-letter word you guessed first.`);
      guessInput.focus();
      return;
    }
    if (last && last.solved) {
      setError(error, "Already solved. Undo a row or start over.");
      return;
    }
    if (marksInput.value.trim() && !parseMarks(marksInput.value)) {
      setError(error, `Colours must be ${LENGTH} of G (green), Y (yellow), R (grey); for example RRYRG.`);
      marksInput.focus();
      return;
    }
    const row = { guess, feedback: marks };
    try {
      const data = await ask(row);
      if (!data) return;
      // Accepted: the row joins the history and the editor starts a fresh row.
      rows.push({ guess, marks });
      guessInput.value = "";
      marksInput.value = "";
      marks = "RRRRR";
      setError(error, "");
      save();
      renderRows();
      renderEditor();
      renderAdvice(data);
      guessInput.focus();
    } catch (e) {
      // Nothing typed is lost: the row stays in the editor for fixing.
      showError(e.message, row);
    }
  });

  $("coach-use").addEventListener("click", () => {
    if (last && last.guess) {
      guessInput.value = last.guess;
      renderEditor();
      save();
      tileButtons[0].focus();
    }
  });

  $("coach-undo").addEventListener("click", async () => {
    if (!rows.length) return;
    const row = rows.pop();
    guessInput.value = row.guess;
    marks = row.marks;
    marksInput.value = [...marks].map((m) => SHOWN[m]).join("");
    save();
    renderRows();
    renderEditor();
    await refresh();
  });

  $("coach-reset").addEventListener("click", async () => {
    rows = [];
    guessInput.value = "";
    marksInput.value = "";
    marks = "RRRRR";
    save();
    renderRows();
    renderEditor();
    await refresh();
  });

  select.addEventListener("change", async () => {
    save();
    clearReview();
    await refresh();
  });

  // ------------------------------------------------------------------ the review of the rows so far
  function clearReview() {
    reviewRequest += 1;
    reviewButton.disabled = !rows.length;
    reviewBox.removeAttribute("aria-busy");
    fill(reviewBox);
    reviewBox.hidden = true;
  }

  reviewButton.addEventListener("click", async () => {
    if (!rows.length) return;
    const id = ++reviewRequest;
    reviewButton.disabled = true;
    const body = { game: "wordle", variant: select.value, history: history() };
    const problem = await loadReview(reviewBox, body, () => id === reviewRequest);
    if (id !== reviewRequest) return;
    if (problem) {
      fill(reviewBox);
      reviewBox.hidden = true;
    }
    setError(error, problem ?? "");
    reviewButton.disabled = !rows.length;
  });

  // ------------------------------------------------------------------ the advice
  function renderAdvice(data) {
    const parts = [];
    const remaining = data.remaining;
    const verdict = el("p", { id: "coach-verdict", class: "verdict" });
    if (data.solved) {
      verdict.dataset.state = "solved";
      verdict.textContent = `Solved in ${rows.length} ${rows.length === 1 ? "guess" : "guesses"}! The answer is ${rows[rows.length - 1]?.guess ?? ""}.`;
    } else if (data.identified || remaining === 1) {
      verdict.dataset.state = "identified";
      verdict.textContent = `Identified: the answer is ${data.candidates[0] ?? data.guess}.`;
    } else if (remaining === 0) {
      verdict.dataset.state = "none";
      verdict.textContent = "No answer fits these colours.";
    } else {
      verdict.dataset.state = "open";
      verdict.textContent = `${number(remaining)} possible ${remaining === 1 ? "answer" : "answers"} left.`;
    }
    parts.push(verdict);

    if (!data.solved && remaining > 1 && remaining <= LIST_LIMIT && data.candidates?.length) {
      parts.push(el("ul", { class: "word-list", "aria-label": "Possible answers" },
        data.candidates.map((word) => el("li", {}, word))));
    }

    if (data.guess && !data.solved) {
      const ex = data.explanation;
      parts.push(el("div", { class: "best" },
        el("p", { class: "best-label" }, rows.length ? "Best next guess" : "Best first guess"),
        el("p", { class: "best-guess" },
          el("strong", { id: "coach-best", class: "guess-text" }, data.guess),
          " ",
          el("span", { class: `source source-${data.source}`, title: SOURCE_TITLES[data.source] ?? "" },
          data.source_text || SOURCE_LABELS[data.source] || data.source),
          " ",
          el("span", { class: `proof proof-${data.exact ? "exact" : "approximate"}`, title: data.exact
            ? "proven optimal: no other guess needs fewer guesses on average"
            : "not proven: the best guess the search found in the time allowed" },
          data.exact ? "proven optimal" : "not proven")),
        ex ? el("p", { class: "best-stats" },
          ex.value ? `Expected guesses to finish (this one included): ${valueText(ex.value)}` : null,
          ex.value && !isNone(ex.value.worst) ? ` · at most ${ex.value.worst}` : null,
          ex.value && ex.value.limit_text ? ` · ${ex.value.limit_text}` : null,
          ex.win_chance ? ` · chance it is the answer: ${chanceText(ex.win_chance)}` : null) : null));

      if (ex && ex.groups?.length && remaining > 1) {
        const shown = ex.groups.slice(0, 80);
        parts.push(el("div", { class: "why" },
          el("h3", {}, "Why"),
          el("p", {},
            `${data.guess} splits the ${number(remaining)} possible answers into ${ex.groups.length} `
            + `${ex.groups.length === 1 ? "group" : "groups"} by the colours it would show. `
            + `The largest group has ${number(ex.largest_group)}; on average ${number(ex.expected_left, 1)} `
            + `${ex.expected_left === 1 ? "answer is" : "answers are"} left after it.`),
          el("ul", { class: "groups", "aria-label": "Group sizes, largest first" },
            shown.map((size) => el("li", { class: "group", style: { "--size": Math.min(size, 60) } }, number(size))),
            ex.groups.length > shown.length ? el("li", { class: "group more" }, `+${ex.groups.length - shown.length} more`) : null)));
      }
    }

    if (!data.solved && data.alternatives?.length) {
      const use = (guess) => { guessInput.value = guess; renderEditor(); save(); guessInput.focus(); };
      parts.push(el("div", { class: "alternatives" },
        el("h3", {}, "Best guesses"),
        el("div", { class: "table-scroll" }, stackTable(ALTERNATIVE_COLUMNS, data.alternatives.map((alt) => ({
          attrs: { class: alt.solver ? "solver-guess" : "" },
          cells: [[el("button", { type: "button", class: "link guess-text", title: "Use this guess",
            onclick: () => use(alt.guess) }, alt.guess), alt.solver ? " (suggested)" : ""],
          el("span", { title: valueTitle(alt.value) }, toGoText(alt)),
          alt.worst === null || alt.worst === undefined ? "-" : number(alt.worst),
          number(alt.expected_left, 2), number(alt.entropy, 2), alt.possible ? "yes" : "no"],
        }))))));
    }
    fill(advice, parts);
    $("coach-add").disabled = Boolean(data.solved);
  }

  renderRows();
  renderEditor();
  if (marks !== "RRRRR") marksInput.value = [...marks].map((m) => SHOWN[m]).join("");

  return {
    enter() {
      if (!started) {
        started = true;
        refresh();
      }
    },
  };
}
