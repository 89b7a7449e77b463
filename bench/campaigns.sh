#!/usr/bin/env bash
# Load benchmark of the campaign lists: 10,000 campaigns in 20 categories, the release binary and
# wrk at 32 connections. Prints Markdown table rows. scripts/bench runs it after the user and
# usage-history cases; it also runs alone: bench/campaigns.sh [seconds-per-run]. PERKDESK_BENCH_BIN=path
# uses that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-15}"
CAMPAIGNS="${BENCH_CAMPAIGNS:-10000}"

. bench/lib.sh
need_wrk
BIN=$(bench_binary)
WORK=bench/.tmp
mkdir -p "$WORK"
DB="$WORK/bench-campaigns-$CAMPAIGNS.db"
if [ ! -f "$DB" ]; then
    rm -f "$DB.new"
    create_bench_admin "$BIN" "$DB.new"
    python3 bench/fill_campaigns.py "$DB.new" "$CAMPAIGNS"
    # The fill wrote the sort indexes in a stand-in order: perkdesk rebuilds them in the az collation.
    "$BIN" sql --db "$DB.new" "SELECT 1" >/dev/null
    mv "$DB.new" "$DB"
fi

start_server "$BIN" "$DB"
trap 'kill $SERVER 2>/dev/null || true' EXIT
TOKEN=$(sign_in "$BIN" "$DB")

# A different campaign-name term on every request, so no total can be reused from an earlier one.
cat >"$WORK/campaign-names.lua" <<'LUA'
request = function()
    return wrk.format("GET", "/api/campaign/filter?Skip=0&Take=10&CampaignName=" .. math.random(1000, 9999))
end
LUA

run() { wrk_row 32 "$1" "$2" "${3:-}" -H 'Accept-Language: 2'; }

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
