#!/usr/bin/env bash
# The edge host (Cloudflare Workers) from this checkout.
#
#   scripts/edge.sh build
#   scripts/edge.sh dev --port PORT --state DIR [--local-tools]
#                                                    local Workers runtime on 127.0.0.1:PORT, state in DIR, until killed;
#                                                    --local-tools adds the /__local/ routes (the conformance runner's list import);
#                                                    CGW_LIST_URLS in the environment sets the lists it refreshes
#   scripts/edge.sh serve --port PORT --state DIR [--port-file FILE] [--local-tools] [--measure] [--simulate SPEC]
#                                                    the same Worker straight from Miniflare (no dev proxy, no reload), for the test runners;
#                                                    --port 0 takes a free port, and --port-file FILE receives the port once it answers
#                                                    (the runners' way: a port picked in advance may be taken by another runtime meanwhile);
#                                                    --measure serves the local-only measuring entry (host-edge/js/measure.mjs): every
#                                                    binding call counted as a trip (GET /__local/trips with --local-tools) and delayed
#                                                    by SPEC = d1_primary=MS,d1_replica=MS,durable_object=MS,kv=MS,replica_lag=MS|never
#   scripts/edge.sh admin-key --environment sandbox|production --state DIR
#   scripts/edge.sh admin-key --environment sandbox|production --remote   for the deployed Worker's D1
#   scripts/edge.sh store-contract --state DIR       the store contract against local D1
#   scripts/edge.sh deploy                           wrangler deploy (needs a Cloudflare account)
#
# The build transpiles the committed rules component (rules/cgw_rules.wasm,
# the bytes the native host embeds) with jco, builds the Rust worker for
# wasm32 and binds it with wasm-bindgen. Tools come from registries only:
# npm packages pinned in host-edge/package-lock.json, and wasm-bindgen-cli
# built once into a cache outside the clone ($CGW_TOOLS_CACHE, default
# ~/.cache/cgw-tools), keyed by the version in Cargo.lock.
set -euo pipefail
caller_dir=$PWD
cd "$(dirname "$0")/.."
root=$PWD
edge=$root/host-edge

export WRANGLER_SEND_METRICS=false WRANGLER_SEND_ERROR_REPORTS=false CLOUDFLARE_CF_FETCH_ENABLED=false
export NO_UPDATE_NOTIFIER=1 CI="${CI:-}"
tools_cache=${CGW_TOOLS_CACHE:-$HOME/.cache/cgw-tools}

die() { echo "edge: $*" >&2; exit 2; }
quietly() { # runs a command, showing its output only when it fails
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

npm_packages() {
  local stamp=$edge/node_modules/.cgw-lock-sha256 want
  want=$(sha256sum "$edge/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    # `npm ci` refuses this lock file over optional packages of other
    # platforms (an npm 11 bug); `npm install` keeps to its versions.
    (cd "$edge" && quietly npm install --no-audit --no-fund --prefer-offline)
    echo "$want" >"$stamp"
  fi
}

wasm_bindgen_bin() {
  local version dir
  version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$root/Cargo.lock")
  [ -n "$version" ] || die "no wasm-bindgen in Cargo.lock"
  dir=$tools_cache/wasm-bindgen-cli-$version
  if [ ! -x "$dir/bin/wasm-bindgen" ]; then
    echo "edge: building wasm-bindgen-cli $version into $dir (once per machine, about 10 minutes)" >&2
    CARGO_TARGET_DIR=$tools_cache/build quietly cargo install wasm-bindgen-cli --version "$version" --root "$dir"
    rm -rf "$tools_cache/build"
  fi
  echo "$dir/bin/wasm-bindgen"
}

build() {
  npm_packages
  local bindgen component_hash stamp=$edge/build/rules/.component-sha256
  bindgen=$(wasm_bindgen_bin)
  component_hash=$(sha256sum "$root/rules/cgw_rules.wasm" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$component_hash" ]; then
    rm -rf "$edge/build/rules"
    quietly node "$edge/js/transpile.mjs" "$root/rules/cgw_rules.wasm" "$edge/build/rules"
    echo "$component_hash" >"$stamp"
  fi
  rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
  quietly cargo build --locked --release --target wasm32-unknown-unknown -p host-edge
  # Bound into a scratch directory of this process and switched in only when
  # changed, so that a build beside a running `dev` does not make wrangler
  # reload the Worker. build/worker is a symbolic link to build/worker-HASH,
  # replaced by one rename: builds running at once (test runners share
  # build/) never leave a server without its files.
  local fresh=$edge/build/worker.next.$$ hash
  rm -rf "$fresh"
  quietly "$bindgen" --target web --out-dir "$fresh" --out-name host_edge \
    "$root/target/wasm32-unknown-unknown/release/host_edge.wasm"
  if ! diff -rq "$fresh" "$edge/build/worker" >/dev/null 2>&1; then
    hash=$(cat "$fresh"/host_edge.js "$fresh"/host_edge_bg.wasm | sha256sum | cut -c1-16)
    if [ -d "$edge/build/worker-$hash" ] || ! mv -T "$fresh" "$edge/build/worker-$hash" 2>/dev/null; then
      rm -rf "$fresh"
    fi
    [ -L "$edge/build/worker" ] || rm -rf "$edge/build/worker"
    ln -sfn "worker-$hash" "$edge/build/worker.link.$$"
    mv -Tf "$edge/build/worker.link.$$" "$edge/build/worker"
  else
    rm -rf "$fresh"
  fi
}

command=${1:-}
[ $# -gt 0 ] && shift
port="" port_file="" state="" environment="" remote="" local_tools=disabled measure="" simulate="" passthrough=()
while [ $# -gt 0 ]; do
  case "$1" in
    --remote) remote=yes; shift ;;
    --local-tools) local_tools=enabled; shift ;;
    --measure) measure=yes; shift ;;
    --simulate) [ $# -ge 2 ] || die "--simulate SPEC"; simulate=$2; shift 2 ;;
    --port) port=${2:-}; shift 2 ;;
    --port-file) port_file=${2:-}; shift 2 ;;
    --state) state=${2:-}; shift 2 ;;
    --environment) environment=${2:-}; shift 2 ;;
    *) passthrough+=("$1"); shift ;;
  esac
