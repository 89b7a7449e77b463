#!/usr/bin/env bash
# The cluster's figures side by side in one run (issue 43): the inbound write as bench/inbound.sh
# does it (each request a use by a random one of 10,000 employees with its own x-requestid) at 32
# and 128 connections on SQLite, and on PostgreSQL with 1, 2 and 4 app servers sharing the
# connections; then the usage list with its total (first page) at 64 connections on each engine,
# on the same rows (BENCH_USAGE usage records, 100,000 by default, moved to PostgreSQL with
# copy-to-postgres). Every write run also checks that each use has its stored answer and is
# counted. Prints one Markdown table for docs/performance.md.
# Usage: bench/cluster.sh postgres://user@host:port/any-database [seconds-per-run]
# (databases perkdesk_bench_inbound and perkdesk_cluster_lists are made anew on that server; four
# app servers take their shares of serve --postgres-connections, 8 by default, and five more each for
# their claims and counts).
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER_URL="${1:?usage: bench/cluster.sh postgres://user@host:port/database [seconds]}"
DURATION="${2:-8}"
USAGE="${BENCH_USAGE:-100000}"

. bench/lib.sh
need_wrk
BIN=$(bench_binary)
export PERKDESK_BENCH_BIN="$BIN"
WORK=bench/.tmp
mkdir -p "$WORK"

echo "Host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the start; $(date -u +%F); ${DURATION} s a run."
echo
echo '| engine | app servers | load | req/s | p50 | p99 | non-2xx |'
echo '| --- | --- | --- | --- | --- | --- | --- |'

# One write run: its row, relabelled, and its check that every use was answered, stored and counted.
writes() {
    local engine="$1" servers="$2" connections="$3" out row
    if [ "$engine" = SQLite ]; then
        out=$(BENCH_CONNECTIONS=$connections bench/inbound.sh "$DURATION")
    else
        out=$(BENCH_POSTGRES="$SERVER_URL" BENCH_SERVERS=$servers BENCH_CONNECTIONS=$connections bench/inbound.sh "$DURATION")
    fi
    row=$(grep '^| POST /api/app/usage' <<<"$out" | cut -d'|' -f3-)
    grep -q 'uses written' <<<"$out" || { echo "$out" >&2; return 1; }
    printf '| %s | %s | POST /api/app/usage, %s connections |%s\n' "$engine" "$servers" "$connections" "$row"
}
for connections in 32 128; do
    writes SQLite 1 "$connections"
    for servers in 1 2 4; do
        writes PostgreSQL "$servers" "$connections"
    done
done

# The usage list with its total, the same rows on both engines, one server each.
DB=$(list_bench_database "$BIN" 1000 "$USAGE")
PG="${SERVER_URL%/*}/perkdesk_cluster_lists"
psql "$SERVER_URL" -qc "DROP DATABASE IF EXISTS perkdesk_cluster_lists" -c "CREATE DATABASE perkdesk_cluster_lists"
"$BIN" copy-to-postgres --from "$DB" --to "$PG" >/dev/null
LIST="/api/usageHistory?Skip=0&Take=10"
ALL=""
trap 'kill $ALL 2>/dev/null || true' EXIT
# One list run on one engine: 2 s of the same reads first, as bench/list_ceiling.sh does (the pool's
# connections opened, the statements prepared and, on PostgreSQL, planned for good), then the run.
list_row() {
    local engine="$1" target="$2" out
    start_server "$BIN" "$target"
    ALL="$ALL $SERVER"
    TOKEN=$(sign_in "$BIN" "$target")
    wrk -t2 -c64 -d2s -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT$LIST" >/dev/null
    out=$(wrk -t2 -c64 -d"${DURATION}s" --latency -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT$LIST")
    printf '| %s | 1 | GET %s, 64 connections | %s |\n' "$engine" "$LIST" "$(wrk_cells "$out")"
    kill "$SERVER"
}
list_row SQLite "$DB"
list_row PostgreSQL "$PG"
echo
echo "Every write run: each use written has its stored x-requestid answer and is in the maintained counts."
