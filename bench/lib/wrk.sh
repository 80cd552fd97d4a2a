# Load a gateway's `update` endpoint with wrk (bench/ingest/update.lua). Source this file, after
# bench/lib/setup.sh. Needs BENCH_APP_ID and BENCH_API_KEY in the environment (read by the Lua script).

# wrk_install: installs Debian's wrk if it is missing.
wrk_install() {
    if ! command -v wrk >/dev/null; then
        apt-get install -y wrk >&2 || { apt-get update >&2 && apt-get install -y wrk >&2; }
    fi
}

# wrk_tenant [options of `livegate workspace create`...]: a workspace, an app on APNs sandbox and a key
# that may post updates, exported as BENCH_APP_ID and BENCH_API_KEY.
wrk_tenant() {
    local workspace
    workspace=$(bench_workspace "$@")
    BENCH_APP_ID=$(bench_app "$workspace" "Bench app" --apns-endpoint sandbox)
    BENCH_API_KEY=$(bench_update_key "$workspace")
    export BENCH_APP_ID BENCH_API_KEY
}

# wrk_update PORT CONCURRENCY SECONDS ERR_FILE [CPU_FILE] -> "accepted/s p50 p99 not-201"
# Only 201 answers count as accepted (update.lua counts the rest); the caller decides whether any
# answer that was not a 201 fails the run. With CPU_FILE, wrk's own CPU time ("user system", seconds)
# is written there (/usr/bin/time).
wrk_update() {
    local out rps p50 p99 bad timed=()
    [ -z "${5:-}" ] || timed=(/usr/bin/time -f "%U %S" -o "$5")
    out=$("${timed[@]}" wrk -t 2 -c "$2" -d "${3}s" --latency -s bench/ingest/update.lua "http://127.0.0.1:$1" 2>"$4")
    rps=$(awk -F': ' '/^accepted\/s:/ { print $2 }' <<<"$out")
    p50=$(awk '$1 == "50%" { print $2 }' <<<"$out")
    p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    bad=$(awk -F': ' '/^not 201:/ { print $2 }' <<<"$out")
    echo "${rps:-0} $p50 $p99 ${bad:-0}"
}
