#!/usr/bin/env bash
# bench/tracking: the delivery-tracking workload. Thousands of small activities (a food order, a ride, a
# parcel), each with a device or two, updated at random at an offered rate, against the TLS simulator
# answering after a round trip; beside, in the same run, one update fanned out to 10,000 devices and
# ingest with delivery off, as baselines.
#
#   bench/tracking/run.sh [--activities A] [--devices D] [--rate R] [--seconds S] [--latency-ms L]
#                         [--fanout N] [--ingest-connections C] [--start-rate T] [--phases "P ..."]
#                         [--budget "N M"]
#   (defaults: 20,000 activities x 1 device, 1,000 updates/s for 20 s, 20 ms, 10,000 devices, 64,
#    R/4 starts/s, every phase)
# LIVEGATE_BENCH_DATABASE=ha runs it on the reference Patroni cluster instead of a single PostgreSQL server
# (bench/lib/setup.sh); LIVEGATE_BENCH_ROWS=FILE also writes each load phase's figures there, one line each,
# for scripts: the table's columns space-separated (name offered accepted delivered p50 p90 p99 max drain
# drain_rate superseded pushes gateway_us postgresql_us checked), then the cluster's own processes' CPU
# (Patroni and etcd) per dispatch, 0 on a single server.
# LIVEGATE_BENCH_PG_STATS=FOLDER writes each phase's PostgreSQL statements by total time to
# FOLDER/NAME.statements.txt. LIVEGATE_BENCH_PERF=FOLDER records each load phase's gateway with `perf record -g` into
# FOLDER/NAME.perf.data (for `perf report`); its figures then carry perf's own cost.
#
# Every phase starts a gateway with the default settings (LIVEGATE_DELIVERY=off for ingest) on a clean
# dispatches table and simulator:
#   fanout     one update to N devices: pushes/s (201 to completed_at), gateway CPU per push.
#   ingest     delivery off, the same open-loop load at 4R/s (8,000/s at least) over C connections:
#              accepted/s, the most any delivery could be offered here, and the API's CPU per call.
#   sustained  the load at R/s for S s: accepted/s; delivered/s (dispatches done while it ran); accept to
#              APNs answered (created_at to completed_at of each done dispatch) p50/p90/p99/max; drain
#              (load end to the last dispatch finished); gateway and PostgreSQL CPU per dispatch.
#   half       the same at R/2: the latency goal's rate.
#   burst      2R/s for 20 s to a twentieth of the activities (each updated many times): delivered/s
#              while it drains, and every activity ends on its last state.
#   burst-off  the same with LIVEGATE_SUPERSESSION=off (a setting for measuring only): what the burst
#              drains at when every update is sent in full.
#   events     sustained's load with every event written (a key with events.read subscribes the workspace):
#              what writing them costs. Repeat it beside sustained, as budget.
#   webhook    sustained's load with one webhook endpoint subscribed to every event type, its receiver on
#              this machine (bench/tracking/webhook_receiver.c, answering 200 at once): what sending every
#              event costs delivery, and each event's lag from its time to the receiver's 2xx (p50/p90/p99/
#              max over the events received). Repeat it beside sustained, as budget.
#   fanout-webhook  the fan-out with an endpoint subscribed to push.sent: one event per device. Repeat it
#              beside fanout (--phases "fanout fanout-webhook fanout fanout-webhook ...").
#   budget     sustained's load with the app under a priority budget (--budget "N M": N an hour, M on
#              devices that allow frequent updates; default "5 20", so most activities pass it and every
#              update reads its devices' settings): what counting costs. Repeat it beside sustained
#              (--phases "sustained budget sustained budget ...") and the run ends with the ratios of
#              their medians.
#   starts     T/s push-to-start starts for S s, each its own activity for one of A users (one
#              push-to-start token each), as an app starts one Live Activity per order: the same figures.
#   floors     what the parts of a small dispatch cost alone here, with none of the gateway's work around
#              them: Hummingbird answering the call (bench/ingest/floor, the same load at R/s), libcurl
#              pushing (bench/delivery/curl_floor.c, the fan-out's devices at the same simulator with the
#              gateway's connections, streams and threads), PostgreSQL writing each dispatch's row and
#              finishing it (bench/tracking/row_floor.sql, batches of 20, 8 clients): CPU per call, per
#              push and per row. Their sum is the least a small dispatch can cost with these parts.
# The load is open loop (bench/tracking/load.c: request i goes at i/R s whatever the answers take).
# A run fails unless every answer is a 201, every dispatch ends done or superseded with no failed push,
# and every device shows its activity's last accepted update (bench/tracking/check.py); in `starts`, every
# start's push reached its user's device.
#
# Builds livegate in release mode (LIVEGATE_BENCH_SCRATCH: another --scratch-path), starts its own
# PostgreSQL (default durability: fsync on), `livegate apns-sim --tls --latency-ms L` and each gateway,
# and stops them all at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

