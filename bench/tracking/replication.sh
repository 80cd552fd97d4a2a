#!/usr/bin/env bash
# bench/tracking/replication.sh: what synchronous replication costs the tracking workload. Runs
# bench/tracking/run.sh --phases sustained alternately on a single PostgreSQL server and on the reference
# Patroni cluster (LIVEGATE_BENCH_DATABASE=ha in bench/lib/setup.sh: etcd and three members on this same
# machine, synchronous mode), single first, ROUNDS times each, so that the machine's drift falls on both
# alike.
#
#   bench/tracking/replication.sh [--rounds 3] [--rate 1000] [--seconds 20] [other options of run.sh...]
#
# Prints a table per round and the medians with their ratios (ha ÷ single): accepted/s; delivered/s during
# the load; accept to APNs answered p50 / p99; gateway, PostgreSQL (every member's) and the cluster's own
# processes' (Patroni and etcd) CPU per dispatch. The default rate is one that both take on two cores with
# nothing left to drain (the cluster took 1,787 of 2,000/s here, a build beside), so that latency and CPU
# compare at the same delivered/s; a higher --rate shows what the cluster still takes. Builds livegate once
# (bench_build, LIVEGATE_BENCH_SCRATCH as there) and hands it to every run (LIVEGATE_BENCH_BIN); each run's
# output is kept in a folder named at the end. The cluster's ports: LIVEGATE_HA_PORT_BASE (default 18400).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

rounds=3 rate=1000 seconds=20
run_options=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2 ;;
        --rate) rate=$2 ;;
        --seconds) seconds=$2 ;;
        --phases) echo "replication.sh runs the sustained phase only" >&2; exit 2 ;;
        --*) run_options+=("$1" "$2") ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done

scripts/install-deps.sh run >&2
bench_build
export LIVEGATE_BENCH_BIN=$bin
out=$(mktemp -d /tmp/livegate-replication.XXXXXX)

# run_one ROUND DATABASE: one run of the sustained phase; prints its figures (LIVEGATE_BENCH_ROWS's line).
run_one() {
    local name="$1-$2"
    echo "round $1, $2: $rate/s for $seconds s..." >&2
    if ! LIVEGATE_BENCH_DATABASE=$2 LIVEGATE_BENCH_ROWS="$out/$name.rows" bench/tracking/run.sh --phases sustained \
        --rate "$rate" --seconds "$seconds" "${run_options[@]}" >"$out/$name.log" 2>&1; then
        tail -n 20 "$out/$name.log" >&2
        echo "bench/tracking/replication.sh: FAILED: run $name (output in $out/$name.log)" >&2
        exit 1
    fi
    grep '^sustained ' "$out/$name.rows"
}

figures=()
for round in $(seq 1 "$rounds"); do
    echo
    echo "round $round: $rate updates/s offered for $seconds s"
    echo '| database | accepted/s | delivered/s | accept→answered p50 / p99 ms | drain s | gateway µs/dispatch | PostgreSQL µs/dispatch | Patroni + etcd µs/dispatch |'
    echo '|---|---:|---:|---|---:|---:|---:|---:|'
    for database in single ha; do
        row=$(run_one "$round" "$database")
        read -r _ _ accepted delivered p50 _ p99 _ drain _ _ _ gateway_us pg_us _ cluster_us <<<"$row"
        echo "| $database | $accepted | $delivered | $p50 / $p99 | $drain | $gateway_us | $pg_us | $cluster_us |"
        figures+=("$database $accepted $delivered $p50 $p99 $gateway_us $pg_us $cluster_us")
    done
done

echo
echo "medians over $rounds round(s), $rate updates/s offered for $seconds s:"
printf '%s\n' "${figures[@]}" | python3 -c '
import statistics, sys
names = ["accepted/s", "delivered/s", "accept→answered p50 ms", "accept→answered p99 ms", "gateway µs/dispatch",
         "PostgreSQL µs/dispatch", "Patroni + etcd µs/dispatch"]
runs = {"single": [], "ha": []}
for line in sys.stdin:
    database, *values = line.split()
    values = [float(v) for v in values]
    runs[database].append(values + [values[4] + values[5] + values[6]])
names.append("all three, µs/dispatch")
print("| | single | ha | ha ÷ single |")
print("|---|---:|---:|---:|")
for i, name in enumerate(names):
    single = statistics.median(run[i] for run in runs["single"])
    ha = statistics.median(run[i] for run in runs["ha"])
    ratio = f"{ha / single:.2f}x" if single else "-"
    print(f"| {name} | {single:g} | {ha:g} | {ratio} |")
'
echo "each run's output: $out"
