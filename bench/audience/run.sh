#!/usr/bin/env bash
# bench/audience: a start to an audience. `POST /messages/live_activity/start` with a Braze
# `custom_audience` is committed with its audience, no target resolved in the request; the delivery
# engine then pages through the app's push-to-start tokens of the type whose users match it (an index
# probe of user_attributes per candidate). Measured against an update fanned out to as many devices,
# to the same simulator, in the same run, and against an update to 10,000 devices for memory.
#
#   bench/audience/run.sh [--users N] [--rounds R] [--starts K] [--latency-ms L]
#   (defaults: 1,000,000 users, 1 round, 10 timed starts, the simulator's own latency, 0 ms;
#    --users 20000 is a quick check that it all runs: its sub-second fan-outs make its ratios noise)
#
# Loaded in bulk with SQL (INSERT … SELECT generate_series, then VACUUM ANALYZE), not through the API:
# N users `fan-I` of the bench workspace, each with two custom attributes, `team` (string: "lions" when
# I % 5 < 2, else "tigers", "bears" or "wolves") and `tickets` (number, 1 to 7), and one push-to-start
# token for `MatchAttributes` under the bench app. The audience, every lions fan holding a ticket,
#   {"AND":[{"custom_attribute":{"custom_attribute_name":"team","comparison":"equals","value":"lions"}},
#           {"custom_attribute":{"custom_attribute_name":"tickets","comparison":"greater_than","value":0}}]}
# matches 40% of them (400,000 of 1,000,000), spread evenly over the tokens' order, so each page of the
# fan-out looks at about 2.5 candidates per device it sends to. The same 40% have an update token under
# the activity `bench-update` (the baseline), and the first 10,000 users one under `bench-small`. The
# updates carry the start's alert, and in their content-state the keys and values a start adds to its
# push (`attributes-type`, `attributes`, `input-push-token`), so that the two fan-outs' pushes have the
# same size (268 and 269 bytes) and shape: what is compared is finding the devices, not the bytes sent.
# (An update without them is 158 bytes; the simulator parses every payload, and pushes of 268 bytes cost
# it and the HTTP/2 client visibly more: LIVEGATE_BENCH_UPDATE_PAYLOAD=own sends that one instead.)
#
# Runs, each on a gateway started afresh with the default settings (only LIVEGATE_LOG_LEVEL=warning and
# LIVEGATE_APNS_CA_FILE, the simulator's certificate, are set), so VmHWM is that run's peak RSS; after
# each, the gateway stops, the run's dispatch (and its targets) is deleted, and the tables it wrote are
# vacuumed, so no run inherits another's rows or dead tuples:
#   starts    delivery off: K starts to the audience, each to its own activity_id (a newer start to an
#             audience supersedes an older one of the same activity); curl's request-to-last-byte time.
#             The first request of the fresh gateway (it also loads the key and the app) is shown apart.
#   small     an update to the 10,000 `bench-small` devices: the memory baseline.
#   update    an update to the `bench-update` devices (as many as the audience matches): the time baseline.
#   audience  one start to the audience (activity `bench-start-R`).
# Every round runs small, then update and audience, alternating which goes first. A fan-out is timed from
# the 201 (curl's clock) to the dispatch's completed_at; it must end `done` with sent_count = the devices
# and no failed push, and the audience's dispatch_targets must be exactly the matching users' devices, all
# answered 200, or the bench fails. CPU is each run's: the gateway's, PostgreSQL's, the simulator's, and the
# rest of the machine's busy time (a shared machine's other work shows there); and the WAL PostgreSQL wrote.
#
# The simulator (`livegate apns-sim --tls`, bench_simulator) answers at once unless --latency-ms, the same
# for both fan-outs: each then goes as fast as the gateway's page loop and this machine (gateway, PostgreSQL
# and simulator share its cores) allow, so the audience's extra database work per page (the probes, the
# targets it inserts) shows in full, where a round trip would hide part of it behind waiting on APNs
# (--latency-ms 20, bench/tracking's, shows how much). Its kept pushes are cleared before every run.
#
# Goals: the start answers in < 100 ms (every timed start, the fresh gateway's first request included);
# the audience's fan-out takes ≤ 1.2× the update's to as many devices (medians over rounds); the audience
# run's peak RSS ≤ 1.5× the 10,000-device update's (the highest of each over rounds).
#
# LIVEGATE_BENCH_PG_STATS=FOLDER writes each run's PostgreSQL statements by total time to
# FOLDER/NAME-ROUND.statements.txt, and its pg_stat_wal to FOLDER/NAME-ROUND.wal.txt.
# LIVEGATE_BENCH_EXPLAIN=1 prints, at the end, EXPLAIN (ANALYZE, BUFFERS) of the audience's page statement
# (as AudienceFanoutStatements builds and plans it) for the first page, one halfway through and one in the
# last fifth, with the gateway's page size (LIVEGATE_DELIVERY_PAGE_SIZE, default 1000).
# LIVEGATE_BENCH_PERF=FOLDER records each fan-out's gateway with `perf record -g` into
# FOLDER/NAME-ROUND.perf.data (for `perf report`); its figures then carry perf's own cost.
# LIVEGATE_BENCH_METRICS=PATH saves the gateway's /metrics after each fan-out to PATH-NAME-ROUND.
#
# Builds livegate in release mode (LIVEGATE_BENCH_SCRATCH: another --scratch-path), starts its own
# PostgreSQL (default durability: fsync on), simulator and gateways, and stops them all at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

