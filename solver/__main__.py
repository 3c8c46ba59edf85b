"""`python -m solver`: the `deduce` command line."""
from solver.cli.main import app

app(prog_name="deduce")
