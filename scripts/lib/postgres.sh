# Functions to run a private PostgreSQL cluster for LiveGate's scripts. Source this file.
#
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user and every
# server command runs through runuser; as any other user it runs as that user.

pg_bin_dir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$dir" ]; then
        echo "PostgreSQL server binaries not found under /usr/lib/postgresql" >&2
        return 1
    fi
    echo "$dir"
}

pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# pg_start DATA_DIR PORT [extra postgres -c settings...]
# Creates the cluster on first use (trust auth, loopback only), then starts it and waits until it answers.
pg_start() {
    local data_dir="$1" port="$2"
    shift 2
    local bin
    bin=$(pg_bin_dir)
    mkdir -p "$data_dir"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres:postgres "$data_dir"
        chmod 700 "$data_dir"
        if ! runuser -u postgres -- test -w "$data_dir"; then
            echo "the postgres user cannot reach $data_dir (a parent folder is closed to it)" >&2
            return 1
        fi
    fi
    if [ ! -f "$data_dir/PG_VERSION" ]; then
        pg_as_owner "$bin/initdb" -D "$data_dir" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    fi
    local options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$data_dir"
    for setting in "$@"; do
        options="$options -c $setting"
    done
    pg_as_owner "$bin/pg_ctl" -D "$data_dir" -o "$options" -l "$data_dir/server.log" -w -t 60 start >/dev/null
}

pg_stop() {
    local data_dir="$1"
    local bin
    bin=$(pg_bin_dir)
    if [ -f "$data_dir/postmaster.pid" ]; then
        pg_as_owner "$bin/pg_ctl" -D "$data_dir" -m fast -w stop >/dev/null || true
    fi
}

# A TCP port on 127.0.0.1 that nothing listens on right now.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# pg_start_for_tests DATA_DIR
# Starts the tests' server on a free port (durability is not under test; many tests run at once, each
# with a database of its own) and exports LIVEGATE_TEST_PG for the test runner.
pg_start_for_tests() {
    local data_dir="$1" port
    port=$(free_port)
    pg_start "$data_dir" "$port" fsync=off synchronous_commit=off full_page_writes=off max_connections=400
    export LIVEGATE_TEST_PG="host=127.0.0.1 port=$port user=postgres"
}
