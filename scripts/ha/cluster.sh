#!/usr/bin/env bash
# A reference high-availability PostgreSQL cluster for tests and benchmarks: one etcd and three Patroni
# members on 127.0.0.1, in one folder. See scripts/ha/README.md.
#
# Usage: scripts/ha/cluster.sh [--dir DIR] COMMAND [ARG]
#   up | down | status | leader | urls | wait-healthy | wait-primary | kill-leader | freeze-leader | thaw |
#   restart-member NAME
#
# Environment:
#   LIVEGATE_HA_DIR        the cluster's folder (default: .ha/cluster in the repository)
#   LIVEGATE_HA_PORT_BASE  ports: PostgreSQL base+1..3, Patroni REST base+11..13, etcd base+21 (client)
#                          and base+22 (peer) (default 15400)
#   LIVEGATE_HA_TIMEOUT    seconds `up` waits for a writable leader and two streaming replicas (default 120)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ha_dir="${LIVEGATE_HA_DIR:-$repo/.ha/cluster}"
if [ "${1:-}" = "--dir" ]; then
    ha_dir="${2:?--dir needs a folder}"
    shift 2
fi
ha_dir=$(realpath -m "$ha_dir")
base="${LIVEGATE_HA_PORT_BASE:-15400}"
up_timeout="${LIVEGATE_HA_TIMEOUT:-120}"
pg_version=15
bin_dir="/usr/lib/postgresql/$pg_version/bin"
members=(pg1 pg2 pg3)
etcd_client_port=$((base + 21))
etcd_peer_port=$((base + 22))

die() {
    echo "cluster.sh: $*" >&2
    exit 1
}

member_index() {
    case "$1" in
        pg1) echo 1 ;;
        pg2) echo 2 ;;
        pg3) echo 3 ;;
        *) die "no member named '$1' (members: ${members[*]})" ;;
    esac
}
pg_port() { echo $((base + $(member_index "$1"))); }
api_port() { echo $((base + 10 + $(member_index "$1"))); }

# ---------------------------------------------------------------------------------------------------
# Installation

install_missing() {
    local missing=() package
    for package in patroni etcd-server postgresql-$pg_version postgresql-client-$pg_version curl; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    [ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}) and not root to install them"
    echo "installing: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    # etcd-server, patroni and postgresql ship system services that their install would start: this script
    # runs processes of its own, so no service may start (policy-rc.d exit 101 = action forbidden).
    local had_policy=0
    [ -e /usr/sbin/policy-rc.d ] && had_policy=1
    if [ "$had_policy" -eq 0 ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod +x /usr/sbin/policy-rc.d
    fi
    local rc=0
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || rc=$?
    [ "$had_policy" -eq 0 ] && rm -f /usr/sbin/policy-rc.d
    [ "$rc" -eq 0 ] || die "apt-get install failed"
    # Should a service have started anyway (a machine with a working init), stop it.
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        systemctl disable --now etcd patroni >/dev/null 2>&1 || true
    fi
}

# ---------------------------------------------------------------------------------------------------
# Processes

# alive PID PATTERN: the process exists and its command line contains PATTERN (guards against pid reuse).
alive() {
    local pid="$1" pattern="$2"
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$pattern"
}

# State letter of a process (R, S, T for stopped, Z...), empty when gone.
proc_state() {
    awk '{print $3}' "/proc/$1/stat" 2>/dev/null || true
}

patroni_pid() { cat "$ha_dir/$1/patroni.pid" 2>/dev/null || true; }

# The postmaster of a member: the pid its data folder records, if that process runs on that folder.
postmaster_pid() {
    local data="$ha_dir/$1/data" pid
    pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null || true)
    if alive "$pid" "$data"; then
        echo "$pid"
    fi
}

# Every process of a member: Patroni, the postmaster, its children (backends, walsender, ...), and any
# PostgreSQL process started on the member's data folder (pg_rewind, pg_basebackup, single-user mode).
member_pids() {
    local name="$1" pid pm
    pid=$(patroni_pid "$name")
    if alive "$pid" "$ha_dir/$name/patroni.yml"; then
        echo "$pid"
        pgrep -P "$pid" 2>/dev/null || true
    fi
    pm=$(postmaster_pid "$name")
    if [ -n "$pm" ]; then
        echo "$pm"
        pgrep -P "$pm" 2>/dev/null || true
    fi
    pgrep -f -- "$ha_dir/$name/data" 2>/dev/null || true
}

