#!/usr/bin/env bash
# Runs LiveGate on its embedded default: a local PostgreSQL cluster under .data/ (git-ignored), the
# schema migrated, a demo workspace, app and API key (printed), an APNs simulator over TLS where the
# demo app's pushes go, and the gateway serving until Ctrl-C, after which the simulator and PostgreSQL
# are stopped again.
#
# Settings: LIVEGATE_PORT (8080), LIVEGATE_PG_PORT (54329), LIVEGATE_DATA_DIR (.data),
# LIVEGATE_APNS_SIM_PORT (2197), and every variable `livegate serve` reads (see docs/configuration.md), except
# LIVEGATE_APNS_CA_FILE: it is set to the simulator's certificate, so `serve` trusts only the simulator.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh

scripts/install-deps.sh run

data_dir=$(realpath -m "${LIVEGATE_DATA_DIR:-.data}")
pg_data="$data_dir/postgres"
pg_port="${LIVEGATE_PG_PORT:-54329}"
export LIVEGATE_PORT="${LIVEGATE_PORT:-8080}"
mkdir -p "$data_dir"

echo "building livegate (the first build takes a few minutes)..." >&2
swift build --product livegate >&2
bin="$(swift build --show-bin-path)/livegate"

sim_port="${LIVEGATE_APNS_SIM_PORT:-2197}"
sim_url="https://127.0.0.1:$sim_port"
sim_certificate="$data_dir/apns-sim-cert.pem"
sim_pid=""
cleanup() {
    if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
    pg_stop "$pg_data"
}
pg_start "$pg_data" "$pg_port"
trap cleanup EXIT
if ! psql -h 127.0.0.1 -p "$pg_port" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'livegate'" | grep -q 1; then
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE livegate" >/dev/null
fi
export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/livegate"
"$bin" migrate >&2

# The demo tenancy is made once and kept in $data_dir/demo.env; it is made again if the database
# no longer has it (for example after .data/postgres was removed).
demo_env="$data_dir/demo.env"
if [ -f "$demo_env" ]; then
    source "$demo_env"
    if ! psql "$DATABASE_URL" -tAc "SELECT 1 FROM workspaces WHERE id = '$DEMO_WORKSPACE_ID'" | grep -q 1; then
        rm -f "$demo_env"
    fi
fi
if [ ! -f "$demo_env" ]; then
    key_file="$data_dir/demo-apns-key.p8"
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$key_file" 2>/dev/null
    DEMO_WORKSPACE_ID=$("$bin" workspace create --name "Demo workspace" | tail -n 1)
    # The demo app sends to the local APNs simulator started below.
    DEMO_APP_ID=$("$bin" app create --workspace "$DEMO_WORKSPACE_ID" --name "Demo app" \
        --bundle-id com.example.livegate.demo --team-id DEMOTEAM01 --key-id DEMOKEY001 \
        --key-file "$key_file" --apns-endpoint "$sim_url" | tail -n 1)
    DEMO_API_KEY=$("$bin" key create --workspace "$DEMO_WORKSPACE_ID" --name "Demo key" \
        --permissions messages.live_activity.update,messages.live_activity.start,message_activity_log.read,live_activity.read | tail -n 1)
    umask 077
    printf 'DEMO_WORKSPACE_ID=%s\nDEMO_APP_ID=%s\nDEMO_API_KEY=%s\n' \
        "$DEMO_WORKSPACE_ID" "$DEMO_APP_ID" "$DEMO_API_KEY" >"$demo_env"
fi

# A demo app kept from an older run may send to another simulator address (http://, from before the
# simulator spoke TLS, or another LIVEGATE_APNS_SIM_PORT): point it at this run's. Only loopback
# addresses are changed; an endpoint set by hand to APNs stays as it is.
moved=$(psql "$DATABASE_URL" -qtA -v ON_ERROR_STOP=1 -v app="$DEMO_APP_ID" -v url="$sim_url" <<'SQL'
UPDATE apps SET apns_endpoint = :'url'
 WHERE app_identifier = :'app' AND apns_endpoint <> :'url'
   AND apns_endpoint ~ '^https?://127\.0\.0\.1:[0-9]+/?$'
RETURNING app_identifier;
SQL
)
if [ -n "$moved" ]; then echo "the demo app now sends to the APNs simulator at $sim_url" >&2; fi

# The APNs simulator, trusting the demo app's key, where the demo app's pushes go: HTTP/2 over TLS
# (as APNs, and so the gateway multiplexes pushes on one connection) with a certificate it makes at
# start and writes out for `serve` to trust.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if port_open "$sim_port"; then
    echo "port $sim_port is in use (another APNs simulator?); stop it or set LIVEGATE_APNS_SIM_PORT" >&2
    exit 1
fi
rm -f "$sim_certificate"
"$bin" apns-sim --port "$sim_port" --tls --tls-certificate-out "$sim_certificate" \
    --provider-key "DEMOKEY001:DEMOTEAM01:$data_dir/demo-apns-key.p8" >&2 &
sim_pid=$!
export LIVEGATE_APNS_CA_FILE="$sim_certificate"
# Listening before `serve` starts delivering, so the first pushes do not wait for a retry.
for _ in $(seq 1 100); do
    port_open "$sim_port" && break
    kill -0 "$sim_pid" 2>/dev/null || { echo "the APNs simulator did not start" >&2; exit 1; }
    sleep 0.1
done
port_open "$sim_port" || { echo "the APNs simulator is not listening on port $sim_port" >&2; exit 1; }

cat <<BANNER

LiveGate is starting on http://127.0.0.1:$LIVEGATE_PORT  (Ctrl-C stops it, the simulator and PostgreSQL)
  workspace: $DEMO_WORKSPACE_ID
  app_id:    $DEMO_APP_ID
  API key:   $DEMO_API_KEY
  database:  $DATABASE_URL
  APNs simulator: $sim_url (the demo app's endpoint; certificate $sim_certificate)

Try:  curl -H "Authorization: Bearer $DEMO_API_KEY" http://127.0.0.1:$LIVEGATE_PORT/api_keys/current
What the simulator received:  curl -sk $sim_url/_sim/pushes

BANNER

"$bin" serve --port "$LIVEGATE_PORT"
