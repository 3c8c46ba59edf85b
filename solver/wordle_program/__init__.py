"""The `wordle` program of the specification (a face): the game a person plays in a terminal.

* `app`: the console script (`wordle`): options, config file, state file, the run;
* `rounds`: the rules of a round (one board, or several) and the game loop over a UI;
* `terminal`: the two UIs (the specification's test mode, and the rich terminal);
* `records`: the state file and the statistics; `share`: the emoji share grid;
* `rustrand`: the Rust `StdRng` port that picks the answers as the specification's program does.

Uses the games layer (the feedback rule and word lists); never the other faces.
"""