etcd_pid() {
    local pid
    pid=$(cat "$ha_dir/etcd.pid" 2>/dev/null || true)
    if alive "$pid" "$ha_dir/etcd"; then
        echo "$pid"
    fi
}

all_pids() {
    local name
    for name in "${members[@]}"; do
        member_pids "$name"
    done
    etcd_pid
}

# wait_gone SECONDS PID...: true when none of the processes is left within the time.
wait_gone() {
    local seconds="$1" deadline pid left
    shift
    deadline=$((SECONDS + seconds))
    while :; do
        left=0
        for pid in "$@"; do
            if [ -e "/proc/$pid" ] && [ "$(proc_state "$pid")" != Z ]; then
                left=1
            fi
        done
        [ "$left" -eq 0 ] && return 0
        [ "$SECONDS" -ge "$deadline" ] && return 1
        sleep 0.2
    done
}

start_etcd() {
    mkdir -p "$ha_dir/etcd"
    chmod 700 "$ha_dir/etcd"
    # Patroni talks to etcd's v2 API (the `etcd:` section), which etcd 3.4 serves only with --enable-v2:
    # Debian's Patroni 3.0.2 with the `etcd3:` section keeps a stale key cache after a failed
    # compare-and-set ("Synchronous replication key updated by someone else" every loop), so the /sync key
    # goes stale and, in synchronous mode, no replica may be promoted when the leader fails.
    setsid etcd \
        --enable-v2=true \
        --name livegate-ha \
        --data-dir "$ha_dir/etcd" \
        --listen-client-urls "http://127.0.0.1:$etcd_client_port" \
        --advertise-client-urls "http://127.0.0.1:$etcd_client_port" \
        --listen-peer-urls "http://127.0.0.1:$etcd_peer_port" \
        --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer_port" \
        --initial-cluster "livegate-ha=http://127.0.0.1:$etcd_peer_port" \
        --initial-cluster-token "livegate-ha-$base" \
        --initial-cluster-state new \
        </dev/null >"$ha_dir/etcd.log" 2>&1 &
    echo $! >"$ha_dir/etcd.pid"
    local deadline=$((SECONDS + 30))
    until curl -sf -m 2 "http://127.0.0.1:$etcd_client_port/health" 2>/dev/null | grep -q '"health":"true"'; do
        alive "$(cat "$ha_dir/etcd.pid")" "$ha_dir/etcd" || die "etcd exited; see $ha_dir/etcd.log"
        [ "$SECONDS" -lt "$deadline" ] || die "etcd not healthy within 30 s; see $ha_dir/etcd.log"
        sleep 0.2
    done
}

write_member_config() {
    local name="$1" dir="$ha_dir/$1"
    local port api
    port=$(pg_port "$name")
    api=$(api_port "$name")
    mkdir -p "$dir"
    cat >"$dir/patroni.yml" <<EOF
scope: livegate-ha-$base
namespace: /livegate/
name: $name

restapi:
  listen: 127.0.0.1:$api
  connect_address: 127.0.0.1:$api

etcd:
  host: 127.0.0.1:$etcd_client_port

watchdog:
  mode: off

bootstrap:
  # Written to etcd by the member that bootstraps the cluster: the cluster-wide settings.
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8

postgresql:
  listen: 127.0.0.1:$port
  connect_address: 127.0.0.1:$port
  data_dir: $dir/data
  bin_dir: $bin_dir
  pgpass: $dir/pgpass
  use_unix_socket: false
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicator
      password: replicator
  parameters:
    # TCP on 127.0.0.1 only: no socket folder shared with other clusters on the machine.
    unix_socket_directories: ''
  pg_hba:
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
EOF
    chown -R postgres:postgres "$dir"
}

