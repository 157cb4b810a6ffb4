# The two commands of the README are the contract:
#   make run   set everything up on a fresh Debian machine and run the quick suite
#   make test  set up what is still missing and run every test (C++ and Python)
.PHONY: run test setup build test-cpp test-python lint clean

SPEC ?= suites/quick.yaml
DB ?= results/mwbench.db

run: setup
	.venv/bin/mwbench run $(SPEC) --db $(DB)

test: setup test-cpp test-python

setup:
	./scripts/setup.sh

build:
	cmake --build build

test-cpp:
	ctest --test-dir build --output-on-failure

test-python:
	.venv/bin/pytest

lint:
	.venv/bin/ruff check orchestrator drivers benchmarks

clean:
	rm -rf build .venv