activities=20000 devices=1 rate=1000 seconds=20 latency=20 fanout=10000 ingest_connections=64 start_rate=
budget="5 20"
phases="fanout ingest sustained half burst burst-off starts floors"
while [ $# -gt 0 ]; do
    case "$1" in
        --activities) activities=$2 ;;
        --devices) devices=$2 ;;
        --rate) rate=$2 ;;
        --seconds) seconds=$2 ;;
        --latency-ms) latency=$2 ;;
        --fanout) fanout=$2 ;;
        --ingest-connections) ingest_connections=$2 ;;
        --start-rate) start_rate=$2 ;;
        --phases) phases=$2 ;;
        --budget) budget=$2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
start_rate=${start_rate:-$((rate / 4))}
[ -z "${LIVEGATE_BENCH_ROWS:-}" ] || : >"$LIVEGATE_BENCH_ROWS"

bench_start
cc -O2 -o "$work/load" bench/tracking/load.c -lcurl
cc -O2 -o "$work/webhook_receiver" bench/tracking/webhook_receiver.c

sim_options=(--latency-ms "$latency")
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/key.p8" 2>/dev/null
sim_port=$(free_port)
LIVEGATE_LOG_LEVEL=warning "$bin" apns-sim --port "$sim_port" --tls --tls-certificate-out "$work/sim-cert.pem" \
    --provider-key "KEY1234567:TEAM123456:$work/key.p8" "${sim_options[@]}" >"$work/sim.log" 2>&1 &
bench_pids+=($!)
wait_for_port "$sim_port"
for _ in $(seq 1 50); do [ -s "$work/sim-cert.pem" ] && break; sleep 0.1; done
simulator="https://127.0.0.1:$sim_port"
sim() { curl -fsS --http2 --cacert "$work/sim-cert.pem" "$@"; }

# Above any hourly limit: every phase of a run counts against one workspace.
workspace=$(bench_workspace --rate-limit 1000000000)
app_id=$(bench_app "$workspace" "Bench tracking" --team-id TEAM123456 --key-id KEY1234567 \
    --key-file "$work/key.p8" --apns-endpoint "$simulator")
api_key=$(bench_update_key "$workspace")
app_uuid=$(sql "SELECT id FROM apps WHERE app_identifier = '$app_id'")

# Device d of activity k has token k*D+d+1; the fan-out's devices come after every tracking device.
sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
     SELECT '$app_uuid', 'track-' || (i / $devices), 'device-' || i, lpad(to_hex(i + 1), 64, '0')
     FROM generate_series(0, $activities * $devices - 1) i" >/dev/null
sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
     SELECT '$app_uuid', 'fanout', 'fan-' || i, lpad(to_hex(i + 1 + $activities * $devices), 64, '0')
     FROM generate_series(0, $fanout - 1) i" >/dev/null
sql "VACUUM ANALYZE activity_tokens" >/dev/null
# For starts: users user-K, each with one push-to-start token, after every other device's token (user K's
# is first_start_token + K + 1).
first_start_token=$((activities * devices + fanout))
case " $phases " in *" starts "*)
    start_key=$("$bin" key create --workspace "$workspace" --name bench-starts \
        --permissions messages.live_activity.start | tail -n 1)
    sql "INSERT INTO users (workspace_id, external_id)
         SELECT '$workspace', 'user-' || i FROM generate_series(0, $activities - 1) i" >/dev/null
    sql "INSERT INTO push_to_start_tokens (app_id, attributes_type, device_id, user_id, push_token)
         SELECT '$app_uuid', 'OrderAttributes', 'phone-' || substr(external_id, 6), id,
                lpad(to_hex(substr(external_id, 6)::bigint + 1 + $first_start_token), 64, '0')
         FROM users WHERE workspace_id = '$workspace' AND external_id LIKE 'user-%'" >/dev/null
    sql "VACUUM ANALYZE users, push_to_start_tokens" >/dev/null
    ;;
