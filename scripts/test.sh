#!/usr/bin/env bash
# Runs every test from a fresh machine: toolchain targets, the rules
# component (built twice, in two directories, to prove the hash is
# reproducible), lints, unit and store-contract tests (SQLite, Postgres, D1),
# the console in a real browser (Chromium, installed when missing),
# the fault tests (each on a Postgres cluster of its own), and the
# conformance suite against the native host on SQLite, against two native
# hosts on one private Postgres, and against the edge host under the local
# Workers runtime.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TERM_COLOR=never
step() { printf '\n==> %s\n' "$*"; }

work=$(mktemp -d)
chmod 755 "$work"   # the postgres user must reach its data directory inside
pg_dir="$work/pg"
cleanup() { scripts/postgres.sh stop "$pg_dir" || true; rm -rf "$work"; }
trap cleanup EXIT

step "toolchain (pinned by rust-toolchain.toml) and the wasm32 target"
rustup show active-toolchain
rustup target add wasm32-unknown-unknown

step "every crate of the lock, for every platform (the dependency-graph test reads Cargo's whole resolve offline)"
cargo fetch --locked

step "build: rules component, host and tools"
cargo build --locked --release -p build-rules -p host-native
hash=$(target/release/build-rules)
echo "rules component sha256 $hash"

step "the runaway test double (decide-deposit never returns), for the rules time-bound test"
target/release/build-rules --features runaway-for-tests --out target/rules/runaway.wasm >/dev/null

step "a backtest candidate (the default CTR threshold halved, its CDD amount raised), for the backtest's tests"
target/release/build-rules --features candidate-for-tests --out target/rules/candidate.wasm >/dev/null

step "the committed component (carried in the binary) is the one this checkout builds"
if ! cmp -s target/rules/cgw_rules.wasm rules/cgw_rules.wasm; then
  echo "rules/cgw_rules.wasm differs from a rebuild ($hash); run: cargo run -p build-rules && cp target/rules/cgw_rules.wasm rules/" >&2
  exit 1
fi
echo "rules/cgw_rules.wasm is the rebuilt component"

step "rules component is reproducible from another directory"
copy="$work/second-checkout"
mkdir -p "$copy"
tar --exclude=./target --exclude=./.git --exclude=./host-edge/node_modules --exclude=./host-edge/build -cf - . | tar -xf - -C "$copy"
second=$(target/release/build-rules --workspace "$copy" --out "$work/second.wasm")
if [ "$hash" != "$second" ]; then
  echo "rules component is not reproducible: $hash != $second" >&2
  exit 1
fi
echo "same sha256 from $copy"

step "gateway compiles for wasm32-unknown-unknown (the edge host's target)"
cargo check --locked -p gateway --target wasm32-unknown-unknown

step "edge host: transpile the committed component, build the worker (tools cached in ${CGW_TOOLS_CACHE:-~/.cache/cgw-tools})"
scripts/edge.sh build

step "formatting and lints"
cargo fmt --all --check
cargo clippy --locked --release --workspace --all-targets -- -D warnings
cargo clippy --locked --release --target wasm32-unknown-unknown -p host-edge -- -D warnings
cargo clippy --locked --release -p host-native --features otel --all-targets -- -D warnings

