# Shared steps of the benchmark scripts (sourced, not run): wrk from Debian's packages, the binary
# under test, a free loopback port, a server started on a database, a signed-in Admin's token and
# one Markdown row per wrk run. Each script keeps only its data, its requests and its table.

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

need_wrk() {
    command -v wrk >/dev/null || { as_root apt-get update && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y wrk; }
}

# The binary under test: PERKDESK_BENCH_BIN when set (a debug binary only checks that a script
# works; its figures mean nothing), otherwise the release binary, built first.
bench_binary() {
    if [ -n "${PERKDESK_BENCH_BIN:-}" ]; then
        echo "$PERKDESK_BENCH_BIN"
    else
        cargo build --release --quiet >&2 || return 1
        echo target/release/perkdesk
    fi
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_server BIN DB [log]: serves DB on a free port; sets PORT and SERVER (the pid) and returns
# once /api/health answers. The bench signs in often, hence the raised sign-in rate.
start_server() {
    local bin="$1" db="$2" log="${3:-/dev/null}"
    PORT=$(free_port)
    "$bin" serve --db "$db" --bind "127.0.0.1:$PORT" --log-level warn --sign-in-per-minute 1000 >>"$log" 2>&1 &
    SERVER=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$PORT/api/health"; do sleep 0.005; done
}

# start_webhook_receiver: a loopback webhook receiver (bench/webhook_receiver.mjs, 204 to each POST);
# sets RECEIVER (its pid) and RECEIVER_URL, and lets the servers started after it send to loopback.
start_webhook_receiver() {
    local port_file="bench/.tmp/receiver-port-$$"
    rm -f "$port_file"
    node bench/webhook_receiver.mjs >"$port_file" 2>bench/.tmp/receiver.log &
    RECEIVER=$!
    until [ -s "$port_file" ]; do sleep 0.01; done
    RECEIVER_URL="http://127.0.0.1:$(cat "$port_file")/hook"
    export PERKDESK_WEBHOOKS_ALLOW_PRIVATE=true
}

BENCH_EMAIL=bench@perk.az
BENCH_PASSWORD='Secret-123!'

# create_bench_admin BIN DB: the Admin every bench signs in as.
create_bench_admin() {
    echo "$BENCH_PASSWORD" | "$1" create-admin --db "$2" --email "$BENCH_EMAIL" --first-name Bench --last-name Admin --password-stdin >/dev/null
}

# sign_in BIN DB: prints an access token of the bench Admin on the server at PORT.
sign_in() {
    local otp
    otp=$("$1" otp --db "$2" --email "$BENCH_EMAIL")
    curl -sf -X POST "http://127.0.0.1:$PORT/api/auth/admin/token" -H 'content-type: application/json' \
        -d "{\"userName\":\"$BENCH_EMAIL\",\"password\":\"$BENCH_PASSWORD\",\"otp\":\"$otp\"}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}

# wrk_cells OUTPUT: "req/s | p50 | p99 | non-2xx" of one wrk --latency output.
wrk_cells() {
    local out="$1" rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    errors=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    printf '%s | %s | %s | %s' "$rps" "$p50" "$p99" "${errors:-0}"
}

# wrk_row CONNECTIONS LABEL PATH [SCRIPT] [extra wrk options...]: one table row for a GET run of
# DURATION seconds with TOKEN. With a script, the script writes each request's path and PATH only
# describes it.
wrk_row() {
    local connections="$1" label="$2" path="$3" script="${4:-}"
    shift 4 2>/dev/null || shift $#
    local url_path="$path" out
    [ -n "$script" ] && url_path=/
    out=$(wrk -t2 -c"$connections" -d"${DURATION}s" --latency ${script:+-s "$script"} -H "Authorization: Bearer $TOKEN" \
        "$@" "http://127.0.0.1:$PORT$url_path")
    printf '| %s | `%s` | %s |\n' "$label" "$path" "$(wrk_cells "$out")"
}

# settled_statistics TARGET: on PostgreSQL (BENCH_POSTGRES set), the statistics autovacuum gathers
# within its next round (a minute) once a table has changed by 50 rows, gathered now; this also
# makes every connection plan its statements again. Without them each connection keeps the plans it
# made for tables that were nearly empty when the bench began (a sort of every row for a list's
# first page: 2 ms a page instead of 0.07), and the run measures the first minute of a new
# database. SQLite plans each statement as it prepares it: nothing to do.
settled_statistics() {
    if [ -n "${BENCH_POSTGRES:-}" ]; then psql "$1" -qc ANALYZE; fi
}

# seed_inbound_world DB EMPLOYEES: one asset with EMPLOYEES employees, a partner, a category and a
# campaign offered to the asset, for the inbound API's writes (bench/inbound.sh,
# scripts/litestream-check).
seed_inbound_world() {
    python3 - "$1" "$2" <<'PY'
import sys
sys.path.insert(0, "scripts")
import perkdesk_sqlite
db = perkdesk_sqlite.connect(sys.argv[1])
n = int(sys.argv[2])
db.execute("INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix) VALUES ('Bench asset', 'Bench', '994501234567', 'hr@bench.az', 'BNC')")
db.execute("INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email) VALUES ('Bench partner', 'B', 'P', '994501234567', 'p@bench.az')")
db.execute("INSERT INTO campaign_categories (name_az, name_en, name_ru) VALUES ('Market', 'Market', 'Market')")
db.execute("""INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date, name_az, name_en,
              name_ru, description_az, description_en, description_ru, order_no)
              VALUES (1, 1, 15, '2020-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z', 'Bench', 'Bench', 'Bench', 'D', 'D', 'D', 1)""")
db.execute("INSERT INTO campaign_assets (campaign_id, asset_id) VALUES (1, 1)")
db.executemany("INSERT INTO employees (asset_id, first_name, last_name, email, phone) VALUES (1, 'E', 'Mp', ?, '994501234567')",
               ((f"e{i}@bench.az",) for i in range(n)))
db.commit()
perkdesk_sqlite.mark_sort_indexes_stale(db)
PY
}

# give_bench_limits DB: the campaign of seed_inbound_world gets limits that every use checks and
# none reaches (issue 41: 10,000,000 uses in all, 1,000 per employee a day), when the binary that
# made DB knows campaign limits; an older one's campaign keeps none, and stderr says so.
give_bench_limits() {
    python3 - "$1" <<'PY'
import sys
sys.path.insert(0, "scripts")
import perkdesk_sqlite
db = perkdesk_sqlite.connect(sys.argv[1])
if any(column[1] == "usage_limit_total" for column in db.execute("PRAGMA table_info(campaigns)")):
    db.execute("UPDATE campaigns SET usage_limit_total = 10000000, usage_limit_per_employee = 1000, usage_limit_period = 'day' WHERE id = 1")
    db.commit()
else:
    print("this schema has no campaign limits: the campaign is used without them", file=sys.stderr)
PY
}

# list_bench_database BIN USERS USAGE: the lists' bench database (USERS staff users, USAGE
# usage-history rows and their parents), made once in bench/.tmp and kept; prints its path.
list_bench_database() {
    local bin="$1" users="$2" usage="$3" db
    mkdir -p bench/.tmp
    db="bench/.tmp/bench-$users-$usage.db"
    if [ ! -f "$db" ]; then
        create_bench_admin "$bin" "$db.new"
        python3 bench/fill.py "$db.new" "$users" "$usage" >&2
        # The fill wrote the sort indexes in a stand-in order: perkdesk rebuilds them in the az collation.
        "$bin" sql --db "$db.new" "SELECT 1" >/dev/null
        mv "$db.new" "$db"
    fi
    echo "$db"
}

