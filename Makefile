# evalkit — two commands set everything up: `make lab` and `make test`.
#
#   make lab                      start JupyterLab on notebooks/ (opens a browser)
#   make lab PORT=8899            on another port
#   make lab NO_BROWSER=1         print the URL instead of opening a browser (remote machines)
#   make lab IP=0.0.0.0           listen on every network interface (default: this machine only)
#   make test                     ruff, unit tests, doctests, nbval, student edition, site, browser
#   make test-oldest              unit tests, doctests and notebooks on the oldest versions we promise
#   make test-pythons             the id hashing and ranking tests on each other CPython found here
#   make student                  the student edition (no solutions, no outputs) in build/student/
#   make grade SUBMISSIONS=dir    mark submitted student editions: build/grades/ (FORMAT=canvas|moodle|csv)
#   make present NB=07            one notebook in lecture mode (Voila: code hidden, explorers live)
#   make present NB=07 PORT=8899 NO_BROWSER=1   (same options as make lab)
#   make site                     the course site (Sphinx) in build/site/; open build/site/index.html
#   make bench                    benchmarks against the reference tools; writes benchmarks/RESULTS.md
#   make clean                    remove the virtual environments, caches and build/
#
# Everything lives in .venv (python3 -m venv). The install is redone only when pyproject.toml
# or setup.py changes (the stamp file below), so the second `make test` starts at once.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8888
IP ?= 127.0.0.1
NO_BROWSER ?=
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
# make test-oldest: a venv of its own with exactly pyproject.toml's floors (tools/oldest.py).
OLDEST := .venv-oldest
OLDEST_STAMP := $(OLDEST)/.installed

# The venv's tools come first, so nothing picks up the machine's own jupyter (PITFALLS 2).
export PATH := $(CURDIR)/$(BIN):$(PATH)

# JupyterLab refuses to run as root unless told to.
ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

PYTEST_ARGS ?=

.PHONY: help lab test test-oldest test-pythons student grade present site bench clean

