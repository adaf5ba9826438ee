#!/usr/bin/env bash
# The long runs, at scale: the same tests that `swift test` runs at small sizes, with COURIER_SOAK=1 — the PostgreSQL
# fleet (10,000 items in 100 lanes over four worker processes, a worker killed, PostgreSQL restarted) and the SQLite
# outbox killed 200 times mid-delivery, 3,000 seeded schedules of the background path. Each prints its figures. Run after `swift build --build-tests`.
set -uo pipefail
cd "$(dirname "$0")/.."
export COURIER_SOAK=1
log=/tmp/courier-soak.log
start=$(date +%s)
timeout 2400 swift test --skip-build --filter 'PostgresFleetTests|OutboxCrashTests|OutboxBackgroundScheduleTests' >"$log" 2>&1
status=$?
echo "== soak figures"
grep -E "^(outbox crash test|fleet |background schedules)" "$log" || true
grep -E "Test run with|✘" "$log" || true
echo "soak: $(($(date +%s) - start)) s, exit $status"
[ "$status" -eq 0 ] || tail -50 "$log"
exit "$status"
