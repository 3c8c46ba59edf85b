"""The exact search (core): least expected guesses over a set of candidates, and the optimal subtree.

* `engine`: `Searcher` (one game's feedback table and memo; values, lower bounds, `grow`) and
  `SearchOptions` (prove, or top-k);
* `kernel`: the Numba branch and bound it runs (a work limit makes it anytime);
* `hard`: the hard-mode rule of mark games (Wordle's) the kernel compiles;
* `nodes`: the `Nodes` a grown subtree is made of (the pipeline writes them as tree artifacts).

The pipeline builds trees and opener rankings with it; the runtime solver plays off the tree with it
(`solver.core.exact`).
"""
