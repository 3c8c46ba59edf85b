"""The `deduce` command line (a face): the typer application and what only it shows.

* `main`: the typer app and its commands (`deduce`, `python -m solver`);
* `options`: the options every command shares, defined once; `errors`: the error edge and the exit
  statuses (one-line errors, `typer.Exit(code)`);
* `sessions`, `board_sessions`: the interactive dialogues (`solve`, `hide`, several boards);
* `views`: the `tree` command's output; `why`: the "Why GUESS:" block; `review_lines`: `review`'s table;
* `bench`, `openers`: `bench`'s and `openers`' figures as text and plots (`openers --exact` through the
  pipeline); `prove`: the proof campaign (`deduce prove`); `proof`: the progress line of `--exact`;
* `serve`: starts the web page's server (uvicorn loads the web app by name: no import of it here);
* `lazy`: the modules the commands load on first use (start-up time).

Uses the analysis layer (and the pipeline for builds); never the web app or the `wordle` program.
"""
