#!/usr/bin/env bash
# Instructions per inbound write, counted by callgrind (which this host's load does not move, unlike
# req/s): each binary serves N and then 2N sequential POST /api/app/usage requests (each its own
# employee and x-requestid) on a fresh database, and the difference of the two runs' totals, over
# N, is one request's cost without the start-up. Prints a Markdown table for docs/performance.md.
# Usage: bench/inbound_instructions.sh A_BIN B_BIN [N]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 A_BIN B_BIN [N]" >&2; exit 2; }
N="${3:-300}"
. bench/lib.sh
WORK=bench/.tmp
mkdir -p "$WORK"

# Total instructions of one binary serving `count` writes.
count_instructions() {
    local bin="$1" count="$2" db="$WORK/instructions-$$.db" out="$WORK/callgrind-$$.out" port key
    rm -f "$db" "$db-wal" "$db-shm" "$out"
    create_bench_admin "$bin" "$db"
    seed_inbound_world "$db" 1000
    key=$("$bin" api-client create --db "$db" --name bench --kind employee-app --rate-limit 1000000 | grep '^pk_')
    port=$(free_port)
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$bin" serve --db "$db" --bind "127.0.0.1:$port" --log-level warn >/dev/null 2>&1 &
    local server=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$port/api/health"; do sleep 0.2; done
    python3 - "$port" "$key" "$count" <<'PY'
import json, sys, urllib.request
port, key, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(count):
    body = json.dumps({"employeeEmail": f"e{i % 1000}@bench.az", "campaignId": 1, "rating": 5}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/app/usage", data=body, method="POST", headers={
        "Authorization": f"Bearer {key}", "Content-Type": "application/json", "x-requestid": f"count-{i}"})
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 201, answer.status
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
