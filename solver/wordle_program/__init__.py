"""The `wordle` program of the specification (a face): the game a person plays in a terminal.

* `program`: the console script (`wordle`): options, config file, state file, the run;
* `rounds`: the rules of a round (one board, or several), the keyboard and the emoji share grid;
* `play`: the game loop over a UI, and the answers of the day;
* `terminal`: the two UIs (the specification's test mode, and the rich terminal); `tui`: the full-screen
  UI (`--tui`, Textual), with `advice`: its hint, review and coach panels as text;
* `review_line`: the review line after a game; `records`: the state file and the statistics;
* `rustrand`: the Rust `StdRng` port that picks the answers as the specification's program does.

Uses the games layer (the feedback rule and word lists); never the other faces.
"""
