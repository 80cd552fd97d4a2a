#!/usr/bin/env bash
# bench/freshness: newest state first. Five updates of one tag, 200 ms apart, to `devices` registered
# devices, with supersession on and off, beside one single update's fan-out, in the same run:
#
#   bench/freshness/run.sh [devices, default 100000] [rounds, default 1]
#
# Each round runs three scenarios, each against a freshly started gateway (so its settings apply), with
# the dispatches table and the simulator's recorded pushes cleared before it:
#   single      one update: its fan-out time, from its `201` to its `completed_at`.
#   five, on    five updates 200 ms apart: the pushes sent (the sum of the five dispatches' `sent`) and
#               the time from the last `201` to the last dispatch's `completed_at`.
#   five, off   the same with LIVEGATE_SUPERSESSION=off (a setting for measuring only).
# Times come from the dispatch resource (`GET /messages/live_activity/dispatches/{id}`, polled every
# 20 ms; `completed_at` has millisecond precision), so the polling interval does not enter them.
# After each scenario the simulator's recorded pushes (`GET /_sim/pushes`) are read, when there are at
# most LIVEGATE_BENCH_PUSH_CHECK_LIMIT of them (default 250000): every device's last push must carry the
# last state, and the simulator's count per update must match that dispatch's `sent` (a push the
# simulator accepted twice, same apns-id, is one its answer never reached the gateway for).
# Goals (issue): with supersession, pushes ≤ 2 × devices and last 201 → last completion ≤ 1.2 × single.
#
# Builds livegate in release mode (LIVEGATE_BENCH_SCRATCH: another --scratch-path), starts its own
# PostgreSQL, `livegate apns-sim --tls` and gateway, and stops them all at the end. The simulator checks
# every push's ES256 provider token, so it, not the gateway, sets much of the fan-out's pace.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

devices="${1:-100000}"
rounds="${2:-1}"
activity="bench-freshness"

bench_start

bench_simulator
export LIVEGATE_BENCH_SIMULATOR="https://127.0.0.1:$sim_port" LIVEGATE_BENCH_SIMULATOR_CA="$work/sim-cert.pem"

workspace=$(bench_workspace)
app_id=$(bench_app "$workspace" "Bench freshness" --team-id TEAM123456 --key-id KEY1234567 \
    --key-file "$work/key.p8" --apns-endpoint "https://127.0.0.1:$sim_port")
api_key=$(bench_update_key "$workspace")

# The audience: $devices update tokens under one tag, written straight into the table.
sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
     SELECT (SELECT id FROM apps WHERE app_identifier = '$app_id'), '$activity', 'device-' || i,
            lpad(to_hex(i), 64, '0')
     FROM generate_series(1, $devices) i" >/dev/null
sql "VACUUM ANALYZE activity_tokens" >/dev/null

results="$work/results.jsonl"
: >"$results"
gateway_port=$(free_port)
for round in $(seq 1 "$rounds"); do
    for scenario in single five-on five-off; do
        sql "DELETE FROM dispatches" >/dev/null
        curl -fsS --http2 --cacert "$work/sim-cert.pem" -X DELETE "$LIVEGATE_BENCH_SIMULATOR/_sim/pushes" >/dev/null
        [ "$scenario" = five-off ] && supersession=off || supersession=on
        LIVEGATE_DELIVERY=on LIVEGATE_LOG_LEVEL=warning LIVEGATE_APNS_CA_FILE="$work/sim-cert.pem" \
            LIVEGATE_SUPERSESSION=$supersession bench_serve "$gateway_port" "$work/gateway-$round-$scenario.log"
        echo "round $round: $scenario (supersession $supersession), $devices devices..." >&2
        python3 bench/freshness/updates.py measure "http://127.0.0.1:$gateway_port" "$api_key" "$app_id" \
            "$activity" "$devices" "$round" "$scenario" "$work/pushes.json" >>"$results"
        bench_stop "$gateway_pid"
        # What the gateway had to say (it logs at warning and above here): a count and the first lines.
        log="$work/gateway-$round-$scenario.log"
        if [ -s "$log" ]; then
            echo "round $round: $scenario: the gateway logged $(wc -l <"$log") lines; the first:" >&2
            head -n 5 "$log" | cut -c1-400 >&2
        fi
    done
done
python3 bench/freshness/updates.py report "$results" "$devices"
