# Build, work folder, database, tenant and gateway set-up shared by the benchmarks. Source after
# scripts/lib/postgres.sh.

# bench_start: what a benchmark does first: installs what running needs, builds livegate, makes the
# run's folder and starts its PostgreSQL with the migrated database (bench_build, bench_workdir and
# bench_database below). Call it outside a subshell, so the cleanup it arms sees what the script starts.
bench_start() {
    scripts/install-deps.sh run >&2
    bench_build
    bench_workdir
    bench_database
}

# bench_build: builds livegate in release mode and sets `bin` to it. LIVEGATE_BENCH_SCRATCH, if set, is
# passed to swift build as --scratch-path (so a benchmark need not wait on another build's folder).
# LIVEGATE_BENCH_BIN=PATH runs that livegate instead, unbuilt: a build kept aside, for side-by-side runs.
bench_build() {
    if [ -n "${LIVEGATE_BENCH_BIN:-}" ]; then
        bin=$LIVEGATE_BENCH_BIN
        return
    fi
    local scratch=()
    if [ -n "${LIVEGATE_BENCH_SCRATCH:-}" ]; then scratch=(--scratch-path "$LIVEGATE_BENCH_SCRATCH"); fi
    echo "building livegate (release)..." >&2
    swift build -c release --product livegate "${scratch[@]}" >&2
    bin="$(swift build -c release --show-bin-path "${scratch[@]}")/livegate"
}

# build_ingest_floor: builds bench/ingest/floor (Hummingbird alone answering `update` calls) in release
# mode, in its own package's .build, and sets `floor_bin` to it.
build_ingest_floor() {
    echo "building bench/ingest/floor (release)..." >&2
    swift build -c release --package-path bench/ingest/floor >&2
    floor_bin="$(swift build -c release --package-path bench/ingest/floor --show-bin-path)/IngestFloor"
}

# build_curl_floor: builds bench/delivery/curl_floor.c (libcurl alone posting pushes) against the libcurl
# the gateway links, with the gateway's own reset filter (Sources/CurlStreamReset) and socket-check cache
# (Sources/CurlPollCache), and on the gateway's allocator (jemalloc, linked ahead of libc), as
# $work/curl_floor (after bench_workdir).
build_curl_floor() {
    cc -O2 -o "$work/curl_floor" bench/delivery/curl_floor.c Sources/CurlStreamReset/StreamResetFilter.c \
        Sources/CurlPollCache/PollCache.c -I Sources/CurlStreamReset/include -I Sources/CurlPollCache/include \
        $(pkg-config --libs jemalloc) $(pkg-config --cflags --libs libcurl) -lpthread
}

# bench_workdir: makes the run's folder `work` (open to the postgres user), sets `pg_data` and `pg_port`
# for bench_database, and on exit, an interrupt included, stops every process in `bench_pids` (newest
# first), then PostgreSQL (or the cluster), and removes the folder.
bench_workdir() {
    work=$(mktemp -d /tmp/livegate-bench.XXXXXX)
    chmod 755 "$work"
    pg_data="$work/postgres"
    pg_port=$(free_port)
    # What pg_cpu_ms reads: each server's postmaster.pid (bench_database puts the cluster's members' here).
    pg_pid_files=("$pg_data/postmaster.pid")
    # The cluster's folder once bench_database starts one, for the cleanup; empty on a single server.
    ha_dir=
    bench_pids=()
    trap bench_cleanup EXIT
    # Interrupted, the script exits, so that the cleanup above runs.
    trap 'exit 130' INT TERM
}

