#!/usr/bin/env bash
# Delivery benchmark of the outbound webhooks (issue 42): MESSAGES messages (default 20,000) wait in
# the outbox of one endpoint while the server is stopped; the server starts and sends them to a
# loopback receiver (bench/webhook_receiver.mjs, 204 to each); prints how long until every one is
# delivered, the messages a second, and what the receiver got. Each body is some 700 bytes shaped
# as a usage.created message. Usage: bench/webhooks.sh [messages]
# PERKDESK_BENCH_BIN as the other benches; BENCH_POSTGRES=postgres://... runs it on PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
MESSAGES="${1:-20000}"
. bench/lib.sh
BIN=$(bench_binary)
WORK=bench/.tmp
mkdir -p "$WORK"
DB="$WORK/bench-webhooks-$$.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
create_bench_admin "$BIN" "$DB"
if [ -n "${BENCH_POSTGRES:-}" ]; then
    psql "$BENCH_POSTGRES" -qc "DROP DATABASE IF EXISTS perkdesk_bench_webhooks" -c "CREATE DATABASE perkdesk_bench_webhooks"
    TARGET="${BENCH_POSTGRES%/*}/perkdesk_bench_webhooks"
    "$BIN" copy-to-postgres --from "$DB" --to "$TARGET" >/dev/null
else
    TARGET="$DB"
fi
start_webhook_receiver
start_server "$BIN" "$TARGET"
trap 'kill $SERVER $RECEIVER 2>/dev/null || true; rm -f "$DB" "$DB-wal" "$DB-shm"' EXIT
TOKEN=$(sign_in "$BIN" "$TARGET")
WEBHOOK=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/webhook" -H "Authorization: Bearer $TOKEN" \
    -H 'content-type: application/json' -d "{\"url\":\"$RECEIVER_URL\",\"events\":[\"usage.created\"]}" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["webhook"]["id"])')
kill "$SERVER"; wait "$SERVER" 2>/dev/null || true

# The outbox filled while no server runs: MESSAGES messages due now.
NOW=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
PAYLOAD='{"type":"usage.created","timestamp":"'"$NOW"'","data":{"id":1,"employeeId":1,"employeeFullName":"Aysel Məmmədova","employeeEmail":"e1@bench.az","assetId":1,"assetName":"Bench","partnerId":1,"partnerName":"Bench partner","campaignId":1,"campaignName":"Həftəsonu endirimi","categoryId":1,"categoryName":"Market","discountPercent":10,"partnerCityId":null,"branchName":null,"rating":5,"status":0,"verified":false,"createdAt":"'"$NOW"'","usedAt":"'"$NOW"'","comment":null,"city":"Bakı","filePath":null}}'
"$BIN" sql --db "$TARGET" "INSERT INTO webhook_messages (webhook_id, event, message_id, payload, next_attempt_at, created_at)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $MESSAGES)
    SELECT $WEBHOOK, 'usage.created', 'msg_bench' || i, '$PAYLOAD', '$NOW', '$NOW' FROM n" >/dev/null

START=$(date +%s.%N)
start_server "$BIN" "$TARGET"
# The session signed in above is in the database (a second sign-in would reuse its code).
while :; do
    WAITING=$(curl -sf "http://127.0.0.1:$PORT/api/webhook/$WEBHOOK/deliveries?State=pending&Take=1" \
        -H "Authorization: Bearer $TOKEN" | python3 -c 'import json,sys; print(json.load(sys.stdin)["totalCount"])')
    [ "$WAITING" = 0 ] && break
    sleep 0.1
done
END=$(date +%s.%N)
kill "$RECEIVER"; wait "$RECEIVER" 2>/dev/null || true
DELIVERED=$("$BIN" sql --db "$TARGET" "SELECT COUNT(*) FROM webhook_messages WHERE state = 'delivered'")
python3 - "$MESSAGES" "$DELIVERED" "$START" "$END" "$(tail -1 "$WORK/receiver.log")" <<'PY'
import sys
messages, delivered, start, end, receiver = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
seconds = end - start
print("| messages | delivered | seconds (from the server's start) | messages/s | receiver |")
print("| --- | --- | --- | --- | --- |")
print(f"| {messages:,} | {delivered:,} | {seconds:.2f} | {messages / seconds:,.0f} | {receiver} |")
assert delivered == messages, "every message delivered"
PY
