#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what it needs, starts its own PostgreSQL in a
# temporary folder, builds, runs every test, and stops PostgreSQL however the run ends.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh

scripts/install-deps.sh test

pg_data=$(mktemp -d /tmp/livegate-test-pg.XXXXXX)
cleanup() {
    pg_stop "$pg_data"
    rm -rf "$pg_data"
}
trap cleanup EXIT

pg_start_for_tests "$pg_data"
echo "PostgreSQL for tests: $LIVEGATE_TEST_PG" >&2

swift build --build-tests
# The README's run command, end to end; before the unit tests so their summary is the last thing printed.
scripts/smoke-run.sh
# openapi.yaml against a running gateway, every schemathesis check: zero failures.
scripts/contract-test.sh
# LiveGateKit as its own package: its tests, and an app's package that resolves nothing else.
scripts/check-sdk-package.sh
swift test --skip-build "$@"
