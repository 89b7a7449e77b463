#!/usr/bin/env bash
# The list cases of scripts/bench (users and usage history, sorted, filtered, deep pages) run side
# by side on two builds, each on its own copy of the same rows, alternating which goes first each
# round, so that the host's drift (±40 % here) falls on both alike.
# Usage: bench/lists_side_by_side.sh A_BIN A_DB B_BIN B_DB [seconds-per-run] [rounds]
# Both servers run at once (one idle while the other is measured); wrk -t2 -c32 as scripts/bench.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { echo "usage: $0 A_BIN A_DB B_BIN B_DB [seconds] [rounds]" >&2; exit 2; }
A_BIN=$1 A_DB=$2 B_BIN=$3 B_DB=$4
DURATION="${5:-10}"
ROUNDS="${6:-2}"

. bench/lib.sh
need_wrk
WORK=bench/.tmp
mkdir -p "$WORK"
cat >"$WORK/varied.lua" <<'LUA'
request = function()
    return wrk.format("GET", "/api/user/filter?Skip=0&Take=10&Email=user" .. math.random(10000, 99999))
end
LUA

start_server "$A_BIN" "$A_DB"
A_PORT=$PORT A_SERVER=$SERVER
A_TOKEN=$(sign_in "$A_BIN" "$A_DB")
start_server "$B_BIN" "$B_DB"
B_PORT=$PORT B_SERVER=$SERVER
B_TOKEN=$(sign_in "$B_BIN" "$B_DB")
trap 'kill $A_SERVER $B_SERVER 2>/dev/null || true' EXIT

MMEDOV=$(python3 -c 'import urllib.parse; print(urllib.parse.quote("mmədov"))')
CASES=(
    "first page, sorted by last name, with total|/api/user?Skip=0&Take=10&SortField=lastName&OrderBy=true|"
    "first page, sorted by last name descending|/api/user?Skip=0&Take=10&SortField=lastName&OrderBy=false|"
    "first page, default order|/api/user?Skip=0&Take=10|"
    "selective substring filter with total|/api/user/filter?Skip=0&Take=10&Email=user4242|"
    "selective substring, a new term each request|/api/user/filter?Skip=0&Take=10&Email=user<random>|$WORK/varied.lua"
    "broad substring filter (8% of rows) with total|/api/user/filter?Skip=0&Take=10&FirstName=yse|"
    "substring and role filters with total|/api/user/filter?Skip=0&Take=10&LastName=$MMEDOV&RoleId=1|"
    "role filter (a third of rows) with total|/api/user/filter?Skip=0&Take=10&RoleId=2|"
    "page 5000 sorted by e-mail, with total|/api/user?Skip=50000&Take=10&SortField=email&OrderBy=false|"
    "page 5000 sorted by last name, with total|/api/user?Skip=50000&Take=10&SortField=lastName&OrderBy=true|"
    "usage: first page by date, with total|/api/usageHistory?Skip=0&Take=10&SortField=createdDate&OrderBy=false|"
    "usage: sorted by partner name, with total|/api/usageHistory?Skip=0&Take=10&SortField=partnerName&OrderBy=true|"
    "usage: campaign-name substring, with total|/api/usageHistory/filter?Skip=0&Take=10&SortField=createdDate&OrderBy=false&CampaignName=199|"
    "usage: page 5000 by date, with total|/api/usageHistory?Skip=49990&Take=10&SortField=createdDate&OrderBy=false|"
)

# measure SIDE LABEL PATH SCRIPT: "req/s p99" of one run against side A or B.
measure() {
    local side="$1" path="$2" script="$3" port token out
    if [ "$side" = A ]; then port=$A_PORT token=$A_TOKEN; else port=$B_PORT token=$B_TOKEN; fi
    [ -n "$script" ] && path=/
    out=$(wrk -t2 -c32 -d"${DURATION}s" --latency ${script:+-s "$script"} -H "Authorization: Bearer $token" \
        "http://127.0.0.1:$port$path")
    printf '%s %s %s' "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1 == "99%" {print $2}' <<<"$out")" \
        "$(awk '/Non-2xx/ {print $5}' <<<"$out")"
}

echo
echo "A: $A_BIN on $A_DB; B: $B_BIN on $B_DB. wrk -t2 -c32 -d${DURATION}s, $ROUNDS rounds, A first in odd rounds."
echo "Load before the run: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo '| case | A req/s (each round) | B req/s (each round) | B/A | A p99 | B p99 | non-2xx A/B |'
echo '| --- | --- | --- | --- | --- | --- | --- |'
for entry in "${CASES[@]}"; do
    IFS='|' read -r label path script <<<"$entry"
    a_rps=() b_rps=() a_p99=() b_p99=() a_err=0 b_err=0
    for round in $(seq 1 "$ROUNDS"); do
        if [ $((round % 2)) -eq 1 ]; then order="A B"; else order="B A"; fi
        for side in $order; do
            read -r rps p99 errors <<<"$(measure "$side" "$path" "$script")"
            if [ "$side" = A ]; then a_rps+=("$rps") a_p99+=("$p99") a_err=$((a_err + ${errors:-0}));
            else b_rps+=("$rps") b_p99+=("$p99") b_err=$((b_err + ${errors:-0})); fi
        done
    done
    ratio=$(python3 -c "import sys; a=[float(x) for x in sys.argv[1].split()]; b=[float(x) for x in sys.argv[2].split()]; print(f'{sum(b)/sum(a):.2f}')" \
        "${a_rps[*]}" "${b_rps[*]}")
    printf '| %s | %s | %s | %s | %s | %s | %s/%s |\n' "$label" "${a_rps[*]}" "${b_rps[*]}" "$ratio" "${a_p99[*]}" "${b_p99[*]}" "$a_err" "$b_err"
done
echo
echo "Load after the run: $(cut -d' ' -f1-3 /proc/loadavg)."
