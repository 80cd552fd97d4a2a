#!/usr/bin/env bash
# bench/ingest/floor.sh: what an `update` call costs Hummingbird alone (bench/ingest/floor: the body read
# and a 201 answered, nothing else), loaded by wrk with bench/ingest/update.lua exactly as
# bench/ingest/run.sh loads the gateway. Read it beside run.sh's "gateway CPU per call": the gap between
# the two is the gateway's own work (authentication, rate limit, parsing, payload, the group commit).
#
#   bench/ingest/floor.sh [seconds per run, default 15] [concurrency levels, default "16 64"]
#
# Builds the floor in release mode (its own package, its own .build), runs each level twice and reports
# the better run: answers a second, and CPU per call (user + system) of the server and of wrk.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh
source bench/lib/wrk.sh

duration="${1:-15}"
levels="${2:-16 64}"
wrk_install
build_ingest_floor

port=$(free_port)
"$floor_bin" "$port" >/dev/null 2>&1 &
floor_pid=$!
scratch=$(mktemp -d)
trap 'kill "$floor_pid" 2>/dev/null || true; rm -rf "$scratch"' EXIT
wait_for_port "$port"

# update.lua reads these; the floor checks neither.
export BENCH_APP_ID=00000000-0000-4000-8000-000000000000 BENCH_API_KEY=floor

echo "| concurrency | Hummingbird alone: answers (201) /s | server CPU per call | wrk CPU per call | not 201 |"
echo "|---:|---:|---:|---:|---:|"
for concurrency in $levels; do
    best_rate=0; best_line=""
    for round in 1 2; do
        cpu0=$(cpu_ms "$floor_pid")
        read -r rate _ _ bad <<<"$(wrk_update "$port" "$concurrency" "$duration" "$scratch/wrk.err" "$scratch/wrk.cpu")"
        calls=$(( rate * duration ))
        server_us=$(( ($(cpu_ms "$floor_pid") - cpu0) * 1000 / (calls > 0 ? calls : 1) ))
        wrk_us=$(awk -v c="$calls" '{ printf "%d", ($1 + $2) * 1e6 / (c > 0 ? c : 1) }' "$scratch/wrk.cpu")
        if [ "$rate" -gt "$best_rate" ]; then best_rate=$rate; best_line="$server_us $wrk_us $bad"; fi
    done
    read -r server_us wrk_us bad <<<"$best_line"
    echo "| $concurrency | $best_rate | $server_us µs | $wrk_us µs | $bad |"
done
