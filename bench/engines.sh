#!/usr/bin/env bash
# SQLite and PostgreSQL side by side on the same rows (issue 24): the bench database of
# scripts/bench (100,000 users, 1,000,000 usage-history rows) is moved to PostgreSQL with
# `perkdesk copy-to-postgres`; every list total, dashboard and report figure is read from a server
# on each and compared (bench/copy_parity.py); then the read cases run on SQLite, on PostgreSQL
# with one app server, and on PostgreSQL with two (each taking half of the connections). The
# inbound writes' side by side is bench/inbound.sh with BENCH_POSTGRES and BENCH_SERVERS.
# Usage: bench/engines.sh postgres://user@host:port/any-database [seconds-per-run]
# (a database perkdesk_engines is made anew on that server).
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER_URL="${1:?usage: bench/engines.sh postgres://user@host:port/database [seconds]}"
DURATION="${2:-10}"
USERS="${BENCH_USERS:-100000}"
USAGE="${BENCH_USAGE:-1000000}"

. bench/lib.sh
need_wrk
BIN=$(bench_binary)
WORK=bench/.tmp
mkdir -p "$WORK"
DB=$(list_bench_database "$BIN" "$USERS" "$USAGE")
PG="${SERVER_URL%/*}/perkdesk_engines"
psql "$SERVER_URL" -qc "DROP DATABASE IF EXISTS perkdesk_engines" -c "CREATE DATABASE perkdesk_engines"

echo "Host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the start; $(date -u +%F)."
START=$(date +%s%N)
"$BIN" copy-to-postgres --from "$DB" --to "$PG" | tail -1
echo "copy-to-postgres: $(( ($(date +%s%N) - START) / 1000000000 )) s for $(du -h "$DB" | cut -f1) of SQLite."

start_server "$BIN" "$DB"
SQLITE_PORT=$PORT ALL="$SERVER"
trap 'kill $ALL 2>/dev/null || true' EXIT
SQLITE_TOKEN=$(sign_in "$BIN" "$DB")
start_server "$BIN" "$PG"
PG_PORT=$PORT ALL="$ALL $SERVER"
PG_TOKEN=$(sign_in "$BIN" "$PG")
start_server "$BIN" "$PG"
PG2_PORT=$PORT ALL="$ALL $SERVER"
echo
python3 bench/copy_parity.py "http://127.0.0.1:$SQLITE_PORT" "$SQLITE_TOKEN" "http://127.0.0.1:$PG_PORT" "$PG_TOKEN"

# One row: the case on SQLite, on PostgreSQL with one app server, and with two.
side_by_side() {
    local label="$1" path="$2" one two pair
    PORT=$SQLITE_PORT TOKEN=$SQLITE_TOKEN
    one=$(wrk -t2 -c32 -d"${DURATION}s" --latency -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT$path")
    local sqlite_cells pg_cells pair_cells
    sqlite_cells=$(wrk_cells "$one")
    one=$(wrk -t2 -c32 -d"${DURATION}s" --latency -H "Authorization: Bearer $PG_TOKEN" "http://127.0.0.1:$PG_PORT$path")
    pg_cells=$(wrk_cells "$one")
    wrk -t1 -c16 -d"${DURATION}s" --latency -H "Authorization: Bearer $PG_TOKEN" "http://127.0.0.1:$PG2_PORT$path" >"$WORK/pair2.txt" &
    pair=$!
    wrk -t1 -c16 -d"${DURATION}s" --latency -H "Authorization: Bearer $PG_TOKEN" "http://127.0.0.1:$PG_PORT$path" >"$WORK/pair1.txt"
    wait $pair
    pair_cells=$(wrk_cells "$(python3 bench/wrk_pair.py "$WORK/pair1.txt" "$WORK/pair2.txt")")
    printf '| %s | `%s` | %s | %s | %s |\n' "$label" "$path" "$sqlite_cells" "$pg_cells" "$pair_cells"
}

echo
echo "wrk at 32 connections, ${DURATION} s per run; with two app servers, 16 on each (req/s summed, p50/p99 the slower)."
echo
echo '| case | request | SQLite req/s | p50 | p99 | non-2xx | PostgreSQL, 1 server req/s | p50 | p99 | non-2xx | PostgreSQL, 2 servers req/s | p50 | p99 | non-2xx |'
echo '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'
side_by_side "first page with total" "/api/user?Skip=0&Take=10&SortField=lastName&OrderBy=true"
side_by_side "substring search with total" "/api/user/filter?Skip=0&Take=10&Email=user4242"
side_by_side "usage: campaign-name substring with total" "/api/usageHistory/filter?Skip=0&Take=10&SortField=createdDate&OrderBy=false&CampaignName=199"
side_by_side "page 5000 with total" "/api/user?Skip=50000&Take=10&SortField=email&OrderBy=false"
side_by_side "dashboard" "/api/dashboard"
echo
echo "Load at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