bench_cleanup() {
    local i pid
    for ((i = ${#bench_pids[@]} - 1; i >= 0; i--)); do
        pid=${bench_pids[i]}
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    # The cluster goes down before the folder holding its data is removed.
    [ -z "$ha_dir" ] || LIVEGATE_HA_DIR="$ha_dir" scripts/ha/cluster.sh down >/dev/null || true
    pg_stop "$pg_data"
    [ -z "${LIVEGATE_BENCH_PG_STATS:-}" ] || cp "$pg_data/server.log" "$LIVEGATE_BENCH_PG_STATS/" 2>/dev/null || true
    rm -rf "$work"
}

# bench_database: starts PostgreSQL (default durability) in $pg_data on $pg_port, creates and migrates
# the `livegate` database, exports DATABASE_URL. LIVEGATE_BENCH_PG_STATS=FOLDER also loads
# pg_stat_statements, for bench_statements, and keeps PostgreSQL's log there; LIVEGATE_BENCH_PG_SETTINGS adds settings (space-separated
# name=value, as pg_start takes them).
# LIVEGATE_BENCH_DATABASE=ha (default single) runs the reference Patroni cluster instead (scripts/ha/cluster.sh:
# etcd and three members on this machine, synchronous mode) in $work/ha, ports from LIVEGATE_HA_PORT_BASE
# (default 18400, apart from cluster.sh's own and bench/failover's), DATABASE_URL its multi-host URL: what
# synchronous replication costs. The cluster keeps its own settings (max_connections 200, PostgreSQL's
# default shared_buffers), so LIVEGATE_BENCH_PG_SETTINGS and LIVEGATE_BENCH_PG_STATS are single-only: Patroni
# would need a restart of every member to load pg_stat_statements.
bench_database() {
    case "${LIVEGATE_BENCH_DATABASE:-single}" in
        single) ;;
        ha)
            bench_cluster
            return
            ;;
        *) echo "LIVEGATE_BENCH_DATABASE is single or ha, not '$LIVEGATE_BENCH_DATABASE'" >&2; return 1 ;;
    esac
    # shellcheck disable=SC2086 # one word per setting
    pg_start "$pg_data" "$pg_port" max_connections=300 shared_buffers=256MB \
        ${LIVEGATE_BENCH_PG_STATS:+shared_preload_libraries=pg_stat_statements} ${LIVEGATE_BENCH_PG_SETTINGS:-}
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE livegate" >/dev/null
    if [ -n "${LIVEGATE_BENCH_PG_STATS:-}" ]; then
        mkdir -p "$LIVEGATE_BENCH_PG_STATS"
        psql -h 127.0.0.1 -p "$pg_port" -U postgres -d livegate -qc "CREATE EXTENSION pg_stat_statements" >/dev/null
    fi
    export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/livegate"
    "$bin" migrate >&2
    bench_setup_sql
}

# bench_setup_sql: LIVEGATE_BENCH_SETUP_SQL, if set, run once the database is migrated and before the
# benchmark writes its rows: a schema variant measured beside the schema as it is (for example
# "ALTER TABLE activity_tokens SET (fillfactor = 80)"), without editing a migration.
bench_setup_sql() {
    [ -z "${LIVEGATE_BENCH_SETUP_SQL:-}" ] || psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qc "$LIVEGATE_BENCH_SETUP_SQL" >&2
}

# bench_cluster: bench_database's `ha`: the cluster up in $work/ha (its `up` creates database `livegate`),
# DATABASE_URL its read-write multi-host URL, migrated; pg_cpu_ms then counts every member.
bench_cluster() {
    if [ -n "${LIVEGATE_BENCH_PG_STATS:-}${LIVEGATE_BENCH_PG_SETTINGS:-}" ]; then
        echo "LIVEGATE_BENCH_PG_STATS and LIVEGATE_BENCH_PG_SETTINGS apply to a single server only" >&2
        return 1
    fi
    local urls
    # Set first, so that the cleanup takes down whatever a failed `up` left running.
    ha_dir="$work/ha"
    urls=$(LIVEGATE_HA_DIR="$ha_dir" LIVEGATE_HA_PORT_BASE="${LIVEGATE_HA_PORT_BASE:-18400}" scripts/ha/cluster.sh up)
    DATABASE_URL=$(sed -n 's/^LIVEGATE_HA_URL=//p' <<<"$urls")
    [ -n "$DATABASE_URL" ] || { echo "scripts/ha/cluster.sh up printed no LIVEGATE_HA_URL" >&2; return 1; }
    export DATABASE_URL
    pg_pid_files=("$ha_dir"/pg1/data/postmaster.pid "$ha_dir"/pg2/data/postmaster.pid "$ha_dir"/pg3/data/postmaster.pid)
    "$bin" migrate >&2
    bench_setup_sql
}

# sql STATEMENT: runs it in the benchmark's database (after bench_database); prints the rows unaligned,
# without headers, and fails on an error.
sql() { psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qtAc "$1"; }