# Starts a member's Patroni as the postgres user, in a session of its own, and records its pid.
# setpriv replaces itself with Patroni (runuser would stay as its parent), so the recorded pid is Patroni's:
# what kill-leader and freeze-leader signal.
start_member() {
    local name="$1" dir="$ha_dir/$1"
    setsid setpriv --reuid=postgres --regid=postgres --init-groups \
        env -i PATH=/usr/bin:/bin HOME="$dir" LANG=C.UTF-8 PYTHONNOUSERSITE=1 \
        /usr/bin/python3 /usr/bin/patroni "$dir/patroni.yml" \
        </dev/null >>"$dir/patroni.log" 2>&1 &
    echo $! >"$dir/patroni.pid"
}

# ---------------------------------------------------------------------------------------------------
# Questions to the cluster

# psql_at PORT SQL: one answer from the member on PORT, or nothing (and failure) when it cannot answer.
psql_at() {
    PGCONNECT_TIMEOUT=2 psql "host=127.0.0.1 port=$1 user=postgres dbname=postgres" -XAtq -v ON_ERROR_STOP=1 -c "$2" 2>/dev/null
}

# The cluster as Patroni's REST API tells it (GET /cluster, the DCS view). Frozen members are asked last.
cluster_json() {
    local name order=() frozen_names=""
    frozen_names=$(cat "$ha_dir/frozen.members" 2>/dev/null || true)
    for name in "${members[@]}"; do
        grep -qx "$name" <<<"$frozen_names" || order+=("$name")
    done
    for name in "${members[@]}"; do
        grep -qx "$name" <<<"$frozen_names" && order+=("$name")
    done
    for name in "${order[@]}"; do
        if curl -sf -m 2 "http://127.0.0.1:$(api_port "$name")/cluster" 2>/dev/null; then
            return 0
        fi
    done
    return 1
}

# Prints "NAME PORT" of the member holding the leader lock.
leader_line() {
    local json
    json=$(cluster_json) || return 1
    /usr/bin/python3 -c '
import json, sys
for m in json.load(sys.stdin).get("members", []):
    if m.get("role") in ("leader", "master", "standby_leader"):
        print(m["name"], m["port"])
        break
else:
    sys.exit(1)
' <<<"$json"
}

# True when the DCS view has a leader, a synchronous standby and all three members running. In
# synchronous mode only the synchronous standby may take over: a fault before one is assigned again (right
# after a failover or a restart) leaves the cluster without a leader until the old one comes back.
healthy() {
    local json
    json=$(cluster_json) || return 1
    /usr/bin/python3 -c '
import json, sys
members = json.load(sys.stdin).get("members", [])
roles = [m.get("role") for m in members]
ok = len(members) == 3 and all(m.get("state") == "running" for m in members) \
    and roles.count("leader") == 1 and roles.count("sync_standby") == 1
sys.exit(0 if ok else 1)
' <<<"$json"
}

cmd_wait_healthy() {
    local deadline=$((SECONDS + up_timeout))
    until healthy; do
        [ "$SECONDS" -lt "$deadline" ] || die "no leader with a synchronous standby and three running members within $up_timeout s"
        sleep 0.5
    done
}

urls() {
    local hosts
    hosts="127.0.0.1:$(pg_port pg1),127.0.0.1:$(pg_port pg2),127.0.0.1:$(pg_port pg3)"
    echo "LIVEGATE_HA_URL=postgres://postgres@$hosts/livegate?target_session_attrs=read-write&connect_timeout=2"
    echo "LIVEGATE_HA_READ_URL=postgres://postgres@$hosts/livegate?target_session_attrs=standby&connect_timeout=2"
}

# ---------------------------------------------------------------------------------------------------
# Commands

