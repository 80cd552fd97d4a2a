# Build and database set-up shared by the benchmarks. Source after scripts/lib/postgres.sh.

# bench_build: builds livegate in release mode and sets `bin` to it. LIVEGATE_BENCH_SCRATCH, if set, is
# passed to swift build as --scratch-path (so a benchmark need not wait on another build's folder).
bench_build() {
    local scratch=()
    if [ -n "${LIVEGATE_BENCH_SCRATCH:-}" ]; then scratch=(--scratch-path "$LIVEGATE_BENCH_SCRATCH"); fi
    echo "building livegate (release)..." >&2
    swift build -c release --product livegate "${scratch[@]}" >&2
    bin="$(swift build -c release --show-bin-path "${scratch[@]}")/livegate"
}

# bench_database: starts PostgreSQL (default durability) in $pg_data on $pg_port, which the caller set
# (and stops in its exit trap), creates and migrates the `livegate` database, exports DATABASE_URL.
bench_database() {
    pg_start "$pg_data" "$pg_port" max_connections=300 shared_buffers=256MB
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE livegate" >/dev/null
    export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/livegate"
    "$bin" migrate >&2
}