done
need_state() {
  [ -n "$state" ] || die "--state DIR is required"
  case "$state" in /*) ;; *) state=$caller_dir/$state ;; esac
  mkdir -p "$state"
  # The key that seals webhook secrets in this state directory (deployed: `wrangler secret put CGW_SECRET_KEY`).
  if [ ! -s "$state/secret.key" ]; then
    (umask 077 && head -c 32 /dev/urandom | base64 >"$state/secret.key")
  fi
}

case "$command" in
  build)
    build
    ;;
  dev)
    [ -n "$port" ] || die "--port PORT is required"
    need_state
    build
    cd "$edge"
    exec "$edge/node_modules/.bin/wrangler" dev --local --ip 127.0.0.1 --port "$port" --persist-to "$state" \
      --show-interactive-dev-session=false --log-level "${CGW_EDGE_LOG_LEVEL:-error}" \
      --var "CGW_DISPATCH_IDLE_MS:${CGW_DISPATCH_IDLE_MS:-5000}" --var "CGW_SECRET_KEY:$(cat "$state/secret.key")" \
      --var "CGW_LOCAL_TOOLS:$local_tools" --var "CGW_LIST_URLS:${CGW_LIST_URLS:-}"
    ;;
  serve)
    [ -n "$port" ] || die "--port PORT is required"
    need_state
    build
    extra=()
    [ "$local_tools" = enabled ] && extra+=(--local-tools)
    [ -n "$measure" ] && extra+=(--measure)
    if [ -n "$simulate" ]; then
      [ -n "$measure" ] || die "--simulate needs --measure"
      extra+=(--simulate "$simulate")
    fi
    if [ -n "$port_file" ]; then
      case "$port_file" in /*) ;; *) port_file=$caller_dir/$port_file ;; esac
      extra+=(--port-file "$port_file")
    fi
    exec node "$edge/js/local.mjs" serve --port "$port" --state "$state" ${extra[@]+"${extra[@]}"}
    ;;
  admin-key)
    case "$environment" in sandbox | production) ;; *) die "--environment must be sandbox or production" ;; esac
    if [ -n "$remote" ]; then
      # The deployed Worker applies the schema on its first request; send one
      # (any path) before this. Only the key's hash reaches D1.
      build
      made=$(node "$edge/js/local.mjs" admin-key-sql --environment "$environment")
      key=$(node -e 'console.log(JSON.parse(process.argv[1]).key)' "$made")
      sql=$(node -e 'console.log(JSON.parse(process.argv[1]).sql)' "$made")
      (cd "$edge" && quietly "$edge/node_modules/.bin/wrangler" d1 execute DB --remote --command "$sql")
      echo "$key"
      exit 0
    fi
    need_state
    build
    exec node "$edge/js/local.mjs" admin-key --environment "$environment" --state "$state"
    ;;
  store-contract)
    need_state
    build
    exec node "$edge/js/local.mjs" store-contract --state "$state"
    ;;
  deploy)
    build
    cd "$edge"
    exec "$edge/node_modules/.bin/wrangler" deploy ${passthrough[@]+"${passthrough[@]}"}
    ;;
  *)
    die "usage: scripts/edge.sh build | dev --port PORT --state DIR | serve --port PORT --state DIR | admin-key --environment E --state DIR | store-contract --state DIR | deploy"
    ;;
esac
