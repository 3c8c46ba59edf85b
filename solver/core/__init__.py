"""The core layer: what every game and face stands on.

* `game`: the shape of a game (`Game`: encoded guesses, targets, one feedback rule);
* `registry`: the built-in games and variants by name (`get_game`), and which have tables;
* `runtime`: the runtime solver (`Solver`: tree lookup, live choice off the tree);
* `strategy`: the greedy guess-choosing rule shared by the live solver and the tree builder;
* `scoring`: Numba kernels over a game's rule: feedback tables and partition scores (imported only
  on the compute path);
* `search`: the exact search (branch and bound, its workspace, the budgeted live search);
* `artifacts`: every artifact's file name, schema and metadata, and where they live;
* `symmetry`: reduction of guesses by the symmetries of a game;
* `bounded_input` (bounded reading), `atomic` (atomic writing), `progress` (progress bars on stderr).

Nothing here imports a higher layer (games, analysis, pipeline, faces).
"""
