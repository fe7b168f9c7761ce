# Two commands for a newcomer: `make run` and `make test`. Both bootstrap what they need.
# Dependencies install from the lock (uv.lock) with uv; `make lock` after changing pyproject.toml.
SHELL := /bin/bash
# The distribution's Python 3.11 before one found first on PATH: Debian's is built with profile-guided
# and link-time optimization, as the production image's (python:3.11-slim) is, where a pyenv build made
# without --enable-optimizations spends ~20% more CPU on every request (bench/RESULTS.md).
PYTHON ?= $(or $(wildcard /usr/bin/python3.11),$(shell command -v python3.11 || command -v python3))
VENV := .venv
BIN := $(VENV)/bin
UV := $(BIN)/uv
export UV_PROJECT_ENVIRONMENT := $(VENV)
PORT ?= 8000
# Keep byte-compiled modules (in .venv and src/, ignored by git), even where the environment asks
# not to: every test process, server worker and task worker would otherwise compile Django and
# Dogtag again when it starts.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test bench lock messages

$(UV):
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q "uv>=0.9,<1"

# --inexact: keep uv itself in the environment. uv sync re-locks first if pyproject.toml changed.
$(BIN)/dogtag: pyproject.toml uv.lock | $(UV)
	$(UV) sync --inexact --quiet
	touch $@

$(VENV)/.test-packages: $(BIN)/dogtag
	$(UV) sync --inexact --quiet --extra test
	touch $@

# The translation catalogues (docs/translations.md): every marked message into each django.po, then
# the compiled django.mo beside it, both committed. Needs GNU gettext (apt-get install gettext).
messages: $(BIN)/dogtag
	cd src/dogtag && DEBUG=true DJANGO_SETTINGS_MODULE=dogtag.settings ../../$(BIN)/django-admin makemessages \
		-l es -l hmn --no-location --ignore 'static/*' --ignore 'law/*'
	cd src/dogtag && DEBUG=true DJANGO_SETTINGS_MODULE=dogtag.settings ../../$(BIN)/django-admin compilemessages

# Regenerate uv.lock from pyproject.toml (after adding or changing a dependency).
lock: | $(UV)
	$(UV) lock

run: $(BIN)/dogtag
	DEBUG=true $(BIN)/dogtag migrate --noinput -v0
	DEBUG=true $(BIN)/dogtag demo --with-sample-data
	@# The worker runs beside the development server and stops with it: Ctrl-C, the terminal's exit or a
	@# SIGTERM reach both; `dogtag worker` forwards one SIGTERM to its cluster, which stops itself if
	@# this shell is killed outright (dogtag/worker/supervisor.py).
	DEBUG=true $(BIN)/dogtag worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT; \
	trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP; \
	DEBUG=true $(BIN)/dogtag runserver 127.0.0.1:$(PORT)

test: $(VENV)/.test-packages
	bin/test

# Every benchmark, each Dogtag against its floor in the same run; BENCH_SCALE=10k|100k|1m.
# The RESULT lines are repeated at the end so the outcome reads in one place.
bench: $(VENV)/.test-packages
	@rm -f var/bench.log; mkdir -p var; status=0; \
	export SECRET_KEY=$${SECRET_KEY:-bench-not-for-production-$$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')}; \
	export DOGTAG_BASE_URL=$${DOGTAG_BASE_URL:-http://127.0.0.1}; \
	for b in bench/[!_]*.py; do $(BIN)/python $$b 2>&1 | tee -a var/bench.log; \
		test $${PIPESTATUS[0]} -eq 0 || { echo "FAILED $$b"; status=1; }; done; \
	echo "== results"; grep '^RESULT ' var/bench.log; exit $$status
