# Two entry points a newcomer needs: `make run` and `make test`. Both check the Debian packages
# pip cannot bring (installing them as root, else printing the apt-get command) and build .venv
# on first use. `make check` is the quick loop while working: ruff, mypy and the tests that need
# no browser, PostgreSQL, WeasyPrint or servers of their own (the marks: tests/conftest.py).
PY ?= python3
HOST ?= 127.0.0.1
PORT ?= 5000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# pytest-xdist worker processes. The tests spend much of their time waiting on Chromium,
# servers in processes of their own and WeasyPrint, so more workers than cores pay: on two
# cores 3 ran the suite fastest (2 and 4 measured too). Another count: make test JOBS=4
JOBS ?= 3
PYTEST := $(BIN)/pytest -n $(JOBS) --dist loadgroup
QUICK := not browser and not postgres and not print and not slow

.PHONY: run test check system bench schema clean

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
	$(PYTEST) --durations=25

check: system $(STAMP)
	$(BIN)/ruff check listbuilder tests benchmarks
	$(BIN)/mypy
	$(PYTEST) -m "$(QUICK)"

bench: $(STAMP)
	$(BIN)/python benchmarks/load.py
	$(BIN)/python benchmarks/cli_start.py
	$(BIN)/python benchmarks/resolve.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/calls.py
	test ! -f benchmarks/print.py || $(BIN)/python benchmarks/print.py
	$(BIN)/python benchmarks/studio.py
	$(BIN)/python benchmarks/matchup.py
	$(BIN)/python benchmarks/table.py

schema: $(STAMP)
	$(BIN)/listbuilder schema -o docs/roster.schema.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
