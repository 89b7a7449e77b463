#!/usr/bin/env bash
# Load benchmark of a redemption code confirmed at the till (issue 41): the employee app asks for
# CODES codes first (POST /api/app/redemptions, one per employee and campaign, four campaigns),
# then wrk confirms them with a partner key at 32 connections (POST /api/partner-portal/redemptions),
# each request a different code, so each is a use written with its limits checked, its review
# rules run, the code marked used and the history recorded. Prints Markdown table rows for
# docs/performance.md.
# Usage: bench/redemptions.sh [seconds]; PERKDESK_BENCH_BIN=path uses that binary instead of
# building the release one (a debug binary only checks that the script works).
# BENCH_CODES (default 40000) bounds the codes made, and so the confirmations that can succeed.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-5}"
CODES="${BENCH_CODES:-40000}"
CAMPAIGNS=4
EMPLOYEES=$(((CODES + CAMPAIGNS - 1) / CAMPAIGNS))

. bench/lib.sh
need_wrk
BIN=$(bench_binary)
WORK=bench/.tmp
mkdir -p "$WORK"
DB="$WORK/bench-redemptions-$$.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
create_bench_admin "$BIN" "$DB"
seed_inbound_world "$DB" "$EMPLOYEES"
# Three more campaigns of the same partner, offered to the same asset, with limits every
# confirmation checks and none reaches.
python3 - "$DB" "$CAMPAIGNS" <<'PY'
import sys
sys.path.insert(0, "scripts")
import perkdesk_sqlite
db = perkdesk_sqlite.connect(sys.argv[1])
for n in range(2, int(sys.argv[2]) + 1):
    db.execute("""INSERT INTO campaigns (id, partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                  name_az, name_en, name_ru, description_az, description_en, description_ru, order_no)
                  VALUES (?, 1, 1, 15, '2020-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z', 'Bench', 'Bench', 'Bench',
                  'D', 'D', 'D', ?)""", (n, n))
    db.execute("INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (?, 1)", (n,))
db.execute("UPDATE campaigns SET usage_limit_total = 10000000, usage_limit_per_employee = 1000, usage_limit_period = 'day'")
db.commit()
PY
APP_KEY=$("$BIN" api-client create --db "$DB" --name app --kind employee-app --rate-limit 1000000 | grep '^pk_')
PARTNER_KEY=$("$BIN" api-client create --db "$DB" --name till --kind partner --partner-id 1 --rate-limit 1000000 | grep '^pk_')
start_server "$BIN" "$DB"
trap 'kill $SERVER 2>/dev/null || true; rm -f "$DB" "$DB-wal" "$DB-shm" "$WORK/codes.txt"' EXIT

# The codes, asked for by eight clients at once (bounded: CODES requests, 30 s each at most).
python3 - "$PORT" "$APP_KEY" "$EMPLOYEES" "$CAMPAIGNS" "$CODES" >"$WORK/codes.txt" <<'PY'
import http.client, json, sys, threading
port, key, employees, campaigns, codes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
asks = [(e, c) for c in range(1, campaigns + 1) for e in range(employees)][:codes]
out, lock = [], threading.Lock()
def ask(part):
    conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=30)
    for employee, campaign in part:
        body = json.dumps({"employeeEmail": f"e{employee}@bench.az", "campaignId": campaign})
        conn.request("POST", "/api/app/redemptions", body, {"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        answer = conn.getresponse()
        data = answer.read()
        if answer.status != 201:
            sys.exit(f"asking for a code: {answer.status} {data[:200]!r}")
        with lock:
            out.append(json.loads(data)["code"])
threads = [threading.Thread(target=ask, args=(asks[i::8],)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
if len(out) != len(asks):
    sys.exit(f"{len(out)} codes of {len(asks)}")
print("\n".join(out))
PY
echo "$(wc -l <"$WORK/codes.txt") codes asked for" >&2

cat >"$WORK/confirm.lua" <<LUA
-- Each wrk thread has its own Lua state: thread k of n confirms codes k, k + n, k + 2n, ...
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("tid", threads)
    thread:set("count", 2)
end
local codes = {}
local next_code = 0
function init(args)
    for line in io.lines("$WORK/codes.txt") do codes[#codes + 1] = line end
    next_code = tid
end
request = function()
    local code = codes[next_code] or "NOSUCHCD"
    next_code = next_code + count
    local headers = { ["Authorization"] = "Bearer $PARTNER_KEY", ["Content-Type"] = "application/json" }
    return wrk.format("POST", "/api/partner-portal/redemptions", headers, string.format('{"code":"%s"}', code))
end
LUA

OUT=$(wrk -t2 -c32 -d"${DURATION}s" --latency -s "$WORK/confirm.lua" "http://127.0.0.1:$PORT")
echo
echo '| load | req/s | p50 | p99 | non-2xx |'
echo '| --- | --- | --- | --- | --- |'
printf '| POST /api/partner-portal/redemptions, 32 connections | %s |\n' "$(wrk_cells "$OUT")"
python3 - "$DB" <<'PY'
import sys
sys.path.insert(0, "scripts")
import perkdesk_sqlite
db = perkdesk_sqlite.connect(sys.argv[1])
uses, verified, used = (db.execute(q).fetchone()[0] for q in (
    "SELECT COUNT(*) FROM usage_history",
    "SELECT COUNT(*) FROM usage_history WHERE verified = 1",
    "SELECT COUNT(*) FROM redemption_codes WHERE confirmed_at IS NOT NULL"))
print(f"\n{uses:,} uses written, {verified:,} verified, {used:,} codes used.")
assert uses == verified == used, "every confirmation is one verified use and one used code"
PY
