#!/usr/bin/env bash
# bench/gateways: one gateway versus two gateways on one PostgreSQL, in the same run.
#
#   bench/gateways/run.sh [seconds per ingest run, default 15] [total concurrency, default 64] [rounds, default 3]
#
# ingest    `POST /messages/live_activity/update` accepted (201) per second, with wrk (bench/ingest/update.lua)
#           at the total concurrency against one gateway, then split over two gateways (two wrk processes at
#           once, half the connections each, summed): once with both sending the same app's 100 activities
#           (a load balancer spreading one sender), once with an app each (no dispatch row in common, so no
#           supersession between them). Beside them pgbench's one-row INSERT at that concurrency
#           (bench/ingest/insert.sql). During each gateway run, the mean number of database sessions waiting
#           on a lock is sampled every 100 ms. Delivery is off in both gateways; the workspace's limit is far
#           above what a run sends. Any answer that is not a 201 fails the run.
# delivery  LIVEGATE_BENCH_FANOUTS updates (default 4), each to its own tag of LIVEGATE_BENCH_TOKENS devices
#           (default 10000), posted at once, delivered to `livegate apns-sim --tls` by one gateway, then by
#           two (posted alternately to each; the dispatches spread over both by claiming). Timed from the
#           first 201 to the last dispatch's completed_at. Every dispatch must end `done` with sent_count =
#           devices and failed_count = 0, and the simulator's recorded pushes must show every device receiving
#           that round's update exactly once (bench/gateways/pushes.py). Which gateway delivered a dispatch is
#           read from its leased_by_session (migration 010), which `finish` keeps: each gateway's worker
#           session number is the advisory lock its `livegate-delivery-session` connection holds.
# Each round alternates which side goes first; the best and the median over rounds are reported.
#
# On one machine both gateways, PostgreSQL, wrk and the simulator share the same cores: the two-gateway
# figures show what sharing one database costs (locks, group commit, claims), not what scaling out gains.
#
# Builds livegate in release mode (LIVEGATE_BENCH_SCRATCH: another --scratch-path), starts its own PostgreSQL
# (default durability), gateways and simulator, and stops them all at the end. LIVEGATE_BENCH_PHASES picks
# the phases (default "ingest delivery").
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh
source bench/lib/wrk.sh

duration="${1:-15}"
concurrency="${2:-64}"
rounds="${3:-3}"
phases="${LIVEGATE_BENCH_PHASES:-ingest delivery}"
fanouts="${LIVEGATE_BENCH_FANOUTS:-4}"
tokens="${LIVEGATE_BENCH_TOKENS:-10000}"
# Generous: a run that fails should say so, not hang.
wait_limit_seconds=$((120 + fanouts * tokens / 250))

bench_start
wrk_install

fail() {
    echo "bench/gateways: $*" >&2
    local log
    for log in "$work"/gateway-*.log; do
        [ -s "$log" ] || continue
        echo "--- last lines of $(basename "$log"):" >&2
        tail -n 10 "$log" >&2
    done
    exit 1
}

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
lowest() { tr ' ' '\n' | grep . | sort -n | head -n 1; }
# "pid cpu_ms" of every PostgreSQL server process (the postmaster's children).
postgres_cpu() {
    local postmaster pid
    postmaster=$(head -n 1 "$pg_data/postmaster.pid")
    for pid in $(pgrep -P "$postmaster"); do
        echo "$pid $(cpu_ms "$pid" 2>/dev/null || echo 0)"
    done
}
# CPU that PostgreSQL's processes spent since BEFORE (postgres_cpu's output then); processes that ended
# meanwhile are not counted, so this is a floor.
postgres_cpu_since() {
    awk 'NR == FNR { before[$1] = $2; next } { total += $2 - ($1 in before ? before[$1] : 0) } END { print total + 0 }' \
        <(echo "$1") <(postgres_cpu)
}

# lock_waits SECONDS: samples pg_stat_activity every 100 ms for SECONDS and prints the mean number of the
# database's sessions waiting on a lock (heavyweight: rows, transactions), a sign of gateways queueing
# behind each other's writes.
lock_waits() {
    psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qtA <<SQL
CREATE TEMP TABLE samples (waiting int);
DO \$\$
BEGIN
    FOR i IN 1..($1 * 10) LOOP
        PERFORM pg_stat_clear_snapshot();
        INSERT INTO samples SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock';
        PERFORM pg_sleep(0.1);
    END LOOP;
END \$\$;
SELECT round(avg(waiting), 2) FROM samples;
SQL
}

