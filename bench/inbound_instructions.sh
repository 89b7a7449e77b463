#!/usr/bin/env bash
# Instructions per inbound write, counted by callgrind (which this host's load does not move, unlike
# req/s): each binary serves N and then 2N sequential POST /api/app/usage requests (each its own
# employee and x-requestid) on a fresh database, and the difference of the two runs' totals, over
# N, is one request's cost without the start-up. Prints a Markdown table for docs/performance.md.
# Usage: bench/inbound_instructions.sh A_BIN B_BIN [N]
# BENCH_CLIENTS=32 sends the requests from that many connections at once, so that writers share
# the group commit's transactions as they do under bench/inbound.sh (the counts then move by a few
# per cent from run to run, with how the transactions happen to be shared); BENCH_EMPLOYEES sets
# how many employees the uses are spread over (1000; each request picks one at random, the same
# sequence for both binaries); BENCH_LIMITS=1 gives the campaign bench/inbound.sh's limits in a
# binary whose schema has them.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 A_BIN B_BIN [N]" >&2; exit 2; }
N="${3:-300}"
CLIENTS="${BENCH_CLIENTS:-1}"
EMPLOYEES="${BENCH_EMPLOYEES:-1000}"
. bench/lib.sh
WORK=bench/.tmp
mkdir -p "$WORK"

# Total instructions of one binary serving `count` writes.
count_instructions() {
    local bin="$1" count="$2" db="$WORK/instructions-$$.db" out="$WORK/callgrind-$$.out" port key
    rm -f "$db" "$db-wal" "$db-shm" "$out"
    create_bench_admin "$bin" "$db"
    seed_inbound_world "$db" "$EMPLOYEES"
    if [ "${BENCH_LIMITS:-0}" = 1 ]; then give_bench_limits "$db"; fi
    key=$("$bin" api-client create --db "$db" --name bench --kind employee-app --rate-limit 1000000 | grep '^pk_')
    port=$(free_port)
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$bin" serve --db "$db" --bind "127.0.0.1:$port" --log-level warn >/dev/null 2>&1 &
    local server=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$port/api/health"; do sleep 0.2; done
    python3 - "$port" "$key" "$count" "$CLIENTS" "$EMPLOYEES" <<'PY'
import http.client, json, random, sys, threading
port, key, count, clients, employees = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
chosen = random.Random(7)
work = [(i, chosen.randrange(employees)) for i in range(count)]
work.reverse()
lock = threading.Lock()
def client():
    connection = http.client.HTTPConnection("127.0.0.1", int(port))
    while True:
        with lock:
            if not work:
                return
            i, employee = work.pop()
        body = json.dumps({"employeeEmail": f"e{employee}@bench.az", "campaignId": 1, "rating": 5})
        connection.request("POST", "/api/app/usage", body, {
            "Authorization": f"Bearer {key}", "Content-Type": "application/json", "x-requestid": f"count-{i}"})
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 201, answer.status
threads = [threading.Thread(target=client) for _ in range(clients)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
PY
    kill -INT "$server"
    wait "$server" || true
    grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}'
    rm -f "$db" "$db-wal" "$db-shm" "$out"
}

echo "| binary | ${N} writes | $((2 * N)) writes | per write |"
echo "| --- | --- | --- | --- |"
for bin in "$1" "$2"; do
    one=$(count_instructions "$bin" "$N")
    two=$(count_instructions "$bin" $((2 * N)))
    echo "| $bin | $one | $two | $(( (two - one) / N )) |"
done
