#!/usr/bin/env bash
# bench/delivery: one `update` fanned out to 10,000 registered tokens by a running gateway, timed from
# the `201` to the last push acknowledged (the dispatch's `completed_at`), side by side with h2load
# posting the same payload 10,000 times to the same HTTP/2 receiver (nghttpd --echo-upload) in the same
# run: what this machine can carry. Prints a table row per receiver; figures go to docs/benchmarks.md.
#
#   bench/delivery/run.sh [rounds, default 3] [receivers, default "tls"; any of "tls h2c rtt"]
#
# tls: nghttpd with a self-signed P-256 certificate, the gateway on https:// (h2 by ALPN, connections
# reused and multiplexed, as with APNs). h2c: nghttpd --no-tls, the gateway on http://, where it opens
# one connection per push (libcurl 7.88 cannot reuse an h2c connection), so it only shows that cost.
# rtt: APNs at a network round trip: `livegate apns-sim --tls --latency-ms ${LIVEGATE_BENCH_RTT_MS:-50}`
# advertising ${LIVEGATE_BENCH_SIM_STREAMS:-1000} streams per connection (APNs: 500 to 1,000), checking
# provider tokens as APNs does. Its baseline is h2load with the gateway's connections and streams
# (LIVEGATE_APNS_CONNECTIONS, LIVEGATE_APNS_MAX_STREAMS, the server's limit if lower) and a real provider
# token (`livegate provider-token`); its peer row is aioapns (PyPI, bench/delivery/aioapns_peer.py) sending
# the same pushes to the same simulator. Its floor row is libcurl alone (bench/delivery/curl_floor.c, built
# here against the libcurl the gateway links): the same pushes with the gateway's headers, connections,
# streams, threads, reset filter, socket-check cache, cork and allocator, and nothing else, so the gap
# between it and the gateway is the gateway's own work.
# Its Go row is Go's net/http HTTP/2 transport (bench/delivery/go_sender, the transport of gorush and
# apns2, built with Debian's golang-go) with as many pushes in flight as the gateway. For each of the three
# it counts, per push and per round, the sender's CPU, PostgreSQL's (every process of the run's server:
# what the gateway's reads and records of a fan-out cost; near nothing for the other two) and the
# simulator's, and prints them in one table ("whole cost").
# As root, nghttpd gets a private tmpfs on /tmp (see start_receiver below).
#
# Builds livegate in release mode (LIVEGATE_BENCH_SCRATCH, if set, is passed as --scratch-path), starts
# its own PostgreSQL cluster (default durability: fsync and synchronous_commit on), nghttpd and gateway,
# and stops them all at the end. Each round runs the gateway's fan-out, then h2load in each shape; the
# best and the median over rounds are reported, to damp the noise of a shared machine. The gateway
# inherits the environment, so LIVEGATE_DELIVERY_* settings can be tried without editing this script.
# LIVEGATE_BENCH_TOKENS changes the fan-out size (default 10000); LIVEGATE_BENCH_PG_STATS=FOLDER writes
# PostgreSQL's statements over each receiver's rounds to FOLDER/delivery-RECEIVER.statements.txt;
# LIVEGATE_BENCH_PERF=FOLDER records the gateway through each fan-out, and libcurl alone, with `perf record -g`
# (their figures then carry perf's own cost); LIVEGATE_BENCH_PEER=0 leaves out the rtt
# receiver's aioapns row, LIVEGATE_BENCH_FLOOR=0 its libcurl-alone row, LIVEGATE_BENCH_GO=0 its Go row; LIVEGATE_BENCH_METRICS=PATH saves the gateway's /metrics after each receiver's rounds.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

