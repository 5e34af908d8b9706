# Phantom League. `make run` and `make test` set everything up themselves (Python 3.11, git and make only).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test unit bench lint install clean browser tools

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is required, found " + sys.version'
	$(PYTHON) -m venv $(VENV)

# pip's own output (on a slow network, a warning per retried download) goes to .venv/pip.log; the terminal gets one
# progress line (deploy/pip_progress.py).
PIP := $(BIN)/python deploy/pip_progress.py $(VENV)/pip.log
PINNED = $(shell grep -c '==' requirements.lock)

$(STAMP): $(BIN)/python pyproject.toml requirements.lock
	@echo "league: installing the pinned dependencies into $(VENV)/ (first run only; pip's output: $(VENV)/pip.log)"
	@$(PIP) 1 -- install --disable-pip-version-check --progress-bar off --upgrade pip
	@$(PIP) $(PINNED) -- install --disable-pip-version-check --progress-bar off -c requirements.lock -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/league up

# Two pytest workers (pytest-xdist), each with PostgreSQL and NATS of its own and whole test files: most tests wait
# on servers and browsers, so two share two cores well. TEST_WORKERS=0 runs the suite in one process.
TEST_WORKERS ?= 2
test: $(STAMP) browser tools
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# The pure tier alone: no PostgreSQL, NATS or browser, and it needs neither embedded server's package.
unit: $(STAMP)
	$(BIN)/python -m pytest tests/unit

# The standings dashboard test drives Debian's chromium headless; install it when missing and running as root.
browser:
	@command -v chromium >/dev/null || [ "$$(id -u)" != 0 ] || (apt-get update && apt-get install -y chromium)

# docs/api.md's walkthrough is run with curl and jq; the AsyncAPI document is checked by an npm package (node).
tools:
	@(command -v jq && command -v curl && command -v npm) >/dev/null || [ "$$(id -u)" != 0 ] || \
		(apt-get update && apt-get install -y jq curl nodejs npm)

bench: $(STAMP)
	$(BIN)/python -m bench

# mypy's settings and the folders it checks are in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check shared services tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .data
