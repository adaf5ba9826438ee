#!/usr/bin/env bash
# Runs Courier's benchmarks against nginx on 127.0.0.1 and writes Benchmarks/RESULTS.md.
#
#   Benchmarks/run.sh            full run (1 GiB transfers, more requests, 3 rounds)
#   Benchmarks/run.sh --quick    smaller counts and a 256 MiB file; about 9 minutes on 2 cores
#   Benchmarks/run.sh --tune-host [--quick]   also changes one host setting for the run (below), and says so
#   Benchmarks/run.sh --latency  only the sequential-latency rows (about 4 minutes), printed and not written
#
# Installs nginx from the distribution's packages when it is missing, starts it in the foreground with its own
# configuration and temporary directories (nothing of the system's nginx is used or touched), builds the benchmark
# package in release mode, runs every measurement in its own process (so each peak RSS belongs to one scenario),
# stops nginx, and prints one `ratio <scenario> <value>` line per scenario. It changes no setting of the host unless
# asked: with `--tune-host`, run as root on a virtual machine with free page reporting, it keeps freed memory from
# the host for a minute while it runs (`min_free_ms` below), prints that it did, and puts the kernel's setting back at
# exit.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODE=full
TUNE_HOST=no
LATENCY_ONLY=no
for argument in "$@"; do
  case "$argument" in
    --quick) MODE=quick ;;
    --tune-host) TUNE_HOST=yes ;;
    --latency) LATENCY_ONLY=yes ;;
    *)
      echo "usage: $0 [--quick] [--tune-host] [--latency]" >&2
      exit 2
      ;;
  esac
done

if [[ $MODE == quick ]]; then
  SEQ_URLSESSION=3000 SEQ_AHC=10000 CONC_URLSESSION=6000 CONC_AHC=20000
  LARGE_MIB=256 QUERY_COUNT=20000 CACHE_COUNT=20000 ROUNDS=2 EVICTION_WRITES=1000 TRANSFER_SECONDS=1
else
  SEQ_URLSESSION=10000 SEQ_AHC=40000 CONC_URLSESSION=20000 CONC_AHC=80000
  LARGE_MIB=1024 QUERY_COUNT=100000 CACHE_COUNT=100000 ROUNDS=3 EVICTION_WRITES=5000 TRANSFER_SECONDS=3
fi
CONCURRENCY=64
# Transfers run MIN_TRANSFER_ROUNDS times or more, until each side's interquartile spread, (Q3 − Q1) / median, is
# under 5%, or MAX_ROUNDS runs.
MIN_TRANSFER_ROUNDS=5
MAX_ROUNDS=10
LARGE_BYTES=$((LARGE_MIB * 1024 * 1024))
STARTED=$SECONDS

# --- nginx -----------------------------------------------------------------------------------------------------
NGINX="$(command -v nginx || true)"
[[ -z "$NGINX" && -x /usr/sbin/nginx ]] && NGINX=/usr/sbin/nginx
if [[ -z "$NGINX" ]]; then
  echo "Installing nginx from the distribution's packages…"
  apt-get update
  apt-get install -y nginx
  NGINX=/usr/sbin/nginx
fi

# Working files live in memory when /dev/shm has room (the large file, uploads, nginx's temp files and the client's
# temporary files: the multipart form a URLSession client writes before uploading it).
PARENT=/tmp
if [[ -d /dev/shm ]] && (($(df -Pk /dev/shm | awk 'NR==2 {print $4}') > 4 * LARGE_BYTES / 1024)); then
  PARENT=/dev/shm
fi
WORK="$(mktemp -d "$PARENT/courier-bench.XXXXXX")"
NGINX_PID=""
# With --tune-host, freed memory stays with this machine for a minute. On a virtual machine whose kernel reports freed pages to the
# host at once (free page reporting with `min_free_ms` 0, as here), the host discards them, and the next write to
# them faults on the host. Every upload makes nginx write the whole body into a new file, deleted after each round,
# so its rate depended on which pages that file got: the same 1 GiB upload cost nginx 0.46 s or 2.2 s of CPU, three
# quarters of it in the kernel's copy into those pages, and ran at 2,100 or 465 MB/s. A minute is the longest the
# kernel accepts and much longer than a round. The setting is put back at exit. Before each transfer run, the pages
# are written once more (`prime_memory`), so the first runs do not land in pages handed back before the script began.
REPORTING=/sys/module/page_reporting/parameters/min_free_ms
REPORTING_BEFORE=""
cleanup() {
  if [[ -n "$NGINX_PID" ]] && kill -0 "$NGINX_PID" 2>/dev/null; then
    kill -QUIT "$NGINX_PID" 2>/dev/null || true
    wait "$NGINX_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
  if [[ -n "$REPORTING_BEFORE" ]]; then echo "$REPORTING_BEFORE" >"$REPORTING" || true; fi
}
trap cleanup EXIT
REPORTING_NOTE=""
if [[ $TUNE_HOST == yes ]]; then
  if [[ -w $REPORTING ]]; then
    REPORTING_BEFORE="$(cat "$REPORTING")"
    if echo 60000 >"$REPORTING" 2>/dev/null; then
      REPORTING_NOTE="Freed pages were reported to the host after a minute instead of after $REPORTING_BEFORE ms"
      echo "--tune-host: $REPORTING set to 60000 (was $REPORTING_BEFORE); it is put back at exit."
    else
      REPORTING_BEFORE=""
      echo "--tune-host: $REPORTING could not be written; the host is left as it is."
    fi
  else
    echo "--tune-host: $REPORTING is missing or not writable; the host is left as it is."
  fi
fi

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' \
  2>/dev/null || echo $((20000 + RANDOM % 20000)))"
BASE_URL="http://127.0.0.1:$PORT"
mkdir -p "$WORK/www" "$WORK/dav/upload" "$WORK/tmp" "$WORK/client-tmp"
# The benchmark processes' temporary directory (Foundation's `temporaryDirectory`). On /tmp, a disk here, both
# URLSession multipart sides wrote their 1 GiB form through the page cache to the disk, and their medians moved by
# 9% from one full run to the next.
export TMPDIR="$WORK/client-tmp"
chmod 755 "$WORK"

# --- the benchmark binary --------------------------------------------------------------------------------------
echo "Building the benchmarks (release)…"
(cd "$HERE" && swift build -c release --product CourierBench 2>&1 | tail -n 1)
BIN="$HERE/.build/release/CourierBench"