esac

case " $phases " in *webhook*)
    webhook_key=$("$bin" key create --workspace "$workspace" --name bench-webhooks \
        --permissions webhooks.manage | tail -n 1)
    ;;
esac

gateway_port=$(free_port)

# phase_start NAME [VAR=value...]: a clean table and simulator, and a gateway with that environment.
phase_start() {
    local name=$1
    shift
    sql "DELETE FROM dispatches" >/dev/null
    sql "DELETE FROM activity_priority_hours" >/dev/null
    sql "VACUUM activity_priority_hours" >/dev/null
    phase_name=$name
    bench_statements -
    sim -X DELETE "$simulator/_sim/pushes" >/dev/null
    env LIVEGATE_LOG_LEVEL=warning LIVEGATE_APNS_CA_FILE="$work/sim-cert.pem" "$@" \
        bash -c "exec '$bin' serve --port $gateway_port" >"$work/gateway-$name.log" 2>&1 &
    gateway_pid=$!
    bench_pids+=("$gateway_pid")
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$gateway_port/healthz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    if [ -n "${webhook_events:-}" ]; then webhook_subscribe "$webhook_events"; fi
    gateway_cpu_before=$(cpu_ms "$gateway_pid")
    pg_cpu_before=$(pg_cpu_ms)
    cluster_cpu_before=$(cluster_cpu_ms)
}

# webhook_subscribe TYPES: a receiver, and an endpoint for it (POST /webhooks) taking the JSON array TYPES.
webhook_subscribe() {
    local port
    port=$(free_port)
    webhook_stats="$work/webhook-$phase_name.stats"
    "$work/webhook_receiver" "$port" "$webhook_stats" >"$work/webhook-$phase_name.log" 2>&1 &
    webhook_pid=$!
    bench_pids+=("$webhook_pid")
    wait_for_port "$port"
    webhook_id=$(curl -fsS -H "Authorization: Bearer $webhook_key" -H 'Content-Type: application/json' \
        -d "{\"url\":\"http://127.0.0.1:$port/hook\",\"events\":$1}" "http://127.0.0.1:$gateway_port/webhooks" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["webhook_id"])')
}

# webhook_finish: waits until the receiver has every event written (at most 5 minutes), adds the phase's
# lag figures to webhook_rows, and removes the endpoint, its receiver and the events.
webhook_finish() {
    local written received=0 waited=0
    written=$(sql "SELECT count(*) FROM events WHERE type = ANY (ARRAY(SELECT json_array_elements_text('$webhook_events')))")
    for waited in $(seq 1 3000); do
        received=$(cut -d' ' -f1 "$webhook_stats")
        [ "$received" -ge "$written" ] && break
        sleep 0.1
    done
    [ "$received" -ge "$written" ] || { echo "bench/tracking: FAILED: the receiver got $received of $written events" >&2; exit 1; }
    local events batches p50 p90 p99 max
    read -r events batches p50 p90 p99 max <"$webhook_stats"
    webhook_rows+=("$phase_name $written $events $batches $p50 $p90 $p99 $max $(awk -v w="$waited" 'BEGIN { printf "%.1f", (w - 1) / 10 }')")
    curl -fsS -o /dev/null -X DELETE -H "Authorization: Bearer $webhook_key" "http://127.0.0.1:$gateway_port/webhooks/$webhook_id"
    bench_stop "$webhook_pid"
    sql "DELETE FROM events" >/dev/null
    webhook_pid=
}

phase_stop() {
    bench_statements "$phase_name"
    bench_stop "$gateway_pid"
}

# Waits until no dispatch is pending or being delivered (at most 10 minutes); fails on any that failed.
wait_finished() {
    for _ in $(seq 1 6000); do
        [ "$(sql "SELECT count(*) FROM dispatches WHERE status IN ('pending', 'delivering')")" = 0 ] && break
        sleep 0.1
    done
    local open bad
    open=$(sql "SELECT count(*) FROM dispatches WHERE status IN ('pending', 'delivering')")
    [ "$open" = 0 ] || { echo "bench/tracking: FAILED: $open dispatches still open after 10 minutes" >&2; exit 1; }
    bad=$(sql "SELECT count(*) FROM dispatches WHERE status NOT IN ('done', 'superseded') OR failed_count > 0")
    [ "$bad" = 0 ] || { echo "bench/tracking: FAILED: $bad dispatches failed or had a failed push" >&2; exit 1; }
}

