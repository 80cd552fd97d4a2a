#!/usr/bin/env bash
# bench/apns-sim: how many pushes a second `livegate apns-sim` answers, driven by h2load over TLS with a
# real ES256 provider token (the simulator verifies it once, then recognises it). Prints h2load's summary.
# Usage: bench/apns-sim/run.sh [requests] [clients] [streams per client]; LIVEGATE_BIN names the binary
# (default .build/release/livegate, else .build/debug/livegate); extra simulator options in SIM_ARGS.
# Also prints the simulator's CPU time per push (utime+stime from /proc, which does not depend on what
# h2load takes from shared cores), the rate that CPU time would allow on all cores, and h2load's own CPU
# time.
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
# utime + stime of a process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
ticks=$(getconf CLK_TCK)
before=$(cpu_ticks "$sim_pid")
LOG_LEVEL=error /usr/bin/time -f '%U %S' -o "$work/h2load.cpu" \
    h2load -n "$requests" -c "$clients" -m "$streams" -t 1 -i "$work/uris" -d "$work/payload.json" \
    -H "authorization: bearer $jwt" -H 'apns-push-type: liveactivity' \
    -H 'apns-topic: com.example.app.push-type.liveactivity' -H 'apns-priority: 10' \
    -H 'content-type: application/json' | grep -E 'finished in|requests:|status codes:'
after=$(cpu_ticks "$sim_pid")
awk -v t="$((after - before))" -v hz="$ticks" -v n="$requests" -v cores="$(nproc)" -v h2="$(cat "$work/h2load.cpu")" 'BEGIN {
    s = t / hz; split(h2, h, " ")
    printf "simulator CPU: %.2f s, %.1f us/push, so %d cores allow %.0f pushes/s\n", s, s * 1e6 / n, cores, cores * n / s
    printf "h2load CPU: %.2f s, %.1f us/push\n", h[1] + h[2], (h[1] + h[2]) * 1e6 / n }'
