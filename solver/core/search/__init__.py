"""The exact search (core): least expected guesses over a set of candidates, and the optimal subtree.

* `searcher`: `Searcher` (one game's feedback table and memo; values, lower bounds, `grow`) and
  `SearchOptions` (prove, or top-k);
* `kernel`: the Numba branch and bound it runs (a work limit makes it anytime);
* `parallel`: one opener's classes on several threads sharing one memo;
* `live`: `ExactLive`, the budgeted search the runtime solver plays off the tree with;
* `nodes`: the `Nodes` a grown subtree is made of (the pipeline writes them as tree artifacts);
* `watch`: progress of a long search and its interruption.

The pipeline builds trees and opener rankings with it (`pipeline.builders`); the runtime solver
(`solver.core.runtime`) plays off the tree with `live`.
"""