users=1000000 rounds=1 starts=10 latency=0
while [ $# -gt 0 ]; do
    case "$1" in
        --users) users=$2 ;;
        --rounds) rounds=$2 ;;
        --starts) starts=$2 ;;
        --latency-ms) latency=$2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
small=10000
for value in "$users" "$rounds" "$starts" "$latency"; do
    [[ "$value" =~ ^[0-9]+$ ]] || { echo "bench/audience: options take whole numbers, got '$value'" >&2; exit 2; }
done
[ "$users" -ge "$small" ] || { echo "bench/audience: --users must be at least $small (the memory baseline's devices)" >&2; exit 2; }
[ "$rounds" -ge 1 ] && [ "$starts" -ge 1 ] || { echo "bench/audience: --rounds and --starts take at least 1" >&2; exit 2; }

fail() {
    echo "bench/audience: FAILED: $*" >&2
    if [ -n "${gateway_log:-}" ] && [ -f "$gateway_log" ]; then
        echo "--- last lines of the gateway's log:" >&2
        tail -n 20 "$gateway_log" >&2
    fi
    exit 1
}

bench_start
bench_simulator
sim_pid=${bench_pids[-1]}
simulator="https://127.0.0.1:$sim_port"
sim() { curl -fsS --http2 --cacert "$work/sim-cert.pem" "$@"; }
if [ "$latency" -gt 0 ]; then
    sim -X PUT -d "{\"latency_ms\":$latency}" "$simulator/_sim/settings" >/dev/null || fail "could not set the simulator's latency"
fi

workspace=$(bench_workspace)
app_id=$(bench_app "$workspace" "Bench audience" --team-id TEAM123456 --key-id KEY1234567 \
    --key-file "$work/key.p8" --apns-endpoint "$simulator")
api_key=$("$bin" key create --workspace "$workspace" --name bench \
    --permissions messages.live_activity.start,messages.live_activity.update | tail -n 1)
app_uuid=$(sql "SELECT id FROM apps WHERE app_identifier = '$app_id'")

attributes_type=MatchAttributes
audience='{"AND":[{"custom_attribute":{"custom_attribute_name":"team","comparison":"equals","value":"lions"}},{"custom_attribute":{"custom_attribute_name":"tickets","comparison":"greater_than","value":0}}]}'
audience_text='team equals "lions" AND tickets greater than 0'

