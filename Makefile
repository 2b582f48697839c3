# `make run` starts the web app; `make test` runs ruff, mypy and the whole test suite.
# Both set everything up first, so they work from a clean clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

OLDEST := .venv-oldest

.PHONY: run test test-oldest install dev system-deps lint typecheck pytest bench clean

.PHONY: help docs docs-serve plots screenshots dist clean-built
.DEFAULT_GOAL := help

help: ## list the targets
	@echo "make TARGET, where TARGET is one of:"
	@awk -F ':.*## ' '/^[a-z][a-z-]*:.*## / {printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: $(VENV)/.installed pyproject.toml
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed ## create .venv with the project (editable)

dev: $(VENV)/.dev-installed system-deps ## install, plus the dev, docs and plot tools and chromium

# Debian's Chromium for the browser tests (Playwright drives it; no browser download).
system-deps: ## Debian's chromium for the browser tests (apt-get)
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

run: install ## start the web app on http://$(HOST):$(PORT)/ (HOST=, PORT=)
	$(BIN)/gridgames serve --host $(HOST) --port $(PORT)

docs: dev ## build the documentation site into site/ (mkdocs build --strict)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: dev ## serve the documentation on http://127.0.0.1:8001/ while editing
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

plots: dev ## redraw the docs' plots (docs/img/) from benchmarks/results/
	$(BIN)/python benchmarks/plots.py

screenshots: dev ## refresh the docs' screenshots (docs/img/) from the browser and terminal tests
	GRIDGAMES_DOCS_IMAGES=1 $(BIN)/pytest -q tests/web/test_web_browser.py::test_screenshots_for_the_docs \
		tests/web/test_web_browser.py::test_a_soosorv_opening_between_two_humans_with_every_control \
		tests/web/test_web_browser.py::test_a_game_on_a_clock_against_the_computer \
		tests/cli/test_play.py::test_a_game_against_the_computer_as_the_docs_show_it

dist: dev ## build the sdist and the wheel into dist/
	$(BIN)/python -m build

clean: clean-built ## remove .venv, the caches, site/ and dist/

clean-built:
	rm -rf site dist build

lint: dev ## ruff
	$(BIN)/ruff check src tests benchmarks

typecheck: dev ## mypy
	$(BIN)/mypy

pytest: dev ## the test suite only
	$(BIN)/pytest

test: dev ## ruff, mypy, the whole test suite and the strict docs build
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# The engine, rules and web tests on the oldest releases of every dependency we support
# (constraints/oldest.txt), in a venv of their own with its own kernel cache. The page's
# own browser tests and the load tests stay with `make test`.
$(OLDEST)/.installed: pyproject.toml constraints/oldest.txt
	$(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet --upgrade pip
	$(OLDEST)/bin/pip install --quiet -c constraints/oldest.txt -e . \
		'pytest>=8' 'pytest-timeout>=2.2' 'hypothesis>=6.100' 'httpx>=0.27' 'schemathesis>=3.30' \
		'playwright>=1.45'
	touch $@

test-oldest: $(OLDEST)/.installed ## the engine, rules and web tests on the oldest dependencies
	$(OLDEST)/bin/pip list --format=freeze 2>/dev/null | grep -i -E \
		'^(numba|numpy|llvmlite|fastapi|starlette|pydantic|uvicorn|platformdirs)=='
	NUMBA_CACHE_DIR=$(CURDIR)/$(OLDEST)/numba-cache $(OLDEST)/bin/pytest -q \
		tests/gomoku tests/queens tests/test_numba_untouched.py
	NUMBA_CACHE_DIR=$(CURDIR)/$(OLDEST)/numba-cache $(OLDEST)/bin/pytest -q tests/web \
		--ignore=tests/web/test_web_browser.py --ignore=tests/web/test_web_load.py

clean:
	rm -rf $(VENV) $(OLDEST) .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
