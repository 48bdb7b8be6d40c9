#!/usr/bin/env bash
# Runs the server on embedded SQLite (./gateway.db, http://127.0.0.1:8080).
# The binary carries the audited rules component. Extra arguments go to `serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --locked --release -q -p host-native -- serve "$@"
