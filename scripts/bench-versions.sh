#!/usr/bin/env bash
# Check-path throughput of two commits' native hosts, measured in one run:
# builds each commit's server from a worktree, starts both on loopback with
# fresh SQLite files, and runs the `versions` bench against both in
# alternating rounds (the first commit is the ratio's baseline).
#   scripts/bench-versions.sh BEFORE [AFTER [MORE...]]   (AFTER defaults to HEAD)
# Each of BEFORE and AFTER is a commit, or the path of a release binary
# already built (its label is then the file's name).
# CGW_BENCH_SECONDS, CGW_BENCH_CONNECTIONS and CGW_BENCH_ROUNDS as the bench takes.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: scripts/bench-versions.sh BEFORE [AFTER]}
after=${2:-HEAD}
work=$(mktemp -d)
repo=$PWD
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for w in "$work"/src-*; do [ -d "$w" ] && git worktree remove --force "$w" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# A commit's release server, built in a worktree with a target directory of
# its own (cargo's artifacts of workspace members do not name their source
# directory, so two checkouts must not share one).
build() {
  local label=$1 commit=$2
  if [ -x "$commit" ] && [ -f "$commit" ]; then cp "$commit" "$work/$label"; return; fi
  git worktree add --detach -q "$work/src-$label" "$commit"
  (cd "$work/src-$label" && CARGO_TARGET_DIR="$repo/target/versions/$label" cargo build --locked --release -q -p host-native)
  cp "$repo/target/versions/$label/release/compliance-gateway" "$work/$label"
}

start() {
  local label=$1 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  local db="sqlite://$work/$label.db"
  local admin
  admin=$("$work/$label" admin-key create --environment sandbox --database "$db")
  "$work/$label" serve --listen "127.0.0.1:$port" --database "$db" >"$work/$label.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null && break; sleep 0.1; done
  targets="${targets:-}${targets:+;}$label|http://127.0.0.1:$port|$admin"
}

short() { if [ -f "$1" ]; then basename "$1"; else git rev-parse --short "$1"; fi; }
# BEFORE, AFTER and any further versions, each with a label of its own
labels=("before-$(short "$before")" "after-$(short "$after")")
versions=("$before" "$after")
for extra in "${@:3}"; do labels+=("also-$(short "$extra")"); versions+=("$extra"); done
for i in "${!versions[@]}"; do build "${labels[$i]}" "${versions[$i]}"; done
targets=""
for label in "${labels[@]}"; do start "$label"; done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB"
CGW_BENCH_TARGETS="$targets" cargo bench --locked -q -p host-native --bench versions
