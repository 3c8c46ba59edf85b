"""The business logic behind the `deduce` commands (`solver.cli` only parses and prints).

* `formats`: choosing a game from the command line; parsing guesses, answers and feedback text;
* `walk`: playing a solver's strategy over many targets at once (a tree of states);
* `views`: the `tree` command's node summary, indented tree and Graphviz output;
* `bench`: histograms of guesses per target (with their standard deviation and hardest targets),
  and the ranking of openers;
* `openers`: exact opener totals (`openers --exact`, through `pipeline.search`);
* `scores`: ranking guesses by expected remaining candidates and by entropy (`hint`, `openers`);
* `why`: the "Why GUESS:" block of `hint` and of `solve`'s `why` (computed by `solver.explain`);
* `sessions`: the interactive assistant (`solve`) and the adversarial hider (`hide`).

Every module raises ValueError with a one-line message on bad input; nothing here prints.
"""
