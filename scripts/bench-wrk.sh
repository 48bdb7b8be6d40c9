#!/usr/bin/env bash
# The check path under an independent load generator (wrk, from Debian),
# against the release binary on loopback, with a production tenant: the
# player of host-native/benches/common (3 limits, 50 deposits) and an excluded
# player whose e-mail address the exclusion check asks about.
# Each round runs GET /v1/health, GET /v1/exclusions/check and
# POST /v1/limits/check in turn; the report gives each route's medians and
# their ratio to /v1/health on the same server in the same run.
#
#   scripts/bench-wrk.sh [--database URL] [--rounds N] [--seconds S] [--connections C] [--binary PATH] [--log-format F] [--aml]
#                        [--aml-environment production|sandbox] [--perf ROUTE FILE]
#
# --perf records the server with perf (Debian's linux-perf) while ROUTE
# (health, exclusions, limits, aml, aml-keyed, commit or commit-keyed) runs in the last round, and writes
# the flat profile (self time by function) to FILE, the recording to FILE.data.
#
# --aml adds POST /v1/aml/event: 2,000 players of a production tenant (of a
# sandbox one with --aml-environment sandbox, whose keys are never cached, a
# sandbox's test clock being per request), deposits, wagers and
# wins with unique transaction ids (run it with --connections 32, as issue #32
# states its goal), and POST /v1/limits/commit from the same players; each
# again with an Idempotency-Key a request (aml-keyed, commit-keyed: the
# answer is kept for replay; a commit's names the player, so an erasure
# since the reservation is checked in its batch).
#
# Nothing here runs in the test command: figures go to docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."

serve_args=() aml="" aml_environment=production perf_route="" perf_file=""
database="" rounds=3 seconds=10 connections=8 bin="$PWD/target/release/compliance-gateway"
while [ $# -gt 0 ]; do
  case "$1" in
    --database) database="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --binary) bin="$2"; shift 2 ;;
    --log-format) serve_args+=(--log-format "$2"); shift 2 ;;
    --aml) aml=1; shift ;;
    --aml-environment) aml_environment="$2"; shift 2 ;;
    --perf) perf_route="$2"; perf_file="$3"; shift 3 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
[ -z "$perf_route" ] || command -v perf >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -q linux-perf >/dev/null; } || { echo "perf is needed: apt-get install linux-perf" >&2; exit 1; }
command -v wrk >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -q wrk >/dev/null; } || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
[ -x "$bin" ] || cargo build --locked --release -q -p host-native

work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "$database" ] || database="sqlite://$work/gateway.db"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

printf '%s\n%s\n' \
  "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change" \
  "BENCH-1,Person,Zebulon Quaxworth,,1950-01-01,gb,,,Bench,,,,bench,2026-01-01,2026-01-01,2026-01-01" >"$work/list.csv"
"$bin" lists import --environment production --format opensanctions-csv --source bench --database "$database" "$work/list.csv" >/dev/null
admin=$("$bin" admin-key create --environment production --database "$database")
head -c 32 /dev/urandom | base64 >"$work/secret.key"
"$bin" serve --listen "127.0.0.1:$port" --database "$database" --secret-key-file "$work/secret.key" ${serve_args[@]+"${serve_args[@]}"} >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -sf "$base/v1/health" >/dev/null && break; sleep 0.1; done
curl -sf "$base/v1/health" >/dev/null || { echo "the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

post() { curl -sS --fail-with-body -X POST "$base$1" -H "authorization: Bearer $2" -H 'content-type: application/json' -d "$3"; }
tenant=$(post /v1/admin/tenants "$admin" '{"name":"bench","environment":"production","rate_limit_per_minute":1000000}')
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"$1\") or sys.exit(str(d)))"; }
key=$(echo "$tenant" | field api_key)
tenant_id=$(echo "$tenant" | field tenant_id)
# A key may make at most 1,000,000 requests a minute (the most a tenant may be
# given), and a fast machine passes that within a round: each wrk run of a
# check takes a fresh key of the tenant, so no run is answered 429.
fresh_key() { post "/v1/admin/tenants/$tenant_id/keys" "$admin" '{}' | field api_key; }
post /v1/sanctions/screen "$key" '{"user_id":"bench-user","first_name":"Ann","last_name":"Lee","date_of_birth":"1990-01-01","nationality":"GB","email":"bench@example.com"}' >/dev/null
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for kind in limit_daily limit_weekly limit_monthly; do
  post /v1/limits "$key" "{\"user_id\":\"bench-user\",\"limit_type\":\"$kind\",\"amount_cents\":100000000,\"currency\":\"USD\",\"requested_at\":\"$now\"}" >/dev/null