seconds_since() { awk -v s="$1" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }'; }
load() { # what SQL
    local started=$EPOCHREALTIME
    sql "$2" >/dev/null
    echo "  $1: $(seconds_since "$started") s" >&2
}
echo "loading $users users in bulk..." >&2
loaded=$EPOCHREALTIME
load "users" "INSERT INTO users (workspace_id, external_id)
     SELECT '$workspace', 'fan-' || i FROM generate_series(0, $users - 1) i"
# i: the user's number, from its external_id; two attribute rows per user, in primary key order.
load "user_attributes (team, tickets)" "INSERT INTO user_attributes (user_id, name, kind, string_value, number_value)
     SELECT u.id, v.name, v.kind, v.string_value, v.number_value
     FROM (SELECT id, substr(external_id, 5)::int AS i FROM users WHERE workspace_id = '$workspace') u
     CROSS JOIN LATERAL (VALUES
         ('team', 'string', (ARRAY['lions', 'lions', 'tigers', 'bears', 'wolves'])[u.i % 5 + 1], NULL::float8),
         ('tickets', 'number', NULL, (1 + u.i % 7)::float8)) AS v(name, kind, string_value, number_value)
     ORDER BY u.id, v.name"
# One push-to-start token per user (device-I), in user order; 32 bytes of lower-case hex, all distinct.
load "push_to_start_tokens ($attributes_type)" "INSERT INTO push_to_start_tokens (app_id, attributes_type, device_id, user_id, push_token)
     SELECT '$app_uuid', '$attributes_type', 'device-' || substr(external_id, 5), id,
            lpad(to_hex(substr(external_id, 5)::bigint + 1), 64, '0')
     FROM users WHERE workspace_id = '$workspace' ORDER BY id"
# The baseline's devices: the same phones' update tokens, of the matching users (counted here from the
# attributes, independently of the gateway's SQL), and the first 10,000 users' for the memory baseline.
load "activity_tokens (bench-update)" "INSERT INTO activity_tokens (app_id, activity_id, device_id, user_id, push_token)
     SELECT '$app_uuid', 'bench-update', 'device-' || substr(u.external_id, 5), u.id,
            'f' || lpad(to_hex(substr(u.external_id, 5)::bigint + 1), 63, '0')
     FROM users u
     JOIN user_attributes team ON team.user_id = u.id AND team.name = 'team' AND team.string_value = 'lions'
     JOIN user_attributes tickets ON tickets.user_id = u.id AND tickets.name = 'tickets' AND tickets.number_value > 0
     WHERE u.workspace_id = '$workspace' ORDER BY u.id"
load "activity_tokens (bench-small)" "INSERT INTO activity_tokens (app_id, activity_id, device_id, user_id, push_token)
     SELECT '$app_uuid', 'bench-small', 'device-' || i, u.id, 'e' || lpad(to_hex(i + 1), 63, '0')
     FROM generate_series(0, $small - 1) i JOIN users u ON u.workspace_id = '$workspace' AND u.external_id = 'fan-' || i
     ORDER BY i"
load "VACUUM ANALYZE" "VACUUM ANALYZE users, user_attributes, push_to_start_tokens, activity_tokens"
echo "loaded in $(seconds_since "$loaded") s" >&2

matching=$(sql "SELECT count(*) FROM activity_tokens WHERE app_id = '$app_uuid' AND activity_id = 'bench-update'")
[ "$matching" = "$(( (users / 5) * 2 + (users % 5 < 2 ? users % 5 : 2) ))" ] \
    || fail "$matching users match the audience, expected 40% of $users"
[ "$(sql "SELECT count(*) FROM push_to_start_tokens WHERE app_id = '$app_uuid'")" = "$users" ] || fail "not one push-to-start token per user"

gateway_port=$(free_port)
# The whole machine's busy CPU so far (every process, ours or not: the machine may be shared).
machine_cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { print int(($2 + $3 + $4 + $7 + $8 + $9) * 1000 / hz) }' /proc/stat; }
status_kib() { awk -v field="$1:" '$1 == field { print $2 }' "/proc/$gateway_pid/status"; }

