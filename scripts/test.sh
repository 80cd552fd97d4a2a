#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what it needs, starts its own PostgreSQL in a
# temporary folder, builds, runs every test, and stops PostgreSQL however the run ends.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh

scripts/install-deps.sh test

pg_data=$(mktemp -d /tmp/livegate-test-pg.XXXXXX)
# The failover tests' clusters go here: whatever a crashed run left is stopped at the end.
export LIVEGATE_HA_TEST_DIR
LIVEGATE_HA_TEST_DIR=$(mktemp -d /tmp/livegate-test-ha.XXXXXX)
chmod 755 "$LIVEGATE_HA_TEST_DIR"
cleanup() {
    pg_stop "$pg_data"
    rm -rf "$pg_data"
    local cluster
    for cluster in "$LIVEGATE_HA_TEST_DIR"/*/; do
        [ -d "$cluster" ] && LIVEGATE_HA_DIR="$cluster" scripts/ha/cluster.sh down >/dev/null 2>&1 || true
    done
    rm -rf "$LIVEGATE_HA_TEST_DIR"
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
# The gateway on a Patroni cluster whose primary is killed, then frozen (a few minutes of cluster time):
# on its own, so the rest of the suite's load does not stand in its deadlines' way.
if [ $# -eq 0 ]; then
    LIVEGATE_HA_TESTS=1 swift test --skip-build --filter PatroniFailoverTests
fi
swift test --skip-build "$@"
