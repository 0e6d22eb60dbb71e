# evalkit — two commands set everything up: `make lab` and `make test`.
#
#   make lab                      start JupyterLab on notebooks/ (opens a browser)
#   make lab PORT=8899            on another port
#   make lab NO_BROWSER=1         print the URL instead of opening a browser (remote machines)
#   make lab IP=0.0.0.0           listen on every network interface (default: this machine only)
#   make test                     ruff, unit tests, doctests, nbval on every notebook, browser test
#   make bench                    benchmarks against the reference tools
#   make clean                    remove the virtual environment and caches
#
# Everything lives in .venv (python3 -m venv). The install is redone only when pyproject.toml
# changes (the stamp file below), so the second `make test` starts at once.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8888
IP ?= 127.0.0.1
NO_BROWSER ?=
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

# The venv's tools come first, so nothing picks up the machine's own jupyter (PITFALLS 2).
export PATH := $(CURDIR)/$(BIN):$(PATH)

# JupyterLab refuses to run as root unless told to.
ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

PYTEST_ARGS ?=

.PHONY: help lab test bench clean

help:
	@sed -n '3,10p' Makefile | sed 's/^# \{0,1\}//'

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) || { \
	  echo "Could not create $(VENV) with '$(PYTHON) -m venv'."; \
	  echo "On Debian/Ubuntu install it first: apt-get install python3-venv"; \
	  rm -rf $(VENV); exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[notebooks,dev]"
	@touch $@

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[notebooks,dev,bench]"
	@touch $@

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ --ServerApp.port=$(PORT) --ServerApp.ip=$(IP) $(ROOT_FLAG) \
	  $(if $(NO_BROWSER),--no-browser)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest --doctest-modules \
	  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
	  evalkit tests notebooks $(PYTEST_ARGS)

bench: $(BENCH_STAMP)
	@set -e; for script in benchmarks/bench_*.py; do \
	  echo "== $$script"; $(BIN)/python $$script; done

clean:
	rm -rf $(VENV) *.egg-info build dist .pytest_cache .ruff_cache .hypothesis .benchmarks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +
