#!/usr/bin/env bash
# Load benchmark of the inbound write path (issue 15): POST /api/app/usage with an employee-app
# key at 32 connections (wrk), each request a different employee and its own x-requestid, so the
# write, the maintained counts (migration 7's triggers) and the idempotency record are all paid,
# while a second wrk reads a staff list (GET usageHistory, first page with its total) at 4
# connections. Prints Markdown table rows for docs/performance.md.
# Usage: bench/inbound.sh [seconds]; PERKDESK_BENCH_BIN=path uses that binary instead of building
# the release one (a debug binary only checks that the script works; its figures mean nothing).
# BENCH_POSTGRES=postgres://user@host:port/any-database runs it on PostgreSQL instead (the world
# seeded in SQLite is moved to a database perkdesk_bench_inbound made anew there with
# copy-to-postgres), and BENCH_SERVERS=N with it starts N app servers, each taking its share of the
# connections (req/s summed, p50 and p99 the slowest server's). BENCH_CONNECTIONS sets the writers'
# connections (32 by default). BENCH_LIMITS=1 gives the campaign
# limits that every use checks and none reaches (issue 41: 10,000,000 uses in all, 1,000 per
# employee a day), to compare with a run without them. BENCH_WEBHOOK=1 adds an endpoint listening
# for usage.created at a loopback receiver (bench/webhook_receiver.mjs): every use also writes its
# outbox message, and the server sends them beside the load (issue 42); the figures after the
# table say how many were delivered by the end of the run and how long the rest took
# (BENCH_WEBHOOK_URL points the endpoint elsewhere, e.g. a closed port, to compare). Each run is
# measured after BENCH_WARMUP seconds (3 by default; 0 for none) of the same writes (below).
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
if [ "${BENCH_LIMITS:-0}" = 1 ]; then give_bench_limits "$DB"; fi
KEY=$("$BIN" api-client create --db "$DB" --name bench --kind employee-app --rate-limit 1000000 | grep '^pk_')

SERVERS="${BENCH_SERVERS:-1}"
CONNECTIONS="${BENCH_CONNECTIONS:-32}"
if [ -n "${BENCH_POSTGRES:-}" ]; then
    psql "$BENCH_POSTGRES" -qc "DROP DATABASE IF EXISTS perkdesk_bench_inbound" -c "CREATE DATABASE perkdesk_bench_inbound"
    TARGET="${BENCH_POSTGRES%/*}/perkdesk_bench_inbound"
    "$BIN" copy-to-postgres --from "$DB" --to "$TARGET" >/dev/null
else
    TARGET="$DB"
    [ "$SERVERS" = 1 ] || { echo "BENCH_SERVERS above 1 needs BENCH_POSTGRES" >&2; exit 1; }
fi
if [ "${BENCH_WEBHOOK:-0}" = 1 ]; then start_webhook_receiver; fi
start_server "$BIN" "$TARGET"
PORTS=("$PORT")
SERVER_PIDS="$SERVER"
FIRST_PORT=$PORT
for _ in $(seq 2 "$SERVERS"); do
    start_server "$BIN" "$TARGET"
    PORTS+=("$PORT")
    SERVER_PIDS="$SERVER_PIDS $SERVER"
done
PORT=$FIRST_PORT
trap 'kill $SERVER_PIDS ${RECEIVER:-} 2>/dev/null || true; rm -f "$DB" "$DB-wal" "$DB-shm"' EXIT
# The servers count each other at their start and every ten seconds after (each then takes its
# share of the connections, serve --postgres-connections): the first ones learn of the last within
# ten seconds.
if [ "$SERVERS" -gt 1 ]; then sleep 11; fi
TOKEN=$(sign_in "$BIN" "$TARGET")
if [ "${BENCH_WEBHOOK:-0}" = 1 ]; then
    curl -sf -o /dev/null -X POST "http://127.0.0.1:$PORT/api/webhook" -H "Authorization: Bearer $TOKEN" \
        -H 'content-type: application/json' \
        -d "{\"url\":\"${BENCH_WEBHOOK_URL:-$RECEIVER_URL}\",\"events\":[\"usage.created\"]}"
fi

# Each wrk process passes its own prefix (two wrk, one per app server, would otherwise send the
# same ids).
cat >"$WORK/usage.lua" <<LUA
-- Each wrk thread has its own Lua state: the thread's number keeps request ids apart.
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("tid", threads)
end
local prefix = "w"
function init(args)
    prefix = args[1] or "w"
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
        ["x-requestid"] = string.format("bench-%s-%d-%d", prefix, tid, counter),
    }
    return wrk.format("POST", "/api/app/usage", headers, body)
end
LUA

row() { printf '| %s | %s |\n' "$1" "$(wrk_cells "$2")"; }

# The measured run finds the database in its steady state, as a marketplace that has been running
# has it: BENCH_WARMUP seconds (3 by default) of the same writes first, then, on PostgreSQL, the
# statistics autovacuum would gather after them (settled_statistics).
WARMUP="${BENCH_WARMUP:-3}"
if [ "$WARMUP" != 0 ]; then
    wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" -s "$WORK/usage.lua" "http://127.0.0.1:$PORT" -- warmup >/dev/null
    settled_statistics "$TARGET"
fi

wrk -t1 -c4 -d"${DURATION}s" --latency -H "Authorization: Bearer $TOKEN" \
    "http://127.0.0.1:$PORT/api/usageHistory?Skip=0&Take=10" >"$WORK/reads.txt" &
READER=$!
if [ "$SERVERS" -gt 1 ]; then
    # One wrk per app server, each with its share of the connections and its own request ids.
    WRITERS=() OUTPUTS=()
    for index in "${!PORTS[@]}"; do
        wrk -t1 -c$((CONNECTIONS / SERVERS)) -d"${DURATION}s" --latency -s "$WORK/usage.lua" \
            "http://127.0.0.1:${PORTS[$index]}" -- "server$index" >"$WORK/writes$index.txt" &
        WRITERS+=($!)
        OUTPUTS+=("$WORK/writes$index.txt")
    done
    wait "${WRITERS[@]}"
    WRITES=$(python3 bench/wrk_pair.py "${OUTPUTS[@]}")
else
    WRITES=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/usage.lua" "http://127.0.0.1:$PORT")
fi
wait $READER
echo
echo '| load | req/s | p50 | p99 | non-2xx |'
echo '| --- | --- | --- | --- | --- |'
row "POST /api/app/usage, $CONNECTIONS connections" "$WRITES"
row 'GET /api/usageHistory first page, 4 connections, at the same time' "$(cat "$WORK/reads.txt")"
if [ "${BENCH_WEBHOOK:-0}" = 1 ]; then
    pending() { curl -sf "http://127.0.0.1:$PORT/api/webhook/1/deliveries?State=pending&Take=1" \
        -H "Authorization: Bearer $TOKEN" | python3 -c 'import json,sys; print(json.load(sys.stdin)["totalCount"])'; }
    AT_END=$(pending)
    START=$(date +%s.%N)
    until [ "$(pending)" = 0 ]; do sleep 0.1; done
    echo
    echo "Webhook messages waiting when the load ended: $AT_END; all delivered $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$START" "$(date +%s.%N)") s later."
fi
python3 - "$TARGET" <<'PY'
import subprocess, sys
sys.path.insert(0, "scripts")
QUERIES = ["SELECT COUNT(*) FROM usage_history",
           "SELECT COUNT(*) FROM idempotency_keys WHERE session_id LIKE 'api-%'",
           "SELECT COALESCE(SUM(n), 0) FROM usage_month_counts"]
if sys.argv[1].startswith("postgres"):
    rows, stored, month = (int(subprocess.run(["psql", sys.argv[1], "-Atc", q], check=True, capture_output=True,
                                              text=True).stdout) for q in QUERIES)
else:
    import perkdesk_sqlite
    db = perkdesk_sqlite.connect(sys.argv[1])
    rows, stored, month = (db.execute(q).fetchone()[0] for q in QUERIES)
print(f"\n{rows:,} uses written, {stored:,} x-requestid answers stored, the maintained month counts sum to {month:,}.")
assert rows == stored == month, "every use has its stored answer and is counted"
PY
