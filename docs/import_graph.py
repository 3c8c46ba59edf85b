"""Draw the package-level import graph of `solver` and `pipeline` as an SVG, in layers.

Reads the imports of every module of the packages `solver` and `pipeline` under a checkout (with
`import_reader`, beside this file, the layer test's reader: at module level, inside functions and the
`lazy_module` calls of `solver.cli.lazy`), folds them into imports between packages
(`solver.core`, `solver.core.search`, `solver.games`, ..., `pipeline.builders`, ...), and draws one
box per package with its number of modules, one row per layer (the lowest at the bottom), and one
arrow per importing package pair (thicker for more import statements; hover an arrow for the
count). An arrow that runs up a layer, or between two faces, is drawn red and dashed: the layer
rule (`tests/test_layers.py`) forbids it.

Standard library only (no graphviz):

    python docs/import_graph.py --root . --out docs/pages/img/layers-after.svg --title "After: the current layout"
    git worktree add /tmp/before 523fd24
    python docs/import_graph.py --root /tmp/before --out docs/pages/img/layers-before.svg \
        --title "Before: the layout at 523fd24"
    git worktree remove /tmp/before

The layers are `import_reader.LAYERS`, those `tests/test_layers.py` checks.
"""
from __future__ import annotations

import argparse
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path
from xml.sax.saxutils import escape

from import_reader import (  # docs/ beside this file
    LAYERS,
    SIBLINGS,
    TOP_PACKAGES,
    find_modules,
    layer_of,
    read_imports,
)

FILLS = ["#e3f2fd", "#e8f5e9", "#fff8e1", "#f3e5f5", "#fbe9e7", "#eceff1", "#e0f7fa"]
STROKES = ["#1565c0", "#2e7d32", "#f9a825", "#6a1b9a", "#d84315", "#455a64", "#00838f"]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CHAR_W = 7.4  # average width of a 13 px character, for sizing the boxes
BOX_H, ROW_GAP, BOX_GAP, MARGIN, LABEL_W, MIN_INNER = 46, 84, 36, 24, 118, 760
LEGEND = ("Layers lowest at the bottom; an arrow points from the importing package to the imported one, "
          "thicker for more import statements.")


# ---------------------------------------------------------------- reading the imports