# fanout_phase [NAME]: one update to the fan-out's devices; adds its row to fanout_rows, and sets
# fanout_pps and fanout_us (the first run's) for the baselines.
fanout_phase() {
    local name=${1:-fanout}
    echo "phase $name: one update to $fanout devices..." >&2
    phase_start "$name"
    curl -fsS -o /dev/null -H "Authorization: Bearer $api_key" -H 'Content-Type: application/json' \
        -d "{\"app_id\":\"$app_id\",\"activity_id\":\"fanout\",\"content_state\":{\"n\":1}}" \
        "http://127.0.0.1:$gateway_port/messages/live_activity/update"
    wait_finished
    local row sent_count took
    row=$(sql "SELECT sent_count, extract(epoch FROM completed_at - created_at) FROM dispatches")
    sent_count=${row%%|*}
    took=${row##*|}
    [ "$sent_count" = "$fanout" ] || { echo "bench/tracking: FAILED: the fan-out reached $sent_count of $fanout devices" >&2; exit 1; }
    local pps us
    pps=$(awk -v n="$fanout" -v s="$took" 'BEGIN { printf "%d", n / s }')
    us=$(awk -v c="$(( $(cpu_ms "$gateway_pid") - gateway_cpu_before ))" -v n="$fanout" 'BEGIN { printf "%.0f", c * 1000 / n }')
    fanout_rows+=("$name $pps $us")
    if [ "$fanout_pps" = - ] && [ "$name" = fanout ]; then fanout_pps=$pps fanout_us=$us; fi
    [ -z "${webhook_pid:-}" ] || webhook_finish
    phase_stop
}

# ingest_phase: delivery off, the same open-loop load offered at four times the rate (8,000/s at
# least), so what is accepted is all the API takes; sets ingest_rps and the gateway's and PostgreSQL's
# CPU per accepted call (ingest_gateway_us, ingest_pg_us): the part of a dispatch's cost that is the
# API's, which a fan-out pays once.
ingest_phase() {
    local offered=$((rate * 4 > 8000 ? rate * 4 : 8000))
    echo "phase ingest: delivery off, $offered/s offered for $seconds s..." >&2
    phase_start ingest LIVEGATE_DELIVERY=off
    local sent accepted other took
    read -r sent accepted other took < <("$work/load" "http://127.0.0.1:$gateway_port" "$api_key" "$app_id" \
        "$activities" "$activities" "$offered" "$seconds" "$ingest_connections" "$work/ingest.txt")
    [ "$other" = 0 ] || { echo "bench/tracking: FAILED: $other ingest answers were not 201" >&2; exit 1; }
    ingest_rps=$(awk -v a="$accepted" -v t="$took" 'BEGIN { printf "%d", a / t }')
    ingest_gateway_us=$(( ($(cpu_ms "$gateway_pid") - gateway_cpu_before) * 1000 / accepted ))
    ingest_pg_us=$(( ($(pg_cpu_ms) - pg_cpu_before) * 1000 / accepted ))
    phase_stop
}

# tracking NAME RATE SECONDS HOT [VAR=value...]: one load phase; adds its row to `rows`. With `kind=start`
# in its environment, the load is starts (load.c's `start`) under the starts key.
tracking() {
    local name=$1 offered=$2 length=$3 hot=$4
    shift 4
    echo "phase $name: $offered/s for $length s to $hot activities..." >&2
    phase_start "$name" "$@"
    local started ended
    started=$(sql "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')")
    local perf_pid=
    if [ -n "${LIVEGATE_BENCH_PERF:-}" ]; then
        mkdir -p "$LIVEGATE_BENCH_PERF"
        perf_record_gateway "$gateway_pid" "$LIVEGATE_BENCH_PERF/$name.perf.data"
    fi
    local key=$api_key load_kind=()
    if [ "${kind:-}" = start ]; then key=$start_key load_kind=(start); fi
    read -r sent accepted other took < <("$work/load" "http://127.0.0.1:$gateway_port" "$key" "$app_id" "$activities" \
        "$hot" "$offered" "$length" 64 "$work/$name.txt" "${load_kind[@]}")
    ended=$(sql "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')")
    [ "$other" = 0 ] || { echo "bench/tracking: FAILED: $other answers were not 201" >&2; exit 1; }
    wait_finished
    if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
    local gateway_ms=$(( $(cpu_ms "$gateway_pid") - gateway_cpu_before )) pg_ms=$(( $(pg_cpu_ms) - pg_cpu_before ))
    local cluster_ms=$(( $(cluster_cpu_ms) - cluster_cpu_before ))
    [ -z "${webhook_pid:-}" ] || webhook_finish
    sim "$simulator/_sim/pushes" >"$work/pushes.json"
    local checked
    sql "SELECT DISTINCT ON (activity_id) substr(activity_id, 7), payload::json->'aps'->'content-state'->>'n', status
         FROM dispatches WHERE activity_id LIKE 'track-%'
         ORDER BY activity_id, coalesce(send_at, created_at) DESC, sequence DESC" | tr '|' ' ' >"$work/newest.txt"
    # Without supersession nothing orders an activity's updates, so there is no last state to check.
    checked=-
    if [ "${kind:-}" = start ]; then
        checked=$(python3 bench/tracking/check.py starts "$work/$name.txt" "$work/pushes.json" "$first_start_token")
    elif [ "$name" != burst-off ]; then
        checked=$(python3 bench/tracking/check.py devices "$work/$name.txt" "$work/newest.txt" "$work/pushes.json" "$devices")
    fi
    rows+=("$(sql "SELECT
           '$name', $offered, round($accepted / $took::numeric),
           round(count(*) FILTER (WHERE completed_at <= '$ended'::timestamp AT TIME ZONE 'UTC') / $took::numeric),
           round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE status = 'done')),
           round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ms) FILTER (WHERE status = 'done')),
           round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) FILTER (WHERE status = 'done')),
           round(max(ms) FILTER (WHERE status = 'done')),
           round(greatest(0, extract(epoch FROM max(completed_at) - '$ended'::timestamp AT TIME ZONE 'UTC'))::numeric, 2),
           round(count(*) FILTER (WHERE completed_at > '$ended'::timestamp AT TIME ZONE 'UTC')
                 / greatest(0.001, extract(epoch FROM max(completed_at) - '$ended'::timestamp AT TIME ZONE 'UTC'))::numeric),
           count(*) FILTER (WHERE status = 'superseded'), sum(sent_count),
           round($gateway_ms * 1000.0 / greatest(1, count(*) FILTER (WHERE status = 'done'))),
           round($pg_ms * 1000.0 / greatest(1, count(*) FILTER (WHERE status = 'done'))),
           '$checked'
         FROM (SELECT status, completed_at, sent_count,
                      extract(epoch FROM completed_at - created_at) * 1000 AS ms FROM dispatches) d" | tr '|' ' ')")
    if [ -n "${LIVEGATE_BENCH_ROWS:-}" ]; then
        echo "${rows[-1]} $(sql "SELECT round($cluster_ms * 1000.0 / greatest(1, count(*))) FROM dispatches WHERE status = 'done'")" \
            >>"$LIVEGATE_BENCH_ROWS"
    fi
    phase_stop
}

