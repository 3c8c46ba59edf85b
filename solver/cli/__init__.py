"""The `deduce` command line (a face): the typer application and what only it shows.

* `main`: the typer app and its commands (`deduce`, `python -m solver`);
* `options`: the options every command shares, defined once; `errors`: the error edge and the exit
  statuses (one-line errors, `typer.Exit(code)`);
* `sessions`, `boards`: the interactive dialogues (`solve`, `hide`, several boards);
* `views`: the `tree` command's output; `why`: the "Why GUESS:" block;
* `bench`, `openers`: benchmarks and opener rankings (`openers --exact` through the pipeline);
* `serve`: starts the web page's server (uvicorn loads the web app by name: no import of it here).

Uses the analysis layer (and the pipeline for builds); never the web app or the `wordle` program.
"""
