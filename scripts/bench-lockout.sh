#!/usr/bin/env bash
# A stranger attack on a console account, against the real server on loopback
# (issue #48's goal: "Under a 10-minute stranger attack from 1,000 sources, the
# owner's known device still signs in"; a benchmark, not a timed test).
#
#   scripts/bench-lockout.sh [BINARY] [--minutes N] [--baseline-minutes M] [--sources S]
#                            [--concurrency C] [--rate R] [--out FILE.json]
#
# BINARY defaults to target/release/compliance-gateway. In a temp dir: a fresh
# SQLite database, a production console person (`console-user create`), the
# server on 127.0.0.1 at a free port (no trusted proxy header: the TCP peer is
# the source). scripts/bench_lockout.py then signs the person in once (the
# one-time password; the answer carries the device token), changes the
# password, and signs in again with the token; M minutes (default 2) of the
# owner's sign-ins alone (the baseline); then N minutes (default 10) of
# wrong-password sign-ins for the owner's address from S (default 1,000)
# loopback sources, 127.10.x.y, each a client socket bound to its address,
# C (default 8) in flight, at R a second (default 0: as fast as the server
# answers; each costs an argon2id check), while the owner signs in twice a
# TOTP step: from the known device (token, right password and code, from
# 127.20.0.1), and, as its twin, from a new device (no token, right password
# and code, a fresh 127.30.x.y each time), which the account-wide ceiling is
# expected to refuse. Prints a summary; the figures go to docs/benchmarks.md.
# Exits 1 when a known-device sign-in under attack failed.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=target/release/compliance-gateway minutes=10
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --baseline-minutes|--sources|--concurrency|--rate|--out|--timeout) extra+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    -*) echo "unknown argument: $1" >&2; exit 2 ;;
    *) binary="$1"; shift ;;
  esac
done
[ -x "$binary" ] || { echo "not an executable: $binary (build it: cargo build --release -p host-native)" >&2; exit 1; }
binary=$(realpath "$binary")
helper="$PWD/scripts/bench_lockout.py"

work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

db="sqlite://$work/gateway.db"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
account=$("$binary" console-user create --email owner@example.com --role admin --environment production --database "$db" 2>"$work/create.err") \
  || { cat "$work/create.err" >&2; exit 1; }

"$binary" serve --listen "127.0.0.1:$port" --database "$db" --log-format none >"$work/server.out" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  if python3 -c 'import sys, urllib.request; urllib.request.urlopen("http://127.0.0.1:%s/v1/health" % sys.argv[1], timeout=1)' "$port" 2>/dev/null; then break; fi
  kill -0 "$server" 2>/dev/null || { cat "$work/server.out" >&2; echo "the server stopped" >&2; exit 1; }
  sleep 0.2
done

echo "bench-lockout: $("$binary" --version), $(nproc) cores, server pid $server on 127.0.0.1:$port, $(date -u +%FT%TZ)"
status=0
python3 "$helper" --port "$port" --account "$account" --minutes "$minutes" --server-pid "$server" \
  --database "$work/gateway.db" ${extra[@]+"${extra[@]}"} || status=$?
if ! kill -0 "$server" 2>/dev/null; then echo "the server stopped during the run:" >&2; tail -20 "$work/server.out" >&2; status=1; fi
exit "$status"
