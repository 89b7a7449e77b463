# Sourced by ./scripts/test: a throwaway PostgreSQL cluster for the checks that run on that engine.
# Debian's server (installed when missing), run as the `postgres` user from a temporary folder on a
# free loopback port; stopped and removed when the script exits. Sets PERKDESK_TEST_POSTGRES.

postgres_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

stop_test_postgres() {
    if [ -n "${PERKDESK_PG_DIR:-}" ] && [ -d "$PERKDESK_PG_DIR" ]; then
        as_postgres "$(postgres_bin)/pg_ctl" -D "$PERKDESK_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
        as_root rm -rf "$PERKDESK_PG_DIR"
    fi
}

start_test_postgres() {
    local bin port
    bin="$(postgres_bin)"
    PERKDESK_PG_DIR="$(mktemp -d /tmp/perkdesk-pg.XXXXXX)"
    chmod 755 "$PERKDESK_PG_DIR"
    as_root chown postgres "$PERKDESK_PG_DIR"
    trap stop_test_postgres EXIT
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    as_postgres "$bin/initdb" -D "$PERKDESK_PG_DIR/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
    as_postgres "$bin/pg_ctl" -D "$PERKDESK_PG_DIR/data" -l "$PERKDESK_PG_DIR/log" -w \
        -o "-p $port -k $PERKDESK_PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null
    export PERKDESK_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres"
    echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($PERKDESK_PG_DIR)"
}

# Creates an empty database on the throwaway server and prints its URL.
create_test_database() {
    "$(postgres_bin)/psql" "$PERKDESK_TEST_POSTGRES" -qc "CREATE DATABASE $1" >/dev/null
    echo "${PERKDESK_TEST_POSTGRES%/*}/$1"
}