cmd_up() {
    install_missing
    [ -x "$bin_dir/postgres" ] || die "PostgreSQL $pg_version binaries not found in $bin_dir"
    if [ -d "$ha_dir" ] && [ -n "$(all_pids)" ]; then
        die "a cluster is already running in $ha_dir (run down first)"
    fi
    local port
    for port in "$etcd_client_port" "$etcd_peer_port" $(for n in "${members[@]}"; do pg_port "$n"; api_port "$n"; done); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            die "port $port on 127.0.0.1 is in use (choose another LIVEGATE_HA_PORT_BASE)"
        fi
    done
    rm -rf "$ha_dir"
    mkdir -p "$ha_dir"
    chmod 755 "$ha_dir"
    if ! runuser -u postgres -- test -w "$ha_dir/."; then
        chown postgres:postgres "$ha_dir"
    fi
    runuser -u postgres -- test -x "$ha_dir" || die "the postgres user cannot reach $ha_dir (a parent folder is closed to it)"
    local started=$SECONDS
    start_etcd
    local name
    for name in "${members[@]}"; do
        write_member_config "$name"
        start_member "$name"
    done

    # Bounded wait: a leader that accepts writes, then two streaming replicas, one of them synchronous.
    local deadline=$((SECONDS + up_timeout)) leader="" replication=""
    while :; do
        if [ -z "$leader" ]; then
            for name in "${members[@]}"; do
                if [ "$(psql_at "$(pg_port "$name")" "SELECT pg_is_in_recovery()")" = f ]; then
                    leader="$name"
                fi
            done
        fi
        if [ -n "$leader" ]; then
            replication=$(psql_at "$(pg_port "$leader")" \
                "SELECT count(*) FILTER (WHERE state = 'streaming') || ' ' || count(*) FILTER (WHERE state = 'streaming' AND sync_state = 'sync') FROM pg_stat_replication" || true)
            if [ "$replication" = "2 1" ]; then
                break
            fi
        fi
        for name in "${members[@]}"; do
            alive "$(patroni_pid "$name")" "$ha_dir/$name/patroni.yml" || die "Patroni member $name exited; see $ha_dir/$name/patroni.log"
        done
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "cluster.sh: not ready within $up_timeout s (leader: ${leader:-none}; streaming, sync: ${replication:-?})" >&2
            echo "cluster.sh: logs in $ha_dir/{etcd.log,pg*/patroni.log}; run '$0 down' to clean up" >&2
            exit 1
        fi
        sleep 0.5
    done
    cmd_wait_healthy
    # The gateway's database (created on the leader; synchronous replication carries it to the replicas).
    psql_at "$(pg_port "$leader")" "SELECT 1 FROM pg_database WHERE datname = 'livegate'" | grep -q 1 ||
        psql_at "$(pg_port "$leader")" "CREATE DATABASE livegate" >/dev/null ||
        die "could not create the livegate database on $leader"
    # Synchronous commit waits for the standby's flush, not its replay: until each replica has replayed
    # it, a connection that tries that member first is refused ("database does not exist"), and libpq
    # does not go on to the next host after a refusal at startup.
    local member deadline=$((SECONDS + 30))
    for member in "${members[@]}"; do
        until psql_at "$(pg_port "$member")" "SELECT 1 FROM pg_database WHERE datname = 'livegate'" | grep -q 1; do
            [ "$SECONDS" -lt "$deadline" ] || die "the livegate database did not reach $member within 30 s"
            sleep 0.2
        done
    done
    echo "cluster up in $((SECONDS - started)) s: leader $leader (port $(pg_port "$leader")), folder $ha_dir" >&2
    urls
}

