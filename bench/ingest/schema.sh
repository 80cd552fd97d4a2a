#!/usr/bin/env bash
# bench/ingest/schema.sh: what checking a content_state against its type costs. Two apps in one
# workspace take the same 20-field updates, alternating, against one gateway and PostgreSQL; one app has
# the type registered (bench/ingest/scoreboard.schema.json, enforce mode) and its activities' tokens
# name it, so every update is checked; the other has no type. Prints accepted/s and the gateway's CPU
# per call of each, and their ratio (goal: checked ≥ 0.95× unchecked).
#
#   bench/ingest/schema.sh [seconds per run, default 15] [concurrency, default 64] [rounds, default 3]
#
# Builds livegate in release mode, starts its own PostgreSQL, and stops everything at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh
source bench/lib/wrk.sh

duration="${1:-15}"
concurrency="${2:-64}"
rounds="${3:-3}"

bench_start
wrk_install
wrk_tenant --rate-limit 2000000000
checked_app="$BENCH_APP_ID"
workspace=$(sql "SELECT workspace_id FROM apps WHERE app_identifier = '$checked_app'")
unchecked_app=$(bench_app "$workspace" "Bench app without a type" --apns-endpoint sandbox)
"$bin" type put "$checked_app" Scoreboard --content-state bench/ingest/scoreboard.schema.json >/dev/null
# Every activity the updates name has a device whose token names the type, as LiveGateKit reports it.
for app in "$checked_app" "$unchecked_app"; do
    sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token, attributes_type)
         SELECT a.id, 'match-' || i, 'device-' || i, lpad(to_hex(i), 64, '0'), 'Scoreboard'
         FROM apps a, generate_series(0, 99) i WHERE a.app_identifier = '$app'"
done

gateway_port=$(free_port)
LIVEGATE_DELIVERY=off LIVEGATE_LOG_LEVEL=warning LIVEGATE_DB_POOL_SIZE=16 bench_serve "$gateway_port" "$work/gateway.log"

committed() { psql "$DATABASE_URL" -tAc "SELECT count(*) FROM dispatches"; }
run() { # APP -> "accepted/s gateway-cpu-µs-per-call not-201 postgres-cpu-µs-per-call"
    local rows0 cpu0 pg0 rps p50 p99 bad rows
    rows0=$(committed); cpu0=$(cpu_ms "$gateway_pid"); pg0=$(pg_cpu_ms)
    read -r rps p50 p99 bad <<<"$(BENCH_APP_ID="$1" BENCH_FIELDS=20 wrk_update "$gateway_port" "$concurrency" "$duration" "$work/wrk.err")"
    rows=$(( $(committed) - rows0 ))
    rows=$(( rows > 0 ? rows : 1 ))
    echo "$rps $(( ($(cpu_ms "$gateway_pid") - cpu0) * 1000 / rows )) $bad $(( ($(pg_cpu_ms) - pg0) * 1000 / rows ))"
}

echo "| round | checked accepted/s | unchecked accepted/s | ratio | checked CPU per call: gateway + PostgreSQL | unchecked |"
echo "|---:|---:|---:|---:|---:|---:|"
ratios=()
for round in $(seq 1 "$rounds"); do
    # Which goes first alternates, so a drift of the machine's load favours neither.
    if [ $((round % 2)) -eq 1 ]; then
        read -r c_rps c_cpu c_bad c_pg <<<"$(run "$checked_app")"; read -r u_rps u_cpu u_bad u_pg <<<"$(run "$unchecked_app")"
    else
        read -r u_rps u_cpu u_bad u_pg <<<"$(run "$unchecked_app")"; read -r c_rps c_cpu c_bad c_pg <<<"$(run "$checked_app")"
    fi
    if [ "$c_bad" -gt 0 ] || [ "$u_bad" -gt 0 ]; then
        echo "FAILED: answers that were not 201; the first ones:" >&2
        sed -n 1,3p "$work/wrk.err" >&2
        exit 1
    fi
    ratio=$(awk -v c="$c_rps" -v u="$u_rps" 'BEGIN { printf "%.2f", (u > 0 ? c / u : 0) }')
    ratios+=("$ratio")
    echo "| $round | $c_rps | $u_rps | ${ratio}× | $c_cpu + $c_pg µs | $u_cpu + $u_pg µs |"
done
echo
echo "median ratio: $(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')×"