# gateway_start NAME on|off: a fresh gateway with the default settings (delivery on or off).
gateway_start() {
    gateway_log="$work/gateway-$1.log"
    LIVEGATE_DELIVERY=$2 LIVEGATE_LOG_LEVEL=warning LIVEGATE_APNS_CA_FILE="$work/sim-cert.pem" \
        bench_serve "$gateway_port" "$gateway_log" || fail "the gateway did not start"
}

# post ENDPOINT BODY: posts it; sets post_ms (curl's time, request to last byte), post_t0 (when the 201
# arrived, on the clock PostgreSQL's timestamps use) and dispatch_id. Fails unless it answers 201.
post() {
    local started out
    started=$EPOCHREALTIME
    out=$(curl -sS -o "$work/answer.json" -w '%{http_code} %{time_total}' \
        -H "Authorization: Bearer $api_key" -H 'Content-Type: application/json' \
        "http://127.0.0.1:$gateway_port/messages/live_activity/$1" -d "$2")
    [ "${out% *}" = 201 ] || fail "$1 answered ${out% *}: $(head -c 400 "$work/answer.json")"
    post_ms=$(awk -v t="${out#* }" 'BEGIN { printf "%.1f", t * 1000 }')
    # curl's clock starts a little after `started`, so post_t0 is if anything early.
    post_t0=$(awk -v s="$started" -v t="${out#* }" 'BEGIN { printf "%.6f", s + t }')
    dispatch_id=$(sed -n 's/.*"dispatch_id":"\([^"]*\)".*/\1/p' "$work/answer.json")
    [ -n "$dispatch_id" ] || fail "no dispatch_id in $(head -c 400 "$work/answer.json")"
    [ "$(sed -n 's/.*"errors":\[\([^]]*\)\].*/\1/p' "$work/answer.json")" = "" ] \
        || fail "$1 answered with errors: $(head -c 400 "$work/answer.json")"
}

start_body() { # activity_id
    echo '{"app_id":"'"$app_id"'","activity_id":"'"$1"'","activity_attributes_type":"'"$attributes_type"'",'\
'"activity_attributes":{"homeTeam":"Lions","awayTeam":"Tigers"},"content_state":{"home":0,"away":0,"minute":0},'\
'"notification":{"alert":{"title":"Kick-off","body":"Lions v Tigers is live."}},"custom_audience":'"$audience"'}'
}
update_body() { # activity_id minute
    local start_keys=',"attributes-type":"MatchAttributes","attributes":{"homeTeam":"Lions","awayTeam":"Tigers"},"input-push-token":1'
    [ "${LIVEGATE_BENCH_UPDATE_PAYLOAD:-}" != own ] || start_keys=
    echo '{"app_id":"'"$app_id"'","activity_id":"'"$1"'","content_state":{"home":1,"away":0,"minute":'"$2$start_keys"'},'\
'"notification":{"alert":{"title":"Kick-off","body":"Lions v Tigers is live."}}}'
}

# Deletes the run's dispatches (their targets with them) and vacuums what the run wrote, the gateway
# stopped, so the next run starts on the same tables.
clean_tables() { # dispatch ids...
    local ids
    ids=$(printf "'%s'," "$@")
    sql "DELETE FROM dispatches WHERE id IN (${ids%,})" >/dev/null
    sql "VACUUM ANALYZE dispatches, dispatch_targets, activity_tokens" >/dev/null
}

# start_times: delivery off, one request to warm the gateway, then $starts starts to the audience.
# Sets cold_ms and start_ms_all.
start_times() {
    echo "starts: $((starts + 1)) starts to the audience, delivery off..." >&2
    gateway_start starts off
    local ids=() k
    post start "$(start_body bench-latency-0)"
    cold_ms=$post_ms
    ids+=("$dispatch_id")
    start_ms_all=()
    for k in $(seq 1 "$starts"); do
        post start "$(start_body "bench-latency-$k")"
        start_ms_all+=("$post_ms")
        ids+=("$dispatch_id")
    done
    [ "$(sql "SELECT count(*) FROM dispatches WHERE event = 'start' AND audience IS NOT NULL AND status = 'pending'")" = $((starts + 1)) ] \
        || fail "the starts were not all committed as pending starts to an audience"
    [ "$(sql "SELECT count(*) FROM dispatch_targets")" = 0 ] || fail "a start to an audience resolved targets in the request"
    bench_stop "$gateway_pid"
    clean_tables "${ids[@]}"
}