# bench_simulator: makes a P-256 provider key ($work/key.p8, key id KEY1234567, team TEAM123456) and
# starts `livegate apns-sim --tls` with it on a free port; sets `sim_port`, adds the simulator to
# `bench_pids`, and returns once it listens and has written its certificate ($work/sim-cert.pem).
# Call it outside a subshell, so cleanup sees the pid.
bench_simulator() {
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/key.p8" 2>/dev/null
    sim_port=$(free_port)
    LIVEGATE_LOG_LEVEL=warning "$bin" apns-sim --port "$sim_port" --tls --tls-certificate-out "$work/sim-cert.pem" \
        --provider-key "KEY1234567:TEAM123456:$work/key.p8" >"$work/sim.log" 2>&1 &
    bench_pids+=($!)
    wait_for_port "$sim_port"
    for _ in $(seq 1 50); do [ -s "$work/sim-cert.pem" ] && break; sleep 0.1; done
}

# bench_workspace [options of `livegate workspace create`...]: makes the workspace "Bench"; prints its id.
bench_workspace() {
    "$bin" workspace create --name Bench "$@" | tail -n 1
}

# bench_app WORKSPACE NAME [options of `livegate app create`...]: makes an app for com.example.bench;
# prints its app_id.
bench_app() {
    local workspace="$1" name="$2"
    shift 2
    "$bin" app create --workspace "$workspace" --name "$name" --bundle-id com.example.bench "$@" | tail -n 1
}

# bench_update_key WORKSPACE: makes a key that may post updates; prints its secret.
bench_update_key() {
    "$bin" key create --workspace "$1" --name bench --permissions messages.live_activity.update | tail -n 1
}

# bench_serve PORT LOG_FILE: starts `livegate serve` on PORT in the background, with the caller's
# environment (`VAR=value bench_serve ...`), output to LOG_FILE; sets `gateway_pid` and adds it to
# `bench_pids`, then waits (at most 10 s) for /healthz. Call it outside a subshell, so cleanup sees the pid.
bench_serve() {
    "$bin" serve --port "$1" >"$2" 2>&1 &
    gateway_pid=$!
    bench_pids+=("$gateway_pid")
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "the gateway on port $1 did not answer /healthz within 10 s" >&2
    return 1
}

# bench_stop PID: stops one process started by this run (SIGTERM, then waits for it) and takes it out of
# `bench_pids`, so the cleanup at exit never signals a number another process may have been given since.
bench_stop() {
    local pid="$1" i kept=()
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    for i in "${bench_pids[@]}"; do
        [ "$i" = "$pid" ] || kept+=("$i")
    done
    bench_pids=("${kept[@]}")
}

# cpu_ms PID: the process's CPU time so far (user + system), in milliseconds.
cpu_ms() { stat_ms "$1" '$12 + $13'; }

# stat_ms PID SUM: SUM of /proc/PID/stat's time fields, counted from after the command name ($12 + $13
# the process's own user and system time, $14 + $15 its reaped children's), in milliseconds.
stat_ms() {
    awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print int(('"$2"') * 1000 / hz) }' "/proc/$1/stat"
}

# pg_cpu_ms: the benchmark's PostgreSQL's CPU time so far (after bench_database), in milliseconds: the
# postmaster's own and its exited children's, and each live child's; on the cluster, every member's (a
# replica's WAL receiver and startup process work for each commit too).
pg_cpu_ms() {
    local pid_file total=0
    for pid_file in "${pg_pid_files[@]}"; do
        total=$((total + $(postmaster_cpu_ms "$(head -n 1 "$pid_file")")))
    done
    echo "$total"
}

# postmaster_cpu_ms PID: a postmaster's CPU time and its children's, as pg_cpu_ms counts it. Read again
# when a child was reaped meanwhile: its time would have been counted in neither.
postmaster_cpu_ms() {
    local postmaster=$1 reaped total pid
    while true; do
        reaped=$(stat_ms "$postmaster" '$14 + $15')
        total=$((reaped + $(cpu_ms "$postmaster")))
        for pid in $(pgrep -P "$postmaster"); do
            total=$((total + $(cpu_ms "$pid" 2>/dev/null || echo 0)))
        done
        [ "$(stat_ms "$postmaster" '$14 + $15')" = "$reaped" ] && break
    done
    echo "$total"
}

