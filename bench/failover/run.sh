#!/usr/bin/env bash
# bench/failover: the tracking workload at a steady rate against a gateway on the reference Patroni
# cluster (scripts/ha/cluster.sh: etcd, three members, synchronous mode, ttl 10), with the primary hit
# part-way through: killed (the whole member SIGKILLed, a machine dying) in one run, frozen (SIGSTOPped
# with its sockets open, a machine that hangs) in another.
#
#   bench/failover/run.sh [--faults "kill freeze"] [--rate 50] [--seconds 40] [--fault-at 10]
#                         [--activities 100] [--deadline 5]
#
# Each run reports the answers by status; the write outage (the fault to the first 201 of a request sent
# after it); the requests answered later than the deadline (LIVEGATE_DB_TIMEOUT_SECONDS) plus a second;
# the 201'd updates missing from the new primary; the activities whose device did not end on their newest
# accepted state; and whether the gateway process lived throughout. It fails on any 500, any answer past
# the deadline and a second, writes back later than 30 s after the fault, anything accepted lost, or a
# gateway that died. A frozen primary is thawed once the load ends (its Patroni then demotes it).
#
# Builds livegate in release mode, starts the APNs simulator, a cluster per run (under the run's
# folder, ports from LIVEGATE_HA_PORT_BASE or 16400, apart from the script's own default) and the gateway,
# and stops them all at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

faults="kill freeze" rate=50 seconds=40 fault_at=10 activities=100 deadline=5
while [ $# -gt 0 ]; do
    case "$1" in
        --faults) faults=$2 ;;
        --rate) rate=$2 ;;
        --seconds) seconds=$2 ;;
        --fault-at) fault_at=$2 ;;
        --activities) activities=$2 ;;
        --deadline) deadline=$2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done

scripts/install-deps.sh run >&2
bench_build
bench_workdir
cc -O2 -o "$work/load" bench/tracking/load.c -lcurl
bench_simulator
simulator="https://127.0.0.1:$sim_port"
sim() { curl -fsS --http2 --cacert "$work/sim-cert.pem" "$@"; }

cluster=
stop_cluster() { [ -z "$cluster" ] || LIVEGATE_HA_DIR="$cluster" scripts/ha/cluster.sh down >/dev/null 2>&1 || true; }
# The cluster goes down before the run's folder (and its data) is removed.
trap 'stop_cluster; bench_cleanup' EXIT

export LIVEGATE_HA_PORT_BASE=${LIVEGATE_HA_PORT_BASE:-16400}

