# `make run` starts the web app; `make test` runs ruff, mypy and the whole test suite.
# Both set everything up first, so they work from a clean clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

OLDEST := .venv-oldest

.PHONY: run test test-oldest install dev system-deps lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: $(VENV)/.installed pyproject.toml
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

dev: $(VENV)/.dev-installed system-deps

# Debian's Chromium for the browser tests (Playwright drives it; no browser download).
system-deps:
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

run: install
	$(BIN)/gridgames serve --host $(HOST) --port $(PORT)

lint: dev
	$(BIN)/ruff check src tests benchmarks

typecheck: dev
	$(BIN)/mypy

pytest: dev
	$(BIN)/pytest

test: dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest

# The engine and rules tests on the oldest numba, numpy and llvmlite we support
# (constraints/oldest.txt), in a venv of their own with its own kernel cache.
$(OLDEST)/.installed: pyproject.toml constraints/oldest.txt
	$(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet --upgrade pip
	$(OLDEST)/bin/pip install --quiet -c constraints/oldest.txt -e . \
		'pytest>=8' 'pytest-timeout>=2.2' 'hypothesis>=6.100'
	touch $@

test-oldest: $(OLDEST)/.installed
	$(OLDEST)/bin/python -c "import numba, numpy; print('numba', numba.__version__, 'numpy', numpy.__version__)"
	NUMBA_CACHE_DIR=$(CURDIR)/$(OLDEST)/numba-cache $(OLDEST)/bin/pytest -q \
		tests/gomoku tests/queens tests/test_numba_untouched.py

clean:
	rm -rf $(VENV) $(OLDEST) .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
