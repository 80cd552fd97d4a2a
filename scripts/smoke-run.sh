#!/usr/bin/env bash
# Checks the README's run command end to end: it comes up on a fresh data folder, /healthz answers,
# the demo key it prints authenticates, a token registration and an update are accepted, the update's
# push reaches the APNs simulator over TLS, and Ctrl-C (SIGINT) stops the gateway and its PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh
source scripts/lib/embedded-run.sh

embedded_run_start smoke-run
embedded_run_serving
health=$(curl -sS "http://127.0.0.1:$port/healthz") || fail "/healthz did not answer"
[ "$health" = '{"database":"ok","status":"ok"}' ] || [ "$health" = '{"status":"ok","database":"ok"}' ] || fail "/healthz said $health"

key=$(sed -n 's/^  API key: *//p' "$log")
[ -n "$key" ] || fail "no API key printed"
status=$(curl -s -o "$work/current.json" -w '%{http_code}' -H "Authorization: Bearer $key" "http://127.0.0.1:$port/api_keys/current")
[ "$status" = 200 ] || fail "the printed key got $status"
grep -q '"messages.live_activity.update"' "$work/current.json" || fail "the demo key lacks its permissions"

# The README's walk-through: the SDK registers a token, the customer's server sends an update.
app_id=$(sed -n 's/^  app_id: *//p' "$log")
[ -n "$app_id" ] || fail "no app_id printed"
status=$(curl -s -o "$work/tag.json" -w '%{http_code}' -H 'Content-Type: application/json' \
    -d '{"app_id":"'"$app_id"'","device_id":"smoke-phone","tag":"smoke-game","push_token":"aabbccdd"}' \
    "http://127.0.0.1:$port/push_token_tag")
[ "$status" = 201 ] || fail "/push_token_tag got $status: $(cat "$work/tag.json")"
status=$(curl -s -o "$work/update.json" -w '%{http_code}' -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
    -d '{"app_id":"'"$app_id"'","activity_id":"smoke-game","content_state":{"home":1,"away":0}}' \
    "http://127.0.0.1:$port/messages/live_activity/update")
[ "$status" = 201 ] || fail "update got $status: $(cat "$work/update.json")"
grep -q '"dispatch_id"' "$work/update.json" || fail "update answered without a dispatch_id: $(cat "$work/update.json")"
grep -q '"errors"' "$work/update.json" && fail "update reported problems: $(cat "$work/update.json")"

# The gateway delivers the update: the simulator (over TLS, with the certificate run.sh had it make)
# lists the push for the registered token, with the update's content state.
sim="https://127.0.0.1:$sim_port"
push=""
for _ in $(seq 1 40); do
    if curl -sk --http2 -o "$work/pushes.json" "$sim/_sim/pushes" 2>/dev/null; then
        push=$(python3 -c '
import json, sys
for push in json.load(open(sys.argv[1])):
    if push["device_token"] == "aabbccdd":
        print(json.dumps(push["payload"], separators=(",", ":")))
        break
' "$work/pushes.json") || fail "the simulator listed its pushes as $(cat "$work/pushes.json")"
        [ -n "$push" ] && break
    fi
    sleep 0.5
done
[ -n "$push" ] || fail "no push for token aabbccdd reached the APNs simulator within 20 s: $(cat "$work/pushes.json" 2>/dev/null)"
case "$push" in *'"event":"update"'*) ;; *) fail "the push is not an update: $push" ;; esac
case "$push" in *'"content-state":{"home":1,"away":0}'*) ;; *) fail "the push lacks the update's content_state: $push" ;; esac

# The APNs simulator answers like APNs: a push without a provider token is a 403.
status=$(curl -sk --http2 -o "$work/sim.json" -w '%{http_code}' -X POST -d '{}' "$sim/3/device/aabbccdd")
[ "$status" = 403 ] || fail "the APNs simulator answered $status: $(cat "$work/sim.json")"
grep -q MissingProviderToken "$work/sim.json" || fail "the APNs simulator said $(cat "$work/sim.json")"

kill -INT -- "-$run_pid"
for _ in $(seq 1 60); do kill -0 "$run_pid" 2>/dev/null || break; sleep 0.5; done
kill -0 "$run_pid" 2>/dev/null && fail "run.sh did not stop on SIGINT"
[ -f "$work/data/postgres/postmaster.pid" ] && fail "PostgreSQL was left running"
echo "smoke-run: run command serves /healthz, prints a working demo key, accepts a token and an update, and delivers the update to the APNs simulator: ok"