cmd_down() {
    [ -d "$ha_dir" ] || { echo "no cluster in $ha_dir" >&2; return 0; }
    local pids name pid
    pids=$(all_pids | sort -un)
    # Frozen processes first get SIGCONT, or they would never act on a signal but SIGKILL.
    if [ -n "$pids" ]; then
        kill -CONT $pids 2>/dev/null || true
    fi
    # Patroni stops its PostgreSQL on SIGTERM.
    local patronis=()
    for name in "${members[@]}"; do
        pid=$(patroni_pid "$name")
        if alive "$pid" "$ha_dir/$name/patroni.yml"; then
            patronis+=("$pid")
            kill -TERM "$pid" 2>/dev/null || true
        fi
    done
    if [ "${#patronis[@]}" -gt 0 ]; then
        wait_gone 20 "${patronis[@]}" || true
    fi
    # What is left (a postmaster whose Patroni was killed, anything slow): immediate shutdown, then SIGKILL.
    local pms=()
    for name in "${members[@]}"; do
        pid=$(postmaster_pid "$name")
        [ -n "$pid" ] && pms+=("$pid") && kill -QUIT "$pid" 2>/dev/null || true
    done
    if [ "${#pms[@]}" -gt 0 ]; then
        wait_gone 10 "${pms[@]}" || true
    fi
    pid=$(etcd_pid)
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null || true
        wait_gone 10 "$pid" || true
    fi
    pids=$(all_pids | sort -un)
    if [ -n "$pids" ]; then
        kill -CONT $pids 2>/dev/null || true
        kill -KILL $pids 2>/dev/null || true
        # shellcheck disable=SC2086
        wait_gone 10 $pids || true
    fi
    pids=$( (all_pids; pgrep -f -- "$ha_dir/" 2>/dev/null || true) | sort -un)
    if [ -n "$pids" ]; then
        die "processes left behind: $pids"
    fi
    # A killed postmaster leaves its System V shared memory segment behind: remove ours (nobody attached).
    for name in "${members[@]}"; do
        local shmid
        shmid=$(sed -n 7p "$ha_dir/$name/data/postmaster.pid" 2>/dev/null | awk '{print $2}' || true)
        if [ -n "$shmid" ] && ipcs -m -i "$shmid" 2>/dev/null | grep -q 'nattch=0'; then
            ipcrm -m "$shmid" 2>/dev/null || true
        fi
    done
    rm -rf "$ha_dir"
    echo "cluster down, $ha_dir removed" >&2
}

cmd_leader() {
    local line
    line=$(leader_line) || die "no leader (is the cluster up? try status)"
    echo "$line"
}

# One writable member, the leader Patroni names, the same for three looks in a row (Patroni's view and
# the members' can lag each other; a thawed old primary takes writes until its Patroni demotes it, and
# in synchronous mode those never commit). Prints `NAME PORT`; bounded by LIVEGATE_HA_TIMEOUT.
cmd_wait_primary() {
    local deadline=$((SECONDS + up_timeout)) name port seen=0 seen_leader="" writable member
    while [ "$SECONDS" -lt "$deadline" ]; do
        if read -r name port < <(leader_line 2>/dev/null); then
            # The members that take writes, by name.
            writable=""
            for member in "${members[@]}"; do
                [ "$(psql_at "$(pg_port "$member")" "SELECT NOT pg_is_in_recovery()" || true)" = t ] && writable+=" $member"
            done
            if [ "$writable" = " $name" ]; then
                if [ "$name" = "$seen_leader" ]; then seen=$((seen + 1)); else seen=1 seen_leader=$name; fi
                if [ "$seen" -ge 3 ]; then
                    echo "$name $port"
                    return 0
                fi
            else
                seen=0
            fi
        fi
        sleep 0.5
    done
    die "no single writable leader within $up_timeout s"
}

cmd_status() {
    [ -d "$ha_dir" ] || die "no cluster in $ha_dir"
    local name cfg=""
    for name in "${members[@]}"; do
        [ -f "$ha_dir/$name/patroni.yml" ] && cfg="$ha_dir/$name/patroni.yml" && break
    done
    # patronictl reads the members from etcd: it answers while a member is frozen or dead.
    timeout 20 env PYTHONNOUSERSITE=1 /usr/bin/python3 /usr/bin/patronictl -c "$cfg" list ||
        die "patronictl list failed"
    for name in "${members[@]}"; do
        local state="stopped" pid
        pid=$(patroni_pid "$name")
        if alive "$pid" "$ha_dir/$name/patroni.yml"; then
            state="running"
            [ "$(proc_state "$pid")" = T ] && state="frozen"
        fi
        echo "$name: patroni $state (pid ${pid:-none}), postmaster $(postmaster_pid "$name" || true)"
    done
}