rounds="${1:-3}"
receivers="${2:-tls}"
tokens="${LIVEGATE_BENCH_TOKENS:-10000}"
shapes=("-c 1 -m 100" "-c 4 -m 100" "-c 4 -m 250")
# Generous: a run that fails should say so, not hang; a million pushes at a few thousand a second fit.
wait_limit_seconds=$((120 + tokens / 250))
rtt_ms="${LIVEGATE_BENCH_RTT_MS:-50}"
sim_streams="${LIVEGATE_BENCH_SIM_STREAMS:-1000}"
# The gateway's APNs connections and streams per connection, which the rtt baseline copies: its own
# defaults (4 × 500) unless set, but 100 streams when nghttpd (tls, h2c) is in the run, as nghttpd
# advertises 100: more would only keep pushes waiting inside libcurl.
default_streams=500
[[ " $receivers " == *" tls "* || " $receivers " == *" h2c "* ]] && default_streams=100
export LIVEGATE_APNS_CONNECTIONS="${LIVEGATE_APNS_CONNECTIONS:-4}"
export LIVEGATE_APNS_MAX_STREAMS="${LIVEGATE_APNS_MAX_STREAMS:-$default_streams}"
# The gateway's own default (one libcurl thread per core, at most one per connection), set here so that
# the rtt receiver's libcurl-alone row runs with exactly the gateway's threads.
export LIVEGATE_APNS_THREADS="${LIVEGATE_APNS_THREADS:-$(( $(nproc) < LIVEGATE_APNS_CONNECTIONS ? $(nproc) : LIVEGATE_APNS_CONNECTIONS ))}"
rtt_streams=$((LIVEGATE_APNS_MAX_STREAMS < sim_streams ? LIVEGATE_APNS_MAX_STREAMS : sim_streams))

if ! command -v nghttpd >/dev/null || ! command -v h2load >/dev/null || ! command -v go >/dev/null; then
    scripts/install-deps.sh bench >&2 # nghttp2-server (nghttpd), nghttp2-client (h2load), golang-go
fi
if [[ " $receivers " == *" rtt "* ]] && ! python3 -c 'import aioapns' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'aioapns>=4,<5' >&2
fi

bench_start
receiver_pids=()

fail() {
    echo "bench/delivery: $*" >&2
    if [ -f "$work/gateway.log" ]; then echo "--- last lines of the gateway's log:" >&2; tail -n 20 "$work/gateway.log" >&2; fi
    exit 1
}


# The receiver's certificate (also the CA the gateway trusts) and the app's provider key. nghttpd
# checks no provider token: it answers 200 to every POST and echoes the body.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/key.p8" 2>/dev/null

workspace=$(bench_workspace)
api_key=$(bench_update_key "$workspace")

# nghttpd --echo-upload writes every request body to a temporary file under /tmp (a fixed path) and
# sends it back from there. Where /tmp is on disk (Debian 12's default), that file system, shared with
# everything else on the machine, becomes the receiver's bottleneck and its noise; so as root nghttpd
# gets a private tmpfs on /tmp, in a mount namespace of its own (its certificate is opened relative to
# its working folder, which the new mount does not hide). Elsewhere, or with LIVEGATE_BENCH_PRIVATE_TMP=0,
# it runs as it is.
private_tmp=no
if [ "${LIVEGATE_BENCH_PRIVATE_TMP:-1}" != 0 ] && [ "$(id -u)" -eq 0 ] \
    && unshare -m sh -c 'mount -t tmpfs tmpfs /tmp' 2>/dev/null; then
    private_tmp=yes
fi
start_receiver() { # options... (started in $work, runs in the background)
    if [ "$private_tmp" = yes ]; then
        (cd "$work" && exec unshare -m sh -c 'mount -t tmpfs -o size=256m tmpfs /tmp && exec nghttpd "$@"' nghttpd "$@") &
    else
        (cd "$work" && exec nghttpd "$@") &
    fi
}

declare -A receiver_port app_id
for receiver in $receivers; do
    port=$(free_port)
    case "$receiver" in
        tls)
            start_receiver --address=127.0.0.1 --echo-upload "$port" key.pem cert.pem >/dev/null 2>&1
            scheme=https ;;
        h2c)
            start_receiver --address=127.0.0.1 --echo-upload --no-tls "$port" >/dev/null 2>&1
            scheme=http ;;
        rtt)
            # The simulator checks provider tokens against the app's key, as APNs does.
            LIVEGATE_LOG_LEVEL=warning "$bin" apns-sim --port "$port" --tls --tls-certificate-out "$work/sim-cert.pem" \
                --latency-ms "$rtt_ms" --max-streams "$sim_streams" \
                --provider-key "KEY1234567:TEAM123456:$work/key.p8" >"$work/sim.log" 2>&1 &
            scheme=https ;;
        *) fail "unknown receiver '$receiver' (tls, h2c or rtt)" ;;
    esac
    receiver_pids+=($!)
    bench_pids+=($!)
    wait_for_port "$port" || fail "nothing listens on port $port"
    receiver_port[$receiver]=$port
    app_id[$receiver]=$(bench_app "$workspace" "Bench $receiver" --team-id TEAM123456 --key-id KEY1234567 \
        --key-file "$work/key.p8" --apns-endpoint "$scheme://127.0.0.1:$port")
    # The audience: $tokens devices registered under one tag, written straight into the table in one
    # statement (registering them through the API is bench/ingest's subject): a million rows in about
    # half a minute.
    registered_at=$EPOCHREALTIME
    sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
         SELECT (SELECT id FROM apps WHERE app_identifier = '${app_id[$receiver]}'), 'bench-game',
                'device-' || i, lpad(to_hex(i), 64, '0')
         FROM generate_series(1, $tokens) i" >/dev/null
    echo "$receiver: $tokens tokens registered in $(awk -v s="$registered_at" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }') s" >&2
