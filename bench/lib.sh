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
