#!/usr/bin/env bash
# Self-check of scripts/ha/cluster.sh: a failover after a dead leader and after a hung leader, each
# timed from the fault to the first write the multi-host URL gets through, and the rows survive.
# Uses its own folder and port base (LIVEGATE_HA_DIR, LIVEGATE_HA_PORT_BASE to override).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LIVEGATE_HA_DIR="${LIVEGATE_HA_DIR:-$here/../../.ha/selftest}"
export LIVEGATE_HA_PORT_BASE="${LIVEGATE_HA_PORT_BASE:-15500}"
cluster="$here/cluster.sh"
errors=$(mktemp)
write_timeout=60

cleanup() {
    "$cluster" down >/dev/null 2>&1 || true
}
trap cleanup EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
fail() {
    echo "FAIL: $*" >&2
    tail -n 5 "$errors" | sed 's/^/  psql: /' >&2
    "$cluster" status >&2 || true
    # The cluster goes down with its folder: keep the logs to read.
    local logs="$LIVEGATE_HA_DIR.logs"
    rm -rf "$logs"
    mkdir -p "$logs"
    cp "$LIVEGATE_HA_DIR/etcd.log" "$logs/" 2>/dev/null || true
    for member in pg1 pg2 pg3; do
        cp "$LIVEGATE_HA_DIR/$member/patroni.log" "$logs/$member.log" 2>/dev/null || true
        cp -r "$LIVEGATE_HA_DIR/$member/data/log" "$logs/$member-postgres" 2>/dev/null || true
    done
    echo "logs kept in $logs" >&2
    exit 1
}

# sql SQL: through the gateway's URL (the read-write member among the three), each try bounded.
sql() {
    timeout 10 psql "$url" -XAtq -v ON_ERROR_STOP=1 -c "$1" 2>>"$errors" || { echo "(exit $?: $1)" >>"$errors"; return 1; }
}

# wait_write ID NOTE: retries an insert until one commits; prints the seconds since $fault_at.
wait_write() {
    local deadline=$((SECONDS + write_timeout))
    until sql "INSERT INTO ha_check VALUES ($1, '$2')"; do
        [ "$SECONDS" -lt "$deadline" ] || fail "no write accepted within $write_timeout s"
        sleep 0.2
    done
    since "$fault_at"
}

echo "== up"
started=$(now)
url=$("$cluster" up | sed -n 's/^LIVEGATE_HA_URL=//p')
echo "up took $(since "$started") s; URL: $url"
sql "CREATE TABLE ha_check (id int PRIMARY KEY, note text)" >/dev/null || fail "create table"
sql "INSERT INTO ha_check VALUES (1, 'before kill')" || fail "first insert"
"$cluster" status

echo "== kill-leader"
fault_at=$(now)
read -r old _ < <("$cluster" kill-leader)
took=$(wait_write 2 'after kill')
read -r new _ < <("$cluster" leader)
echo "killed leader $old; new leader $new accepted a write after $took s (ttl 10)"
[ "$(sql "SELECT count(*) FROM ha_check WHERE id = 1")" = 1 ] || fail "row 1 lost after the kill"

echo "== restart-member $old"
"$cluster" restart-member "$old"
"$cluster" status

echo "== freeze-leader"
fault_at=$(now)
read -r frozen frozen_port < <("$cluster" freeze-leader)
took=$(wait_write 3 'after freeze')
read -r new _ < <("$cluster" leader)
echo "froze leader $frozen; new leader $new accepted a write after $took s"
[ "$(sql "SELECT count(*) FROM ha_check WHERE id IN (1, 2)")" = 2 ] || fail "rows lost after the freeze"

echo "== thaw"
thawed_at=$(now)
"$cluster" thaw
# The thawed Patroni finds another member holding the leader lock: it must demote its PostgreSQL.
state=""
deadline=$((SECONDS + 60))
while [ "$SECONDS" -lt "$deadline" ]; do
    recovery=$(PGCONNECT_TIMEOUT=2 timeout 5 psql "host=127.0.0.1 port=$frozen_port user=postgres dbname=postgres" \
        -XAtq -c "SELECT pg_is_in_recovery()" 2>/dev/null || echo down)
    receiver=$(PGCONNECT_TIMEOUT=2 timeout 5 psql "host=127.0.0.1 port=$frozen_port user=postgres dbname=postgres" \
        -XAtq -c "SELECT status FROM pg_stat_wal_receiver" 2>/dev/null || true)
    if [ "$recovery/$receiver" != "$state" ]; then
        state="$recovery/$receiver"
        echo "  +$(since "$thawed_at") s: $frozen in recovery: $recovery, wal receiver: ${receiver:-none}"
    fi
    [ "$recovery" = t ] && [ "$receiver" = streaming ] && break
    sleep 0.2
done
[ "$recovery" = t ] || fail "$frozen did not demote within 60 s of the thaw"
echo "thawed $frozen demoted and streams as a replica after $(since "$thawed_at") s"
# What the thawed member's Patroni did, from its log (the lines after the thaw that are not routine).
thaw_stamp=$(date -d "@${thawed_at%.*}" '+%Y-%m-%d %H:%M:%S' 2>/dev/null || true)
awk -v t="$thaw_stamp" '/^[0-9]{4}-[0-9]{2}-[0-9]{2} / { show = ($1 " " substr($2, 1, 8)) >= t } show' \
    "$LIVEGATE_HA_DIR/$frozen/patroni.log" |
    grep -iE 'demot|rewind|follow|promot|starting as|lock|crash|shut' | grep -vE 'no action|Lock owner: [^;]*; I am|max_locks' |
    head -n 15 | sed 's/^/  log: /' || true
[ "$(sql "SELECT count(*) FROM ha_check")" = 3 ] || fail "rows lost after the thaw"
"$cluster" wait-healthy
"$cluster" status

echo "== down"
"$cluster" down
leftover=$(pgrep -f -- "$LIVEGATE_HA_DIR/" || true)
[ -z "$leftover" ] || fail "processes left: $leftover"
trap - EXIT
rm -f "$errors"
echo "selftest passed"
