#!/usr/bin/env bash
# bench/ingest/compare.sh: two or more gateway builds (or settings) side by side in the same run, for
# A/B measurements of a change on a noisy machine. Each round runs pgbench, then every variant in turn,
# against one PostgreSQL; for each gateway run it prints accepted calls per second, latency, and the
# two figures that noise moves least: the gateway's CPU time and its context switches (all threads)
# per committed call.
#
#   bench/ingest/compare.sh SECONDS "LEVELS" ROUNDS LABEL=BINARY[,VAR=value...] ...
#   e.g. bench/ingest/compare.sh 10 "16 64" 3 before=/tmp/livegate-old after=.build/release/livegate
#
# The binaries are used as given (build them first); bench/ingest/run.sh gives the figures to publish.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh
source bench/lib/wrk.sh

duration="$1"; levels="$2"; rounds="$3"; shift 3
variants=("$@")
wrk_install
bin="${variants[0]#*=}"; bin="${bin%%,*}"  # migrates and makes the tenant
bench_workdir
bench_database
wrk_tenant --rate-limit 2000000000
psql "$DATABASE_URL" -qc "CREATE TABLE bench_dispatches (id bigserial PRIMARY KEY, app_id uuid NOT NULL,
    activity_id text NOT NULL, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"

switches() { cat /proc/"$1"/task/*/status | awk '/ctxt_switches/ { s += $2 } END { print s }'; }
committed() { psql "$DATABASE_URL" -tAc "SELECT count(*) FROM dispatches"; }

run_variant() { # LABEL=BINARY[,VAR=value...] CONCURRENCY
    local label="${1%%=*}" spec="${1#*=}" concurrency="$2" settings="" port rows0 cpu0 switches0 rows
    bin="${spec%%,*}"
    if [[ "$spec" == *,* ]]; then settings="${spec#*,}"; settings="${settings//,/ }"; fi
    port=$(free_port)
    # bench_serve with the variant's settings (a function cannot be run through env).
    # shellcheck disable=SC2086 # settings are VAR=value words
    env LIVEGATE_DELIVERY=off LIVEGATE_LOG_LEVEL=warning LIVEGATE_DB_POOL_SIZE=16 $settings \
        "$bin" serve --port "$port" >"$work/$label.log" 2>&1 &
    gateway_pid=$!
    bench_pids+=("$gateway_pid")
    wait_for_port "$port"
    wrk_update "$port" "$concurrency" 2 "$work/wrk.err" >/dev/null  # warm-up: caches, prepared statements
    rows0=$(committed); cpu0=$(cpu_ms "$gateway_pid"); switches0=$(switches "$gateway_pid")
    read -r rps p50 p99 bad <<<"$(wrk_update "$port" "$concurrency" "$duration" "$work/wrk.err")"
    rows=$(( $(committed) - rows0 )); [ "$rows" -gt 0 ] || rows=1
    echo "| $concurrency | $label | $rps | $p50 | $p99 | $bad | $(( ($(cpu_ms "$gateway_pid") - cpu0) * 1000 / rows )) µs |" \
        "$(awk -v s=$(( $(switches "$gateway_pid") - switches0 )) -v r="$rows" 'BEGIN { printf "%.2f", s / r }') |"
    bench_stop "$gateway_pid"
}

echo "| concurrency | run | accepted (201) /s | p50 | p99 | not 201 | gateway CPU per call | context switches per call |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for concurrency in $levels; do
    for _ in $(seq 1 "$rounds"); do
        tps=$(pgbench -n -M prepared -c "$concurrency" -j 2 -T "$duration" -f bench/ingest/insert.sql "$DATABASE_URL" 2>/dev/null \
            | awk '/^tps/ { print int($3) }')
        echo "| $concurrency | pgbench | $tps | | | | | |"
        for variant in "${variants[@]}"; do run_variant "$variant" "$concurrency"; done
    done
done
