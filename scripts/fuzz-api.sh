#!/usr/bin/env bash
# Holds a host to its OpenAPI document (gateway/openapi.json) with
# schemathesis, an independent fuzzer from PyPI: no 5xx for any input, every
# response of its documented status, content type, headers and schema.
#
#   scripts/fuzz-api.sh [--database URL] [--max-examples N]
#   scripts/fuzz-api.sh --edge [--max-examples N]
#
# The native server is started on loopback with a fresh SQLite file unless
# --database names another store. --edge fuzzes the edge host instead
# (`scripts/edge.sh serve` on fresh local state, as deployed: no local tools),
# with fewer examples by default (5: every request crosses the local Workers
# runtime) and each of its two runs boxed in CGW_FUZZ_EDGE_SECONDS (600; past it the run fails). Tenant
# operations run with a sandbox tenant's key, admin operations with an admin
# key. schemathesis is installed once into ~/.cache/cgw-tools, keyed by its version.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
database=""
max_examples=""
edge=""
while [ $# -gt 0 ]; do
  case "$1" in
    --database) database="$2"; shift 2 ;;
    --max-examples) max_examples="$2"; shift 2 ;;
    --edge) edge=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

tools="${CGW_TOOLS_DIR:-$HOME/.cache/cgw-tools}"
venv="$tools/schemathesis-$SCHEMATHESIS_VERSION"
if [ ! -f "$venv/.complete" ]; then
  echo "==> installing schemathesis $SCHEMATHESIS_VERSION into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  touch "$venv/.complete"
fi

work=$(mktemp -d)
server=""
cleanup() {
  # the edge server is a process group of its own (node and workerd)
  # the stopped server's own status (143 for the edge runtime's TERM) is not the run's
  [ -n "$server" ] && { kill -TERM -- "-$server" 2>/dev/null || kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

if [ -n "$edge" ]; then
  [ -z "$database" ] || { echo "--edge uses its own local D1; --database does not apply" >&2; exit 2; }
  max_examples=${max_examples:-5}
  database="edge host (local D1)"
  admin=$(scripts/edge.sh admin-key --environment sandbox --state "$work/edge")
  setsid scripts/edge.sh serve --port "$port" --state "$work/edge" >"$work/server.log" 2>&1 &
  server=$!
  tries=1800   # the runtime takes some seconds to start (and edge.sh serve first checks the build)
else
  max_examples=${max_examples:-25}
  bin="${CGW_BINARY:-$PWD/target/release/compliance-gateway}"
  [ -x "$bin" ] || cargo build --locked --release -q -p host-native
  [ -n "$database" ] || database="sqlite://$work/gateway.db"
  admin=$("$bin" admin-key create --environment sandbox --database "$database")
  head -c 32 /dev/urandom | base64 >"$work/secret.key"   # a shared database needs its key given
  "$bin" serve --listen "127.0.0.1:$port" --database "$database" --secret-key-file "$work/secret.key" >"$work/server.log" 2>&1 &
  server=$!
  tries=100
fi
for _ in $(seq 1 "$tries"); do
  curl -sf "$base/v1/health" >/dev/null && break
  sleep 0.1
done
curl -sf "$base/v1/health" >/dev/null || { echo "the server did not answer /v1/health:" >&2; cat "$work/server.log" >&2; exit 1; }
curl -sf "$base/v1/openapi.json" -o "$work/openapi.json"
python3 - "$work/openapi.json" <<'EOF'
import json, sys
served = json.load(open(sys.argv[1]))
committed = json.load(open("gateway/openapi.json"))
sys.exit(0 if served == committed else "the served document is not gateway/openapi.json")
EOF

tenant_key=$(curl -sf -X POST "$base/v1/admin/tenants" -H "authorization: Bearer $admin" -H 'content-type: application/json' \
  -d '{"name":"schemathesis","environment":"sandbox","rate_limit_per_minute":1000000}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["api_key"])')

# One worker: with several threads, CPython 3.11.7's ast.parse (which
# hypothesis calls) fails with "AST constructor recursion depth mismatch".
# Every check runs but positive_data_acceptance (why: scripts/schemathesis.toml,
# which also says which statuses count as a refusal). Each request's
# Idempotency-Key is made its own (why: scripts/schemathesis_hooks.py).
# The fuzzer's own requests come from loopback, which the per-source failure
# limit exempts, so its bad keys cannot lock out its good ones.
boxed=()
[ -z "$edge" ] || boxed=(timeout --signal=TERM "${CGW_FUZZ_EDGE_SECONDS:-600}")
run() {
  local key="$1"; shift
  SCHEMATHESIS_HOOKS=scripts/schemathesis_hooks.py ${boxed[@]+"${boxed[@]}"} "$venv/bin/schemathesis" --config-file scripts/schemathesis.toml run "$base/v1/openapi.json" \
    --header "Authorization: Bearer $key" \
    --checks all \
    --exclude-checks positive_data_acceptance \
    --max-examples "$max_examples" \
    --seed 20261122 \
    --workers 1 \
    --request-timeout 10 \
    --warnings off \
    --no-color \
    "$@"
}
status=0
echo "==> tenant operations ($base, $database)"
run "$tenant_key" --exclude-tag admin || status=1
echo "==> admin operations"
run "$admin" --include-tag admin || status=1
if [ "$status" != 0 ]; then
  echo "==> the server's log" >&2
  tail -n 200 "$work/server.log" >&2
fi
[ -z "${CGW_FUZZ_SERVER_LOG:-}" ] || cp "$work/server.log" "$CGW_FUZZ_SERVER_LOG"
exit $status
