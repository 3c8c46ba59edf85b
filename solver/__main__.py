"""`python -m solver`: the `deduce` command line (through the resident process when there is one)."""
from solver.cli.resident import main

main()
