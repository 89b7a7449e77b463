#!/usr/bin/env bash
# How near a list comes to the server's own ceiling (issue 43): the usage list's first page with
# its total (GET /api/usageHistory?Skip=0&Take=10), then the authenticated profile call
# (GET /api/auth/profile), the cheapest call that still signs the request in, each at 64
# connections, one after the other on the same server, for several rounds. Prints each round and
# the median of the list's rate over the profile call's. The world is bench/inbound.sh's (10,000
# employees) with that many uses recorded through the API first, so the page reads real rows.
# Usage: bench/list_ceiling.sh [seconds-per-run] [rounds]; PERKDESK_BENCH_BIN=path uses that
# binary; BENCH_POSTGRES=postgres://user@host:port/any-database runs it on PostgreSQL (the world is
# moved to a database perkdesk_bench_lists made anew there).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-5}"
ROUNDS="${2:-5}"
EMPLOYEES=10000

. bench/lib.sh
need_wrk
BIN=$(bench_binary)
WORK=bench/.tmp
mkdir -p "$WORK"
DB="$WORK/bench-lists-$$.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
trap 'kill ${SERVER:-} 2>/dev/null || true; rm -f "$DB" "$DB-wal" "$DB-shm"' EXIT
create_bench_admin "$BIN" "$DB"
seed_inbound_world "$DB" "$EMPLOYEES"
KEY=$("$BIN" api-client create --db "$DB" --name bench --kind employee-app --rate-limit 1000000 | grep '^pk_')

TARGET="$DB"
if [ -n "${BENCH_POSTGRES:-}" ]; then
    psql "$BENCH_POSTGRES" -qc "DROP DATABASE IF EXISTS perkdesk_bench_lists" -c "CREATE DATABASE perkdesk_bench_lists"
    TARGET="${BENCH_POSTGRES%/*}/perkdesk_bench_lists"
    "$BIN" copy-to-postgres --from "$DB" --to "$TARGET" >/dev/null
fi
start_server "$BIN" "$TARGET"
TOKEN=$(sign_in "$BIN" "$TARGET")

# Some thousands of uses, so that the list's page holds rows as the inbound bench writes them.
cat >"$WORK/lists-usage.lua" <<LUA
local counter = 0
request = function()
    counter = counter + 1
    local body = string.format('{"employeeEmail":"e%d@bench.az","campaignId":1,"rating":5}', counter % $EMPLOYEES)
    return wrk.format("POST", "/api/app/usage", {["Authorization"] = "Bearer $KEY", ["Content-Type"] = "application/json"}, body)
end
LUA
wrk -t1 -c8 -d2s -s "$WORK/lists-usage.lua" "http://127.0.0.1:$PORT" >/dev/null
# The usage table was empty when copied: on PostgreSQL, the statistics autovacuum would gather
# after those writes, or its page is read by sorting every row (half the list's rate).
settled_statistics "$TARGET"

rate() { wrk -t2 -c64 -d"${DURATION}s" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT$1" | awk '/Requests\/sec/ {print $2}'; }
LIST='/api/usageHistory?Skip=0&Take=10'
rate "$LIST" >/dev/null # warm: the pool's connections, the kept statements
echo "Host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the start; $(date -u +%F); $("$BIN" --version 2>/dev/null || basename "$BIN")."
echo
echo '| round | usage list with total, req/s | profile call, req/s | list / profile |'
echo '| --- | --- | --- | --- |'
RATIOS=()
for round in $(seq "$ROUNDS"); do
    list=$(rate "$LIST")
    profile=$(rate /api/auth/profile)
    ratio=$(python3 -c "print(f'{$list / $profile:.2f}')")
    RATIOS+=("$ratio")
    printf '| %s | %s | %s | %s |\n' "$round" "$list" "$profile" "$ratio"
done
echo
echo "Median list / profile over $ROUNDS rounds: $(printf '%s\n' "${RATIOS[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')."
