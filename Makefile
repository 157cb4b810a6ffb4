# The two commands of the README are the contract:
#   make run   set everything up on a fresh Debian machine and run the main suite:
#              every middleware on the machine against the raw socket
#   make test  set up what is still missing and run every test (C++ and Python)
.PHONY: run test setup build build-asan test-cpp test-python test-sanitize lint clean

SPEC ?= suites/main.yaml
DB ?= results/mwbench.db

REPORT ?= results/report.html

# The run's exit status is kept for the end, so that a run with failed cells
# still gets its report (which lists the failures) and `make run` still fails.
# An invalid spec (status 2) stored no run, so there is nothing to report.
run: setup
	status=0; .venv/bin/mwbench run $(SPEC) --db $(DB) || status=$$?; \
	if [ $$status -ne 2 ]; then \
	  .venv/bin/mwbench report --db $(DB) -o $(REPORT) && echo "open $(abspath $(REPORT))"; \
	fi; exit $$status

# The sanitizer build runs beside the C++ and Python tests, niced and logging to
# build-asan.log: the tests wait on processes more than they compute, and the build takes
# the CPU they leave. Then the sanitizer's own tests.
test: setup lint
	@nice -n 19 $(MAKE) --no-print-directory build-asan > build-asan.log 2>&1 & build=$$!; \
	status=0; $(MAKE) --no-print-directory test-cpp test-python || status=$$?; \
	if ! wait $$build; then tail -n 60 build-asan.log; status=1; fi; \
	if [ $$status -ne 0 ]; then exit $$status; fi; \
	$(MAKE) --no-print-directory test-sanitize

# Debug with line tables only (-g1): enough for the sanitizers' reports, quicker to build.
build-asan:
	@[ -f build-asan/build.ninja ] || cmake -S . -B build-asan -G Ninja \
	  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DMWBENCH_SANITIZE=ON \
	  -DMWCCM_PYTHON=$(CURDIR)/.venv/bin/python
	cmake --build build-asan

setup:
	./scripts/setup.sh

build:
	cmake --build build

test-cpp:
	ctest --test-dir build --output-on-failure

# Three workers (pytest-xdist), each module on one; conftest.py says which tests never run
# beside each other.
PYTEST_WORKERS ?= 3
PYTEST = .venv/bin/pytest -n $(PYTEST_WORKERS) --dist loadfile

test-python:
	$(PYTEST)

# The C++ tests and the drivers' own tests again, built with AddressSanitizer
# and UBSan (build-asan/): a memory error fails the run. Not for measuring.
test-sanitize: build-asan
	ctest --test-dir build-asan --output-on-failure
	MWBENCH_BUILD_DIR=build-asan $(PYTEST) drivers components/tests components/deployment/tests

lint:
	.venv/bin/ruff check orchestrator drivers benchmarks components
	@# The generator's golden files are its output, pinned byte for byte: not formatted.
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp' ':!:**/golden/**')

clean:
	rm -rf build build-asan .venv