done
sql "VACUUM ANALYZE activity_tokens" >/dev/null
# The gateway trusts both receivers' certificates (one bundle).
cat "$work/cert.pem" >"$work/ca.pem"
if [ -n "${receiver_port[rtt]:-}" ]; then
    for _ in $(seq 1 50); do [ -s "$work/sim-cert.pem" ] && break; sleep 0.1; done
    cat "$work/sim-cert.pem" >>"$work/ca.pem"
    provider_token=$("$bin" provider-token --team-id TEAM123456 --key-id KEY1234567 --key-file "$work/key.p8")
    if [ "${LIVEGATE_BENCH_FLOOR:-1}" != 0 ]; then
        build_curl_floor || fail "could not build bench/delivery/curl_floor.c"
    fi
    if [ "${LIVEGATE_BENCH_GO:-1}" != 0 ]; then
        go build -o "$work/go_sender" bench/delivery/go_sender/main.go >&2 || fail "could not build bench/delivery/go_sender"
    fi
fi

gateway_port=$(free_port)
LIVEGATE_DELIVERY=on LIVEGATE_LOG_LEVEL="${LIVEGATE_LOG_LEVEL:-warning}" LIVEGATE_APNS_CA_FILE="$work/ca.pem" \
    bench_serve "$gateway_port" "$work/gateway.log" || fail "the gateway did not start"
status_kib() { awk -v field="$1:" '$1 == field { print $2 }' "/proc/$gateway_pid/status"; }
rss_idle_kib=$(status_kib VmRSS)

minute=0
# One fan-out: posts an update and waits until its dispatch is done. Prints
# "pushes_per_second elapsed_ms retried gateway_cpu_ms receiver_cpu_ms dispatch_id postgres_cpu_ms".
# PostgreSQL's CPU includes the session that waits for the dispatch to end (a query every 10 ms).
run_gateway() { # receiver
    local receiver="$1" started code t0 id row status sent failed retried elapsed gw_cpu rx_cpu db_cpu
    local perf_pid=
    if [ -n "${LIVEGATE_BENCH_PERF:-}" ]; then
        mkdir -p "$LIVEGATE_BENCH_PERF"
        perf_record_gateway "$gateway_pid" "$LIVEGATE_BENCH_PERF/delivery-$receiver-$minute.perf.data"
    fi
    gw_cpu=$(cpu_ms "$gateway_pid")
    rx_cpu=$(cpu_ms "${receiver_pids[$2]}")
    db_cpu=$(pg_cpu_ms)
    started=$EPOCHREALTIME
    code=$(curl -sS -o "$work/update.json" -w '%{http_code} %{time_total}' \
        -H "Authorization: Bearer $api_key" -H 'Content-Type: application/json' \
        "http://127.0.0.1:$gateway_port/messages/live_activity/update" \
        -d '{"app_id":"'"${app_id[$receiver]}"'","activity_id":"bench-game","content_state":{"home":1,"away":0,"minute":'"$minute"'}}')
    # t0: when the 201 arrived (curl's clock starts a little after `started`, so t0 is if anything early).
    t0=$(awk -v s="$started" -v t="${code#* }" 'BEGIN { printf "%.6f", s + t }')
    [ "${code% *}" = 201 ] || fail "update answered ${code% *}: $(cat "$work/update.json")"
    id=$(sed -n 's/.*"dispatch_id":"\([^"]*\)".*/\1/p' "$work/update.json")
    [ -n "$id" ] || fail "no dispatch_id in $(cat "$work/update.json")"
    row=$(psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qtA -F ' ' <<SQL
$(until_dispatches_end_sql "'$id'" "$wait_limit_seconds")
SELECT status, sent_count, failed_count, retried_count,
       round(((extract(epoch FROM completed_at) - $t0) * 1000)::numeric, 1)
FROM dispatches WHERE id = '$id';
SQL
)
    read -r status sent failed retried elapsed <<<"$row"
    [ "$status" = done ] || fail "dispatch $id is '$status' after ${wait_limit_seconds}s (sent $sent, failed $failed)"
    [ "$sent" = "$tokens" ] && [ "$failed" = 0 ] || fail "dispatch $id: sent $sent, failed $failed (expected $tokens and 0)"
    gw_cpu=$(( $(cpu_ms "$gateway_pid") - gw_cpu ))
    rx_cpu=$(( $(cpu_ms "${receiver_pids[$2]}") - rx_cpu ))
    db_cpu=$(( $(pg_cpu_ms) - db_cpu ))
    if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" 2>/dev/null || true; fi
    awk -v n="$tokens" -v ms="$elapsed" -v r="$retried" -v g="$gw_cpu" -v x="$rx_cpu" -v id="$id" -v d="$db_cpu" \
        'BEGIN { printf "%d %.1f %d %d %d %s %d\n", n * 1000 / ms, ms, r, g, x, id, d }'
}

