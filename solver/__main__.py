"""`python -m solver`: the `deduce` command line."""
from solver.cli import app

app(prog_name="deduce")
