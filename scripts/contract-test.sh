#!/usr/bin/env bash
# The exact contract: schemathesis (PyPI) checks every route of openapi.yaml against a running gateway
# (the README's run command on a fresh data folder), with every check (`--checks all`): schema-valid
# requests must be accepted, schema-violating ones refused, every answer as documented, unknown methods
# 405. Zero failures passes. Tests/Contract/hooks.py keeps generated values inside the rules JSON
# Schema cannot state (an existing app_id, send_at within 7 days, since before until, a real cursor,
# an existing segment_id, at most 100 filters in an audience).
# openapi.yaml links a message's answer to GET its dispatch, not to DELETE it: DELETE cancels and the
# dispatch stays readable (status `cancelled`), which schemathesis's use-after-free check would read as
# a deleted resource still served. A segment's creation links to GET it only, and links are not inferred
# (Tests/Contract/schemathesis.toml): schemathesis's check that a created resource can be read does not
# follow a DELETE run between the two.
# Settings: LIVEGATE_CONTRACT_EXAMPLES (examples per operation, 40), LIVEGATE_CONTRACT_SEED.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh
source scripts/lib/embedded-run.sh

embedded_run_start contract-test
embedded_run_serving
app_id=$(sed -n 's/^  app_id: *//p' "$log")
workspace=$(sed -n 's/^  workspace: *//p' "$log")
[ -n "$app_id" ] && [ -n "$workspace" ] || fail "run.sh printed no app_id or workspace"

# A key with every permission, so each route is exercised, not just refused.
bin="$(swift build --show-bin-path)/livegate"
key=$(DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/livegate" "$bin" key create --workspace "$workspace" \
    --name "Contract test" \
    --permissions messages.live_activity.update,messages.live_activity.start,message_activity_log.read,live_activity.channels.manage,live_activity.read,users.track,segments.manage,live_activity.types,live_activity.priority_budget,webhooks.manage,events.read |
    tail -n 1)

# A segment for the starts that name one: a start's segment_id must exist (the hooks put this one in).
segment=$(curl -fsS -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "http://127.0.0.1:$port/segments" \
    -d '{"name":"Contract test","audience":{"custom_attribute":{"custom_attribute_name":"team","comparison":"exists"}}}' |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["segment_id"])') || fail "POST /segments did not create the seed segment"

echo "contract-test: schemathesis --checks all against http://127.0.0.1:$port" >&2
LIVEGATE_CONTRACT_APP_ID="$app_id" LIVEGATE_CONTRACT_SEGMENT_ID="$segment" SCHEMATHESIS_HOOKS="$PWD/Tests/Contract/hooks.py" \
    schemathesis --config-file Tests/Contract/schemathesis.toml run openapi.yaml --url "http://127.0.0.1:$port" --checks all \
    -H "Authorization: Bearer $key" \
    --max-examples "${LIVEGATE_CONTRACT_EXAMPLES:-40}" --seed "${LIVEGATE_CONTRACT_SEED:-20261124}" \
    --no-color --suppress-health-check all