# cluster_cpu_ms: the cluster's own processes' CPU time so far, beside PostgreSQL's: each member's Patroni
# (with its exited children: pg_ctl, pg_controldata) and etcd, in milliseconds; 0 on a single server.
cluster_cpu_ms() {
    [ -n "$ha_dir" ] || { echo 0; return; }
    local total pid_file
    total=$(cpu_ms "$(cat "$ha_dir/etcd.pid")")
    for pid_file in "$ha_dir"/pg1/patroni.pid "$ha_dir"/pg2/patroni.pid "$ha_dir"/pg3/patroni.pid; do
        total=$((total + $(stat_ms "$(cat "$pid_file")" '$12 + $13 + $14 + $15')))
    done
    echo "$total"
}

# until_dispatches_end_sql IDS SECONDS: SQL that returns once none of the dispatches IDS (a SQL list,
# 'id','id') is pending or delivering, or after SECONDS, polling every 10 ms in one session; a caller
# reads the rows after it (its timings come from completed_at, so the polling does not enter them).
# Each look commits: a transaction held open for the whole wait would keep every row version the
# delivery replaces alive, so PostgreSQL could prune none of them and would cost more than it does
# beside a gateway in service.
until_dispatches_end_sql() {
    cat <<SQL
DO \$\$
DECLARE deadline timestamptz := clock_timestamp() + interval '$2 seconds';
BEGIN
    WHILE clock_timestamp() < deadline
          AND EXISTS (SELECT 1 FROM dispatches WHERE id IN ($1) AND status IN ('pending', 'delivering')) LOOP
        COMMIT;
        PERFORM pg_sleep(0.01);
    END LOOP;
END \$\$;
SQL
}

# best: the highest of the numbers on standard input (spaces or lines between them).
best() { tr ' ' '\n' | grep . | sort -n | tail -n 1; }

# wait_for_port PORT: waits (at most 10 s) until something listens on 127.0.0.1:PORT.
wait_for_port() {
    for _ in $(seq 1 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}

# bench_statements NAME: with LIVEGATE_BENCH_PG_STATS, writes PostgreSQL's statements since the last
# call, by total time, to FOLDER/NAME.statements.txt (NAME - writes nothing), and starts counting afresh.
bench_statements() {
    [ -n "${LIVEGATE_BENCH_PG_STATS:-}" ] || return 0
    [ "$1" = - ] || psql "$DATABASE_URL" -qc "SELECT calls, round(total_exec_time::numeric, 1) AS total_ms,
            round((total_exec_time / nullif(calls, 0))::numeric, 3) AS mean_ms, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query
        FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 25" >"$LIVEGATE_BENCH_PG_STATS/$1.statements.txt"
    # Since the server started (these counters are not reset: autovacuum and PlannerStatistics read them).
    [ "$1" = - ] || psql "$DATABASE_URL" -qc "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del, n_live_tup, n_dead_tup
        FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd > 0 ORDER BY relname" >>"$LIVEGATE_BENCH_PG_STATS/$1.statements.txt"
    [ "$1" = - ] || psql "$DATABASE_URL" -qc "SELECT wal_records, wal_fpi, pg_size_pretty(wal_bytes) AS wal FROM pg_stat_wal" \
        >>"$LIVEGATE_BENCH_PG_STATS/$1.statements.txt"
    psql "$DATABASE_URL" -qtAc "SELECT pg_stat_statements_reset()" >/dev/null
}

# perf_record_gateway PID FILE: `perf record -g` of the gateway PID into FILE, in the background, once the
# gateway's APNs lanes exist (threads named livegate-apns…, made at its first push; at most 5 s): perf
# follows only the threads a process has when it attaches, and a gateway started for the run makes its
# lanes after. Sets perf_pid (stop it with kill -INT, then wait).
perf_record_gateway() {
    local pid=$1 file=$2
    (
        for _ in $(seq 1 500); do
            grep -qs '^livegate-apns' /proc/"$pid"/task/*/comm && break
            sleep 0.01
        done
        exec perf record -q -g -p "$pid" -o "$file"
    ) >/dev/null 2>&1 &
    perf_pid=$!
}
