# Every target creates the virtualenv and installs the project by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= 2
# pytest-xdist workers of `make test`: one more than CI's two cores, as many tests wait on a browser, a server or
# a command they started (docs/pages/getting-started.md, "The test suite's time")
TEST_JOBS ?= 3
# where `make tables` runs the trees' tasks: local, or dask (SCHEDULER=tcp://HOST:PORT, or empty for a
# LocalCluster of JOBS workers here); docs, "Running on a cluster"
BACKEND   ?= local
SCHEDULER ?=

.PHONY: install tables test bench clean-tables docs test-fast

# An editable install: one .pth line puts the checkout itself on the path (every package is the
# folder of its name, pyproject.toml), and the commands go to $(BIN).
$(STAMP): pyproject.toml Makefile
	@echo "Installing deduce with its dependencies (NumPy, Numba, pyarrow, ...) into $(VENV): a minute or two."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -e '.[test,plot,docs,tui]'
	touch $(STAMP)

install: $(STAMP)

## Rebuild every artifact under artifacts/ that is missing or out of date.
tables: $(STAMP)
	$(BIN)/deduce tables --jobs $(JOBS) --backend $(BACKEND) $(if $(SCHEDULER),--scheduler $(SCHEDULER))

## The linter (ruff, configured in pyproject.toml), then the test suite (what CI runs), on TEST_JOBS processes (pytest-xdist).
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n $(TEST_JOBS)

## The suite without the tests marked slow (the long replays; `make test` runs them too).
test-fast: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) -m "not slow"

## Throughput and latency benchmarks (not tests).
bench: $(STAMP)
	$(BIN)/python -m pipeline.benchmarks

## The documentation site (docs/mkdocs.yml, pages in docs/pages/), built into build/site; fails on any warning.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict -f docs/mkdocs.yml

clean-tables:
	rm -f artifacts/table-*.parquet
