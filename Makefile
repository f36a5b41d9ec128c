# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# mypy reads the folders by their installed names (rallyforge.engine, ...): see setup.py
TYPECHECK := build/typecheck/rallyforge
EXAMPLE ?= scenarios/standard-course.json

.PHONY: run test bench soak sanitize lint clean

# The installs write to $(LOG): their chatter (setuptools' banner on editable
# installs among it) is shown only when they fail.
LOG := $(VENV)/install.log
QUIETLY = > $(LOG) 2>&1 || { cat $(LOG); echo "make: the install failed; its output is above and in $(LOG)"; exit 1; }

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --upgrade pip $(QUIETLY)

# the compiled part (setup.py ext_modules): the race rules' copy and the search bot's loop
C_SOURCES := $(wildcard engine/rules/compiled/_*.c engine/rules/compiled/_*.h engine/bots/_*.c engine/bots/_*.h)

$(STAMP): pyproject.toml setup.py $(C_SOURCES) | $(BIN)/python
	@echo "Installing Rally Forge and its dependencies into $(VENV) (a few minutes the first time)"
	@$(BIN)/python -m pip install --quiet -e ".[test,cluster]" $(QUIETLY)
	@touch $(STAMP)

# (made again when this file changes, so that a checkout from before a folder
# was added gets the folder's link too)
$(TYPECHECK)/.linked: Makefile
	rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)
	for folder in engine drawing editor schema; do ln -s ../../../$$folder $(TYPECHECK)/$$folder; done
	@touch $@

run: $(STAMP)
	$(BIN)/rallyforge-editor $(EXAMPLE)

test: $(STAMP) $(TYPECHECK)/.linked
	QT_QPA_PLATFORM=offscreen $(BIN)/lint-imports
	$(BIN)/mypy
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n 2 -q

bench: $(STAMP)
	$(BIN)/python -m bench

# The comparisons of the compiled part with the Python engine, run on a build of it
# with AddressSanitizer and UndefinedBehaviorSanitizer (gcc or clang): the package
# copied into build/sanitize (the editable install maps rallyforge.engine to engine/,
# a folder on PYTHONPATH comes first), the sanitized extension built there, every
# allocation through malloc (PYTHONMALLOC) so that ASan sees it; any finding stops the run.
SANITIZE := build/sanitize
SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
sanitize: $(STAMP)
	rm -rf $(SANITIZE) && mkdir -p $(SANITIZE)/rallyforge
	cp -r engine $(SANITIZE)/rallyforge/engine
	rm -f $(SANITIZE)/rallyforge/engine/bots/*.so $(SANITIZE)/rallyforge/engine/rules/compiled/*.so
	for folder in drawing editor schema; do ln -s ../../../$$folder $(SANITIZE)/rallyforge/$$folder; done
	CFLAGS="$(SANITIZERS) -g" LDFLAGS="$(SANITIZERS)" $(BIN)/python setup.py -q build_ext \
		--force --build-lib $(SANITIZE) --build-temp $(SANITIZE)/temp
	LD_PRELOAD="$$($${CC:-cc} -print-file-name=libasan.so)" PYTHONMALLOC=malloc \
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		PYTHONPATH=$(SANITIZE) QT_QPA_PLATFORM=offscreen $(BIN)/python -c \
		"import rallyforge.engine.bots._play as p, rallyforge.engine.rules.compiled._race as r; \
		assert all(m.__file__.startswith('$(CURDIR)/$(SANITIZE)/') for m in (p, r)), (p, r)"
	LD_PRELOAD="$$($${CC:-cc} -print-file-name=libasan.so)" PYTHONMALLOC=malloc \
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		PYTHONPATH=$(SANITIZE) QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -x \
		--capture=sys -p no:cacheprovider tests/test_compiled_race.py \
		tests/test_compiled_differential.py tests/test_compiled_loop.py \
		tests/test_compiled_weapons.py tests/test_compiled_option_moves.py \
		tests/test_compiled_option_choices.py

# the compiled race against the Python engine on random courses, MINUTES long
MINUTES ?= 10
soak: $(STAMP)
	$(BIN)/python -m bench.soak_compiled --minutes $(MINUTES)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .mypy_cache
