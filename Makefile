# parlour's front door. Every target sets itself up: a fresh clone needs only Python >= 3.11.
PYTHON ?= python3
HOST   ?= 127.0.0.1
PORT   ?= 8000
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: serve test test-process test-cluster test-cluster-logged lint bench strength load clean

# The install goes through uv where it can be had (~5 s on the 2-core machine, where pip took
# ~40 s of a clean clone's `make test`: docs/lab/test-suite.md); pip does it where uv cannot be
# installed, and the requirements are pyproject.toml's either way.
$(STAMP): pyproject.toml hatch_build.py $(wildcard src/parlour/*/*/*.c)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if $(BIN)/python -m pip install --quiet --disable-pip-version-check uv; then \
		echo "$(BIN)/uv pip install -e '.[dev,train]'"; \
		$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev,train]'; \
	else \
		echo "uv could not be installed: pip installs instead"; \
		$(BIN)/python -m pip install --quiet --upgrade pip && \
		$(BIN)/python -m pip install --quiet -e '.[dev,train]'; \
	fi
	@touch $(STAMP)

## serve: the main job: the web app on http://127.0.0.1:8000 (embedded SQLite store in ./var/).
##        `make serve HOST=0.0.0.0` lets phones on the same Wi-Fi join (it prints the address).
serve: $(STAMP)
	$(BIN)/parlour serve --host $(HOST) --port $(PORT)

## test: the whole test suite, in two passes that run side by side and must both pass: every
##       test with each server in one process (`make test-process`, shown as it runs), and the
##       server's tests again against a cluster (`make test-cluster`, written to
##       build/test-cluster.log and shown when both are done): neither pass keeps two cores busy
##       all the time, so side by side they end sooner. (`make lint` runs ruff and mypy.)
test: $(STAMP)
	@mkdir -p build
	@echo "The cluster pass runs beside this one; its report follows (as it runs: tail -f build/test-cluster.log)."
	@status=0; \
	$(MAKE) --no-print-directory -j2 test-process test-cluster-logged || status=1; \
	cat build/test-cluster.log; \
	exit $$status

## test-process: every test, each server in one process (SQLite and PostgreSQL), in parallel.
test-process: $(STAMP)
	$(BIN)/python -m pytest -n auto -q -m "not cluster" --durations=20

## test-cluster: the server tests again against a cluster: 2 gateways and 2 table workers on
## PostgreSQL and Redis, each a process (tests/server/cluster_kit.py), with the kill, race,
## lost-message and restart tests (tests/server/test_server_cluster.py). One test at a time: a
## cluster is four server processes beside PostgreSQL and Redis, and a second cluster beside it
## would only share the same cores.
CLUSTER_PASS = PARLOUR_SERVER_MODE=cluster $(BIN)/python -m pytest -q tests/server --durations=20
test-cluster: $(STAMP)
	$(CLUSTER_PASS)

# the cluster pass of `make test`: its report kept whole for the end instead of interleaved, and
# no .pytest_cache written (the other pass writes it at the same time)
test-cluster-logged: $(STAMP)
	@$(CLUSTER_PASS) -p no:cacheprovider > build/test-cluster.log 2>&1

## lint: ruff and mypy over the code.
lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples tools hatch_build.py
	$(BIN)/ruff format --check src tests benchmarks examples tools hatch_build.py
	$(BIN)/mypy
	$(BIN)/mypy tests/conftest.py

## bench: speed figures side by side with peer engines (installed into the venv as the `peers` extra).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,peers]'
	$(BIN)/python benchmarks/whot_speed.py
	$(BIN)/python benchmarks/sorry_speed.py
	$(BIN)/python benchmarks/adapter_speed.py
	$(BIN)/python benchmarks/vector_speed.py
	$(BIN)/python benchmarks/search_speed.py

## strength: bot strength with 95% intervals (long: tens of minutes on 2 cores), and parlour's
##           ISMCTS against OpenSpiel's at 2-player Whot! (400 games; needs the peers).
strength: $(STAMP)
	$(BIN)/python benchmarks/strength.py
	$(BIN)/python -m pip install --quiet -e '.[dev,peers]'
	$(BIN)/python benchmarks/vs_openspiel.py

## load: the web server under N concurrent bot-played tables on loopback.
load: $(STAMP)
	$(BIN)/python benchmarks/server_load.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