# fanout NAME ROUND ENDPOINT BODY DEVICES: one fan-out on a fresh gateway, waited for and checked; sets
# answered_ms, elapsed_ms, pps, gateway_cpu, pg_cpu, sim_cpu, other_cpu (ms: the rest of the machine's busy
# time meanwhile, this script's psql and any other user's work), wal_mib (PostgreSQL's WAL written), peak_kib
# and idle_kib. Runs outside a subshell, so that cleanup sees the gateway it starts.
fanout() {
    local name=$1 round=$2 endpoint=$3 body=$4 devices=$5
    local wait_limit=$((120 + devices / 250)) row status sent failed
    echo "$name (round $round): $endpoint to $devices devices..." >&2
    sim -X DELETE "$simulator/_sim/pushes" >/dev/null
    bench_statements -
    gateway_start "$name-$round" on
    idle_kib=$(status_kib VmRSS)
    gateway_cpu=$(cpu_ms "$gateway_pid")
    pg_cpu=$(pg_cpu_ms)
    sim_cpu=$(cpu_ms "$sim_pid")
    other_cpu=$(machine_cpu_ms)
    wal_lsn=$(sql "SELECT pg_current_wal_lsn()")
    [ -z "${LIVEGATE_BENCH_PG_STATS:-}" ] || sql "SELECT pg_stat_reset_shared('wal')" >/dev/null
    local perf_pid=
    if [ -n "${LIVEGATE_BENCH_PERF:-}" ]; then
        mkdir -p "$LIVEGATE_BENCH_PERF"
        perf_record_gateway "$gateway_pid" "$LIVEGATE_BENCH_PERF/$name-$round.perf.data"
    fi
    post "$endpoint" "$body"
    answered_ms=$post_ms
    row=$(psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qtA -F ' ' <<SQL
$(until_dispatches_end_sql "'$dispatch_id'" "$wait_limit")
SELECT status, sent_count, failed_count, round(((extract(epoch FROM completed_at) - $post_t0) * 1000)::numeric, 1)
FROM dispatches WHERE id = '$dispatch_id';
SQL
)
    read -r status sent failed elapsed_ms <<<"$row"
    [ "$status" = done ] || fail "$name: dispatch $dispatch_id is '$status' after ${wait_limit} s (sent $sent, failed $failed)"
    [ "$sent" = "$devices" ] && [ "$failed" = 0 ] || fail "$name: dispatch $dispatch_id sent $sent, failed $failed (expected $devices and 0)"
    if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
    peak_kib=$(status_kib VmHWM)
    gateway_cpu=$(( $(cpu_ms "$gateway_pid") - gateway_cpu ))
    pg_cpu=$(( $(pg_cpu_ms) - pg_cpu ))
    sim_cpu=$(( $(cpu_ms "$sim_pid") - sim_cpu ))
    other_cpu=$(( $(machine_cpu_ms) - other_cpu - gateway_cpu - pg_cpu - sim_cpu ))
    [ "$other_cpu" -ge 0 ] || other_cpu=0 # clock ticks counted apart do not add up exactly
    wal_mib=$(sql "SELECT round(pg_wal_lsn_diff(pg_current_wal_lsn(), '$wal_lsn') / 1048576.0)")
    [ -z "${LIVEGATE_BENCH_PG_STATS:-}" ] || psql "$DATABASE_URL" -qxc "SELECT * FROM pg_stat_wal" >"$LIVEGATE_BENCH_PG_STATS/$name-$round.wal.txt"
    pps=$(awk -v n="$devices" -v e="$elapsed_ms" 'BEGIN { printf "%d", n * 1000 / e }')
    bench_statements "$name-$round"
    if [ -n "${LIVEGATE_BENCH_METRICS:-}" ]; then
        curl -fsS "http://127.0.0.1:$gateway_port/metrics" >"$LIVEGATE_BENCH_METRICS-$name-$round" || true
    fi
    bench_stop "$gateway_pid"
    if [ "$endpoint" = start ]; then
        # Every matching user's device once, answered 200, and nobody else's.
        row=$(sql "SELECT count(*), count(*) FILTER (WHERE t.apns_status = 200),
                          count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM activity_tokens k
                              WHERE k.app_id = '$app_uuid' AND k.activity_id = 'bench-update' AND k.device_id = t.device_id))
                   FROM dispatch_targets t WHERE t.dispatch_id = '$dispatch_id'" | tr '|' ' ')
        [ "$row" = "$devices $devices 0" ] \
            || fail "$name: targets (all, answered 200, outside the audience) are $row, expected $devices $devices 0"
    fi
    clean_tables "$dispatch_id"
}

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

