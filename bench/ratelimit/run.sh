#!/usr/bin/env bash
# bench/ratelimit: accepted `update` calls per second with the per-workspace rate limiter on, against the
# same gateway build with it off (LIVEGATE_RATE_LIMITS=off), in the same run against the same PostgreSQL.
# The workspace's limit is far above what the run can reach, so every call is counted and none refused:
# this measures what counting costs. Prints one table row per concurrency level; figures go to
# docs/benchmarks.md.
#
#   bench/ratelimit/run.sh [seconds per run, default 15] [concurrency levels, default "16 64"] [rounds, default 3]
#
# Builds livegate in release mode (LIVEGATE_BENCH_SCRATCH: another --scratch-path), starts its own
# PostgreSQL cluster (default durability) and two gateways (limiter on, limiter off; delivery off in both),
# loads one at a time with wrk, alternating, and keeps the better of each; stops everything at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh
source bench/lib/wrk.sh

duration="${1:-15}"
levels="${2:-16 64}"
rounds="${3:-3}"

bench_start
wrk_install
wrk_tenant --rate-limit 2000000000

started_port=""
start_gateway() { # limiter on|off; sets started_port (not run in a subshell, so cleanup knows the pid)
    started_port=$(free_port)
    LIVEGATE_RATE_LIMITS="$1" LIVEGATE_DELIVERY=off LIVEGATE_LOG_LEVEL=warning LIVEGATE_DB_POOL_SIZE=16 \
        bench_serve "$started_port" "$work/gateway-$1.log"
}
start_gateway on; port_on=$started_port
start_gateway off; port_off=$started_port
# The limiter really counts: the headers are there on one and not on the other.
probe() {
    curl -s -D - -o /dev/null -H "Authorization: Bearer $BENCH_API_KEY" -H 'Content-Type: application/json' \
        -d '{"app_id":"'"$BENCH_APP_ID"'","activity_id":"probe","content_state":{}}' \
        "http://127.0.0.1:$1/messages/live_activity/update"
}
probe "$port_on" | grep -qi '^x-ratelimit-remaining' || { echo "the limiter-on gateway sent no X-RateLimit headers" >&2; exit 1; }
probe "$port_off" | grep -qi '^x-ratelimit-remaining' && { echo "the limiter-off gateway sent X-RateLimit headers" >&2; exit 1; }

echo "| concurrency | limiter off, accepted/s | limiter on, accepted/s | on ÷ off | cost | p50 off / on | p99 off / on | non-2xx |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for concurrency in $levels; do
    best_off=0; best_on=0; off_line="- - 0"; on_line="- - 0"
    for round in $(seq 1 "$rounds"); do
        # Alternate which goes first, so neither always runs on a warmer (or more bloated) database.
        for side in $( [ $((round % 2)) -eq 1 ] && echo "off on" || echo "on off" ); do
            port=$port_off; [ "$side" = on ] && port=$port_on
            read -r rps p50 p99 bad <<<"$(wrk_update "$port" "$concurrency" "$duration" "$work/wrk.err")"
            if [ "$side" = on ]; then
                if [ "${rps:-0}" -gt "$best_on" ]; then best_on=$rps; on_line="$p50 $p99 $bad"; fi
            else
                if [ "${rps:-0}" -gt "$best_off" ]; then best_off=$rps; off_line="$p50 $p99 $bad"; fi
            fi
            echo "  round $round, limiter $side, concurrency $concurrency: $rps/s" >&2
        done
    done
    read -r off50 off99 offbad <<<"$off_line"
    read -r on50 on99 onbad <<<"$on_line"
    ratio=$(awk -v a="$best_on" -v b="$best_off" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
    cost=$(awk -v a="$best_on" -v b="$best_off" 'BEGIN { printf "%.1f%%", (b > 0 ? (1 - a / b) * 100 : 0) }')
    echo "| $concurrency | $best_off | $best_on | ${ratio}× | $cost | $off50 / $on50 | $off99 / $on99 | $((offbad + onbad)) |"
done
echo
echo "quota leased by the limiter-on gateway this hour: $(psql "$DATABASE_URL" -tAc "SELECT coalesce(sum(granted), 0) FROM rate_limit_windows")"
