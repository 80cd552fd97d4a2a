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
echo "building bench/ingest/floor (release)..." >&2
swift build -c release --package-path bench/ingest/floor >&2
floor_bin="$(swift build -c release --package-path bench/ingest/floor --show-bin-path)/IngestFloor"

port=$(free_port)
"$floor_bin" "$port" >/dev/null 2>&1 &
floor_pid=$!
trap 'kill "$floor_pid" 2>/dev/null || true' EXIT
wait_for_port "$port"

# update.lua reads these; the floor checks neither.
export BENCH_APP_ID=00000000-0000-4000-8000-000000000000 BENCH_API_KEY=floor
ticks() { awk '{ print $14 + $15 }' "/proc/$floor_pid/stat"; }

echo "| concurrency | Hummingbird alone: answers (201) /s | server CPU per call | wrk CPU per call | not 201 |"
echo "|---:|---:|---:|---:|---:|"
for concurrency in $levels; do
    best_rate=0; best_line=""
    for round in 1 2; do
        ticks0=$(ticks)
        out=$( { /usr/bin/time -f "wrk-cpu %U %S" wrk -t 2 -c "$concurrency" -d "${duration}s" -s bench/ingest/update.lua \
            "http://127.0.0.1:$port"; } 2>&1)
        rate=$(awk -F': ' '/^accepted\/s:/ { print $2 }' <<<"$out")
        bad=$(awk -F': ' '/^not 201:/ { print $2 }' <<<"$out")
        calls=$(( ${rate:-0} * duration ))
        server_us=$(( ($(ticks) - ticks0) * 10000 / (calls > 0 ? calls : 1) ))
        wrk_us=$(awk -v c="$calls" '/^wrk-cpu/ { printf "%d", ($2 + $3) * 1e6 / (c > 0 ? c : 1) }' <<<"$out")
        if [ "${rate:-0}" -gt "$best_rate" ]; then best_rate=$rate; best_line="$server_us $wrk_us $bad"; fi
    done
    read -r server_us wrk_us bad <<<"$best_line"
    echo "| $concurrency | $best_rate | $server_us µs | $wrk_us µs | $bad |"
done
