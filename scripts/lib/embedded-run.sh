# Starts the README's run command (scripts/run.sh) on free ports and a fresh data folder, for scripts
# that check it from outside. Source after scripts/lib/postgres.sh, then:
#   embedded_run_start NAME   sets work, port, pg_port, sim_port, log and run_pid, and stops it all on EXIT
#   embedded_run_serving      waits until /healthz answers (fails if run.sh exits first)
#   fail "why"                prints why and run.sh's output, and exits 1
embedded_run_start() {
    script_name="$1"
    work=$(mktemp -d "/tmp/livegate-$1.XXXXXX")
    chmod 755 "$work"
    port=$(free_port)
    pg_port=$(free_port)
    sim_port=$(free_port)
    log="$work/run.log"
    LIVEGATE_DATA_DIR="$work/data" LIVEGATE_PORT="$port" LIVEGATE_PG_PORT="$pg_port" LIVEGATE_APNS_SIM_PORT="$sim_port" \
        setsid scripts/run.sh >"$log" 2>&1 &
    run_pid=$!
    trap embedded_run_finish EXIT
}

embedded_run_finish() {
    kill -INT -- "-$run_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$run_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$run_pid" 2>/dev/null || true
    pg_stop "$work/data/postgres"
    rm -rf "$work"
}

fail() {
    echo "$script_name: FAILED: $1" >&2
    sed 's/^/  run.sh| /' "$log" >&2
    exit 1
}

embedded_run_serving() {
    for _ in $(seq 1 600); do
        if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then return 0; fi
        kill -0 "$run_pid" 2>/dev/null || fail "run.sh exited before serving"
        sleep 0.5
    done
    fail "/healthz did not answer within 5 minutes"
}
