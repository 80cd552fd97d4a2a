#!/usr/bin/env bash
# bench/activity: how fast `GET /live_activity/activities/{activity_id}` answers for a huge audience, with
# a two-device activity's answer beside it in the same run as the baseline.
#
#   bench/activity/run.sh [devices per activity, default 100000] [activities, default 5] [pages, default 20]
#
# Each of ACTIVITIES activities gets DEVICES update tokens, a state report for half of its devices (a
# tenth of those following its broadcast channel), a channel and 50 finished dispatches. For each, the
# first request computes its counts (one query over all its devices): its time is the goal's figure; the
# next PAGES requests walk its devices by cursor (counts kept for 10 s for activities this large). The
# baseline: the two-device activity, asked as often. Times are curl's, request to last byte, on the
# gateway's port (delivery off). Builds livegate in release mode, starts its own PostgreSQL (default
# durability) and gateway, and stops them at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/postgres.sh
source bench/lib/setup.sh

devices="${1:-100000}"
activities="${2:-5}"
pages="${3:-20}"

bench_start
workspace=$(bench_workspace)
app=$(bench_app "$workspace" "Bench activities" --apns-endpoint sandbox)
app_uuid=$(sql "SELECT id FROM apps WHERE app_identifier = '$app'")
key=$("$bin" key create --workspace "$workspace" --name bench --permissions live_activity.read | tail -n 1)

echo "filling $activities activities of $devices devices..." >&2
for a in $(seq 1 "$activities"); do
    sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token, last_dispatch_id, last_apns_status, last_pushed_at)
         SELECT '$app_uuid', 'game-$a', 'device-' || i, lpad(to_hex(i), 64, '0'), gen_random_uuid(), 200, now()
         FROM generate_series(1, $devices) i"
    sql "INSERT INTO activity_device_states (app_id, activity_id, device_id, state, channel_id, reported_at)
         SELECT '$app_uuid', 'game-$a', 'device-' || i, CASE WHEN i % 7 = 0 THEN 'dismissed' ELSE 'active' END,
                CASE WHEN i % 10 = 0 THEN 'Y2hhbm5lbC0$a' END, now()
         FROM generate_series(1, $devices, 2) i"
    sql "INSERT INTO broadcast_channels (app_id, activity_id, state, channel_id, message_storage_policy)
         VALUES ('$app_uuid', 'game-$a', 'live', 'Y2hhbm5lbC0$a', 1)"
    sql "INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, payload, priority, expires_at, status,
                                 completed_at, sent_count)
         SELECT gen_random_uuid(), '$workspace', '$app_uuid', 'update', 'game-$a', '{}', 10, now(), 'done',
                now() - make_interval(secs => i), $devices
         FROM generate_series(1, 50) i"
done
sql "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
     VALUES ('$app_uuid', 'order-1', 'phone', repeat('ab', 32)), ('$app_uuid', 'order-1', 'watch', repeat('cd', 32))"
sql "ANALYZE"

port=$(free_port)
LIVEGATE_DELIVERY=off LIVEGATE_LOG_LEVEL=warning bench_serve "$port" "$work/gateway.log"

# ms ACTIVITY [QUERY]: one request's time in milliseconds; fails unless it answers 200.
ms() {
    local out
    out=$(curl -sS -o "$work/body.json" -w '%{http_code} %{time_total}' -H "Authorization: Bearer $key" \
        "http://127.0.0.1:$port/live_activity/activities/$1?app_id=$app${2:-}")
    [ "${out%% *}" = 200 ] || { echo "GET $1 answered ${out%% *}: $(head -c 300 "$work/body.json")" >&2; exit 1; }
    awk -v s="${out#* }" 'BEGIN { printf "%.2f\n", s * 1000 }'
}
ms order-1 >/dev/null  # the first request of a fresh gateway also loads the key and the app

first="" walk="" small=""
for a in $(seq 1 "$activities"); do
    first+="$(ms "game-$a") "
    python3 -c "import json,sys; c=json.load(open('$work/body.json'))['counts']; sys.exit(0 if c['devices'] == $devices else 1)" \
        || { echo "game-$a counted wrong: $(head -c 400 "$work/body.json")" >&2; exit 1; }
    cursor=""
    for _ in $(seq 1 "$pages"); do
        walk+="$(ms "game-$a" "${cursor:+&cursor=$cursor}") "
        cursor=$(python3 -c "import json; print(json.load(open('$work/body.json'))['next_cursor'] or '')")
        small+="$(ms order-1) "
    done
done

percentiles() {
    tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END {
        p99 = int(NR * 0.99 + 0.5); if (p99 < 1) p99 = 1
        printf "%.1f %.1f %.1f", v[int((NR + 1) / 2)], v[p99], v[NR] }'
}
read -r first_p50 first_p99 first_max <<<"$(percentiles <<<"$first")"
read -r walk_p50 walk_p99 walk_max <<<"$(percentiles <<<"$walk")"
read -r small_p50 small_p99 small_max <<<"$(percentiles <<<"$small")"
echo "| request | devices | requests | p50 ms | p99 ms | max ms | p50 ÷ two-device p50 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
awk -v d="$devices" -v n="$activities" -v p="$pages" -v f50="$first_p50" -v f99="$first_p99" -v fm="$first_max" \
    -v w50="$walk_p50" -v w99="$walk_p99" -v wm="$walk_max" -v s50="$small_p50" -v s99="$small_p99" -v sm="$small_max" 'BEGIN {
    printf "| first page, counts computed | %d | %d | %.1f | %.1f | %.1f | %.1f× |\n", d, n, f50, f99, fm, f50 / s50
    printf "| next pages by cursor | %d | %d | %.1f | %.1f | %.1f | %.1f× |\n", d, n * p, w50, w99, wm, w50 / s50
    printf "| two-device activity (baseline) | 2 | %d | %.1f | %.1f | %.1f | 1.0× |\n", n * p, s50, s99, sm
}'
