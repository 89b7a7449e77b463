#!/usr/bin/env bash
# Load benchmark of the dashboard (issue 14): BENCH_USAGE usage-history rows (default 1,000,000;
# the issue's size is BENCH_USAGE=10000000, which takes a while to fill once), BENCH_EMPLOYEES
# employees (200,000) and BENCH_PARTNERS partners (2,000), the release binary and wrk at 8
# connections on GET dashboard and each dashboard/* call. Prints Markdown table rows.
# scripts/bench runs it; it also runs alone: bench/dashboard.sh [seconds-per-run].
# PERKDESK_BENCH_BIN=path (from the repository's root) uses that binary instead of building the
# release one, as bench/inbound.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-15}"
USAGE="${BENCH_USAGE:-1000000}"
EMPLOYEES="${BENCH_EMPLOYEES:-200000}"
PARTNERS="${BENCH_PARTNERS:-2000}"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
command -v wrk >/dev/null || { as_root apt-get update && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y wrk; }

WORK=bench/.tmp
mkdir -p "$WORK"
if [ -z "${PERKDESK_BENCH_BIN:-}" ]; then
    cargo build --release --quiet
fi
# A copy: the fill of 10,000,000 rows and the runs take long enough for someone to rebuild the
# binary meanwhile, and every figure must come from the one binary named in the output.
BIN="$WORK/perkdesk-dashboard-$$"
cp "${PERKDESK_BENCH_BIN:-target/release/perkdesk}" "$BIN"
BIN_BUILT=$(stat -c '%y' "${PERKDESK_BENCH_BIN:-target/release/perkdesk}" | cut -d. -f1)
trap 'rm -f "$BIN"' EXIT
DB="$WORK/bench-dashboard-$USAGE-$EMPLOYEES-$PARTNERS.db"
if [ ! -f "$DB" ]; then
    rm -f "$DB.new" "$DB.new-wal" "$DB.new-shm"
    echo 'Secret-123!' | "$BIN" create-admin --db "$DB.new" --email bench@perk.az --first-name Bench --last-name Admin --password-stdin >/dev/null
    FILL_START=$(date +%s)
    echo "Fill started at $(uptime)"
    # Lowered priority: on a shared machine the fill may take a while and should not slow others;
    # the measurement below runs at normal priority.
    nice -n 10 python3 bench/fill_dashboard.py "$DB.new" "$USAGE" "$EMPLOYEES" "$PARTNERS"
    echo "Filled in $(( $(date +%s) - FILL_START )) s; $(uptime)"
    mv "$DB.new" "$DB"
fi

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" serve --db "$DB" --bind "127.0.0.1:$PORT" --log-level warn --sign-in-per-minute 1000 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -f "$BIN"' EXIT
until curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null; do sleep 0.005; done
OTP=$("$BIN" otp --db "$DB" --email bench@perk.az)
TOKEN=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/auth/admin/token" -H 'content-type: application/json' \
    -d "{\"userName\":\"bench@perk.az\",\"password\":\"Secret-123!\",\"otp\":\"$OTP\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')

run() {
    local label="$1" path="$2"
    local out rps p50 p99 errors
    out=$(wrk -t2 -c8 -d"${DURATION}s" --latency -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT$path")
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    errors=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    printf '| %s | `%s` | %s | %s | %s | %s |\n' "$label" "$path" "$rps" "$p50" "$p99" "${errors:-0}"
}

# The counts the dashboard reads, against a fresh GROUP BY of the usage history (the first must
# equal the second; the GROUP BY is what the dashboard does not do).
python3 - "$DB" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
maintained = db.execute("SELECT SUM(n) FROM usage_month_counts").fetchone()[0]
started = time.time()
counted = db.execute("SELECT COUNT(*) FROM usage_history WHERE deleted_at IS NULL").fetchone()[0]
print(f"\nLive usage rows: {counted:,} counted in {time.time() - started:.2f} s; the maintained month counts sum to {maintained:,}.")
assert maintained == counted, "the maintained counts differ from the table"
PY
echo
echo "Database: $USAGE usage-history rows, $EMPLOYEES employees, $PARTNERS partners ($(du -h "$DB" | cut -f1)). wrk -t2 -c8 -d${DURATION}s."
echo "Binary: ${PERKDESK_BENCH_BIN:-target/release/perkdesk} (of $BIN_BUILT, sha256 $(sha256sum "$BIN" | cut -c1-12))."
# Other work shares the machine: the load before and after the runs says what the figures are worth.
echo "Before the runs: $(uptime)"
echo
echo '| case | request | req/s | p50 | p99 | non-2xx |'
echo '| --- | --- | --- | --- | --- | --- |'
run "dashboard: counts and Top 10 partners" "/api/dashboard"
run "Top 10 categories" "/api/dashboard/usageCategories"
run "Top 10 assets by usage" "/api/dashboard/usageEmployees"
run "Top 10 assets by employees" "/api/dashboard/assetEmployees"
run "usage per month of 2026" "/api/dashboard/usageHistory?year=2026"
run "report: employee names and counts" "/api/report/employee?Skip=0&Take=10"
RSS_KB=$(ps -o rss= -p "$SERVER")
echo
echo "After the runs: $(uptime)"
echo "Server RSS after the dashboard runs: $(( RSS_KB / 1024 )) MB."
