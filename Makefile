# Two entry points a newcomer needs: `make run` and `make test`. Both check the Debian packages
# pip cannot bring (installing them as root, else printing the apt-get command) and build .venv
# on first use.
PY ?= python3
HOST ?= 127.0.0.1
PORT ?= 5000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test system bench schema clean

system:
	@sh scripts/system-packages.sh

$(STAMP): pyproject.toml | system
	@echo "Setting up $(VENV) with Listbuilder's Python packages (the first time takes a few minutes)"
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install --progress-bar off -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: system $(STAMP)
	@echo "Serving at http://$(HOST):$(PORT) (nginx in front of gunicorn; another port: make run PORT=8080)"
	$(BIN)/listbuilder db upgrade
	$(BIN)/listbuilder serve --front --host $(HOST) --port $(PORT)

test: system $(STAMP)
	$(BIN)/ruff check listbuilder tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest --durations=25

bench: $(STAMP)
	$(BIN)/python benchmarks/load.py
	$(BIN)/python benchmarks/resolve.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/calls.py
	test ! -f benchmarks/print.py || $(BIN)/python benchmarks/print.py
	$(BIN)/python benchmarks/studio.py

schema: $(STAMP)
	$(BIN)/listbuilder schema -o docs/roster.schema.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
