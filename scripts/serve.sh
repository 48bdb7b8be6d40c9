#!/usr/bin/env bash
# Builds the rules component and runs the server on embedded SQLite
# (./gateway.db, http://127.0.0.1:8080). Extra arguments go to `serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
cargo run --locked --release -q -p build-rules >/dev/null
exec cargo run --locked --release -q -p host-native -- serve "$@"
