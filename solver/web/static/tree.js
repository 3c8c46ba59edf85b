// Tree explorer: walk a precomputed decision tree node by node. The path lives in the URL hash:
// #tree/<game>/<variant>/<guess>=<feedback>,<guess>=<feedback>,... (Wordle marks like RRYRG; the
// other games' numbers joined by dots, e.g. 1.0.2), so a link opens the same node.
import { api, byId, barChart, el, feedbackText, fill, fillSelect, findGame, number, setError } from "./common.js";

const STATE = { G: "correct", Y: "present", R: "absent" };

export function encodePath(path) {
  return path.map(({ guess, feedback }) =>
    `${encodeURIComponent(guess)}=${Array.isArray(feedback) ? feedback.join(".") : feedback}`).join(",");
}

export function decodePath(text, marks) {
  if (!text) return [];
  return text.split(",").filter(Boolean).map((item) => {
    const at = item.lastIndexOf("=");
    if (at < 0) throw new Error(`no feedback in ${item}`);
    const guess = decodeURIComponent(item.slice(0, at));
    const raw = decodeURIComponent(item.slice(at + 1));
    return { guess, feedback: marks ? raw.toUpperCase() : raw.split(".").map(Number) };
  });
}

export function initTree(allGames) {
  const $ = byId;
  const games = allGames.filter((g) => g.has_tree);
  const select = $("tree-select");
  const error = $("tree-error");
  fillSelect(select, games, games.find((g) => g.game === "wordle" && g.default) ? "wordle/normal" : null);
  let request = 0;
  let shown = null; // key of what is displayed: game/variant/path

  function names(g) {
    return (g.feedback?.names || []).map((n) => n.replace(/_/g, " "));
  }

  function marksFeedback(g) {
    return g.feedback?.kind === "marks";
  }

  function link(g, path) {
    const tail = path.length ? `/${encodePath(path)}` : "";
    return `#tree/${encodeURIComponent(g.game)}/${encodeURIComponent(g.variant)}${tail}`;
  }

  function feedbackView(g, guess, feedback, compact = false) {
    if (compact && Array.isArray(feedback)) return el("span", { class: "fb num-fb" }, feedback.join(" \u00b7 "));
    if (typeof feedback === "string" && marksFeedback(g)) {
      return el("span", { class: "mini-tiles", "aria-label": feedback, title: feedback },
        [...feedback].map((mark, i) => el("span", { class: "mini", "data-state": STATE[mark] || "absent" },
          guess ? guess[i] || "" : "")));
    }
    return el("span", { class: "fb" }, feedbackText(feedback, names(g)));
  }

  function renderCrumbs(g, path) {
    const items = [el("li", {}, el("a", { href: link(g, []), "aria-current": path.length ? null : "page" }, "Start"))];
    path.forEach((step, i) => {
      const here = i === path.length - 1;
      items.push(el("li", {}, el("a", { href: link(g, path.slice(0, i + 1)), "aria-current": here ? "page" : null },
        marksFeedback(g) ? feedbackView(g, step.guess, step.feedback)
          : [el("span", { class: "guess-text" }, step.guess), " \u2192 ", feedbackView(g, step.guess, step.feedback)])));
    });
    fill($("tree-crumbs"), el("ol", {}, items));
  }

  function render(g, path, data) {
    const node = data.node;
    renderCrumbs(g, path);
    const facts = [
      ["Guesses so far", number(node.depth)],
      ["Possible answers here", number(node.remaining)],
      ["Expected guesses from here", node.expected_guesses == null ? "–" : number(node.expected_guesses, 3)],
      ["Worst case from here", node.worst_guesses == null ? "–" : number(node.worst_guesses)],
    ];
    if (g.tree_label) facts.push(["The whole tree", g.tree_label]);
    fill($("tree-node"),
      el("p", { class: "node-guess" },
        node.guess ? ["Guess ", el("strong", { id: "tree-guess", class: "guess-text" }, node.guess)]
          : el("strong", { id: "tree-guess", class: "solved" }, "Solved")),
      el("dl", { class: "facts" }, facts.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, v)))),
      data.on_tree ? null : el("p", { class: "hint", id: "tree-live" },
        "This path leaves the precomputed tree: the guesses and numbers are the live solver's, played out from here."));

    const tbody = $("tree-children").querySelector("tbody");
    const rows = (data.children || []).map((child) => {
      const step = { guess: node.guess, feedback: child.feedback };
      const href = link(g, [...path, step]);
      const cells = [
        el("td", {}, child.win ? el("span", { class: "win" }, feedbackView(g, node.guess, child.feedback, true), " found")
          : el("a", { href, class: "child-link", "aria-label": `After ${feedbackText(child.feedback, names(g))}: ${child.remaining} left` },
            feedbackView(g, node.guess, child.feedback, true))),
        el("td", { class: "num" }, number(child.remaining)),
        el("td", { class: "guess-text" }, child.win ? "✓" : child.guess ?? "–"),
        el("td", { class: "num" }, child.expected_guesses == null ? "–" : number(child.expected_guesses, 2)),
      ];
      const tr = el("tr", { class: child.win ? "win-row" : "child-row" }, cells);
      if (!child.win) {
        tr.addEventListener("click", (event) => {
          if (!event.target.closest("a")) location.hash = href;
        });
      }
      return tr;
    });
    fill(tbody, rows);
    $("tree-feedback-head").textContent = marksFeedback(g) ? "Feedback" : `Feedback (${names(g).join(", ")})`;
    $("tree-children-title").textContent = node.guess
      ? `What ${node.guess} can show (${rows.length})` : "No more guesses";
    const dist = Object.entries(data.distribution || {}).sort((a, b) => Number(a[0]) - Number(b[0]));
    barChart($("tree-dist"), dist);
    document.querySelector("#panel-tree").dataset.loaded = `${g.game}/${g.variant}/${encodePath(path)}`;
  }

  /** Show only an error: the node, its answers and distribution of an earlier page are cleared. */
  function showError(g, path, message) {
    shown = null;
    if (g) renderCrumbs(g, path); else fill($("tree-crumbs"));
    fill($("tree-node"));
    $("tree-node").hidden = true;
    fill($("tree-children").querySelector("tbody"));
    $("tree-children-title").textContent = "Answers to this guess";
    fill($("tree-dist"));
    $("tree-columns").hidden = true;
    setError(error, message);
  }

  async function load(g, path) {
    const key = `${g.game}/${g.variant}/${encodePath(path)}`;
    if (key === shown) return;
    const id = ++request;
    $("panel-tree").dataset.loaded = "";
    try {
      const data = await api("POST", "/api/tree", { game: g.game, variant: g.variant, path });
      if (id !== request) return;
      setError(error, "");
      $("tree-node").hidden = false;
      $("tree-columns").hidden = false;
      shown = key;
      render(g, path, data);
    } catch (e) {
      if (id !== request) return;
      showError(g, path, e.message);
    }
  }

  select.addEventListener("change", () => {
    const g = findGame(games, select.value);
    if (g) location.hash = link(g, []);
  });

  return {
    enter(rest) {
      const [gameName, variantName, pathText] = (rest || []).map((part) => part);
      const wanted = gameName ? decodeURIComponent(gameName) : null;
      const variant = variantName ? decodeURIComponent(variantName) : null;
      let g = wanted ? games.find((x) => x.game === wanted && (variant ? x.variant === variant : x.default)) : null;
      if (wanted && !g) {
        request += 1; // an answer still coming for an earlier link is dropped
        const known = [...new Set(games.map((x) => x.game))];
        const variants = games.filter((x) => x.game === wanted).map((x) => x.variant);
        showError(null, [], variants.length
          ? `Unknown variant of ${wanted}: ${variant}. Choose from ${variants.join(", ")}.`
          : `Unknown game: ${wanted}. The tree explorer has ${known.join(", ")}.`);
        return;
      }
      if (!g) {
        g = findGame(games, select.value) || games[0];
        if (!g) {
          setError(error, "No precomputed tree is available.");
          return;
        }
        history.replaceState(null, "", link(g, []));
      }
      select.value = `${g.game}/${g.variant}`;
      let path = [];
      try {
        path = decodePath(pathText, marksFeedback(g));
      } catch (e) {
        request += 1;
        showError(g, [], "This link's path cannot be read.");
        return;
      }
      load(g, path);
    },
  };
}
