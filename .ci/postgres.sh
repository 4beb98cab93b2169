# shellcheck shell=bash
# Sourced, not run: a throwaway PostgreSQL cluster for the tests.
#   goald_pg_start  makes a cluster in a temp directory (as an unprivileged user: initdb refuses root), starts it
#                   on a free 127.0.0.1 port with a random password and exports GOALD_TEST_POSTGRES_URL (and
#                   GOALD_PG_DIR, the directory: its postgres.log is the server's log).
#   goald_pg_stop   stops it and removes the directory; safe to call twice, after a failed start, or from a trap.

# The cluster this shell made (not exported: a GOALD_PG_DIR inherited from an outer cluster is never removed here).
_goald_pg_dir=""

goald_pg_bin() {
    local tool=$1 dir newest=""
    if command -v "$tool" >/dev/null 2>&1; then
        command -v "$tool"
        return 0
    fi
    for dir in /usr/lib/postgresql/*/bin; do
        [ -x "$dir/$tool" ] && newest=$(printf '%s\n%s\n' "$newest" "$dir" | sort -V | tail -n 1)
    done
    if [ -n "$newest" ]; then
        echo "$newest/$tool"
        return 0
    fi
    echo "goald_pg: $tool not found (install PostgreSQL's server: apt-get install postgresql)" >&2
    return 1
}

# Runs a command as the cluster's owner (goaldci when we are root, else ourselves), from / so that a working
# directory goaldci may not enter (a clone under /root) does not matter.
goald_pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd / && runuser -u goaldci -- "$@")
    else
        (cd / && "$@")
    fi
}

goald_pg_start() {
    local initdb pg_ctl psql port password attempt server
    initdb=$(goald_pg_bin initdb) || return 1
    pg_ctl=$(goald_pg_bin pg_ctl) || return 1
    goald_pg_bin postgres >/dev/null || return 1
    psql=$(goald_pg_bin psql) || return 1
    if [ "$(id -u)" -eq 0 ] && ! id goaldci >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin goaldci || return 1
    fi
    # /tmp, not $TMPDIR: the socket's path must stay under the kernel's 107 bytes.
    _goald_pg_dir=$(mktemp -d /tmp/goald-pg.XXXXXX) || return 1
    GOALD_PG_DIR=$_goald_pg_dir
    export GOALD_PG_DIR
    password=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
    (umask 077 && printf '%s\n' "$password" > "$GOALD_PG_DIR/pwfile") || return 1
    if [ "$(id -u)" -eq 0 ]; then chown goaldci "$GOALD_PG_DIR" "$GOALD_PG_DIR/pwfile" || return 1; fi
    if ! goald_pg_as_owner "$initdb" -D "$GOALD_PG_DIR/data" -U goald --pwfile="$GOALD_PG_DIR/pwfile" \
        --auth=scram-sha-256 --encoding=UTF8 --locale=C > "$GOALD_PG_DIR/initdb.log" 2>&1; then
        echo "goald_pg: initdb failed:" >&2
        tail -n 20 "$GOALD_PG_DIR/initdb.log" >&2
        return 1
    fi
    rm -f "$GOALD_PG_DIR/pwfile"
    # fsync stays on: the tests rely on durable commits. 300 connections: parallel tests each open a few.
    # The free port is picked before the server binds it, so another process may take it first: then a new port.
    for attempt in 1 2 3; do
        port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()') ||
            return 1
        rm -f "$GOALD_PG_DIR/postgres.log"
        if goald_pg_as_owner "$pg_ctl" -D "$GOALD_PG_DIR/data" -w -t 60 -l "$GOALD_PG_DIR/postgres.log" \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $GOALD_PG_DIR -c max_connections=300 -c shared_buffers=64MB" \
            start > "$GOALD_PG_DIR/pg_ctl.log" 2>&1; then
            break
        fi
        if [ "$attempt" -lt 3 ] && grep -q 'could not bind' "$GOALD_PG_DIR/postgres.log" 2>/dev/null; then
            goald_pg_as_owner "$pg_ctl" -D "$GOALD_PG_DIR/data" -m immediate -w stop > /dev/null 2>&1
            echo "goald_pg: port $port was taken, trying another" >&2
            continue
        fi
        echo "goald_pg: the server did not start:" >&2
        tail -n 5 "$GOALD_PG_DIR/pg_ctl.log" >&2
        tail -n 30 "$GOALD_PG_DIR/postgres.log" >&2
        return 1
    done
    GOALD_TEST_POSTGRES_URL="postgres://goald:$password@127.0.0.1:$port/postgres"
    export GOALD_TEST_POSTGRES_URL
    if ! server=$("$psql" "$GOALD_TEST_POSTGRES_URL" -qAt -c 'select version()' 2>&1); then
        echo "goald_pg: the server does not answer: $server" >&2
        tail -n 30 "$GOALD_PG_DIR/postgres.log" >&2
        return 1
    fi
    echo "goald_pg: ${server%% on *} running on 127.0.0.1:$port as $(goald_pg_as_owner id -un) (data and log in $GOALD_PG_DIR)"
}

goald_pg_stop() {
    local dir=$_goald_pg_dir pg_ctl
    [ -n "$dir" ] || return 0
    if [ -f "$dir/data/postmaster.pid" ] && pg_ctl=$(goald_pg_bin pg_ctl 2>/dev/null); then
        goald_pg_as_owner "$pg_ctl" -D "$dir/data" -m fast -w -t 30 stop > /dev/null 2>&1 ||
            goald_pg_as_owner "$pg_ctl" -D "$dir/data" -m immediate -w stop > /dev/null 2>&1
    fi
    rm -rf "$dir"
    _goald_pg_dir=""
    [ "${GOALD_PG_DIR:-}" != "$dir" ] || unset GOALD_PG_DIR GOALD_TEST_POSTGRES_URL
    return 0
}