# h2load posting the dispatch's own APNs payload, with the gateway's headers, to the same receiver,
# once per token path. Prints "requests_per_second receiver_cpu_ms".
run_h2load() { # receiver receiver_index shape...
    local receiver="$1" index="$2" out rps done_count rx_cpu jwt="$fake_jwt"
    shift 2
    [ "$receiver" = rtt ] && jwt=$provider_token
    rx_cpu=$(cpu_ms "${receiver_pids[$index]}")
    # shellcheck disable=SC2086
    out=$(h2load -n "$tokens" -t 1 "$@" -i "$work/uris-$receiver" -d "$work/payload.json" \
        -H "authorization: bearer $jwt" -H 'apns-push-type: liveactivity' \
        -H 'apns-topic: com.example.bench.push-type.liveactivity' -H 'apns-priority: 10' \
        -H "apns-expiration: $expiration" -H "apns-id: $(cat /proc/sys/kernel/random/uuid)" \
        -H 'content-type: application/json' 2>&1) || fail "h2load failed: $out"
    rx_cpu=$(( $(cpu_ms "${receiver_pids[$index]}") - rx_cpu ))
    rps=$(awk '/^finished in/ { sub(/,/, "", $4); print int($4) }' <<<"$out")
    done_count=$(awk '/^requests:/ { print $8 }' <<<"$out")
    [ "$done_count" = "$tokens" ] || fail "h2load: $done_count of $tokens requests succeeded: $out"
    echo "$rps $rx_cpu"
}

# aioapns sending the dispatch's payload once per token to the rtt simulator. Prints "pushes_per_second".
run_peer() {
    local out
    out=$(python3 bench/delivery/aioapns_peer.py --port "${receiver_port[rtt]}" --ca "$work/sim-cert.pem" \
        --key-file "$work/key.p8" --key-id KEY1234567 --team-id TEAM123456 \
        --topic com.example.bench.push-type.liveactivity --payload "$work/payload.json" --tokens "$tokens" \
        --connections "$LIVEGATE_APNS_CONNECTIONS" --streams "$sim_streams" 2>&1) || fail "aioapns failed: $out"
    echo "${out%% *}"
}

# A sender other than the gateway posting the same pushes to the rtt simulator, with PostgreSQL's and the
# simulator's CPU over its run. Prints "pushes_per_second cpu_ms postgres_cpu_ms receiver_cpu_ms".
run_sender() { # name command...
    local name="$1" out db_cpu rx_cpu
    shift
    db_cpu=$(pg_cpu_ms)
    rx_cpu=$(cpu_ms "${receiver_pids[$rtt_index]}")
    out=$("$@" 2>&1) || fail "$name failed: $out"
    echo "$out $(( $(pg_cpu_ms) - db_cpu )) $(( $(cpu_ms "${receiver_pids[$rtt_index]}") - rx_cpu ))"
}