done
for i in $(seq 0 49); do
  post /v1/limits/commit "$key" "{\"transaction_id\":\"bench-$i\",\"user_id\":\"bench-user\",\"amount_cents\":1000,\"currency\":\"USD\"}" >/dev/null
done
post /v1/sanctions/screen "$key" '{"user_id":"bench-excluded","first_name":"Bo","last_name":"Lee","date_of_birth":"1990-01-01","nationality":"GB","email":"excluded-bench@example.com"}' >/dev/null
post /v1/exclusions "$key" "{\"user_id\":\"bench-excluded\",\"duration\":\"duration_30d\",\"reason\":\"self_initiated\",\"initiated_at\":\"$now\",\"email\":\"excluded-bench@example.com\"}" >/dev/null
curl -sf "$base/v1/exclusions/check?email=excluded-bench@example.com" -H "authorization: Bearer $key" | grep -q "\"is_excluded\":true" ||
  { echo "the exclusion check does not answer excluded" >&2; exit 1; }
check=$(post /v1/limits/check "$key" '{"user_id":"bench-user","amount_cents":500,"currency":"USD"}'); echo "$check" | grep -q "\"allowed\":true" ||
  { echo "the limits check does not answer allowed: $check" >&2; exit 1; }

cat >"$work/report.lua" <<'EOF'
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout
  io.write(string.format("RESULT %.1f %.3f %.3f %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors))
end
EOF
# the checks' scripts, with the key $1
check_scripts() {
  cat >"$work/check.lua" <<EOF
wrk.method = "POST"
wrk.body = '{"user_id":"bench-user","amount_cents":500,"currency":"USD"}'
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer $1"
EOF
  cat "$work/check.lua" "$work/report.lua" >"$work/limits.lua"
  printf 'wrk.headers["authorization"] = "Bearer %s"\n' "$1" | cat - "$work/report.lua" >"$work/exclusions.lua"
}
check_scripts "$key"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }   # the server's user + system time
# a Postgres on this machine: its processes' user + system time (the store's CPU)
store_ticks() {
  case "$database" in postgres*) ;; *) echo 0; return ;; esac
  for pid in $(pgrep -x postgres); do awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null; done | awk '{s += $1} END {print s + 0}'
}
round=0
run() { # route name, then wrk's target and script
  local name="$1" url="$2" script="$3" line before after recorder=""
  if [ "$name" = "$perf_route" ] && [ "$round" = "$rounds" ]; then
    perf record -F 299 --call-graph dwarf,16384 -p "$server" -o "$work/perf.data" >/dev/null 2>&1 &
    recorder=$!
  fi
  case "$name" in exclusions | limits) check_scripts "$(fresh_key)" ;; esac
  before=$(cpu_ticks) store_before=$(store_ticks)
  line=$(wrk -t2 -c"$connections" -d"${seconds}s" -s "$script" "$url" | grep '^RESULT')
  after=$(cpu_ticks) store_after=$(store_ticks)
  if [ -n "$recorder" ]; then
    kill -INT "$recorder"; wait "$recorder" || true
    { echo "# self time by function"
      perf report -i "$work/perf.data" --stdio --no-children --percent-limit 0.5 --sort symbol -g none 2>/dev/null
      echo "# with callees (children)"
      perf report -i "$work/perf.data" --stdio --children --percent-limit 2 --sort symbol -g none 2>/dev/null; } >"$perf_file"
    mv "$work/perf.data" "$perf_file.data"   # for further questions: perf report -i FILE.data
  fi
  echo "$name $line $((after - before)) $((store_after - store_before))" >>"$work/results"
  echo "$name $line $((after - before)) $((store_after - store_before))"
}
if [ -n "$aml" ]; then
  aml_key=$(post /v1/admin/tenants "$("$bin" admin-key create --environment "$aml_environment" --database "$database")" "{\"name\":\"aml\",\"environment\":\"$aml_environment\",\"rate_limit_per_minute\":1000000}" |
    python3 -c "import json,sys; print(json.load(sys.stdin)['api_key'])")
  python3 - "$base" "$aml_key" <<'PY'