def package_of(module: str, modules: dict[str, Path]) -> str:
    """A package module is its own package; any other module belongs to the folder holding it."""
    path = modules[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def package_imports(root: Path) -> tuple[Counter, Counter]:
    """Return (modules per package, import statements per (importing package, imported package)) of the
    checkout at `root`: every import `import_reader` reads (inside functions and `lazy_module` calls too)."""
    modules = find_modules(root)
    if not modules:
        raise SystemExit(f"no modules of {' or '.join(TOP_PACKAGES)} under {root}")
    edges: Counter = Counter()
    for edge in read_imports(root, modules):
        if edge.target in modules:
            a, b = package_of(edge.module, modules), package_of(edge.target, modules)
            if a != b:
                edges[a, b] += 1
    return Counter(package_of(m, modules) for m in modules), edges


def layer(package: str) -> int:
    """Return the layer number of a package."""
    try:
        return layer_of(package)[0]
    except ValueError as err:
        raise SystemExit(str(err)) from None


# ---------------------------------------------------------------- layout

def label(package: str) -> str:
    return "solver (face)" if package == "solver" else package


def order_rows(rows: dict[int, list[str]], edges: Counter) -> None:
    """Order each row's boxes by the mean position of their neighbours (a few barycentre sweeps)."""
    neighbours = defaultdict(list)
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    for _ in range(6):
        place = {p: i / max(1, len(row) - 1) for row in rows.values() for i, p in enumerate(row)}
        for number in sorted(rows):
            row = rows[number]

            def key(p: str, row: list[str] = row, place: dict = place) -> tuple[float, str]:
                others = [place[q] for q in neighbours[p] if q not in row]
                return (sum(others) / len(others) if others else place[p], p)

            row.sort(key=key)
            for i, p in enumerate(row):
                place[p] = i / max(1, len(row) - 1)


def draw(root: Path, title: str) -> str:
    counts, edges = package_imports(root)
    modules = sum(counts.values())
    rows: dict[int, list[str]] = defaultdict(list)
    for package in sorted(counts):
        rows[layer(package)].append(package)
    order_rows(rows, edges)

    width_of = {p: max(len(label(p)), len(f"{counts[p]} modules")) * CHAR_W + 28 for p in counts}
    # each row's boxes spread evenly over the same width, so that long arrows pass between boxes
    slot = max(w for w in width_of.values()) + BOX_GAP
    inner = max(MIN_INNER, max(len(row) for row in rows.values()) * slot)
    subtitle = (f"{modules} modules in {len(counts)} packages; {len(edges)} package imports "
                f"({sum(edges.values())} import statements between packages)")
    width = max(LABEL_W + inner + 2 * MARGIN, (len(LEGEND) + 4) * CHAR_W + 2 * MARGIN)
    inner = width - LABEL_W - 2 * MARGIN
    top = 72
    layer_numbers = sorted(rows)
    height = top + len(layer_numbers) * BOX_H + (len(layer_numbers) - 1) * ROW_GAP + 84
    box: dict[str, tuple[float, float, float]] = {}  # package: (x, y, width)
    for index, number in enumerate(reversed(layer_numbers)):
        y = top + index * (BOX_H + ROW_GAP)
        row = rows[number]
        for i, package in enumerate(row):
            centre_x = LABEL_W + MARGIN + inner * (i + 0.5) / len(row)
            box[package] = (centre_x - width_of[package] / 2, y, width_of[package])

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" font-size="13">'),
           "<defs>"]
    for name, colour in (("ok", "#546e7a"), ("bad", "#c62828")):
        out.append(f'<marker id="arrow-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="10" '
                   f'markerHeight="10" markerUnits="userSpaceOnUse" orient="auto">'
                   f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
    out.append("</defs>")
    out.append('<rect width="100%" height="100%" fill="#ffffff"/>')
    out.append(f'<text x="{MARGIN}" y="30" font-size="17" font-weight="bold">{escape(title)}</text>')
    out.append(f'<text x="{MARGIN}" y="52" fill="#455a64">{escape(subtitle)}</text>')

    # layer bands and names
    for index, number in enumerate(reversed(layer_numbers)):
        y = top + index * (BOX_H + ROW_GAP)
        out.append(f'<rect x="{MARGIN / 2:.0f}" y="{y - 12}" width="{width - MARGIN:.0f}" height="{BOX_H + 24}" '
                   f'rx="8" fill="{FILLS[number % len(FILLS)]}" fill-opacity="0.45"/>')
        out.append(f'<text x="{MARGIN}" y="{y + BOX_H / 2 + 5:.0f}" font-weight="bold" '
                   f'fill="{STROKES[number % len(STROKES)]}">{escape(LAYERS[number][0])}</text>')

    # arrows: ports spread along the boxes' edges, in the order of the other ends
    outgoing, incoming = defaultdict(list), defaultdict(list)
    for (a, b) in edges:
        outgoing[a].append(b)
        incoming[b].append(a)

    def centre(p: str) -> float:
        x, _, w = box[p]
        return x + w / 2

    def port(p: str, others: list[str], other: str) -> float:
        ordered = sorted(others, key=lambda q: (centre(q), q))
        x, _, w = box[p]
        return x + w * (ordered.index(other) + 1) / (len(ordered) + 1)

    bad_count = 0
    for (a, b), count in sorted(edges.items()):
        la, lb = layer(a), layer(b)
        bad = lb > la or (la == lb and LAYERS[la][0] in SIBLINGS)
        bad_count += bad
        colour = "#c62828" if bad else "#546e7a"
        stroke = 1.0 + 0.7 * math.log2(count)
        (_, ya, _), (_, yb, _) = box[a], box[b]
        sx, tx = port(a, outgoing[a], b), port(b, incoming[b], a)
        if ya < yb:  # a above b: down, the usual direction
            y1, y2 = ya + BOX_H, yb
            bend = (y2 - y1) * 0.45
            path = f"M{sx:.1f},{y1:.1f} C{sx:.1f},{y1 + bend:.1f} {tx:.1f},{y2 - bend:.1f} {tx:.1f},{y2:.1f}"
        elif ya > yb:  # a below b: up a layer
            y1, y2 = ya, yb + BOX_H
            bend = (y1 - y2) * 0.45
            path = f"M{sx:.1f},{y1:.1f} C{sx:.1f},{y1 - bend:.1f} {tx:.1f},{y2 + bend:.1f} {tx:.1f},{y2:.1f}"
        else:  # the same row: an arc under the boxes
            y1 = ya + BOX_H
            lift = 26 + 0.08 * abs(tx - sx)
            path = f"M{sx:.1f},{y1:.1f} C{sx:.1f},{y1 + lift:.1f} {tx:.1f},{y1 + lift:.1f} {tx:.1f},{y1:.1f}"
        dash = ' stroke-dasharray="6 4"' if bad else ""
        out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{stroke:.2f}" '
                   f'stroke-opacity="0.85"{dash} marker-end="url(#arrow-{"bad" if bad else "ok"})">'
                   f'<title>{escape(label(a))} imports {escape(label(b))}: {count} import '
                   f'statement{"s" if count != 1 else ""}</title></path>')

    for package, (x, y, w) in box.items():
        number = layer(package)
        out.append(f'<g><title>{escape(label(package))}: {counts[package]} modules</title>'
                   f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{BOX_H}" rx="6" fill="#ffffff" '
                   f'stroke="{STROKES[number % len(STROKES)]}" stroke-width="1.6"/>'
                   f'<text x="{x + w / 2:.1f}" y="{y + 19}" text-anchor="middle" font-weight="bold">'
                   f'{escape(label(package))}</text>'
                   f'<text x="{x + w / 2:.1f}" y="{y + 36}" text-anchor="middle" fill="#455a64" font-size="12">'
                   f'{counts[package]} module{"s" if counts[package] != 1 else ""}</text></g>')

    legend_y = height - 30
    out.append(f'<text x="{MARGIN}" y="{legend_y}" fill="#455a64">{escape(LEGEND)}</text>')
    note = (f"{bad_count} red dashed arrow{'s' if bad_count != 1 else ''}: imports up a layer or between "
            f"two faces" if bad_count else "No import runs up a layer or between two faces.")
    out.append(f'<text x="{MARGIN}" y="{legend_y + 18}" fill="{"#c62828" if bad_count else "#2e7d32"}">'
               f'{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path("."), help="the checkout to read (default: .)")
    parser.add_argument("--out", type=Path, required=True, help="the SVG file to write")
    parser.add_argument("--title", help="the picture's title (default: the package graph of ROOT)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    svg = draw(root, args.title or f"Package imports of solver and pipeline ({root.name})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(svg, encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