"$BIN" fixtures "$WORK/www"
truncate -s "$LARGE_BYTES" "$WORK/www/large.bin"
SMALL_BYTES=$(wc -c <"$WORK/www/small.json")

USER_LINE=""
[[ $EUID -eq 0 ]] && USER_LINE="user root;"
cat >"$WORK/nginx.conf" <<EOF
$USER_LINE
worker_processes 1;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  default_type application/octet-stream;
  types { application/json json; }
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 300s;
  keepalive_requests 10000000;
  client_body_temp_path $WORK/tmp/client_body;
  proxy_temp_path $WORK/tmp/proxy;
  fastcgi_temp_path $WORK/tmp/fastcgi;
  uwsgi_temp_path $WORK/tmp/uwsgi;
  scgi_temp_path $WORK/tmp/scgi;
  server {
    listen 127.0.0.1:$PORT;
    root $WORK/www;
    # The same files without a Content-Length (sub_filter streams them chunked), for the response-limit rows.
    location /chunked/ {
      alias $WORK/www/;
      sub_filter_types *;
      sub_filter_once on;
      sub_filter "courier-never-present" "";
    }
    # Writes the outbox delivers: answered 201 at once, the body read and discarded.
    location /outbox/ {
      default_type application/json;
      return 201 '{"id":1}';
    }
    location /upload/ {
      root $WORK/dav;
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 0;
      client_body_buffer_size 1m;
    }
  }
}
EOF
"$NGINX" -p "$WORK" -e "$WORK/error.log" -c "$WORK/nginx.conf" &
NGINX_PID=$!
for _ in $(seq 1 100); do
  curl -sf -o /dev/null "$BASE_URL/small.json" && break
  sleep 0.1
done
curl -sf -o /dev/null "$BASE_URL/small.json" || { cat "$WORK/error.log" >&2; exit 1; }
NGINX_VERSION="$("$NGINX" -v 2>&1 | sed 's/.*nginx\///')"
echo "nginx $NGINX_VERSION on $BASE_URL (pid $NGINX_PID), working files in $WORK, mode $MODE"

# --- measuring -------------------------------------------------------------------------------------------------
# run <args…>: one process, one RESULT line; echoes "value unit peak_rss_kib".
run() {
  local output
  if ! output="$("$BIN" "$@" 2>&1)"; then
    echo "courier-bench $* failed: $output" >&2
    exit 1
  fi
  echo "$output" | awk '/^RESULT/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    print v["value"], v["unit"], v["peak_rss_kib"] }'
}

