// Other games (Mastermind, Bulls and Cows, cards, battleship): the solver guesses a secret the
// person keeps in mind, or the person guesses a secret the page draws.
import { api, byId, el, feedbackText, fieldHelp, fill, fillSelect, findGame, number, setError, valueText } from "./common.js";
import { guessView, pegPicker, shotBoard, shotView, typedGuess } from "./pieces.js";

const LIST_LIMIT = 30;
const MASTERMIND_PEGS = 4; // the pegs of a Mastermind code (its one variant)

function nice(name) {
  return String(name).replace(/_/g, " ");
}

export function initGames(allGames) {
  const $ = byId;
  const games = allGames.filter((g) => g.feedback?.kind === "fields");
  const select = $("games-select");
  fillSelect(select, games, games.find((g) => g.game === "mastermind" && g.default) ? "mastermind/default" : null);
  let started = false;

  function info() {
    return findGame(games, select.value);
  }
  function mode() {
    return document.querySelector("input[name=games-mode]:checked").value;
  }
  function request(extra = {}) {
    const g = info();
    return { game: g.game, variant: g.variant, ...extra };
  }
  function names() {
    return info()?.feedback?.names || [];
  }
  function historyList(node, history) {
    fill(node, history.map(({ guess, feedback }, i) =>
      el("li", {}, guessView(info()?.game, guess), " \u2192 ",
        el("span", { class: "fb" }, feedbackText(feedback, names().map(nice))))));
    node.hidden = !history.length;
  }
  // A request on its way: its mode box is busy (aria-busy) and, until something else is said, its status
  // line says so. `pending` counts each box's requests: the last one to settle clears the sign.
  const pending = new Map();
  async function loading(box, status, request) {
    pending.set(box, (pending.get(box) || 0) + 1);
    box.setAttribute("aria-busy", "true");
    if (!status.textContent) status.textContent = "Loading\u2026";
    try {
      return await request;
    } finally {
      pending.set(box, pending.get(box) - 1);
      if (!pending.get(box)) box.removeAttribute("aria-busy");
      if (status.textContent === "Loading\u2026") status.textContent = "";
    }
  }
  function candidateList(node, remaining, candidates, what) {
    const parts = [];
    if (remaining > 1 && candidates?.length) {
      parts.push(el("p", { class: "hint" }, remaining <= candidates.length ? `The ${what} still possible:`
        : `The first ${candidates.length} of them:`));
      parts.push(el("ul", { class: "word-list" }, candidates.map((c) => el("li", {}, guessView(info()?.game, c)))));
    }
    fill(node, parts);
  }

  // ------------------------------------------------------------------ the solver guesses
  const solver = { history: [], last: null, busy: false };
  let generation = 0; // bumped when the game changes: answers to older requests are dropped
  const gsFields = $("gs-fields");
  const gsError = $("gs-error");
  const gsStatus = $("gs-status");
  const gsBox = $("games-solver");
  const gsBoard = el("div", { id: "gs-board" });
  $("gs-guess").closest("p").after(gsBoard);

  function buildFields() {
    const fb = info()?.feedback;
    const help = fieldHelp(info());
    fill(gsFields, (fb?.names || []).map((name, i) =>
      el("label", { class: "field", title: help ? help[i] : null },
        el("span", { class: "field-name" }, nice(name)),
        help ? el("span", { class: "field-help" }, help[i]) : null,
        el("input", { type: "number", inputmode: "numeric", min: 0, max: fb.max?.[i] ?? 99, value: 0,
          name, "data-field": name, required: true }))));
  }

  function renderSolver() {
    const data = solver.last;
    historyList($("gs-history"), solver.history);
    const current = $("gs-current");
    gsStatus.dataset.state = "";
    if (!data) {
      current.hidden = true;
      gsStatus.textContent = "";
      return;
    }
    if (data.solved) {
      current.hidden = true;
      const n = solver.history.length;
      gsStatus.dataset.state = "solved";
      gsStatus.textContent = `Solved in ${n} ${n === 1 ? "guess" : "guesses"}: your secret is ${solver.history[n - 1].guess}.`;
      fill($("gs-candidates"));
      return;
    }
    if (data.remaining === 0 || !data.guess) {
      current.hidden = true;
      gsStatus.dataset.state = "none";
      gsStatus.textContent = "No secret fits these answers: undo the last one or start over.";
      fill($("gs-candidates"));
      return;
    }
    current.hidden = false;
    fill($("gs-guess"), guessView(info()?.game, data.guess));
    fill(gsBoard, info()?.game === "battleship" ? shotView(solver.history, data.guess) : null);
    // Only a guess that may be the secret can be it (the explanation says how likely).
    $("gs-win").hidden = Boolean(data.explanation) && !(data.explanation.win_chance > 0);
    const left = data.remaining;
    const ex = data.explanation;
    gsStatus.textContent = (data.identified || left === 1)
      ? `Only one secret is left: it must be ${data.guess}.`
      : `${number(left)} secrets still possible`
        + (ex && ex.value ? ` · ${valueText(ex.value)} guesses to go (this one included)`
          + (ex.value.worst != null ? `, at most ${ex.value.worst}` : "") : "")
        + (data.source_text ? ` · ${data.source_text}` : "") + ".";
    gsStatus.dataset.state = data.identified || left === 1 ? "identified" : "open";
    buildFields();
    candidateList($("gs-candidates"), left, data.candidates, "secrets");
    const first = gsFields.querySelector("input");
    if (first && document.activeElement?.closest?.("#games-solver")) first.focus();
  }

  async function solverAsk(history) {
    return loading(gsBox, gsStatus, api("POST", "/api/next", request({ history, candidates: LIST_LIMIT })));
  }

  async function solverStart() {
    const gen = generation;
    solver.busy = false; // an answer still on its way belongs to the game before and is dropped
    solver.history = [];
    solver.last = null;
    setError(gsError, "");
    renderSolver();
    try {
      const data = await solverAsk([]);
      if (gen !== generation) return;
      solver.last = data;
    } catch (e) {
      if (gen !== generation) return;
      setError(gsError, e.message);
    }
    renderSolver();
  }

  async function solverAnswer(feedback) {
    if (solver.busy) return;
    const gen = generation;
    const step = { guess: solver.last.guess, feedback };
    solver.busy = true;
    try {
      const data = await solverAsk([...solver.history, step]);
      if (gen !== generation) return;
      solver.history.push(step);
      solver.last = data;
      setError(gsError, "");
      renderSolver();
    } catch (e) {
      if (gen === generation) setError(gsError, e.message); // the numbers typed stay in place for fixing
    } finally {
      if (gen === generation) solver.busy = false;
    }
  }

  $("gs-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (!solver.last?.guess) return;
    const values = [...gsFields.querySelectorAll("input")].map((input) => Number(input.value));
    if (values.some((v) => !Number.isInteger(v) || v < 0)) {
      setError(gsError, "Each answer is a whole number, 0 or more.");
      return;
    }
    solverAnswer(values);
  });
  // "That's my secret": the feedback of the guess against itself is the win, whatever the game.
  const winButton = el("button", { type: "button", id: "gs-win" }, "That's my secret!");
  $("gs-form").append(winButton);
  winButton.addEventListener("click", async () => {
    const guess = solver.last?.guess;
    if (!guess) return;
    try {
      const { feedback } = await api("POST", "/api/feedback", request({ target: guess, guess }));
      await solverAnswer(feedback);
    } catch (e) {
      setError(gsError, e.message);
    }
  });
  $("gs-start").addEventListener("click", solverStart);
  $("gs-undo").addEventListener("click", async () => {
    if (!solver.history.length || solver.busy) return;
    const gen = generation;
    solver.history.pop();
    try {
      const data = await solverAsk(solver.history);
      if (gen !== generation) return;
      solver.last = data;
      setError(gsError, "");
    } catch (e) {
      if (gen !== generation) return;
      setError(gsError, e.message);
    }
    renderSolver();
  });

  // ------------------------------------------------------------------ you guess
  // `round` counts secrets drawn: a guess's answer that arrives after a new secret (or game) is dropped
  const you = { target: null, history: [], over: false, busy: false, round: 0 };
  const gyError = $("gy-error");
  const gyStatus = $("gy-status");
  const gyInput = $("gy-guess");
  const gyBox = $("games-you");

  // Battleship: shots clicked on the board (three cells make a guess), or typed.
  const shots = shotBoard((guess) => {
    gyInput.value = guess;
    $("gy-form").requestSubmit();
  });
  // Mastermind: pegs clicked (each adds its colour to the guess), or typed.
  const pegs = pegPicker(gyInput, MASTERMIND_PEGS);
  $("gy-form").after(shots.node, pegs);

  function renderYou(remaining, candidates) {
    historyList($("gy-history"), you.history);
    shots.node.hidden = info()?.game !== "battleship" || !you.target;
    shots.lock(you.over); // the marks stay, no more shots
    shots.mark(you.history);
    pegs.hidden = info()?.game !== "mastermind" || you.over || !you.target;
    gyInput.placeholder = info() ? `e.g. ${info().example_guess}` : "";
    $("gy-form").hidden = you.over || !you.target;
    $("gy-giveup").disabled = you.over || !you.target;
    if (remaining !== undefined) {
      gyStatus.textContent = `${number(remaining)} ${remaining === 1 ? "secret fits" : "secrets fit"} your answers so far.`;
      candidateList($("gy-candidates"), remaining, candidates, "secrets");
    }
  }

  async function youStart() {
    you.round += 1;
    you.busy = false;
    you.target = null;
    you.history = [];
    you.over = false;
    setError(gyError, "");
    gyStatus.textContent = "";
    gyStatus.dataset.state = "";
    fill($("gy-candidates"));
    const g = info();
    const round = you.round;
    try {
      const data = await loading(gyBox, gyStatus,
        api("GET", `/api/random?game=${encodeURIComponent(g.game)}&variant=${encodeURIComponent(g.variant)}`));
      if (round !== you.round) return;
      you.target = data.target;
      gyStatus.textContent = `A secret is hidden: one of ${number(g.targets)}. Your guess?`;
    } catch (e) {
      if (round !== you.round) return;
      setError(gyError, e.message);
    }
    renderYou();
  }

  $("gy-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const guess = typedGuess(gyInput.value);
    if (!guess || !you.target || you.over || you.busy) return; // one guess at a time: the next stays typed
    const round = you.round;
    const stale = () => round !== you.round;
    you.busy = true;
    try {
      const result = await loading(gyBox, gyStatus,
        api("POST", "/api/feedback", request({ target: you.target, guess, history: you.history })));
      if (stale()) return;
      you.history.push({ guess, feedback: result.feedback });
      if (typedGuess(gyInput.value) === guess) gyInput.value = ""; // what was typed since stays
      setError(gyError, "");
      if (result.win) {
        you.over = true;
        renderYou();
        gyStatus.dataset.state = "solved";
        gyStatus.textContent = `Found it in ${you.history.length}: the secret was ${you.target}.`;
        fill($("gy-candidates"));
        return;
      }
      const data = await loading(gyBox, gyStatus,
        api("POST", "/api/candidates", request({ history: you.history, limit: LIST_LIMIT })));
      if (stale()) return;
      renderYou(data.remaining, data.candidates);
    } catch (e) {
      if (!stale()) setError(gyError, e.message);
    } finally {
      if (!stale()) you.busy = false;
    }
  });
  $("gy-new").addEventListener("click", youStart);
  $("gy-giveup").addEventListener("click", () => {
    if (!you.target) return;
    you.over = true;
    renderYou();
    gyStatus.dataset.state = "gave-up";
    gyStatus.textContent = `The secret was ${you.target}.`;
    fill($("gy-candidates"));
  });

  // ------------------------------------------------------------------ switching
  function applyMode() {
    const m = mode();
    $("games-solver").hidden = m !== "solver";
    $("games-you").hidden = m !== "you";
    const g = info();
    const help = fieldHelp(g);
    $("games-help").textContent = !g ? ""
      : `${help ? "" : `Feedback: ${g.feedback.help}. `}Guesses are written like ${g.example_guess}`
        + (g.game === "cards" ? " (suit symbols work too: 5\u2663 J\u2666)." : ".")
        + (g.game === "battleship" ? " In \u201cYou guess\u201d, click three cells of the board." : "");
  }

  function restart() {
    generation += 1;
    applyMode();
    if (!info()) return;
    solverStart();
    youStart();
  }

  select.addEventListener("change", restart);
  document.querySelectorAll("input[name=games-mode]").forEach((radio) => radio.addEventListener("change", applyMode));

  return {
    enter() {
      if (!started) {
        started = true;
        restart();
      }
    },
  };
}
