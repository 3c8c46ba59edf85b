// Tiles sized from the screen, as the NYT's Wordle and Quordle size theirs: the boards, what sits between
// them and the keyboard (the hint line), and the keyboard fit the window's height from where the boards
// start, and the window's width. Several boards are laid out in the number of columns that gives the
// largest tiles (Quordle: four in a row on a wide screen, two by two on a phone).

const MAX_TILE = 62; // px: the NYT's tile
const MIN_TILE = 14; // px: below this a letter is unreadable; the page scrolls instead
const SPARE = 6; // px left under the keyboard

/** The gap between tiles of `tile` px, in px. */
const gapOf = (tile) => Math.max(2, Math.round(tile * 0.08));

/** The span (px) of `n` tiles of `tile` px with their gaps. */
const span = (n, tile) => n * tile + (n - 1) * gapOf(tile);

/** The tile size (px) and board columns that fit `boards` boards of `rows` rows of `cols` tiles in
 * `width` x `height` px, with `boardGap` px between boards; never under MIN_TILE. */
export function layout(boards, rows, cols, width, height, boardGap, max = MAX_TILE) {
  let best = { tile: 0, columns: 1 };
  for (const columns of [1, 2, 4, 8].filter((c) => c <= boards)) {
    const lines = Math.ceil(boards / columns);
    const across = (width - (columns - 1) * boardGap) / columns;
    const down = (height - (lines - 1) * boardGap) / lines;
    let tile = max;
    while (tile > MIN_TILE && (span(cols, tile) > across || span(rows, tile) > down)) tile -= 1;
    if (tile > best.tile) best = { tile, columns };
  }
  return best;
}

/** Size the tiles of `grid` (one board, or a grid of `boards` boards) so that everything down to the bottom
 * of `keyboard` shows in the window: sets --tile, --gap and --columns on `grid`. `rows`: the rows each board
 * shows; `cols`: the letters of a word. Return the layout chosen. */
export function fitTiles(grid, keyboard, { boards = 1, rows, cols, max = MAX_TILE }) {
  if (!grid.offsetParent || !keyboard.offsetParent) return null; // not on show: measured when it is
  const gridBox = grid.getBoundingClientRect();
  const keysBox = keyboard.getBoundingClientRect();
  const top = gridBox.top + window.scrollY; // where the boards start in the page
  const below = keysBox.bottom - gridBox.bottom; // the hint line, the keyboard and their margins
  const height = window.innerHeight - top - below - SPARE;
  const width = grid.parentElement.clientWidth;
  const boardGap = boards > 1 ? 12 : 0;
  const chosen = layout(boards, rows, cols, width, height, boardGap, max);
  grid.style.setProperty("--tile", `${chosen.tile}px`);
  grid.style.setProperty("--gap", `${gapOf(chosen.tile)}px`);
  grid.style.setProperty("--cols", String(cols));
  grid.style.setProperty("--columns", String(chosen.columns));
  return chosen;
}

/** Call `fit` now, after every resize of the window and whenever `nodes` change size (a line of text
 * wrapping, an options panel opened). */
export function keepFitted(fit, nodes = []) {
  let frame = 0;
  const again = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(fit);
  };
  window.addEventListener("resize", again);
  if (typeof ResizeObserver === "function") {
    const observer = new ResizeObserver(again);
    nodes.filter(Boolean).forEach((node) => observer.observe(node));
  }
  fit();
  return again;
}