help:
	@sed -n '3,17p' Makefile | sed 's/^# \{0,1\}//'

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) || { \
	  echo "Could not create $(VENV) with '$(PYTHON) -m venv'."; \
	  echo "On Debian/Ubuntu install it first: apt-get install python3-venv"; \
	  rm -rf $(VENV); exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[notebooks,dev,course]"
	@touch $@

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[notebooks,dev,course,bench]"
	@touch $@

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ --ServerApp.port=$(PORT) --ServerApp.ip=$(IP) $(ROOT_FLAG) \
	  $(if $(NO_BROWSER),--no-browser)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest --doctest-modules \
	  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
	  evalkit tests notebooks $(PYTEST_ARGS)

# The floors, exactly (name==floor, wheels only: a floor without a wheel for this Python is not
# a floor), then the unit tests, the doctests and every notebook top to bottom. nbval runs in
# lax mode: outputs may differ in the last printed digit across versions, errors may not.
# No browser test, wheel install test, site or linter: they run in make test. Reinstalls only
# when the floors change.
$(OLDEST_STAMP): pyproject.toml setup.py tools/oldest.py
	rm -rf $(OLDEST)
	@$(PYTHON) -m venv $(OLDEST) || { \
	  echo "Could not create $(OLDEST) with '$(PYTHON) -m venv'."; rm -rf $(OLDEST); exit 1; }
	$(OLDEST)/bin/python -m pip install --quiet --upgrade pip
	$(OLDEST)/bin/python tools/oldest.py > $(OLDEST)/requirements.txt
	$(OLDEST)/bin/python -m pip install --quiet --only-binary=:all: -r $(OLDEST)/requirements.txt
	$(OLDEST)/bin/python -m pip install --quiet --no-deps -e .
	@touch $@

test-oldest: $(OLDEST_STAMP)
	$(OLDEST)/bin/python tools/oldest.py --check
	PATH=$(CURDIR)/$(OLDEST)/bin:$$PATH $(OLDEST)/bin/python -m pytest -p no:cacheprovider \
	  --doctest-modules --nbval-lax --nbval-current-env \
	  --ignore=tests/browser -m "not install" evalkit tests notebooks $(PYTEST_ARGS)

# evalkit reads str objects where CPython keeps them (evalkit/_str_memory.py), a layout that
# changes between minor versions: the tests of the id hashing and of every ranking path on top
# of it run on each other CPython 3 this machine has (tools/pythons.py: python3.N on PATH or
# under pyenv), in a venv each (.venv-pythons/3.N, reinstalled when pyproject.toml or setup.py
# changes). None found: it says so and passes (only the Python of make test is tested then).
PYTHONS_TESTS ?= tests/test_str_memory.py tests/test_hashing.py tests/test_factorize.py \
  tests/test_evaluate_shapes.py tests/test_trec.py tests/test_trec_ranking.py \
  tests/test_ranking_ties.py tests/test_ranking.py tests/test_evaluation.py \
  tests/test_streaming.py tests/test_classification.py tests/test_validation.py \
  tests/test_trec_eval_binary.py tests/test_cli.py tests/test_dask.py
test-pythons:
	@pythons=$$($(PYTHON) tools/pythons.py) || exit 1; \
	if [ -z "$$pythons" ]; then echo "test-pythons: no other CPython found (tools/pythons.py)"; exit 0; fi; \
	for python in $$pythons; do \
	  version=$$($$python -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
	  venv=.venv-pythons/$$version; \
	  echo "== Python $$version ($$python)"; \
	  if [ ! -f $$venv/.installed ] || [ pyproject.toml -nt $$venv/.installed ] \
	     || [ setup.py -nt $$venv/.installed ]; then \
	    rm -rf $$venv && $$python -m venv $$venv \
	    && $$venv/bin/python -m pip install --quiet --upgrade pip \
	    && $$venv/bin/python -m pip install --quiet -e ".[dev]" \
	    && touch $$venv/.installed || exit 1; \
	  fi; \
	  $$venv/bin/python -c 'from evalkit._str_memory import _layout; import sys; \
	    print("in-place str reading:", "on" if _layout() else "off", "on", sys.version.split()[0])'; \
	  $$venv/bin/python -m pytest -p no:cacheprovider -q $(PYTHONS_TESTS) $(PYTEST_ARGS) || exit 1; \
	done

student: $(STAMP)
	$(BIN)/python tools/student.py --out build/student

# Each submission runs in a fresh kernel on a temporary copy (in a bubblewrap sandbox where it
# works); the marks are computed outside it (evalkit/course/grading.py). TIMEOUT is seconds per
# notebook, CELL_TIMEOUT per cell; FORMAT the gradebook to import (csv, canvas, moodle);
# FEEDBACK hints or full. README, "For lecturers: marking a class", says what it protects.
SUBMISSIONS ?=
TIMEOUT ?= 300
CELL_TIMEOUT ?= 120
FORMAT ?= csv
FEEDBACK ?= hints
SANDBOX ?= auto
grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" || { echo "Which folder? e.g. make grade SUBMISSIONS=handed-in/"; exit 2; }
	$(BIN)/python -m evalkit.course.grading "$(SUBMISSIONS)" --course notebooks --out build/grades \
	  --timeout $(TIMEOUT) --cell-timeout $(CELL_TIMEOUT) --format $(FORMAT) \
	  --feedback $(FEEDBACK) --sandbox $(SANDBOX)

# Voila serves one notebook as an app: code hidden, explorers live, the lecture template's
# larger type (tools/jupyter/voila/templates/lecture).
present: $(STAMP)
	@test -n "$(NB)" || { echo "Which notebook? e.g. make present NB=07"; exit 2; }
	@nb=$$(ls notebooks/$(NB)*.ipynb 2>/dev/null | head -n 1); \
	test -n "$$nb" || { echo "No notebook matches notebooks/$(NB)*.ipynb"; exit 2; }; \
	echo "Lecture mode: $$nb on http://$(IP):$(PORT)/ (Ctrl-C to stop)"; \
	JUPYTER_PATH=$(CURDIR)/tools/jupyter $(BIN)/voila "$$nb" --template=lecture \
	  --port=$(PORT) --Voila.ip=$(IP) --Voila.port_retries=0 $(if $(NO_BROWSER),--no-browser)

site: $(STAMP)
	$(BIN)/python -m sphinx -b html -W --keep-going -q docs build/site
	@echo "Course site: build/site/index.html"

# Each benchmarks/bench_*.py in its own process; the tables also go to benchmarks/RESULTS.md.
bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(OLDEST) .venv-pythons *.egg-info build dist .pytest_cache .ruff_cache .hypothesis .benchmarks
	rm -rf docs/notebooks docs/reference docs/_course_map.md
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +
