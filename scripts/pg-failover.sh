#!/usr/bin/env bash
# A private pg_auto_failover formation on loopback, for the failover fault
# test: a monitor and two data nodes with synchronous replication, with
# short health-check timeouts (docs/operations.md explains each setting).
# Usage: scripts/pg-failover.sh start DIR PORT   (monitor on PORT, nodes on PORT+1 and PORT+2; prints the URL)
#        scripts/pg-failover.sh kill-primary DIR (SIGKILL to the primary's keeper and every Postgres process of it)
#        scripts/pg-failover.sh state DIR
#        scripts/pg-failover.sh stop DIR
set -Eeuo pipefail
action=${1:?start, kill-primary, state or stop}
dir=${2:?directory}

bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
# pg_autoctl keeps state under the XDG directories: inside DIR, so nothing outlives it
export PATH="$bin:$PATH" XDG_CONFIG_HOME="$dir/xdg/config" XDG_DATA_HOME="$dir/xdg/data" XDG_RUNTIME_DIR="$dir/xdg/run"
xdg=(XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_DATA_HOME="$XDG_DATA_HOME" XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR")
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- env PATH="$PATH" "${xdg[@]}" "$@"; else "$@"; fi
}
psql_at() { as_owner psql -h 127.0.0.1 -p "$1" -d "$2" -qAt -c "$3"; }
# Starts a keeper in its own session, so that it outlives this script.
keeper() {
  local name=$1; shift
  if [ "$(id -u)" = 0 ]; then
    setsid runuser -u postgres -- env PATH="$PATH" "${xdg[@]}" pg_autoctl "$@" >"$dir/$name.log" 2>&1 < /dev/null &
  else
    setsid pg_autoctl "$@" >"$dir/$name.log" 2>&1 < /dev/null &
  fi
  # the keeper's session: it, its supervisor and the Postgres it starts
  echo $! >"$dir/$name.session"
}
kill_session() {
  local session
  session=$(cat "$dir/$1.session" 2>/dev/null) || return 0
  pkill -KILL -s "$session" 2>/dev/null || true
}
# The processes of the Postgres cluster in DATA: its postmaster and every child it forked. Each child
# takes a session of its own, so killing a keeper's session leaves them, and some (the monitor's logger
# and health-check workers) outlive their postmaster for good. The postmaster is stopped first, so that
# it forks nothing more while they are listed; a stale pid file (another process now) names nothing.
cluster_pids() {
  local data=$1 postmaster
  [ -f "$data/postmaster.pid" ] || return 0
  postmaster=$(head -1 "$data/postmaster.pid")
  tr '\0' ' ' <"/proc/$postmaster/cmdline" 2>/dev/null | grep -qF -- "-D $data " || return 0
  kill -STOP "$postmaster" 2>/dev/null || return 0
  echo "$postmaster" $(pgrep -P "$postmaster")
}
# SIGKILL to each pid given, then waits (at most 10 s) until every one is gone.
kill_all() {
  [ $# -gt 0 ] || return 0
  kill -KILL "$@" 2>/dev/null || true
  for _ in $(seq 1 40); do
    local left=0
    for pid in "$@"; do [ -e "/proc/$pid" ] && left=1; done
    [ "$left" = 0 ] && return 0
    sleep 0.25
  done
  echo "pg-failover: processes left: $*" >&2
}
wait_for() {
  local what=$1 seconds=$2; shift 2
  for _ in $(seq 1 $((seconds * 2))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "pg-failover: $what did not happen within $seconds s" >&2
  tail -20 "$dir"/*.log >&2 || true
  return 1
}
node_state() { psql_at "$port" pg_auto_failover "SELECT string_agg(reportedstate::text, ',' ORDER BY nodeid) FROM pgautofailover.node"; }

case "$action" in
  start)
    port=${3:?port}
    # a start that fails midway stops what it started
    trap 'status=$?; if [ "$status" != 0 ]; then "$0" stop "$dir" || true; fi' EXIT
    rm -rf "$dir" && mkdir -p "$dir" "$XDG_RUNTIME_DIR"
    chmod 700 "$XDG_RUNTIME_DIR"
    if [ "$(id -u)" = 0 ]; then chown -R postgres "$dir"; fi
    as_owner pg_autoctl create monitor --pgdata "$dir/monitor" --pgport "$port" --hostname 127.0.0.1 --auth trust --no-ssl >"$dir/monitor-create.log" 2>&1
    keeper monitor run --pgdata "$dir/monitor"
    wait_for "the monitor" 30 psql_at "$port" pg_auto_failover "SELECT 1"
    # A node is unhealthy after two seconds without an answer (default 20) and a primary that
    # cannot be reached is given four to demote itself (default 30), above each keeper's
    # network partition timeout of three (default 20), so that no two nodes accept writes.
    for setting in health_check_period=500 health_check_timeout=500 health_check_max_retries=1 health_check_retry_delay=250 \
                   node_considered_unhealthy_timeout=2000 primary_demote_timeout=4000; do
      psql_at "$port" pg_auto_failover "ALTER SYSTEM SET pgautofailover.${setting%%=*} = ${setting#*=}" >/dev/null
    done
    psql_at "$port" pg_auto_failover "SELECT pg_reload_conf()" >/dev/null
    monitor="postgres://autoctl_node@127.0.0.1:$port/pg_auto_failover?sslmode=disable"
    for n in 1 2; do
      keeper "node$n" create postgres --pgdata "$dir/node$n" --pgport $((port + n)) --hostname 127.0.0.1 --name "node$n" \
        --auth trust --no-ssl --monitor "$monitor" --dbname cgw --run
      if [ "$n" = 1 ]; then
        wait_for "node1 as the primary" 60 bash -c "[ \"\$(psql -h 127.0.0.1 -p $port -U postgres -d pg_auto_failover -qAt -c \"SELECT reportedstate FROM pgautofailover.node WHERE nodename = 'node1'\" 2>/dev/null)\" = single ]"
      fi
    done
    # The standby's base backup waits for a checkpoint: ask for one until it is a secondary.
    for _ in $(seq 1 120); do
      [ "$(node_state)" = "primary,secondary" ] && break
      psql_at $((port + 1)) cgw "CHECKPOINT" >/dev/null 2>&1 || true
      sleep 1
    done
    if [ "$(node_state)" != "primary,secondary" ]; then
      echo "pg-failover: the formation did not settle ($(node_state))" >&2; tail -20 "$dir"/*.log >&2; exit 1
    fi
    # once settled (a keeper rewrites its file while it creates its node)
    for n in 1 2; do
      # `config set` signals the running keeper to reload: only once its pid file exists
      # (without one it would signal its own process group, this script included)
      wait_for "node$n's keeper" 60 test -s "$XDG_RUNTIME_DIR/pg_autoctl$dir/node$n/pg_autoctl.pid"
      as_owner pg_autoctl config set --pgdata "$dir/node$n" timeout.network_partition_timeout 3 >/dev/null
    done
    echo "postgresql://postgres@127.0.0.1:$((port + 1)),127.0.0.1:$((port + 2))/cgw?target_session_attrs=read-write&connect_timeout=2"
    ;;
  kill-primary)
    for n in 1 2; do
      node="$dir/node$n"
      [ -f "$node/postmaster.pid" ] || continue
      p=$(sed -n 4p "$node/postmaster.pid")
      if [ "$(psql_at "$p" cgw "SELECT pg_is_in_recovery()" 2>/dev/null)" = f ]; then
        # Postgres and every process it forked, listed first; then the keeper's whole session (its
        # supervisor would restart Postgres), then them
        # shellcheck disable=SC2046
        set -- $(cluster_pids "$node")
        kill_session "node$n"
        kill_all "$@"
        echo "node$n"
        exit 0
      fi
    done
    echo "pg-failover: no primary found" >&2; exit 1
    ;;
  state)
    as_owner pg_autoctl show state --pgdata "$dir/monitor"
    ;;
  stop)
    # each cluster's processes listed before the keepers' sessions go (after, the orphans name no parent)
    pids=()
    for data in "$dir"/monitor "$dir"/node1 "$dir"/node2; do
      # shellcheck disable=SC2207
      pids+=($(cluster_pids "$data"))
    done
    for name in monitor node1 node2; do kill_session "$name"; done
    kill_all "${pids[@]}"
    for _ in $(seq 1 20); do pgrep -f -- "$dir/" >/dev/null || break; sleep 0.25; done
    rm -rf "$dir"
    ;;
esac
