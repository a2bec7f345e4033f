# Two commands from a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# assay's packages, compiled to bytecode at install as pip compiles the packages it installs (an
# editable install does not), so that no launch compiles them: PYTHONDONTWRITEBYTECODE stops
# Python writing .pyc files, not reading them
PACKAGES := evidence db tui screens keymaps
# an editable install compiles the index scan beside its source (hatch_build.py): installed
# again when it changes
BUILT := pyproject.toml hatch_build.py evidence/anchoring/_wordscan.c

.PHONY: demo test test-oldest lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# `make demo`: assay and its runtime dependencies only
$(VENV)/.installed: $(BUILT) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q $(PACKAGES)
	touch $@

# `make test`, `make lint`: with the test and dev extras
$(VENV)/.installed-test: $(BUILT) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	$(BIN)/python -m compileall -q $(PACKAGES)
	touch $@

demo: $(VENV)/.installed
	$(BIN)/python -m compileall -q $(PACKAGES)  # sources edited since: compiled again
	$(BIN)/assay demo

# the suite's tests wait on the app's timers and frames (run_test) about half their time: two
# pytest workers per core keep the cores busy (2 cores: 269 s with a worker per core, 180 s);
# past 8 cores, 8 more than the cores (each worker holds an app's memory)
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; n = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count() or 1; print(n + min(n, 8))")

# what CI runs (.ci/run): the checks of `make lint`, then the test suite
test: lint
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS)

# ruff, the import contracts of pyproject.toml (layers, no textual in the core, no cycles), mypy
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	for conftest in tests/*/conftest.py; do $(BIN)/mypy $$conftest || exit 1; done

# on the oldest Textual that pyproject.toml admits (its lower bound), in its own venv: every
# screen as the snapshots draw it, the app's start and crash handling, and the review and browse
# screens' keys (the whole suite twice would not fit CI's five minutes on two cores)
TEXTUAL_OLDEST := 8.2.0
OLDEST := .venv-oldest
$(OLDEST)/.installed: $(BUILT)
	$(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet --upgrade pip
	$(OLDEST)/bin/python -m pip install --quiet -e '.[test]' 'textual==$(TEXTUAL_OLDEST)'
	touch $@

test-oldest: $(OLDEST)/.installed
	$(OLDEST)/bin/python -m pytest -q -n $(TEST_WORKERS) -m "not slow" tests/snapshots tests/tui \
		tests/screens/test_review_screen.py tests/screens/test_lookup_browse.py

bench: $(VENV)/.installed-test
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) $(OLDEST) .pytest_cache .ruff_cache .mypy_cache
