#!/usr/bin/env bash
# Load benchmark of the campaign lists: 10,000 campaigns in 20 categories, the release binary and
# wrk at 32 connections. Prints Markdown table rows. scripts/bench runs it after the user and
# usage-history cases; it also runs alone: bench/campaigns.sh [seconds-per-run]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-15}"
CAMPAIGNS="${BENCH_CAMPAIGNS:-10000}"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
command -v wrk >/dev/null || { as_root apt-get update && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y wrk; }

cargo build --release --quiet
BIN=target/release/perkdesk
WORK=bench/.tmp
mkdir -p "$WORK"
DB="$WORK/bench-campaigns-$CAMPAIGNS.db"
if [ ! -f "$DB" ]; then
    rm -f "$DB.new"
    echo 'Secret-123!' | "$BIN" create-admin --db "$DB.new" --email bench@perk.az --first-name Bench --last-name Admin --password-stdin >/dev/null
    python3 bench/fill_campaigns.py "$DB.new" "$CAMPAIGNS"
    mv "$DB.new" "$DB"
fi

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" serve --db "$DB" --bind "127.0.0.1:$PORT" --log-level warn --sign-in-per-minute 1000 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
until curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null; do sleep 0.005; done
OTP=$("$BIN" otp --db "$DB" --email bench@perk.az)
TOKEN=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/auth/admin/token" -H 'content-type: application/json' \
    -d "{\"userName\":\"bench@perk.az\",\"password\":\"Secret-123!\",\"otp\":\"$OTP\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')

# A different campaign-name term on every request, so no total can be reused from an earlier one.
cat >"$WORK/campaign-names.lua" <<'LUA'
request = function()
    return wrk.format("GET", "/api/campaign/filter?Skip=0&Take=10&CampaignName=" .. math.random(1000, 9999))
end
LUA

run() {
    local label="$1" path="$2" script="${3:-}"
    local out url_path="$path"
    [ -n "$script" ] && url_path=/
    out=$(wrk -t2 -c32 -d"${DURATION}s" --latency ${script:+-s "$script"} -H "Authorization: Bearer $TOKEN" \
        -H 'Accept-Language: 2' "http://127.0.0.1:$PORT$url_path")
    local rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    errors=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    printf '| %s | `%s` | %s | %s | %s | %s |\n' "$label" "$path" "$rps" "$p50" "$p99" "${errors:-0}"
}

echo
echo "Database: $CAMPAIGNS campaigns in 20 categories ($(du -h "$DB" | cut -f1)). wrk -t2 -c32 -d${DURATION}s, Accept-Language 2."
echo
echo '| case | request | req/s | p50 | p99 | non-2xx |'
echo '| --- | --- | --- | --- | --- | --- |'
run "campaigns, first page with total" "/api/campaign?Skip=0&Take=10"
run "campaigns sorted by name, first page" "/api/campaign?Skip=0&Take=10&SortField=name&OrderBy=true"
run "filtered: partner name" "/api/campaign/filter?Skip=0&Take=10&PartnerName=Partner%2017"
run "filtered: campaign name (one match)" "/api/campaign/filter?Skip=0&Take=10&CampaignName=Discount%204242"
run "filtered: campaign name, a new term each request" "/api/campaign/filter?Skip=0&Take=10&CampaignName=<random 4 digits>" "$WORK/campaign-names.lua"
run "filtered: discount and expire date" "/api/campaign/filter?Skip=0&Take=10&DiscountPercent=25&ExpireDate=2027-03-12"
run "order picker (a category's 500 positions)" "/api/campaign/campaignOrdersNew?categoryId=7"
run "order picker, 30 a page" "/api/campaign/campaignOrdersNew?categoryId=7&Skip=30&Take=30"
RSS_KB=$(ps -o rss= -p "$SERVER")
echo
echo "Server RSS after the campaign runs: $(( RSS_KB / 1024 )) MB."