rows=()
for fault in $faults; do
    echo "run $fault: $rate updates/s for $seconds s to $activities activities, the primary hit at $fault_at s" >&2
    cluster="$work/ha-$fault"
    export LIVEGATE_HA_DIR="$cluster"
    scripts/ha/cluster.sh up >"$work/ha-$fault.log" 2>&1 || { cat "$work/ha-$fault.log" >&2; exit 1; }
    DATABASE_URL=$(scripts/ha/cluster.sh urls | sed -n 's/^LIVEGATE_HA_URL=//p')
    export DATABASE_URL
    # The members' PostgreSQL ports, from the URL's host list.
    member_ports=$(echo "$DATABASE_URL" | sed 's|^postgres://postgres@||; s|/.*||' | tr ',' '\n' | cut -d: -f2)
    psql "${DATABASE_URL/\/livegate?//postgres?}" -qtAc "SELECT 1 FROM pg_database WHERE datname = 'livegate'" | grep -q 1 ||
        psql "${DATABASE_URL/\/livegate?//postgres?}" -qc "CREATE DATABASE livegate" >&2
    "$bin" migrate >&2
    workspace=$(bench_workspace --rate-limit 1000000000)
    app_id=$(bench_app "$workspace" "Bench failover" --team-id TEAM123456 --key-id KEY1234567 \
        --key-file "$work/key.p8" --apns-endpoint "$simulator")
    api_key=$(bench_update_key "$workspace")
    app_uuid=$(sql "SELECT id FROM apps WHERE app_identifier = '$app_id'")
    sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
         SELECT '$app_uuid', 'track-' || i, 'device-' || i, lpad(to_hex(i + 1), 64, '0')
         FROM generate_series(0, $activities - 1) i" >/dev/null
    sim -X DELETE "$simulator/_sim/pushes" >/dev/null

    port=$(free_port)
    LIVEGATE_LOG_LEVEL=warning LIVEGATE_APNS_CA_FILE="$work/sim-cert.pem" LIVEGATE_DB_TIMEOUT_SECONDS="$deadline" \
        bench_serve "$port" "$work/gateway-$fault.log"
    gateway=$gateway_pid

    LOAD_TIMINGS=1 "$work/load" "http://127.0.0.1:$port" "$api_key" "$app_id" "$activities" "$activities" "$rate" \
        "$seconds" 64 "$work/load-$fault.txt" >"$work/load-$fault.out" &
    load_pid=$!
    sleep "$fault_at"
    fault_ms=$(date +%s%3N)
    case "$fault" in
        kill) scripts/ha/cluster.sh kill-leader >&2 ;;
        freeze) scripts/ha/cluster.sh freeze-leader >&2 ;;
        *) echo "unknown fault $fault" >&2; exit 2 ;;
    esac
    wait "$load_pid"
    [ "$fault" = freeze ] && scripts/ha/cluster.sh thaw >&2
    alive=yes
    kill -0 "$gateway" 2>/dev/null || alive=no

    # The cluster settles on one primary; the checks then read the leader itself.
    sleep 3
    read -r _ leader_port < <(scripts/ha/cluster.sh wait-primary) ||
        { echo "bench/failover: FAILED: the cluster did not settle on one primary" >&2; exit 1; }
    DATABASE_URL="postgres://postgres@127.0.0.1:$leader_port/livegate"
    scripts/ha/cluster.sh status >&2 || true
    for member_port in $member_ports; do
        echo "member on $member_port: $(psql -h 127.0.0.1 -p "$member_port" -U postgres -d livegate -qtAc \
            "SELECT pg_is_in_recovery(), count(*) FROM dispatches" 2>&1 | head -1)" >&2
    done
    # Every accepted dispatch ends (at most 2 minutes).
    for _ in $(seq 1 1200); do
        open=$(sql "SELECT count(*) FROM dispatches WHERE status IN ('pending', 'delivering')" 2>/dev/null || echo -1)
        [ "$open" = 0 ] && break
        sleep 0.1
    done
    sql "SELECT payload::json->'aps'->'content-state'->>'n' FROM dispatches" >"$work/kept-$fault.txt"
    sql "SELECT DISTINCT ON (activity_id) substr(activity_id, 7), payload::json->'aps'->'content-state'->>'n', status
         FROM dispatches ORDER BY activity_id, coalesce(send_at, created_at) DESC, sequence DESC" |
        tr '|' ' ' >"$work/newest-$fault.txt"
    sim "$simulator/_sim/pushes" >"$work/pushes-$fault.json"
    rows+=("$fault $(python3 bench/failover/analyze.py "$work/load-$fault.txt" "$fault_ms" "$deadline" \
        "$work/kept-$fault.txt" "$work/newest-$fault.txt" "$work/pushes-$fault.json") $alive")
    bench_stop "$gateway"
    stop_cluster
    cluster=
done

echo
echo "failover: $rate updates/s for $seconds s to $activities activities (a device each), the primary hit at $fault_at s;"
echo "gateway deadline $deadline s (LIVEGATE_DB_TIMEOUT_SECONDS); Patroni ttl 10 s, loop_wait 1 s, synchronous mode"
printf '| fault | 201 | 503 | 500 | other | write outage s | answered past deadline + 1 s | slowest answer s | 201s missing | devices off their newest state | gateway lived |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
failed=0
for row in "${rows[@]}"; do
    read -r fault created unavailable errors other outage late slowest missing off alive <<<"$row"
    echo "| $fault | $created | $unavailable | $errors | $other | $outage | $late | $slowest | $missing | $off | $alive |"
    if [ "$errors" != 0 ] || [ "$late" != 0 ] || [ "$missing" != 0 ] || [ "$off" != 0 ] || [ "$alive" != yes ] ||
        [ "$outage" = never ] || awk -v o="$outage" 'BEGIN { exit !(o > 30) }'; then
        failed=1
    fi
done
[ "$failed" = 0 ] || { echo "bench/failover: FAILED: see the table" >&2; exit 1; }