# floors_phase: each part of a small dispatch alone (see `floors` above); sets floor_http_us,
# floor_push_us and floor_row_us.
floors_phase() {
    echo "phase floors: Hummingbird alone, libcurl alone, PostgreSQL alone..." >&2
    local floor_bin port floor_pid cpu0 sent accepted other took
    build_ingest_floor
    port=$(free_port)
    "$floor_bin" "$port" >/dev/null 2>&1 &
    floor_pid=$!
    bench_pids+=("$floor_pid")
    wait_for_port "$port"
    cpu0=$(cpu_ms "$floor_pid")
    read -r sent accepted other took < <("$work/load" "http://127.0.0.1:$port" floor "$app_id" "$activities" \
        "$activities" "$rate" "$seconds" 64 "$work/floor.txt")
    [ "$other" = 0 ] || { echo "bench/tracking: FAILED: $other of Hummingbird's answers were not 201" >&2; exit 1; }
    floor_http_us=$(( ($(cpu_ms "$floor_pid") - cpu0) * 1000 / accepted ))
    bench_stop "$floor_pid"

    # The fan-out's devices, with the gateway's defaults: 4 connections, 500 streams (or the simulator's
    # 500), a libcurl thread per core up to one per connection.
    build_curl_floor
    seq 1 "$fanout" | awk -v base="$simulator" -v first=$((activities * devices)) \
        '{ printf "%s/3/device/%064x\n", base, $1 + first }' >"$work/floor-uris"
    printf '%s' '{"aps":{"timestamp":1795747200,"event":"update","content-state":{"n":1}}}' >"$work/floor-payload.json"
    local provider_token out
    provider_token=$("$bin" provider-token --team-id TEAM123456 --key-id KEY1234567 --key-file "$work/key.p8")
    sim -X DELETE "$simulator/_sim/pushes" >/dev/null
    out=$("$work/curl_floor" "$work/floor-uris" "$work/floor-payload.json" "$work/sim-cert.pem" "$provider_token" \
        $(( $(date +%s) + 3600 )) 4 500 $(( $(nproc) < 4 ? $(nproc) : 4 ))) \
        || { echo "bench/tracking: FAILED: libcurl alone: $out" >&2; exit 1; }
    floor_push_us=$(awk -v cpu="${out#* }" -v n="$fanout" 'BEGIN { printf "%.0f", cpu * 1000 / n }')

    sql "DELETE FROM dispatches" >/dev/null
    local pg0 transactions batch=20
    pg0=$(pg_cpu_ms)
    transactions=$(pgbench -n -M simple -c 8 -j 2 -T "$seconds" -D rows="$batch" -D activities="$activities" \
        -f bench/tracking/row_floor.sql "$DATABASE_URL" 2>/dev/null | awk '/^number of transactions actually processed/ { print $NF }')
    [ "${transactions:-0}" -gt 0 ] || { echo "bench/tracking: FAILED: pgbench wrote no rows" >&2; exit 1; }
    floor_row_us=$(( ($(pg_cpu_ms) - pg0) * 1000 / (transactions * batch) ))
    [ "$floor_row_us" -gt 0 ] || { echo "bench/tracking: FAILED: no PostgreSQL CPU time counted for the rows" >&2; exit 1; }
    sql "DELETE FROM dispatches" >/dev/null
}