# ingest_load NAME PORT:CONNECTIONS:APP...: one wrk process per argument, all at once, each against the
# gateway on PORT with CONNECTIONS connections for app APP (an app_id). Fails the run on any answer that
# is not a 201. Prints "total_accepted_per_second lock_waits" and, per process, "accepted p50 p99".
ingest_load() {
    local name="$1" job port connections app i=0 pids=() waits
    shift
    for job in "$@"; do
        IFS=: read -r port connections app <<<"$job"
        BENCH_APP_ID=$app wrk_update "$port" "$connections" "$duration" "$work/wrk-$i.err" >"$work/wrk-$i.out" &
        pids+=($!)
        i=$((i + 1))
    done
    waits=$(lock_waits "$duration")
    wait "${pids[@]}"
    local total=0 rps p50 p99 bad lines=""
    for ((i = 0; i < ${#pids[@]}; i++)); do
        read -r rps p50 p99 bad <"$work/wrk-$i.out"
        [ "${bad:-1}" -eq 0 ] || fail "$name: $bad answers were not 201: $(head -n 3 "$work/wrk-$i.err")"
        total=$((total + rps))
        lines+=" $rps $p50 $p99"
    done
    echo "$total $waits$lines"
}

ingest() {
    echo "ingest: ${duration}s runs at $concurrency connections in total, $rounds rounds" >&2
    wrk_tenant --rate-limit 2000000000
    # A second app of the same workspace (same rate-limit row), for the run whose two gateways share no activity.
    local second_app
    second_app=$(bench_app "$(sql "SELECT workspace_id FROM apps WHERE app_identifier = '$BENCH_APP_ID'")" \
        "Bench app 2" --apns-endpoint sandbox)
    sql "CREATE TABLE bench_dispatches (id bigserial PRIMARY KEY, app_id uuid NOT NULL,
         activity_id text NOT NULL, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())" >/dev/null
    local port_a port_b pid_a pid_b
    port_a=$(free_port)
    LIVEGATE_DELIVERY=off LIVEGATE_LOG_LEVEL=warning LIVEGATE_DB_POOL_SIZE=16 \
        bench_serve "$port_a" "$work/gateway-ingest-a.log" || fail "gateway A did not start"
    pid_a=$gateway_pid
    port_b=$(free_port)
    LIVEGATE_DELIVERY=off LIVEGATE_LOG_LEVEL=warning LIVEGATE_DB_POOL_SIZE=16 \
        bench_serve "$port_b" "$work/gateway-ingest-b.log" || fail "gateway B did not start"
    pid_b=$gateway_pid
    local half_a=$(((concurrency + 1) / 2)) half_b=$((concurrency / 2))
    local sides="pgbench one same apart"
    declare -A all=() best_rate=() best_line=()
    local round side order tps out rate
    for round in $(seq 1 "$rounds"); do
        order=$sides
        [ $((round % 2)) -eq 0 ] && order=$(tr ' ' '\n' <<<"$sides" | tac | tr '\n' ' ')
        for side in $order; do
            case "$side" in
                pgbench)
                    tps=$(pgbench -n -M prepared -c "$concurrency" -j 2 -T "$duration" -f bench/ingest/insert.sql \
                        "$DATABASE_URL" 2>/dev/null | awk '/^tps/ { print int($3) }')
                    [ -n "$tps" ] || fail "pgbench gave no result"
                    out="$tps -" ;;
                one) out=$(ingest_load "one gateway" "$port_a:$concurrency:$BENCH_APP_ID") || exit 1 ;;
                same) out=$(ingest_load "two gateways, one app" "$port_a:$half_a:$BENCH_APP_ID" "$port_b:$half_b:$BENCH_APP_ID") || exit 1 ;;
                apart) out=$(ingest_load "two gateways, an app each" "$port_a:$half_a:$BENCH_APP_ID" "$port_b:$half_b:$second_app") || exit 1 ;;
            esac
            rate=${out%% *}
            all[$side]+=" $rate"
            if [ "$rate" -gt "${best_rate[$side]:-0}" ]; then best_rate[$side]=$rate; best_line[$side]=$out; fi
            echo "  round $round: $side: $out" >&2
        done
    done
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", (b > 0 ? a / b : 0) }'; }
    local pg=${best_rate[pgbench]} one=${best_rate[one]} waits a pa50 pa99 b pb50 pb99
    echo
    echo "Ingest: \`update\` calls accepted (201) per second, $concurrency connections in total, ${duration}s runs, $rounds rounds"
    echo
    echo "| load | accepted/s (best) | (median) | ÷ pgbench | ÷ one gateway | per gateway | p50 | p99 | sessions waiting on a lock (mean) | not 201 |"
    echo "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|"
    echo "| pgbench one-row INSERT, $concurrency clients | $pg | $(echo "${all[pgbench]}" | median) | 1.00× | | | | | | |"
    read -r _ waits a pa50 pa99 <<<"${best_line[one]}"
    echo "| one gateway, $concurrency connections | $one | $(echo "${all[one]}" | median) | $(ratio "$one" "$pg") | 1.00× | $a | $pa50 | $pa99 | $waits | 0 |"
    for side in same apart; do
        read -r rate waits a pa50 pa99 b pb50 pb99 <<<"${best_line[$side]}"
        [ "$side" = same ] && label="two gateways, one app (same 100 activities), $half_a + $half_b connections" \
            || label="two gateways, an app each (no activity shared), $half_a + $half_b connections"
        echo "| $label | $rate | $(echo "${all[$side]}" | median) | $(ratio "$rate" "$pg") | $(ratio "$rate" "$one") | A $a, B $b | $pa50 / $pb50 | $pa99 / $pb99 | $waits | 0 |"
    done
    echo
    echo "Best round of each; ratios between bests. dispatches committed during the ingest runs: $(sql "SELECT count(*) FROM dispatches")"
    bench_stop "$pid_b"
    bench_stop "$pid_a"
    # The delivery phase starts from an empty queue: these dispatches have no devices to reach.
    sql "TRUNCATE dispatches CASCADE" >/dev/null 2>&1
    sql "DROP TABLE bench_dispatches" >/dev/null
    sql "VACUUM ANALYZE" >/dev/null
}