ROWS=()
RATIOS=()
# Per scenario key, for the targets: the ratio, Courier's peak RSS (KiB), the transfers' interquartile spreads
# ("raw courier") and the instruction overheads (percent).
declare -A RATIO=() COURIER_RSS=() QUARTILES=() OVERHEAD=() OVERHEAD_REST=() INSTRUCTION_RATIO=()
# spread <values…>: (max − min) / median of the values, in percent.
spread() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    m = (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)
    printf "%.1f", (m > 0 ? 100 * (v[NR] - v[1]) / m : 0) }'
}
# quartile_spread <values…>: (Q3 − Q1) / median of the values, in percent, quartiles interpolated between runs:
# how far the middle half of the runs lies from the median, which one slow or fast run does not move.
quartile_spread() {
  printf '%s\n' "$@" | sort -g | awk '
    function q(p,   x, i) { x = 1 + (NR - 1) * p; i = int(x); return v[i] + (x - i) * (v[i + 1] - v[i]) }
    { v[NR] = $1 } END { v[NR + 1] = v[NR]; m = q(0.5); printf "%.1f", (m > 0 ? 100 * (q(0.75) - q(0.25)) / m : 0) }'
}
# median <values…>
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    printf "%s", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
# prime_memory: writes and deletes a file a tenth larger than two of the transfers' file in the working directory
# (when it is in memory), so that the next files nginx and the client write (the upload nginx stores, and a URLSession
# client's multipart form) land in pages just written. With it, nginx spent 45–55 ticks of CPU on each of 20 uploads
# of 1 GiB in a row; with the minute alone, 47–106.
prime_memory() {
  [[ $PARENT == /dev/shm ]] || return 0
  dd if=/dev/zero of="$WORK/prime.bin" bs=1M count=$((2 * LARGE_MIB + LARGE_MIB / 5)) status=none
  rm -f "$WORK/prime.bin"
}
# split_sides <raw args> -- <courier args>: sets the caller's raw_args and courier_args (declared local there).
split_sides() {
  local seen_separator=0 argument
  for argument in "$@"; do
    if [[ $argument == -- ]]; then seen_separator=1; continue; fi
    if ((seen_separator)); then courier_args+=("$argument"); else raw_args+=("$argument"); fi
  done
}
# pair <key> <title> <rounds> <raw args> -- <courier args>: alternates raw and Courier runs, keeps the best rate of
# each and the highest peak RSS, and reports each side's spread between runs. With STABLE=1 before the call (the
# transfers), each side first runs once unmeasured (the first transfer after nginx starts is up to 3× slower), then
# at least MIN_TRANSFER_ROUNDS rounds run, on up to MAX_ROUNDS until both interquartile spreads are under 5%, and
# the figures are each side's median: a transfer's runs are not normally distributed around a best case.
pair() {
  local key=$1 title=$2 rounds=$3
  shift 3
  local raw_args=() courier_args=()
  split_sides "$@"
  local raw_values=() courier_values=() raw_rss=0 courier_rss=0 unit="" round=0 raw_spread=0 courier_spread=0
  local stable=${STABLE:-0} raw_quartiles=0 courier_quartiles=0
  if ((stable)); then
    prime_memory
    run "${raw_args[@]}" >/dev/null
    prime_memory
    run "${courier_args[@]}" >/dev/null
    rm -f "$WORK"/dav/upload/*.bin
    ((rounds < MIN_TRANSFER_ROUNDS)) && rounds=$MIN_TRANSFER_ROUNDS
  fi
  while :; do
    round=$((round + 1))
    for side in raw courier; do
      local result value rss
      if ((stable)); then prime_memory; fi
      if [[ $side == raw ]]; then result="$(run "${raw_args[@]}")"; else result="$(run "${courier_args[@]}")"; fi
      read -r value unit rss <<<"$result"
      if [[ $side == raw ]]; then
        raw_values+=("$value")
        ((rss > raw_rss)) && raw_rss=$rss
      else
        courier_values+=("$value")
        ((rss > courier_rss)) && courier_rss=$rss
      fi
      printf '  %-22s %-8s round %d: %12.1f %-9s peak RSS %6.1f MiB\n' "$key" "$side" "$round" "$value" "$unit" \
        "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
    done
    # Uploaded files are not needed again; keep the working directory small.
    rm -f "$WORK"/dav/upload/*.bin
    raw_spread=$(spread "${raw_values[@]}")
    courier_spread=$(spread "${courier_values[@]}")
    raw_quartiles=$(quartile_spread "${raw_values[@]}")
    courier_quartiles=$(quartile_spread "${courier_values[@]}")
    ((round < rounds)) && continue
    ((stable)) || break
    ((round >= MAX_ROUNDS)) && break
    awk -v a="$raw_quartiles" -v b="$courier_quartiles" 'BEGIN { exit !(a < 5 && b < 5) }' && break
  done
  local raw_figure courier_figure ratio spreads
  if ((stable)); then
    raw_figure=$(median "${raw_values[@]}")
    courier_figure=$(median "${courier_values[@]}")
    spreads="IQR ${raw_quartiles}% / ${courier_quartiles}%, range ${raw_spread}% / ${courier_spread}% (median of $round runs)"
    RATIOS+=("ratio $key $(awk -v c="$courier_figure" -v r="$raw_figure" 'BEGIN { printf "%.3f", (r > 0 ? c / r : 0) }') median iqr raw ${raw_quartiles}% courier ${courier_quartiles}% range raw ${raw_spread}% courier ${courier_spread}% runs $round")
  else
    raw_figure=$(printf '%s\n' "${raw_values[@]}" | sort -g | tail -n 1)
    courier_figure=$(printf '%s\n' "${courier_values[@]}" | sort -g | tail -n 1)
    spreads="${raw_spread}% / ${courier_spread}% (best of $round runs)"
  fi
  ratio=$(awk -v c="$courier_figure" -v r="$raw_figure" 'BEGIN { printf "%.3f", (r > 0 ? c / r : 0) }')
  ((stable)) || RATIOS+=("ratio $key $ratio spread raw ${raw_spread}% courier ${courier_spread}% runs $round")
  RATIO[$key]=$ratio
  COURIER_RSS[$key]=$courier_rss
  if ((stable)); then QUARTILES[$key]="$raw_quartiles $courier_quartiles"; fi
  ROWS+=("$(awk -v t="$title" -v r="$raw_figure" -v rr="$raw_rss" -v c="$courier_figure" -v cr="$courier_rss" \
    -v u="$unit" -v x="$ratio" -v sp="$spreads" \
    'BEGIN { printf "| %s | %.1f %s | %.1f MiB | %.1f %s | %.1f MiB | %s | %s |", t, r, u, rr / 1024, c, u, cr / 1024, x, sp }')")
}

# latency <key> <title> <rounds> <raw args> -- <courier args>: one call at a time, alternating raw, Courier, raw in
# each round (each run its own process). A round's ratio is Courier's rate over the mean of the two raw runs beside
# it, so that the machine's drift between rounds (10–20% here) cancels; the figure is the median of the rounds'
# ratios. Beside it: the medians over the runs of each side's per-call median and 99th percentile, and of the
# voluntary context switches per call (each one a thread that went to sleep waiting for another).
LATENCY_ROWS=()
declare -A LATENCY_RATIO=()
latency() {
  local key=$1 title=$2 rounds=$3
  shift 3
  local raw_args=() courier_args=()
  split_sides "$@"
  local lines=() round
  for ((round = 1; round <= rounds; round++)); do
    for side in raw courier raw; do
      local output
      if [[ $side == raw ]]; then output="$("$BIN" "${raw_args[@]}" 2>&1)"; else output="$("$BIN" "${courier_args[@]}" 2>&1)"; fi
      output="$(grep '^RESULT' <<<"$output")" || { echo "courier-bench failed in $key" >&2; exit 1; }
      lines+=("$side $output")
    done
  done
  local row
  row="$(printf '%s\n' "${lines[@]}" | awk -v title="$title" '
    function med(a, n,   i, j, t) {
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    {
      delete v; for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      side = $1; n[side]++; p50[side, n[side]] = v["p50_us"]; p99[side, n[side]] = v["p99_us"]
      sw[side, n[side]] = v["voluntary_switches_per_call"]
      if (side == "raw" && pending) { ratios[++rounds] = courier / ((before + v["value"]) / 2); pending = 0 }
      else if (side == "raw") { before = v["value"] }
      else { courier = v["value"]; pending = 1 }
    }
    END {
      for (s = 0; s < 2; s++) {
        side = s ? "courier" : "raw"
        for (i = 1; i <= n[side]; i++) { a[i] = p50[side, i] } m50[side] = med(a, n[side])
        for (i = 1; i <= n[side]; i++) { a[i] = p99[side, i] } m99[side] = med(a, n[side])
        for (i = 1; i <= n[side]; i++) { a[i] = sw[side, i] } msw[side] = med(a, n[side])
      }
      lo = 1e9; hi = 0
      for (i = 1; i <= rounds; i++) { r[i] = ratios[i]; if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
      printf "%.3f;;| %s | %.0f / %.0f µs | %.0f / %.0f µs | %.2f / %.2f | %.3f (%.2f–%.2f, %d rounds) |\n", med(r, rounds),
        title, m50["raw"], m50["courier"], m99["raw"], m99["courier"], msw["raw"], msw["courier"], med(r, rounds), lo, hi,
        rounds
    }')"
  LATENCY_RATIO[$key]=${row%%;;*}
  LATENCY_ROWS+=("${row#*;;}")
  echo "  ${row#*;;}"
}

echo "Sequential latency…"
LATENCY_ROUNDS=$([[ $MODE == quick ]] && echo 6 || echo 10)
latency latency-ahc "Decoded 1 KB GET, one at a time — AsyncHTTPClient" "$LATENCY_ROUNDS" \
  get ahc-raw --base-url "$BASE_URL" --count 10000 -- get ahc-courier --base-url "$BASE_URL" --count 10000
latency latency-urlsession "Decoded 1 KB GET, one at a time — URLSession" "$LATENCY_ROUNDS" \
  get urlsession-raw --base-url "$BASE_URL" --count 3000 -- get urlsession-courier --base-url "$BASE_URL" --count 3000
if [[ $LATENCY_ONLY == yes ]]; then
  echo
  echo "| Scenario | p50 raw / Courier | p99 raw / Courier | Voluntary switches per call, raw / Courier | Courier/raw req/s |"
  echo "|---|---:|---:|---:|---:|"
  printf '%s\n' "${LATENCY_ROWS[@]}"
  exit 0
fi

echo "Decoded 1 KB GETs ($SMALL_BYTES bytes)…"
pair get-seq-urlsession "Decoded 1 KB GET, sequential — URLSession" "$ROUNDS" \
  get urlsession-raw --base-url "$BASE_URL" --count "$SEQ_URLSESSION" -- \
  get urlsession-courier --base-url "$BASE_URL" --count "$SEQ_URLSESSION"
pair get-64-urlsession "Decoded 1 KB GET, $CONCURRENCY concurrent — URLSession" "$ROUNDS" \
  get urlsession-raw --base-url "$BASE_URL" --count "$CONC_URLSESSION" --concurrency "$CONCURRENCY" -- \
  get urlsession-courier --base-url "$BASE_URL" --count "$CONC_URLSESSION" --concurrency "$CONCURRENCY"
pair get-seq-ahc "Decoded 1 KB GET, sequential — AsyncHTTPClient" "$ROUNDS" \
  get ahc-raw --base-url "$BASE_URL" --count "$SEQ_AHC" -- \
  get ahc-courier --base-url "$BASE_URL" --count "$SEQ_AHC"
# Best of 5 at least, as its target is stated.
pair get-64-ahc "Decoded 1 KB GET, $CONCURRENCY concurrent — AsyncHTTPClient" "$((ROUNDS > 5 ? ROUNDS : 5))" \
  get ahc-raw --base-url "$BASE_URL" --count "$CONC_AHC" --concurrency "$CONCURRENCY" -- \
  get ahc-courier --base-url "$BASE_URL" --count "$CONC_AHC" --concurrency "$CONCURRENCY"

echo "Scaling over AsyncHTTPClient…"
# The same decoded GET at 1, 8, 64 and 256 concurrent requests, so the cost of growth shows (req/s, peak RSS).
for level in 1 8 64 256; do
  count=$CONC_AHC
  ((level == 1)) && count=$SEQ_AHC
  pair "scaling-$level" "Scaling: decoded 1 KB GET, $level concurrent — AsyncHTTPClient" "$ROUNDS" \
    get ahc-raw --base-url "$BASE_URL" --count "$count" --concurrency "$level" -- \
    get ahc-courier --base-url "$BASE_URL" --count "$count" --concurrency "$level"
done

echo "$LARGE_MIB MiB transfers…"
# nginx stays on one core during the transfers. Left to the scheduler, a download ran at about 1,000 or about
# 3,000 MB/s depending on where nginx and the client's threads happened to land (a spread of 139% over 8 runs);
# with nginx on core 0, 6 runs in a row were within 30% of each other.
pin_nginx() {
  command -v taskset >/dev/null && (($(nproc) > 1)) || return 0
  local pid
  for pid in "$NGINX_PID" $(pgrep -P "$NGINX_PID"); do taskset -a -p -c "$1" "$pid" >/dev/null; done
}
pin_nginx 0
STABLE=1 pair upload-ahc "$LARGE_MIB MiB file upload, streamed — AsyncHTTPClient" "$ROUNDS" \
  upload ahc-raw --base-url "$BASE_URL" --file "$WORK/www/large.bin" --min-seconds "$TRANSFER_SECONDS" -- \
  upload ahc-courier --base-url "$BASE_URL" --file "$WORK/www/large.bin" --min-seconds "$TRANSFER_SECONDS"
STABLE=1 pair upload-multipart-ahc "$LARGE_MIB MiB multipart upload, streamed — AsyncHTTPClient" "$ROUNDS" \
  multipart ahc-raw --base-url "$BASE_URL" --file "$WORK/www/large.bin" --min-seconds "$TRANSFER_SECONDS" -- \
  multipart ahc-courier --base-url "$BASE_URL" --file "$WORK/www/large.bin" --min-seconds "$TRANSFER_SECONDS"
STABLE=1 pair upload-urlsession "$LARGE_MIB MiB file upload — URLSession" "$ROUNDS" \
  upload urlsession-raw --base-url "$BASE_URL" --file "$WORK/www/large.bin" --min-seconds "$TRANSFER_SECONDS" -- \
  upload urlsession-courier --base-url "$BASE_URL" --file "$WORK/www/large.bin" --min-seconds "$TRANSFER_SECONDS"
STABLE=1 pair upload-multipart-urlsession "$LARGE_MIB MiB multipart upload — URLSession" "$ROUNDS" \
  multipart urlsession-raw --base-url "$BASE_URL" --file "$WORK/www/large.bin" --min-seconds "$TRANSFER_SECONDS" -- \
  multipart urlsession-courier --base-url "$BASE_URL" --file "$WORK/www/large.bin" --min-seconds "$TRANSFER_SECONDS"
STABLE=1 pair download-ahc "$LARGE_MIB MiB download, streamed — AsyncHTTPClient" "$ROUNDS" \
  download ahc-raw --base-url "$BASE_URL" --size "$LARGE_BYTES" --min-seconds "$TRANSFER_SECONDS" -- \
  download ahc-courier --base-url "$BASE_URL" --size "$LARGE_BYTES" --min-seconds "$TRANSFER_SECONDS"
STABLE=1 pair download-urlsession "$LARGE_MIB MiB download — URLSession" "$ROUNDS" \
  download urlsession-raw --base-url "$BASE_URL" --size "$LARGE_BYTES" --min-seconds "$TRANSFER_SECONDS" -- \
  download urlsession-courier --base-url "$BASE_URL" --size "$LARGE_BYTES" --min-seconds "$TRANSFER_SECONDS"

pin_nginx "0-$(($(nproc) - 1))"

echo "Cache hits…"
# The cache's own cost: Endpoint<Data>, so nothing but request building, the chain, the store and serving is timed.
pair cache-memory "1 KB GET as Data: memory cache hit vs uncached (AsyncHTTPClient)" "$ROUNDS" \
  cache uncached --body data --base-url "$BASE_URL" --count "$SEQ_AHC" -- \
  cache memory --body data --base-url "$BASE_URL" --count "$CACHE_COUNT"
pair cache-sqlite "1 KB GET as Data: SQLite cache hit vs uncached (AsyncHTTPClient)" "$ROUNDS" \
  cache uncached --body data --base-url "$BASE_URL" --count "$SEQ_AHC" -- \
  cache sqlite --body data --base-url "$BASE_URL" --count "$CACHE_COUNT"
# The same hits decoded into a struct, as an app sees them; JSONDecoder's own rate bounds these.
pair cache-memory-decoded "Decoded 1 KB GET: memory cache hit vs uncached (AsyncHTTPClient)" "$ROUNDS" \
  cache uncached --base-url "$BASE_URL" --count "$SEQ_AHC" -- cache memory --base-url "$BASE_URL" --count "$CACHE_COUNT"
pair cache-sqlite-decoded "Decoded 1 KB GET: SQLite cache hit vs uncached (AsyncHTTPClient)" "$ROUNDS" \
  cache uncached --base-url "$BASE_URL" --count "$SEQ_AHC" -- cache sqlite --base-url "$BASE_URL" --count "$CACHE_COUNT"
DECODE_BEST=0
for ((round = 1; round <= ROUNDS; round++)); do
  read -r value _ _ <<<"$(run decode catalog --count "$CACHE_COUNT")"
  printf '  %-22s          round %d: %12.1f decodes/s\n' decode "$round" "$value"
  DECODE_BEST=$(awk -v a="$DECODE_BEST" -v b="$value" 'BEGIN { print (b > a ? b : a) }')
done

echo "Query encoding…"
pair query-encoding "Query encoding of a 100-field struct" "$ROUNDS" \
  query raw --count "$QUERY_COUNT" -- query courier --count "$QUERY_COUNT"
pair query-encoding-5 "Query encoding of a 5-field struct" "$ROUNDS" \
  query raw --fields 5 --count "$((QUERY_COUNT * 10))" -- query courier --fields 5 --count "$((QUERY_COUNT * 10))"

echo "Instruction counts…"
# CPU-bound ratios in instructions, which do not move with the machine's load: callgrind on a stripped copy of the
# binary (valgrind 3.19 cannot read its debug information) for two counts; the difference over the extra operations
# is one operation's cost, start-up excluded.
INSTRUCTION_ROWS=()
if command -v valgrind >/dev/null 2>&1; then
  STRIPPED="$WORK/CourierBench-stripped"
  cp "$BIN" "$STRIPPED"
  strip -g "$STRIPPED" 2>/dev/null || true
  # The Swift runtime's lookups in its generic metadata caches probe a hash table keyed by metadata addresses, so
  # how long they probe depends on where the binary and the runtime's allocations happen to land: the same GET moved
  # by 21,000 instructions between two builds that differed in one attribute, all of it in these two functions. Each
  # row therefore also counts without them (the Swift runtime's own symbols, as callgrind_annotate prints them).
  PROBING='ConcurrentReadableHashMap<swift::HashMapElementWrapper<swift::GenericCacheEntry>.*Snapshot::find|MetadataCacheKey::operator=='
  # instructions <low> <high> <args…>: "<all> <without probing>", instructions per operation.
  instructions() {
    local low=$1 high=$2 counts=() probes=() out="$WORK/callgrind.out"
    shift 2
    for count in "$low" "$high"; do
      counts+=("$(valgrind --tool=callgrind --callgrind-out-file="$out" "$STRIPPED" "$@" --count "$count" 2>&1 |
        awk '/refs:/ { gsub(",", "", $NF); print $NF }')")
      probes+=("$(callgrind_annotate --threshold=100 "$out" 2>/dev/null |
        awk -v pattern="$PROBING" '$0 ~ pattern { gsub(",", "", $1); sum += $1 } END { printf "%.0f", sum }')")
      rm -f "$out"
    done
    awk -v a="${counts[0]}" -v b="${counts[1]}" -v pa="${probes[0]}" -v pb="${probes[1]}" -v l="$low" -v h="$high" \
      'BEGIN { printf "%.0f %.0f", (b - a) / (h - l), ((b - pb) - (a - pa)) / (h - l) }'
  }
  # instruction_row <key> <title> <low> <high> <raw args> -- <courier args>
  instruction_row() {
    local key=$1 title=$2 low=$3 high=$4 raw_args=() courier_args=() seen=0
    shift 4
    for argument in "$@"; do
      if [[ $argument == -- ]]; then seen=1; continue; fi
      if ((seen)); then courier_args+=("$argument"); else raw_args+=("$argument"); fi
    done
    local raw courier raw_rest courier_rest
    read -r raw raw_rest <<<"$(instructions "$low" "$high" "${raw_args[@]}")"
    read -r courier courier_rest <<<"$(instructions "$low" "$high" "${courier_args[@]}")"
    printf '  %-52s raw %9s, Courier %9s instructions per operation (%s, %s without probing)\n' \
      "$title" "$raw" "$courier" "$raw_rest" "$courier_rest"
    OVERHEAD[$key]=$(awk -v r="$raw" -v c="$courier" 'BEGIN { printf "%.1f", 100 * (c - r) / r }')
    OVERHEAD_REST[$key]=$(awk -v r="$raw_rest" -v c="$courier_rest" 'BEGIN { printf "%.1f", 100 * (c - r) / r }')
    INSTRUCTION_RATIO[$key]=$(awk -v r="$raw" -v c="$courier" 'BEGIN { printf "%.3f", r / c }')
    INSTRUCTION_ROWS+=("$(awk -v t="$title" -v r="$raw" -v c="$courier" -v rr="$raw_rest" -v cr="$courier_rest" \
      'BEGIN { printf "| %s | %d | %d | %.3f | %+.1f%% | %d | %d | %+.1f%% |", t, r, c, r / c, 100 * (c - r) / r, rr, cr, 100 * (cr - rr) / rr }')")
  }
  instruction_row get-ahc "Decoded 1 KB GET, sequential — AsyncHTTPClient" 500 2500 \
    get ahc-raw --base-url "$BASE_URL" -- get ahc-courier --base-url "$BASE_URL"
  instruction_row get-ahc-chain "Decoded 1 KB GET, sequential, auth + retry + logging — AsyncHTTPClient" 500 2500 \
    get ahc-raw --base-url "$BASE_URL" -- get ahc-courier-chain --base-url "$BASE_URL"
  instruction_row get-urlsession "Decoded 1 KB GET, sequential — URLSession" 500 2500 \
    get urlsession-raw --base-url "$BASE_URL" -- get urlsession-courier --base-url "$BASE_URL"
  instruction_row query-100 "Query encoding of a 100-field struct" 1000 3000 \
    query raw --fields 100 -- query courier --fields 100
  instruction_row query-5 "Query encoding of a 5-field struct" 20000 60000 \
    query raw --fields 5 -- query courier --fields 5
  # The client's CPU per MiB of a file upload over AsyncHTTPClient: 32 and 160 MiB files, the difference over 128.
  truncate -s $((32 * 1024 * 1024)) "$WORK/www/upload-32.bin"
  truncate -s $((160 * 1024 * 1024)) "$WORK/www/upload-160.bin"
  per_mib() {
    local counts=()
    for size in 32 160; do
      counts+=("$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$STRIPPED" "$1" "$2" \
        --base-url "$BASE_URL" --file "$WORK/www/upload-$size.bin" 2>&1 | awk '/refs:/ { gsub(",", "", $NF); print $NF }')")
      rm -f "$WORK"/dav/upload/*.bin
    done
    awk -v a="${counts[0]}" -v b="${counts[1]}" 'BEGIN { printf "%.0f", (b - a) / 128 }'
  }
  for scenario in upload multipart; do
    raw=$(per_mib "$scenario" ahc-raw)
    courier=$(per_mib "$scenario" ahc-courier)
    title="1 MiB of a $([[ $scenario == upload ]] && echo file || echo multipart) upload — AsyncHTTPClient"
    printf '  %-52s raw %9s, Courier %9s instructions per MiB\n' "$title" "$raw" "$courier"
    INSTRUCTION_ROWS+=("$(awk -v t="$title" -v r="$raw" -v c="$courier" \
      'BEGIN { printf "| %s | %d | %d | %.3f | %+.1f%% | | | |", t, r, c, r / c, 100 * (c - r) / r }')")
  done
  rm -f "$WORK/www/upload-32.bin" "$WORK/www/upload-160.bin"
else
  echo "  valgrind is not installed: no instruction counts"
fi

echo "Response limit…"
# A buffered send of the large file with maxResponseBytes(10 MiB): it must fail with .responseTooLarge, and the
# process's peak RSS shows what the refused body cost.
LIMIT_BYTES=$((10 * 1024 * 1024))
LIMIT_ROWS=()
for transport in ahc urlsession; do
  for path in large.bin chunked/large.bin; do
    read -r value unit rss <<<"$(run limit "$transport-courier" --base-url "$BASE_URL" --path "$path" \
      --limit "$LIMIT_BYTES")"
    printf '  %-22s %-8s %-18s %10.1f %s, peak RSS %6.1f MiB\n' limit "$transport" "$path" "$value" "$unit" \
      "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
    LIMIT_ROWS+=("$(awk -v t="$transport" -v p="$path" -v v="$value" -v r="$rss" \
      'BEGIN { printf "| %s | %s | %.0f ms | %.1f MiB |", t, (p ~ /chunked/ ? "chunked, no length" : "Content-Length"), v, r / 1024 }')")
  done
done

echo "Cache stores at 100,000 entries…"
# A store filled to its byte limit with 100,000 1 KiB entries; every timed write evicts the least recently used one.
# The SQLite store is filled once (untimed) and each run works on a copy of that file.
EVICTION_ENTRIES=100000
EVICTION_ROWS=()
"$BIN" eviction sqlite --metric hits --entries "$EVICTION_ENTRIES" --count 1 --database "$WORK/eviction.sqlite" >/dev/null
for store in memory sqlite; do
  for metric in writes hits; do
    best=0
    count=$EVICTION_WRITES
    [[ $metric == hits ]] && count=$((EVICTION_WRITES * 10))
    for ((round = 1; round <= ROUNDS; round++)); do
      extra=()
      if [[ $store == sqlite ]]; then
        cp "$WORK/eviction.sqlite" "$WORK/eviction-run.sqlite"
        rm -f "$WORK/eviction-run.sqlite-wal" "$WORK/eviction-run.sqlite-shm"
        extra=(--database "$WORK/eviction-run.sqlite")
      fi
      read -r value unit _ <<<"$(run eviction "$store" --metric "$metric" --entries "$EVICTION_ENTRIES" \
        --count "$count" "${extra[@]}")"
      printf '  %-22s %-8s round %d: %12.1f %s\n' "eviction-$store" "$metric" "$round" "$value" "$unit"
      best=$(awk -v a="$best" -v b="$value" 'BEGIN { print (b > a ? b : a) }')
    done
    EVICTION_ROWS+=("$(awk -v s="$store" -v m="$metric" -v b="$best" -v u="$unit" \
      'BEGIN { printf "| %s | %s | %.0f %s | %.1f µs |", s, m, b, u, 1e6 / b }')")
  done
done
rm -f "$WORK"/eviction*.sqlite*

kill -QUIT "$NGINX_PID" 2>/dev/null || true
wait "$NGINX_PID" 2>/dev/null || true
NGINX_PID=""
ELAPSED=$((SECONDS - STARTED))

# --- targets ---------------------------------------------------------------------------------------------------
# The targets Courier is held to, each with this run's figure and whether the figure meets it.
TARGET_ROWS=()
# target <what> <figure> <shown> <at least|at most> <bound>
target() {
  local met="no"
  if [[ -n "$2" ]] && awk -v v="$2" -v b="$5" -v op="$4" 'BEGIN { exit !(op == "at least" ? v >= b : v <= b) }'; then
    met="yes"
  fi
  [[ -n "$2" ]] || { met="not measured"; }
  TARGET_ROWS+=("| $1 | $4 $5 | ${3:-—} | $met |")
}
# Met or not is judged on all instructions; the figure without the runtime's metadata-cache probing is shown beside it.
overhead_target() {
  local figure=${OVERHEAD[$2]:-} rest=${OVERHEAD_REST[$2]:-}
  target "$1" "$figure" "${figure:+$(printf '%+.1f%% (%+.1f%% without probing)' "$figure" "$rest")}" "at most" "$3"
}
overhead_target "Instructions per decoded GET over AsyncHTTPClient, over raw (%)" get-ahc 3
overhead_target "The same with auth + retry + logging (%)" get-ahc-chain 3
overhead_target "Instructions per decoded GET over URLSession, over raw (%)" get-urlsession 4
target "Sequential GETs over AsyncHTTPClient, Courier/raw req/s (median of paired rounds)" \
  "${LATENCY_RATIO[latency-ahc]:-}" "${LATENCY_RATIO[latency-ahc]:-}" "at least" 0.92
target "Sequential GETs over URLSession, Courier/raw req/s (median of paired rounds)" \
  "${LATENCY_RATIO[latency-urlsession]:-}" "${LATENCY_RATIO[latency-urlsession]:-}" "at least" 0.92
target "$CONCURRENCY concurrent GETs over AsyncHTTPClient, Courier/raw req/s (best of 5 or more)" "${RATIO[get-64-ahc]}" \
  "${RATIO[get-64-ahc]}" "at least" 0.95
target "File upload over AsyncHTTPClient, Courier/raw MB/s (median)" "${RATIO[upload-ahc]}" "${RATIO[upload-ahc]}" \
  "at least" 0.95
target "Multipart upload over AsyncHTTPClient, Courier/raw MB/s (median)" "${RATIO[upload-multipart-ahc]}" \
  "${RATIO[upload-multipart-ahc]}" "at least" 0.95
UPLOAD_RSS=$(awk -v a="${COURIER_RSS[upload-ahc]}" -v b="${COURIER_RSS[upload-multipart-ahc]}" \
  'BEGIN { printf "%.1f", (a > b ? a : b) / 1024 }')
target "Courier's peak RSS uploading the $LARGE_MIB MiB file over AsyncHTTPClient (MiB)" "$UPLOAD_RSS" "$UPLOAD_RSS MiB" \
  "at most" 64
target "Query encoding of a 100-field struct, raw/Courier instructions" "${INSTRUCTION_RATIO[query-100]:-}" \
  "${INSTRUCTION_RATIO[query-100]:-}" "at least" 0.5
target "Query encoding of a 5-field struct, raw/Courier instructions" "${INSTRUCTION_RATIO[query-5]:-}" \
  "${INSTRUCTION_RATIO[query-5]:-}" "at least" 0.8
WIDEST_KEY=""
WIDEST=0
for key in "${!QUARTILES[@]}"; do
  for quartiles in ${QUARTILES[$key]}; do
    if awk -v q="$quartiles" -v w="$WIDEST" 'BEGIN { exit !(q > w) }'; then WIDEST=$quartiles WIDEST_KEY=$key; fi
  done
done
target "Widest interquartile spread of a transfer's runs (%)" "$WIDEST" "$WIDEST% (${WIDEST_KEY:-none})" "at most" 5

# --- RESULTS.md ------------------------------------------------------------------------------------------------
COMMIT="${COURIER_COMMIT:-$(git -C "$HERE/.." rev-parse --short HEAD 2>/dev/null || echo unknown)}"
SWIFT_VERSION="$(swift --version 2>/dev/null | head -n 1 | sed 's/^.*Swift version \([^ ]*\).*$/\1/')"
{
  echo "# Courier benchmarks"
  echo
  echo "Written by \`Benchmarks/run.sh$([[ $MODE == quick ]] && echo ' --quick')\` on $(date -u '+%Y-%m-%d %H:%M UTC')," \
    "commit $COMMIT, in ${ELAPSED} s."
  echo "$(nproc) cores shared by the client and nginx $NGINX_VERSION (1 worker) on 127.0.0.1; Swift $SWIFT_VERSION," \
    "release build. Every measurement ran in its own process; peak RSS is that process's \`VmHWM\`. Every"
  echo "request figure is the best of $ROUNDS alternating raw/Courier runs, each run its own process, and its spread"
  echo "is (max − min) / median of each side's runs. Every transfer run sends or fetches the file again until"
  echo "$TRANSFER_SECONDS s of transfers have passed and reports their bytes over their time (one 1 GiB transfer over"
  echo "AsyncHTTPClient takes about half a second, and so moved with whatever else the machine did in it). Every"
  echo "transfer figure is the median of $MIN_TRANSFER_ROUNDS or more"
  echo "alternating runs, after one unmeasured run of each side, repeated until both sides' interquartile spread,"
  echo "(Q3 − Q1) / median, is under 5% or $MAX_ROUNDS runs; its range, (max − min) / median, is shown too. During the"
  echo "transfers nginx is pinned to core 0 (\`taskset\`), so that where the scheduler puts it does not decide the rate."
  if [[ -n "$REPORTING_NOTE" ]]; then
    echo "$REPORTING_NOTE (\`page_reporting.min_free_ms\`, put back at exit), so that the pages nginx writes an"
    echo "upload into have not just been handed back to the virtual machine's host."
  fi
  echo "MB/s is 10^6 bytes per second."
  echo
  echo "| Scenario | Raw | Raw peak RSS | Courier | Courier peak RSS | Courier/raw | Spread raw / Courier |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  echo "Counts: sequential GETs $SEQ_URLSESSION (URLSession) and $SEQ_AHC (AsyncHTTPClient); $CONCURRENCY-way" \
    "GETs $CONC_URLSESSION and $CONC_AHC; $CACHE_COUNT cache hits; $QUERY_COUNT query encodings; a $LARGE_MIB MiB file."
  echo
  echo "## Targets"
  echo
  echo "What Courier is held to, with this run's figures (instructions from the table further down). Two runs agreeing"
  echo "within 5% on every transfer ratio is a target too; it takes two runs, so this page cannot show it."
  echo
  echo "| Target | Bound | This run | Met |"
  echo "|---|---|---:|---|"
  printf '%s\n' "${TARGET_ROWS[@]}"
  echo
  echo "## What is compared"
  echo
  echo "- **GET**: raw \`URLSession.data(for:)\` + \`JSONDecoder\` against \`APIClient.value(_:)\` over"
  echo "  \`URLSessionTransport\`, with the same session configuration; raw \`HTTPClient.execute\` + \`collect\` +"
  echo "  \`JSONDecoder\` against \`APIClient.value(_:)\` over \`AsyncHTTPClientTransport\`, with the same"
  echo "  \`HTTPClient.Configuration\`. The raw requests carry the header fields Courier adds by default"
  echo "  (\`User-Agent\`, \`Accept-Language\`, \`Accept-Encoding\`), so both put the same request on the wire. The"
  echo "  document is $SMALL_BYTES bytes of JSON decoded into a struct."
  echo "- **Upload**: \`PUT\` of the file to nginx's WebDAV module, which answers once the whole body has arrived."
  echo "  Raw AsyncHTTPClient streams 1 MiB \`ByteBuffer\`s read from the file; Courier sends \`.body(.file(_:))\`"
  echo "  through \`APIClient.send\`, which \`AsyncHTTPClientTransport\` reads with pread on NIO's thread pool into 1 MiB"
  echo "  \`ByteBuffer\`s. Multipart: a hand-written preamble, the file's buffers and the closing boundary against"
  echo "  \`MultipartFormData.append(fileAt:)\`. Raw URLSession uses \`upload(for:fromFile:)\` (for multipart, of a form"
  echo "  file it writes first, as URLSession on Linux has no streamed body); \`URLSessionTransport\` uploads a file"
  echo "  body from its file and writes any other streamed body (the multipart form) to a temporary file first."
  echo "- **Download**: raw AsyncHTTPClient reads the response body buffer by buffer; raw URLSession counts bytes in"
  echo "  a data delegate; Courier reads the streamed body of \`APIClient.stream\` over each transport."
  echo "- **Query encoding**: 100 hand-written \`URLQueryItem\`s percent-encoded by \`URLComponents\` against"
  echo "  \`URLQueryEncoder.percentEncodedString(_:)\` of the \`Encodable\` struct."
  echo "- **Noise**: on two shared cores a run's GET rate moves by 10–20% from one process to the next, more than"
  echo "  the difference measured, so the GET ratios swing between runs. For the hot path, count instructions per"
  echo "  request instead: \`valgrind --tool=callgrind\` on \`CourierBench get <variant> --count N\` for two counts,"
  echo "  divided by the difference (\`strip -g\` the binary first; valgrind 3.19 cannot read its debug info)."
  echo
  echo "## One call at a time"
  echo
  echo "What a user waits for: the same decoded GETs made one after another, $LATENCY_ROUNDS rounds of raw, Courier, raw,"
  echo "each run its own process. Per-call wall times are each run's median and 99th percentile (the table shows the"
  echo "median over the runs); the context switches are the process's voluntary ones (\`getrusage\`) over the calls,"
  echo "each one a thread that slept waiting for another — a hop a call takes that the raw engine does not shows here"
  echo "even when it costs no instructions. The ratio is each round's Courier rate over the mean of the two raw runs"
  echo "beside it, so the machine's drift between rounds cancels; the median of the rounds, with their range."
  echo
  echo "| Scenario | p50 raw / Courier | p99 raw / Courier | Voluntary switches per call, raw / Courier | Courier/raw req/s |"
  echo "|---|---:|---:|---:|---:|"
  printf '%s\n' "${LATENCY_ROWS[@]}"
  echo
  echo "## Cache hits"
  echo
  echo "\`CacheInterceptor\` answering sequential \`client.send\` calls for \`small.json\` (stored with \`max-age=3600\`) from"
  echo "\`InMemoryCacheStore\` or \`SQLiteCacheStore\`, next to the same call going to nginx. The *as Data* rows use"
  echo "\`Endpoint<Data>\`: request building, the interceptor chain, the store lookup and serving the stored response"
  echo "(with its \`Age\`), which is the cache's own cost. The *decoded* rows add JSON decoding into a struct, and"
  echo "\`JSONDecoder\` alone decodes this document $(printf '%.0f' "$DECODE_BEST") times a second here (best of $ROUNDS), so no"
  echo "decoded call, cached or not, can go faster than that."
  echo
  echo "## Instructions per operation"
  echo
  echo "The CPU-bound ratios, counted by callgrind instead of timed: the instructions one operation costs (the"
  echo "difference between two runs of different counts, over the extra operations: 500 and 2,500 GETs, where 200"
  echo "and 600 moved a row by up to ±10,000 from run to run). *Raw/Courier* reads like the rate ratios above (1.0 is"
  echo "level, higher is better for Courier); *overhead* is what Courier adds. The last three columns leave out the"
  echo "Swift runtime's probing of its generic metadata caches (\`ConcurrentReadableHashMap<…GenericCacheEntry>::find\`"
  echo "and \`MetadataCacheKey::operator==\`): those lookups hash metadata addresses, so how long they probe depends on"
  echo "where a build's code and the runtime's allocations land, not on the work done. One GET moved by 21,000"
  echo "instructions, all of it there, between two builds that differed in one attribute, while the rest moved by 1,000."
  echo
  echo "| Scenario | Raw | Courier | Raw/Courier | Overhead | Raw without probing | Courier without probing | Overhead without probing |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  if ((${#INSTRUCTION_ROWS[@]})); then printf '%s\n' "${INSTRUCTION_ROWS[@]}"; else echo "| (valgrind not installed) | | | | | | | |"; fi
  echo
  echo "## Response limit"
  echo
  echo "\`APIClient.send\` of the $LARGE_MIB MiB file as \`Endpoint<Data>\` with \`maxResponseBytes\` at 10 MiB, which must fail"
  echo "with \`.responseTooLarge\`: once with nginx's \`Content-Length\` (refused from the head) and once streamed chunked"
  echo "without a length (refused when the 10 MiB are passed). One run each; peak RSS is the whole process's."
  echo
  echo "| Transport | Response | Time to the error | Peak RSS |"
  echo "|---|---|---:|---:|"
  printf '%s\n' "${LIMIT_ROWS[@]}"
  echo
  echo "## Cache stores at 100,000 entries"
  echo
  echo "\`InMemoryCacheStore\` and \`SQLiteCacheStore\` filled to their byte limit with $EVICTION_ENTRIES entries of 1 KiB"
  echo "(the fill is not timed). *writes*: $EVICTION_WRITES further \`store(_:)\` calls, each evicting the least"
  echo "recently used entry; *hits*: $((EVICTION_WRITES * 10)) \`entries(for:)\` lookups of random stored keys. Best of"
  echo "$ROUNDS runs; the time column is per operation."
  echo
  echo "| Store | Operation | Rate | Time |"
  echo "|---|---|---:|---:|"
  printf '%s\n' "${EVICTION_ROWS[@]}"
  echo
  echo "## Ratios"
  echo
  echo '```'
  printf '%s\n' "${RATIOS[@]}"
  echo '```'
  # The peers (kean/Get, Alamofire) are built from fetched sources that are not part of this repository, so their
  # rows are measured by hand and kept in PEERS.md; the A/B rows need two builds each and are kept in AB.md.
  for kept in PEERS.md AB.md; do
    if [[ -f "$HERE/$kept" ]]; then
      echo
      cat "$HERE/$kept"
    fi
  done
} >"$HERE/RESULTS.md"

echo
printf '%s\n' "${ROWS[@]}"
echo
printf '%s\n' "${RATIOS[@]}"
echo
printf '%s\n' "${TARGET_ROWS[@]}"
echo "Wrote $HERE/RESULTS.md in ${ELAPSED} s."