# libcurl alone (curl_floor.c) with the gateway's connections, streams and threads.
run_floor() {
    local perf=()
    if [ -n "${LIVEGATE_BENCH_PERF:-}" ]; then
        perf=(perf record -q -g -o "$LIVEGATE_BENCH_PERF/floor-$minute.perf.data" --)
    fi
    run_sender curl_floor "${perf[@]}" "$work/curl_floor" "$work/uris-rtt" "$work/payload.json" "$work/sim-cert.pem" "$provider_token" \
        "$expiration" "$LIVEGATE_APNS_CONNECTIONS" "$rtt_streams" "$LIVEGATE_APNS_THREADS"
}

# Go's net/http (go_sender) with as many pushes in flight as the gateway's connections × streams.
run_go() {
    run_sender go_sender "$work/go_sender" "$work/uris-rtt" "$work/payload.json" "$work/sim-cert.pem" "$provider_token" \
        "$expiration" $((LIVEGATE_APNS_CONNECTIONS * rtt_streams))
}

# cost_row ROUND SENDER PUSHES_PER_S SENDER_MS POSTGRES_MS RECEIVER_MS: a row of the whole-cost table, in µs
# per push.
cost_row() {
    awk -v round="$1" -v sender="$2" -v pps="$3" -v s="$4" -v d="$5" -v r="$6" -v n="$tokens" \
        'BEGIN { printf "| %s | %s | %d | %.1f | %.1f | %.1f | %.1f |\n", round, sender, pps, s * 1000 / n, d * 1000 / n, s * 1000 / n + d * 1000 / n, r * 1000 / n }'
}

# Forgets what the simulator recorded, so its memory stays flat over the rounds.
clear_simulator() {
    curl -fsS --cacert "$work/sim-cert.pem" -X DELETE "https://127.0.0.1:${receiver_port[rtt]}/_sim/pushes" >/dev/null
}

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)) }'; }

# The gateway's own defaults when unset (GatewaySettings): a page as large as the streams carry, from 1,000
# to 10,000; twice as many handed over, at most 100,000.
streams_carried=$((LIVEGATE_APNS_CONNECTIONS * LIVEGATE_APNS_MAX_STREAMS))
default_page=$((streams_carried < 1000 ? 1000 : streams_carried > 10000 ? 10000 : streams_carried))
default_in_flight=$((2 * streams_carried > 100000 ? 100000 : 2 * streams_carried))
echo "gateway: $tokens tokens per fan-out, $rounds rounds; settings: page size ${LIVEGATE_DELIVERY_PAGE_SIZE:-$default_page}," \
    "APNs connections × streams $LIVEGATE_APNS_CONNECTIONS × $LIVEGATE_APNS_MAX_STREAMS, max in flight ${LIVEGATE_DELIVERY_MAX_IN_FLIGHT:-$default_in_flight}; idle RSS $((rss_idle_kib / 1024)) MiB; nghttpd on a private tmpfs: $private_tmp" >&2
