#!/usr/bin/env bash
# Watches a conformance run the way a self-hoster's monitoring would: a real
# Prometheus (Debian's package) scrapes the host's --metrics-listen address,
# the host's JSON request log is kept, and the run's keys and secrets are
# collected (CGW_SECRETS_OUT). Afterwards it checks that Prometheus holds the
# request histogram and the queue-age gauge, that `promtool check metrics`
# passes on the scraped text, and that no key or secret reached the log.
# Usage: scripts/observe.sh start DIR   (prints the variables for the runner)
#        scripts/observe.sh check DIR
#        scripts/observe.sh stop DIR
set -Eeuo pipefail
action=${1:?start, check or stop}
dir=${2:?directory}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

case "$action" in
  start)
    mkdir -p "$dir"
    metrics_port=$(free_port); prometheus_port=$(free_port)
    echo "$prometheus_port" > "$dir/prometheus.port"
    cat > "$dir/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: compliance-gateway
    static_configs:
      - targets: ["127.0.0.1:$metrics_port"]
YAML
    setsid prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/tsdb" \
      --web.listen-address="127.0.0.1:$prometheus_port" >"$dir/prometheus.log" 2>&1 < /dev/null &
    echo $! > "$dir/prometheus.pid"
    # the last good scrape's text, for promtool
    ( while sleep 2; do curl -sf "http://127.0.0.1:$metrics_port/metrics" -o "$dir/metrics.tmp" && mv "$dir/metrics.tmp" "$dir/metrics.txt"; done ) \
      >/dev/null 2>&1 < /dev/null &
    echo $! > "$dir/scraper.pid"
    echo "export CGW_SERVE_ARGS='--metrics-listen 127.0.0.1:$metrics_port' CGW_SERVE_LOG='$dir/serve.log' CGW_SECRETS_OUT='$dir/secrets.txt'"
    ;;
  check)
    port=$(cat "$dir/prometheus.port")
    query() { curl -sf --get "http://127.0.0.1:$port/api/v1/query" --data-urlencode "query=$1"; }
    # the request histogram, by route, as Prometheus stored it
    requests=$(query 'sum(max_over_time(http_server_request_duration_seconds_count{http_route="/v1/limits/check"}[1h]))' | jq -r '.data.result[0].value[1] // "0"')
    buckets=$(query 'count(max_over_time(http_server_request_duration_seconds_bucket{http_route="/v1/sanctions/screen"}[1h]))' | jq -r '.data.result[0].value[1] // "0"')
    queues=$(query 'count(max_over_time(cgw_review_queue_oldest_age_seconds[1h]))' | jq -r '.data.result[0].value[1] // "0"')
    echo "prometheus holds $requests /v1/limits/check requests, $buckets screening histogram buckets, $queues queue-age series"
    [ "${requests%.*}" -gt 0 ] || { echo "no request histogram in Prometheus" >&2; tail -5 "$dir/prometheus.log" >&2; exit 1; }
    [ "$buckets" -ge 10 ] || { echo "the screening histogram has no buckets in Prometheus" >&2; exit 1; }
    [ "$queues" -ge 8 ] || { echo "no queue-age gauge in Prometheus" >&2; exit 1; }
    [ -s "$dir/metrics.txt" ] || { echo "no /metrics text was scraped" >&2; exit 1; }
    promtool check metrics < "$dir/metrics.txt"
    echo "promtool check metrics: ok ($(grep -c '^# TYPE' "$dir/metrics.txt") metrics)"
    # the log: one JSON line a request, and not one key or secret of the run in it
    lines=$(grep -c '"target":"request"' "$dir/serve.log" || true)
    secrets=$(grep -c . "$dir/secrets.txt" || true)
    echo "the request log has $lines lines; the run used $secrets keys, tokens, secrets and passwords"
    [ "$lines" -gt 1000 ] && [ "$secrets" -gt 50 ] || { echo "too little to check: the log or the secrets list is nearly empty" >&2; exit 1; }
    if grep -F -f "$dir/secrets.txt" "$dir/serve.log" > "$dir/leaks.txt"; then
      echo "secrets in the server's log:" >&2; cut -c1-300 "$dir/leaks.txt" | head -5 >&2; exit 1
    fi
    # the twin: the same grep finds a secret that is there
    first=$(head -1 "$dir/secrets.txt")
    echo "planted $first" | grep -qF -f "$dir/secrets.txt" || { echo "the secret grep finds nothing, even planted" >&2; exit 1; }
    echo "no key or secret in the log"
    ;;
  stop)
    for pidfile in "$dir/scraper.pid" "$dir/prometheus.pid"; do
      [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    ;;
esac
