#!/usr/bin/env bash
# The Python tests, and the sanitizer build's driver and component tests, with
# `stress-ng --cpu 4` burning beside them: a machine as busy as a shared CI
# runner can be. A test that passes here waits for what it can observe, not for
# time to pass. `make test` stays the CI command; run this after changing a test
# that starts processes, three times in a row:
#
#   scripts/test-under-load.sh 3
#
# Exits non-zero at the first run that fails.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}

make setup build-asan

# stress-ng ends its workers when it is told to end; its own timeout ends it
# should this script be killed outright.
stress-ng --cpu 4 --timeout 6h --quiet &
load=$!
trap 'kill "$load" 2>/dev/null; wait "$load" 2>/dev/null || true' EXIT

for run in $(seq 1 "$runs"); do
  echo "test-under-load: run $run of $runs (stress-ng --cpu 4 beside it)"
  .venv/bin/pytest -q -n 3 --dist loadfile  # as `make test` runs them
  MWBENCH_BUILD_DIR=build-asan .venv/bin/pytest -q -n 3 --dist loadfile drivers components/tests \
    components/deployment/tests
done
echo "test-under-load: $runs run(s) passed"