cmd_kill_leader() {
    local name port pids
    read -r name port < <(leader_line) || die "no leader to kill"
    pids=$(member_pids "$name" | sort -un)
    [ -n "$pids" ] || die "leader $name has no process running"
    # Patroni, the postmaster and every PostgreSQL process at once, as when the machine dies.
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    # shellcheck disable=SC2086
    wait_gone 10 $pids || die "processes of $name survived SIGKILL"
    echo "$name $port"
}

cmd_freeze_leader() {
    local name port pm pids all="" round
    read -r name port < <(leader_line) || die "no leader to freeze"
    # Stop Patroni and the postmaster first (a stopped postmaster forks no new backend), then every child;
    # repeat until every process of the member is stopped.
    for round in 1 2 3 4 5 6 7 8 9 10; do
        pids=$(member_pids "$name" | sort -un)
        [ -n "$pids" ] || die "leader $name has no process running"
        pm=$(postmaster_pid "$name")
        kill -STOP $(patroni_pid "$name") $pm 2>/dev/null || true
        # shellcheck disable=SC2086
        kill -STOP $pids 2>/dev/null || true
        all=$(printf '%s\n' $all $pids | sort -un)
        local running=0 pid
        for pid in $(member_pids "$name" | sort -un); do
            [ "$(proc_state "$pid")" = T ] || running=1
        done
        [ "$running" -eq 0 ] && break
        sleep 0.1
    done
    printf '%s\n' $all >>"$ha_dir/frozen.pids"
    echo "$name" >>"$ha_dir/frozen.members"
    echo "$name $port"
}

cmd_thaw() {
    local pids
    pids=$(cat "$ha_dir/frozen.pids" 2>/dev/null || true)
    if [ -n "$pids" ]; then
        # shellcheck disable=SC2086
        kill -CONT $pids 2>/dev/null || true
    fi
    # Anything else of the cluster that is stopped too.
    local pid
    for pid in $(all_pids | sort -un); do
        [ "$(proc_state "$pid")" = T ] && kill -CONT "$pid" 2>/dev/null || true
    done
    echo "thawed: $(cat "$ha_dir/frozen.members" 2>/dev/null | sort -u | tr '\n' ' ')" >&2
    rm -f "$ha_dir/frozen.pids" "$ha_dir/frozen.members"
}

cmd_restart_member() {
    local name="${1:?restart-member needs a member name}"
    member_index "$name" >/dev/null
    [ -f "$ha_dir/$name/patroni.yml" ] || die "no member $name in $ha_dir"
    if alive "$(patroni_pid "$name")" "$ha_dir/$name/patroni.yml"; then
        die "member $name is running (thaw it if it is frozen)"
    fi
    local pm
    pm=$(postmaster_pid "$name")
    [ -z "$pm" ] || die "member $name's postmaster ($pm) still runs without its Patroni"
    start_member "$name"
    # Bounded wait until it is back as a streaming replica (after pg_rewind or a new base backup if needed).
    local deadline=$((SECONDS + up_timeout)) started=$SECONDS
    until [ "$(psql_at "$(pg_port "$name")" "SELECT status FROM pg_stat_wal_receiver" || true)" = streaming ]; do
        alive "$(patroni_pid "$name")" "$ha_dir/$name/patroni.yml" || die "Patroni member $name exited; see $ha_dir/$name/patroni.log"
        [ "$SECONDS" -lt "$deadline" ] || die "$name not streaming within $up_timeout s; see $ha_dir/$name/patroni.log"
        sleep 0.5
    done
    cmd_wait_healthy
    echo "$name rejoined as a streaming replica in $((SECONDS - started)) s (cluster has a synchronous standby)" >&2
}

command="${1:-}"
shift || true
case "$command" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    leader) cmd_leader ;;
    urls) urls ;;
    wait-healthy) cmd_wait_healthy ;;
    wait-primary) cmd_wait_primary ;;
    kill-leader) cmd_kill_leader ;;
    freeze-leader) cmd_freeze_leader ;;
    thaw) cmd_thaw ;;
    restart-member) cmd_restart_member "$@" ;;
    *)
        echo "usage: $0 [--dir DIR] up|down|status|leader|urls|wait-healthy|wait-primary|kill-leader|freeze-leader|thaw|restart-member NAME" >&2
        exit 2
        ;;
esac