bench_statements -
summary=()
cost_rows=()
index=0
rtt_index=0
for receiver in $receivers; do
    [ "$receiver" = rtt ] && rtt_index=$index
    port=${receiver_port[$receiver]}
    [ "$receiver" = h2c ] && scheme=http || scheme=https
    gw_all=(); h2_all=(); peer_all=(); floor_all=(); floor_cpu_all=(); best_gw=0; best_h2=0; best_shape=""; best_elapsed=""; best_gw_cpu=""
    for round in $(seq 1 "$rounds"); do
        minute=$((minute + 1))
        out=$(run_gateway "$receiver" "$index") || exit 1
        read -r pps elapsed retried gw_cpu rx_cpu id db_cpu <<<"$out"
        echo "$receiver round $round: gateway $pps pushes/s ($elapsed ms, $retried retried; CPU: gateway $gw_cpu ms, PostgreSQL $db_cpu ms, receiver $rx_cpu ms)" >&2
        [ "$receiver" = rtt ] && cost_rows+=("$(cost_row "$round" gateway "$pps" "$gw_cpu" "$db_cpu" "$rx_cpu")")
        gw_all+=("$pps")
        if [ "$pps" -gt "$best_gw" ]; then best_gw=$pps; best_elapsed=$elapsed; best_gw_cpu=$gw_cpu; fi
        if [ ! -f "$work/payload.json" ]; then
            sql "SELECT payload FROM dispatches WHERE id = '$id'" | tr -d '\n' >"$work/payload.json"
            expiration=$(sql "SELECT extract(epoch FROM expires_at)::bigint FROM dispatches WHERE id = '$id'")
            # An ES256 provider token is about this long; the gateway sends one per connection (HPACK-indexed after).
            fake_jwt="eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEyMzQ1NjcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.$(head -c 64 /dev/urandom | base64 -w 0 | tr '+/' '-_' | tr -d '=')"
        fi
        if [ ! -f "$work/uris-$receiver" ]; then
            seq 1 "$tokens" | awk -v base="$scheme://127.0.0.1:$port" '{ printf "%s/3/device/%064x\n", base, $1 }' >"$work/uris-$receiver"
        fi
        receiver_shapes=("${shapes[@]}")
        # At a round trip the baseline has exactly the gateway's connections and streams.
        [ "$receiver" = rtt ] && receiver_shapes=("-c $LIVEGATE_APNS_CONNECTIONS -m $rtt_streams") && clear_simulator
        round_h2=0
        for shape in "${receiver_shapes[@]}"; do
            # shellcheck disable=SC2086
            out=$(run_h2load "$receiver" "$index" $shape) || exit 1
            read -r rps rx_cpu <<<"$out"
            echo "$receiver round $round: h2load $shape: $rps req/s (CPU: receiver $rx_cpu ms)" >&2
            [ "$rps" -gt "$round_h2" ] && round_h2=$rps
            if [ "$rps" -gt "$best_h2" ]; then best_h2=$rps; best_shape=$shape; fi
        done
        h2_all+=("$round_h2")
        if [ "$receiver" = rtt ] && [ "${LIVEGATE_BENCH_PEER:-1}" != 0 ]; then
            clear_simulator
            peer=$(run_peer) || exit 1
            echo "$receiver round $round: aioapns $peer pushes/s" >&2
            peer_all+=("$peer")
            clear_simulator
        fi
        if [ "$receiver" = rtt ] && [ "${LIVEGATE_BENCH_FLOOR:-1}" != 0 ]; then
            out=$(run_floor) || exit 1
            read -r floor floor_cpu floor_db_cpu floor_rx_cpu <<<"$out"
            echo "$receiver round $round: libcurl alone $floor pushes/s (CPU: $floor_cpu ms, PostgreSQL $floor_db_cpu ms, receiver $floor_rx_cpu ms)" >&2
            floor_all+=("$floor"); floor_cpu_all+=("$floor_cpu")
            cost_rows+=("$(cost_row "$round" "libcurl alone" "$floor" "$floor_cpu" "$floor_db_cpu" "$floor_rx_cpu")")
            clear_simulator
        fi
        if [ "$receiver" = rtt ] && [ "${LIVEGATE_BENCH_GO:-1}" != 0 ]; then
            out=$(run_go) || exit 1
            read -r go_pps go_cpu go_db_cpu go_rx_cpu <<<"$out"
            echo "$receiver round $round: Go net/http $go_pps pushes/s (CPU: $go_cpu ms, PostgreSQL $go_db_cpu ms, receiver $go_rx_cpu ms)" >&2
            cost_rows+=("$(cost_row "$round" "Go net/http" "$go_pps" "$go_cpu" "$go_db_cpu" "$go_rx_cpu")")
            clear_simulator
        fi
    done
    med_gw=$(echo "${gw_all[*]}" | median)
    med_h2=$(echo "${h2_all[*]}" | median)
    ratio=$(awk -v g="$best_gw" -v h="$best_h2" 'BEGIN { printf "%.2f", (h > 0 ? g / h : 0) }')
    med_ratio=$(awk -v g="$med_gw" -v h="$med_h2" 'BEGIN { printf "%.2f", (h > 0 ? g / h : 0) }')
    hwm_kib=$(status_kib VmHWM)
    if [ -n "${LIVEGATE_BENCH_METRICS:-}" ]; then
        curl -fsS "http://127.0.0.1:$gateway_port/metrics" >"$LIVEGATE_BENCH_METRICS-$receiver" || true
    fi
    bench_statements "delivery-$receiver"
    if [ "$receiver" = rtt ] && [ "${LIVEGATE_BENCH_PEER:-1}" != 0 ]; then
        best_peer=$(echo "${peer_all[*]}" | best)
        med_peer=$(echo "${peer_all[*]}" | median)
        peer_summary="| $receiver (${rtt_ms} ms) | aioapns $(python3 -c 'import importlib.metadata as m; print(m.version("aioapns"))') | $best_peer | $med_peer | $(awk -v g="$best_gw" -v p="$best_peer" 'BEGIN { printf "%.1f", g / p }')× | $(awk -v g="$med_gw" -v p="$med_peer" 'BEGIN { printf "%.1f", g / p }')× |"
    fi
    if [ "$receiver" = rtt ] && [ "${LIVEGATE_BENCH_FLOOR:-1}" != 0 ]; then
        best_floor=$(echo "${floor_all[*]}" | best)
        med_floor=$(echo "${floor_all[*]}" | median)
        med_floor_cpu=$(echo "${floor_cpu_all[*]}" | median)
        floor_summary="| $receiver (${rtt_ms} ms) | libcurl alone ($(curl-config --version 2>/dev/null || echo libcurl), $LIVEGATE_APNS_THREADS threads) | $best_floor | $med_floor | $(awk -v f="$med_floor" -v h="$med_h2" 'BEGIN { printf "%.2f", f / h }')× | $(awk -v g="$med_gw" -v f="$med_floor" 'BEGIN { printf "%.2f", g / f }')× | $med_floor_cpu ms |"
    fi
    summary+=("| $receiver | $best_gw | $med_gw | $best_h2 (\`$best_shape\`) | $med_h2 | ${ratio}× | ${med_ratio}× | $best_elapsed ms | $best_gw_cpu ms | $((hwm_kib / 1024)) MiB |")
    index=$((index + 1))
