#!/usr/bin/env bash
# PostgreSQL's own ceiling on this host for what perkdesk asks of it (issue 43): the statements one
# inbound use and one usage list (first page with its total) send, replayed by pgbench, whose
# client costs next to nothing, with no app server in between. Each is run twice: every statement
# its own round trip (`-M prepared`), and all of a request's statements in one pipeline (the
# fewest round trips anything could send them in). The use runs at 32 clients on the world
# bench/inbound.sh seeds (10,000 employees, a random one each time), the list at 64 on
# bench/cluster.sh's list database (BENCH_USAGE rows, 100,000 by default). bench/cluster.sh's
# figures through the app server are then read against these.
# The statements (bench/ceiling/use.sql, list.sql) were taken from PostgreSQL's statement log
# (log_statement = all) while the release binary of daacbe1 served one use and one list, values
# written in; the use's employee and x-requestid are drawn anew for each transaction.
# Usage: bench/pg_ceiling.sh postgres://user@host:port/any-database [seconds-per-run]
# (databases perkdesk_bench_inbound and perkdesk_cluster_lists are made anew on that server).
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER_URL="${1:?usage: bench/pg_ceiling.sh postgres://user@host:port/database [seconds]}"
DURATION="${2:-8}"
USAGE="${BENCH_USAGE:-100000}"
PGBENCH=$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -1)
[ -x "$PGBENCH" ] || { echo "pgbench is needed (Debian: postgresql-contrib or the server package)" >&2; exit 1; }

. bench/lib.sh
BIN=$(bench_binary)
WORK=bench/.tmp
mkdir -p "$WORK"

# The two databases, as the app server benches make them.
DB="$WORK/bench-ceiling-$$.db"
trap 'rm -f "$DB" "$DB-wal" "$DB-shm"' EXIT
create_bench_admin "$BIN" "$DB"
seed_inbound_world "$DB" 10000
USES="${SERVER_URL%/*}/perkdesk_bench_inbound"
psql "$SERVER_URL" -qc "DROP DATABASE IF EXISTS perkdesk_bench_inbound" -c "CREATE DATABASE perkdesk_bench_inbound"
"$BIN" copy-to-postgres --from "$DB" --to "$USES" >/dev/null
LISTS="${SERVER_URL%/*}/perkdesk_cluster_lists"
psql "$SERVER_URL" -qc "DROP DATABASE IF EXISTS perkdesk_cluster_lists" -c "CREATE DATABASE perkdesk_cluster_lists"
"$BIN" copy-to-postgres --from "$(list_bench_database "$BIN" 1000 "$USAGE")" --to "$LISTS" >/dev/null

# pipelined FILE: FILE's statements after its \set lines in one pipeline.
pipelined() {
    grep '^\\set' "$1" || true
    echo '\startpipeline'
    grep -v '^\\set' "$1"
    echo '\endpipeline'
}
pipelined bench/ceiling/use.sql >"$WORK/use-pipelined.sql"
pipelined bench/ceiling/list.sql >"$WORK/list-pipelined.sql"

# run NAME CLIENTS FILE DATABASE: one table row.
run() {
    local out
    out=$("$PGBENCH" -n -M prepared -c "$2" -j 2 -T "$DURATION" -f "$3" "$4" 2>&1)
    printf '| %s | %s | %.0f | %s |\n' "$1" "$2" \
        "$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")" "$(sed -n 's/^latency average = //p' <<<"$out")"
}
echo "Host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the start; $(date -u +%F); ${DURATION} s a run; $("$PGBENCH" --version)."
echo
echo '| PostgreSQL alone, pgbench | clients | per second | mean latency |'
echo '| --- | --- | --- | --- |'
run 'a use, a round trip a statement' 32 bench/ceiling/use.sql "$USES"
run 'a use, one pipeline' 32 "$WORK/use-pipelined.sql" "$USES"
run 'a list, a round trip a statement' 64 bench/ceiling/list.sql "$LISTS"
run 'a list, one pipeline' 64 "$WORK/list-pipelined.sql" "$LISTS"
