#!/usr/bin/env bash
# bench/dead-tokens: what removing the tokens APNs called dead costs a fan-out page, with the index of
# migration 013 and, in the same run, without it (dropped inside a transaction that is rolled back).
#
#   bench/dead-tokens/run.sh [devices, default 1000000] [dead tokens per page, default 100] [rounds, default 3]
#
# The statement is the delivery engine's own (FanoutStatements.removeDeadTokens), run on a table holding
# DEVICES tokens of one app, for a page's dead tokens spread over the table; each round deletes tokens
# not deleted before. Prints the median and best time of each side and their ratio.
# Builds livegate in release mode (for `livegate migrate` and the app), starts its own PostgreSQL cluster
# (default durability) and stops it at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

devices="${1:-1000000}"
dead="${2:-100}"
rounds="${3:-3}"

bench_start

app=$(bench_app "$(bench_workspace)" "Bench dead tokens" --apns-endpoint sandbox)
app_uuid=$(sql "SELECT id FROM apps WHERE app_identifier = '$app'")
sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
     SELECT '$app_uuid', 'bench-game', 'device-' || i, lpad(to_hex(i), 64, '0') FROM generate_series(1, $devices) i"
sql "ANALYZE activity_tokens"

# Milliseconds the delete of round ROUND's dead tokens takes; "drop" runs it without migration 013's index.
time_delete() { # side round
    local first=$(( $2 * 7919 )) stride=$(( devices / dead )) drop=""
    [ "$1" = without ] && drop="DROP INDEX activity_tokens_push_token_idx;"
    psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qtA <<SQL | awk '/^Time:/ { print $2 }' | tail -n 1
BEGIN;
$drop
\timing on
DELETE FROM activity_tokens WHERE app_id = '$app_uuid'
    AND push_token = ANY(ARRAY(SELECT lpad(to_hex(($first + i * $stride) % $devices + 1), 64, '0') FROM generate_series(0, $dead - 1) i)::text[]);
\timing off
ROLLBACK;
SQL
}

declare -A times
for round in $(seq 1 "$rounds"); do
    for side in with without; do
        ms=$(time_delete "$side" "$round")
        echo "round $round, $side the index: $ms ms" >&2
        times[$side]+="$ms "
    done
done
stat() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f %.1f", v[int((NR + 1) / 2)], v[1] }'; }
read -r with_median with_best <<<"$(stat <<<"${times[with]}")"
read -r without_median without_best <<<"$(stat <<<"${times[without]}")"
echo "| devices | dead tokens in the page | with migration 013's index: median (best) | without: median (best) | without ÷ with (median) |"
echo "|---:|---:|---:|---:|---:|"
awk -v d="$devices" -v n="$dead" -v wm="$with_median" -v wb="$with_best" -v om="$without_median" -v ob="$without_best" \
    'BEGIN { printf "| %d | %d | %.1f ms (%.1f) | %.1f ms (%.1f) | %.0f× |\n", d, n, wm, wb, om, ob, om / wm }'
