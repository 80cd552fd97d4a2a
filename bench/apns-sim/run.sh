#!/usr/bin/env bash
# bench/apns-sim: how many pushes a second `livegate apns-sim` answers, driven by h2load over TLS with a
# real ES256 provider token (the simulator verifies it once, then recognises it). Prints h2load's summary.
# Usage: bench/apns-sim/run.sh [requests] [clients] [streams per client]; LIVEGATE_BIN names the binary
# (default .build/release/livegate, else .build/debug/livegate); extra simulator options in SIM_ARGS.
set -euo pipefail
cd "$(dirname "$0")/../.."
requests="${1:-200000}" clients="${2:-4}" streams="${3:-100}"
bin="${LIVEGATE_BIN:-.build/release/livegate}"
[ -x "$bin" ] || bin=.build/debug/livegate
command -v h2load >/dev/null || scripts/install-deps.sh test >&2
work=$(mktemp -d)
trap 'kill "$sim_pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
b64url() { base64 -w 0 | tr '+/' '-_' | tr -d '='; }
openssl ecparam -name prime256v1 -genkey -noout -out "$work/key.pem" 2>/dev/null
openssl pkcs8 -topk8 -nocrypt -in "$work/key.pem" -out "$work/key.p8"
header=$(printf '{"alg":"ES256","kid":"KEY1234567"}' | b64url)
claims=$(printf '{"iss":"TEAM123456","iat":%d}' "$(date +%s)" | b64url)
# openssl signs in DER (SEQUENCE of two INTEGERs); a JWT carries r and s as 32 bytes each.
signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$work/key.pem" | python3 -c '
import sys, base64
d = sys.stdin.buffer.read(); i = 2
def integer(i):
    n = d[i + 1]; v = d[i + 2:i + 2 + n]; return v[-32:].rjust(32, b"\0"), i + 2 + n
r, i = integer(i); s, i = integer(i)
print(base64.urlsafe_b64encode(r + s).decode().rstrip("="))')
jwt="$header.$claims.$signature"
port=$((20000 + RANDOM % 20000))
"$bin" apns-sim --port "$port" --tls --tls-certificate-out "$work/cert.pem" \
    --provider-key "KEY1234567:TEAM123456:$work/key.p8" ${SIM_ARGS:-} >"$work/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
printf '{"aps":{"timestamp":1685952000,"event":"update","content-state":{"score":1}}}' >"$work/payload.json"
seq 1 "$requests" | awk -v base="https://127.0.0.1:$port" '{ printf "%s/3/device/%064x\n", base, $1 }' >"$work/uris"
LOG_LEVEL=error h2load -n "$requests" -c "$clients" -m "$streams" -t 1 -i "$work/uris" -d "$work/payload.json" \
    -H "authorization: bearer $jwt" -H 'apns-push-type: liveactivity' \
    -H 'apns-topic: com.example.app.push-type.liveactivity' -H 'apns-priority: 10' \
    -H 'content-type: application/json' | grep -E 'finished in|requests:|status codes:'
