# The README's commands. Each target sets up .venv itself, so a fresh clone with
# nothing but Python needs no other step.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup report test lab lint format clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The dominated choices first (exact, a page per game), so the index links them.
report: setup
	$(BIN)/mechbal dominated
	$(BIN)/mechbal report --jobs 2 --robust-budget 30

# Both cores (CI has 2): a test file stays on one worker, so module fixtures are built once.
test: setup
	$(BIN)/ruff check sims analysis tests benchmarks
	$(BIN)/ruff format --check sims analysis tests benchmarks
	$(BIN)/python -m pytest -n 2 --dist loadfile

lab: setup
	$(BIN)/jupyter lab notebooks

lint: setup
	$(BIN)/ruff check sims analysis tests benchmarks
	$(BIN)/ruff format --check sims analysis tests benchmarks

# Rewrites the code in the one style `make test` checks.
format: setup
	$(BIN)/ruff format sims analysis tests benchmarks
	$(BIN)/ruff check --fix sims analysis tests benchmarks

clean:
	rm -rf $(VENV) reports/tables reports/*.html
