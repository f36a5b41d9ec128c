# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# mypy reads the folders by their installed names (rallyforge.engine, ...): see setup.py
TYPECHECK := build/typecheck/rallyforge
EXAMPLE ?= scenarios/standard-course.json

.PHONY: run test bench lint clean

# The installs write to $(LOG): their chatter (setuptools' banner on editable
# installs among it) is shown only when they fail.
LOG := $(VENV)/install.log
QUIETLY = > $(LOG) 2>&1 || { cat $(LOG); echo "make: the install failed; its output is above and in $(LOG)"; exit 1; }

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --upgrade pip $(QUIETLY)

$(STAMP): pyproject.toml setup.py engine/bots/_play.c engine/bots/_race.c engine/bots/_play.h | $(BIN)/python
	@echo "Installing Rally Forge and its dependencies into $(VENV) (a few minutes the first time)"
	@$(BIN)/python -m pip install --quiet -e ".[test,cluster]" $(QUIETLY)
	@touch $(STAMP)

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

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .mypy_cache
