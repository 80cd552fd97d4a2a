#!/usr/bin/env bash
# The exact contract: schemathesis (PyPI) checks every route of openapi.yaml against a running gateway
# (the README's run command on a fresh data folder), with every check (`--checks all`): schema-valid
# requests must be accepted, schema-violating ones refused, every answer as documented, unknown methods
# 405. Zero failures passes. Tests/Contract/hooks.py keeps generated values inside the rules JSON
# Schema cannot state (an existing app_id, send_at within 7 days, since before until, a real cursor).
# openapi.yaml links a message's answer to GET its dispatch, not to DELETE it: DELETE cancels and the
# dispatch stays readable (status `cancelled`), which schemathesis's use-after-free check would read as
# a deleted resource still served.
# Settings: LIVEGATE_CONTRACT_EXAMPLES (examples per operation, 40), LIVEGATE_CONTRACT_SEED.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh

work=$(mktemp -d /tmp/livegate-contract.XXXXXX)
chmod 755 "$work"
port=$(free_port)
pg_port=$(free_port)
sim_port=$(free_port)
log="$work/run.log"
LIVEGATE_DATA_DIR="$work/data" LIVEGATE_PORT="$port" LIVEGATE_PG_PORT="$pg_port" LIVEGATE_APNS_SIM_PORT="$sim_port" \
    setsid scripts/run.sh >"$log" 2>&1 &
run_pid=$!

finish() {
    kill -INT -- "-$run_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$run_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$run_pid" 2>/dev/null || true
    pg_stop "$work/data/postgres"
    rm -rf "$work"
}
trap finish EXIT

fail() {
    echo "contract-test: FAILED: $1" >&2
    sed 's/^/  run.sh| /' "$log" >&2
    exit 1
}

for _ in $(seq 1 600); do
    if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
    kill -0 "$run_pid" 2>/dev/null || fail "run.sh exited before serving"
    sleep 0.5
done
app_id=$(sed -n 's/^  app_id: *//p' "$log")
workspace=$(sed -n 's/^  workspace: *//p' "$log")
[ -n "$app_id" ] && [ -n "$workspace" ] || fail "run.sh printed no app_id or workspace"

# A key with every permission, so each route is exercised, not just refused.
bin="$(swift build --show-bin-path)/livegate"
key=$(DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/livegate" "$bin" key create --workspace "$workspace" \
    --name "Contract test" \
    --permissions messages.live_activity.update,messages.live_activity.start,message_activity_log.read,live_activity.channels.manage |
    tail -n 1)

echo "contract-test: schemathesis --checks all against http://127.0.0.1:$port" >&2
LIVEGATE_CONTRACT_APP_ID="$app_id" SCHEMATHESIS_HOOKS="$PWD/Tests/Contract/hooks.py" \
    schemathesis run openapi.yaml --url "http://127.0.0.1:$port" --checks all \
    -H "Authorization: Bearer $key" \
    --max-examples "${LIVEGATE_CONTRACT_EXAMPLES:-40}" --seed "${LIVEGATE_CONTRACT_SEED:-20261124}" \
    --no-color --suppress-health-check all
