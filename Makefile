# parlour's front door. Every target sets itself up: a fresh clone needs only Python >= 3.11.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: serve test lint bench play clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

## serve: the main job: the web app on http://127.0.0.1:8000 (embedded SQLite store in ./var/).
serve: $(STAMP)
	$(BIN)/parlour serve

## test: the whole test suite (and the linters, which are part of "green").
test: $(STAMP)
	$(BIN)/python -m pytest -n auto -q

## lint: ruff and mypy over the code.
lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

## bench: speed figures side by side with peer engines (installed into the venv as the `peers` extra).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,peers]'
	$(BIN)/python benchmarks/whot_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
