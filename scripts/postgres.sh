#!/usr/bin/env bash
# Starts a private, throwaway Postgres cluster and prints its URL.
# Usage: eval "$(scripts/postgres.sh start DIR PORT)"; scripts/postgres.sh stop DIR
# For fault tests: scripts/postgres.sh down DIR (a fast shutdown, data kept)
# and scripts/postgres.sh up DIR PORT (the same cluster again).
set -Eeuo pipefail
action=${1:?start or stop}
dir=${2:?data directory}

pg_bin() {
  for candidate in /usr/lib/postgresql/*/bin; do
    if [ -x "$candidate/initdb" ]; then echo "$candidate"; return; fi
  done
  if command -v initdb >/dev/null; then dirname "$(command -v initdb)"; return; fi
  echo "installing the Postgres server from Debian's packages" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) >&2
  for candidate in /usr/lib/postgresql/*/bin; do
    if [ -x "$candidate/initdb" ]; then echo "$candidate"; return; fi
  done
  echo "no Postgres server available" >&2; exit 1
}

# Postgres refuses to run as root: run it as the postgres user then.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
  start)
    trap 'echo "postgres failed to start; logs:" >&2; cat "$dir"/*.log >&2 2>/dev/null || true' ERR
    port=${3:?port}
    bin=$(pg_bin)
    rm -rf "$dir" && mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    as_owner "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE cgw" >/dev/null
    echo "export CGW_PG_URL=postgres://postgres@127.0.0.1:$port/cgw"
    echo "export CGW_PG_ADMIN_URL=postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  down)
    as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  up)
    port=${3:?port}
    as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    ;;
  stop)
    bin=$(pg_bin)
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
esac
