# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# mypy reads the folders by their installed names (rallyforge.engine, ...): see setup.py
TYPECHECK := build/typecheck/rallyforge
EXAMPLE ?= scenarios/standard-course.json

.PHONY: run test bench soak sanitize lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml setup.py engine/bots/_play.c engine/bots/_race.c engine/bots/_play.h engine/bots/_limits.h | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,cluster]"
	touch $(STAMP)

$(TYPECHECK):
	mkdir -p $(TYPECHECK)
	for folder in engine editor schema; do ln -sfn ../../../$$folder $(TYPECHECK)/$$folder; done

run: $(STAMP)
	$(BIN)/rallyforge-editor $(EXAMPLE)

test: $(STAMP) | $(TYPECHECK)
	QT_QPA_PLATFORM=offscreen $(BIN)/lint-imports
	$(BIN)/mypy
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n 2 -q

bench: $(STAMP)
	$(BIN)/python -m bench

# the compiled race against the Python engine on random courses, MINUTES long
MINUTES ?= 10
soak: $(STAMP)
	$(BIN)/python -m bench.soak_compiled --minutes $(MINUTES)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .mypy_cache