rows=()
declare -A elapsed_all=() peak_all=() answered_all=()
# run NAME ROUND ENDPOINT BODY DEVICES LABEL: a fan-out, its figures kept and its table row added.
run() {
    fanout "$1" "$2" "$3" "$4" "$5"
    echo "  $(awk -v e="$elapsed_ms" 'BEGIN { printf "%.2f", e / 1000 }') s, $pps pushes/s, answered in $answered_ms ms," \
        "CPU: gateway $gateway_cpu ms, PostgreSQL $pg_cpu ms, simulator $sim_cpu ms, rest of the machine $other_cpu ms; WAL $wal_mib MiB; peak RSS $((peak_kib / 1024)) MiB" >&2
    elapsed_all[$1]+="$elapsed_ms "
    peak_all[$1]+="$peak_kib "
    answered_all[$1]+="$answered_ms "
    rows+=("$(awk -v l="$6" -v r="$2" -v n="$5" -v a="$answered_ms" -v e="$elapsed_ms" -v p="$pps" -v g="$gateway_cpu" \
        -v q="$pg_cpu" -v s="$sim_cpu" -v o="$other_cpu" -v w="$wal_mib" -v h="$peak_kib" -v i="$idle_kib" \
        'BEGIN { printf "| %s | %d | %d | %.1f | %.2f | %d | %.1f | %.1f | %.1f | %.1f | %d | %.0f | %.0f |", l, r, n, a, e / 1000, p, g / 1000, q / 1000, s / 1000, o / 1000, w, i / 1024, h / 1024 }')")
}
small_run() { run small "$1" update "$(update_body bench-small "$1")" "$small" "update, 10,000 devices (memory baseline)"; }
update_run() { run update "$1" update "$(update_body bench-update "$1")" "$matching" "update to as many devices (time baseline)"; }
audience_run() { run audience "$1" start "$(start_body "bench-start-$1")" "$matching" "start to the audience"; }

start_times
for round in $(seq 1 "$rounds"); do
    small_run "$round"
    if [ $((round % 2)) = 1 ]; then audience_run "$round"; update_run "$round"; else update_run "$round"; audience_run "$round"; fi
done

