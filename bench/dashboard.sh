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

. bench/lib.sh
need_wrk
WORK=bench/.tmp
mkdir -p "$WORK"
SRC_BIN=$(bench_binary)
# A copy: the fill of 10,000,000 rows and the runs take long enough for someone to rebuild the
# binary meanwhile, and every figure must come from the one binary named in the output.
BIN="$WORK/perkdesk-dashboard-$$"
cp "$SRC_BIN" "$BIN"
BIN_BUILT=$(stat -c '%y' "$SRC_BIN" | cut -d. -f1)
trap 'rm -f "$BIN"' EXIT
DB="$WORK/bench-dashboard-$USAGE-$EMPLOYEES-$PARTNERS.db"
if [ ! -f "$DB" ]; then
    rm -f "$DB.new" "$DB.new-wal" "$DB.new-shm"
    create_bench_admin "$BIN" "$DB.new"
    FILL_START=$(date +%s)
    echo "Fill started at $(uptime)"
    # Lowered priority: on a shared machine the fill may take a while and should not slow others;
    # the measurement below runs at normal priority.
    nice -n 10 python3 bench/fill_dashboard.py "$DB.new" "$USAGE" "$EMPLOYEES" "$PARTNERS"
    # The fill wrote the sort indexes in a stand-in order: perkdesk rebuilds them in the az collation.
    "$BIN" sql --db "$DB.new" "SELECT 1" >/dev/null
    echo "Filled in $(( $(date +%s) - FILL_START )) s; $(uptime)"
    mv "$DB.new" "$DB"
fi

start_server "$BIN" "$DB"
trap 'kill $SERVER 2>/dev/null || true; rm -f "$BIN"' EXIT
TOKEN=$(sign_in "$BIN" "$DB")

run() { wrk_row 8 "$1" "$2"; }

# The counts the dashboard reads, against a fresh GROUP BY of the usage history (the first must
# equal the second; the GROUP BY is what the dashboard does not do).
python3 - "$DB" <<'PY'
import sys, time
sys.path.insert(0, "scripts")
import perkdesk_sqlite
db = perkdesk_sqlite.connect(sys.argv[1])
maintained = db.execute("SELECT SUM(n) FROM usage_month_counts").fetchone()[0]
started = time.time()
counted = db.execute("SELECT COUNT(*) FROM usage_history WHERE deleted_at IS NULL").fetchone()[0]
print(f"\nLive usage rows: {counted:,} counted in {time.time() - started:.2f} s; the maintained month counts sum to {maintained:,}.")
assert maintained == counted, "the maintained counts differ from the table"
PY
echo
echo "Database: $USAGE usage-history rows, $EMPLOYEES employees, $PARTNERS partners ($(du -h "$DB" | cut -f1)). wrk -t2 -c8 -d${DURATION}s."
echo "Binary: $SRC_BIN (of $BIN_BUILT, sha256 $(sha256sum "$BIN" | cut -c1-12))."
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
