#!/usr/bin/env bash
# The SDKs (sdk/typescript, sdk/python), generated from gateway/openapi.json.
#
#   scripts/sdk.sh generate   regenerates both SDKs' generated code in place
#   scripts/sdk.sh check      fails when the committed code differs from a fresh generation
#   scripts/sdk.sh test       each SDK's tests against the native host on loopback
#                             (needs target/release/compliance-gateway, or CGW_BINARY)
#
# What is generated: sdk/typescript/src/schema.d.ts (openapi-typescript),
# sdk/python/compliance_gateway/{api,models,client.py,errors.py,types.py}
# (openapi-python-client, formatted by its pinned ruff), and the table of the
# operations the gateway replays, which alone the SDKs retry:
# sdk/typescript/src/replayable.{js,d.ts} and sdk/python/compliance_gateway/_replayable.py
# (scripts/sdk-replayable.py, python3 only). Everything else in sdk/ is written by hand. Generation is offline once the tools are installed:
# the TypeScript tools are npm packages pinned in sdk/typescript/package-lock.json,
# the Python generator a virtualenv in the tools cache ($CGW_TOOLS_CACHE,
# default ~/.cache/cgw-tools) keyed by sdk/python/generator-requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools_cache=${CGW_TOOLS_CACHE:-$HOME/.cache/cgw-tools}
export NO_UPDATE_NOTIFIER=1
document=$root/gateway/openapi.json
ts=$root/sdk/typescript
py=$root/sdk/python
package=compliance_gateway
# the Python generator's output that is committed, in sdk/python/compliance_gateway
py_generated=(api models client.py errors.py types.py)
# scripts/sdk-replayable.py's output: sdk/typescript/src/..., sdk/python/compliance_gateway/...
ts_replayable=(replayable.js replayable.d.ts)
py_replayable=_replayable.py

die() { echo "sdk: $*" >&2; exit 2; }
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

# npm packages of sdk/typescript (the generator, the runtime, the type checker), once per lock file.
npm_packages() {
  local stamp=$ts/node_modules/.cgw-lock-sha256 want
  want=$(sha256sum "$ts/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    (cd "$ts" && quietly npm ci --no-audit --no-fund --prefer-offline)
    echo "$want" >"$stamp"
  fi
}

# openapi-python-client and its pinned dependencies (ruff among them), in a virtualenv of the tools cache.
python_generator() {
  local key venv
  key=$(sha256sum "$py/generator-requirements.txt" | cut -c1-16)
  venv=$tools_cache/openapi-python-client-$key
  if [ ! -f "$venv/.complete" ]; then
    echo "==> installing openapi-python-client into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    quietly "$venv/bin/pip" install --disable-pip-version-check --no-deps -r "$py/generator-requirements.txt"
    touch "$venv/.complete"
  fi
  echo "$venv"
}

# Writes a fresh generation into $1: typescript/src/{schema.d.ts,replayable.*} and python/compliance_gateway/...
generate_into() {
  local out=$1 venv work
  mkdir -p "$out/typescript/src" "$out/python/$package"
  python3 "$root/scripts/sdk-replayable.py" "$document" "$out"
  npm_packages
  (cd "$ts" && quietly node_modules/.bin/openapi-typescript "$document" --output "$out/typescript/src/schema.d.ts")
  venv=$(python_generator)
  work=$(mktemp -d)
  # ruff (a post hook) is found on PATH: the virtualenv's, at its pinned version
  (cd "$work" && PATH="$venv/bin:$PATH" quietly "$venv/bin/openapi-python-client" generate \
    --path "$document" --config "$py/generator-config.yaml" --meta none --output-path "$work/gen")
  for item in "${py_generated[@]}"; do
    cp -r "$work/gen/$item" "$out/python/$package/"
  done
  rm -rf "$work"
  find "$out" -name .ruff_cache -prune -exec rm -rf {} +
}

case "${1:-}" in
  generate)
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
    generate_into "$out"
    cp "$out/typescript/src/schema.d.ts" "$ts/src/schema.d.ts"
    for item in "${ts_replayable[@]}"; do
      cp "$out/typescript/src/$item" "$ts/src/$item"
    done
    cp "$out/python/$package/$py_replayable" "$py/$package/$py_replayable"
    for item in "${py_generated[@]}"; do
      rm -rf "${py:?}/$package/$item"
      cp -r "$out/python/$package/$item" "$py/$package/"
    done
    echo "sdk: regenerated sdk/typescript/src/{schema.d.ts,$(IFS=,; echo "${ts_replayable[*]}")} and sdk/python/$package/{$(IFS=,; echo "${py_generated[*]}"),$py_replayable}"
    ;;
  check)
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
    generate_into "$out"
    status=0
    diff -u "$ts/src/schema.d.ts" "$out/typescript/src/schema.d.ts" >"$out/diff" || status=1
    for item in "${ts_replayable[@]}"; do
      diff -u "$ts/src/$item" "$out/typescript/src/$item" >>"$out/diff" 2>&1 || status=1
    done
    diff -u "$py/$package/$py_replayable" "$out/python/$package/$py_replayable" >>"$out/diff" 2>&1 || status=1
    for item in "${py_generated[@]}"; do
      diff -ru --exclude=__pycache__ "$py/$package/$item" "$out/python/$package/$item" >>"$out/diff" 2>&1 || status=1
    done
    if [ "$status" != 0 ]; then
      head -60 "$out/diff" >&2
      die "the committed SDK code differs from a fresh generation from gateway/openapi.json; run: scripts/sdk.sh generate"
    fi
    echo "sdk: the committed SDK code is what gateway/openapi.json generates"
    ;;
  test)
    bin=${CGW_BINARY:-$root/target/release/compliance-gateway}
    [ -x "$bin" ] || die "no $bin: cargo build --release -p host-native"
    export CGW_BINARY=$bin
    npm_packages
    echo "==> sdk/typescript: type check and tests"
    (cd "$ts" && node_modules/.bin/tsc --noEmit -p tsconfig.json && node --test test/)
    echo "==> sdk/typescript: npm install ./sdk/typescript into a scratch project, then its exports"
    consumer=$(mktemp -d)
    (cd "$consumer" && quietly npm init -y && quietly npm install --no-audit --no-fund "$ts" \
      && node --input-type=module -e 'import * as sdk from "@compliance-gateway/sdk";
        for (const name of ["createClient", "isReplayable", "verifyWebhook", "WebhookDeduplicator", "ApiError", "WebhookVerificationError"]) {
          if (typeof sdk[name] !== "function") { console.error(`no export ${name}`); process.exit(1); }
        }
        if (!sdk.REPLAYABLE.some(([m, p]) => m === "POST" && p === "/v1/limits/commit")) { console.error("no REPLAYABLE"); process.exit(1); }
        console.log("exports createClient, isReplayable, REPLAYABLE, verifyWebhook, WebhookDeduplicator, ApiError, WebhookVerificationError");')
    rm -rf "$consumer"
    echo "==> sdk/python: pip install ./sdk/python into a fresh virtualenv, then its tests"
    venv=$(mktemp -d)
    trap 'rm -rf "$venv"' EXIT
    python3 -m venv "$venv"
    quietly "$venv/bin/pip" install --disable-pip-version-check "$py"
    # the tests run from their own folder, against the installed package, not the source tree
    (cd "$py/tests" && "$venv/bin/python" -W ignore::ResourceWarning -m unittest discover -v -s . -t . 2>&1)
    ;;
  *)
    sed -n '2,15p' "$0" >&2
    exit 2
    ;;
esac
