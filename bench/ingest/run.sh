#!/usr/bin/env bash
# bench/ingest: accepted `update` calls per second against a running gateway, side by side with
# pgbench running a one-row INSERT transaction at the same concurrency, against the same PostgreSQL,
# in the same run. Prints one table row per concurrency level; figures go to docs/benchmarks.md.
#
#   bench/ingest/run.sh [seconds per run, default 15] [concurrency levels, default "16 64"]
#
# Builds livegate in release mode, starts its own PostgreSQL cluster (default durability settings:
# fsync and synchronous_commit on) and stops everything at the end. Runs alternate pgbench and the
# gateway twice per level and report the better of each, to damp the noise of a shared machine.
# The last column is the gateway's CPU time (user + system) per committed call in its better run: it
# moves far less than the rates when other work shares the machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh
source bench/lib/wrk.sh

duration="${1:-15}"
levels="${2:-16 64}"

bench_start
wrk_install
# A limit far above what the runs send: the default (250,000 an hour) would turn most answers into 429s,
# which cost nothing and would be counted as if they were accepted updates.
wrk_tenant --rate-limit 2000000000
# Same table shape for the baseline as the gateway's hot insert, without the gateway's other indexes.
psql "$DATABASE_URL" -qc "CREATE TABLE bench_dispatches (id bigserial PRIMARY KEY, app_id uuid NOT NULL,
    activity_id text NOT NULL, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"

gateway_port=$(free_port)
# Acceptance only: delivery (bench/delivery measures it) would compete for the same two cores.
LIVEGATE_DELIVERY=off LIVEGATE_LOG_LEVEL=warning LIVEGATE_DB_POOL_SIZE=16 bench_serve "$gateway_port" "$work/gateway.log"

run_pgbench() { # concurrency -> tps
    pgbench -n -M prepared -c "$1" -j 2 -T "$duration" -f bench/ingest/insert.sql "$DATABASE_URL" 2>/dev/null \
        | awk '/^tps/ { print int($3) }'
}

committed() { psql "$DATABASE_URL" -tAc "SELECT count(*) FROM dispatches"; }

run_gateway() { # concurrency -> "rps p50 p99 errors cpu-µs-per-committed-call"
    local rows0 cpu0 result rows
    rows0=$(committed); cpu0=$(cpu_ms "$gateway_pid")
    result=$(wrk_update "$gateway_port" "$1" "$duration" "$work/wrk.err")
    rows=$(( $(committed) - rows0 ))
    echo "$result $(( ($(cpu_ms "$gateway_pid") - cpu0) * 1000 / (rows > 0 ? rows : 1) ))"
}

echo "| concurrency | pgbench insert tps | gateway accepted (201) /s | ratio | gateway p50 | gateway p99 | not 201 | gateway CPU per call |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
not_created=0
for concurrency in $levels; do
    best_pg=0; best_gw=0; best_line=""
    for round in 1 2; do
        tps=$(run_pgbench "$concurrency")
        [ "${tps:-0}" -gt "$best_pg" ] && best_pg=$tps
        read -r rps p50 p99 bad cpu <<<"$(run_gateway "$concurrency")"
        not_created=$((not_created + bad))
        if [ "${rps:-0}" -gt "$best_gw" ]; then best_gw=$rps; best_line="$p50 $p99 $bad $cpu"; fi
    done
    read -r p50 p99 bad cpu <<<"$best_line"
    ratio=$(awk -v g="$best_gw" -v p="$best_pg" 'BEGIN { printf "%.2f", (p > 0 ? g / p : 0) }')
    echo "| $concurrency | $best_pg | $best_gw | ${ratio}× | $p50 | $p99 | $bad | ${cpu} µs |"
done
dispatches=$(psql "$DATABASE_URL" -tAc "SELECT count(*) FROM dispatches")
echo
echo "dispatches committed by the gateway during the run: $dispatches"
if [ "$not_created" -gt 0 ]; then
    echo "FAILED: $not_created answers were not 201, so the figures above are not all accepted updates; the first ones:" >&2
    sed -n 1,3p "$work/wrk.err" >&2
    exit 1
fi