if [ "${LIVEGATE_BENCH_EXPLAIN:-}" = 1 ]; then
    # The page statement as AudienceFanoutStatements and AudienceSQL build it, with the values bound, and
    # planned as the gateway plans it (AudienceFanoutStatements.probePlans: nested loops, serially), for
    # the first page, one halfway and one in the last fifth of the ids (where the planner, left to itself,
    # hashes the whole audience).
    page_size=${LIVEGATE_DELIVERY_PAGE_SIZE:-1000}
    read -r halfway near_end <<<"$(sql "SELECT min(id) + (max(id) - min(id)) / 2, min(id) + (max(id) - min(id)) * 9 / 10
        FROM push_to_start_tokens WHERE app_id = '$app_uuid'" | tr '|' ' ')"
    for cursor in 0 "$halfway" "$near_end"; do
        echo "--- EXPLAIN (ANALYZE, BUFFERS) of the audience's page after id $cursor, $page_size rows:" >&2
        psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qAt -c "SET max_parallel_workers_per_gather = 0" -c "SET enable_hashjoin = off" \
            -c "SET enable_mergejoin = off" -c "EXPLAIN (ANALYZE, BUFFERS)
            SELECT t.id, t.push_token, u.external_id FROM push_to_start_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.app_id = '$app_uuid' AND t.attributes_type = '$attributes_type' AND t.id > $cursor
              AND (EXISTS (SELECT 1 FROM user_attributes a WHERE a.user_id = t.user_id AND a.name = 'team'
                           AND a.kind = 'string' AND a.string_value = 'lions')
                   AND EXISTS (SELECT 1 FROM user_attributes a WHERE a.user_id = t.user_id AND a.name = 'tickets'
                           AND a.kind = 'number' AND a.number_value > 0::float8))
            ORDER BY t.id LIMIT $page_size" >&2
    done
fi

start_p50=$(echo "${start_ms_all[*]}" | median)
start_max=$(echo "$cold_ms ${start_ms_all[*]} ${answered_all[audience]}" | tr ' ' '\n' | grep . | sort -n | tail -n 1)
audience_s=$(awk -v m="$(echo "${elapsed_all[audience]}" | median)" 'BEGIN { printf "%.2f", m / 1000 }')
update_s=$(awk -v m="$(echo "${elapsed_all[update]}" | median)" 'BEGIN { printf "%.2f", m / 1000 }')
audience_hwm=$(echo "${peak_all[audience]}" | best)
small_hwm=$(echo "${peak_all[small]}" | best)
verdict() { awk -v c="$1" 'BEGIN { print (c ? "met" : "MISSED") }'; }

echo
echo "audience: $users users, $matching matching ($audience_text), one $attributes_type push-to-start token each;" \
    "simulator latency $latency ms$([ "$latency" = 0 ] && echo " (apns-sim's default)"); gateway with default settings," \
    "started afresh for every run; fsync on; $rounds round(s); the updates' payload" \
    "$([ "${LIVEGATE_BENCH_UPDATE_PAYLOAD:-}" = own ] && echo "their own (158 bytes)" || echo "as large as the start's (269 bytes against 268)")"
echo "| run | round | devices | answered ms | fan-out s (201 → completed_at) | pushes/s | CPU s: gateway | PostgreSQL | simulator | rest of the machine | PostgreSQL WAL MiB | gateway RSS idle MiB | gateway peak RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo "start answer times, delivery off: the fresh gateway's first request $cold_ms ms; $starts more: p50 $start_p50 ms, max $(echo "${start_ms_all[*]}" | best) ms"
echo "goals:"
echo "- a start to the audience answers in < 100 ms: slowest $start_max ms of $((starts + 1 + rounds)) timed starts: $(verdict "$(awk -v m="$start_max" 'BEGIN { print m < 100 }')")"
echo "- the audience's fan-out takes ≤ 1.2× an update's to as many devices ($matching): $audience_s s against $update_s s," \
    "$(awk -v a="$audience_s" -v u="$update_s" 'BEGIN { printf "%.2f", a / u }')× (median over rounds): $(verdict "$(awk -v a="$audience_s" -v u="$update_s" 'BEGIN { print a <= 1.2 * u }')")"
echo "- the audience run's peak RSS ≤ 1.5× the 10,000-device update's: $((audience_hwm / 1024)) MiB against $((small_hwm / 1024)) MiB," \
    "$(awk -v a="$audience_hwm" -v s="$small_hwm" 'BEGIN { printf "%.2f", a / s }')× (highest over rounds): $(verdict "$(awk -v a="$audience_hwm" -v s="$small_hwm" 'BEGIN { print a <= 1.5 * s }')")"