done

echo "| receiver | gateway pushes/s (best) | (median) | h2load req/s (best, shape) | (median) | ratio (best) | ratio (median) | fan-out time (best) | gateway CPU (best) | gateway peak RSS |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${summary[@]}"
echo
if [ -n "${peer_summary:-}" ]; then
    echo "| receiver | peer | peer pushes/s (best) | (median) | gateway ÷ peer (best) | (median) |"
    echo "|---|---|---:|---:|---:|---:|"
    echo "$peer_summary"
    echo
fi
if [ -n "${floor_summary:-}" ]; then
    echo "| receiver | floor | pushes/s (best) | (median) | floor ÷ h2load (median) | gateway ÷ floor (median) | floor CPU (median) |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    echo "$floor_summary"
    echo
fi
if [ "${#cost_rows[@]}" -gt 0 ]; then
    echo "Whole cost per push, rtt receiver (µs of CPU per push; PostgreSQL: every process of the run's server):"
    echo "| round | sender | pushes/s | sender | PostgreSQL | sender + PostgreSQL | simulator |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    printf '%s\n' "${cost_rows[@]}"
    # The medians over rounds, per sender, and each against libcurl alone's.
    printf '%s\n' "${cost_rows[@]}" | awk -F'|' '
        { sender = $3; gsub(/^ +| +$/, "", sender); n[sender]++; pps[sender, n[sender]] = $4; cpu[sender, n[sender]] = $7 }
        function median(array, name, count,    i, j, v, t) {
            for (i = 1; i <= count; i++) v[i] = array[name, i] + 0
            for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            return count % 2 ? v[(count + 1) / 2] : (v[count / 2] + v[count / 2 + 1]) / 2
        }
        END {
            base = "libcurl alone"
            if (!(base in n)) exit
            bp = median(pps, base, n[base]); bc = median(cpu, base, n[base])
            print ""
            print "| sender | pushes/s (median) | ÷ libcurl alone | sender + PostgreSQL µs/push (median) | ÷ libcurl alone |"
            print "|---|---:|---:|---:|---:|"
            split("gateway|libcurl alone|Go net/http", order, "|")
            for (k = 1; k <= 3; k++) {
                s = order[k]
                if (!(s in n)) continue
                p = median(pps, s, n[s]); c = median(cpu, s, n[s])
                printf "| %s | %d | %.2f× | %.1f | %.2f× |\n", s, p, p / bp, c, c / bc
            }
        }'
    echo
fi
if [ -n "${peer_summary:-}${floor_summary:-}" ]; then
    echo "rtt: simulator answers ${rtt_ms} ms after each request and advertises $sim_streams streams; gateway and h2load:" \
        "$LIVEGATE_APNS_CONNECTIONS connections × $rtt_streams streams; aioapns: $LIVEGATE_APNS_CONNECTIONS connections, as many streams as the server allows."
fi
echo "$tokens tokens per fan-out, $rounds rounds; gateway RSS idle before the first fan-out: $((rss_idle_kib / 1024)) MiB;" \
    "peak RSS is VmHWM after the receiver's rounds (cumulative over the run)."
