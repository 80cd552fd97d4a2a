#!/usr/bin/env bash
# Runs the tests that match FILTER N times in a row (default 5) while two busy processes keep both cores
# loaded, as a shared CI machine may be: a test that waits for the wrong thing fails here before it lands.
# Run it for every test added or changed (CONTRIBUTING.md). Starts its own PostgreSQL and stops it, and
# the load, however the run ends. Logs of failed runs are kept and named at the end.
#
# Usage: scripts/repeat-tests.sh FILTER [N]
#   FILTER  what `swift test --filter` takes: a suite, a test or a regular expression
#   REPEAT_TESTS_LOAD=K   K busy processes instead of 2 (0: no load)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: scripts/repeat-tests.sh FILTER [N]" >&2
    exit 2
fi
filter="$1"
runs="${2:-5}"
load="${REPEAT_TESTS_LOAD:-2}"

scripts/install-deps.sh test

work=$(mktemp -d /tmp/livegate-repeat.XXXXXX)
pg_data=$(mktemp -d /tmp/livegate-repeat-pg.XXXXXX)
load_pids=()
keep_logs=false
cleanup() {
    for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    pg_stop "$pg_data"
    rm -rf "$pg_data"
    $keep_logs || rm -rf "$work"
}
trap cleanup EXIT

pg_start_for_tests "$pg_data"

swift build --build-tests

for _ in $(seq 1 "$load"); do
    bash -c 'while :; do :; done' &
    load_pids+=("$!")
done
echo "repeating '$filter' $runs times beside $load busy processes" >&2

passed=0
failed=0
failed_logs=()
for run in $(seq 1 "$runs"); do
    log="$work/run-$run.log"
    started=$SECONDS
    if swift test --skip-build --filter "$filter" >"$log" 2>&1; then
        if grep -q "with 0 tests\|Executed 0 tests" "$log" && ! grep -q "Test run with [1-9]" "$log"; then
            echo "run $run: no test matched '$filter'" >&2
            exit 2
        fi
        passed=$((passed + 1))
        echo "run $run: passed in $((SECONDS - started)) s ($(grep -o 'Test run with [0-9]* tests\?' "$log" | tail -n 1))" >&2
    else
        failed=$((failed + 1))
        failed_logs+=("$log")
        echo "run $run: FAILED in $((SECONDS - started)) s, log kept: $log" >&2
        grep -E "✘|error:|recorded an issue" "$log" | head -n 20 >&2 || true
    fi
done

if [ "$failed" -gt 0 ]; then
    keep_logs=true
    printf 'log of a failed run: %s\n' "${failed_logs[@]}" >&2
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