step "a real browser for the console tests: Debian's Chromium and ChromeDriver, axe-core and oidc-provider (tools/browser)"
if [ ! -x /usr/bin/chromedriver ] || [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi
/usr/bin/chromium --version
mkdir -p "$work/browser-tools"
cp tools/browser/package.json tools/browser/package-lock.json "$work/browser-tools/"
(cd "$work/browser-tools" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
# CGW_BROWSER_TOOLS: where oidc-provider is, for the sign-on test's real provider (host-native/tests/console_browser_oidc.rs)
export CGW_BROWSER_TESTS=1 CGW_AXE_JS="$work/browser-tools/node_modules/axe-core/axe.min.js" CGW_BROWSER_TOOLS="$work/browser-tools"

step "operations tools from Debian: Prometheus and promtool (metrics and alert tests), pg_auto_failover (the failover fault test)"
if ! command -v promtool >/dev/null || ! command -v prometheus >/dev/null || ! command -v pg_autoctl >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus postgresql-15-auto-failover pg-auto-failover-cli >/dev/null
fi
promtool --version | head -1

step "alert rules: promtool check and unit tests (deploy/prometheus)"
(cd deploy/prometheus && promtool check rules alerts.yml && promtool test rules alerts.test.yml)

step "private Postgres"
port=$((20000 + RANDOM % 20000))
pg_env=$(scripts/postgres.sh start "$pg_dir" "$port")
eval "$pg_env"
echo "postgres on 127.0.0.1:$port"

step "an XSD 1.1 processor for the regulator filings: Debian's python3-xmlschema"
# the python3 on PATH when it has the module (a pyenv's, say), else Debian's own, which the package serves
filings_python=python3
if ! python3 -c 'import xmlschema' 2>/dev/null; then
  filings_python=/usr/bin/python3
  if ! "$filings_python" -c 'import xmlschema' 2>/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-xmlschema >/dev/null
  fi
fi
"$filings_python" -c 'import xmlschema; print("xmlschema", xmlschema.__version__)'
# the facets the Rust checks hold drafts to are the committed XSDs' (gateway/src/filings/facets.rs, generated)
"$filings_python" scripts/fincen-facets.py check
# every filing a test drafts is written here, then validated against the authorities' schemas
export CGW_FILINGS_OUT="$work/filings"

step "unit, differential and store-contract tests"
CGW_TEST_POSTGRES_URL=$CGW_PG_ADMIN_URL CGW_FAILOVER_TESTS=1 cargo test --locked --release --workspace --exclude conformance

step "regulator filings drafted by the unit tests: FinCEN SAR/CTR against EFL_SARX/CTRXBatchSchema.xsd v1.2, committed in conformance/data; goAML against CGW_GOAML_XSD when given, else skipped (no licensed schema); the corrupted twins refused"
"$filings_python" scripts/validate-filings.py "$CGW_FILINGS_OUT"

step "traces (cargo feature otel): spans exported over OTLP/HTTP to a loopback receiver, the trace carried to a webhook"
cargo test --locked --release -p host-native --features otel --test otel

export CGW_BINARY="$root/target/release/compliance-gateway"
export CGW_EXPECTED_RULES_SHA256=$hash

step "store contract on local D1 (Miniflare)"
scripts/edge.sh store-contract --state "$work/edge-contract"

step "conformance suite: native host on SQLite, watched by a real Prometheus (scripts/observe.sh)"
(
  eval "$(scripts/observe.sh start "$work/observe")"
  trap 'scripts/observe.sh stop "$work/observe"' EXIT
  cargo test --locked --release -p conformance --test native
  step "what the run showed: Prometheus holds the request histogram and the queue ages, promtool checks the scraped metrics, no secret in the log"
  scripts/observe.sh check "$work/observe"
)

step "conformance suite: two native hosts on one Postgres, requests alternating between them"
CGW_HOSTS=2 CGW_DATABASE_URL=$CGW_PG_URL cargo test --locked --release -p conformance --test native

step "OpenAPI contract (gateway/openapi.json): schemathesis against the native host on SQLite, then Postgres"
scripts/fuzz-api.sh
scripts/fuzz-api.sh --database "$CGW_PG_URL"

step "SDKs (sdk/typescript, sdk/python): the committed code is what gateway/openapi.json generates; each SDK's tests against the native host"
scripts/sdk.sh check
scripts/sdk.sh test

step "conformance suite: edge host under wrangler dev (local D1, Durable Objects, KV)"
CGW_EDGE_CONFORMANCE=1 cargo test --locked --release -p conformance --test edge

step "the exclusion check near the caller at the edge: a simulated lagging replica (0, 0.5 s, 2 s, 10 s, never) keeps the 1 s bound; the fence-off twin is caught; an echoed bookmark reads its own write"
CGW_EDGE_CONFORMANCE=1 cargo test --locked --release -p conformance --test edge_replica

step "counted round trips at the edge (scripts/edge.sh serve --measure): a warm limits/check makes one primary trip and nothing else, read-only checks wake no dispatcher, a new isolate makes no migration trip; each with its twin"
CGW_EDGE_CONFORMANCE=1 cargo test --locked --release -p conformance --test edge_trips

step "the console in a real browser against the edge host: a team made through POST /v1/admin/people clears a case"
CGW_EDGE_CONFORMANCE=1 cargo test --locked --release -p host-native --test console_browser -- on_the_edge

step "OpenAPI contract at the edge: schemathesis against scripts/edge.sh serve (a short time box)"
scripts/fuzz-api.sh --edge

step "regulator filings the hosts drafted in the conformance runs, against the same schemas"
"$filings_python" scripts/validate-filings.py "$CGW_FILINGS_OUT"

step "all tests passed"