rows=()
fanout_rows=()
webhook_rows=()
all_event_types='["dispatch.accepted","push.sent","push.failed","dispatch.done","dispatch.superseded","dispatch.cancelled","token.registered","token.rotated","token.removed","device.state","start.confirmed","start.unconfirmed"]'
budget_counts=()
event_counts=()
fanout_pps=- fanout_us=- ingest_rps=- ingest_gateway_us=- ingest_pg_us=- floor_http_us=
for phase in $phases; do
    case "$phase" in
        fanout) fanout_phase ;;
        fanout-webhook) webhook_events='["push.sent"]' fanout_phase fanout-webhook ;;
        webhook) webhook_events=$all_event_types tracking webhook "$rate" "$seconds" "$activities" ;;
        ingest) ingest_phase ;;
        sustained) tracking sustained "$rate" "$seconds" "$activities" ;;
        half) tracking half $((rate / 2)) "$seconds" "$activities" ;;
        burst) tracking burst $((rate * 2)) 20 $((activities / 20)) ;;
        burst-off) tracking burst-off $((rate * 2)) 20 $((activities / 20)) LIVEGATE_SUPERSESSION=off ;;
        starts) kind=start tracking starts "$start_rate" "$seconds" "$activities" ;;
        events)
            "$bin" key create --workspace "$workspace" --name bench-events --permissions events.read >/dev/null
            tracking events "$rate" "$seconds" "$activities"
            event_counts+=("$(sql "SELECT count(*) FROM events")")
            sql "UPDATE api_keys SET revoked_at = now() WHERE name = 'bench-events' AND revoked_at IS NULL" >/dev/null
            sql "DELETE FROM events" >/dev/null
            ;;
        budget)
            read -r per_hour frequent_per_hour <<<"$budget"
            "$bin" app set-priority-budget "$app_id" --per-hour "$per_hour" --frequent-per-hour "$frequent_per_hour" >/dev/null
            tracking budget "$rate" "$seconds" "$activities"
            budget_counts+=("$(sql "SELECT coalesce(sum(sent_high), 0), coalesce(sum(lowered), 0) FROM activity_priority_hours" | tr '|' ' ')")
            "$bin" app set-priority-budget "$app_id" --off >/dev/null
            ;;
        floors) floors_phase ;;
        *) echo "unknown phase $phase" >&2; exit 2 ;;
    esac
done