import http.client, json, sys, urllib.parse
url = urllib.parse.urlparse(sys.argv[1])
conn = http.client.HTTPConnection(url.hostname, url.port)
for u in range(2000):
    body = json.dumps({"user_id": f"u{u}", "first_name": "Ann", "last_name": "Lee", "date_of_birth": "1990-01-01", "nationality": "GB", "email": f"u{u}@example.com"})
    conn.request("POST", "/v1/sanctions/screen", body, {"authorization": f"Bearer {sys.argv[2]}", "content-type": "application/json"})
    answer = conn.getresponse(); answer.read()
    if answer.status >= 300:
        sys.exit(f"screening u{u} answered {answer.status}")
PY
  for path in aml aml-keyed commit commit-keyed; do
    cat >"$work/$path.lua" <<LUA
-- thread_id is a global: thread:set writes the thread's globals, and a local
-- of the same name would keep every thread at 0 (the same transaction ids)
local counter = 0
thread_id = 0
local threads = 0
function setup(thread) threads = threads + 1; thread:set("thread_id", threads) end
function request()
  counter = counter + 1
  local user = "u" .. ((counter * 7 + thread_id) % 2000)
  local tx = "$path-" .. os.time() .. "-" .. thread_id .. "-" .. counter
  local body
  if string.sub("$path", 1, 3) == "aml" then
    local kinds = { "deposit", "wager", "win", "wager" }
    body = '{"transaction_id":"' .. tx .. '","user_id":"' .. user .. '","event_type":"' .. kinds[counter % 4 + 1] .. '","amount_cents":2000,"currency":"USD","payment_method":"card"}'
  else
    body = '{"transaction_id":"' .. tx .. '","user_id":"' .. user .. '","amount_cents":100,"currency":"USD"}'
  end
  local headers = { ["content-type"] = "application/json", ["authorization"] = "Bearer $aml_key" }
  if string.sub("$path", -6) == "-keyed" then headers["idempotency-key"] = tx end
  return wrk.format("POST", nil, headers, body)
end
LUA
    cat "$work/report.lua" >>"$work/$path.lua"
  done
fi
echo "==> wrk -t2 -c$connections -d${seconds}s, $rounds rounds, $database"
for r in $(seq 1 "$rounds"); do
  round=$r
  run health "$base/v1/health" "$work/report.lua"
  run exclusions "$base/v1/exclusions/check?email=excluded-bench@example.com" "$work/exclusions.lua"
  run limits "$base/v1/limits/check" "$work/limits.lua"
  if [ -n "$aml" ]; then
    run aml "$base/v1/aml/event" "$work/aml.lua"
    run aml-keyed "$base/v1/aml/event" "$work/aml-keyed.lua"
    run commit "$base/v1/limits/commit" "$work/commit.lua"
    run commit-keyed "$base/v1/limits/commit" "$work/commit-keyed.lua"
  fi
done
python3 - "$work/results" "$seconds" <<'EOF'
import os, statistics, sys
seconds = float(sys.argv[2])
rows = {}
for line in open(sys.argv[1]):
    name, _, rps, p50, p99, errors, ticks, store_ticks = line.split()
    # the server's (and a local Postgres') CPU time per request, in µs (clock ticks of 1/CLK_TCK s)
    per_request = lambda t: int(t) / os.sysconf("SC_CLK_TCK") / (float(rps) * seconds) * 1e6
    rows.setdefault(name, []).append((float(rps), float(p50), float(p99), int(errors), per_request(ticks), per_request(store_ticks)))
health = statistics.median(r[0] for r in rows["health"])
print("| route | req/s (median) | p50 ms | p99 ms (each round) | errors | ratio to /v1/health | server CPU µs/request | Postgres CPU µs/request |")
print("|---|---|---|---|---|---|---|---|")
for name, label in [("health", "GET /v1/health"), ("exclusions", "GET /v1/exclusions/check"), ("limits", "POST /v1/limits/check"),
                    ("aml", "POST /v1/aml/event (2,000 players)"),
                    ("aml-keyed", "the same, each with an Idempotency-Key"), ("commit", "POST /v1/limits/commit (2,000 players)"),
                    ("commit-keyed", "the same, each with an Idempotency-Key")]:
    r = rows.get(name)
    if not r:
        continue
    rps = statistics.median(x[0] for x in r)
    print(f"| {label} | {rps:,.0f} | {statistics.median(x[1] for x in r):.2f} | {' / '.join(f'{x[2]:.2f}' for x in r)} | {sum(x[3] for x in r)} | {rps / health:.2f} | {statistics.median(x[4] for x in r):.0f} | {statistics.median(x[5] for x in r):.0f} |")
EOF