# The worker session numbers held right now (one per delivering gateway), one a line.
session_numbers() {
    sql "SELECT l.objid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.classid = 1279738956 AND l.objsubid = 2 AND l.granted
           AND a.application_name = 'livegate-delivery-session' ORDER BY 1"
}

declare -A gateway_port gateway_pids session_gateway
# start_delivering NAME: starts a delivering gateway and learns its worker session number (the one that
# appears), so its dispatches can be told from the other's.
start_delivering() {
    local name="$1" before number
    before=$(session_numbers)
    gateway_port[$name]=$(free_port)
    LIVEGATE_DELIVERY=on LIVEGATE_LOG_LEVEL=warning LIVEGATE_APNS_CA_FILE="$work/sim-cert.pem" \
        bench_serve "${gateway_port[$name]}" "$work/gateway-$name.log" || fail "gateway $name did not start"
    gateway_pids[$name]=$gateway_pid
    for _ in $(seq 1 100); do
        number=$(comm -13 <(sort <<<"$before") <(session_numbers | sort) | head -n 1)
        [ -n "$number" ] && break
        sleep 0.1
    done
    [ -n "$number" ] || fail "gateway $name took no worker session within 10 s"
    session_gateway[$number]=$name
}

minute=0
# deliver_round GATEWAYS...: one round of fan-outs (content state `minute`: the caller counts rounds, as
# this runs in a subshell), posted alternately to the gateways named. Prints
# "pushes_per_second elapsed_ms per_gateway gateway_cpu_ms postgres_cpu_ms simulator_cpu_ms repeats".
deliver_round() {
    local names=("$@") t name started code took id ids=() t0 rows gw_cpu=0 pg_before sim_cpu post_pids=() name_of
    sql "DELETE FROM dispatches" >/dev/null
    curl -fsS --cacert "$work/sim-cert.pem" -X DELETE "https://127.0.0.1:$sim_port/_sim/pushes" >/dev/null
    for name in "${names[@]}"; do gw_cpu=$((gw_cpu - $(cpu_ms "${gateway_pids[$name]}"))); done
    sim_cpu=$(cpu_ms "$sim_pid")
    pg_before=$(postgres_cpu)
    for t in $(seq 1 "$fanouts"); do
        name=${names[$(((t - 1) % ${#names[@]}))]}
        (
            started=$EPOCHREALTIME
            code=$(curl -sS -o "$work/update-$t.json" -w '%{http_code} %{time_total}' \
                -H "Authorization: Bearer $delivery_key" -H 'Content-Type: application/json' \
                "http://127.0.0.1:${gateway_port[$name]}/messages/live_activity/update" \
                -d '{"app_id":"'"$delivery_app"'","activity_id":"bench-tag-'"$t"'","content_state":{"home":1,"away":0,"minute":'"$minute"'}}')
            echo "$started $code" >"$work/posted-$t"
        ) &
        post_pids+=($!)
    done
    wait "${post_pids[@]}"
    t0=""
    for t in $(seq 1 "$fanouts"); do
        read -r started code took <"$work/posted-$t"
        [ "$code" = 201 ] || fail "update $t answered $code: $(cat "$work/update-$t.json")"
        id=$(sed -n 's/.*"dispatch_id":"\([^"]*\)".*/\1/p' "$work/update-$t.json")
        [ -n "$id" ] || fail "no dispatch_id in $(cat "$work/update-$t.json")"
        ids+=("'$id'")
        # When the 201 arrived (curl's clock starts a little after `started`, so this is if anything early).
        t0=$(awk -v s="$started" -v t="$took" -v m="$t0" 'BEGIN { v = s + t; printf "%.6f", (m == "" || v < m ? v : m) }')
    done
    local id_list
    id_list=$(IFS=,; echo "${ids[*]}")
    rows=$(psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qtA -F ' ' <<SQL
$(until_dispatches_end_sql "$id_list" "$wait_limit_seconds")
SELECT id, status, sent_count, failed_count, retried_count, coalesce(leased_by_session, -1),
       round(((extract(epoch FROM completed_at) - $t0) * 1000)::numeric, 1)
FROM dispatches WHERE id IN ($id_list) ORDER BY completed_at;
SQL
)
    for name in "${names[@]}"; do gw_cpu=$((gw_cpu + $(cpu_ms "${gateway_pids[$name]}"))); done
    sim_cpu=$(($(cpu_ms "$sim_pid") - sim_cpu))
    local pg_cpu elapsed=0 retried_total=0 status sent failed retried session ms
    pg_cpu=$(postgres_cpu_since "$pg_before")
    declare -A delivered=()
    [ "$(wc -l <<<"$rows")" -eq "$fanouts" ] || fail "expected $fanouts dispatches, found: $rows"
    while read -r id status sent failed retried session ms; do
        [ "$status" = done ] || fail "dispatch $id is '$status' after ${wait_limit_seconds}s (sent $sent, failed $failed)"
        [ "$sent" = "$tokens" ] && [ "$failed" = 0 ] || fail "dispatch $id: sent $sent, failed $failed (expected $tokens and 0)"
        name_of=${session_gateway[$session]:-}
        [ -n "$name_of" ] || fail "dispatch $id was delivered under worker session $session, which is no gateway of this round"
        delivered[$name_of]=$((${delivered[$name_of]:-0} + 1))
        retried_total=$((retried_total + retried))
        elapsed=$ms
    done <<<"$rows"
    local split="" checked pushes distinct repeats
    for name in "${names[@]}"; do split+="${split:+/}${delivered[$name]:-0}"; done
    curl -fsS --cacert "$work/sim-cert.pem" -o "$work/pushes.json" "https://127.0.0.1:$sim_port/_sim/pushes" \
        || fail "could not read the simulator's pushes"
    checked=$(python3 bench/gateways/pushes.py "$work/pushes.json" "$fanouts" "$tokens" "$minute") \
        || fail "the simulator's pushes do not add up"
    read -r pushes distinct repeats <<<"$checked"
    rm -f "$work/pushes.json"
    [ "$repeats" -le "$retried_total" ] \
        || fail "$repeats pushes were repeated (same apns-id) but the dispatches retried only $retried_total"
    awk -v n="$((fanouts * tokens))" -v ms="$elapsed" -v per_gateway="$split" -v g="$gw_cpu" -v p="$pg_cpu" -v s="$sim_cpu" -v r="$repeats" \
        'BEGIN { printf "%d %.1f %s %d %d %d %d\n", n * 1000 / ms, ms, per_gateway, g, p, s, r }'
}

delivery() {
    echo "delivery: $fanouts fan-outs × $tokens devices, $rounds rounds" >&2
    bench_simulator
    sim_pid=${bench_pids[-1]}
    local workspace
    workspace=$(bench_workspace)
    delivery_app=$(bench_app "$workspace" "Bench gateways" --team-id TEAM123456 --key-id KEY1234567 \
        --key-file "$work/key.p8" --apns-endpoint "https://127.0.0.1:$sim_port")
    delivery_key=$(bench_update_key "$workspace")
    # The audience: $fanouts tags of $tokens devices each, every device its own token (tag t, device i:
    # t * 10^7 + i in hex), written straight into the table in one statement.
    sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
         SELECT (SELECT id FROM apps WHERE app_identifier = '$delivery_app'), 'bench-tag-' || t,
                'device-' || t || '-' || i, lpad(to_hex(t * 10000000 + i), 64, '0')
         FROM generate_series(1, $fanouts) t, generate_series(1, $tokens) i" >/dev/null
    sql "VACUUM ANALYZE activity_tokens" >/dev/null
    start_delivering A
    local one_all=() two_all=() one_ms=() two_ms=() one_split=() two_split=() one_best="" two_best="" best_one=0 best_two=0
    local round side out pps ms split gw pg sim repeats
    for round in $(seq 1 "$rounds"); do
        for side in $( [ $((round % 2)) -eq 1 ] && echo "one two" || echo "two one" ); do
            minute=$((minute + 1))
            if [ "$side" = one ]; then
                out=$(deliver_round A) || exit 1
            else
                start_delivering B
                out=$(deliver_round A B) || exit 1
                bench_stop "${gateway_pids[B]}"
            fi
            read -r pps ms split gw pg sim repeats <<<"$out"
            echo "  round $round: $side gateway(s): $pps pushes/s, $ms ms, dispatches per gateway $split, CPU ms: gateways $gw, PostgreSQL $pg, simulator $sim; repeated pushes $repeats" >&2
            if [ "$side" = one ]; then
                one_all+=("$pps"); one_ms+=("$ms"); one_split+=("$split")
                if [ "$pps" -gt "$best_one" ]; then best_one=$pps; one_best="$ms $gw $pg $sim"; fi
            else
                two_all+=("$pps"); two_ms+=("$ms"); two_split+=("$split")
                if [ "$pps" -gt "$best_two" ]; then best_two=$pps; two_best="$ms $gw $pg $sim"; fi
            fi
        done
    done
    local ms_one gw_one pg_one sim_one ms_two gw_two pg_two sim_two
    read -r ms_one gw_one pg_one sim_one <<<"$one_best"
    read -r ms_two gw_two pg_two sim_two <<<"$two_best"
    echo
    echo "Delivery: $fanouts updates posted at once, each to its own tag of $tokens devices, $rounds rounds;" \
        "time from the first 201 to the last dispatch's completed_at"
    echo
    echo "| gateways | time (best) | (median) | pushes/s (best) | (median) | dispatches delivered, per round | CPU in the best round: gateways / PostgreSQL / simulator | every device once |"
    echo "|---|---:|---:|---:|---:|---|---|---|"
    echo "| one (A) | $(echo "${one_ms[*]}" | lowest) ms | $(echo "${one_ms[*]}" | median) ms | $best_one | $(echo "${one_all[*]}" | median) | A: $(IFS=,; echo "${one_split[*]}") | $gw_one / $pg_one / $sim_one ms | yes |"
    echo "| two (A, B) | $(echo "${two_ms[*]}" | lowest) ms | $(echo "${two_ms[*]}" | median) ms | $best_two | $(echo "${two_all[*]}" | median) | A/B: $(echo "${two_split[*]}" | sed 's/ /, /g') | $gw_two / $pg_two / $sim_two ms | yes |"
    echo
    echo "two ÷ one, pushes/s: $(awk -v a="$best_two" -v b="$best_one" 'BEGIN { printf "%.2f×", a / b }') (best)," \
        "$(awk -v a="$(echo "${two_all[*]}" | median)" -v b="$(echo "${one_all[*]}" | median)" 'BEGIN { printf "%.2f×", a / b }') (median)." \
        "Every round: each dispatch done with sent_count = $tokens and failed_count = 0, and the simulator received" \
        "each of the $((fanouts * tokens)) tokens that round's update once."
}

for phase in $phases; do
    case "$phase" in
        ingest) ingest ;;
        delivery) delivery ;;
        *) fail "unknown phase '$phase' (ingest or delivery)" ;;
    esac
done
echo
echo "$(nproc) cores shared by the gateways, PostgreSQL, wrk and the simulator; $(uname -m), PostgreSQL $(psql "$DATABASE_URL" -tAc 'SHOW server_version' | cut -d' ' -f1)."
