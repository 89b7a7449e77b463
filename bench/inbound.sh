#!/usr/bin/env bash
# Load benchmark of the inbound write path (issue 15): POST /api/app/usage with an employee-app
# key at 32 connections (wrk), each request a different employee and its own x-requestid, so the
# write, the maintained counts (migration 7's triggers) and the idempotency record are all paid,
# while a second wrk reads a staff list (GET usageHistory, first page with its total) at 4
# connections. Prints Markdown table rows for docs/performance.md.
# Usage: bench/inbound.sh [seconds]; PERKDESK_BENCH_BIN=path uses that binary instead of building
# the release one (a debug binary only checks that the script works; its figures mean nothing).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-15}"
EMPLOYEES="${BENCH_EMPLOYEES:-10000}"

. bench/lib.sh
need_wrk
BIN=$(bench_binary)
WORK=bench/.tmp
mkdir -p "$WORK"
DB="$WORK/bench-inbound-$$.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
create_bench_admin "$BIN" "$DB"

seed_inbound_world "$DB" "$EMPLOYEES"
KEY=$("$BIN" api-client create --db "$DB" --name bench --kind employee-app --rate-limit 1000000 | grep '^pk_')

start_server "$BIN" "$DB"
trap 'kill $SERVER 2>/dev/null || true; rm -f "$DB" "$DB-wal" "$DB-shm"' EXIT
TOKEN=$(sign_in "$BIN" "$DB")

cat >"$WORK/usage.lua" <<LUA
-- Each wrk thread has its own Lua state: the thread's number keeps request ids apart.
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("tid", threads)
end
function init(args)
    math.randomseed(os.time() * 100 + tid)
end
local counter = 0
local employees = $EMPLOYEES
request = function()
    counter = counter + 1
    local body = string.format('{"employeeEmail":"e%d@bench.az","campaignId":1,"rating":5}', math.random(0, employees - 1))
    local headers = {
        ["Authorization"] = "Bearer $KEY",
        ["Content-Type"] = "application/json",
        ["x-requestid"] = string.format("bench-%d-%d", tid, counter),
    }
    return wrk.format("POST", "/api/app/usage", headers, body)
end
LUA

row() { printf '| %s | %s |\n' "$1" "$(wrk_cells "$2")"; }

wrk -t1 -c4 -d"${DURATION}s" --latency -H "Authorization: Bearer $TOKEN" \
    "http://127.0.0.1:$PORT/api/usageHistory?Skip=0&Take=10" >"$WORK/reads.txt" &
READER=$!
WRITES=$(wrk -t2 -c32 -d"${DURATION}s" --latency -s "$WORK/usage.lua" "http://127.0.0.1:$PORT")
wait $READER
echo
echo '| load | req/s | p50 | p99 | non-2xx |'
echo '| --- | --- | --- | --- | --- |'
row 'POST /api/app/usage, 32 connections' "$WRITES"
row 'GET /api/usageHistory first page, 4 connections, at the same time' "$(cat "$WORK/reads.txt")"
python3 - "$DB" <<'PY'
import sys
sys.path.insert(0, "scripts")
import perkdesk_sqlite
db = perkdesk_sqlite.connect(sys.argv[1])
rows = db.execute("SELECT COUNT(*) FROM usage_history").fetchone()[0]
stored = db.execute("SELECT COUNT(*) FROM idempotency_keys WHERE session_id LIKE 'api-client:%'").fetchone()[0]
month = db.execute("SELECT COALESCE(SUM(n), 0) FROM usage_month_counts").fetchone()[0]
print(f"\n{rows:,} uses written, {stored:,} x-requestid answers stored, the maintained month counts sum to {month:,}.")
assert rows == stored == month, "every use has its stored answer and is counted"
PY
