#!/usr/bin/env bash
# bench/broadcast: how fast an update reaches a broadcast channel's subscribers, beside how long the same
# update takes to reach the same audience one device at a time, in the same run.
#
#   bench/broadcast/run.sh [updates, default 1000] [tokens, default 100000]
#
# 1. `updates` updates on an activity with a channel and no registered token, one after another: for
#    each, the time from its `201` (when the client had the answer) to the broadcast's 200 from APNs (the
#    simulator over TLS; `broadcast_at`, which the gateway records as the 200 comes in). p50 and p99.
# 2. `tokens` update tokens registered under the same activity, then one more update: its broadcast time
#    again, and the time to its last per-device push acknowledged (`completed_at`), the fan-out the
#    channel saves.
# Builds livegate in release mode (LIVEGATE_BENCH_SCRATCH: another --scratch-path), starts its own
# PostgreSQL, `livegate apns-sim --tls` and gateway, and stops them all at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

updates="${1:-1000}"
tokens="${2:-100000}"

bench_start

bench_simulator

workspace=$(bench_workspace)
app_id=$(bench_app "$workspace" "Bench broadcast" --team-id TEAM123456 --key-id KEY1234567 \
    --key-file "$work/key.p8" --apns-endpoint "https://127.0.0.1:$sim_port")
api_key=$("$bin" key create --workspace "$workspace" --name bench \
    --permissions messages.live_activity.update,live_activity.channels.manage | tail -n 1)

gateway_port=$(free_port)
# Supersession off: the updates follow each other within milliseconds on one activity, so with it on a
# newer one would stop an older one before its broadcast; this measures every update's broadcast
# (bench/freshness measures supersession).
LIVEGATE_DELIVERY=on LIVEGATE_SUPERSESSION=off LIVEGATE_LOG_LEVEL=warning LIVEGATE_APNS_CA_FILE="$work/sim-cert.pem" \
    bench_serve "$gateway_port" "$work/gateway.log"

python3 bench/broadcast/updates.py "http://127.0.0.1:$gateway_port" "$api_key" "$app_id" "$updates" "$tokens"
