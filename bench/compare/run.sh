#!/usr/bin/env bash
# bench/compare: this tree's gateway side by side with another commit's, for the figures a change to the
# gateway's structure must not move: bench/tracking's ceiling (updates/s delivered during 20 s of 7,000/s
# offered, with its gateway and PostgreSQL CPU per dispatch) and bench/delivery's rtt fan-out (10,000
# pushes at a 50 ms round trip: pushes/s and the gateway's CPU per push). Each round runs both builds,
# which goes first alternating, each through its own tree's scripts (they build it in release mode and
# start and stop their own PostgreSQL, simulator and gateway). Prints each run, then per build the median
# and the spread of its runs (the run-to-run noise), and this tree's medians over the other's.
#
#   bench/compare/run.sh REV [rounds, default 3]
#
# The other build's tree is a git worktree of REV (LIVEGATE_BENCH_BASE_TREE names it; default
# /tmp/livegate-base-REV), made when missing and left for the next run.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: bench/compare/run.sh REV [rounds]" >&2; exit 2; }
rev="$1"
rounds="${2:-3}"
base="${LIVEGATE_BENCH_BASE_TREE:-/tmp/livegate-base-$rev}"
[ -d "$base" ] || git worktree add -f "$base" "$rev" >&2
here="$(pwd)"
runs="$(mktemp)"
trap 'rm -f "$runs"' EXIT

# Appends "LABEL tracking_delivered gateway_us pg_us rtt_pushes_per_second rtt_us_per_push" for one run.
run_build() { # LABEL TREE
    local label="$1" tree="$2" table row delivered gus pgus line pps cpu
    table=$("$tree/bench/tracking/run.sh" --seconds 20 --rate 7000 --phases sustained 2>/dev/null)
    row=$(grep '^| sustained ' <<<"$table") || { echo "bench/compare: $label: no sustained row" >&2; exit 1; }
    delivered=$(awk -F'|' '{ gsub(/ /, "", $5); print $5 }' <<<"$row")
    gus=$(awk -F'|' '{ gsub(/ /, "", $11); print $11 }' <<<"$row")
    pgus=$(awk -F'|' '{ gsub(/ /, "", $12); print $12 }' <<<"$row")
    line=$(LIVEGATE_BENCH_PEER=0 LIVEGATE_BENCH_FLOOR=0 "$tree/bench/delivery/run.sh" 1 rtt 2>&1 >/dev/null |
        grep 'rtt round 1: gateway') || { echo "bench/compare: $label: no rtt round" >&2; exit 1; }
    pps=$(sed -E 's/.*gateway ([0-9]+) pushes\/s.*/\1/' <<<"$line")
    cpu=$(sed -E 's/.*CPU: gateway ([0-9]+) ms.*/\1/' <<<"$line")
    echo "$label $delivered $gus $pgus $pps $(awk -v c="$cpu" -v n="${LIVEGATE_BENCH_TOKENS:-10000}" 'BEGIN { printf "%.0f", c * 1000 / n }')" |
        tee -a "$runs"
}

echo "label tracking_delivered/s gateway_us/dispatch postgres_us/dispatch rtt_pushes/s rtt_gateway_us/push"
for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) = 1 ]; then
        run_build "$rev" "$base"
        run_build this "$here"
    else
        run_build this "$here"
        run_build "$rev" "$base"
    fi
done

echo
echo "| build | tracking delivered/s | gateway µs/dispatch | PostgreSQL µs/dispatch | rtt pushes/s | rtt gateway µs/push |"
echo "|---|---:|---:|---:|---:|---:|"
# "median (least–most)" of a column over a build's runs.
stats() { # LABEL COLUMN
    awk -v label="$1" -v c="$2" '$1 == label { print $c }' "$runs" | sort -n |
        awk '{ v[NR] = $1 } END { printf "%s (%s–%s)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
median() { stats "$1" "$2" | cut -d' ' -f1; }
for label in "$rev" this; do
    echo "| $label | $(stats "$label" 2) | $(stats "$label" 3) | $(stats "$label" 4) | $(stats "$label" 5) | $(stats "$label" 6) |"
done
line="| this ÷ $rev |"
for c in 2 3 4 5 6; do
    line="$line $(awk -v t="$(median this "$c")" -v b="$(median "$rev" "$c")" 'BEGIN { printf "%.2f", t / b }') |"
done
echo "$line"