echo
echo "tracking: $activities activities x $devices device(s), $latency ms round trip, fsync on"
echo "baselines: fan-out of $fanout devices ${fanout_pps} pushes/s (gateway ${fanout_us} us CPU per push); ingest, delivery off, ${ingest_rps} accepted/s (gateway ${ingest_gateway_us} us, PostgreSQL ${ingest_pg_us} us CPU per call)"
printf '| phase | offered/s | accepted/s | delivered/s (during load) | accept→answered p50 / p90 / p99 / max ms | drain s | delivered/s while draining | superseded | pushes | gateway µs/dispatch | PostgreSQL µs/dispatch | activities (starts) checked |\n'
printf '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n'
for row in "${rows[@]}"; do
    read -r name offered accepted delivered p50 p90 p99 max drain drain_rate superseded pushes gus pgus checked <<<"$row"
    echo "| $name | $offered | $accepted | $delivered | $p50 / $p90 / $p99 / $max | $drain | $drain_rate | $superseded | $pushes | $gus | $pgus | $checked |"
done
if [ -n "$floor_http_us" ]; then
    floor_sum=$((floor_http_us + floor_push_us + floor_row_us))
    echo "floors, each part alone: Hummingbird answering the call $floor_http_us us at $rate/s; libcurl pushing" \
        "$floor_push_us us; PostgreSQL writing and finishing the row $floor_row_us us; sum $floor_sum us" \
        "$([ "$fanout_us" = - ] || awk -v s="$floor_sum" -v f="$fanout_us" 'BEGIN { printf "= %.2fx the fan-out'"'"'s push", s / f }')"
fi
for row in "${rows[@]}"; do
    read -r name _ _ delivered _ <<<"$row"
    [ "$name" = sustained ] || continue
    [ "$fanout_pps" = - ] || echo "sustained delivered/s ÷ fan-out pushes/s: $(awk -v d="$delivered" -v f="$fanout_pps" 'BEGIN { printf "%.2f", d / f }')"
done
# compare_medians BASE OTHER: the medians of delivered/s, gateway and PostgreSQL µs per dispatch over the
# rows of phases BASE and OTHER, as OTHER ÷ BASE.
compare_medians() {
    printf '%s\n' "${rows[@]}" | awk -v base="$1" -v other="$2" '
        $1 == base || $1 == other { d[$1] = d[$1] " " $4; g[$1] = g[$1] " " $(NF-2); p[$1] = p[$1] " " $(NF-1) }
        function median(list,   n, a, i, j, t) {
            n = split(list, a, " ")
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        END {
            if (d[base] == "" || d[other] == "") exit
            printf "%s ÷ %s, medians: delivered/s %.2f, gateway µs/dispatch %.2f, PostgreSQL µs/dispatch %.2f\n", other, base,
                median(d[other]) / median(d[base]), median(g[other]) / median(g[base]), median(p[other]) / median(p[base])
        }'
}
if [ ${#event_counts[@]} -gt 0 ]; then
    echo "events written per events phase: ${event_counts[*]}"
    compare_medians sustained events
fi
if [ ${#webhook_rows[@]} -gt 0 ]; then
    printf '| webhook phase | events written | received | batches | lag p50 / p90 / p99 / max ms | caught up s after |\n'
    printf '|---|---:|---:|---:|---|---:|\n'
    for row in "${webhook_rows[@]}"; do
        read -r name written received batches p50 p90 p99 max caught <<<"$row"
        echo "| $name | $written | $received | $batches | $p50 / $p90 / $p99 / $max | $caught |"
    done
    compare_medians sustained webhook
fi
if [ ${#fanout_rows[@]} -gt 1 ]; then
    echo "fan-out runs (name pushes/s gateway-µs/push): $(printf '%s; ' "${fanout_rows[@]}")"
    printf '%s\n' "${fanout_rows[@]}" | awk '
        { r[$1] = r[$1] " " $2 }
        function median(list,   n, a, i, j, t) {
            n = split(list, a, " ")
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        END { if (r["fanout"] != "" && r["fanout-webhook"] != "")
            printf "fanout-webhook ÷ fanout, medians: pushes/s %.2f\n", median(r["fanout-webhook"]) / median(r["fanout"]) }'
fi
if [ ${#budget_counts[@]} -gt 0 ]; then
    echo "budget \"$budget\": updates counted at priority 10 and lowered to 5, per budget phase: ${budget_counts[*]}"
    compare_medians sustained budget
fi
