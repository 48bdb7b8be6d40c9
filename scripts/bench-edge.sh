#!/usr/bin/env bash
# Benchmarks the edge host beside the native host in the same run: starts
# `scripts/edge.sh dev` on a free loopback port with fresh state, then runs
# the `http` and `webhook_latency` benches with it as an extra target.
#   scripts/bench-edge.sh        (CGW_BENCH_SECONDS, CGW_BENCH_EXCLUSIONS as the benches take)
set -euo pipefail
cd "$(dirname "$0")/.."
state=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
admin=$(scripts/edge.sh admin-key --environment sandbox --state "$state")
setsid scripts/edge.sh dev --port "$port" --state "$state" &
dev=$!
trap 'kill -- -$dev 2>/dev/null || true; rm -rf "$state"' EXIT
for _ in $(seq 1 240); do curl -fs "http://127.0.0.1:$port/v1/health" >/dev/null && break; sleep 0.5; done
export CGW_BENCH_EDGE_URL=http://127.0.0.1:$port CGW_BENCH_EDGE_ADMIN_KEY=$admin
cargo bench -p host-native --bench http
CGW_BENCH_EXCLUSIONS=${CGW_BENCH_EXCLUSIONS:-300} cargo bench -p host-native --bench webhook_latency
