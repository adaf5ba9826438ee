#!/usr/bin/env bash
# Scores Courier's cache with http-tests/cache-tests (private-cache profile), once per store.
#
#   Scripts/cache-tests/run.sh /path/to/cache-tests [memory|sqlite ...]
#
# The suite is a checkout of https://github.com/http-tests/cache-tests (its origin server and test engine need only
# Node.js >= 18, no npm packages). Everything listens on 127.0.0.1. Not run in CI: it needs the suite.
set -euo pipefail
suite=$(cd "${1:?usage: run.sh /path/to/cache-tests [memory|sqlite ...]}" && pwd)
shift
stores=("${@:-memory}")
[ $# -eq 0 ] && stores=(memory sqlite)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
origin_port=${ORIGIN_PORT:-18000}
proxy_port=${PROXY_PORT:-18001}

(cd "$root" && swift build --product CacheTestsProxy 2>&1 | tail -3)
proxy="$(cd "$root" && swift build --product CacheTestsProxy --show-bin-path)/CacheTestsProxy"

CACHE_TESTS="$suite" npm_config_port=$origin_port node "$here/origin.mjs" >/dev/null &
origin_pid=$!
pids=("$origin_pid")
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
sleep 1
echo "cache-tests $(git -C "$suite" rev-parse HEAD 2>/dev/null || echo '(not a git checkout)')"
for store in "${stores[@]}"; do
  "$proxy" "$proxy_port" "http://127.0.0.1:$origin_port" "$store" >/dev/null &
  proxy_pid=$!
  pids+=("$proxy_pid")
  sleep 1
  printf '%-7s ' "$store"
  CACHE_TESTS="$suite" BASE="http://127.0.0.1:$proxy_port" node --no-warnings "$here/score.mjs" \
    ${VERBOSE:+--verbose} ${JSON_DIR:+--json "$JSON_DIR/$store.json"}
  kill "$proxy_pid"
  wait "$proxy_pid" 2>/dev/null || true
done
