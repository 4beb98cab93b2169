# Sourced, not run: a throwaway PostgreSQL cluster for the tests.
#   goald_pg_start  makes a cluster in a temp directory (as an unprivileged user: initdb refuses root), starts it
#                   on a free 127.0.0.1 port with a random password and exports GOALD_TEST_POSTGRES_URL.
#   goald_pg_stop   stops it and removes the directory; safe to call twice or after a failed start.

goald_pg_bin() {
    local tool=$1 candidate
    if command -v "$tool" >/dev/null 2>&1; then
        command -v "$tool"
        return 0
    fi
    candidate=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$candidate" ] && [ -x "$candidate/$tool" ]; then
        echo "$candidate/$tool"
        return 0
    fi
    echo "goald_pg: $tool not found (install PostgreSQL's server: apt-get install postgresql)" >&2
    return 1
}

# Runs a command as the cluster's owner: goaldci when we are root, else ourselves.
goald_pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u goaldci -- "$@"
    else
        "$@"
    fi
}

goald_pg_start() {
    local initdb pg_ctl port password
    initdb=$(goald_pg_bin initdb) || return 1
    pg_ctl=$(goald_pg_bin pg_ctl) || return 1
    if [ "$(id -u)" -eq 0 ] && ! id goaldci >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin goaldci || return 1
    fi
    GOALD_PG_DIR=$(mktemp -d /tmp/goald-pg.XXXXXX) || return 1
    export GOALD_PG_DIR
    if [ "$(id -u)" -eq 0 ]; then chown goaldci "$GOALD_PG_DIR"; fi
    password=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
    printf '%s\n' "$password" > "$GOALD_PG_DIR/pwfile"
    if [ "$(id -u)" -eq 0 ]; then chown goaldci "$GOALD_PG_DIR/pwfile"; fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    if ! goald_pg_as_owner "$initdb" -D "$GOALD_PG_DIR/data" -U goald --pwfile="$GOALD_PG_DIR/pwfile" \
        --auth=scram-sha-256 --encoding=UTF8 --locale=C > "$GOALD_PG_DIR/initdb.log" 2>&1; then
        echo "goald_pg: initdb failed:" >&2
        tail -n 20 "$GOALD_PG_DIR/initdb.log" >&2
        return 1
    fi
    rm -f "$GOALD_PG_DIR/pwfile"
    # fsync stays on: the tests rely on durable commits. 300 connections: parallel tests each open a few.
    if ! goald_pg_as_owner "$pg_ctl" -D "$GOALD_PG_DIR/data" -w -t 60 -l "$GOALD_PG_DIR/postgres.log" \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $GOALD_PG_DIR -c max_connections=300 -c shared_buffers=64MB" \
        start > /dev/null; then
        echo "goald_pg: the server did not start:" >&2
        tail -n 30 "$GOALD_PG_DIR/postgres.log" >&2
        return 1
    fi
    GOALD_TEST_POSTGRES_URL="postgres://goald:$password@127.0.0.1:$port/postgres"
    export GOALD_TEST_POSTGRES_URL
    if command -v psql >/dev/null 2>&1 && ! psql "$GOALD_TEST_POSTGRES_URL" -qAtc 'select 1' > /dev/null; then
        echo "goald_pg: the server does not answer:" >&2
        tail -n 30 "$GOALD_PG_DIR/postgres.log" >&2
        return 1
    fi
    echo "$("$pg_ctl" --version) running on 127.0.0.1:$port (data in $GOALD_PG_DIR)"
}

goald_pg_stop() {
    [ -n "${GOALD_PG_DIR:-}" ] || return 0
    if [ -d "$GOALD_PG_DIR/data" ]; then
        local pg_ctl
        pg_ctl=$(goald_pg_bin pg_ctl 2>/dev/null) && goald_pg_as_owner "$pg_ctl" -D "$GOALD_PG_DIR/data" -m fast -w stop \
            > /dev/null 2>&1
    fi
    rm -rf "$GOALD_PG_DIR"
    unset GOALD_PG_DIR GOALD_TEST_POSTGRES_URL
}
